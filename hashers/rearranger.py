"""The rearranger: boards whose cells are empty or hold one of two piece kinds,
with fixed counts of each kind, ranked 0..N-1.

For ``n`` cells with ``a`` pieces of the first kind and ``b`` of the second there are
``C(n, a) * C(n - a, b)`` boards. The rank is::

    rank = rank_subset(first) * C(n - a, b) + rank_subset(second packed into the free cells)

so a game's index space holds only boards with the counts it asks for, and a game
is naturally tiered by the counts. Useful orders (the solvers rely on them for games
whose moves stay in a tier): moving a first-kind piece to a higher cell increases the
rank; moving a second-kind piece to a higher cell increases it too when the
first-kind pieces stay put.

>>> board_count(4, 1, 1)
12
>>> unrank_board(rank_board(0b0001, 0b0100, 4), 4, 1, 1) == (0b0001, 0b0100)
True
"""

from __future__ import annotations

from tiersolve.bits import deposit_bits, extract_bits, full_mask, popcount
from tiersolve.hashers.combinations import rank_subset, subset_count, unrank_subset
from tiersolve.jit import jit


@jit(forceinline=True)
def board_count(cells: int, first: int, second: int) -> int:
    """How many boards of ``cells`` cells hold ``first`` and ``second`` pieces."""
    return subset_count(cells, first) * subset_count(cells - first, second)


@jit(forceinline=True)
def rank_board(first_mask: int, second_mask: int, cells: int) -> int:
    """Rank of a board among the boards with the same piece counts."""
    free = full_mask(cells) & ~first_mask
    second_rank = rank_subset(extract_bits(second_mask, free))
    return rank_subset(first_mask) * subset_count(cells - popcount(first_mask), popcount(second_mask)) + second_rank


@jit(forceinline=True)
def unrank_board(rank: int, cells: int, first: int, second: int) -> tuple[int, int]:
    """The (first_mask, second_mask) board of a given rank; inverse of ``rank_board``."""
    second_boards = subset_count(cells - first, second)
    first_mask = unrank_subset(rank // second_boards, first, cells)
    free = full_mask(cells) & ~first_mask
    second_mask = deposit_bits(unrank_subset(rank % second_boards, second, cells - first), free)
    return first_mask, second_mask

