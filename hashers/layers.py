"""Boards in layers: a perfect hash of several two-colour boards on the same cells,
up to a symmetry group that moves every layer at once, with no gaps.

A position is ``L`` layers, each a two-colour board (a set of black cells and a set
of white cells, disjoint) on the same ``cells``; a symmetry (a mirror, a turn) moves
the cells of all layers alike. Gobblet Gobblers is one: a layer a piece size, each
cell's stack read across the layers. Positions are grouped in *blocks* by the
counts of each layer, ``((b_0, w_0), ..., (b_{L-1}, w_{L-1}))``, and blocks in tiers,
as ``hashers.boards`` groups one board.

A layer's board has a rank among the boards of its counts::

    rank = rank(B) * C(n - b, w) + rank(W among the cells B leaves free)

Positions that differ by a symmetry are one class, and the index counts classes
exactly (Burnside's number, not nearly it), layer by layer: the first layer's board
is ranked among its orbits under the whole group G; the second layer's among its
orbits under the stabiliser H of that canonical first layer (the symmetries that
keep it); the third under the stabiliser within H of the canonical second layer;
and so on. Most first layers have no symmetry but the identity, and then the later
layers are ranked plainly. A block's index is a mixed radix whose digit sizes depend
on the stabilisers met on the way: ``prefix`` tables give, for each orbit of a layer
under a subgroup, how many classes the orbits before it hold.

Everything is tables, since a layer has few boards (at most 756 on 3x3 with two
pieces of each colour): each layer board's image under every symmetry, and for each
subgroup met and each layer's counts, every board's orbit, a symmetry that takes it
to its orbit's canonical board (the highest rank) and that board's stabiliser. To
encode, a layer costs one lookup, plus one a later layer when the symmetry applied
is not the identity; to decode, a binary search among a layer's orbits. A layer's
board travels as one number, its *code* (``layer_code``): the number of its count
pair and its rank.

As ``hashers.boards``, the numba functions read one flat int64 array
(``LayerSpace.table``).

    >>> mirror = [[2, 1, 0, 5, 4, 3, 8, 7, 6]]           # left-right on 3x3
    >>> space = LayerSpace(9, [[((1, 0), (1, 0))]], mirror)
    >>> space.tiers.sizes   # two one-stone layers: 81 boards, 45 up to the mirror
    [45]
    >>> codes = np.zeros(2, np.int64)
    >>> decode_layers(space.table, 0, 44, codes)     # the block
    0
    >>> [layer_board(space.table, code) for code in codes]   # (black, white) masks
    [(256, 0), (256, 0)]
    >>> encode_layers(space.table, codes)
    (0, 44)
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from tiersolve.bits import deposit_bits, extract_bits, full_mask, permutation_tables, permute, popcount
from tiersolve.hashers.combinations import rank_subset, subset_count, unrank_subset
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit

# The header of the table: its sizes, then where each part starts.
(CELLS, LAYERS, GROUP, PAIRS, SUBGROUPS, PAIR_OF, PAIR_ROWS, BOARDS_AT, IMAGES_AT, ENTRIES_AT,
 CANONICAL_AT, ORBITS, BLOCKS, BLOCK_OF, TIER_FIRST, PREFIX_AT, HEADER) = range(17)
# A row of PAIR_ROWS: black count, white count, boards of these counts.
PAIR_BLACK, PAIR_WHITE, PAIR_BOARDS, PAIR_WIDTH = range(4)
# A block row: its tier, its first index in the tier, its size, then a pair a layer.
BLOCK_TIER, BLOCK_OFFSET, BLOCK_SIZE, BLOCK_PAIRS = range(4)
#: An orbit entry packs (orbit << ORBIT_SHIFT) | (stabiliser << 8) | symmetry.
ORBIT_SHIFT = 16
#: The most symmetries (their sets are int64 masks, a symmetry's number fits a byte).
MAX_GROUP = 63
#: The most subgroups met (a subgroup's number fits a byte).
MAX_SUBGROUPS = 256
#: A layer's board code is ``(pair << PAIR_SHIFT) | rank`` (``layer_code``).
PAIR_SHIFT = 32
RANK_MASK = (1 << PAIR_SHIFT) - 1


@jit
def _layer_boards(cells, black_count, white_count, blacks, whites):
    """blacks[r], whites[r] = the board of rank r with these counts."""
    white_boards = subset_count(cells - black_count, white_count)
    for rank in range(blacks.shape[0]):
        black = unrank_subset(rank // white_boards, black_count, cells)
        blacks[rank] = black
        whites[rank] = deposit_bits(unrank_subset(rank % white_boards, white_count,
                                                  cells - black_count),
                                    full_mask(cells) & ~black)


@jit(forceinline=True)
def board_rank(cells, black, white):
    """The rank of a layer's board among the boards of its counts."""
    white_boards = subset_count(cells - popcount(black), popcount(white))
    return rank_subset(black) * white_boards + \
        rank_subset(extract_bits(white, full_mask(cells) & ~black))


@jit
def _board_images(cells, blacks, whites, tables, group, images):
    """images[g, r] = the rank of the image of board r under symmetry g."""
    for g in range(group):
        for rank in range(blacks.shape[0]):
            images[g, rank] = board_rank(cells, permute(blacks[rank], tables, g),
                                         permute(whites[rank], tables, g))


class LayerSpace:
    """The index space of layered two-colour boards (see the module docstring).

    ``blocks[t]`` lists the blocks of tier t in index order, each a tuple of a
    (black, white) count pair a layer; ``symmetries`` are cell permutations
    (``symmetries[s][c]`` = where cell c goes), the identity left out. A block no
    board has (more stones than cells) is left out of its tier."""

    def __init__(self, cells: int, blocks: Sequence[Sequence[Sequence[tuple[int, int]]]],
                 symmetries: Sequence[Sequence[int]] = ()) -> None:
        layers = len(blocks[0][0])
        if any(len(block) != layers for tier in blocks for block in tier):
            raise ValueError("every block has a count pair for each layer")
        group = [list(range(cells)), *[list(p) for p in symmetries]]
        if len(group) > MAX_GROUP:
            raise ValueError(f"at most {MAX_GROUP} symmetries, got {len(group)}")
        tables = permutation_tables(group, cells)
        self.cells, self.layers, self.group = cells, layers, len(group)
        pairs = sorted({tuple(pair) for tier in blocks for block in tier for pair in block})
        self.pair_of = {pair: number for number, pair in enumerate(pairs)}
        boards, images = [], []
        for black, white in pairs:
            count = int(subset_count(cells, black) * subset_count(cells - black, white)) \
                if black + white <= cells else 0
            blacks, whites = np.zeros(count, np.int64), np.zeros(count, np.int64)
            _layer_boards(cells, black, white, blacks, whites)
            pair_images = np.zeros((len(group), count), np.int64)
            _board_images(cells, blacks, whites, tables, len(group), pair_images)
            boards.append(np.stack([blacks, whites], axis=1).ravel())
            images.append(pair_images)
        self._orbits(images)
        self._blocks(blocks, pairs)
        self._table(pairs, boards, images)

    def _orbits(self, images: list[np.ndarray]) -> None:
        """For every subgroup met (the whole group, and the stabilisers of canonical
        boards within those met, in turn) and every count pair: each board's orbit
        entry, and the canonical boards by orbit with their stabilisers."""
        everything = (1 << self.group) - 1
        self.subgroups = [everything]
        number = {everything: 0}
        self.entries, self.canonical, self.stabilisers = {}, {}, {}
        at = 0
        while at < len(self.subgroups):
            subgroup = self.subgroups[at]
            elements = np.array([g for g in range(self.group) if subgroup >> g & 1])
            for pair, pair_images in enumerate(images):
                size = pair_images.shape[1]
                mine = pair_images[elements]
                best = mine.max(axis=0) if size else np.zeros(0, np.int64)
                towards = elements[mine.argmax(axis=0)] if size else np.zeros(0, np.int64)
                canonical = np.flatnonzero(best == np.arange(size))
                orbit_of = np.full(size, -1, np.int64)
                orbit_of[canonical] = np.arange(len(canonical))
                # The stabiliser of each canonical board, as a set of symmetries.
                fixing = (mine[:, canonical] == canonical) * (np.int64(1) << elements)[:, None]
                stabiliser_sets = fixing.sum(axis=0) if size else np.zeros(0, np.int64)
                stabilisers = np.zeros(len(canonical), np.int64)
                for k, found in enumerate(stabiliser_sets.tolist()):
                    if found not in number:
                        if len(self.subgroups) >= MAX_SUBGROUPS:
                            raise ValueError(f"more than {MAX_SUBGROUPS} subgroups")
                        number[found] = len(self.subgroups)
                        self.subgroups.append(found)
                    stabilisers[k] = number[found]
                orbit = orbit_of[best] if size else orbit_of
                self.entries[at, pair] = (orbit << ORBIT_SHIFT) | (stabilisers[orbit] << 8) | towards
                self.canonical[at, pair] = canonical
                self.stabilisers[at, pair] = stabilisers
            at += 1

    def _classes(self, subgroup: int, pairs: tuple[int, ...]) -> int:
        """How many classes the layers with these count pairs have under ``subgroup``."""
        key = (subgroup, pairs)
        if key not in self._counted:
            if not pairs:
                self._counted[key] = 1
            else:
                self._counted[key] = sum(self._classes(int(stabiliser), pairs[1:]) for stabiliser
                                         in self.stabilisers[subgroup, pairs[0]])
        return self._counted[key]

    def _prefix(self, subgroup: int, pairs: tuple[int, ...]) -> np.ndarray:
        """How many classes the orbits of the first layer before each orbit hold (under
        ``subgroup``), and all of them at the end; first, the number every orbit holds
        if it is the same for all (decoding then divides instead of searching), else 0.
        """
        inside = [self._classes(int(s), pairs[1:]) for s in self.stabilisers[subgroup, pairs[0]]]
        step = inside[0] if inside and all(count == inside[0] for count in inside) else 0
        return np.concatenate([[step, 0], np.cumsum(inside, dtype=np.int64)]).astype(np.int64)

    def _blocks(self, blocks, pairs) -> None:
        self._counted: dict = {}
        rows, sizes, tier_first = [], [], []
        for tier, tier_blocks in enumerate(blocks):
            tier_first.append(len(rows))
            offset = 0
            for block in tier_blocks:
                numbers = tuple(self.pair_of[tuple(pair)] for pair in block)
                size = self._classes(0, numbers)
                if size == 0:
                    continue
                rows.append([tier, offset, size, *numbers])
                offset += size
            sizes.append(offset)
        tier_first.append(len(rows))
        self.blocks = np.array(rows, np.int64).reshape(-1, BLOCK_PAIRS + self.layers)
        self.tier_first = np.array(tier_first, np.int64)
        self.tiers = TierLayout(keys=[(t,) for t in range(len(blocks))], sizes=sizes)

    def _table(self, pairs, boards, images) -> None:
        """Lay every part out in one int64 array (``table``)."""
        parts: list[np.ndarray] = []
        header = np.zeros(HEADER, np.int64)
        at = HEADER

        def place(field: int | None, part) -> int:
            nonlocal at
            part = np.asarray(part, np.int64).ravel()
            if field is not None:
                header[field] = at
            parts.append(part)
            at += len(part)
            return at - len(part)

        count = len(pairs)
        subgroups = len(self.subgroups)
        header[[CELLS, LAYERS, GROUP, PAIRS, SUBGROUPS]] = \
            [self.cells, self.layers, self.group, count, subgroups]
        pair_of = np.full((self.cells + 1) ** 2, -1, np.int64)
        for number, (black, white) in enumerate(pairs):
            if black <= self.cells and white <= self.cells:
                pair_of[black * (self.cells + 1) + white] = number
        place(PAIR_OF, pair_of)
        place(PAIR_ROWS, [[b, w, len(board) // 2] for (b, w), board in zip(pairs, boards)])
        boards_at = place(BOARDS_AT, np.zeros(count))
        images_at = place(IMAGES_AT, np.zeros(count))
        entries_at = place(ENTRIES_AT, np.zeros(subgroups * count))
        canonical_at = place(CANONICAL_AT, np.zeros(subgroups * count))
        orbits = np.zeros(subgroups * count, np.int64)
        for (subgroup, pair), canonical in self.canonical.items():
            orbits[subgroup * count + pair] = len(canonical)
        place(ORBITS, orbits)
        place(BLOCKS, self.blocks)
        key_count = count ** self.layers
        block_of = np.full(key_count, -1, np.int64)
        for row, block in enumerate(self.blocks):
            block_of[self._key(block[BLOCK_PAIRS:])] = row
        place(BLOCK_OF, block_of)
        place(TIER_FIRST, self.tier_first)
        prefix_at = place(PREFIX_AT, np.full(len(self.blocks) * self.layers * subgroups, -1))
        starts = {}
        for number in range(count):
            starts[boards_at + number] = place(None, boards[number])
            starts[images_at + number] = place(None, images[number])
        for (subgroup, pair), entries in self.entries.items():
            starts[entries_at + subgroup * count + pair] = place(None, entries)
            starts[canonical_at + subgroup * count + pair] = place(None, self.canonical[subgroup, pair])
        placed: dict = {}
        for row, block in enumerate(self.blocks):
            numbers = tuple(int(p) for p in block[BLOCK_PAIRS:])
            for layer in range(self.layers):
                for subgroup in range(subgroups):
                    key = (subgroup, numbers[layer:])
                    if key not in placed:  # (the step before the prefixes)
                        placed[key] = place(None, self._prefix(*key)) + 1
                    starts[prefix_at + (row * self.layers + layer) * subgroups + subgroup] = \
                        placed[key]
        table = np.concatenate([header, *parts])
        for where, start in starts.items():
            table[where] = start
        self.table = table

    def _key(self, numbers) -> int:
        """The number of a tuple of pair numbers in BLOCK_OF."""
        key = 0
        for number in reversed(list(numbers)):
            key = key * len(self.pair_of) + int(number)
        return key

    def block_of(self, counts: Sequence[tuple[int, int]]) -> int:
        """The block row of a layer's count pairs, or -1."""
        numbers = [self.pair_of.get(tuple(pair)) for pair in counts]
        if None in numbers:
            return -1
        return int(self.table[self.table[BLOCK_OF] + self._key(numbers)])


@jit(forceinline=True)
def pair_number(table, black_count, white_count):
    """The number of a layer's count pair, or -1 if no block has it."""
    cells = table[CELLS]
    if black_count > cells or white_count > cells:
        return -1
    return table[table[PAIR_OF] + black_count * (cells + 1) + white_count]


@jit(forceinline=True)
def layer_code(table, black, white):
    """A layer's board as one number, ``(pair << PAIR_SHIFT) | rank``: the number of
    its count pair and its rank among the boards of those counts (-1 if no block has
    its counts)."""
    pair = pair_number(table, popcount(black), popcount(white))
    if pair < 0:
        return np.int64(-1)
    return (pair << PAIR_SHIFT) | board_rank(table[CELLS], black, white)


@jit(forceinline=True)
def layer_board(table, code):
    """(black, white) of the layer's board ``code`` (``layer_code``'s inverse)."""
    at = table[table[BOARDS_AT] + (code >> PAIR_SHIFT)] + 2 * (code & RANK_MASK)
    return table[at], table[at + 1]


@jit(forceinline=True)
def find_block(table, codes):
    """The block row of the layers' boards ``codes`` (by their count pairs), or -1."""
    count = table[PAIRS]
    key = 0
    for layer in range(table[LAYERS] - 1, -1, -1):
        if codes[layer] < 0:
            return -1
        key = key * count + (codes[layer] >> PAIR_SHIFT)
    return table[table[BLOCK_OF] + key]


@jit(forceinline=True)
def encode_layers(table, codes):
    """(tier, local) of the class of the position whose layers are the boards
    ``codes`` (``layer_code``; (-1, -1) if no block holds them). ``codes`` is
    overwritten (the layers after the first, moved by the symmetries applied)."""
    block = find_block(table, codes)
    if block < 0:
        return np.int64(-1), np.int64(-1)
    layers = table[LAYERS]
    count = table[PAIRS]
    subgroups = table[SUBGROUPS]
    row = table[BLOCKS] + block * (BLOCK_PAIRS + layers)
    local = table[row + BLOCK_OFFSET]
    subgroup = 0
    for layer in range(layers):
        pair = codes[layer] >> PAIR_SHIFT
        entry = table[table[table[ENTRIES_AT] + subgroup * count + pair] + (codes[layer] & RANK_MASK)]
        prefix = table[table[PREFIX_AT] + (block * layers + layer) * subgroups + subgroup]
        local += table[prefix + (entry >> ORBIT_SHIFT)]
        symmetry = entry & 255
        if symmetry != 0:
            for later in range(layer + 1, layers):
                pair_later = codes[later] >> PAIR_SHIFT
                images = table[table[IMAGES_AT] + pair_later] + symmetry * \
                    table[table[PAIR_ROWS] + pair_later * PAIR_WIDTH + PAIR_BOARDS]
                codes[later] = (pair_later << PAIR_SHIFT) | \
                    table[images + (codes[later] & RANK_MASK)]
        subgroup = (entry >> 8) & 255
    return table[row + BLOCK_TIER], local


@jit(forceinline=True)
def decode_layers(table, tier, local, codes):
    """Write the board of each layer of (tier, local) into ``codes`` (``layer_code``;
    its class's stored boards: every index is one class); returns the block row."""
    layers = table[LAYERS]
    count = table[PAIRS]
    subgroups = table[SUBGROUPS]
    width = BLOCK_PAIRS + layers
    block = table[table[TIER_FIRST] + tier]
    last = table[table[TIER_FIRST] + tier + 1]
    while block + 1 < last and table[table[BLOCKS] + (block + 1) * width + BLOCK_OFFSET] <= local:
        block += 1
    row = table[BLOCKS] + block * width
    rest = local - table[row + BLOCK_OFFSET]
    subgroup = 0
    for layer in range(layers):
        pair = table[row + BLOCK_PAIRS + layer]
        prefix = table[table[PREFIX_AT] + (block * layers + layer) * subgroups + subgroup]
        step = table[prefix - 1]
        if step:  # every orbit holds as many classes (the last layer; no symmetry left)
            low = rest // step
        else:  # the orbit: the last one whose prefix is at most ``rest``
            low = 0
            high = table[table[ORBITS] + subgroup * count + pair]
            while high - low > 1:
                middle = (low + high) >> 1
                if table[prefix + middle] <= rest:
                    low = middle
                else:
                    high = middle
        rest -= table[prefix + low]
        rank = table[table[table[CANONICAL_AT] + subgroup * count + pair] + low]
        codes[layer] = (pair << PAIR_SHIFT) | rank
        entry = table[table[table[ENTRIES_AT] + subgroup * count + pair] + rank]
        subgroup = (entry >> 8) & 255
    return block


@jit(forceinline=True)
def block_counts(table, block, layer):
    """(black, white) counts of ``layer`` in block row ``block``."""
    pair = table[table[BLOCKS] + block * (BLOCK_PAIRS + table[LAYERS]) + BLOCK_PAIRS + layer]
    row = table[PAIR_ROWS] + pair * PAIR_WIDTH
    return table[row + PAIR_BLACK], table[row + PAIR_WHITE]
