"""Pieces of several kinds on a board, the rest in hand: a perfect hash.

The shape of shogi-like games (Dōbutsu shōgi): every piece of a *kind* is either on
the board, showing one of the kind's *faces* (its owner, promoted or not), or in one
of the kind's *hands*. A position is which cells hold which face of which kind, and
how many pieces of each kind each hand holds. *Fixed* pieces (kings, Lions) are one
each, always on the board; the cells they may stand on together are a list of
*placements*, so a game can leave out the placements it never stores.

A position is a block of int64 values, ``at`` onwards in an array (a game's state
vector): the fixed pieces' masks (one cell each), then every kind's face masks, then
every kind's hand counts::

    [fixed 0, fixed 1, ..., kind 0 face 0, kind 0 face 1, ..., kind 0 hand 0, ...]

Its rank is::

    placement * rest + offset[configuration] + arrangement

* the *configuration* is, for each kind, how its pieces are shared out between its
  faces on the board and its hands (a kind of 2 pieces, 2 faces and 2 hands has 10
  ways), numbered in mixed radix; ``offset`` sums the arrangements of the
  configurations before it;
* the *arrangement* places the faces one after the other in the cells still free
  (the fixed pieces' cells taken first): face f's cells, as a subset of the free
  cells, have a colex rank among the C(free, n_f) subsets, and the ranks are the
  digits of a mixed radix number (``hashers.rearranger`` with more kinds).

With a group of cell permutations (``symmetries``), the index holds one position a
class of images, as ``hashers.boards`` does for two-colour boards: the placements are
numbered up to symmetry (one number a class of placements, whose first member in the
list is its *representative*), every position is first moved by a symmetry that takes
its placement to the representative, and among those symmetries (two when the
representative is itself symmetric) the one giving the highest arrangement is used.
Only the positions of a symmetric placement leave gaps: their other images are
indices that are not stored (``unrank_hand_position`` says so). The placements must
be closed under the group.

Everything the numba functions read is one flat int64 array (``HandPieceSpace.table``).

>>> space = HandPieceSpace(cells=3, kinds=[Kind(count=1, faces=2, hands=2)])
>>> space.size  # the piece on one of 3 cells showing one of 2 faces, or in one of 2 hands
8
>>> position = np.zeros(space.width, np.int64)
>>> unrank_hand_position(space.table, 0, position, 0), position.tolist()  # [face masks, hands]
(True, [0, 0, 0, 1])
>>> unrank_hand_position(space.table, 7, position, 0), position.tolist()  # face 0 on cell 2
(True, [4, 0, 0, 0])
>>> rank_hand_position(space.table, position, 0)
7
>>> mirrored = HandPieceSpace(cells=3, kinds=[Kind(1, 2, 2)], symmetries=[[2, 1, 0]])
>>> position[:] = [1, 0, 0, 0]   # face 0 on cell 0: the mirror image of cell 2's
>>> rank_hand_position(mirrored.table, position, 0)
7
"""

from __future__ import annotations

import itertools
from math import comb
from typing import NamedTuple, Sequence

import numpy as np

from tiersolve.bits import deposit_bits, extract_bits, full_mask, lowest_bit, popcount, shift_down
from tiersolve.hashers.combinations import rank_subset, subset_count, unrank_subset
from tiersolve.jit import jit

# The table's header: these fields, then the arrays they point at.
(CELLS, FIXED, FACES, KINDS, ORBITS, REST, CONFIGS, GUIDE_SHIFT, KIND_ROWS, PLACEMENT_OF,
 ORBIT_CELLS, ORBIT_TAKEN, ORBIT_FIXERS, CONFIG_OFFSET, CONFIG_FACE_COUNTS, CONFIG_DISTRIBUTIONS,
 GUIDE, IMAGES, HEADER) = range(19)
# A kind's row: its pieces, faces, hands, first face and first hand (in the block, after
# the fixed pieces), how many ways it has (distributions), the product of the later
# kinds' ways (its weight in the configuration number), and where its two tables
# start: the distribution of each key (sum of count_j * (pieces + 1) ** j over its
# faces and hands j), and each distribution's counts.
(K_COUNT, K_FACES, K_HANDS, K_FIRST_FACE, K_FIRST_HAND, K_WAYS, K_WEIGHT, K_KEYS, K_SLOTS,
 KIND_WIDTH) = range(10)
#: Most entries of a kind's key table ((pieces + 1) ** (faces + hands)).
MOST_KEYS = 1 << 16
#: Most entries of the placement table (cells ** fixed pieces).
MOST_PLACEMENT_KEYS = 1 << 20
#: Most symmetries (the identity included): a placement's entry holds them as bits.
MOST_SYMMETRIES = 32
#: Image tables are read a byte of a mask at a time.
BYTES = 8
#: Most entries of the guide table that finds a rank's configuration: the configuration
#: holding each multiple of 2 ** GUIDE_SHIFT, so that a few steps from it find any.
GUIDE_ENTRIES = 1 << 12


class Kind(NamedTuple):
    """A kind of piece: ``count`` pieces, each on the board showing one of ``faces``
    faces or in one of ``hands`` hands (0 hands: always on the board).

    >>> Kind(2, faces=4, hands=2).ways()  # 2 chicks: Chick or Hen of either side, or in a hand
    21
    """

    count: int
    faces: int
    hands: int

    def distributions(self) -> list[tuple[int, ...]]:
        """Every way to share the pieces out between the faces and the hands, as counts
        (faces first), in the order the ranks use."""
        slots = self.faces + self.hands
        return [counts for counts in itertools.product(range(self.count + 1), repeat=slots)
                if sum(counts) == self.count]

    def ways(self) -> int:
        return len(self.distributions())


class HandPieceSpace:
    """The index space of positions of pieces on a board and in hands (module
    docstring). ``placements`` lists the cells of the fixed pieces together (a tuple a
    placement; None: no fixed pieces); ``symmetries`` are cell permutations
    (``symmetries[s][c]`` = where cell c goes), the identity left out.

    >>> space = HandPieceSpace(cells=4, kinds=[Kind(1, 1, 1)], placements=[(0,), (3,)])
    >>> space.rest, space.size   # the fixed piece on cell 0 or 3; the other on 3 cells or in hand
    (4, 8)
    >>> HandPieceSpace(cells=4, kinds=[Kind(1, 1, 1)], placements=[(0,), (3,)],
    ...                symmetries=[[3, 2, 1, 0]]).size     # cells 0 and 3 are mirror images
    4
    """

    def __init__(self, cells: int, kinds: Sequence[Kind],
                 placements: Sequence[Sequence[int]] | None = None,
                 symmetries: Sequence[Sequence[int]] = ()) -> None:
        if not 0 < cells <= 8 * BYTES - 1:
            raise ValueError(f"a board of {cells} cells: at most {8 * BYTES - 1} are supported")
        placements = [tuple(p) for p in (placements if placements is not None else [()])]
        fixed = len(placements[0]) if placements else 0
        if not placements or any(len(p) != fixed for p in placements):
            raise ValueError("every placement gives a cell to each fixed piece")
        if any(len(set(p)) != fixed or not all(0 <= c < cells for c in p) for p in placements):
            raise ValueError("a placement puts the fixed pieces on distinct cells of the board")
        if len(set(placements)) != len(placements) or cells ** fixed > MOST_PLACEMENT_KEYS:
            raise ValueError("placements are distinct, and cells ** fixed pieces is at most "
                             f"{MOST_PLACEMENT_KEYS}")
        kinds = [Kind(*kind) for kind in kinds]
        for kind in kinds:
            if min(kind) < 0 or kind.faces < 1 or \
                    (kind.count + 1) ** (kind.faces + kind.hands) > MOST_KEYS:
                raise ValueError(f"{kind}: at least one face, and at most {MOST_KEYS} keys")
        group = [list(range(cells)), *[list(p) for p in symmetries]]
        if len(group) > MOST_SYMMETRIES:
            raise ValueError(f"at most {MOST_SYMMETRIES - 1} symmetries besides the identity")
        for permutation in group:
            if sorted(permutation) != list(range(cells)):
                raise ValueError(f"{permutation} is not a permutation of {cells} cells")
        placed = set(placements)
        for permutation in group:
            if any(tuple(permutation[c] for c in p) not in placed for p in placements):
                raise ValueError("the placements are not closed under the symmetries")
        self.cells, self.kinds, self.placements, self.fixed = cells, kinds, placements, fixed
        self.group = group
        self.faces = sum(kind.faces for kind in kinds)
        self.hands = sum(kind.hands for kind in kinds)
        #: Length of a position's block.
        self.width = fixed + self.faces + self.hands
        #: The representative placement of each class of placements, in list order.
        self.representatives = []
        seen = set()
        for placement in placements:
            if placement not in seen:
                self.representatives.append(placement)
                seen |= {tuple(permutation[c] for c in placement) for permutation in group}
        distributions = [kind.distributions() for kind in kinds]
        ways = [len(dist) for dist in distributions]
        self.configurations = int(np.prod(ways, dtype=np.int64)) if kinds else 1
        offsets = [0]
        face_counts = []
        for choice in itertools.product(*distributions):
            counts = [n for kind, dist in zip(kinds, choice) for n in dist[:kind.faces]]
            face_counts.append(counts)
            offsets.append(offsets[-1] + arrangements(cells - fixed, counts))
        #: Positions a placement of the fixed pieces has.
        self.rest = offsets[-1]
        #: Indices: the positions of each representative placement.
        self.size = self.rest * len(self.representatives)
        if self.size >= 1 << 62:
            raise ValueError(f"{self.size:.2e} positions are too many to index")
        self.table = self._table(distributions, ways, offsets, face_counts)

    def _table(self, distributions, ways, offsets, face_counts) -> np.ndarray:
        cells, kinds, fixed, group = self.cells, self.kinds, self.fixed, self.group
        rows, kind_tables, first_face, first_hand = [], [], 0, 0
        for k, (kind, dists) in enumerate(zip(kinds, distributions)):
            base = kind.count + 1
            keys = np.full(base ** (kind.faces + kind.hands), -1, np.int64)
            for number, counts in enumerate(dists):
                keys[sum(n * base ** j for j, n in enumerate(counts))] = number
            slots = np.array(dists, np.int64).reshape(-1)
            weight = int(np.prod(ways[k + 1:], dtype=np.int64)) if k + 1 < len(kinds) else 1
            rows.append([kind.count, kind.faces, kind.hands, first_face, first_hand, ways[k],
                         weight, 0, 0])
            kind_tables.append((keys, slots))
            first_face += kind.faces
            first_hand += kind.hands
        # placement_of[key]: (the number of its class << 32) | the symmetries that take it
        # to the representative; orbit_fixers[number]: the symmetries that fix the
        # representative.
        placement_of = np.full(max(cells ** fixed, 1), -1, np.int64)
        orbit_fixers = np.zeros(len(self.representatives), np.int64)
        for number, representative in enumerate(self.representatives):
            for g, permutation in enumerate(group):
                image = tuple(permutation[c] for c in representative)
                if image == representative:
                    orbit_fixers[number] |= 1 << g
            for placement in self.placements:
                to_representative = sum(1 << g for g, permutation in enumerate(group)
                                        if tuple(permutation[c] for c in placement) == representative)
                if to_representative:
                    key = sum(c * cells ** i for i, c in enumerate(placement))
                    placement_of[key] = (number << 32) | to_representative
        orbit_cells = np.array(self.representatives, np.int64).reshape(-1)
        orbit_taken = np.array([sum(1 << c for c in representative)
                                for representative in self.representatives], np.int64)
        config_distributions = np.array(list(itertools.product(*(range(w) for w in ways))),
                                        np.int64).reshape(-1)
        shift = 0
        while (self.rest - 1) >> shift >= GUIDE_ENTRIES:
            shift += 1
        starts = np.arange(((self.rest - 1) >> shift) + 1, dtype=np.int64) << shift
        guide = np.searchsorted(np.array(offsets, np.int64), starts, side="right") - 1
        images = np.zeros((len(group), BYTES, 256), np.int64)  # images[g, byte, value]
        values = np.arange(256, dtype=np.int64)
        for g, permutation in enumerate(group):
            for cell, image in enumerate(permutation):
                images[g, cell // 8] |= ((values >> (cell % 8)) & 1) << image
        header = np.zeros(HEADER, np.int64)
        header[[CELLS, FIXED, FACES, KINDS, ORBITS, REST, CONFIGS, GUIDE_SHIFT]] = \
            [cells, fixed, self.faces, len(kinds), len(self.representatives), self.rest,
             self.configurations, shift]
        parts = {KIND_ROWS: np.zeros(KIND_WIDTH * len(kinds), np.int64),
                 PLACEMENT_OF: placement_of, ORBIT_CELLS: orbit_cells, ORBIT_TAKEN: orbit_taken,
                 ORBIT_FIXERS: orbit_fixers, CONFIG_OFFSET: np.array(offsets, np.int64),
                 CONFIG_FACE_COUNTS: np.array(face_counts, np.int64).reshape(-1),
                 CONFIG_DISTRIBUTIONS: config_distributions, GUIDE: guide.astype(np.int64),
                 IMAGES: images.reshape(-1)}
        start = HEADER
        for field, part in parts.items():
            header[field] = start
            start += len(part)
        for k, (keys, slots) in enumerate(kind_tables):
            rows[k][K_KEYS] = start
            rows[k][K_SLOTS] = start + len(keys)
            start += len(keys) + len(slots)
        parts[KIND_ROWS] = np.array(rows, np.int64).reshape(-1)
        return np.concatenate([header, *parts.values(),
                               *(part for pair in kind_tables for part in pair)]).astype(np.int64)


def arrangements(cells: int, counts: Sequence[int]) -> int:
    """How many ways faces with these counts fill ``cells`` cells, one after the other
    (the multinomial cells! / (n_0! n_1! ... (cells - sum)!)).

    >>> arrangements(4, [1, 2])
    12
    """
    total = 1
    for n in counts:
        if n > cells:
            return 0
        total *= comb(cells, n)
        cells -= n
    return total


@jit(forceinline=True)
def _image(table, mask, which):
    """The image of ``mask`` under symmetry ``which`` (0: the identity)."""
    if which == 0:
        return mask
    image = 0
    base = table[IMAGES] + which * BYTES * 256
    while mask != 0:
        image |= table[base + (mask & 255)]
        mask = shift_down(mask, 8)
        base += 256
    return image


@jit(forceinline=True)
def _placement(table, position, at):
    """The placement table's entry of the fixed pieces' cells (module docstring), or
    -1 if the list has no such placement."""
    cells = table[CELLS]
    key = 0
    scale = 1
    for i in range(table[FIXED]):
        mask = position[at + i]
        if popcount(mask) != 1:
            return -1
        key += lowest_bit(mask) * scale
        scale *= cells
    return table[table[PLACEMENT_OF] + key]


@jit(forceinline=True)
def _configuration(table, position, at):
    """The configuration number of a position (the same for all its images), or -1
    if a kind's counts do not add up to its pieces."""
    fixed = table[FIXED]
    hands_at = at + fixed + table[FACES]
    config = 0
    for k in range(table[KINDS]):
        row = table[KIND_ROWS] + k * KIND_WIDTH
        base = table[row + K_COUNT] + 1
        key = 0
        scale = 1
        face = at + fixed + table[row + K_FIRST_FACE]
        for j in range(table[row + K_FACES]):
            key += popcount(position[face + j]) * scale
            scale *= base
        hand = hands_at + table[row + K_FIRST_HAND]
        for j in range(table[row + K_HANDS]):
            count = position[hand + j]
            if count < 0 or count >= base:
                return -1
            key += count * scale
            scale *= base
        if key >= scale:
            return -1
        number = table[table[row + K_KEYS] + key]
        if number < 0:
            return -1
        config += number * table[row + K_WEIGHT]
    return config


@jit(forceinline=True)
def _arrangement(table, position, at, which, taken):
    """The arrangement rank of the image ``which`` of the faces, the cells ``taken``
    (the fixed pieces', in that image) left out; -1 if faces overlap."""
    free = full_mask(table[CELLS]) & ~taken
    left = popcount(free)
    rank = 0
    first = at + table[FIXED]
    for f in range(table[FACES]):
        mask = _image(table, position[first + f], which)
        if mask == 0:
            continue
        if mask & ~free:
            return -1
        n = popcount(mask)
        rank = rank * subset_count(left, n) + rank_subset(extract_bits(mask, free))
        free &= ~mask
        left -= n
    return rank


@jit(forceinline=True)
def placement_entry(table, position, at):
    """The first part of a rank (``rank_from_parts``): the fixed pieces' placement's
    class and the symmetries that take it to its representative, or -1 if the
    placement is not listed. The same for positions whose fixed pieces stand alike."""
    return _placement(table, position, at)


@jit(forceinline=True)
def configuration_offset(table, position, at):
    """The second part of a rank (``rank_from_parts``): where the positions of its
    configuration start, or -1 if a kind's counts do not add up. The same for
    positions with the same pieces on the board and in hand, wherever they stand."""
    config = _configuration(table, position, at)
    if config < 0:
        return -1
    return table[table[CONFIG_OFFSET] + config]


@jit(forceinline=True)
def rank_from_parts(table, position, at, entry, offset):
    """``rank_hand_position`` given its first two parts, which a caller ranking many
    positions that differ by a move knows are shared (a piece that is not fixed
    moved, nothing captured): only the arrangement is ranked."""
    if entry < 0 or offset < 0:
        return -1
    orbit = entry >> 32
    symmetries = entry & 0xFFFFFFFF
    taken = table[table[ORBIT_TAKEN] + orbit]
    best = -1
    while symmetries:  # those that take the placement to its class's representative
        which = lowest_bit(symmetries)
        symmetries &= symmetries - 1
        best = max(best, _arrangement(table, position, at, which, taken))
    if best < 0:
        return -1
    return orbit * table[REST] + offset + best


@jit(forceinline=True)
def rank_hand_position(table, position, at):
    """The index of the position in ``position[at:]`` (module docstring): under
    symmetries, that of its class's stored image. -1 if it is not one of the space: a
    placement not listed, counts that do not add up, pieces on one cell."""
    return rank_from_parts(table, position, at, _placement(table, position, at),
                           configuration_offset(table, position, at))


@jit(forceinline=True)
def unrank_hand_position(table, rank, position, at):
    """Write the position of ``rank`` (``0 <= rank < size``) into ``position[at:]``;
    returns whether ``rank`` is its class's stored index (always, without
    symmetries): only positions whose placement is symmetric may not be."""
    fixed = table[FIXED]
    faces = table[FACES]
    orbit = rank // table[REST]
    rest = rank - orbit * table[REST]
    for i in range(fixed):
        position[at + i] = np.int64(1) << table[table[ORBIT_CELLS] + orbit * fixed + i]
    taken = table[table[ORBIT_TAKEN] + orbit]
    # The configuration: the last whose offset is at most ``rest``, a few steps on from
    # the guide's (one with no arrangements shares its offset with the next, so it is
    # never the last).
    offsets = table[CONFIG_OFFSET]
    config = table[table[GUIDE] + (rest >> table[GUIDE_SHIFT])]
    while table[offsets + config + 1] <= rest:
        config += 1
    arrangement = rest - table[offsets + config]
    # Each kind's distribution gives its hands; the faces' counts are in a table.
    counts_at = table[CONFIG_FACE_COUNTS] + config * faces
    hands_at = at + fixed + faces
    kinds = table[KINDS]
    for k in range(kinds):
        row = table[KIND_ROWS] + k * KIND_WIDTH
        number = table[table[CONFIG_DISTRIBUTIONS] + config * kinds + k]
        slots = table[row + K_FACES] + table[row + K_HANDS]
        first = table[row + K_SLOTS] + number * slots + table[row + K_FACES]
        for j in range(table[row + K_HANDS]):
            position[hands_at + table[row + K_FIRST_HAND] + j] = table[first + j]
    # The faces' digits, last face first (the radices depend on the counts only), kept
    # in the faces' places until they become masks, first face first.
    left = table[CELLS] - fixed
    for f in range(faces):
        left -= table[counts_at + f]
    remaining = arrangement
    for f in range(faces - 1, -1, -1):
        n = table[counts_at + f]
        if n == 0:
            continue
        left += n
        radix = subset_count(left, n)
        quotient = remaining // radix
        position[at + fixed + f] = remaining - quotient * radix
        remaining = quotient
    free = full_mask(table[CELLS]) & ~taken
    for f in range(faces):
        n = table[counts_at + f]
        if n == 0:
            position[at + fixed + f] = 0
            continue
        mask = deposit_bits(unrank_subset(position[at + fixed + f], n, popcount(free)), free)
        position[at + fixed + f] = mask
        free &= ~mask
    symmetries = table[table[ORBIT_FIXERS] + orbit] & ~np.int64(1)
    while symmetries:  # the images that keep the placement must not arrange higher
        which = lowest_bit(symmetries)
        symmetries &= symmetries - 1
        if _arrangement(table, position, at, which, taken) > arrangement:
            return False
    return True


def hand_space_count(free_cells: int, kinds: Sequence[Kind], placements: int = 1) -> int:
    """The positions of a space without symmetries, without building its tables:
    ``placements`` of the fixed pieces times the arrangements of every configuration on
    the ``free_cells`` they leave.

    >>> kinds = [Kind(2, 2, 2), Kind(2, 2, 2), Kind(2, 4, 2)]   # Giraffes, Elephants, Chicks
    >>> hand_space_count(10, kinds, placements=12 * 11)        # and two Lions: Dōbutsu shōgi
    1567925964
    """
    kinds = [Kind(*kind) for kind in kinds]
    total = 0
    for choice in itertools.product(*(kind.distributions() for kind in kinds)):
        total += arrangements(free_cells, [n for kind, dist in zip(kinds, choice)
                                           for n in dist[:kind.faces]])
    return total * placements
