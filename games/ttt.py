"""Tomorrow's Tic-Tac-Toe: players place x and o; k in a row wins (or loses, misère).

Rules: docs/RULES.md, section "Tomorrow's Tic-Tac-Toe".

Position ``(T row row ...)``: ``T`` is ``x`` or ``o``, rows top to bottom, cells
``x``, ``o``, ``-``. x always moves first, so x has as many marks as o (x to move)
or one more (o to move): the turn follows from the board.

Index space: tier ``t`` holds the boards with ``t`` marks (x has ``ceil(t/2)``, o
``floor(t/2)``), ranked by the rearranger, so only boards with legal counts are
indexed. Every move goes to tier ``t + 1``.

State vector: ``[turn, cells...]`` (turn 0 = x; cells in text order, 0 empty,
1 x, 2 o).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tiersolve.bits import copy_into, lowest_bit, popcount
from tiersolve.errors import ImpossiblePositionError
from tiersolve.games.base import (
    MISERE, Game, GameFunctions, GameSpec, Option, board_cells, code_masks, cols_option,
    normalise_dashes, option_text, rows_option, square_name,
)
from tiersolve.hashers.rearranger import board_count, rank_board, unrank_board
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit
from tiersolve.values import ILLEGAL, LOSE, TIE, UNDECIDED, WIN

CELLS, IS_MISERE = 0, 1
EMPTY, X, O = 0, 1, 2
SYMBOLS = "-xo"


class TicTacToeData(NamedTuple):
    """What the kernels read (``Game.data``)."""

    params: np.ndarray  # [cells, misere]
    lines: np.ndarray   # the mask of every line of k cells


@jit
def decode(data, tier, local, state):
    cells = data.params[CELLS]
    xs, os_ = unrank_board(local, cells, (tier + 1) // 2, tier // 2)
    state[0] = tier & 1
    for c in range(cells):
        state[1 + c] = X if (xs >> c) & 1 else (O if (os_ >> c) & 1 else EMPTY)


@jit
def encode(data, state):
    xs, os_ = code_masks(state, data.params[CELLS], X, O)
    return popcount(xs) + popcount(os_), rank_board(xs, os_, data.params[CELLS])


@jit
def generate_moves(data, state, moves):
    count = 0
    for c in range(data.params[CELLS]):
        if state[1 + c] == EMPTY:
            moves[count] = c
            count += 1
    return count


@jit
def do_move(data, state, move, child):
    copy_into(child, state)
    child[1 + move] = X if state[0] == 0 else O
    child[0] = 1 - state[0]
    return 0


@jit(forceinline=True)
def _has_line(mask, lines):
    for i in range(lines.shape[0]):
        if mask & lines[i] == lines[i]:
            return True
    return False


@jit(forceinline=True)
def _outcome(params, lines, xs, os_, turn, full):
    """The value code of a finished game for the player to move, ILLEGAL, or UNDECIDED."""
    x_line = _has_line(xs, lines)
    o_line = _has_line(os_, lines)
    mover_line, last_line = (x_line, o_line) if turn == 0 else (o_line, x_line)
    if mover_line:  # the game would have ended when the mover made that line
        return ILLEGAL
    if last_line:
        return WIN if params[IS_MISERE] else LOSE
    if full:
        return TIE
    return UNDECIDED


@jit
def primitive(data, state, move_count):
    params, lines = data
    xs, os_ = code_masks(state, params[CELLS], X, O)
    return _outcome(params, lines, xs, os_, state[0], move_count == 0)


@jit
def expand(data, tier, local, out, state, child, moves):
    """The composition of the five functions, on bit masks: a mark on each empty cell
    (move code = the cell), ranked without a state vector."""
    params, lines = data
    cells = params[CELLS]
    xs, os_ = unrank_board(local, cells, (tier + 1) // 2, tier // 2)
    turn = tier & 1
    code = _outcome(params, lines, xs, os_, turn, tier == cells)
    if code != UNDECIDED:
        return -np.int64(code)
    empty = ~(xs | os_) & ((np.int64(1) << cells) - 1)
    count = 0
    while empty:
        cell = lowest_bit(empty)
        empty &= empty - 1
        mark = np.int64(1) << cell
        out[count, 0] = tier + 1
        out[count, 1] = rank_board(xs | mark, os_, cells) if turn == 0 else rank_board(xs, os_ | mark, cells)
        out[count, 2] = 0
        out[count, 3] = cell
        count += 1
    return count


def line_masks(rows: int, cols: int, k: int, diagonal: bool) -> np.ndarray:
    """Every window of k cells in a row (horizontal, vertical, optionally diagonal)."""
    directions = [(0, 1), (1, 0)] + ([(1, 1), (1, -1)] if diagonal else [])
    masks = set()
    for r in range(rows):
        for c in range(cols):
            for dr, dc in directions:
                end_r, end_c = r + (k - 1) * dr, c + (k - 1) * dc
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    masks.add(sum(1 << ((r + i * dr) * cols + c + i * dc) for i in range(k)))
    return np.array(sorted(masks), dtype=np.int64)


DEFAULT_START_3X4 = "(x ---- x--- --o-)"


#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "ttt"


class TicTacToe(Game):
    name = NAME
    title = "Tomorrow's Tic-Tac-Toe"
    options_spec = (
        rows_option(3),
        cols_option(4),
        Option("k", int, 3, "marks in a row that make a line", 1, 26),
        Option("diagonal", bool, False, "diagonal lines count too"),
        MISERE,
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive, expand)
    state_fields = "turn (0 = x, 1 = o), then cells top row first (0 empty, 1 x, 2 o)"

    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = (
        {"rows": 3, "cols": 3}, {"rows": 2, "cols": 4, "k": 2, "diagonal": True},
    )
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = (
        {"rows": 3, "cols": 3}, {"rows": 3, "cols": 3, "diagonal": True},
        {"rows": 3, "cols": 3, "misere": True},
        {"rows": 3, "cols": 3, "diagonal": True, "misere": True},
        {"rows": 3, "cols": 3, "k": 2, "diagonal": True},
        {"rows": 2, "cols": 4, "k": 2, "misere": True}, {"rows": 3, "cols": 4},
        {"rows": 3, "cols": 4, "diagonal": True, "misere": True},
    )

    def build(self) -> GameSpec:
        rows, cols, k = self.options["rows"], self.options["cols"], self.options["k"]
        cells = board_cells(rows, cols)
        if k > max(rows, cols):
            raise ValueError(f"{option_text('k', k)} is longer than the {rows}x{cols} board: "
                             "no line could ever be made")
        sizes = [int(board_count(cells, (t + 1) // 2, t // 2)) for t in range(cells + 1)]
        tiers = TierLayout(keys=[((t + 1) // 2, t // 2) for t in range(cells + 1)], sizes=sizes)
        data = TicTacToeData(params=np.array([cells, self.options["misere"]], dtype=np.int64),
                           lines=line_masks(rows, cols, k, self.options["diagonal"]))
        return GameSpec(
            tiers=tiers, data=data, state_size=1 + cells, max_moves=cells, loopy=False,
            remoteness_bound=cells,
            hasher={"name": "rearranger", "tiers": "marks placed t: x ceil(t/2), o floor(t/2)",
                    "cells": cells})

    def tier_children(self, tier: int) -> set[int]:
        return {tier + 1} if tier + 1 < self.tiers.count else set()

    def default_start(self) -> str:
        rows, cols = self.options["rows"], self.options["cols"]
        if (rows, cols) == (3, 4):
            return DEFAULT_START_3X4
        return "(x " + " ".join("-" * cols for _ in range(rows)) + ")"

    def parse(self, text: str) -> np.ndarray:
        text = normalise_dashes(text) if isinstance(text, str) else text
        turn, cells = self.parse_board(text, "xo", SYMBOLS)
        turn = "xo"[turn]
        xs, os_ = cells.count(X), cells.count(O)
        expected = "x" if xs == os_ else "o" if xs == os_ + 1 else None
        if expected is None:
            raise ImpossiblePositionError(f"{text!r} has {xs} x and {os_} o; x moves first, so x has as many "
                                 "marks as o or one more")
        if turn != expected:
            raise ImpossiblePositionError(f"in {text!r} it must be {expected}'s turn ({xs} x, {os_} o "
                                 "and x moves first)")
        return np.array([0 if turn == "x" else 1, *cells], dtype=np.int64)

    def explain_illegal(self, state: np.ndarray) -> str:
        mover = "xo"[state[0]]
        return (f"{mover} already has a line, so the game ended when {mover} made it "
                    "and it cannot be their turn")

    def format(self, state: np.ndarray) -> str:
        return self.format_board("xo"[state[0]], state[1:], SYMBOLS)

    def move_name(self, state: np.ndarray, move: int) -> str:
        cols = self.options["cols"]
        return square_name(move // cols, move % cols, self.options["rows"])


GAME = TicTacToe
