"""Two-colour boards with a turn: a perfect hash in tiers, with or without symmetry.

A position is a set of black cells ``B``, a set of white cells ``W`` and the player to
move. Boards are grouped in *blocks* by their counts ``(b, w)``, and blocks in tiers
(Lines of Action and Surakarta: a tier per block; Pousse: a tier per number of
markers). Within a block a board's index is::

    local = (rank(B) * C(n - b, w) + rank(W among the cells B leaves free)) * 2 + turn

With a symmetry group (mirrors and turns of the board), ``rank(B)`` is replaced by
the number of ``B``'s *orbit*: the black sets are ranked only up to symmetry, densely,
as chess tablebases index positions (one orbit per class of images, found in a
table of canonical black sets). Every position is first moved by the symmetry that
makes its black set canonical (the highest colex rank among its images), and among
the symmetries that fix that set, the one that gives the highest white rank is
used. Only boards whose black set is itself symmetric leave gaps: their other white
images are *non-canonical* indices. The block holds ``orbits(b) * C(n-b, w) * 2``
indices instead of ``C(n, b) * C(n-b, w) * 2``: nearly the group's size fewer.

    >>> space = BoardSpace(cells=9, blocks=[[(1, 1)]], symmetries=[])
    >>> space.tiers.sizes
    [144]
    >>> mirrors = [[2, 1, 0, 5, 4, 3, 8, 7, 6]]      # left-right on a 3x3 board
    >>> space = BoardSpace(cells=9, blocks=[[(1, 1)]], symmetries=mirrors)
    >>> space.orbits(1), space.tiers.sizes         # 6 classes of one black stone
    (6, [96])
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

from hashers.bits import (
    deposit_bits, extract_bits, full_mask, permutation_tables, permute, popcount,
)
from hashers.combinations import rank_subset, subset_count, unrank_subset
from hashers.tiers import TierLayout
from solver.jit import jit


class BoardData(NamedTuple):
    """The arrays the numba functions read (one value of a game's ``data`` tuple).

    ``params``: [cells, group size (1 = no symmetry)]; ``block_of[b, w]``: the block
    of counts (b, w), -1 if none; ``blocks``: per block [b, w, tier, offset in tier,
    white boards C(n-b, w)]; ``orbit_start[b]``: where the orbits of b black cells
    start in ``orbit_ranks`` (their canonical ranks, sorted) and ``orbit_fixers``
    (a bit per group element that fixes the set); ``images``: permutation tables of
    the group, the identity first."""

    params: np.ndarray
    block_of: np.ndarray
    blocks: np.ndarray
    orbit_start: np.ndarray
    orbit_ranks: np.ndarray
    orbit_fixers: np.ndarray
    images: np.ndarray


CELLS, GROUP = 0, 1
BLOCK_BLACK, BLOCK_WHITE, BLOCK_TIER, BLOCK_OFFSET, BLOCK_WHITE_BOARDS = range(5)


@jit
def _orbit_table(cells, black, images, group, ranks, fixers):
    """Canonical black sets of ``black`` cells (ranks, ascending) and their fixers;
    returns how many. ``ranks``/``fixers`` must hold C(cells, black) entries."""
    found = 0
    for rank in range(subset_count(cells, black)):
        mask = unrank_subset(rank, black, cells)
        canonical = True
        fixed = 0
        for g in range(group):
            image = rank_subset(permute(mask, images, g))
            if image > rank:
                canonical = False
                break
            if image == rank:
                fixed |= 1 << g
        if canonical:
            ranks[found] = rank
            fixers[found] = fixed
            found += 1
    return found


class BoardSpace:
    """The index space of two-colour boards with a turn (see the module docstring).

    ``blocks[t]`` lists the (black, white) counts of tier t, in index order;
    ``symmetries`` are cell permutations (``symmetries[s][c]`` = where cell c goes),
    the identity left out."""

    def __init__(self, cells: int, blocks: Sequence[Sequence[tuple[int, int]]],
                 symmetries: Sequence[Sequence[int]] = ()) -> None:
        self.cells = cells
        group = [list(range(cells)), *[list(p) for p in symmetries]]
        images = permutation_tables(group, cells)
        most_black = max((b for tier in blocks for b, _ in tier), default=0)
        most_white = max((w for tier in blocks for _, w in tier), default=0)
        orbit_start = np.zeros(most_black + 2, dtype=np.int64)
        ranks, fixers = [], []
        for b in range(most_black + 1):
            if symmetries:
                total = int(subset_count(cells, b))
                rank_buffer = np.zeros(total, np.int64)
                fixer_buffer = np.zeros(total, np.int64)
                found = _orbit_table(cells, b, images, len(group), rank_buffer, fixer_buffer)
                ranks.append(rank_buffer[:found])
                fixers.append(fixer_buffer[:found])
            orbit_start[b + 1] = orbit_start[b] + (len(ranks[-1]) if symmetries else 0)
        block_of = np.full((most_black + 1, most_white + 1), -1, dtype=np.int64)
        rows, sizes, keys = [], [], []
        for tier, tier_blocks in enumerate(blocks):
            offset = 0
            for b, w in tier_blocks:
                white_boards = int(subset_count(cells - b, w))
                black_sets = int(orbit_start[b + 1] - orbit_start[b]) if symmetries \
                    else int(subset_count(cells, b))
                if white_boards * black_sets == 0:  # no such board
                    continue
                block_of[b, w] = len(rows)
                rows.append([b, w, tier, offset, white_boards])
                offset += 2 * black_sets * white_boards
            sizes.append(offset)
            keys.append(tuple(tier_blocks[0]) if len(tier_blocks) == 1 else
                        (sum(tier_blocks[0]),))
        self.tiers = TierLayout(keys=keys, sizes=sizes)
        empty = np.zeros(0, np.int64)
        self.data = BoardData(
            np.array([cells, len(group) if symmetries else 1], dtype=np.int64), block_of,
            np.array(rows, dtype=np.int64).reshape(-1, 5), orbit_start,
            np.concatenate(ranks) if ranks else empty, np.concatenate(fixers) if fixers else empty,
            images)

    def orbits(self, black: int) -> int:
        """How many classes of ``black`` black cells there are (C(n, b) without symmetry)."""
        if self.data.params[GROUP] == 1:
            return int(subset_count(self.cells, black))
        return int(self.data.orbit_start[black + 1] - self.data.orbit_start[black])


@jit(inline="always")
def _orbit_number(space, black_count, canonical_rank):
    """Binary search of a canonical black rank among its orbits."""
    lo = space.orbit_start[black_count]
    hi = space.orbit_start[black_count + 1]
    while lo < hi:
        middle = (lo + hi) >> 1
        if space.orbit_ranks[middle] < canonical_rank:
            lo = middle + 1
        else:
            hi = middle
    return lo - space.orbit_start[black_count]


@jit(inline="always")
def encode_board(space, black, white, turn):
    """(tier, local) of a position: black and white masks, turn 0 or 1. Under symmetry
    the index of the class's representative. (-1, -1) if its counts have no block."""
    cells = space.params[CELLS]
    group = space.params[GROUP]
    black_count = popcount(black)
    white_count = popcount(white)
    if black_count >= space.block_of.shape[0] or white_count >= space.block_of.shape[1]:
        return -1, -1
    block = space.block_of[black_count, white_count]
    if block < 0:
        return -1, -1
    row = space.blocks[block]
    if group == 1:
        black_set = rank_subset(black)
        free = full_mask(cells) & ~black
        white_rank = rank_subset(extract_bits(white, free))
    else:
        best = np.int64(-1)
        fixers = 0
        for g in range(group):
            image = rank_subset(permute(black, space.images, g))
            if image > best:
                best = image
                fixers = 1 << g
            elif image == best:
                fixers |= 1 << g
        black_set = _orbit_number(space, black_count, best)
        canonical_black = unrank_subset(best, black_count, cells)
        free = full_mask(cells) & ~canonical_black
        white_rank = np.int64(-1)
        for g in range(group):
            if (fixers >> g) & 1:
                white_rank = max(white_rank, rank_subset(extract_bits(permute(white, space.images, g), free)))
    local = row[BLOCK_OFFSET] + ((black_set * row[BLOCK_WHITE_BOARDS] + white_rank) << 1) + turn
    return row[BLOCK_TIER], local


@jit(inline="always")
def decode_board(space, tier, local, blocks_of_tier):
    """(black, white, turn, canonical) of (tier, local); ``blocks_of_tier`` lists the
    block numbers of each tier (``tier_blocks``). ``canonical`` is False for an index
    that is not its class's representative."""
    cells = space.params[CELLS]
    block = blocks_of_tier[tier, 0]
    k = 1
    while k < blocks_of_tier.shape[1] and blocks_of_tier[tier, k] >= 0 and \
            space.blocks[blocks_of_tier[tier, k], BLOCK_OFFSET] <= local:
        block = blocks_of_tier[tier, k]
        k += 1
    row = space.blocks[block]
    rest = local - row[BLOCK_OFFSET]
    turn = rest & 1
    rest >>= 1
    black_count = row[BLOCK_BLACK]
    white_boards = row[BLOCK_WHITE_BOARDS]
    black_set = rest // white_boards
    white_rank = rest % white_boards
    if space.params[GROUP] == 1:
        black = unrank_subset(black_set, black_count, cells)
        fixers = 1
    else:
        at = space.orbit_start[black_count] + black_set
        black = unrank_subset(space.orbit_ranks[at], black_count, cells)
        fixers = space.orbit_fixers[at]
    free = full_mask(cells) & ~black
    white = deposit_bits(unrank_subset(white_rank, row[BLOCK_WHITE], cells - black_count), free)
    canonical = True
    for g in range(1, space.params[GROUP]):
        if (fixers >> g) & 1 and rank_subset(extract_bits(permute(white, space.images, g), free)) > white_rank:
            canonical = False
            break
    return black, white, turn, canonical


def tier_blocks(space: BoardSpace) -> np.ndarray:
    """``blocks_of_tier`` for ``decode_board``: block numbers per tier, -1 padded."""
    tiers: dict[int, list[int]] = {}
    for block, row in enumerate(space.data.blocks):
        tiers.setdefault(int(row[BLOCK_TIER]), []).append(block)
    width = max((len(b) for b in tiers.values()), default=1)
    table = np.full((space.tiers.count, width), -1, dtype=np.int64)
    for tier, blocks in tiers.items():
        table[tier, :len(blocks)] = blocks
    return table
