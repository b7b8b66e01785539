"""Between OpenSpiel and tiersolve: which tiersolve game has an OpenSpiel game's rules
(and which database file and build fit it), and positions both ways.

Three OpenSpiel games have a tiersolve game with the same rules (docs/OPENSPIEL.md,
docs/DECISIONS.md):

* ``breakthrough(rows=R,columns=C)`` is ``breakthrough --rows R --cols C``, upside
  down and with the colours swapped: OpenSpiel's Black (player 0) starts at the top
  and moves down, tiersolve's White at the bottom and moves up; both move first.
* ``clobber(rows=R,columns=C)`` is ``clobber --rows R --cols C``: OpenSpiel's ``o``
  (player 0, on a1, first) is tiersolve's ``b``, ``x`` is ``w``.
* ``mnk(m=M,n=N,k=K)`` (M columns, N rows) and ``tic_tac_toe`` (3, 3, 3) are
  ``ttt --rows N --cols M --k K --diagonal``: ``x`` (player 0) first.

>>> match = match_game("mnk(m=4,n=3,k=3)")
>>> match.game.describe(), str(match.path), match.start
('ttt 3x4 (diagonal)', 'db/ttt_3x4_diagonal.h5', '(x ---- ---- ----)')
>>> match_game("breakthrough(rows=5,columns=4)").start      # OpenSpiel's start, one row each
'(w bbbb ---- ---- ---- wwww)'
>>> match_game("go")
Traceback (most recent call last):
...
tiersolve.openspiel.convert.UnsupportedGameError: OpenSpiel's go has no tiersolve game with the same rules; served: breakthrough, clobber, mnk, tic_tac_toe
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyspiel

from tiersolve.databases.naming import build_command, default_path, default_reachable_path
from tiersolve.errors import GameError, ImpossiblePositionError, PositionError
from tiersolve.games import make_game
from tiersolve.openspiel import lines
from tiersolve.values import ILLEGAL

if TYPE_CHECKING:
    from tiersolve.databases.reader import Database
    from tiersolve.games.base import Game

#: OpenSpiel's games that tiersolve serves, with their parameters and defaults.
PARAMETERS: dict[str, dict[str, int]] = {
    "breakthrough": {"rows": 8, "columns": 8},
    "clobber": {"rows": 5, "columns": 6},
    "mnk": {"m": 15, "n": 15, "k": 5},
    "tic_tac_toe": {},
}

#: OpenSpiel's cell letters -> tiersolve's, and its player 0's letter in tiersolve.
_CELLS = {"breakthrough": {"b": "w", "w": "b", ".": "-"},
          "clobber": {"o": "b", "x": "w", ".": "-"},
          "ttt": {"x": "x", "o": "o", ".": "-"}}
_FIRST = {"breakthrough": "wb", "clobber": "bw", "ttt": "xo"}


class UnsupportedGameError(GameError):
    """An OpenSpiel game or parameter that no tiersolve game matches."""


class NotInOpenSpielError(PositionError):
    """A position OpenSpiel cannot set up (it makes Breakthrough and m,n,k states
    only by playing moves)."""


@dataclass(frozen=True)
class GameMatch:
    """An OpenSpiel game and the tiersolve game with the same rules.

    ``openspiel`` is OpenSpiel's game string, ``game`` tiersolve's Game, ``start``
    OpenSpiel's start in tiersolve's notation (where games from the start begin)."""

    openspiel: str
    game: Game
    start: str

    @property
    def rows(self) -> int:
        return self.game.options["rows"]

    @property
    def cols(self) -> int:
        return self.game.options["cols"]

    @property
    def path(self) -> Path:
        """The file ``tiersolve build`` writes for this game: every position."""
        return default_path(self.game)

    @property
    def reachable_path(self) -> Path:
        """The file of the build that keeps what play reaches from OpenSpiel's start."""
        return default_reachable_path(self.game)

    def build_command(self, reachable: bool = False) -> str:
        """The command that builds the database of every position, or with
        ``reachable`` only of those play reaches from OpenSpiel's start.

        >>> match_game("tic_tac_toe").build_command()
        'tiersolve build ttt --cols 3 --diagonal'
        """
        command = build_command(self.game)
        return f'{command} --reachable --start "{self.start}"' if reachable else command

    def fits(self, game: Game) -> bool:
        """Whether a database of ``game`` answers this game's positions: the same game
        and options (``--symmetry`` aside, which changes no answer)."""
        def rules(options: dict[str, Any]) -> dict[str, Any]:
            return {key: value for key, value in options.items() if key != "symmetry"}

        return game.name == self.game.name and rules(game.options) == rules(self.game.options)


@contextlib.contextmanager
def _quiet_stderr():
    """OpenSpiel prints its errors on stderr before it raises them: keep them off
    (the caller turns the exception into one line of its own)."""
    sys.stderr.flush()
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def _parse_game_string(text: str) -> tuple[str, dict[str, int]]:
    """(short name, parameters with their defaults) of an OpenSpiel game string of a
    game tiersolve serves; UnsupportedGameError (one line) otherwise."""
    found = re.fullmatch(r"\s*([A-Za-z0-9_]+)\s*(?:\((.*)\))?\s*", text)
    if found is None:
        raise UnsupportedGameError(f"{text!r} is not an OpenSpiel game string such as "
                                   "'breakthrough(rows=5,columns=4)'")
    name, inside = found.group(1), found.group(2)
    if name not in PARAMETERS:
        raise UnsupportedGameError(f"OpenSpiel's {name} has no tiersolve game with the same rules; "
                                   f"served: {', '.join(PARAMETERS)}")
    parameters = dict(PARAMETERS[name])
    for part in filter(None, (piece.strip() for piece in (inside or "").split(","))):
        key, equals, value = (item.strip() for item in part.partition("="))
        if key not in parameters:
            allowed = ", ".join(PARAMETERS[name]) or "none"
            raise UnsupportedGameError(f"OpenSpiel's {name} has no parameter {key!r} "
                                       f"(its parameters: {allowed})")
        if not equals or not re.fullmatch(r"[+-]?\d+", value):
            raise UnsupportedGameError(f"{name}: {key} must be a whole number, got {value!r}")
        parameters[key] = int(value)
    return name, parameters


def _openspiel_string(name: str, parameters: dict[str, int]) -> str:
    """OpenSpiel's own spelling: parameters in alphabetical order."""
    inside = ",".join(f"{key}={parameters[key]}" for key in sorted(parameters))
    return f"{name}({inside})"


def _tiersolve_game(name: str, parameters: dict[str, int]) -> Game:
    text = _openspiel_string(name, parameters)
    if name == "breakthrough":
        rows, cols = parameters["rows"], parameters["columns"]
        if cols < 2:
            raise UnsupportedGameError(f"{text}: OpenSpiel's Breakthrough needs at least 2 columns")
        options = {"rows": rows, "cols": cols}
    elif name == "clobber":
        options = {"rows": parameters["rows"], "cols": parameters["columns"]}
    else:
        m, n, k = (3, 3, 3) if name == "tic_tac_toe" else (parameters["m"], parameters["n"],
                                                           parameters["k"])
        if min(m, n, k) < 1:
            raise UnsupportedGameError(f"{text}: m, n and k must be at least 1")
        options = {"rows": n, "cols": m, "k": k, "diagonal": True}
        name = "ttt"
    try:
        return make_game(name, **options)
    except GameError as error:
        raise UnsupportedGameError(f"tiersolve cannot serve {text}: {error}") from None


def _from_tiersolve(game: Game) -> str:
    """The OpenSpiel game string of a tiersolve game, or UnsupportedGameError."""
    options = game.options
    if game.name == "breakthrough" and options["cols"] >= 2:
        return _openspiel_string("breakthrough", {"rows": options["rows"],
                                                  "columns": options["cols"]})
    if game.name == "clobber" and not options["misere"]:
        return _openspiel_string("clobber", {"rows": options["rows"], "columns": options["cols"]})
    if game.name == "ttt" and options["diagonal"] and not options["misere"]:
        return _openspiel_string("mnk", {"m": options["cols"], "n": options["rows"],
                                         "k": options["k"]})
    why = {"ttt": "OpenSpiel's mnk counts diagonal lines and has no misère: only ttt --diagonal "
                  "without --misere is the same game",
           "clobber": "OpenSpiel's clobber has no misère",
           "breakthrough": "OpenSpiel's Breakthrough needs at least 2 columns"}
    raise UnsupportedGameError(f"{game.describe()} has no OpenSpiel game with the same rules"
                               f"{': ' + why[game.name] if game.name in why else ''}; OpenSpiel "
                               "shares breakthrough, clobber and ttt --diagonal (mnk) with "
                               "tiersolve")


def match_game(game: str | pyspiel.Game | Game) -> GameMatch:
    """The tiersolve game with the rules of an OpenSpiel game (its game string or the
    Game), or the OpenSpiel game of a tiersolve Game; UnsupportedGameError (a
    GameError, one line) for a game or parameter tiersolve cannot serve.

    >>> match_game("clobber(rows=3,columns=4)").game.describe()
    'clobber 3x4'
    """
    if isinstance(game, pyspiel.Game):
        game = str(game)
    if isinstance(game, str):
        return _match_string(game)
    return _match_string(_from_tiersolve(game))


@functools.lru_cache(maxsize=64)
def _match_string(text: str) -> GameMatch:
    name, parameters = _parse_game_string(text)
    ours = _tiersolve_game(name, parameters)
    spelled = "tic_tac_toe()" if name == "tic_tac_toe" else _openspiel_string(name, parameters)
    kind = ours.name
    rows, cols = ours.options["rows"], ours.options["cols"]
    if kind == "breakthrough":
        start = _breakthrough_text(lines.start_board(rows, cols), 0, rows, cols)
    elif kind == "clobber":
        # OpenSpiel's o stands on a1 and on every cell of a1's colour, as tiersolve's b.
        start = ours.default_start()
    else:
        start = "(x " + " ".join("-" * cols for _ in range(rows)) + ")"
    return GameMatch(openspiel=spelled, game=ours, start=ours.format(ours.parse(start)))


def load_game(game: str | pyspiel.Game | Game) -> pyspiel.Game:
    """The OpenSpiel game of a game string (checked: UnsupportedGameError, one line,
    rather than OpenSpiel's message on stderr), of a tiersolve Game, or the Game itself.

    >>> load_game("tic_tac_toe").num_distinct_actions()
    9
    """
    if isinstance(game, pyspiel.Game):
        match_game(game)
        return game
    match = match_game(game)
    try:
        with _quiet_stderr():
            return pyspiel.load_game(match.openspiel)
    except pyspiel.SpielError as error:
        raise UnsupportedGameError(f"OpenSpiel refuses {match.openspiel}: "
                                   f"{str(error).splitlines()[0]}") from None


def _board_lines(state: pyspiel.State, rows: int, cols: int) -> list[str]:
    """The rows of cells of OpenSpiel's picture of a state, top first (its row labels
    and column letters left out)."""
    picture = str(state).split("\n")
    return [line[-cols:] for line in picture[:rows]]


def _breakthrough_text(board: lines.Board, player: int, rows: int, cols: int) -> str:
    """tiersolve's text of an OpenSpiel Breakthrough board: upside down, colours swapped."""
    flip = _CELLS["breakthrough"]
    text_rows = ["".join(flip[board[r * cols + c]] for c in range(cols))
                 for r in reversed(range(rows))]
    return f"({_FIRST['breakthrough'][player]} {' '.join(text_rows)})"


def _breakthrough_board(match: GameMatch, state) -> tuple[lines.Board, int]:
    """OpenSpiel's board (a lines.Board) and player to move of a tiersolve state vector."""
    rows, cols = match.rows, match.cols
    back = {1: "b", 2: "w", 0: "."}  # tiersolve's white (1) is OpenSpiel's black
    cells = state[1:].reshape(rows, cols)[::-1].reshape(-1)
    return tuple(back[int(code)] for code in cells), int(state[0])


def _os_board(state: pyspiel.State, match: GameMatch) -> lines.Board:
    return tuple("".join(_board_lines(state, match.rows, match.cols)))


def position_of(state: pyspiel.State) -> str:
    """tiersolve's text of an OpenSpiel state of breakthrough, clobber, mnk or
    tic_tac_toe (the player to move: in a finished game, the one who lost, or by the
    marks after a tie). PositionError if tiersolve's rules refuse it.

    >>> game = load_game("breakthrough(rows=4,columns=3)")
    >>> state = game.new_initial_state()
    >>> print(state)
    4bbb
    3...
    2...
    1www
     abc
    <BLANKLINE>
    >>> position_of(state)            # upside down, colours swapped: White moves first
    '(w bbb --- --- www)'
    """
    match = _match_string(str(state.get_game()))
    kind, rows, cols = match.game.name, match.rows, match.cols
    cells = _CELLS[kind]
    picture = _board_lines(state, rows, cols)
    if kind == "breakthrough":
        picture = picture[::-1]
    try:
        text_rows = ["".join(cells[cell] for cell in line) for line in picture]
    except KeyError as error:
        raise PositionError(f"OpenSpiel's picture of the state has an unknown cell {error}: "
                            f"{str(state)!r}") from None
    if kind == "ttt":  # x moves first: the marks say whose turn it is
        xs = sum(line.count("x") for line in text_rows)
        os_ = sum(line.count("o") for line in text_rows)
        turn = "x" if xs == os_ else "o"
    else:
        player = state.current_player()
        if state.is_terminal():  # the player to move is the one who lost
            returns = state.returns()
            player = 0 if returns[0] < returns[1] else 1
        turn = _FIRST[kind][player]
    text = f"({turn} {' '.join(text_rows)})"
    return match.game.format(match.game.parse(text))


def _legal_state(match: GameMatch, position: str):
    """tiersolve's state vector of a position, refused if the rules say it cannot arise."""
    state = match.game.parse(position)
    if match.game.primitive_value(state) == ILLEGAL:
        raise ImpossiblePositionError(f"{position!r} is not a legal {match.game.title} position: "
                                      f"{match.game.explain_illegal(state)}")
    return state


def _held_by(database: Database, match: GameMatch):
    """The oracle of ``lines.backward_line``: which unfinished boards the database holds."""
    rows, cols = match.rows, match.cols

    def held(boards: list[tuple[lines.Board, int]]) -> list[bool]:
        found = []
        for board, player in boards:
            record = database.get(_breakthrough_text(board, player, rows, cols))
            found.append(record is not None and record.remoteness != 0)
        return found

    return held


def reaches_from_start(database: Database, match: GameMatch) -> bool:
    """Whether a database holds exactly what play reaches from OpenSpiel's start (a
    ``--reachable`` build from it): every position it holds, OpenSpiel can set up."""
    return database.reachable_from == [match.start] and match.fits(database.game)


def state_of(game: str | pyspiel.Game, position: str, database: Database | None = None, *,
             search_limit: int = 20_000) -> pyspiel.State:
    """The OpenSpiel state of a tiersolve position of the game. NotInOpenSpielError
    (a PositionError, one line) if OpenSpiel cannot set it up.

    Clobber states are built from their board; m,n,k and Breakthrough states only by
    playing moves from OpenSpiel's start, as OpenSpiel 2.0.2 allows. An m,n,k line
    places the winner's shared cell last. A Breakthrough line is found by un-moves
    through ``database`` if it holds what play reaches from OpenSpiel's start
    (``GameMatch.build_command(reachable=True)``), else by a search from the start of
    at most ``search_limit`` boards.

    >>> state = state_of("tic_tac_toe", "(o x-- -o- --x)")
    >>> print(state)
    x..
    .o.
    ..x
    >>> state.current_player()
    1
    """
    os_game = load_game(game)
    match = match_game(os_game)
    vector = _legal_state(match, position)
    text = match.game.format(vector)
    kind, rows, cols = match.game.name, match.rows, match.cols
    if kind == "clobber":
        to_letter = {1: "o", 2: "x", 0: "."}  # tiersolve's b (1) is OpenSpiel's o
        board = "".join(to_letter[int(code)] for code in vector[1:])
        with _quiet_stderr():
            state = os_game.new_initial_state(f"{int(vector[0])}{board}")
    elif kind == "ttt":
        state = os_game.new_initial_state()
        for cell in _ttt_order(match, vector, text):
            state.apply_action(cell)
    else:
        board, player = _breakthrough_board(match, vector)
        start = lines.start_board(rows, cols)
        state = os_game.new_initial_state()
        if (board, player) != (start, 0):
            if database is not None and reaches_from_start(database, match):
                # exact: the database holds every position with a line of play
                boards = lines.backward_line(rows, cols, start, board, player,
                                             _held_by(database, match))
            else:
                try:
                    boards = lines.forward_line(rows, cols, start, board, player, search_limit)
                except lines.SearchLimit:
                    raise NotInOpenSpielError(
                        f"OpenSpiel sets up Breakthrough only by playing from its start "
                        f"{match.start}, and a search of {search_limit:,} boards found no line "
                        f"of play to {text}; a database built with "
                        f"'{match.build_command(reachable=True)}' gives one at once if there is "
                        "one") from None
            if boards is None:
                raise NotInOpenSpielError(f"no line of play from OpenSpiel's start {match.start} "
                                          f"reaches {text}, and OpenSpiel sets up Breakthrough "
                                          "only by playing from its start")
            state = lines.replay(state, boards, lambda s: _os_board(s, match))
    if position_of(state) != text:  # the mapping's own check: both ways agree
        raise NotInOpenSpielError(f"OpenSpiel's state {str(state)!r} is not {text}")
    return state


def _ttt_order(match: GameMatch, vector, text: str) -> list[int]:
    """OpenSpiel's actions (cells, top row first) that place the marks in turn, x first,
    with no line before the last move: the last mover's lines must share a cell, which
    goes last."""
    from tiersolve.games.ttt import line_masks

    options = match.game.options
    masks = line_masks(options["rows"], options["cols"], options["k"], options["diagonal"])
    xs = [cell for cell, code in enumerate(vector[1:]) if code == 1]
    os_ = [cell for cell, code in enumerate(vector[1:]) if code == 2]
    last = xs if len(xs) > len(os_) else os_
    mask = sum(1 << cell for cell in last)
    made = [int(line) for line in masks if mask & int(line) == int(line)]
    if made:
        shared = functools.reduce(lambda a, b: a & b, made)
        if not shared:
            raise NotInOpenSpielError(f"no line of play reaches {text}: its last mover has lines "
                                      "that one mark could not have made together")
        cell = (shared & -shared).bit_length() - 1
        last.remove(cell)
        last.append(cell)
    order = []
    for turn in range(len(xs) + len(os_)):
        order.append((xs if turn % 2 == 0 else os_)[turn // 2])
    return order
