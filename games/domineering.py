"""Domineering: the first player (``v``) places vertical dominoes, the second (``h``)
horizontal ones, on two empty cells. A player with no legal move loses.

Rules: docs/RULES.md, section "Domineering".

Position ``(T row row ...)``: turn ``v``/``h``; cells ``-`` empty, ``#`` covered.

Index: every move covers two cells, so tier ``k`` holds the boards with ``2k`` covered
cells (a combination of the cells) and the turn follows (``v`` moves when ``k`` is
even): only even counts are indexed, 2^(n-1) boards instead of 2^n. Every move goes
to tier ``k + 1``. ``--symmetry`` stores one board of each class under the left-right
and up-down mirrors and the half turn (the symmetries that keep every domino's
orientation; on square boards the diagonal ones would swap the players' roles).

State vector: ``[turn, cells...]`` (turn 0 = v; cells in text order, 0 empty, 1 covered).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tiersolve.bits import copy_into, permutation_tables
from tiersolve.errors import ImpossiblePositionError
from tiersolve.games.base import (
    MISERE, PLACE, Game, GameFunctions, GameSpec, MoveSketch, Option, board_cells, cols_option,
    no_move_value, rows_option, square_name,
)
from tiersolve.hashers.combinations import rank_subset, subset_count, unrank_subset
from tiersolve.hashers.symmetry import canonical_subset_rank, grid_symmetries
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit
from tiersolve.values import NONCANONICAL, UNDECIDED

CELLS, IS_MISERE, SYMMETRIES = 0, 1, 2
SYMBOLS = "-#"


class DomineeringData(NamedTuple):
    """What the kernels read (``Game.data``)."""

    params: np.ndarray           # [cells, misere, symmetries]
    dominoes: np.ndarray         # [v/h, k] -> mask of placement k (-1 padded)
    symmetry_tables: np.ndarray  # tiersolve.bits.permutation_tables of the symmetries


@jit(forceinline=True)
def _mask(state, cells):
    covered = 0
    for c in range(cells):
        if state[1 + c]:
            covered |= np.int64(1) << c
    return covered


@jit
def expand(data, tier, local, out, state, child, moves):
    params, dominoes, tables = data
    covered = unrank_subset(local, 2 * tier, params[CELLS])
    symmetries = params[SYMMETRIES]
    if symmetries and canonical_subset_rank(covered, tables, symmetries) != local:
        return -np.int64(NONCANONICAL)
    mine = dominoes[tier % 2]
    count = 0
    for k in range(mine.shape[0]):
        if mine[k] >= 0 and covered & mine[k] == 0:
            after = covered | mine[k]
            out[count, 0] = tier + 1
            out[count, 1] = canonical_subset_rank(after, tables, symmetries) if symmetries \
                else rank_subset(after)
            out[count, 2] = 0
            out[count, 3] = k
            count += 1
    if count == 0:
        return -np.int64(no_move_value(params[IS_MISERE]))
    return count


@jit
def encode(data, state):
    params, _, tables = data
    covered = _mask(state, params[CELLS])
    tier = 0
    for c in range(params[CELLS]):
        tier += state[1 + c]
    symmetries = params[SYMMETRIES]
    local = canonical_subset_rank(covered, tables, symmetries) if symmetries else rank_subset(covered)
    return tier // 2, local


@jit
def decode(data, tier, local, state):
    cells = data.params[CELLS]
    covered = unrank_subset(local, 2 * tier, cells)
    state[0] = tier % 2
    for c in range(cells):
        state[1 + c] = (covered >> c) & 1


@jit
def generate_moves(data, state, moves):
    """Move code = index of the domino in the mover's list of placements."""
    params, dominoes, _ = data
    covered = _mask(state, params[CELLS])
    mine = dominoes[state[0]]
    count = 0
    for k in range(mine.shape[0]):
        if mine[k] >= 0 and covered & mine[k] == 0:
            moves[count] = k
            count += 1
    return count


@jit
def do_move(data, state, move, child):
    params, dominoes, _ = data
    copy_into(child, state)
    domino = dominoes[state[0], move]
    for c in range(params[CELLS]):
        if (domino >> c) & 1:
            child[1 + c] = 1
    child[0] = 1 - state[0]
    return 0


@jit
def primitive(data, state, move_count):
    return no_move_value(data.params[IS_MISERE]) if move_count == 0 else UNDECIDED


def domino_table(rows: int, cols: int) -> np.ndarray:
    """Masks of every vertical (row 0) and horizontal (row 1) placement, -1 padded."""
    vertical = [(1 << (r * cols + c)) | (1 << ((r + 1) * cols + c))
                for r in range(rows - 1) for c in range(cols)]
    horizontal = [(1 << (r * cols + c)) | (1 << (r * cols + c + 1))
                  for r in range(rows) for c in range(cols - 1)]
    width = max(len(vertical), len(horizontal), 1)
    table = np.full((2, width), -1, dtype=np.int64)
    table[0, :len(vertical)] = vertical
    table[1, :len(horizontal)] = horizontal
    return table


#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "domineering"


class Domineering(Game):
    name = NAME
    title = "Domineering"
    options_spec = (
        rows_option(5),
        cols_option(5),
        MISERE,
        Option("symmetry", bool, False,
               "store one board per class of mirror images (left-right, up-down, half turn)"),
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive, expand)
    state_fields = "turn (0 = v), then cells top row first (0 empty, 1 covered)"

    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = (
        {"rows": 3, "cols": 3}, {"rows": 3, "cols": 4, "symmetry": True},
    )
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = (
        {"rows": 2, "cols": 2}, {"rows": 3, "cols": 4}, {"rows": 4, "cols": 4},
        {"rows": 4, "cols": 4, "misere": True}, {"rows": 4, "cols": 4, "symmetry": True},
    )

    def build(self) -> GameSpec:
        rows, cols = self.options["rows"], self.options["cols"]
        cells = board_cells(rows, cols, limit=62)
        halves = range(cells // 2 + 1)
        tiers = TierLayout(keys=[(2 * k,) for k in halves],
                                sizes=[int(subset_count(cells, 2 * k)) for k in halves])
        symmetries = grid_symmetries(rows, cols, mirror_up_down=True) if self.options["symmetry"] else []
        data = DomineeringData(params=np.array([cells, self.options["misere"], len(symmetries)], dtype=np.int64),
                           dominoes=domino_table(rows, cols),
                           symmetry_tables=permutation_tables(symmetries, cells))
        return GameSpec(
            tiers=tiers, data=data, state_size=1 + cells, max_moves=int(data.dominoes.shape[1]),
            loopy=False, remoteness_bound=cells // 2,
            hasher={"name": "combinations", "tiers": "covered cells 2k (turn: k even = v)",
                    "cells": cells, "symmetries": len(symmetries) + 1})

    def tier_children(self, tier: int) -> set[int]:
        return {tier + 1} if tier + 1 < self.tiers.count else set()

    def default_start(self) -> str:
        return "(v " + " ".join("-" * self.options["cols"] for _ in range(self.options["rows"])) + ")"

    def parse(self, text: str) -> np.ndarray:
        turn, cells = self.parse_board(text, "vh", SYMBOLS)
        covered = sum(cells)
        if covered % 2:
            raise ImpossiblePositionError(f"{text!r} has {covered} covered cells; dominoes cover an even number")
        expected = "v" if covered % 4 == 0 else "h"
        if "vh"[turn] != expected:
            raise ImpossiblePositionError(f"in {text!r} {covered // 2} dominoes are placed and v moves first, "
                                 f"so it is {expected}'s turn")
        return np.array([0 if expected == "v" else 1, *cells], dtype=np.int64)

    def format(self, state: np.ndarray) -> str:
        return self.format_board("vh"[state[0]], state[1:], SYMBOLS)

    def move_name(self, state: np.ndarray, move: int) -> str:
        rows, cols = self.options["rows"], self.options["cols"]
        domino = int(self.data.dominoes[state[0], move])
        first = (domino & -domino).bit_length() - 1
        second = domino.bit_length() - 1
        # One order for both kinds: from the square nearer a1 (b3-c3, b1-b2).
        ends = sorted((first, second), key=lambda c: (c % cols, -(c // cols)))
        return "-".join(square_name(c // cols, c % cols, rows) for c in ends)

    def move_sketch(self, state: np.ndarray, name: str) -> MoveSketch | None:
        """A domino placed on the two squares its name names (not a piece moving)."""
        sketch = super().move_sketch(state, name)
        return None if sketch is None else MoveSketch(PLACE, sketch.cells)


GAME = Domineering
