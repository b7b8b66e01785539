"""Knight's Dance: each side has a king that never moves and a knight; capture the
opponent's king or knight to win. A player with no legal move loses.

Rules: docs/RULES.md, section "Knight's Dance".

Position ``(T R C WK BK WN BN)``: turn ``w``/``b``, rows, columns, and the squares of
the white king, black king, white knight and black knight (``a1`` bottom-left). A
capture ends the game with the capturing knight on the captured square, so two pieces
share it: ``(b 5 6 a1 b1 b1 d4)`` is a loss for Black.

One database covers every placement: the index is the mixed-radix number of the four
squares and the turn (``2 * squares**4`` indices, one tier). Placements that cannot
arise (kings on one square, a knight on its own king, the player to move having
already captured) are illegal. The game has cycles; it is solved by the loopy
solver with un-moves (a knight jumps back) and has draws.

State vector: ``[turn, wk, bk, wn, bn]`` (turn 0 = white; square = rank0 * cols + file,
rank0 counted from the bottom).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tiersolve.errors import ImpossiblePositionError, OtherBoardError
from tiersolve.games.base import (
    MISERE, Game, GameFunctions, GameSpec, Option, cols_option, no_move_value, rows_option,
)
from tiersolve.hashers.mixed_radix import digits_count
from tiersolve.hashers.tiers import TierLayout
from tiersolve.bits import copy_into
from tiersolve.jit import jit
from tiersolve.values import ILLEGAL, LOSE, UNDECIDED, WIN

SQUARES, JUMP_BLOCK, IS_MISERE = 0, 1, 2
WK, BK, WN, BN = 1, 2, 3, 4
KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


class KnightsDanceData(NamedTuple):
    """What the kernels read (``Game.data``)."""

    params: np.ndarray  # [squares, jump block, misere]
    jumps: np.ndarray   # the knight jumps of every square (jump_table)


@jit
def decode(data, tier, local, state):
    squares = data.params[SQUARES]
    state[0] = local & 1
    rest = local >> 1
    for piece in range(BN, WK - 1, -1):
        state[piece] = rest % squares
        rest //= squares


@jit
def encode(data, state):
    squares = data.params[SQUARES]
    index = 0
    for piece in range(WK, BN + 1):
        index = index * squares + state[piece]
    return 0, 2 * index + state[0]


@jit(forceinline=True)
def _occupied(state, square):
    return (square == state[WK] or square == state[BK] or square == state[WN]
            or square == state[BN])


@jit
def generate_moves(data, state, moves):
    """Move code = the target square of the mover's knight."""
    params, jumps = data
    knight = state[WN] if state[0] == 0 else state[BN]
    own_king = state[WK] if state[0] == 0 else state[BK]
    count = 0
    for step in range(8):
        target = jumps[knight, step, 0]
        if target < 0 or target == own_king:
            continue
        if params[JUMP_BLOCK] and (_occupied(state, jumps[knight, step, 1])
                                   or _occupied(state, jumps[knight, step, 2])):
            continue
        moves[count] = target
        count += 1
    return count


@jit
def do_move(data, state, move, child):
    copy_into(child, state)
    child[WN if state[0] == 0 else BN] = move
    child[0] = 1 - state[0]
    return 0


@jit(forceinline=True)
def _outcome(params, state, move_count):
    """``primitive`` of a state whose mover has ``move_count`` moves."""
    wk, bk, wn, bn = state[WK], state[BK], state[WN], state[BN]
    if wk == bk or wn == wk or bn == bk:
        return ILLEGAL
    over = WIN if params[IS_MISERE] else LOSE  # the opponent just captured
    if wn == bn:  # a knight took a knight: the player who just moved did it
        return over
    if wn == bk:
        return ILLEGAL if bn == wk or state[0] == 0 else over
    if bn == wk:
        return ILLEGAL if state[0] == 1 else over
    return no_move_value(params[IS_MISERE]) if move_count == 0 else UNDECIDED


@jit
def primitive(data, state, move_count):
    return _outcome(data.params, state, move_count)


@jit(forceinline=True)
def _knight_weight(params, piece):
    """What one square more of ``piece`` (a knight) adds to the index."""
    return 2 * params[SQUARES] if piece == WN else 2


@jit(forceinline=True)
def _expand_into(data, tier, local, out, state, leaving_only):
    """``expand``, or with ``leaving_only`` ``expand_leaving`` (every move stays in the
    one tier, so it only counts them). A child's index is the parent's with the
    mover's knight's digit changed and the turn flipped."""
    params, jumps = data
    decode(data, tier, local, state)
    turn = state[0]
    piece = WN if turn == 0 else BN
    knight, own_king = state[piece], state[WK] if turn == 0 else state[BK]
    count = 0
    for step in range(8):
        target = jumps[knight, step, 0]
        if target < 0 or target == own_king:
            continue
        if params[JUMP_BLOCK] and (_occupied(state, jumps[knight, step, 1])
                                   or _occupied(state, jumps[knight, step, 2])):
            continue
        out[count, 3] = target
        count += 1
    code = _outcome(params, state, count)
    if code != UNDECIDED:
        return -np.int64(code), -1
    if leaving_only:
        return 0, count
    weight = _knight_weight(params, piece)
    for k in range(count):
        out[k, 0] = 0
        out[k, 1] = local + (out[k, 3] - knight) * weight + 1 - 2 * turn
        out[k, 2] = 0
    return count, 0


@jit
def expand(data, tier, local, out, state, child, moves):
    count, _ = _expand_into(data, tier, local, out, state, False)
    return count


@jit
def expand_leaving(data, tier, local, out, state, child, moves):
    return _expand_into(data, tier, local, out, state, True)


@jit
def parents(data, tier, local, out, state, other):
    """Un-moves: the player who just moved had their knight one knight's jump away, on
    a free square, with the jump not blocked (``--jump-block``) by the other pieces.
    Exact: every parent is a legal position that moves here. A parent's index is this
    one's with the knight's digit changed and the turn flipped."""
    params, jumps = data
    decode(data, tier, local, state)
    piece = WN if state[0] == 1 else BN  # the knight of the player who just moved
    here = state[piece]
    weight = _knight_weight(params, piece)
    count = 0
    for step in range(8):
        there = jumps[here, step, 0]
        if there < 0 or _occupied_by_others(state, piece, there):
            continue
        back = (step + 4) % 8  # the jump from there to here
        if params[JUMP_BLOCK] and (_occupied_by_others(state, piece, jumps[there, back, 1])
                                   or _occupied_by_others(state, piece, jumps[there, back, 2])):
            continue
        out[count] = (local + (there - here) * weight + 1 - 2 * state[0]) << 1
        count += 1
    return count


@jit(forceinline=True)
def _occupied_by_others(state, piece, square):
    """Is ``square`` taken by one of the three pieces other than ``piece``?"""
    for other in range(WK, BN + 1):
        if other != piece and state[other] == square:
            return True
    return False


def jump_table(rows: int, cols: int) -> np.ndarray:
    """For each square and knight step: the target square, and the two squares that
    block it with --jump-block (the orthogonal neighbour along the long leg and the
    diagonal neighbour along both legs); -1 when the target is off the board."""
    table = np.full((rows * cols, 8, 3), -1, dtype=np.int64)
    for rank in range(rows):
        for file in range(cols):
            for step, (dr, df) in enumerate(KNIGHT_STEPS):
                if not (0 <= rank + dr < rows and 0 <= file + df < cols):
                    continue
                sr, sf = (dr > 0) - (dr < 0), (df > 0) - (df < 0)
                ortho = (rank + sr, file) if abs(dr) == 2 else (rank, file + sf)
                diagonal = (rank + sr, file + sf)
                table[rank * cols + file, step] = [(rank + dr) * cols + file + df,
                                                   ortho[0] * cols + ortho[1],
                                                   diagonal[0] * cols + diagonal[1]]
    return table


#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "knightsdance"


class KnightsDance(Game):
    name = NAME
    title = "Knight's Dance"
    options_spec = (
        rows_option(5, minimum=2),
        cols_option(6, minimum=3),
        Option("jump_block", bool, False,
               "a knight is blocked by any piece on the orthogonal or diagonal square "
               "next to it in the direction of its jump"),
        MISERE,
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive, expand,
                              parents=parents, expand_leaving=expand_leaving)
    state_fields = "turn (0 = white), then squares of white king, black king, white knight, " \
                   "black knight (rank0 * cols + file, a1 = 0)"

    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = (
        {"rows": 3, "cols": 3}, {"rows": 3, "cols": 4, "jump_block": True},
        {"rows": 2, "cols": 4, "jump_block": True, "misere": True},
    )
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py):
    #: every set of options on 4x4, and the seed's 5x5 with both.
    reference_boards = (
        {"rows": 4, "cols": 4}, {"rows": 4, "cols": 4, "jump_block": True},
        {"rows": 4, "cols": 4, "misere": True},
        {"rows": 4, "cols": 4, "jump_block": True, "misere": True},
        {"rows": 5, "cols": 5, "jump_block": True, "misere": True},
    )
    #: The other options on 5x5, half a minute each: pytest -m slow.
    slow_reference_boards = (
        {"rows": 5, "cols": 5}, {"rows": 5, "cols": 5, "jump_block": True},
        {"rows": 5, "cols": 5, "misere": True},
    )

    def build(self) -> GameSpec:
        rows, cols = self.options["rows"], self.options["cols"]
        squares = rows * cols
        tiers = TierLayout(keys=[()], sizes=[2 * digits_count([squares] * 4)])
        data = KnightsDanceData(
            params=np.array([squares, self.options["jump_block"], self.options["misere"]], dtype=np.int64),
            jumps=jump_table(rows, cols))
        return GameSpec(
            tiers=tiers, data=data, state_size=5, max_moves=8, loopy=True, remoteness_bound=None,
            hasher={"name": "mixed-radix", "digits": "white king, black king, white knight, "
                    "black knight squares, turn", "radices": [squares] * 4 + [2]},
            max_parents=8,
            parents_are_distinct=True)  # one knight moves back: each jump its own square

    def tier_children(self, tier: int) -> set[int]:
        return {0}

    def default_start(self) -> str:
        rows, cols = self.options["rows"], self.options["cols"]
        top_right = f"{chr(ord('a') + cols - 1)}{rows}"
        return f"(w {rows} {cols} a1 b1 {top_right} b{rows})"

    def _square(self, name: str, piece: str, text: str) -> int:
        from tiersolve.games.base import parse_square

        rows, cols = self.options["rows"], self.options["cols"]
        try:
            row_from_top, file = parse_square(name, rows, cols)
        except ValueError as error:
            raise ValueError(f"the {piece} in {text!r}: {error}") from None
        return (rows - 1 - row_from_top) * self.options["cols"] + file

    def _name(self, square: int) -> str:
        cols = self.options["cols"]
        return f"{chr(ord('a') + square % cols)}{square // cols + 1}"

    def parse(self, text: str) -> np.ndarray:
        rows, cols = self.options["rows"], self.options["cols"]
        words = self.split_position(text)
        if len(words) != 7:
            raise ValueError(f"a {self.title} position is (T R C WK BK WN BN), e.g. "
                                 f"{self.default_start()}; got {text!r}")
        turn, size_rows, size_cols, *names = words
        if turn not in ("w", "b"):
            raise ValueError(f"the turn in {text!r} must be w or b, got {turn!r}")
        if (size_rows, size_cols) != (str(rows), str(cols)):
            raise OtherBoardError(f"{text!r} is a {size_rows}x{size_cols} position, but this "
                                 f"{self.describe()} game is {rows}x{cols}")
        pieces = ("white king", "black king", "white knight", "black knight")
        state = np.array([0 if turn == "w" else 1,
                              *(self._square(n, p, text) for n, p in zip(names, pieces))], dtype=np.int64)
        problem = self._illegal_reason(state)
        if problem:
            raise ImpossiblePositionError(f"{text!r} cannot arise: {problem}")
        return state

    def _illegal_reason(self, state: np.ndarray) -> str | None:
        _, wk, bk, wn, bn = (int(v) for v in state)
        if wk == bk:
            return f"both kings stand on {self._name(wk)}"
        if wn == wk:
            return f"the white knight stands on its own king ({self._name(wk)})"
        if bn == bk:
            return f"the black knight stands on its own king ({self._name(bk)})"
        if wn == bk and bn == wk:
            return "both kings have been captured"
        if wn == bk and state[0] == 0:
            return "White already captured the black king, so the game is over and it is not White's turn"
        if bn == wk and state[0] == 1:
            return "Black already captured the white king, so the game is over and it is not Black's turn"
        return None

    def explain_illegal(self, state: np.ndarray) -> str:
        return self._illegal_reason(state) or super().explain_illegal(state)

    def format(self, state: np.ndarray) -> str:
        rows, cols = self.options["rows"], self.options["cols"]
        squares = " ".join(self._name(int(s)) for s in state[1:])
        return f"({'wb'[state[0]]} {rows} {cols} {squares})"

    def grid(self, state: np.ndarray) -> list[str]:
        """The board, top rank first: K/N white king and knight, k/n black's.

        >>> game = GAME(rows=3, cols=3)
        >>> game.grid(game.parse("(w 3 3 a1 c3 b1 a3)"))
        ['n-k', '---', 'KN-']
        """
        rows, cols = self.options["rows"], self.options["cols"]
        cells = [["-"] * cols for _ in range(rows)]
        for field, letter in ((WK, "K"), (BK, "k"), (WN, "N"), (BN, "n")):
            square = int(state[field])
            cells[rows - 1 - square // cols][square % cols] = letter
        return ["".join(row) for row in cells]

    def move_name(self, state: np.ndarray, move: int) -> str:
        return f"{self._name(int(state[WN if state[0] == 0 else BN]))}-{self._name(move)}"


GAME = KnightsDance
