"""The history-aware layer: values under a "who repeats a board loses" rule (Pousse).

The database solves the *position game*: a position is a board and the player to
move, a repeated board is not punished, and endless play is a DRAW (RULES.md). Under
Pousse's real rule, a player whose insertion repeats a board configuration that
occurred earlier in the game loses at once, so the value depends on the game so far.
This module answers that, on top of a database, for one position and its history:

* every legal move; a move that repeats a board of the history **loses at once**;
* a move that ends the game (one colour has more straights) has its value at once;
* for every other move, the value under the real rule **where it can be proven**:

  - a move **wins** if, after it, every reply of the opponent either repeats a board
    (and loses) or leads to a position from which a winning strategy is found. The
    search for that strategy is guided by the database: from a position the
    position game calls a WIN in r, it tries only the moves to positions the position
    game calls a LOSE in fewer than r (fastest first), never one that repeats a
    board of the history or of the line itself. Along every line the remoteness
    drops, so the strategy wins within the position game's remoteness.
  - a move **loses** if, after it, the opponent has such a winning strategy;
  - otherwise the move keeps the position game's value, marked *not proven under the
    repetition rule*. Never a guess shown as proven.

* the position itself: a proven WIN if some move is a proven win; a proven LOSE if
  every move repeats or loses provably; otherwise the position game's value, not
  proven.

What is exact: every proven value is the real rule's value (the strategies found are
real strategies; they never repeat a board). What is not: an unproven move may be
either; a move the search could not prove may still be a win through moves the
database does not suggest (the guidance only ever leaves wins out, it never adds
one), and the search is bounded by a node and a time limit (``finished`` says
whether it ran out). Remoteness is the position game's.

Board configurations are boards only: the turn is not part of one (docs/RULES.md),
and the history holds every board from its first position on, the current one
included, so a move that gives back the same board always loses. A board with fewer
markers than the current one can never come back (an insertion never removes a
marker for good), so the search forgets those.

Worked example (3x3). After ``L 2, R 2, L 2, R 2`` from the empty board the position
is ``(x --- xoo ---)``, a DRAW in the position game. Under the real rule ``L 2`` makes
``(o --- xxo ---)`` again, the board after the third move: it loses at once. Every
other move of x leads to a position the position game calls a win in 1 for o, and
the search finds o's winning move there without a repeated board: each is a proven
loss, so the position is a proven LOSE for x. ``tests/test_history.py`` checks this,
positions where the position game's only winning line needs a repeated board (never
reported as a proven win), and every history of up to four moves on 2x2 against a
brute-force search of the real game.

    >>> from tiersolve.databases.history import analyse                                  # doctest: +SKIP
    >>> report = analyse(db, "(x --- --- ---)", ["L 2", "R 2", "L 2", "R 2"])  # doctest: +SKIP
    >>> print(report.text())                                         # doctest: +SKIP
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from tiersolve.values import DRAW, LOSE, TIE, UNDECIDED, VALUE_NAMES, WIN, flipped

PROVEN_WIN = "winning strategy found: every reply repeats a board or loses"
PROVEN_LOSS = "the opponent has a winning strategy that never repeats a board"
REPEATS = "loses at once (repetition)"
ENDS = "ends the game"
NOT_PROVEN = "not proven under the repetition rule: the position game's value"


class _OutOfBudget(Exception):
    """The node or time limit was reached."""


@dataclass(frozen=True)
class MoveVerdict:
    """One move: its value for the player making it, under the real rule if ``proven``,
    else the position game's; the position game's value and remoteness of the position
    it leads to (for the player to move there); and how the value was found."""

    move: str
    position: str
    value: str
    proven: bool
    reason: str
    game_value: str
    game_remoteness: int | None


@dataclass(frozen=True)
class HistoryReport:
    """A position with its history, every move's verdict (best first), and the search."""

    position: str
    history: list[str]
    value: str
    proven: bool
    reason: str
    moves: list[MoveVerdict] = field(default_factory=list)
    nodes: int = 0
    finished: bool = True

    def text(self) -> str:
        """The report as lines of text (what ``query.py --history`` prints)."""
        played = len(self.history) - 1
        lines = [f"{self.position}  {self.value} ({'proven' if self.proven else self.reason}) "
                 f"for the player to move, after {played} move{'' if played == 1 else 's'} "
                 "of history"]
        if self.proven:
            lines[0] += f": {self.reason}"
        width = max((len(m.move) for m in self.moves), default=0)
        span = max((len(m.position) for m in self.moves), default=0)
        for m in self.moves:
            game = m.game_value if m.game_remoteness is None else f"{m.game_value} in {m.game_remoteness}"
            note = m.reason if m.reason in (REPEATS, ENDS) else \
                ("proven" if m.proven else "not proven under the repetition rule")
            lines.append(f"  {m.move:<{width}}  {m.position:<{span}}  {m.value:<4}  {note}  "
                         f"(position game, player to move there: {game})")
        lines.append(f"search: {self.nodes:,} nodes, {'finished' if self.finished else 'stopped at its limit'}")
        return "\n".join(lines)


class _Search:
    """The bounded, database-guided search (see the module docstring)."""

    def __init__(self, db, node_limit: int, time_limit: float) -> None:
        self.db = db
        self.game = db.game
        self.node_limit = node_limit
        self.deadline = time.monotonic() + time_limit
        self.nodes = 0
        self.memo: dict = {}

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit or (self.nodes % 64 == 0 and time.monotonic() > self.deadline):
            raise _OutOfBudget

    def children(self, state: np.ndarray):
        """[(move name, child state, board key, value code, remoteness)] of a position;
        codes and remoteness for the player to move in the child (-1: none)."""
        kids = self.game.children(state)
        codes, distances = self.db._results([kid.state for kid in kids])
        return [(kid.move, kid.state, self.game.board_key(kid.state), int(code), int(distance))
                for kid, code, distance in zip(kids, codes, distances)]

    def _key(self, state: np.ndarray, seen: frozenset) -> tuple:
        horizon = self.game.markers(state)
        return (self.game.board_key(state), int(state[0]),
                frozenset(board for board in seen if self.game.markers_of_key(board) >= horizon))

    def wins(self, state: np.ndarray, code: int, distance: int, seen: frozenset) -> bool:
        """Can the player to move force a win, guided by the database?"""
        if code != WIN:
            return False
        key = ("win", *self._key(state, seen))
        if key in self.memo:
            return self.memo[key]
        self.tick()
        found = False
        options = [kid for kid in self.children(state) if kid[3] == LOSE and kid[4] < distance]
        for _, child, board, child_code, child_distance in sorted(options, key=lambda k: k[4]):
            if board in seen:
                continue
            if self.game.primitive_value(child) != UNDECIDED or \
                    self.loses(child, seen | {board}):
                found = True
                break
        self.memo[key] = found
        return found

    def loses(self, state: np.ndarray, seen: frozenset) -> bool:
        """Does every move of the player to move repeat a board or lead to a position
        from which the opponent's winning strategy is found?"""
        finished = self.game.primitive_value(state)
        if finished != UNDECIDED:
            return finished == LOSE
        key = ("lose", *self._key(state, seen))
        if key in self.memo:
            return self.memo[key]
        self.tick()
        result = True
        for _, child, board, code, distance in self.children(state):
            if board in seen:
                continue  # repeating loses at once
            if not self.wins(child, code, distance, seen | {board}):
                result = False
                break
        self.memo[key] = result
        return result


def _name(code: int) -> str:
    return VALUE_NAMES.get(code, "draw")


_ORDER = {WIN: 0, TIE: 1, DRAW: 2, LOSE: 3}


def analyse(db, start: str, moves: Sequence[str] = (), *, node_limit: int = 200_000,
            time_limit: float = 10.0) -> HistoryReport:
    """The real-rule verdicts for the position reached from ``start`` by ``moves``
    (move names), with the boards of that line as the history.

    Raises ValueError for a game without the repetition rule, a malformed position or
    move, or a history that repeats a board (the game would have ended there)."""
    game = db.game
    if not getattr(game, "repetition_loses", False):
        raise ValueError(f"{game.title} has no repetition rule; its database answers positions as they are")
    state = game.parse(start)
    history = [game.format(state)]
    seen = {game.board_key(state)}
    for number, name in enumerate(moves, start=1):
        if game.primitive_value(state) != UNDECIDED:
            raise ValueError(f"the game is over after move {number - 1} ({history[-1]}), "
                             f"so move {number} ({name!r}) cannot follow")
        named = {kid.move: kid for kid in game.children(state)}
        if name not in named:
            raise ValueError(f"move {number}, {name!r}, is not a move of {history[-1]} "
                             f"(moves: {', '.join(named)})")
        state = named[name].state
        board = game.board_key(state)
        if board in seen:
            raise ValueError(f"move {number}, {name!r}, repeats a board of the history: the "
                             "player who made it has already lost")
        seen.add(board)
        history.append(game.format(state))
    search = _Search(db, node_limit, time_limit)
    finished = True
    verdicts = []
    primitive = game.primitive_value(state)
    if primitive == UNDECIDED:
        for move, child, board, code, distance in search.children(state):
            game_value = _name(code)
            remoteness = None if distance < 0 else distance
            text = game.format(child)
            if board in seen:
                verdicts.append(MoveVerdict(move, text, "lose", True, REPEATS, game_value, remoteness))
                continue
            if game.primitive_value(child) != UNDECIDED:
                verdicts.append(MoveVerdict(move, text, _name(flipped(code)), True, ENDS,
                                            game_value, remoteness))
                continue
            after = frozenset(seen | {board})
            value, proven, reason = _name(flipped(code)), False, NOT_PROVEN
            try:
                if search.loses(child, after):
                    value, proven, reason = "win", True, PROVEN_WIN
                elif search.wins(child, code, distance, after):
                    value, proven, reason = "lose", True, PROVEN_LOSS
            except _OutOfBudget:
                finished = False
            verdicts.append(MoveVerdict(move, text, value, proven, reason, game_value, remoteness))
    verdicts.sort(key=lambda v: (v.reason == REPEATS, _ORDER.get(_code(v.value), 4), not v.proven,
                                 v.game_remoteness if v.game_remoteness is not None else 0))
    (own_code,), _ = db._results([state])
    if primitive != UNDECIDED:
        value, proven, reason = _name(primitive), True, ENDS
    elif any(v.proven and v.value == "win" for v in verdicts):
        value, proven, reason = "win", True, "a move wins under the repetition rule"
    elif verdicts and all(v.proven and v.value == "lose" for v in verdicts):
        value, proven, reason = "lose", True, "every move repeats a board or loses"
    else:
        value, proven, reason = _name(int(own_code)), False, NOT_PROVEN
    return HistoryReport(game.format(state), history, value, proven, reason, verdicts,
                         search.nodes, finished)


def _code(name: str) -> int:
    return {v: k for k, v in VALUE_NAMES.items()}.get(name, DRAW)
