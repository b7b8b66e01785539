"""Region rearranger: boards with two piece kinds where each kind is barred from part of
the board, ranked 0..N-1.

The cells split into three disjoint regions: ``F`` (only the first kind may stand
there), ``S`` (both kinds) and ``G`` (only the second kind). A tier fixes the number
of first-kind pieces ``a``, of second-kind pieces ``b``, and of first-kind pieces in
``F``, ``f``; it holds ``C(|F|, f) * C(|S|, a - f) * C(|G| + |S| - (a - f), b)``
boards, ranked as::

    (rank(first in F) * C(|S|, a - f) + rank(first in S, S read backwards))
        * C(free cells, b) + rank(second among the G and S cells the first kind leaves free)

Orders the bottom-up solver relies on (Breakthrough: the first kind moves towards
lower cells, the second towards higher ones): moving a first-kind piece to a lower
cell within ``S`` raises the rank, and so does moving a second-kind piece to a higher
free cell.

``region`` arrays hold ``[F mask, S mask, G mask]``; ``backwards`` is a
``tiersolve.bits.permutation_tables`` table reversing the ``|S|`` cells of ``S``.

>>> import numpy as np
>>> from tiersolve.bits import permutation_tables
>>> region = np.array([0b1000, 0b0110, 0b0001])     # F = cell 3, S = cells 1-2, G = cell 0
>>> backwards = permutation_tables([[1, 0]], 2)
>>> region_board_count(region, 1, 1, 0)              # first in S (2 ways), second among 2 cells
4
>>> first, second = unrank_region_board(3, region, 1, 1, 0, backwards)
>>> rank_region_board(first, second, region, backwards)
3
"""

from __future__ import annotations

import numpy as np

from tiersolve.bits import deposit_bits, extract_bits, permute, popcount
from tiersolve.hashers.combinations import rank_subset, subset_count, unrank_subset
from tiersolve.jit import jit

F, S, G = 0, 1, 2


@jit(forceinline=True)
def region_board_count(region: np.ndarray, first: int, second: int, first_in_f: int) -> int:
    """Boards of a tier (0 if the counts cannot fit)."""
    f_cells, s_cells, g_cells = popcount(region[F]), popcount(region[S]), popcount(region[G])
    in_s = first - first_in_f
    return (subset_count(f_cells, first_in_f) * subset_count(s_cells, in_s)
            * subset_count(g_cells + s_cells - in_s, second)) if in_s >= 0 else 0


@jit(forceinline=True)
def rank_region_first(first_mask: int, second_count: int, region: np.ndarray,
                      backwards: np.ndarray) -> tuple[int, int]:
    """(the first kind's part of the rank, the cells left free for the second kind):
    the rank of every board of these first-kind pieces and ``second_count``
    second-kind ones is ``part + rank_subset(extract_bits(second_mask, free))``, so a
    move of a second-kind piece is ranked from the part its parent computed once."""
    s_cells = popcount(region[S])
    in_f = extract_bits(first_mask, region[F])
    in_s = permute(extract_bits(first_mask, region[S]), backwards, 0)
    free = (region[G] | region[S]) & ~first_mask
    first_rank = rank_subset(in_f) * subset_count(s_cells, popcount(in_s)) + rank_subset(in_s)
    return first_rank * subset_count(popcount(free), second_count), free


@jit(forceinline=True)
def rank_region_board(first_mask: int, second_mask: int, region: np.ndarray, backwards: np.ndarray) -> int:
    """Rank of a board within its tier."""
    part, free = rank_region_first(first_mask, popcount(second_mask), region, backwards)
    return part + rank_subset(extract_bits(second_mask, free))


@jit(forceinline=True)
def unrank_region_board(rank: int, region: np.ndarray, first: int, second: int, first_in_f: int,
                        backwards: np.ndarray):
    """The (first_mask, second_mask) board of a rank in tier (first, second, first_in_f)."""
    s_cells = popcount(region[S])
    in_s = first - first_in_f
    free_cells = popcount(region[G]) + s_cells - in_s
    second_boards = subset_count(free_cells, second)
    second_packed = unrank_subset(rank % second_boards, second, free_cells)
    rank //= second_boards
    s_boards = subset_count(s_cells, in_s)
    in_s_mask = permute(unrank_subset(rank % s_boards, in_s, s_cells), backwards, 0)
    in_f_mask = unrank_subset(rank // s_boards, first_in_f, popcount(region[F]))
    first_mask = deposit_bits(in_f_mask, region[F]) | deposit_bits(in_s_mask, region[S])
    free = (region[G] | region[S]) & ~first_mask
    return first_mask, deposit_bits(second_packed, free)
