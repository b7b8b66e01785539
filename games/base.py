"""The contract between a game and the rest of the project, in one place.

A game is one module under ``games/``: numba functions over a *state vector* (an
int64 array the game lays out, e.g. ``[turn, cell, cell, ...]``) and a :class:`Game`
subclass holding the options, the index space (tiers) and the text notation.
``games.tester.check_game`` checks every item below on whole small boards and names
the position and tier that break it; every registered game runs it in the tests.

Numba functions (``GameFunctions``). ``data`` is the NamedTuple of arrays the Game
instance builds (its ``<Game>Data`` class: ``params`` for the options and sizes, and
the game's tables, each field named and described), so one compiled kernel serves
every size and variant, and kernels read ``data.neighbours``, never ``data[3]``.
All run in nopython mode and must not allocate per call where avoidable.

* ``decode(data, tier, local, state)`` REQUIRED. Writes the state of index ``local``
  of ``tier`` into ``state``. Precondition: ``0 <= local < tier size``; the index
  may be illegal (any state is fine then, as long as ``primitive`` says ILLEGAL).
* ``encode(data, state) -> (tier, local)`` REQUIRED. The perfect hash: the inverse of
  ``decode``. Under ``--symmetry`` it returns the index of the class's stored
  representative (so an index that does not encode back to itself is not one).
  Precondition: ``state`` is indexed (not a finished game that ``terminal``
  answers); it may be one that ``decode`` gives for an illegal index.
* ``generate_moves(data, state, moves) -> count`` REQUIRED. Move codes (any int64
  the game likes) of the player to move, into ``moves[:count]``, at most
  ``max_moves``. Precondition: ``state`` is legal and not primitive.
* ``do_move(data, state, move, child) -> same_mover`` REQUIRED. Writes the position
  after ``move`` into ``child``; returns 1 if the same player moves again (a Konane
  go-again), else 0.
* ``primitive(data, state, count) -> code`` REQUIRED. The value code (``tiersolve.values``)
  of a finished game for the player to move, ILLEGAL for a state no play can reach,
  or UNDECIDED; ``count`` is what ``generate_moves`` returned (for "no move loses").
* ``expand(data, tier, local, out, state, child, moves) -> count`` OPTIONAL, a faster
  equivalent of the composition of the five above (``composed_expand``); the tests
  compare the two on every index of small boards. The result is sign-coded:

  - ``count > 0``: the position has ``count`` moves; row ``k`` of ``out`` holds
    (child tier, child local index, same_mover, move code), columns
    ``tiersolve.contract.CHILD_TIER``... Under ``--symmetry`` the child's index is its
    class representative's.
  - ``count < 0``: the position is finished (or, under ``--symmetry``, not its class
    representative: NONCANONICAL); ``-count`` is its value code.
  - ``count == 0``: the index is not a legal position.

  ``state``, ``child`` and ``moves`` are scratch arrays (``state_size``,
  ``state_size``, ``max_moves`` int64). A game's own ``expand`` is inlined into
  solver loops compiled without reference counting (``tiersolve.jit.specialise``), so
  it must allocate no array and copy none by slice (``child[:] = state``); the
  composed one, which may, is compiled with it.
* ``expand_leaving(data, tier, local, out, state, child, moves) -> (leaving, staying)``
  OPTIONAL: ``expand`` without the work of encoding the moves that stay in the tier,
  which the loopy solver only counts when it starts a tier. ``staying < 0``: the
  position is not in play and ``leaving`` is what ``expand`` returns (0 or -code).
  Else ``out[:leaving]`` holds the rows of the moves that leave the tier (to other
  tiers or TERMINAL), as ``expand`` gives them, and ``staying`` is the number of
  *distinct* positions the moves that stay lead to. Same rules as ``expand``; the
  tester compares the two on every index. A game whose count is right only for some
  options (without ``--symmetry``) sets ``use_expand_leaving`` for the others.
* ``terminal(data, state) -> code or 0`` OPTIONAL, for games whose index leaves out
  some finished games (Breakthrough does not store positions where a piece has
  arrived): the finished game's value code for the player to move (WIN, LOSE, TIE
  or DRAW: the solvers refuse another), else 0. Moves there reach the solver as
  child tier ``TERMINAL`` with the value code as index.
* ``parents(data, tier, local, out, state, other) -> count`` OPTIONAL, the un-move
  generator of LOOPY tiers: writes ``(parent_local << 1) | same_mover`` for parents
  of ``(tier, local)`` inside ``tier`` into ``out[:count]`` (at most
  ``max_parents``). Precondition: ``(tier, local)`` is a legal, canonical, decided
  position of a LOOPY tier. It must give every legal, non-primitive position of the
  tier that has a move to this position (under ``--symmetry``: to any image of it),
  as its canonical index; it may repeat one, or give illegal or primitive ones (the
  solver skips positions already decided). Without it, loopy tiers are solved by
  value iteration. ``state`` and ``other`` are scratch arrays of ``state_size``.
* ``sweep_level(data, tier, local, state) -> level`` OPTIONAL, for SWEEP tiers: a
  level in ``0..sweep_levels-1`` (at most 256 levels) such that every move staying
  in the tier leads to a strictly higher level (Northcott: how far the gaps have
  closed). Precondition: ``0 <= local < tier size``, any index (an illegal one may
  have any level). With it, a large SWEEP tier is solved level by level from the
  highest, every level on all threads; without it, one thread sweeps the tier.
  ``state`` is a scratch array of ``state_size``. The game sets ``sweep_levels``
  (0 leaves the function unused, e.g. for a loopy variant).

The ``Game`` subclass (class members, checked when the game is made):

* ``name`` REQUIRED: the registry's name, the module's ``NAME`` (``games/__init__.py``
  finds a game by that line); ``title`` REQUIRED: the game's name for people.
* ``options_spec`` REQUIRED: the ``Option`` of each command-line option.
* ``functions`` REQUIRED: the ``GameFunctions`` above.
* ``state_fields`` OPTIONAL: what the state vector holds, for ``decode_many``'s users.
* ``piece_noun`` OPTIONAL: what a player picks up to move, as the page of ``tiersolve
  serve`` names it in its hint ("Click a ringed piece"; Quixo's ``"cube"``).
* ``tester_boards`` and ``reference_boards`` REQUIRED, ``slow_reference_boards``
  OPTIONAL: option sets of small boards. The tests run the game tester on every
  index of each tester board, and compare every position of each reference board
  with the plain-Python rules in ``tests/reference/<module>.py`` (the slow ones
  under ``pytest -m slow``).
* ``measured_rate`` OPTIONAL, for a game too large to build here: (indices solved a
  second on one core, where that was measured); ``tiersolve build --plan`` then
  gives the largest tier and the hours a build takes at that rate. A property when
  it depends on the options.

Its methods:

* ``build()`` REQUIRED: returns the ``GameSpec`` of these options (``self.options``,
  checked): the index space (``tiers``), the kernels' ``data`` and sizes. Raise
  ValueError for options that make no game (a line longer than the board); it
  reaches the user as one GameError line.
* ``parse(text)``, ``format(state)``, ``move_name(state, move)`` and
  ``default_start()`` REQUIRED: the notation (docs/RULES.md). ``parse`` raises
  ValueError (a ``PositionError`` where it can tell which) naming what is wrong.
* ``tier_children(tier)`` REQUIRED: every tier a move from ``tier`` can reach,
  including ``tier`` itself if moves can stay in it. Between different tiers the
  graph must be acyclic.
* ``tier_type(tier)`` OPTIONAL (``tiersolve.contract.TierType``): IMMEDIATE if no move
  stays in the tier, SWEEP if moves that stay lead to a higher local index, LOOPY if
  they may cycle. The default derives it from ``tier_children`` and ``loopy``.
* ``normalise(options)``, ``unreachable_reason(state)``, ``explain_illegal(state)``
  and ``grid(state)`` OPTIONAL: canonical options, positions the index holds that
  play never reaches, why a position is illegal, and the board for drawing.
* ``move_sketch(state, name)`` and ``board_paths()`` OPTIONAL: where a move shows
  on a picture of the board (a ``MoveSketch``; the default reads the squares its
  name names), and lines drawn on the board (Surakarta's circuits), for
  ``tiersolve serve``'s page. ``pieces_in_hand(state)`` OPTIONAL: pieces held off the
  board, drawn beside it (a move from one starts at ``hand_cell``); the class member
  ``piece_colours`` OPTIONAL: how the game's pieces are filled; ``board_of_points``
  OPTIONAL: the board is points on lines, not squares (Kaooa's pentagram), and
  ``point_names()`` the names written beside them. ``square_svg(state,
  row, col, cx, cy, cell)`` OPTIONAL: the picture of a square that holds more than
  its letter in ``grid`` says (Gobblet Gobblers' stacks). ``picture_svg(state,
  caption)`` OPTIONAL: the picture of a game without a board (Fair Shares and Varied
  Pairs' heaps).

Text parsing, printing and move names are plain Python and never run inside a solve.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, fields
from typing import Any, Callable, ClassVar, Iterator, NamedTuple

import numpy as np

from tiersolve.contract import (
    CHILD_INDEX, CHILD_MOVE, CHILD_SAME_MOVER, CHILD_TIER, TERMINAL, TierType,
)
from tiersolve.errors import GameError, OtherBoardError
from tiersolve.hashers.boards import BoardSpace, decode_board, encode_board
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import bound_later, jit, specialise
from tiersolve.values import LOSE, NONCANONICAL, UNDECIDED, WIN

# What the templates below call; ``specialise`` binds them to a game's functions.
decode, encode, generate_moves, do_move, primitive, terminal = bound_later(
    "decode", "encode", "generate_moves", "do_move", "primitive", "terminal")


#: Whether messages name a game's options as command-line flags (``--max-step 3``)
#: rather than Python keywords (``max_step=3``); set by ``options_as_flags``.
_AS_FLAGS: ContextVar[bool] = ContextVar("tiersolve_options_as_flags", default=False)


@contextmanager
def options_as_flags() -> Iterator[None]:
    """Inside the block, errors name options as the command line spells them
    (``--bogus``); outside, as Python does (``bogus``). The commands use it."""
    token = _AS_FLAGS.set(True)
    try:
        yield
    finally:
        _AS_FLAGS.reset(token)


def option_text(name: str, value: Any = None) -> str:
    """How a message names the option ``name`` (given with ``value``): ``max_step``
    or ``max_step=3`` in Python, ``--max-step`` or ``--max-step 3`` in a command.

    >>> option_text("max_step", 3)
    'max_step=3'
    >>> with options_as_flags():
    ...     option_text("max_step", 3)
    '--max-step 3'
    """
    if _AS_FLAGS.get():
        flag = "--" + name.replace("_", "-")
        return flag if value is None else f"{flag} {value}"
    return name if value is None else f"{name}={value}"


@dataclass(frozen=True)
class Option:
    """A game option: ``--rows 3``, ``--misere`` ... (name uses underscores)."""

    name: str
    kind: type
    default: Any
    help: str
    minimum: int | None = None
    maximum: int | None = None

    @property
    def flag(self) -> str:
        """The command-line spelling, e.g. ``--max-step``."""
        return "--" + self.name.replace("_", "-")

    def check(self, value: Any) -> Any:
        """The value converted to the option's type; ValueError if it does not fit."""
        named = option_text(self.name)
        if self.kind is bool:
            if not isinstance(value, (bool, np.bool_)) and value not in (0, 1):
                raise ValueError(f"{named} is True or False, got {value!r}")
            return bool(value)
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise ValueError(f"{named} must be a whole number, got {value!r}")
            value = int(value)
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"{named} must be at least {self.minimum}, got {value}")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"{named} must be at most {self.maximum}, got {value}")
            return value
        return self.kind(value)


def rows_option(default: int, minimum: int = 1, maximum: int | None = None) -> Option:
    """``--rows``: rows are numbered in square names, so only the game's own limits
    (cells, index size) bound them."""
    return Option("rows", int, default, "number of rows", minimum, maximum)


def cols_option(default: int, minimum: int = 1, maximum: int = 26) -> Option:
    """``--cols``: at most 26, the letters a-z of square names."""
    return Option("cols", int, default, "number of columns", minimum, maximum)


MISERE = Option("misere", bool, False, "misère: the player who would win by the standard rule loses")


class GameFunctions(NamedTuple):
    """The numba functions of a game (see the module docstring)."""

    decode: Callable
    encode: Callable
    generate_moves: Callable
    do_move: Callable
    primitive: Callable
    expand: Callable | None = None
    terminal: Callable | None = None
    parents: Callable | None = None
    sweep_level: Callable | None = None
    expand_leaving: Callable | None = None


class _NotGiven:
    """The default of the members a ``GameSpec`` must be given."""

    def __repr__(self) -> str:
        return "not given"


NOT_GIVEN: Any = _NotGiven()


@dataclass(frozen=True)
class GameSpec:
    """What ``Game.build()`` returns for one set of options: the index space and the
    sizes the kernels need. Checked when the game is made (``problems``): a member
    missing or of the wrong type is one GameError line naming the game and the
    member.

    >>> from tiersolve.hashers.tiers import TierLayout
    >>> GameSpec(tiers=TierLayout(keys=[()], sizes=[4]), data=(), state_size=2,
    ...          max_moves=2, loopy=False, remoteness_bound=2, hasher={}).problems()
    ['data is (), not a NamedTuple of numpy arrays', "hasher is {}, not a dict with a 'name'"]
    """

    #: REQUIRED. The tiers and their sizes (``hashers.tiers.TierLayout``).
    tiers: TierLayout = NOT_GIVEN
    #: REQUIRED. The NamedTuple of numpy arrays every kernel receives as ``data``, or a
    #: function of no arguments that makes it, called when ``game.data`` is first read:
    #: for tables that take seconds to make, which naming a game, its tiers or its
    #: plan does not need (Quixo 5x5's).
    data: tuple | Callable[[], tuple] = NOT_GIVEN
    #: REQUIRED. The length of a state vector (>= 1).
    state_size: int = NOT_GIVEN
    #: REQUIRED. The most moves a position has (the rows of ``expand``'s ``out``).
    max_moves: int = NOT_GIVEN
    #: REQUIRED. Whether moves inside a tier may cycle (LOOPY tiers).
    loopy: bool = NOT_GIVEN
    #: REQUIRED. A bound on every remoteness (records then fit a byte below 31), or
    #: None when there is none.
    remoteness_bound: int | None = NOT_GIVEN
    #: REQUIRED. How positions are hashed, for the file's metadata: a dict with a
    #: "name" and what else describes the layout (a layout change is a new file).
    hasher: dict = NOT_GIVEN
    #: The most parents ``parents`` gives a position (REQUIRED with ``parents``).
    max_parents: int = 0
    #: Levels of ``sweep_level`` (0: none, or not for these options; at most 256).
    sweep_levels: int = 0
    #: The un-move generator never gives one parent twice (the tester checks it).
    parents_are_distinct: bool = False
    #: Whether the game's ``expand_leaving`` holds for these options.
    use_expand_leaving: bool = True

    def problems(self) -> list[str]:
        """What is wrong with the members, one phrase each (empty when nothing is)."""
        found = []
        for member in fields(self):
            value = getattr(self, member.name)
            if value is NOT_GIVEN:
                found.append(f"{member.name} is not given")
                continue
            wrong = _SPEC_CHECKS[member.name](value)
            if wrong:
                found.append(f"{member.name} is {_short(value)}, not {wrong}")
        return found


def _whole(least: int, most: int | None = None) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
                or value < least or (most is not None and value > most):
            return f"a whole number from {least}" + (f" to {most}" if most is not None else " up")
        return None
    return check


def _flag(value: Any) -> str | None:
    return None if isinstance(value, bool) else "True or False"


def _arrays(value: Any) -> str | None:
    if isinstance(value, tuple) and hasattr(value, "_fields") and \
            all(isinstance(item, np.ndarray) for item in value):
        return None
    return "a NamedTuple of numpy arrays"


_SPEC_CHECKS: dict[str, Callable[[Any], str | None]] = {
    "tiers": lambda value: None if isinstance(value, TierLayout) else "a TierLayout",
    "data": lambda value: None if callable(value) and not isinstance(value, tuple) else _arrays(value),
    "state_size": _whole(1),
    "max_moves": _whole(0),
    "loopy": _flag,
    "remoteness_bound": lambda value: None if value is None else _whole(0)(value),
    "hasher": lambda value: None if isinstance(value, dict) and isinstance(value.get("name"), str)
    else "a dict with a 'name'",
    "max_parents": _whole(0),
    "sweep_levels": _whole(0, 256),
    "parents_are_distinct": _flag,
    "use_expand_leaving": _flag,
}


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class _FromSpec:
    """A Game member read from its ``GameSpec`` (set only by returning it from
    ``build()``)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, game: Any, owner: type | None = None) -> Any:
        if game is None:
            return self
        return getattr(game.spec, self.name)

    def __set__(self, game: Any, value: Any) -> None:
        raise AttributeError(f"{type(game).__name__}.{self.name} comes from the GameSpec that "
                             "build() returns")


class _DataFromSpec(_FromSpec):
    """``Game.data``: the spec's arrays, or, when the spec gives a function that makes
    them (``GameSpec.data``), what it makes, made once."""

    def __get__(self, game: Any, owner: type | None = None) -> Any:
        value = super().__get__(game, owner)
        return game._made_data() if game is not None and callable(value) else value


@jit
def never_terminal(data, state):
    """``terminal`` for games that index every position."""
    return 0


@jit(forceinline=True)
def add_move(out, count, tier, local, code):
    """Row ``count`` of ``expand``'s ``out``: a move ``code`` to (``tier``, ``local``),
    the other player to move; returns ``count + 1``."""
    out[count, CHILD_TIER] = tier
    out[count, CHILD_INDEX] = local
    out[count, CHILD_SAME_MOVER] = 0
    out[count, CHILD_MOVE] = code
    return count + 1


@jit(forceinline=True)
def no_move_value(misere: int) -> int:
    """The value for a player who cannot move: a loss, or a win under misère."""
    return WIN if misere else LOSE


@jit(forceinline=True)
def code_masks(state, cells: int, first: int, second: int, offset: int = 1):
    """Bit masks of the cells holding code ``first`` and code ``second`` in a state
    vector whose cells start at ``offset`` (bit c = cell c)."""
    first_mask = 0
    second_mask = 0
    for c in range(cells):
        if state[offset + c] == first:
            first_mask |= np.int64(1) << c
        elif state[offset + c] == second:
            second_mask |= np.int64(1) << c
    return first_mask, second_mask


@jit(forceinline=True)
def fill_cells(state, cells: int, first_mask, second_mask, first: int, second: int,
               offset: int = 1) -> None:
    """The inverse of ``code_masks``: cell codes from two masks (0 where neither)."""
    for c in range(cells):
        if (first_mask >> c) & 1:
            state[offset + c] = first
        elif (second_mask >> c) & 1:
            state[offset + c] = second
        else:
            state[offset + c] = 0


@jit(forceinline=True)
def mover_masks(state, cells: int):
    """(the player to move's cells, the other's) of a ``[turn, cells...]`` state whose
    players, turn 0 and turn 1, have cell codes 1 and 2."""
    first, second = code_masks(state, cells, 1, 2)
    return (first, second) if state[0] == 0 else (second, first)


@jit(forceinline=True)
def fill_after_move(child, cells: int, turn: int, mine, theirs) -> None:
    """The inverse of ``mover_masks`` for the position after player ``turn`` moved:
    the other player to move, the mover's cells ``mine``."""
    child[0] = 1 - turn
    if turn == 0:
        fill_cells(child, cells, mine, theirs, 1, 2)
    else:
        fill_cells(child, cells, theirs, mine, 1, 2)


@jit
def decode_board_state(data, tier, local, state):
    """``decode`` of a game indexed by ``hashers.boards`` (``data.board``), whose state
    is ``[turn, cells...]`` with cell codes 1 and 2 for the two colours."""
    first, second, turn, _ = decode_board(data.board, tier, local)
    state[0] = turn
    fill_cells(state, data.board[0], first, second, 1, 2)


@jit
def encode_board_state(data, state):
    """``encode`` of such a game."""
    first, second = code_masks(state, data.board[0], 1, 2)
    return encode_board(data.board, first, second, state[0])


MAX_BOARD_CELLS = 63  # bit boards are int64 masks; games written for all 64 bits say so


def board_cells(rows: int, cols: int, limit: int = MAX_BOARD_CELLS) -> int:
    """rows * cols, or ValueError if a bit board cannot hold that many cells."""
    cells = rows * cols
    if cells > limit:
        raise ValueError(f"a {rows}x{cols} board has {cells} cells; at most {limit} are supported")
    return cells


@dataclass(frozen=True)
class Child:
    """A legal move from a position: its name, the resulting state, and whether the
    same player moves again."""

    move: str
    state: np.ndarray
    same_mover: bool


#: ``MoveSketch`` kinds: a piece put on the board, a piece that moves, a line pushed.
PLACE, MOVE, PUSH = "place", "move", "push"
#: A square's name inside a move's name (``b4xb3``, ``a4-a5``, ``b2 right to d2``).
SQUARE_IN_NAME = re.compile(r"([a-z])(\d+)")


@dataclass(frozen=True)
class MoveSketch:
    """Where a move shows on a picture of the board. Cells are (top-down row,
    column), as ``Game.grid`` lists them.

    * ``PLACE``: a piece is put on ``cells`` (one; two for a domino).
    * ``MOVE``: the piece on ``cells[0]`` goes to ``cells[1]``; ``path``, when the
      way is not a straight line (Surakarta's loops), is the points it passes from
      start to end, in cell units ((0, 0) the top-left cell's centre; off the board
      for a loop).
    * ``PUSH``: a piece enters at edge ``side`` (``L``, ``R``, ``T`` or ``B``) and
      pushes along the row or column ``cells``, listed from that edge.
    """

    kind: str
    cells: tuple[tuple[int, int], ...]
    path: tuple[tuple[float, float], ...] = ()
    side: str = ""


def _expand_composed(data, tier, local, out, state, child, moves):
    """Template: ``expand`` built from the game's five functions (bound by specialise).
    An index whose state hashes to another index is not its symmetry class's
    representative."""
    decode(data, tier, local, state)
    stored_tier, stored_local = encode(data, state)
    if stored_tier != tier or stored_local != local:
        return -np.int64(NONCANONICAL)
    count = generate_moves(data, state, moves)
    code = primitive(data, state, count)
    if code != UNDECIDED:
        return -np.int64(code)
    for k in range(count):
        out[k, 2] = do_move(data, state, moves[k], child)
        finished = terminal(data, child)
        if finished != 0:
            out[k, 0], out[k, 1] = TERMINAL, finished
        else:
            out[k, 0], out[k, 1] = encode(data, child)
        out[k, 3] = moves[k]
    return count


def _decode_many(data, tiers, locals_, states):
    """Template: decode many indices into the rows of ``states``."""
    for i in range(tiers.shape[0]):
        decode(data, tiers[i], locals_[i], states[i])


def _terminal_many(data, states, codes):
    """Template: ``terminal`` of the rows of ``states``."""
    for i in range(states.shape[0]):
        codes[i] = terminal(data, states[i])


def _encode_many(data, states, tiers, locals_):
    """Template: encode the rows of ``states``."""
    for i in range(states.shape[0]):
        tiers[i], locals_[i] = encode(data, states[i])


class Game:
    """One game with one set of options (variant and size).

    Subclasses set the class members and implement the methods the module docstring
    lists; ``build()`` returns the ``GameSpec`` whose members the game then has
    (``game.tiers``, ``game.data``...). The game is checked as it is made: a member
    missing or of the wrong type is one GameError line.

    >>> from tiersolve.games import make_game
    >>> game = make_game("1210", target=4)
    >>> [(c.move, game.format(c.state)) for c in game.children(game.parse("(L 2)"))]
    [('+1', '(R 3)'), ('+2', '(R 4)')]
    >>> make_game("1210", target=0)
    Traceback (most recent call last):
    ...
    tiersolve.errors.GameError: target must be at least 1, got 0
    """

    name: ClassVar[str]
    title: ClassVar[str]
    options_spec: ClassVar[tuple[Option, ...]]
    functions: ClassVar[GameFunctions]
    #: What ``state`` vectors hold, for users of ``decode_many``.
    state_fields: ClassVar[str] = ""
    #: Small boards (option sets) whose every index the game tester checks.
    tester_boards: ClassVar[tuple[dict[str, Any], ...]] = ()
    #: Small boards whose every position the tests compare with the reference rules.
    reference_boards: ClassVar[tuple[dict[str, Any], ...]] = ()
    #: Reference boards that take minutes: compared under ``pytest -m slow`` only.
    slow_reference_boards: ClassVar[tuple[dict[str, Any], ...]] = ()
    #: What a player picks up to move, as ``tiersolve serve``'s page names it in its
    #: hint ("Click a ringed piece"; Quixo's cubes).
    piece_noun: ClassVar[str] = "piece"
    #: Fill colours of this game's pieces by letter, for drawing (over
    #: ``games.board.PIECE_COLOURS``); a piece named here is labelled with its letter.
    piece_colours: ClassVar[dict[str, str]] = {}
    #: (Indices solved a second on one core, where measured), for ``--plan``'s hours.
    measured_rate: tuple[int, str] | None = None
    #: Whether the board is points joined by lines (``board_paths``), drawn as round
    #: spots, rather than squares; a cell ``' '`` of ``grid`` is then no point (Kaooa).
    board_of_points: ClassVar[bool] = False

    tiers = _FromSpec()
    data = _DataFromSpec()
    state_size = _FromSpec()
    max_moves = _FromSpec()
    loopy = _FromSpec()
    remoteness_bound = _FromSpec()
    hasher = _FromSpec()
    max_parents = _FromSpec()
    sweep_levels = _FromSpec()
    parents_are_distinct = _FromSpec()
    use_expand_leaving = _FromSpec()

    def __init__(self, **options: Any) -> None:
        self._check_class()
        known = {option.name: option for option in self.options_spec}
        unknown = sorted(set(options) - set(known))
        if unknown:
            named = ", ".join(map(option_text, unknown))
            valid = ", ".join(option_text(option.name) for option in self.options_spec)
            raise GameError(f"{self.name} has no option {named} (options: {valid})")
        try:
            self.options = self.normalise({name: option.check(options.get(name, option.default))
                                           for name, option in known.items()})
            spec = self.build()
        except GameError:
            raise
        except ValueError as error:  # options that make no game of this kind
            raise GameError(str(error)) from None
        if not isinstance(spec, GameSpec):
            raise GameError(f"{self.name}: build() returns {_short(spec)}, not a GameSpec")
        problems = spec.problems() + self._function_problems(spec)
        if problems:
            raise GameError(f"{self.name}: build() gives a GameSpec whose {problems[0]}")
        self.spec = spec

    def _made_data(self) -> tuple:
        """``spec.data()``, once: the kernels' arrays of a spec that makes them on use."""
        made = self.__dict__.get("_data")
        if made is None:
            made = self.spec.data()
            wrong = _arrays(made)
            if wrong:
                raise GameError(f"{self.name}: build()'s data function gives {_short(made)}, "
                                f"not {wrong}")
            self.__dict__["_data"] = made
        return made

    @classmethod
    def _check_class(cls) -> None:
        """The class members and methods every game has (the module docstring)."""
        for member, kind in (("name", str), ("title", str), ("options_spec", tuple),
                             ("functions", GameFunctions), ("state_fields", str)):
            if not isinstance(getattr(cls, member, None), kind):
                raise GameError(f"{getattr(cls, 'name', cls.__name__)}: the class member "
                                f"{member} is {_short(getattr(cls, member, None))}, not a "
                                f"{kind.__name__}")
        for method in ("build", "parse", "format", "move_name", "tier_children",
                       "default_start"):
            if getattr(cls, method) is getattr(Game, method):
                raise GameError(f"{cls.name}: the method {method} is not implemented")

    def _function_problems(self, spec: GameSpec) -> list[str]:
        """What the spec promises that the game's functions cannot keep."""
        f = self.functions
        found = []
        if f.parents is not None and spec.loopy and spec.max_parents < 1:
            found.append("max_parents is 0, but the game has an un-move generator")
        if spec.sweep_levels and f.sweep_level is None:
            found.append(f"sweep_levels is {spec.sweep_levels}, but the game has no sweep_level")
        if spec.parents_are_distinct and f.parents is None:
            found.append("parents_are_distinct is True, but the game has no un-move generator")
        return found

    def normalise(self, options: dict[str, Any]) -> dict[str, Any]:
        """Options in their canonical form, so that one game has one label and one file
        (e.g. a piece limit above the pieces a side has means "no limit")."""
        return options

    # -- to be provided by each game -------------------------------------------------
    def build(self) -> GameSpec:
        """The index space and kernel sizes of ``self.options`` (module docstring)."""
        raise NotImplementedError

    def parse(self, text: str) -> np.ndarray:
        """The state vector of a position text; ValueError says what is wrong."""
        raise NotImplementedError

    def format(self, state: np.ndarray) -> str:
        """The position text of a state vector."""
        raise NotImplementedError

    def move_name(self, state: np.ndarray, move: int) -> str:
        raise NotImplementedError

    def tier_children(self, tier: int) -> set[int]:
        """Tiers that moves from ``tier`` can reach (including ``tier`` itself if moves
        can stay in it; such moves must then lead to a higher local index unless the
        game is loopy)."""
        raise NotImplementedError

    def default_start(self) -> str:
        """The start position text for these options."""
        raise NotImplementedError

    def tier_type(self, tier: int) -> TierType:
        """How ``tier`` is solved (see the module docstring)."""
        if tier not in self.tier_children(tier):
            return TierType.IMMEDIATE
        return TierType.LOOPY if self.loopy else TierType.SWEEP

    def unreachable_reason(self, state: np.ndarray) -> str | None:
        """OPTIONAL. Why a parsed position that the index holds can never arise in play,
        or None. For games whose index over-approximates what play reaches in a way
        the numba functions cannot see (Surround does not store who owns a body cell,
        so a body cell cut off from its worm looks legal to the solver); lookups refuse
        such positions. Precondition: ``state`` came from ``parse``."""
        return None

    def explain_illegal(self, state: np.ndarray) -> str:
        """Why a well-formed state can never arise in play (games may be more specific)."""
        return "no sequence of legal moves leads to it"

    # -- provided here ----------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        options = self.__dict__.get("options")
        if options is not None and name in options:
            return options[name]
        raise AttributeError(f"{type(self).__name__!s} has no attribute {name!r}")

    def __repr__(self) -> str:
        return f"make_game({self.name!r}, {', '.join(f'{k}={v!r}' for k, v in self.options.items())})"

    @property
    def expand(self) -> Callable:
        """The numba ``expand`` function the solvers call."""
        return self.functions.expand or self.composed_expand

    @property
    def expand_counts_references(self) -> bool:
        """Whether the kernels that inline ``expand`` must count references: only
        for the composed ``expand``, whose ``do_move`` may copy arrays."""
        return self.functions.expand is None

    @property
    def composed_expand(self) -> Callable:
        """``expand`` built from the five functions (the reference for a faster one)."""
        f = self.functions
        return specialise(_expand_composed, self.name, decode=f.decode, encode=f.encode,
                          generate_moves=f.generate_moves, do_move=f.do_move,
                          primitive=f.primitive, terminal=f.terminal or never_terminal)

    @property
    def sweep_level(self) -> Callable | None:
        """The numba level function of SWEEP tiers, or None (they are swept in order)."""
        return self.functions.sweep_level if self.sweep_levels else None

    @property
    def expand_leaving(self) -> Callable | None:
        """The numba ``expand_leaving``, or None (the solver then uses ``expand``)."""
        return self.functions.expand_leaving if self.use_expand_leaving else None

    @property
    def parents(self) -> Callable | None:
        """The numba un-move generator, or None (loopy tiers then use value iteration)."""
        return self.functions.parents

    @property
    def kernel_label(self) -> str:
        """Names this game's compiled kernels (``specialise`` adds the bound functions)."""
        return self.name

    def position_text(self, tier: int, local: int) -> str:
        """The text of the position at (tier, local), for messages."""
        state = np.zeros(self.state_size, dtype=np.int64)
        self.functions.decode(self.data, tier, local, state)
        return self.format(state)

    def move_to(self, tier: int, local: int, child_tier: int, child_local: int) -> str | None:
        """The name of a move from (tier, local) to (child_tier, child_local), if any."""
        state = np.zeros(self.state_size, dtype=np.int64)
        self.functions.decode(self.data, tier, local, state)
        for move in self.moves_of(state):
            child, _ = self.play(state, int(move))
            if self.terminal_value(child) is None and \
                    tuple(self.functions.encode(self.data, child)) == (child_tier, child_local):
                return self.move_name(state, int(move))
        return None

    @property
    def tier_sizes(self) -> np.ndarray:
        return np.asarray(self.tiers.sizes, dtype=np.int64)

    @property
    def size(self) -> int:
        """Number of indices of the position space."""
        return self.tiers.size

    def board_shape(self) -> tuple[int, int]:
        """(rows, columns) of the board, for games with one."""
        if "size" in self.options:
            return self.options["size"], self.options["size"]
        return self.options["rows"], self.options["cols"]

    def grid(self, state: np.ndarray) -> list[str] | None:
        """The board as rows of one-character cells, top row first, for drawing; None
        for a game without a board. The default reads the last ``rows`` words of the
        position text (games whose text is not a grid override it).

        >>> from tiersolve.games import make_game
        >>> game = make_game("ttt", rows=3, cols=3)
        >>> game.grid(game.parse("(o x-- -o- --x)"))
        ['x--', '-o-', '--x']
        """
        try:
            rows, cols = self.board_shape()
        except KeyError:
            return None
        words = self.format(state).strip("()").split()
        board = words[-rows:]
        if len(words) <= rows or any(len(word) != cols for word in board):
            return None
        return board

    def move_sketch(self, state: np.ndarray, name: str) -> MoveSketch | None:
        """Where the move ``name`` of position ``state`` shows on a picture of the
        board, or None (a pass, a game without a board). The default reads the
        squares the name names: one is a piece placed there, two a piece moving from
        the first to the second (Domineering says its two are a domino placed).

        >>> from tiersolve.games import make_game
        >>> game = make_game("clobber", rows=2, cols=2)
        >>> game.move_sketch(game.parse("(b wb bw)"), "b2xa2")
        MoveSketch(kind='move', cells=((0, 1), (0, 0)), path=(), side='')
        >>> game = make_game("ttt", rows=3, cols=3)
        >>> game.move_sketch(game.start(), "b2")
        MoveSketch(kind='place', cells=((1, 1),), path=(), side='')
        """
        squares = SQUARE_IN_NAME.findall(name)
        grid = self.grid(state)
        if not 1 <= len(squares) <= 2 or grid is None:
            return None
        try:
            cells = tuple(parse_square(letter + number, len(grid), len(grid[0]))
                          for letter, number in squares)
        except ValueError:
            return None
        return MoveSketch(PLACE if len(cells) == 1 else MOVE, cells)

    def board_paths(self) -> list[list[tuple[float, float]]]:
        """Lines drawn on the board under the pieces, each a list of points in the cell
        units of ``MoveSketch.path``: none, but for Surakarta's circuits."""
        return []

    def point_names(self) -> dict[tuple[int, int], str]:
        """OPTIONAL, for boards of points (``board_of_points``): the name of the point
        on each (top-down row, column) cell, written beside it on the picture (Kaooa's
        numbers 0-9, which its moves name)."""
        return {}

    def pieces_in_hand(self, state: np.ndarray) -> list[tuple[int, int, str, int]]:
        """OPTIONAL, for games with pieces off the board (Dōbutsu shōgi's hands): each
        kind of piece a side holds, as (side, column, letter, count). Side 0's are drawn
        in a row under the board, side 1's over it, each at its column; a move that
        takes one onto the board is a ``MoveSketch`` of kind MOVE from ``hand_cell``.

        >>> from tiersolve.games import make_game
        >>> game = make_game("dshogi")
        >>> game.pieces_in_hand(game.parse("(L gle --- -C- ELG c)"))
        [(1, 2, 'c', 1)]
        """
        return []

    def turn_text(self, position: str) -> str | None:
        """The player to move as the position text names them (its first word: ``x``
        in ``(x ...)``), for messages; None for a game whose texts name no turn (an
        impartial game: Fair Shares and Varied Pairs), where they say "first player"
        and "second player"."""
        return position.strip("( ").split(" ", 1)[0]

    def picture_svg(self, state: np.ndarray, caption: str = "") -> str | None:
        """OPTIONAL, for games without a board (``grid`` gives None): an SVG picture of
        the position, with ``caption`` under it, drawn instead of its text (Fair Shares
        and Varied Pairs' heaps); None draws the text."""
        return None

    def square_svg(self, state: np.ndarray, row: int, col: int, cx: float, cy: float,
                   cell: int) -> str | None:
        """OPTIONAL, for games whose squares hold more than ``grid``'s letter says
        (Gobblet Gobblers' stacks): the SVG of what square (top-down ``row``, ``col``)
        holds, centred on (``cx``, ``cy``) in a picture whose squares are ``cell``
        pixels wide, drawn instead of the letter's piece; None draws the letter."""
        return None

    def _size_text(self) -> str | None:
        if "size" in self.options:
            return f"{self.options['size']}x{self.options['size']}"
        if "rows" in self.options and "cols" in self.options:
            return f"{self.options['rows']}x{self.options['cols']}"
        return None

    def _variant_words(self, between: str) -> list[str]:
        """The options that differ from their defaults, a word each: ``backward``,
        or an option's name and value with ``between`` them (``max-pieces 4``)."""
        words = []
        for option in self.options_spec:
            value = self.options[option.name]
            if option.name in ("rows", "cols", "size") or value == option.default:
                continue
            readable = option.name.replace("_", "-")
            words.append(readable if option.kind is bool else f"{readable}{between}{value}")
        return words

    def flags(self) -> str:
        """The command-line options of this game that differ from their defaults.

        >>> from tiersolve.games import make_game
        >>> make_game("ttt", rows=3, cols=3, diagonal=True).flags()
        '--cols 3 --diagonal'
        """
        words = []
        for option in self.options_spec:
            value = self.options[option.name]
            if value != option.default:
                words.append(option.flag if option.kind is bool else f"{option.flag} {value}")
        return " ".join(words)

    def label(self) -> str:
        """A file-name friendly description: game, size and the options that differ
        from their defaults, e.g. ``northcott_4x7_backward`` or ``1210_target11``: the
        default file names, which keep their spelling (docs/DECISIONS.md)."""
        return "_".join([self.name, *filter(None, [self._size_text()]),
                         *self._variant_words("")])

    def describe(self) -> str:
        """A short human description, e.g. ``northcott 4x7 (backward, misere)`` or
        ``loa 5x5 (max-pieces 4)``."""
        words = self._variant_words(" ")
        return " ".join([self.name, *filter(None, [self._size_text()])]) + \
            (f" ({', '.join(words)})" if words else "")

    def start(self) -> np.ndarray:
        return self.parse(self.default_start())

    def terminal_value(self, state: np.ndarray) -> int | None:
        """The value code of a finished game that the index space leaves out, else None."""
        if self.functions.terminal is None:
            return None
        code = int(self.functions.terminal(self.data, np.ascontiguousarray(state, np.int64)))
        return code or None

    def locate(self, state: np.ndarray) -> tuple[int, int]:
        """(tier, local index) of a state vector."""
        if self.terminal_value(state) is not None:
            raise ValueError(f"{self.format(state)} is a finished game, which the index does not "
                             "hold (its value follows from the rules)")
        tier, local = self.functions.encode(self.data, np.ascontiguousarray(state, np.int64))
        if not (0 <= tier < self.tiers.count and 0 <= local < self.tiers.sizes[tier]):
            raise ValueError(f"{self.format(state)} lies outside this {self.describe()} space")
        return int(tier), int(local)

    def index(self, state: np.ndarray) -> int:
        """The global index of a state vector (its row in the database arrays)."""
        return self.tiers.global_index(*self.locate(state))

    def state_at(self, index: int) -> np.ndarray:
        """The state vector stored at a global index."""
        tier, local = self.tiers.locate(index)
        state = np.zeros(self.state_size, dtype=np.int64)
        self.functions.decode(self.data, tier, local, state)
        return state

    def moves_of(self, state: np.ndarray) -> np.ndarray:
        """Move codes of the player to move (empty if the position is primitive)."""
        state = np.ascontiguousarray(state, np.int64)
        moves = np.zeros(max(self.max_moves, 1), dtype=np.int64)
        count = self.functions.generate_moves(self.data, state, moves)
        if self.functions.primitive(self.data, state, count) != UNDECIDED:
            return moves[:0]
        return moves[:count]

    def primitive_value(self, state: np.ndarray) -> int:
        """The value code if the position is primitive (or ILLEGAL), else UNDECIDED."""
        state = np.ascontiguousarray(state, np.int64)
        moves = np.zeros(max(self.max_moves, 1), dtype=np.int64)
        count = self.functions.generate_moves(self.data, state, moves)
        return int(self.functions.primitive(self.data, state, count))

    def play(self, state: np.ndarray, move: int) -> tuple[np.ndarray, bool]:
        """The state after a move code, and whether the same player moves again."""
        child = np.zeros(self.state_size, dtype=np.int64)
        same = self.functions.do_move(self.data, np.ascontiguousarray(state, np.int64), move, child)
        return child, bool(same)

    def children(self, state: np.ndarray) -> list[Child]:
        """Every legal move from a position, in the game's move order."""
        result = []
        for move in self.moves_of(state):
            child, same = self.play(state, int(move))
            result.append(Child(self.move_name(state, int(move)), child, same))
        return result

    def decode_many(self, indices: np.ndarray) -> np.ndarray:
        """State vectors (one row each) of many global indices: numpy in, numpy out."""
        tiers, locals_ = self.tiers.locate_many(indices)
        states = np.zeros((len(tiers), self.state_size), dtype=np.int64)
        specialise(_decode_many, self.name, decode=self.functions.decode)(
            self.data, tiers, locals_, states)
        return states

    def terminal_many(self, states: np.ndarray) -> np.ndarray:
        """``terminal_value`` of many state vectors (0 where the index holds the state)."""
        states = np.ascontiguousarray(states, dtype=np.int64).reshape(-1, self.state_size)
        codes = np.zeros(len(states), dtype=np.int64)
        if self.functions.terminal is not None and len(states):
            specialise(_terminal_many, self.name, terminal=self.functions.terminal)(
                self.data, states, codes)
        return codes

    def encode_many(self, states: np.ndarray) -> np.ndarray:
        """Global indices of many state vectors (rows): numpy in, numpy out."""
        states = np.ascontiguousarray(states, dtype=np.int64).reshape(-1, self.state_size)
        tiers = np.zeros(len(states), dtype=np.int64)
        locals_ = np.zeros(len(states), dtype=np.int64)
        specialise(_encode_many, self.name, encode=self.functions.encode)(
            self.data, states, tiers, locals_)
        return self.tiers.offsets[tiers] + locals_

    # -- text helpers for subclasses ---------------------------------------------------
    def parse_board(self, text: str, turns: str, symbols: str) -> tuple[int, list[int]]:
        """The turn (its index in ``turns``) and cell codes (indices in ``symbols``, text
        order) of a ``(T row row ...)`` position; ValueError naming what is wrong."""
        turn, *rows = self.split_position(text)
        if len(turn) != 1 or turn not in turns:
            case = " (the notation is lower case)" if turn.lower() in turns else ""
            raise ValueError(f"the turn in {text!r} must be {' or '.join(turns)}, got {turn!r}{case}")
        self.check_rows(rows, text, symbols)
        return turns.index(turn), [symbols.index(ch) for row in rows for ch in row]

    def format_board(self, head: str, cells, symbols: str) -> str:
        """``(head row row ...)`` from cell codes in text order."""
        cols = self.board_shape()[1]
        if isinstance(cells, np.ndarray):
            cells = cells.tolist()  # Python ints index a string several times faster
        board = "".join([symbols[v] for v in cells])
        return f"({head} " + " ".join(board[i:i + cols] for i in range(0, len(board), cols)) + ")"

    def split_position(self, text: str, example: str | None = None) -> list[str]:
        """The words of ``(T word word ...)``; ValueError naming the expected shape,
        with ``example`` (default: the start) as what a position looks like."""
        stripped = text.strip() if isinstance(text, str) else ""
        if stripped.startswith("(") and stripped.endswith(")"):
            words = stripped[1:-1].split()
            if words:
                return words
        example = self.default_start() if example is None else example  # only for the message
        if not isinstance(text, str):
            raise ValueError(f"a {self.title} position is a string like {example}, got {text!r}")
        if stripped.startswith("(") and ")" in stripped and not stripped.endswith(")"):
            extra = stripped[stripped.index(")") + 1:].strip()
            raise ValueError(f"unexpected text {extra!r} after the position in {text!r}; a "
                             f"{self.title} position looks like {example}")
        if not (stripped.startswith("(") and stripped.endswith(")")):
            raise ValueError(f"a {self.title} position looks like {example}; "
                             f"got {text!r} (missing parentheses)")
        raise ValueError(f"empty position {text!r}; a {self.title} position looks like {example}")

    def check_rows(self, rows: list[str], text: str, alphabet: str) -> None:
        """Row count, row widths and cell characters of a board text."""
        height, width = self.board_shape()
        if len(rows) != height:
            raise OtherBoardError(f"{text!r} has {len(rows)} row{'s' if len(rows) != 1 else ''}, but this {self.describe()} "
                             f"game has {height}")
        for number, row in enumerate(rows, start=1):
            if len(row) != width:
                raise OtherBoardError(f"row {number} of {text!r} ({row!r}) has {len(row)} cells, "
                                 f"but this {self.describe()} game has {width} columns")
            bad = sorted(set(row) - set(alphabet))
            if bad:
                case = " (the notation is lower case)" if all(ch.lower() in alphabet for ch in bad) else ""
                raise ValueError(f"row {number} of {text!r} has {', '.join(map(repr, bad))}; "
                                 f"cells are {', '.join(map(repr, alphabet))}{case}")


class PieceCountGame(Game):
    """A game of black and white pieces indexed by ``hashers.boards`` with a tier per
    count of black and white pieces (1 up to a limit each), where a capture lowers one
    count by one: Lines of Action and Surakarta."""

    def build_space(self, cells: int, most_black: int, most_white: int,
                    symmetries: list[list[int]]) -> dict:
        """Set ``space`` (its tiers numbered by piece total) and return the ``hasher``
        entry of the game's GameSpec."""
        counts = sorted(((b, w) for b in range(1, most_black + 1) for w in range(1, most_white + 1)),
                        key=lambda bw: (bw[0] + bw[1], bw))
        self.space = BoardSpace(cells, [[bw] for bw in counts], symmetries)
        return {"name": "two-colour boards" + (" up to symmetry" if symmetries else ""),
                "tiers": "(black pieces, white pieces), turn", "cells": cells,
                "symmetries": len(symmetries) + 1}

    def tier_children(self, tier: int) -> set[int]:
        b, w = self.tiers.keys[tier]
        return {tier} | {t for t in (self.space.tier_of(b, w - 1), self.space.tier_of(b - 1, w))
                         if t >= 0}


_DASHES = re.compile("[\u2010-\u2015\u2212]")


def normalise_dashes(text: str) -> str:
    """Typographic dashes (as in the seed texts) read as '-'."""
    return _DASHES.sub("-", text)


def keep_first_pieces(board: str, limit: int, colours: str = "bw") -> str:
    """A board string with only the first ``limit`` pieces of each colour kept (all of
    them for limit 0)."""
    if not limit:
        return board
    seen = dict.fromkeys(colours, 0)
    kept = []
    for cell in board:
        if cell in seen:
            seen[cell] += 1
            cell = cell if seen[cell] <= limit else "-"
        kept.append(cell)
    return "".join(kept)


def square_name(cell_row: int, cell_col: int, rows: int) -> str:
    """Algebraic name of a cell given top-down row and left-right column: 'a1' is bottom-left."""
    return f"{chr(ord('a') + cell_col)}{rows - cell_row}"


def hand_cell(side: int, column: int, rows: int) -> tuple[int, int]:
    """Where a piece in hand (``Game.pieces_in_hand``) is drawn, as a (top-down row,
    column) cell beside the board: side 0's under the bottom row, side 1's over the top.

    >>> hand_cell(0, 2, rows=4), hand_cell(1, 0, rows=4)
    ((4, 2), (-1, 0))
    """
    return (rows, column) if side == 0 else (-1, column)


def parse_square(name: str, rows: int, cols: int) -> tuple[int, int]:
    """(top-down row, column) of an algebraic square name; ValueError if off the board."""
    match = re.fullmatch(r"([a-zA-Z])(\d+)", name)
    if not match:
        raise ValueError(f"{name!r} is not a square name like 'a1'")
    col = ord(match.group(1).lower()) - ord("a")
    rank = int(match.group(2))
    if not (0 <= col < cols and 1 <= rank <= rows):
        raise ValueError(f"square {name!r} is off the {rows}x{cols} board")
    return rows - rank, col
