"""Teeko: drop four markers each, then step them one cell in any direction; four in
a row or in a square wins.

Rules: docs/RULES.md, section "Teeko".

Position ``(T row row ...)``: turn ``b``/``w``; cells ``b``, ``w``, ``-``. A drop is
named by its cell (``c3``), a step by its two cells (``c3-d4``).

Index (``hashers/boards.py``): positions are stored up to the square's 8 symmetries,
as the cells of the player to move and those of the other (the rules treat black and
white alike once the markers are on the board). Tier k holds the positions with k
markers on the board, one block of ``hashers.boards`` whose "black" cells are the
mover's: while markers are dropped the mover has k // 2 and the other k - k // 2.
Only turn bit 0 is used (turn 1 is NONCANONICAL: ``encode`` never gives it). A drop leads to tier k + 1 (IMMEDIATE tiers); tier 8, where the markers
step, is LOOPY, solved with un-moves (a marker of the player who just moved steps
back).

State vector: ``[turn, cells...]`` (turn 0 = black; cells in text order, 0 empty,
1 black, 2 white). ``decode`` gives black to move once all markers are down.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tiersolve.bits import copy_into, lowest_bit, popcount
from tiersolve.contract import TierType
from tiersolve.errors import ImpossiblePositionError
from tiersolve.games.base import (
    Game, GameFunctions, GameSpec, Option, add_move, fill_cells, mover_masks, square_name,
)
from tiersolve.hashers.boards import BoardSpace, decode_board, encode_board
from tiersolve.hashers.combinations import rank_subset, subset_count
from tiersolve.hashers.symmetry import grid_symmetries
from tiersolve.jit import jit
from tiersolve.values import ILLEGAL, LOSE, NONCANONICAL, UNDECIDED

#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "teeko"

EMPTY, BLACK, WHITE = 0, 1, 2
SYMBOLS = "-bw"
MARKERS = 4  # each player's
#: A step's move code: (from + 1) * STEP + to; a drop's is its cell (below STEP).
STEP = 32


class TeekoData(NamedTuple):
    """``board``: the board index (``BoardSpace.table``); ``neighbours[c]``: the mask of
    the up to 8 cells next to cell c; ``pattern[r]``: 1 if the set of four cells of
    colex rank r is a winning pattern."""

    board: np.ndarray
    neighbours: np.ndarray
    pattern: np.ndarray


@jit(forceinline=True)
def has_pattern(pattern, cells):
    """Whether a player's markers ``cells`` form a winning pattern (all four of them)."""
    return popcount(cells) == MARKERS and pattern[rank_subset(cells)] != 0


@jit(forceinline=True)
def outcome(pattern, mover, other):
    """ILLEGAL if the player to move has a pattern (the game ended a move earlier), a
    LOSE in 0 if the other has one, else UNDECIDED."""
    if has_pattern(pattern, mover):
        return ILLEGAL
    if has_pattern(pattern, other):
        return LOSE
    return UNDECIDED


@jit(forceinline=True)
def encode_position(board, mover, other):
    """(tier, local) of the position where the player to move has the cells
    ``mover``: the block's "black" cells are the mover's, turn bit 0."""
    return encode_board(board, mover, other, 0)


@jit
def decode(data, tier, local, state):
    mover, other, _, _ = decode_board(data.board, tier, local)
    white_moves = popcount(mover) < popcount(other)  # markers still dropped, white's turn
    state[0] = 1 if white_moves else 0
    if white_moves:
        fill_cells(state, data.board[0], other, mover, BLACK, WHITE)
    else:
        fill_cells(state, data.board[0], mover, other, BLACK, WHITE)


@jit
def encode(data, state):
    mover, other = mover_masks(state, data.board[0])
    return encode_position(data.board, mover, other)


@jit
def expand(data, tier, local, out, state, child, moves):
    board = data.board
    mover, other, turn, canonical = decode_board(board, tier, local)
    if turn == 1 or not canonical:  # (the turn bit is not used: see the module docstring)
        return -np.int64(NONCANONICAL)
    value = outcome(data.pattern, mover, other)
    if value == ILLEGAL:
        return 0
    if value != UNDECIDED:
        return -np.int64(value)
    cells = board[0]
    empty = ((np.int64(1) << cells) - 1) & ~(mover | other)
    count = 0
    if popcount(mover) < MARKERS:  # drop a marker on an empty cell
        rest = empty
        while rest:
            cell = lowest_bit(rest)
            rest &= rest - 1
            child_tier, child_local = encode_position(board, other, mover | (np.int64(1) << cell))
            count = add_move(out, count, child_tier, child_local, cell)
        return count
    pieces = mover
    while pieces:  # step a marker to an empty neighbour
        cell = lowest_bit(pieces)
        pieces &= pieces - 1
        targets = data.neighbours[cell] & empty
        while targets:
            target = lowest_bit(targets)
            targets &= targets - 1
            moved = mover ^ (np.int64(1) << cell) ^ (np.int64(1) << target)
            child_tier, child_local = encode_position(board, other, moved)
            count = add_move(out, count, child_tier, child_local, (cell + 1) * STEP + target)
    if count == 0:
        return -np.int64(LOSE)  # no move: lost (never on the 5x5 board)
    return count


@jit
def parents(data, tier, local, out, state, other_scratch):
    """Un-moves in the stepping tier: a marker of the player who just moved steps back
    to an empty neighbour."""
    board = data.board
    mover, moved, _, _ = decode_board(board, tier, local)  # moved: who just moved
    cells = board[0]
    empty = ((np.int64(1) << cells) - 1) & ~(mover | moved)
    count = 0
    pieces = moved
    while pieces:
        cell = lowest_bit(pieces)
        pieces &= pieces - 1
        sources = data.neighbours[cell] & empty
        while sources:
            source = lowest_bit(sources)
            sources &= sources - 1
            before = moved ^ (np.int64(1) << cell) ^ (np.int64(1) << source)
            out[count] = encode_position(board, before, mover)[1] << 1
            count += 1
    return count


@jit
def generate_moves(data, state, moves):
    mover, other = mover_masks(state, data.board[0])
    cells = data.board[0]
    empty = ((np.int64(1) << cells) - 1) & ~(mover | other)
    count = 0
    if popcount(mover) < MARKERS:
        for cell in range(cells):
            if (empty >> cell) & 1:
                moves[count] = cell
                count += 1
        return count
    for cell in range(cells):
        if (mover >> cell) & 1:
            for target in range(cells):
                if (data.neighbours[cell] & empty) >> target & 1:
                    moves[count] = (cell + 1) * STEP + target
                    count += 1
    return count


@jit
def do_move(data, state, move, child):
    copy_into(child, state)
    child[0] = 1 - state[0]
    colour = BLACK if state[0] == 0 else WHITE
    if move >= STEP:
        child[1 + move // STEP - 1] = EMPTY
    child[1 + move % STEP] = colour
    return 0


@jit
def primitive(data, state, move_count):
    mover, other = mover_masks(state, data.board[0])
    value = outcome(data.pattern, mover, other)
    if value == UNDECIDED and move_count == 0:
        return LOSE
    return value


def patterns(size: int, advanced: bool) -> list[list[int]]:
    """The winning patterns of a size x size board, as lists of four cells: lines of
    four (rows, columns, both diagonals), 2x2 squares, and with ``advanced`` the
    corners of every larger square.

    >>> len(patterns(5, False)), len(patterns(5, True))
    (44, 58)
    """
    found = []
    for r in range(size):
        for c in range(size):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                line = [(r + k * dr, c + k * dc) for k in range(MARKERS)]
                if all(0 <= rr < size and 0 <= cc < size for rr, cc in line):
                    found.append([rr * size + cc for rr, cc in line])
    for side in range(1, size if advanced else 2):
        for r in range(size - side):
            for c in range(size - side):
                found.append([r * size + c, r * size + c + side, (r + side) * size + c,
                              (r + side) * size + c + side])
    return found


def neighbour_masks(size: int) -> np.ndarray:
    """The mask of the cells next to each cell (8 directions)."""
    masks = np.zeros(size * size, np.int64)
    for r in range(size):
        for c in range(size):
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dr or dc) and 0 <= r + dr < size and 0 <= c + dc < size:
                        masks[r * size + c] |= 1 << ((r + dr) * size + c + dc)
    return masks


class Teeko(Game):
    name = NAME
    title = "Teeko"
    options_spec = (
        Option("size", int, 5, "board size N (an N x N board)", minimum=3, maximum=5),
        Option("advanced", bool, False, "the corners of larger squares are patterns too"),
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive, expand,
                              parents=parents)
    state_fields = "turn (0 = black), then cells top row first (0 empty, 1 black, 2 white)"

    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = ({"size": 3}, {"size": 3, "advanced": True})
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = ({"size": 3}, {"size": 3, "advanced": True})
    #: The same, minutes each: pytest -m slow.
    slow_reference_boards = ({"size": 4},)

    def build(self) -> GameSpec:
        size = self.options["size"]
        cells = size * size
        blocks = [[(k // 2, k - k // 2)] for k in range(2 * MARKERS + 1)]
        self.space = BoardSpace(cells, blocks,
                                grid_symmetries(size, size, mirror_up_down=True, transpose=True))
        pattern = np.zeros(int(subset_count(cells, MARKERS)), np.int8)
        for cells_of in patterns(size, self.options["advanced"]):
            pattern[int(rank_subset(sum(1 << c for c in cells_of)))] = 1
        return GameSpec(
            tiers=self.space.tiers, data=TeekoData(self.space.table, neighbour_masks(size), pattern),
            state_size=1 + cells, max_moves=max(cells, 8 * MARKERS), loopy=True,
            remoteness_bound=None, max_parents=8 * MARKERS,
            hasher={"name": "two-colour boards up to symmetry",
                    "tiers": "markers on the board (mover's, other's)", "cells": cells,
                    "symmetries": 8})

    def tier_children(self, tier: int) -> set[int]:
        return {min(tier + 1, 2 * MARKERS)}

    def tier_type(self, tier: int) -> TierType:
        return TierType.LOOPY if tier == 2 * MARKERS else TierType.IMMEDIATE

    def default_start(self) -> str:
        size = self.options["size"]
        return "(b " + " ".join(["-" * size] * size) + ")"

    def parse(self, text: str) -> np.ndarray:
        turn, cells = self.parse_board(text, "bw", SYMBOLS)
        black, white = cells.count(BLACK), cells.count(WHITE)
        if max(black, white) > MARKERS:
            raise ImpossiblePositionError(
                f"{text!r} has {black} black and {white} white markers; each player has "
                f"{MARKERS}")
        if (black, white) != (MARKERS, MARKERS):
            if black == white and turn == 1 or black == white + 1 and turn == 0:
                whose, other = ("white", "black") if turn == 1 else ("black", "white")
                raise ImpossiblePositionError(
                    f"{text!r} has {black} black and {white} white markers, so markers are "
                    f"still being dropped and it is {other}'s turn, not {whose}'s")
            if black not in (white, white + 1):
                raise ImpossiblePositionError(
                    f"{text!r} has {black} black and {white} white markers; black drops first "
                    "and the players take turns, so black has as many as white or one more")
        return np.array([turn, *cells], dtype=np.int64)

    def format(self, state: np.ndarray) -> str:
        return self.format_board("bw"[state[0]], state[1:], SYMBOLS)

    def explain_illegal(self, state: np.ndarray) -> str:
        mover = "black" if state[0] == 0 else "white"
        return (f"{mover}, to move, already has four in a pattern: the game ended before "
                "the other's move")

    def move_name(self, state: np.ndarray, move: int) -> str:
        size = self.options["size"]
        target = square_name(*divmod(move % STEP, size), size)
        if move < STEP:
            return target
        return f"{square_name(*divmod(move // STEP - 1, size), size)}-{target}"


GAME = Teeko
