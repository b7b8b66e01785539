"""Breakthrough: White fills the two bottom rows, Black the two top rows. A piece moves
one cell straight or diagonally forward onto an empty cell, or captures diagonally
forward. Who reaches the opponent's home row wins; a player with no legal move loses.

Rules: docs/RULES.md, section "Breakthrough".

Position ``(T row row ...)``: turn ``w``/``b``; cells ``w``, ``b``, ``-``; White moves
first and upwards.

Index: a position where a piece has reached the far row is a finished game (a loss
for the player to move), so the index leaves those out and a move there is a
*terminal* move for the solver; lookups answer such positions from the rules. What
is indexed are the boards with no white piece on the top row and no black piece on
the bottom row (for 5x4 about 5% of all boards): the region rearranger
(``hashers/regions.py``) with Black barred from the bottom row and White from the
top row, tiered by the numbers of black and white pieces and of black pieces still
on the top row, times two for the turn. A capture, or a black piece leaving the top
row, changes the tier; any other move stays in it and leads to a higher index (White
moves up; Black moves down, and its pieces are ranked from the far side), which is
the order the bottom-up solver sweeps a tier in. ``--symmetry`` stores one of each
pair of left-right mirror images.

Knightthrough (``games/knightthrough.py``) is this game with knight moves.

State vector: ``[turn, cells...]`` (turn 0 = white; cells in text order, 0 empty,
1 white, 2 black).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tiersolve.bits import (
    as_mask, copy_into, extract_bits, lowest_bit, permutation_tables, permute, popcount, shift_down)
from tiersolve.contract import TERMINAL
from tiersolve.errors import ImpossiblePositionError
from tiersolve.games.base import (
    Game, GameFunctions, GameSpec, Option, board_cells, cols_option, rows_option, square_name,
)
from tiersolve.hashers.combinations import rank_subset
from tiersolve.hashers.regions import (
    F, G, rank_region_board, rank_region_first, region_board_count, unrank_region_board,
)
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit
from tiersolve.values import ILLEGAL, LOSE, NONCANONICAL, UNDECIDED

CELLS, SYMMETRY = 0, 1
EMPTY, WHITE, BLACK = 0, 1, 2
SYMBOLS = "-wb"
QUIET, CAPTURE = 1, 2      # step kinds (a bit mask: a step may allow both)
STEPS = 4                  # most steps a piece has


class BreakthroughData(NamedTuple):
    """What the kernels read (``Game.data``)."""

    params: np.ndarray        # [cells, symmetry]
    tier_of: np.ndarray       # [black, white, black on the top row] -> tier (-1: none)
    tier_counts: np.ndarray   # tier -> (black, white, black on the top row)
    step_targets: np.ndarray  # [side, bit, step] -> target bit (-1: off the board)
    step_kinds: np.ndarray    # [side, bit, step] -> QUIET | CAPTURE
    region: np.ndarray        # [top row, middle, bottom row] masks (hashers.regions)
    backwards: np.ndarray     # permutation table reversing the middle cells
    mirror: np.ndarray        # permutation table of the left-right mirror
    bit_of: np.ndarray        # text cell -> bit (bits count from the bottom-left cell)
    step_shift: np.ndarray    # [side, step] -> target bit minus the piece's bit
    step_from: np.ndarray     # [side, step] -> mask of the bits the step stays on the board from
    step_kind: np.ndarray     # [side, step] -> QUIET | CAPTURE


@jit(forceinline=True)
def _rank(data, black, white, turn):
    """Index within the tier: twice the (canonical) board rank, plus the turn."""
    return _rank_as(data, black, white, turn, data.params[SYMMETRY])


@jit(forceinline=True)
def _rank_as(data, black, white, turn, symmetry):
    """``_rank`` with ``symmetry`` given (a constant where ``expand`` inlines it)."""
    region, backwards, mirror = data.region, data.backwards, data.mirror
    rank = rank_region_board(black, white, region, backwards)
    if symmetry:
        rank = max(rank, rank_region_board(permute(black, mirror, 0), permute(white, mirror, 0),
                                           region, backwards))
    return 2 * rank + turn


@jit(forceinline=True)
def _tier(data, black, white):
    return data.tier_of[popcount(black), popcount(white), popcount(black & data.region[F])]


@jit(forceinline=True)
def _arrivals(data, white, black):
    """(White stands on the top row, Black stands on the bottom row)."""
    return white & data.region[F] != 0, black & data.region[G] != 0


@jit(forceinline=True)
def _outcome(data, white, black, turn, move_count):
    """The value of a finished game, ILLEGAL, or UNDECIDED."""
    white_arrived, black_arrived = _arrivals(data, white, black)
    if (white_arrived and black_arrived) or (white_arrived if turn == 0 else black_arrived):
        return ILLEGAL  # the game ended when the player to move arrived
    if white_arrived or black_arrived or move_count == 0:
        return LOSE
    return UNDECIDED


@jit(forceinline=True)
def _target(steps, kinds, side, cell, k, mine, theirs):
    """The cell reached by step k of the piece on ``cell``, or -1 if it is not legal."""
    target = steps[side, cell, k]
    if target < 0 or (mine >> target) & 1:
        return -1
    if (theirs >> target) & 1:
        return target if kinds[side, cell, k] & CAPTURE else -1
    return target if kinds[side, cell, k] & QUIET else -1


@jit(forceinline=True)
def _legal_moves(steps, kinds, side, mine, theirs, moves):
    """Writes the move codes (bit of the moving piece * STEPS + step); returns how many."""
    count = 0
    pieces = mine
    while pieces:
        cell = lowest_bit(pieces)
        pieces &= pieces - 1
        for k in range(STEPS):
            if _target(steps, kinds, side, cell, k, mine, theirs) >= 0:
                moves[count] = cell * STEPS + k
                count += 1
    return count


@jit(forceinline=True)
def _moves_by_step(data, side, mine, theirs, moves):
    """The move codes of ``_legal_moves`` (in another order), each step's moves for
    every piece at once: the pieces shifted by the step, onto the cells it may enter."""
    empty = ~(mine | theirs)
    count = 0
    for k in range(STEPS):
        movers = mine & data.step_from[side, k]
        if movers == 0:
            continue
        shift = data.step_shift[side, k]
        kind = data.step_kind[side, k]
        allowed = (empty if kind & QUIET else 0) | (theirs if kind & CAPTURE else 0)
        targets = (movers << shift if shift > 0 else shift_down(movers, -shift)) & allowed
        while targets:
            target = lowest_bit(targets)
            targets &= targets - 1
            moves[count] = (target - shift) * STEPS + k
            count += 1
    return count


@jit
def expand(data, tier, local, out, state, child, moves):
    # Two inlined copies, each compiled with ``symmetry`` a constant, so the loop over
    # the moves tests nothing about it.
    if data.params[SYMMETRY]:
        return _expand_as(data, tier, local, out, moves, True)
    return _expand_as(data, tier, local, out, moves, False)


@jit(forceinline=True)
def _expand_as(data, tier, local, out, moves, symmetry):
    counts, steps = data.tier_counts, data.step_targets
    turn = local & 1
    black, white = unrank_region_board(local >> 1, data.region, counts[tier, 0], counts[tier, 1],
                                       counts[tier, 2], data.backwards)
    if symmetry and _rank_as(data, black, white, turn, symmetry) != local:
        return -np.int64(NONCANONICAL)
    mine, theirs = (white, black) if turn == 0 else (black, white)
    far_row = data.region[F] if turn == 0 else data.region[G]
    count = _moves_by_step(data, turn, mine, theirs, moves)
    part, free, mirror_part, mirror_free = 0, 0, 0, 0
    if turn == 0:
        # A quiet White move keeps Black's pieces and the tier: Black's part of the
        # child's rank (and of its mirror image's) is computed once, here.
        whites = counts[tier, 1]
        part, free = rank_region_first(black, whites, data.region, data.backwards)
        if symmetry:
            mirror_part, mirror_free = rank_region_first(permute(black, data.mirror, 0), whites,
                                                         data.region, data.backwards)
    for m in range(count):
        cell, k = moves[m] // STEPS, moves[m] % STEPS
        target = steps[turn, cell, k]
        out[m, 2] = 0
        out[m, 3] = moves[m]
        if (far_row >> target) & 1:  # arrival: the opponent has lost
            out[m, 0] = TERMINAL
            out[m, 1] = LOSE
        elif turn == 0 and not (black >> target) & 1:
            moved = (white & ~(np.int64(1) << cell)) | (np.int64(1) << target)
            rank = part + rank_subset(extract_bits(moved, free))
            if symmetry:
                rank = max(rank, mirror_part + rank_subset(extract_bits(permute(moved, data.mirror, 0),
                                                                       mirror_free)))
            out[m, 0] = tier
            out[m, 1] = 2 * rank + 1
        else:
            moved = (mine & ~(np.int64(1) << cell)) | (np.int64(1) << target)
            rest = theirs & ~(np.int64(1) << target)
            new_white, new_black = (moved, rest) if turn == 0 else (rest, moved)
            out[m, 0] = _tier(data, new_black, new_white)
            out[m, 1] = _rank_as(data, new_black, new_white, 1 - turn, symmetry)
    if count == 0:
        return -np.int64(LOSE)
    return count


@jit(forceinline=True)
def _masks(data, state):
    """(white, black) bit masks; bits count from the bottom-left cell upwards."""
    params, bit_of = data.params, data.bit_of
    white = 0
    black = 0
    for c in range(params[CELLS]):
        if state[1 + c] == WHITE:
            white |= np.int64(1) << bit_of[c]
        elif state[1 + c] == BLACK:
            black |= np.int64(1) << bit_of[c]
    return white, black


@jit
def encode(data, state):
    white, black = _masks(data, state)
    return _tier(data, black, white), _rank(data, black, white, state[0])


@jit
def decode(data, tier, local, state):
    params, counts, bit_of = data.params, data.tier_counts, data.bit_of
    black, white = unrank_region_board(local >> 1, data.region, counts[tier, 0], counts[tier, 1],
                                       counts[tier, 2], data.backwards)
    state[0] = local & 1
    for c in range(params[CELLS]):
        bit = bit_of[c]
        state[1 + c] = WHITE if (white >> bit) & 1 else (BLACK if (black >> bit) & 1 else EMPTY)


@jit
def generate_moves(data, state, moves):
    """Move code = bit of the moving piece * 4 + step."""
    white, black = _masks(data, state)
    mine, theirs = (white, black) if state[0] == 0 else (black, white)
    return _legal_moves(data.step_targets, data.step_kinds, state[0], mine, theirs, moves)


@jit
def do_move(data, state, move, child):
    params, steps, bit_of = data.params, data.step_targets, data.bit_of
    cell, k = move // STEPS, move % STEPS
    target = steps[state[0], cell, k]
    copy_into(child, state)
    for c in range(params[CELLS]):
        if bit_of[c] == target:
            child[1 + c] = WHITE if state[0] == 0 else BLACK
        elif bit_of[c] == cell:
            child[1 + c] = EMPTY
    child[0] = 1 - state[0]
    return 0


@jit
def primitive(data, state, move_count):
    white, black = _masks(data, state)
    return _outcome(data, white, black, state[0], move_count)


@jit
def terminal(data, state):
    """LOSE for a position where the player who just moved has reached the far row
    (the index leaves those out), else 0."""
    white, black = _masks(data, state)
    return LOSE if _outcome(data, white, black, state[0], 1) == LOSE else 0


#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "breakthrough"


class Breakthrough(Game):
    name = NAME
    title = "Breakthrough"
    options_spec = (
        rows_option(4, minimum=4),
        cols_option(4),
        Option("symmetry", bool, False, "store one of each pair of left-right mirror images"),
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive, expand, terminal)
    state_fields = "turn (0 = white), then cells top row first (0 empty, 1 white, 2 black)"
    #: (rows forward, columns sideways, kinds) of each step of a White piece.
    STEP_PATTERN = ((1, 0, QUIET), (1, -1, QUIET | CAPTURE), (1, 1, QUIET | CAPTURE))

    @property
    def kernel_label(self) -> str:  # Knightthrough shares the compiled kernels
        return "breakthrough"

    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = (
        {"rows": 4, "cols": 2}, {"rows": 4, "cols": 3, "symmetry": True},
    )
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = (
        {"rows": 4, "cols": 3}, {"rows": 4, "cols": 3, "symmetry": True},
    )
    #: The same, minutes each: pytest -m slow.
    slow_reference_boards = (
        {"rows": 4, "cols": 4}, {"rows": 4, "cols": 4, "symmetry": True},
    )

    def build(self) -> GameSpec:
        rows, cols = self.options["rows"], self.options["cols"]
        cells = board_cells(rows, cols)
        pieces = 2 * cols
        top, bottom = (1 << cells) - (1 << (cells - cols)), (1 << cols) - 1
        region = np.array([top, ((1 << cells) - 1) & ~top & ~bottom, bottom], dtype=np.int64)
        keys = [(b, w, t) for b in range(pieces + 1) for w in range(pieces + 1)
                for t in range(min(b, cols) + 1) if region_board_count(region, b, w, t) > 0]
        tier_of = np.full((pieces + 1, pieces + 1, cols + 1), -1, dtype=np.int64)
        for tier, key in enumerate(keys):
            tier_of[key] = tier
        tiers = TierLayout(keys=keys, sizes=[2 * int(region_board_count(region, *key)) for key in keys])
        steps, kinds = self.step_tables(rows, cols)
        middle = cells - 2 * cols
        bit_of = [(rows - 1 - c // cols) * cols + c % cols for c in range(cells)]  # text cell -> bit
        mirror = [r * cols + cols - 1 - c for r in range(rows) for c in range(cols)]
        data = BreakthroughData(
            params=np.array([cells, self.options["symmetry"]], dtype=np.int64), tier_of=tier_of,
            tier_counts=np.array(keys, dtype=np.int64), step_targets=steps, step_kinds=kinds,
            region=region, backwards=permutation_tables([list(range(middle))[::-1]], middle),
            mirror=permutation_tables([mirror], cells), bit_of=np.array(bit_of, dtype=np.int64),
            **self.step_masks(steps, kinds))
        return GameSpec(
            tiers=tiers, data=data, state_size=1 + cells, max_moves=STEPS * pieces, loopy=False,
            remoteness_bound=2 * pieces * (rows - 1),
            hasher={"name": "region rearranger (black barred from the bottom row, white from "
                            "the top row), turn", "tiers": "(black, white, black on the top row)",
                    "cells": cells, "symmetries": 2 if self.options["symmetry"] else 1})

    def step_tables(self, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        """Target bit and kind of every step of every piece (side 0 white, 1 black)."""
        steps = np.full((2, rows * cols, STEPS), -1, dtype=np.int64)
        kinds = np.zeros((2, rows * cols, STEPS), dtype=np.int64)
        for side, forward in ((0, 1), (1, -1)):
            for rank in range(rows):
                    for file in range(cols):
                        for k, (ahead, aside, kind) in enumerate(self.STEP_PATTERN):
                            r, f = rank + forward * ahead, file + aside
                            if 0 <= r < rows and 0 <= f < cols:
                                steps[side, rank * cols + file, k] = r * cols + f
                                kinds[side, rank * cols + file, k] = kind
        return steps, kinds

    @staticmethod
    def step_masks(steps: np.ndarray, kinds: np.ndarray) -> dict[str, np.ndarray]:
        """Each step as one shift of the board: its shift, the bits it stays on the
        board from, and its kind (the same from every bit)."""
        sides, _, count = steps.shape
        shift = np.zeros((sides, count), dtype=np.int64)
        start = np.zeros((sides, count), dtype=np.int64)
        kind = np.zeros((sides, count), dtype=np.int64)
        for side in range(sides):
            for k in range(count):
                    bits = np.flatnonzero(steps[side, :, k] >= 0)
                    if bits.size:
                        shifts, kinds_here = set(steps[side, bits, k] - bits), set(kinds[side, bits, k])
                        assert len(shifts) == 1 and len(kinds_here) == 1, "a step that is not a shift"
                        shift[side, k], kind[side, k] = shifts.pop(), kinds_here.pop()
                        start[side, k] = as_mask(sum(1 << int(bit) for bit in bits))
        return {"step_shift": shift, "step_from": start, "step_kind": kind}

    def tier_children(self, tier: int) -> set[int]:
        b, w, t = self.tiers.keys[tier]
        tier_of = self.data.tier_of
        candidates = [(b, w, t), (b, w, t - 1), (b - 1, w, t), (b, w - 1, t), (b, w - 1, t - 1)]
        return {int(tier_of[key]) for key in candidates if min(key) >= 0 and tier_of[key] >= 0}

    def default_start(self) -> str:
        rows, cols = self.options["rows"], self.options["cols"]
        lines = ["b" * cols] * 2 + ["-" * cols] * (rows - 4) + ["w" * cols] * 2
        return "(w " + " ".join(lines) + ")"

    def parse(self, text: str) -> np.ndarray:
        turn, cells = self.parse_board(text, "wb", SYMBOLS)
        pieces = 2 * self.options["cols"]
        for code, colour in ((WHITE, "white"), (BLACK, "black")):
            if cells.count(code) > pieces:
                    raise ImpossiblePositionError(f"{text!r} has {cells.count(code)} {colour} pieces; each side "
                                     f"starts with {pieces} and never gains one")
        state = np.array([turn, *cells], dtype=np.int64)
        if self.primitive_value(state) == ILLEGAL:
            raise ImpossiblePositionError(f"{text!r} cannot arise: {self.explain_illegal(state)}")
        return state

    def explain_illegal(self, state: np.ndarray) -> str:
        return ("a piece already stands on its opponent's home row, so the game ended "
                    "when it arrived; it cannot be that player's turn, and both sides cannot have arrived")

    def format(self, state: np.ndarray) -> str:
        return self.format_board("wb"[state[0]], state[1:], SYMBOLS)

    def move_name(self, state: np.ndarray, move: int) -> str:
        rows, cols = self.options["rows"], self.options["cols"]
        cell, k = divmod(move, STEPS)
        target = int(self.data.step_targets[state[0], cell, k])

        def name(bit: int) -> str:
            return square_name(rows - 1 - bit // cols, bit % cols, rows)

        capture = "x" if state[1 + (rows - 1 - target // cols) * cols + target % cols] != EMPTY else "-"
        return f"{name(cell)}{capture}{name(target)}"


GAME = Breakthrough
