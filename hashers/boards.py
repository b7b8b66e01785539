"""Two-colour boards with a turn: a perfect hash in tiers, with or without symmetry.

A position is a set of black cells ``B``, a set of white cells ``W`` and the player to
move. Boards are grouped in *blocks* by their counts ``(b, w)``, and blocks in tiers
(Lines of Action and Surakarta: a tier per block; Pousse: a tier per number of
markers). Within a block a board's index is::

    local = (rank(B) * C(n - b, w) + rank(W among the cells B leaves free)) * 2 + turn

With a symmetry group (mirrors and turns of the board), ``rank(B)`` is replaced by
the number of ``B``'s *orbit*: the black sets are ranked only up to symmetry, densely,
as chess tablebases index positions (one orbit per class of images, found in a
table of canonical black sets; for counts with at most ``DIRECT_ORBITS`` subsets, a
table from *every* rank to its orbit and the symmetries that take it there, so a
moved black set is canonicalised by one lookup instead of by its images). Every position is first moved by the symmetry that
makes its black set canonical (the highest colex rank among its images), and among
the symmetries that fix that set, the one that gives the highest white rank is
used. Only boards whose black set is itself symmetric leave gaps: their other white
images are *non-canonical* indices. The block holds ``orbits(b) * C(n-b, w) * 2``
indices instead of ``C(n, b) * C(n-b, w) * 2``: nearly the group's size fewer.

Everything the numba functions read is one flat int64 array (``BoardSpace.table``):
a call that passes one array costs nothing, while one that passes a tuple of arrays
costs more than the hashing itself.

    >>> space = BoardSpace(cells=9, blocks=[[(1, 1)]], symmetries=[])
    >>> space.tiers.sizes
    [144]
    >>> mirrors = [[2, 1, 0, 5, 4, 3, 8, 7, 6]]      # left-right on a 3x3 board
    >>> space = BoardSpace(cells=9, blocks=[[(1, 1)]], symmetries=mirrors)
    >>> space.orbits(1), space.tiers.sizes         # 6 classes of one black stone
    (6, [96])
    >>> black, white, turn, canonical = decode_board(space.table, 0, 95)
    >>> encode_board(space.table, black, white, turn)
    (0, 95)
"""

from __future__ import annotations

from functools import cached_property
from typing import Sequence

import numpy as np

from tiersolve.bits import (
    deposit_bits, extract_bits, full_mask, lowest_bit, permutation_tables, permute, popcount,
    shift_down,
)
from tiersolve.hashers.combinations import SMALL_CELLS, rank_subset, subset_count, unrank_subset
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit

# Layout of the table: a header of these fields, then the arrays they point at.
(CELLS, GROUP, BLACK_LIMIT, WHITE_LIMIT, BLOCK_OF, BLOCKS, TIER_FIRST, ORBIT_START, ORBIT_RANKS,
 ORBIT_FIXERS, IMAGES, IMAGE_BYTES, ORBIT_LOOKUP, ORBIT_MASKS, UNRANK_AT, UNRANK_WIDTH,
 CELL_IMAGES, HEADER) = range(18)
#: Black-set counts with at most this many subsets get a direct table from every rank
#: to (orbit, symmetries to the canonical set) (8 bytes a subset); larger ones are
#: canonicalised from their images and their orbit found by binary search.
DIRECT_ORBITS = 1 << 22
#: Subsets of k of m cells (m above SMALL_CELLS) unrank by one lookup in a table of
#: their masks when there are at most this many (8 bytes each); else by a scan of
#: the binomials, a cell at a time.
DIRECT_UNRANK = 1 << 21
# Each block row: black count, white count, tier, first index in the tier, white boards.
BLOCK_BLACK, BLOCK_WHITE, BLOCK_TIER, BLOCK_OFFSET, BLOCK_WHITE_BOARDS, BLOCK_WIDTH = range(6)


@jit(forceinline=True)
def _permute(table, mask, which):
    """The image of ``mask`` under group element ``which`` (tiersolve.bits.permute on the
    flat table)."""
    image = 0
    position = 0
    base = table[IMAGES] + which * table[IMAGE_BYTES] * 256
    while mask != 0:
        image |= table[base + position * 256 + (mask & 255)]
        mask = shift_down(mask, 8)
        position += 1
    return image


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
            image_rank = rank_subset(permute(mask, images, g))
            if image_rank > rank:
                canonical = False
                break
            if image_rank == rank:
                fixed |= 1 << g
        if canonical:
            ranks[found] = rank
            fixers[found] = fixed
            found += 1
    return found


@jit
def _canonical_images(cells, black, images, group, best, mapping):
    """For every rank r of the subsets of ``black`` of ``cells`` cells: best[r] = the
    rank of its class's canonical set (the highest of its images' ranks), mapping[r] =
    the symmetries that take it there. A set is canonical where best[r] == r, and
    then mapping[r] is its fixers (``_orbit_table``'s two results)."""
    for rank in range(best.shape[0]):
        mask = unrank_subset(rank, black, cells)
        highest = -1
        symmetries = 0
        for g in range(group):
            image_rank = rank_subset(permute(mask, images, g))
            if image_rank > highest:
                highest = image_rank
                symmetries = 1 << g
            elif image_rank == highest:
                symmetries |= 1 << g
        best[rank] = highest
        mapping[rank] = symmetries


@jit
def _subset_masks(cells, count, masks):
    """masks[r] = the subset of ``count`` of ``cells`` cells with colex rank r."""
    for rank in range(masks.shape[0]):
        masks[rank] = unrank_subset(rank, count, cells)


@jit
def _unrank_masks(cells, count, ranks, masks):
    """masks[i] = the subset with colex rank ranks[i]."""
    for i in range(ranks.shape[0]):
        masks[i] = unrank_subset(ranks[i], count, cells)


def orbit_counts(group: Sequence[Sequence[int]], cells: int, most: int) -> np.ndarray:
    """How many classes of k of ``cells`` cells the permutation ``group`` (identity
    included) makes, for k = 0..most: by Burnside's lemma, the average over the group
    of the sets each element fixes, the unions of its cycles.

    >>> orbit_counts([[0, 1, 2, 3], [1, 0, 3, 2]], 4, 4)  # swap cells 0-1 and 2-3
    array([1, 2, 4, 2, 1])
    """
    totals = np.zeros(cells + 1, dtype=object)
    for element in group:
        fixed = np.zeros(cells + 1, dtype=object)
        fixed[0] = 1
        seen = [False] * cells
        for cell in range(cells):
            length = 0
            while not seen[cell]:
                seen[cell] = True
                cell = element[cell]
                length += 1
            if length:  # a cycle: its cells are all in a fixed set, or none is
                fixed[length:] = fixed[length:] + fixed[:cells + 1 - length]
        totals += fixed
    if any(total % len(group) for total in totals):
        raise ValueError("the symmetries given are not a group")
    return np.array([total // len(group) for total in totals[:most + 1]], dtype=np.int64)


class BoardSpace:
    """The index space of two-colour boards with a turn (see the module docstring).

    ``blocks[t]`` lists the (black, white) counts of tier t, in index order;
    ``symmetries`` are cell permutations (``symmetries[s][c]`` = where cell c goes),
    the identity left out."""

    def __init__(self, cells: int, blocks: Sequence[Sequence[tuple[int, int]]],
                 symmetries: Sequence[Sequence[int]] = ()) -> None:
        self.cells = cells
        group = [list(range(cells)), *[list(p) for p in symmetries]]
        most_black = max((b for tier in blocks for b, _ in tier), default=0)
        most_white = max((w for tier in blocks for _, w in tier), default=0)
        self.symmetric = bool(symmetries)
        self._group = group
        self._most = (most_black, most_white)
        self._orbit_counts = orbit_counts(group, cells, most_black) if symmetries else None
        block_of = np.full((most_black + 1, most_white + 1), -1, dtype=np.int64)
        rows, sizes, keys, tier_first = [], [], [], []
        for tier, tier_blocks in enumerate(blocks):
            offset = 0
            tier_first.append(len(rows))
            for b, w in tier_blocks:
                white_boards = int(subset_count(cells - b, w))
                black_sets = self.orbits(b)
                if white_boards * black_sets == 0:  # no such board
                    continue
                block_of[b, w] = len(rows)
                rows.append([b, w, tier, offset, white_boards])
                offset += 2 * black_sets * white_boards
            sizes.append(offset)
            keys.append(tuple(tier_blocks[0]) if all(len(t) == 1 for t in blocks) else
                        (sum(tier_blocks[0]),))  # (b, w) per tier, or the number of pieces
        tier_first.append(len(rows))
        self.tiers = TierLayout(keys=keys, sizes=sizes)
        self.blocks = np.array(rows, dtype=np.int64).reshape(-1, BLOCK_WIDTH)
        self.block_of = block_of
        self._tier_first = tier_first

    @cached_property
    def table(self) -> np.ndarray:
        """The flat int64 array every numba function of the space reads, made on first
        use: for a 5x5 board with symmetry its tables of classes take seconds and
        hundreds of MB, which naming the game, its tiers or its plan never needs."""
        cells, group = self.cells, self._group
        symmetries = group[1:]
        most_black, most_white = self._most
        rows, tier_first, block_of = self.blocks.tolist(), self._tier_first, self.block_of
        images = permutation_tables(group, cells)
        orbit_start = np.zeros(most_black + 2, dtype=np.int64)
        ranks, fixers = [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]
        # direct_orbits[b]: the direct table of b black cells, where there is one: entry
        # r is (orbit << 32) | the symmetries that take the set of rank r to its
        # canonical set, so a moved black set is canonicalised by one lookup
        # (``_canonical_by_rank``). The same pass over every set's images gives the
        # canonical sets and their fixers.
        direct_orbits: dict[int, np.ndarray] = {}
        for b in range(most_black + 1):
            found = 0
            if symmetries:
                total = int(subset_count(cells, b))
                if total <= DIRECT_ORBITS and len(group) <= 32:
                    best = np.empty(total, np.int64)
                    mapping = np.empty(total, np.int64)
                    _canonical_images(cells, b, images, len(group), best, mapping)
                    canonical = np.flatnonzero(best == np.arange(total))
                    ranks.append(canonical)
                    fixers.append(mapping[canonical])
                    orbit_of_rank = np.full(total, -1, dtype=np.int64)
                    orbit_of_rank[canonical] = np.arange(len(canonical))
                    direct_orbits[b] = (orbit_of_rank[best] << 32) | mapping
                    found = len(canonical)
                else:
                    rank_buffer = np.zeros(total, np.int64)
                    fixer_buffer = np.zeros(total, np.int64)
                    found = _orbit_table(cells, b, images, len(group), rank_buffer, fixer_buffer)
                    ranks.append(rank_buffer[:found])
                    fixers.append(fixer_buffer[:found])
            orbit_start[b + 1] = orbit_start[b] + found
        if symmetries and not np.array_equal(np.diff(orbit_start), self._orbit_counts):
            raise ValueError("the symmetries given are not a group: their classes are not "
                             "Burnside's count")
        # Direct unrank tables: of the black sets (without symmetry) and of the white
        # sets among the cells each block's black set leaves free.
        width = max(most_black, most_white) + 1
        wanted = {(cells, b) for b, _, _, _, _ in rows} if not symmetries else set()
        wanted |= {(cells - b, w) for b, w, _, _, _ in rows}
        unrank_at = np.full((cells + 1) * width, -1, dtype=np.int64)
        unranks, placed = [], 0
        for m, k in sorted(wanted):
            total = int(subset_count(m, k))
            if m <= SMALL_CELLS or total > DIRECT_UNRANK:
                continue
            masks = np.empty(total, np.int64)
            _subset_masks(m, k, masks)
            unrank_at[m * width + k] = placed
            unranks.append(masks)
            placed += total
        orbit_masks = [np.zeros(0, np.int64)]
        if symmetries:
            for b in range(most_black + 1):
                masks = np.empty(len(ranks[b + 1]), np.int64)
                _unrank_masks(cells, b, ranks[b + 1], masks)
                orbit_masks.append(masks)
        # orbit_lookup[b]: where the direct table of b black cells starts (-1: none,
        # binary search); the tables follow it.
        lookup_start = np.full(most_black + 1, -1, dtype=np.int64)
        lookups, filled = [], 0
        for b, direct in direct_orbits.items():
            lookup_start[b] = filled
            lookups.append(direct)
            filled += len(direct)
        # cell_images[c * group + g]: the mask of where symmetry g takes cell c, a row a
        # cell (a change's images under every symmetry are read row by row); rows
        # from ``cells`` to 64 are empty (a change of fewer cells reads one of them).
        size = len(group) if symmetries else 1
        cell_images = np.zeros(65 * size, dtype=np.int64)
        for g, element in enumerate(group[:size]):
            for cell, image in enumerate(element):
                cell_images[cell * size + g] = np.uint64(1 << image).view(np.int64)
        parts = [block_of.ravel(), np.array(rows, dtype=np.int64).reshape(-1, BLOCK_WIDTH).ravel(),
                 np.array(tier_first, dtype=np.int64), orbit_start, np.concatenate(ranks),
                 np.concatenate(fixers), images.ravel(), np.concatenate(orbit_masks), unrank_at,
                 cell_images, lookup_start, *lookups, *unranks]
        header = np.zeros(HEADER, dtype=np.int64)
        header[[CELLS, GROUP, BLACK_LIMIT, WHITE_LIMIT, IMAGE_BYTES, UNRANK_WIDTH]] = \
            [cells, len(group) if symmetries else 1, most_black + 1, most_white + 1, images.shape[1],
             width]
        start = HEADER
        for field, part in zip((BLOCK_OF, BLOCKS, TIER_FIRST, ORBIT_START, ORBIT_RANKS,
                                ORBIT_FIXERS, IMAGES, ORBIT_MASKS, UNRANK_AT, CELL_IMAGES,
                                ORBIT_LOOKUP), parts):
            header[field] = start
            start += len(part)
        lookup_start[lookup_start >= 0] += start  # absolute positions in the table
        start += sum(len(part) for part in lookups)
        unrank_at[unrank_at >= 0] += start
        return np.concatenate([header, *parts]).astype(np.int64, copy=False)


    def orbits(self, black: int) -> int:
        """How many classes of ``black`` black cells there are (C(n, b) without symmetry)."""
        if not self.symmetric:
            return int(subset_count(self.cells, black))
        return int(self._orbit_counts[black]) if 0 <= black < len(self._orbit_counts) else 0

    def tier_of(self, black: int, white: int) -> int:
        """The tier holding boards with these counts, or -1."""
        if black >= self.block_of.shape[0] or white >= self.block_of.shape[1] or min(black, white) < 0:
            return -1
        block = self.block_of[black, white]
        return int(self.blocks[block, BLOCK_TIER]) if block >= 0 else -1


@jit(forceinline=True)
def _has_direct_orbits(table, black_count):
    """Whether black sets of ``black_count`` cells have a direct orbit table (every
    rank to its orbit and the symmetries that take it there)."""
    return table[table[ORBIT_LOOKUP] + black_count] >= 0


@jit(forceinline=True)
def _orbit_number(table, black_count, canonical_rank):
    """The orbit of a canonical black rank: a direct table, or a binary search."""
    direct = table[table[ORBIT_LOOKUP] + black_count]
    if direct >= 0:
        return table[direct + canonical_rank] >> 32
    begin = table[table[ORBIT_START] + black_count]
    lo = begin
    hi = table[table[ORBIT_START] + black_count + 1]
    ranks = table[ORBIT_RANKS]
    while lo < hi:
        middle = (lo + hi) >> 1
        if table[ranks + middle] < canonical_rank:
            lo = middle + 1
        else:
            hi = middle
    return lo - begin


@jit(forceinline=True)
def _canonical_by_rank(table, black, black_count):
    """(canonical black mask, the symmetries that take ``black`` to it, its orbit) by
    one lookup in the direct table of ``black_count`` black cells (which must exist)."""
    entry = table[table[table[ORBIT_LOOKUP] + black_count] + rank_subset(black)]
    black_set = entry >> 32
    canonical = table[table[ORBIT_MASKS] + table[table[ORBIT_START] + black_count] + black_set]
    return canonical, entry & 0xFFFFFFFF, black_set


@jit(forceinline=True)
def _block_row(table, black_count, white_count):
    """Where the table's row of the block of boards with these counts starts (-1 if
    they have none)."""
    if black_count >= table[BLACK_LIMIT] or white_count >= table[WHITE_LIMIT]:
        return -1
    block = table[table[BLOCK_OF] + black_count * table[WHITE_LIMIT] + white_count]
    if block < 0:
        return -1
    return table[BLOCKS] + block * BLOCK_WIDTH


@jit(forceinline=True)
def block_of_counts(table, black_count, white_count, turn):
    """(tier, the local index of the block's first board with ``turn`` to move, its
    white boards) of the boards with these counts, or (-1, -1, 0) if they have no
    block: what ``encode_board`` looks up a board, read once for a batch of boards
    with the same counts (``encode_in_block``).

    >>> space = BoardSpace(cells=4, blocks=[[(1, 1)], [(2, 1)]])
    >>> block_of_counts(space.table, 2, 1, 1)
    (1, 1, 2)
    """
    row = _block_row(table, black_count, white_count)
    if row < 0:
        return -1, -1, 0
    return table[row + BLOCK_TIER], table[row + BLOCK_OFFSET] + turn, table[row + BLOCK_WHITE_BOARDS]


@jit(forceinline=True)
def encode_in_block(table, first, white_boards, black, white):
    """The local index of a board whose counts gave ``block_of_counts``' ``first`` and
    ``white_boards``, in an index without symmetries (``group_size`` 1).

    >>> space = BoardSpace(cells=4, blocks=[[(1, 1)], [(2, 1)]])
    >>> _, first, white_boards = block_of_counts(space.table, 2, 1, 1)
    >>> encode_in_block(space.table, first, white_boards, 0b0011, 0b1000) == \\
    ...     encode_board(space.table, 0b0011, 0b1000, 1)[1]
    True
    """
    free = full_mask(table[CELLS]) & ~black
    return first + ((rank_subset(black) * white_boards + rank_subset(extract_bits(white, free))) << 1)


@jit(forceinline=True)
def encode_board(table, black, white, turn):
    """(tier, local) of a position: black and white masks, turn 0 or 1. Under symmetry
    the index of the class's representative. (-1, -1) if its counts have no block."""
    cells = table[CELLS]
    group = table[GROUP]
    black_count = popcount(black)
    white_count = popcount(white)
    row = _block_row(table, black_count, white_count)
    if row < 0:
        return -1, -1
    if group == 1:
        return table[row + BLOCK_TIER], encode_in_block(
            table, table[row + BLOCK_OFFSET] + turn, table[row + BLOCK_WHITE_BOARDS], black, white)
    if _has_direct_orbits(table, black_count):  # the black set's class by one lookup
        canonical, fixers, black_set = _canonical_by_rank(table, black, black_count)
    else:
        # Subsets of one size in colex order are their masks in numeric order (read as
        # unsigned: bit 63 is a cell), so images are compared as masks, ranked once.
        best = np.uint64(black)
        fixers = 1
        for g in range(1, group):
            image = np.uint64(_permute(table, black, g))
            if image > best:
                best = image
                fixers = 1 << g
            elif image == best:
                fixers |= 1 << g
        canonical = np.int64(best)
        black_set = _orbit_number(table, black_count, rank_subset(canonical))
    free = full_mask(cells) & ~canonical
    best_white = np.uint64(0)
    for g in range(group):
        if (fixers >> g) & 1:
            best_white = max(best_white, np.uint64(_permute(table, white, g)))
    white_rank = rank_subset(extract_bits(np.int64(best_white), free))
    local = table[row + BLOCK_OFFSET] + \
        ((black_set * table[row + BLOCK_WHITE_BOARDS] + white_rank) << 1) + turn
    return table[row + BLOCK_TIER], local


@jit(forceinline=True)
def group_size(table):
    """How many symmetries the index applies (1: none), identity included."""
    return table[GROUP]


@jit(forceinline=True)
def board_images(table, mask, images):
    """images[g] = the image of ``mask`` under every symmetry g of the index
    (images[0] = mask); ``images`` holds at least ``group_size(table)`` entries."""
    images[0] = mask
    for g in range(1, table[GROUP]):
        images[g] = _permute(table, mask, g)


@jit(forceinline=True)
def nearly_symmetric(table, mover_images, other_images, limit):
    """Whether a symmetry other than the identity keeps one colour's set (images in
    ``other_images``) and moves at most ``limit`` cells of the other's
    (``mover_images``). Only then can two moves of one piece each (changing two cells
    of the mover's set) lead to images of one board: c1 = g(c2) means
    board xor g(board) = D1 xor g(D2), at most 4 cells. Without symmetries: never."""
    for g in range(1, table[GROUP]):
        if other_images[g] == other_images[0] and \
                popcount(mover_images[g] ^ mover_images[0]) <= limit:
            return True
    return False


@jit(forceinline=True)
def _change_rows(table, change):
    """Where the rows of ``cell_images`` of a change of at most two cells start (an
    empty row for a missing cell)."""
    group = table[GROUP]
    first = lowest_bit(change)  # 64 (an empty row) for no cell
    second = lowest_bit(change & (change - 1))
    return table[CELL_IMAGES] + first * group, table[CELL_IMAGES] + second * group


@jit(forceinline=True)
def canonical_black(table, black_images):
    """(canonical black mask, the symmetries that give it, its orbit number) of the
    black set whose images ``board_images`` gave: what ``encode_changed`` needs of a
    board whose black set stays."""
    black = black_images[0]
    if table[GROUP] == 1:
        return black, np.int64(1), rank_subset(black)
    black_count = popcount(black)
    if _has_direct_orbits(table, black_count):
        return _canonical_by_rank(table, black, black_count)
    best = np.uint64(black)
    fixers = np.int64(1)
    for g in range(1, table[GROUP]):
        image = np.uint64(black_images[g])
        if image > best:
            best = image
            fixers = np.int64(1) << g
        elif image == best:
            fixers |= np.int64(1) << g
    canonical = np.int64(best)
    return canonical, fixers, _orbit_number(table, black_count, rank_subset(canonical))


@jit(forceinline=True)
def colour_changes(turn, mover_change, other_change):
    """(black change, white change) for ``encode_changed`` of a move or un-move by the
    player ``turn`` (0 black) that flips ``mover_change`` of its own cells and
    ``other_change`` of the other's.

    >>> colour_changes(1, 0b11, 0b100)
    (4, 3)
    """
    if turn == 0:
        return mover_change, other_change
    return other_change, mover_change


@jit(forceinline=True)
def encode_changed(table, black_images, white_images, black_change, white_change, turn, known):
    """``encode_board`` of the board whose black and white masks are those of
    ``black_images[0]`` and ``white_images[0]`` with the cells of ``black_change`` and
    ``white_change`` (at most two each) flipped (a piece that moved, one captured), given the images of
    the unchanged board under every symmetry (``board_images``) and its
    ``canonical_black`` (``known``, used when black stays): a move's child or an
    un-move's parent costs a lookup a changed cell and symmetry, not a permutation of
    the whole board.

    >>> space = BoardSpace(cells=9, blocks=[[(1, 1)]], symmetries=[[2, 1, 0, 5, 4, 3, 8, 7, 6]])
    >>> black, white = np.zeros(2, np.int64), np.zeros(2, np.int64)
    >>> board_images(space.table, 0b000000001, black); board_images(space.table, 0b000010000, white)
    >>> known = canonical_black(space.table, black)
    >>> encode_changed(space.table, black, white, 0b000000011, 0, 1, known) == \\
    ...     encode_board(space.table, 0b000000010, 0b000010000, 1)
    True
    """
    group = table[GROUP]
    cells = table[CELLS]
    black = black_images[0] ^ black_change
    white = white_images[0] ^ white_change
    black_count = popcount(black)
    white_count = popcount(white)
    row = _block_row(table, black_count, white_count)
    if row < 0:
        return -1, -1
    if black_change == 0:
        canonical, fixers, black_set = known
    elif group == 1:
        canonical, fixers, black_set = black, np.int64(1), rank_subset(black)
    elif _has_direct_orbits(table, black_count):
        canonical, fixers, black_set = _canonical_by_rank(table, black, black_count)
    else:
        first, second = _change_rows(table, black_change)
        best = np.uint64(0)
        fixers = np.int64(0)
        for g in range(group):
            image = np.uint64(black_images[g] ^ table[first + g] ^ table[second + g])
            if image > best:
                best = image
                fixers = np.int64(1) << g
            elif image == best:
                fixers |= np.int64(1) << g
        canonical = np.int64(best)
        black_set = _orbit_number(table, black_count, rank_subset(canonical))
    if group == 1:
        best_white = white
    else:
        first, second = _change_rows(table, white_change)
        best_white_unsigned = np.uint64(0)
        symmetries = fixers  # the symmetries that give the canonical black set: usually one
        while symmetries:
            g = lowest_bit(symmetries)
            symmetries &= symmetries - 1
            image = white_images[g] ^ table[first + g] ^ table[second + g]
            best_white_unsigned = max(best_white_unsigned, np.uint64(image))
        best_white = np.int64(best_white_unsigned)
    white_rank = rank_subset(extract_bits(best_white, full_mask(cells) & ~canonical))
    local = table[row + BLOCK_OFFSET] + \
        ((black_set * table[row + BLOCK_WHITE_BOARDS] + white_rank) << 1) + turn
    return table[row + BLOCK_TIER], local


@jit(forceinline=True)
def _unrank(table, rank, count, cells):
    """The subset of ``count`` of ``cells`` cells with colex rank ``rank``: from the
    table's direct unrank table if it has one, else by ``unrank_subset``."""
    at = table[table[UNRANK_AT] + cells * table[UNRANK_WIDTH] + count]
    if at >= 0:
        return table[at + rank]
    return unrank_subset(rank, count, cells)


@jit(forceinline=True)
def decode_board(table, tier, local):
    """(black, white, turn, canonical) of (tier, local); ``canonical`` is False for an
    index that is not its class's representative."""
    cells = table[CELLS]
    first = table[table[TIER_FIRST] + tier]
    last = table[table[TIER_FIRST] + tier + 1]
    block = first
    while block + 1 < last and table[table[BLOCKS] + (block + 1) * BLOCK_WIDTH + BLOCK_OFFSET] <= local:
        block += 1
    row = table[BLOCKS] + block * BLOCK_WIDTH
    rest = local - table[row + BLOCK_OFFSET]
    turn = rest & 1
    rest >>= 1
    black_count = table[row + BLOCK_BLACK]
    white_boards = table[row + BLOCK_WHITE_BOARDS]
    black_set = rest // white_boards
    white_rank = rest % white_boards
    if table[GROUP] == 1:
        black = _unrank(table, black_set, black_count, cells)
        fixers = 1
    else:
        at = table[table[ORBIT_START] + black_count] + black_set
        black = table[table[ORBIT_MASKS] + at]
        fixers = table[table[ORBIT_FIXERS] + at]
    free = full_mask(cells) & ~black
    white = deposit_bits(_unrank(table, white_rank, table[row + BLOCK_WHITE], cells - black_count),
                         free)
    canonical = True
    for g in range(1, table[GROUP]):
        if (fixers >> g) & 1 and rank_subset(extract_bits(_permute(table, white, g), free)) > white_rank:
            canonical = False
            break
    return black, white, turn, canonical


@jit(forceinline=True)
def encode_quiet_moves(table, black_images, white_images, known, mover, changes, count, out):
    """``out[k] = local << 1`` of the board whose ``mover`` colour (0 black, 1 white)
    has the two cells of ``changes[k]`` flipped (a piece moved, nothing captured), with
    ``mover`` to move, for k < count: the in-tier parents of an un-move generator, in
    one batch. As ``encode_changed`` (same arguments), but the counts, so the block,
    stay, and what every change shares (the block, the table's fields, and the
    canonical black set when white moved) is read once, not once a change. A black set
    with no direct orbit table (very many subsets) goes through ``encode_changed``.
    ``changes`` may be ``out``.

    >>> space = BoardSpace(cells=9, blocks=[[(1, 1)]], symmetries=[[2, 1, 0, 5, 4, 3, 8, 7, 6]])
    >>> black, white = np.zeros(2, np.int64), np.zeros(2, np.int64)
    >>> board_images(space.table, 0b000000001, black); board_images(space.table, 0b000010000, white)
    >>> out = np.array([0b000000011, 0b000001001])   # the black piece from cell 1, or 3
    >>> encode_quiet_moves(space.table, black, white, canonical_black(space.table, black), 0,
    ...                    out, 2, out)
    >>> [int(local >> 1) for local in out] == [encode_board(space.table, 0b10, 0b10000, 0)[1],
    ...                                        encode_board(space.table, 0b1000, 0b10000, 0)[1]]
    True
    """
    group = table[GROUP]
    everything = full_mask(table[CELLS])
    black = black_images[0]
    white = white_images[0]
    black_count = popcount(black)
    # The parent's turn is the player who moved.
    _, first, white_boards = block_of_counts(table, black_count, popcount(white), mover)
    rows = table[CELL_IMAGES]
    if mover == 1:  # black stays: its canonical set and orbit are known
        canonical, fixers, black_set = known
        free = everything & ~canonical
        base = first + ((black_set * white_boards) << 1)
        if group == 1:
            packed = extract_bits(white, free)
            for k in range(count):
                white_rank = rank_subset(packed ^ extract_bits(changes[k], free))
                out[k] = (base + (white_rank << 1)) << 1
            return
        for k in range(count):
            change = changes[k]
            one = rows + lowest_bit(change) * group
            two = rows + lowest_bit(change & (change - 1)) * group
            best_white = np.uint64(0)
            symmetries = fixers  # usually one
            while symmetries:
                g = lowest_bit(symmetries)
                symmetries &= symmetries - 1
                best_white = max(best_white,
                                 np.uint64(white_images[g] ^ table[one + g] ^ table[two + g]))
            white_rank = rank_subset(extract_bits(np.int64(best_white), free))
            out[k] = (base + (white_rank << 1)) << 1
        return
    if group == 1:
        for k in range(count):
            out[k] = encode_in_block(table, first, white_boards, black ^ changes[k], white) << 1
        return
    if _has_direct_orbits(table, black_count):  # each black set's class by one lookup
        for k in range(count):
            canonical, symmetries, black_set = _canonical_by_rank(table, black ^ changes[k],
                                                                  black_count)
            best_white = np.uint64(0)
            while symmetries:
                g = lowest_bit(symmetries)
                symmetries &= symmetries - 1
                best_white = max(best_white, np.uint64(white_images[g]))
            white_rank = rank_subset(extract_bits(np.int64(best_white), everything & ~canonical))
            out[k] = (first + ((black_set * white_boards + white_rank) << 1)) << 1
        return
    for k in range(count):  # no direct table (very many black sets): from the images
        out[k] = encode_changed(table, black_images, white_images, changes[k], 0, 0, known)[1] << 1
