"""Northcott's Game: each row has an L and an R piece; move your own piece towards
the opponent (and, with ``--backward``, away from it). Who cannot move loses.

Rules: docs/RULES.md, section "Northcott's Game".

Position ``(T row row ...)``: ``T`` is ``L`` or ``R``; a row ``aLbRc`` has ``a``
empty cells left of L, ``b`` between, ``c`` right of R. Without ``--backward`` the
game is Nim on the gaps ``b``.

Index: a row is one of ``C(cols, 2)`` states ranked by gap, widest first, then by
``a``; rows are the digits of a mixed-radix number, times 2 plus the turn. A forward
move narrows a gap, so it leads to a higher index (the bottom-up solver's order)
and to a higher ``sweep_level`` (the gaps closed so far: the solver takes the
levels in turn, each on all threads); with ``--backward`` the game has cycles and is solved by the loopy solver, with
un-moves (a piece steps back to where it came from).

State vector: ``[turn, a1, b1, c1, a2, b2, c2, ...]`` (turn 0 = L).
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from tiersolve.bits import copy_into
from tiersolve.errors import OtherBoardError
from tiersolve.games.base import (
    MISERE, Game, GameFunctions, GameSpec, Option, cols_option, no_move_value,
    rows_option,
)
from tiersolve.hashers.mixed_radix import digits_count
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit
from tiersolve.values import UNDECIDED

ROWS, COLS, BACKWARD, IS_MISERE = 0, 1, 2, 3
TURNS = "LR"


class NorthcottData(NamedTuple):
    """What the kernels read (``Game.data``)."""

    params: np.ndarray      # [rows, cols, backward, misere]
    row_a: np.ndarray       # row state -> first piece's column
    row_b: np.ndarray       # row state -> second piece's column
    gap_offset: np.ndarray  # ranking offsets of the row states


@jit
def decode(data, tier, local, state):
    params, row_a, row_b, _ = data
    rows, cols = params[ROWS], params[COLS]
    states = cols * (cols - 1) // 2
    state[0] = local & 1
    rest = local >> 1
    for row in range(rows - 1, -1, -1):
        rank = rest % states
        rest //= states
        state[1 + 3 * row] = row_a[rank]
        state[2 + 3 * row] = row_b[rank]
        state[3 + 3 * row] = cols - 2 - row_a[rank] - row_b[rank]


@jit
def encode(data, state):
    params, _, _, gap_offset = data
    rows, cols = params[ROWS], params[COLS]
    states = cols * (cols - 1) // 2
    index = 0
    for row in range(rows):
        index = index * states + gap_offset[state[2 + 3 * row]] + state[1 + 3 * row]
    return 0, 2 * index + state[0]


# A move code is ((row * 2 + backward) * cols + distance).
@jit
def generate_moves(data, state, moves):
    params = data.params
    rows, cols = params[ROWS], params[COLS]
    count = 0
    for row in range(rows):
        gap = state[2 + 3 * row]
        behind = state[1 + 3 * row] if state[0] == 0 else state[3 + 3 * row]
        for distance in range(1, gap + 1):
            moves[count] = (row * 2) * cols + distance
            count += 1
        if params[BACKWARD]:
            for distance in range(1, behind + 1):
                moves[count] = (row * 2 + 1) * cols + distance
                count += 1
    return count


@jit
def do_move(data, state, move, child):
    cols = data.params[COLS]
    copy_into(child, state)
    distance = move % cols
    backward = (move // cols) % 2
    row = move // cols // 2
    behind = 1 + 3 * row if state[0] == 0 else 3 + 3 * row
    change = -distance if backward else distance
    child[behind] += change
    child[2 + 3 * row] -= change
    child[0] = 1 - state[0]
    return 0


@jit
def parents(data, tier, local, out, state, other):
    """Un-moves: in one row, the piece of the player who just moved stood anywhere it
    could have moved here from (further back, or with ``--backward`` also nearer).
    Exact: every parent has this move."""
    params = data.params
    decode(data, tier, local, state)
    mover = 1 - state[0]
    count = 0
    for row in range(params[ROWS]):
        behind = 1 + 3 * row if mover == 0 else 3 + 3 * row  # empty cells behind the piece
        room = state[behind] + state[2 + 3 * row]  # where the piece can stand in this row
        for before in range(room + 1):
            if before == state[behind] or (before > state[behind] and not params[BACKWARD]):
                continue  # no move; or a forward move would have come from further back
            copy_into(other, state)
            other[behind] = before
            other[2 + 3 * row] = room - before
            other[0] = mover
            out[count] = encode(data, other)[1] << 1
            count += 1
    return count


@jit
def expand(data, tier, local, out, state, child, moves):
    """The moves straight from the index: a move changes one row's digit, so the
    child's index is the parent's plus the digit's change times the row's weight."""
    params, row_a, row_b, gap_offset = data
    rows, cols, backward = params[ROWS], params[COLS], params[BACKWARD]
    states = cols * (cols - 1) // 2
    turn = local & 1
    rest = local >> 1
    weight = 2  # of the last row's digit in the child's local index
    for row in range(rows - 1, -1, -1):  # digits into state, weights into child
        state[row] = rest % states
        rest //= states
        child[row] = weight
        weight *= states
    base = (local ^ 1)  # the child's turn, digits still the parent's
    count = 0
    for row in range(rows):
        digit, weight = state[row], child[row]
        a, gap = row_a[digit], row_b[digit]
        from_digit = base - digit * weight
        for distance in range(1, gap + 1):  # forward: the gap narrows
            moved = gap_offset[gap - distance] + (a + distance if turn == 0 else a)
            out[count, 0] = 0
            out[count, 1] = from_digit + moved * weight
            out[count, 2] = 0
            out[count, 3] = (row * 2) * cols + distance
            count += 1
        if backward:
            behind = a if turn == 0 else cols - 2 - a - gap
            for distance in range(1, behind + 1):  # backward: the gap widens
                moved = gap_offset[gap + distance] + (a - distance if turn == 0 else a)
                out[count, 0] = 0
                out[count, 1] = from_digit + moved * weight
                out[count, 2] = 0
                out[count, 3] = (row * 2 + 1) * cols + distance
                count += 1
    if count == 0:
        return -np.int64(no_move_value(params[IS_MISERE]))
    return count


@jit
def sweep_level(data, tier, local, state):
    """How far the gaps have closed: every forward move closes one."""
    params, row_b = data.params, data.row_b
    rows, cols = params[ROWS], params[COLS]
    states = cols * (cols - 1) // 2
    rest = local >> 1
    level = rows * (cols - 2)
    for _ in range(rows):
        level -= row_b[rest % states]
        rest //= states
    return level


@jit
def primitive(data, state, move_count):
    return no_move_value(data.params[IS_MISERE]) if move_count == 0 else UNDECIDED


def row_tables(cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(a, b) of each row rank, and the first rank of each gap b (widest gap first)."""
    row_a, row_b = [], []
    gap_offset = np.zeros(cols - 1, dtype=np.int64)
    for gap in range(cols - 2, -1, -1):
        gap_offset[gap] = len(row_a)
        for left in range(cols - 1 - gap):
            row_a.append(left)
            row_b.append(gap)
    return np.array(row_a, dtype=np.int64), np.array(row_b, dtype=np.int64), gap_offset


_ROW_WORD = re.compile(r"(\d+)L(\d+)R(\d+)")


#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "northcott"


class Northcott(Game):
    name = NAME
    title = "Northcott's Game"
    options_spec = (
        rows_option(3, maximum=64),
        cols_option(6, minimum=2, maximum=64),
        Option("backward", bool, False, "pieces may also move away from the opponent (cycles)"),
        MISERE,
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive, expand,
                              parents=parents, sweep_level=sweep_level)
    state_fields = "turn (0 = L, 1 = R), then a, b, c of each row"

    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = (
        {"rows": 2, "cols": 4}, {"rows": 2, "cols": 5, "backward": True},
        {"rows": 3, "cols": 4, "backward": True, "misere": True},
    )
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = (
        {"rows": 2, "cols": 4}, {"rows": 2, "cols": 4, "misere": True},
        {"rows": 2, "cols": 4, "backward": True},
        {"rows": 2, "cols": 4, "backward": True, "misere": True}, {"rows": 3, "cols": 5},
        {"rows": 3, "cols": 5, "backward": True},
        {"rows": 3, "cols": 5, "backward": True, "misere": True},
        {"rows": 3, "cols": 6, "backward": True, "misere": True},
    )

    def build(self) -> GameSpec:
        rows, cols = self.options["rows"], self.options["cols"]
        row_states = cols * (cols - 1) // 2
        size = 2 * digits_count([row_states] * rows)
        if size >= 1 << 62:
            raise ValueError(f"a {rows}x{cols} board has too many positions to index")
        tiers = TierLayout(keys=[()], sizes=[size])
        row_a, row_b, gap_offset = row_tables(cols)
        data = NorthcottData(
            params=np.array([rows, cols, self.options["backward"], self.options["misere"]], dtype=np.int64),
            row_a=row_a, row_b=row_b, gap_offset=gap_offset)
        max_moves = rows * max(cols - 2, 0)
        loopy = self.options["backward"]
        levels = rows * (cols - 2) + 1
        return GameSpec(
            tiers=tiers, data=data, state_size=1 + 3 * rows, max_moves=max_moves, loopy=loopy,
            remoteness_bound=None if loopy else rows * (cols - 2),
            hasher={"name": "mixed-radix", "digits": "row states (widest gap first), turn",
                    "radices": [row_states] * rows + [2]},
            max_parents=max_moves, sweep_levels=levels if not loopy and levels <= 256 else 0,
            parents_are_distinct=True)  # each un-move sets one row to its own state

    def tier_children(self, tier: int) -> set[int]:
        return {0}

    def default_start(self) -> str:
        rows, cols = self.options["rows"], self.options["cols"]
        if (rows, cols) == (3, 6):
            return "(L 1L3R0 0L1R3 1L2R1)"
        return "(L " + " ".join(f"0L{cols - 2}R0" for _ in range(rows)) + ")"

    def parse(self, text: str) -> np.ndarray:
        rows, cols = self.options["rows"], self.options["cols"]
        example = self.default_start()
        turn, *words = self.split_position(text, example)
        if turn not in ("L", "R") or len(turn) != 1:
            raise ValueError(f"the turn in {text!r} must be L or R, got {turn!r}")
        if len(words) != rows:
            raise OtherBoardError(f"{text!r} has {len(words)} row{'s' if len(words) != 1 else ''}, but this {self.describe()} "
                                 f"game has {rows}")
        state = [TURNS.index(turn)]
        for number, word in enumerate(words, start=1):
            match = _ROW_WORD.fullmatch(word)
            if not match:
                    raise ValueError(f"row {number} of {text!r} is {word!r}; a row is aLbRc, "
                                     "e.g. 1L3R0")
            a, b, c = map(int, match.groups())
            if a + b + c + 2 != cols:
                    raise OtherBoardError(f"row {number} of {text!r} ({word}) spans {a + b + c + 2} "
                                     f"columns, but this {self.describe()} game has {cols}")
            state += [a, b, c]
        return np.array(state, dtype=np.int64)

    def format(self, state: np.ndarray) -> str:
        rows = " ".join(f"{state[1 + 3 * r]}L{state[2 + 3 * r]}R{state[3 + 3 * r]}"
                            for r in range(self.options["rows"]))
        return f"({TURNS[state[0]]} {rows})"

    def grid(self, state: np.ndarray) -> list[str]:
        """Each row as cells: L and R on their squares, ``-`` for the gaps.

        >>> game = GAME(rows=1, cols=6)
        >>> game.grid(game.parse("(L 1L3R0)"))
        ['-L---R']
        """
        return [f"{'-' * state[1 + 3 * r]}L{'-' * state[2 + 3 * r]}R{'-' * state[3 + 3 * r]}"
                    for r in range(self.options["rows"])]

    def move_name(self, state: np.ndarray, move: int) -> str:
        cols = self.options["cols"]
        distance, backward, row = move % cols, (move // cols) % 2, move // cols // 2
        return f"{TURNS[state[0]]} row {row + 1} {'back' if backward else 'forward'} {distance}"


GAME = Northcott
