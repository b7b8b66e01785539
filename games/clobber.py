"""Clobber: stones fill the board in a checkerboard (``a1`` black); a move puts one of
your stones onto an orthogonally adjacent opponent stone, removing it. Black moves
first; a player with no legal move loses.

Rules: docs/RULES.md, section "Clobber".

Position ``(T row row ...)``: turn ``b``/``w``; cells ``b``, ``w``, ``-``.

Index: every move removes one opponent stone, so the stone counts tell how many moves
each side has made and whose turn it is: tier ``(b, w)`` holds the boards with ``b``
black and ``w`` white stones that play from the full board can reach by count
(Black has taken as many stones as White, or one more), ranked by the rearranger.
A black move goes to ``(b, w - 1)``, a white one to ``(b - 1, w)``. ``--symmetry``
stores one board per class under the mirrors and turns of the board (eight on a
square board, four otherwise).

State vector: ``[turn, cells...]`` (turn 0 = black; cells in text order, 0 empty,
1 black, 2 white).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tiersolve.bits import copy_into, lowest_bit, permutation_tables, popcount, shift_down
from tiersolve.errors import ImpossiblePositionError
from tiersolve.games.base import (
    MISERE, Game, GameFunctions, GameSpec, Option, board_cells, code_masks, cols_option,
    no_move_value, rows_option, square_name,
)
from tiersolve.hashers.rearranger import board_count, rank_board, unrank_board
from tiersolve.hashers.symmetry import canonical_board_rank, grid_symmetries
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit
from tiersolve.values import NONCANONICAL, UNDECIDED

CELLS, IS_MISERE, SYMMETRIES, BLACK_START, WHITE_START = 0, 1, 2, 3, 4
EMPTY, BLACK, WHITE = 0, 1, 2
SYMBOLS = "-bw"
DIRECTIONS = ("up", "down", "left", "right")


class ClobberData(NamedTuple):
    """What the kernels read (``Game.data``)."""

    params: np.ndarray           # [cells, misere, symmetries, black start, white start]
    tier_of: np.ndarray          # [black, white] -> tier (-1: none)
    tier_counts: np.ndarray      # tier -> (black, white)
    neighbours: np.ndarray       # [cell, up/down/left/right] -> cell (-1: off the board)
    symmetry_tables: np.ndarray  # tiersolve.bits.permutation_tables of the symmetries
    step_shift: np.ndarray       # [up/down/left/right] -> target cell minus cell
    step_from: np.ndarray        # [up/down/left/right] -> mask of cells with that neighbour


@jit(forceinline=True)
def _rank(params, tables, black, white):
    if params[SYMMETRIES]:
        return canonical_board_rank(black, white, params[CELLS], tables, params[SYMMETRIES])
    return rank_board(black, white, params[CELLS])


@jit
def expand(data, tier, local, out, state, child, moves):
    params, tier_of, tier_counts, tables = data.params, data.tier_of, data.tier_counts, data.symmetry_tables
    cells = params[CELLS]
    blacks, whites = tier_counts[tier, 0], tier_counts[tier, 1]
    black, white = unrank_board(local, cells, blacks, whites)
    if params[SYMMETRIES] and _rank(params, tables, black, white) != local:
        return -np.int64(NONCANONICAL)
    black_moves = (params[WHITE_START] - whites) == (params[BLACK_START] - blacks)
    mine, theirs = (black, white) if black_moves else (white, black)
    child_tier = tier_of[blacks, whites - 1] if black_moves else tier_of[blacks - 1, whites]
    count = 0
    for direction in range(4):  # every stone's move in one direction at once
        shift = data.step_shift[direction]
        movers = mine & data.step_from[direction]
        targets = (movers << shift if shift > 0 else shift_down(movers, -shift)) & theirs
        while targets:
            target = lowest_bit(targets)
            targets &= targets - 1
            cell = target - shift
            moved = (mine & ~(np.int64(1) << cell)) | (np.int64(1) << target)
            taken = theirs & ~(np.int64(1) << target)
            out[count, 0] = child_tier
            out[count, 1] = _rank(params, tables, moved, taken) if black_moves \
                else _rank(params, tables, taken, moved)
            out[count, 2] = 0
            out[count, 3] = cell * 4 + direction
            count += 1
    if count == 0:
        return -np.int64(no_move_value(params[IS_MISERE]))
    return count


@jit
def encode(data, state):
    params, tier_of, tables = data.params, data.tier_of, data.symmetry_tables
    black, white = code_masks(state, params[CELLS], BLACK, WHITE)
    return tier_of[popcount(black), popcount(white)], _rank(params, tables, black, white)


@jit
def decode(data, tier, local, state):
    params, tier_counts = data.params, data.tier_counts
    cells = params[CELLS]
    blacks, whites = tier_counts[tier, 0], tier_counts[tier, 1]
    black, white = unrank_board(local, cells, blacks, whites)
    state[0] = 0 if (params[WHITE_START] - whites) == (params[BLACK_START] - blacks) else 1
    for c in range(cells):
        state[1 + c] = BLACK if (black >> c) & 1 else (WHITE if (white >> c) & 1 else EMPTY)


@jit
def generate_moves(data, state, moves):
    """Move code = cell * 4 + direction (up, down, left, right)."""
    neighbours = data.neighbours
    mine, theirs = (BLACK, WHITE) if state[0] == 0 else (WHITE, BLACK)
    count = 0
    for cell in range(state.shape[0] - 1):
        if state[1 + cell] != mine:
            continue
        for direction in range(4):
            target = neighbours[cell, direction]
            if target >= 0 and state[1 + target] == theirs:
                moves[count] = cell * 4 + direction
                count += 1
    return count


@jit
def do_move(data, state, move, child):
    neighbours = data.neighbours
    cell, direction = move // 4, move % 4
    copy_into(child, state)
    child[1 + neighbours[cell, direction]] = state[1 + cell]
    child[1 + cell] = EMPTY
    child[0] = 1 - state[0]
    return 0


@jit
def primitive(data, state, move_count):
    return no_move_value(data.params[IS_MISERE]) if move_count == 0 else UNDECIDED


def orthogonal_neighbours(rows: int, cols: int) -> np.ndarray:
    """Cell up, down, left and right of each cell (text order), -1 off the board."""
    table = np.full((rows * cols, 4), -1, dtype=np.int64)
    for cell in range(rows * cols):
        row, col = divmod(cell, cols)
        for direction, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
            if 0 <= row + dr < rows and 0 <= col + dc < cols:
                table[cell, direction] = (row + dr) * cols + col + dc
    return table


#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "clobber"


class Clobber(Game):
    name = NAME
    title = "Clobber"
    options_spec = (
        rows_option(4),
        cols_option(4),
        MISERE,
        Option("symmetry", bool, False,
               "store one board per class of mirror images and rotations of the board"),
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive, expand)
    state_fields = "turn (0 = black), then cells top row first (0 empty, 1 black, 2 white)"

    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = (
        {"rows": 2, "cols": 3}, {"rows": 3, "cols": 3, "misere": True, "symmetry": True},
    )
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = (
        {"rows": 1, "cols": 8}, {"rows": 2, "cols": 4}, {"rows": 2, "cols": 5, "misere": True},
        {"rows": 3, "cols": 3}, {"rows": 3, "cols": 4}, {"rows": 3, "cols": 4, "misere": True},
        {"rows": 3, "cols": 4, "symmetry": True},
    )

    def build(self) -> GameSpec:
        rows, cols = self.options["rows"], self.options["cols"]
        cells = board_cells(rows, cols)
        black_start = sum(1 for c in range(cells) if self._is_black_cell(c))
        white_start = cells - black_start
        keys = [(b, w) for b in range(black_start + 1) for w in range(white_start + 1)
                if (white_start - w) - (black_start - b) in (0, 1)]
        tier_of = np.full((black_start + 1, white_start + 1), -1, dtype=np.int64)
        for tier, (b, w) in enumerate(keys):
            tier_of[b, w] = tier
        tiers = TierLayout(keys=keys, sizes=[int(board_count(cells, b, w)) for b, w in keys])
        neighbours = orthogonal_neighbours(rows, cols)
        symmetries = grid_symmetries(rows, cols, mirror_up_down=True, transpose=True) \
            if self.options["symmetry"] else []
        data = ClobberData(
            params=np.array([cells, self.options["misere"], len(symmetries), black_start, white_start],
                            dtype=np.int64),
            tier_of=tier_of, tier_counts=np.array(keys, dtype=np.int64).reshape(-1, 2),
            neighbours=neighbours, symmetry_tables=permutation_tables(symmetries, cells),
            step_shift=np.array([-cols, cols, -1, 1], dtype=np.int64),
            step_from=np.array([sum(1 << c for c in range(cells) if neighbours[c, d] >= 0)
                                for d in range(4)], dtype=np.uint64).view(np.int64))
        return GameSpec(
            tiers=tiers, data=data, state_size=1 + cells, max_moves=4 * cells, loopy=False,
            remoteness_bound=cells,
            hasher={"name": "rearranger", "tiers": "(black stones, white stones), turn from the "
                    "counts", "cells": cells, "symmetries": len(symmetries) + 1})

    def tier_children(self, tier: int) -> set[int]:
        b, w = self.tiers.keys[tier]
        black_start = int(self.data.params[BLACK_START])
        white_start = int(self.data.params[WHITE_START])
        child = (b, w - 1) if (white_start - w) == (black_start - b) else (b - 1, w)
        tier_of = self.data.tier_of
        return {int(tier_of[child])} if min(child) >= 0 else set()

    def _is_black_cell(self, cell: int) -> bool:
        rows, cols = self.options["rows"], self.options["cols"]
        return ((rows - 1 - cell // cols) + cell % cols) % 2 == 0  # a1 is black

    def default_start(self) -> str:
        rows, cols = self.options["rows"], self.options["cols"]
        cells = "".join("b" if self._is_black_cell(c) else "w" for c in range(rows * cols))
        return "(b " + " ".join(cells[r * cols:(r + 1) * cols] for r in range(rows)) + ")"

    def parse(self, text: str) -> np.ndarray:
        turn, cells = self.parse_board(text, "bw", SYMBOLS)
        blacks, whites = cells.count(BLACK), cells.count(WHITE)
        black_start, white_start = int(self.data.params[BLACK_START]), int(self.data.params[WHITE_START])
        taken_by_black, taken_by_white = white_start - whites, black_start - blacks
        if taken_by_black - taken_by_white not in (0, 1) or min(taken_by_black, taken_by_white) < 0:
            raise ImpossiblePositionError(f"{text!r} has {blacks} black and {whites} white stones, which play "
                                 f"from the full board ({black_start} and {white_start}, Black first) "
                                 "cannot reach: each move takes one stone, in turn")
        expected = "b" if taken_by_black == taken_by_white else "w"
        if "bw"[turn] != expected:
            raise ImpossiblePositionError(f"in {text!r} it must be {'Black' if expected == 'b' else 'White'}'s "
                                 f"turn: Black has taken {taken_by_black} stones and White {taken_by_white}")
        return np.array([0 if expected == "b" else 1, *cells], dtype=np.int64)

    def format(self, state: np.ndarray) -> str:
        return self.format_board("bw"[state[0]], state[1:], SYMBOLS)

    def move_name(self, state: np.ndarray, move: int) -> str:
        rows, cols = self.options["rows"], self.options["cols"]
        cell, direction = divmod(move, 4)
        target = int(self.data.neighbours[cell, direction])
        return f"{square_name(cell // cols, cell % cols, rows)}x{square_name(target // cols, target % cols, rows)}"


GAME = Clobber
