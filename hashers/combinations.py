"""Combinations ("subsets of size k"): a bijection between k-subsets of n cells and 0..C(n,k)-1.

Subsets are int64 bit masks. The order is colexicographic, which is the numeric
order of the masks: ``rank(mask) = sum(C(p_i, i + 1))`` over the set bits
``p_0 < p_1 < ...``. Two properties the solvers rely on:

* moving one element of the subset to a higher cell increases the rank;
* ``next_subset`` (Gosper's hack) walks the subsets in rank order.

Ranking reads a table a byte of the mask at a time, so it costs ``ceil(n / 8)``
lookups whatever ``k`` is; a mask of at most ``SMALL_CELLS`` cells ranks, and a subset
of at most that many cells unranks, by one lookup.

>>> rank_subset(0b1011), subset_count(4, 3)  # {0, 1, 3}: C(0,1) + C(1,2) + C(3,3)
(1, 4)
>>> unrank_subset(1, 3, 4) == 0b1011
True
"""

from __future__ import annotations

import numpy as np

from tiersolve.bits import BYTE_POPCOUNT, MAX_CELLS, popcount, shift_down
from tiersolve.jit import jit


def _binomials(n_max: int, k_max: int) -> np.ndarray:
    table = np.zeros((n_max + 1, k_max + 1), dtype=np.int64)
    table[:, 0] = 1
    for n in range(1, n_max + 1):
        table[n, 1:] = table[n - 1, 1:] + table[n - 1, :-1]
    return table


#: The most subset elements that can lie below byte position 7 of a mask.
_MAX_BELOW = 56

#: BINOMIAL[n, k] = C(n, k) for 0 <= n <= 64, 0 <= k <= 65 (0 when k > n).
BINOMIAL = _binomials(MAX_CELLS, _MAX_BELOW + 9)


def _rank_tables() -> np.ndarray:
    """RANK_BY_BYTE[b, c, byte]: what the set bits of ``byte`` at byte position ``b``
    add to the rank when ``c`` elements of the subset lie in lower bytes.

    Kept under numba's 1 MB limit for arrays frozen into cached code."""
    tables = np.zeros((8, _MAX_BELOW + 1, 256), dtype=np.int64)
    byte_values = np.arange(256)
    below = np.arange(_MAX_BELOW + 1)[:, None]
    for position in range(8):
        for bit in range(8):
            cell = 8 * position + bit
            if cell > MAX_CELLS - 1:
                break
            is_set = (byte_values >> bit) & 1
            order_in_byte = BYTE_POPCOUNT[byte_values & ((1 << bit) - 1)]
            tables[position] += is_set * BINOMIAL[cell, below + order_in_byte + 1]
    return tables


RANK_BY_BYTE = _rank_tables()

#: Subsets of at most this many cells rank and unrank by one table lookup.
SMALL_CELLS = 16


def _small_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(every mask of SMALL_CELLS bits by size, then in colex, i.e. numeric, order;
    where each size starts there; each mask's rank among the masks of its size)."""
    masks = np.arange(1 << SMALL_CELLS)
    sizes = BYTE_POPCOUNT[masks & 255] + BYTE_POPCOUNT[masks >> 8]
    ordered = np.argsort(sizes, kind="stable")
    starts = np.zeros(SMALL_CELLS + 1, np.int64)
    starts[1:] = np.cumsum(np.bincount(sizes, minlength=SMALL_CELLS + 1))[:-1]
    ranks = np.empty(masks.size, np.uint16)
    ranks[ordered] = np.arange(masks.size) - starts[sizes[ordered]]
    return ordered.astype(np.uint16), starts, ranks


SMALL_SUBSETS, SMALL_START, SMALL_RANK = _small_tables()


@jit(forceinline=True)
def subset_count(n: int, k: int) -> int:
    """C(n, k): how many k-subsets of n cells there are."""
    if k < 0 or k > n:
        return 0
    return BINOMIAL[n, k]


@jit
def rank_subset(mask: int) -> int:
    """Colex rank of the subset ``mask`` among the subsets of its size."""
    if shift_down(mask, SMALL_CELLS) == 0:
        return np.int64(SMALL_RANK[mask])
    # The low 16 cells rank by one lookup; each higher byte adds what its cells
    # contribute given how many cells lie below it.
    low = mask & ((1 << SMALL_CELLS) - 1)
    rank = np.int64(SMALL_RANK[low])
    below = popcount(low)
    mask = shift_down(mask, SMALL_CELLS)
    position = SMALL_CELLS // 8
    while mask != 0:
        byte = mask & 255
        rank += RANK_BY_BYTE[position, below, byte]
        below += BYTE_POPCOUNT[byte]
        mask = shift_down(mask, 8)
        position += 1
    return rank


@jit
def unrank_subset(rank: int, k: int, n: int) -> int:
    """The k-subset of n cells with colex rank ``rank`` (inverse of ``rank_subset``).
    Precondition: ``0 <= rank < C(n, k)``."""
    if n <= SMALL_CELLS:
        return np.int64(SMALL_SUBSETS[SMALL_START[k] + rank])
    mask = 0
    cell = n - 1
    for size in range(k, 0, -1):
        while BINOMIAL[cell, size] > rank:
            cell -= 1
        rank -= BINOMIAL[cell, size]
        mask |= np.int64(1) << cell
        cell -= 1
    return mask


@jit(forceinline=True)
def next_subset(mask: int) -> int:
    """The subset of the same size with the next colex rank (Gosper's hack; for
    subsets below cell 62, so that the next one still fits)."""
    lowest = mask & -mask
    ripple = mask + lowest
    return (((ripple ^ mask) >> 2) // lowest) | ripple
