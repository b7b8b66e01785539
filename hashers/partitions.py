"""Integer partitions: a bijection between the partitions of n and 0..p(n)-1.

A partition is a multiset of positive parts summing to n (Fair Shares and Varied
Pairs' heaps). It is held as its *distinct parts*: two arrays, ``sizes`` in strictly
decreasing order and ``counts`` (how many parts of each size), and a length ``k``.
A partition of n has at most ``max_distinct_parts(n)`` distinct parts (1 + 2 + ... +
k <= n), so these arrays stay short (13 entries for n = 100).

The order is *reverse lexicographic* on the parts written largest first: rank 0 is
``(n)``, then ``(n-1 1)``, ``(n-2 2)``, ``(n-2 1 1)`` ..., and the last rank,
``p(n) - 1``, is ``(1 1 ... 1)``. Counting with ``table[s, m]``, the partitions of s
into parts of at most m, the partitions before a given one are, at each part where
the order decides, those whose next part is larger than it but no larger than the
part before: ``rank = sum(table[s, min(m, s)] - table[s, a])`` over the parts a, with
s what is left of n before a and m the part before a (n at first). Only the first
part of each distinct size adds anything (after it, m = a), so ranking costs one
step per distinct part.

>>> table = partition_table(6)
>>> int(table[6, 6]), int(table[6, 2])  # p(6), and partitions of 6 into 1s and 2s
(11, 4)
>>> sizes, counts = np.zeros(6, np.int64), np.zeros(6, np.int64)
>>> k = unrank_partition(table, 6, 3, sizes, counts)  # (4 1 1)
>>> sizes[:k].tolist(), counts[:k].tolist(), int(rank_partition(table, 6, sizes, counts, k))
([4, 1], [1, 2], 3)
"""

from __future__ import annotations

import numpy as np

from tiersolve.jit import jit

#: The largest n the tables are built for (the int64 counts hold far more).
MAX_TOTAL = 400


def partition_table(n: int) -> np.ndarray:
    """``table[s, m]`` (0 <= s, m <= n): the number of partitions of s into parts of
    at most m; ``table[n, n]`` is p(n)."""
    if not 0 <= n <= MAX_TOTAL:
        raise ValueError(f"partitions of {n}: the total must be 0 to {MAX_TOTAL}")
    table = np.zeros((n + 1, n + 1), dtype=np.int64)
    table[0, :] = 1
    for s in range(1, n + 1):
        for m in range(1, n + 1):
            table[s, m] = table[s, m - 1] + (table[s - m, m] if m <= s else 0)
    return table


def partition_count(n: int) -> int:
    """p(n), the number of partitions of n.

    >>> [partition_count(n) for n in (1, 4, 10, 100)]
    [1, 5, 42, 190569292]
    """
    return int(partition_table(n)[n, n])


def max_distinct_parts(n: int) -> int:
    """The most distinct parts a partition of n has: the largest k with 1 + ... + k <= n.

    >>> max_distinct_parts(10), max_distinct_parts(100)
    (4, 13)
    """
    k = 0
    while (k + 1) * (k + 2) // 2 <= n:
        k += 1
    return k


@jit(forceinline=True)
def rank_partition(table, n, sizes, counts, k):
    """The rank of the partition of ``n`` whose distinct parts are ``sizes[:k]``
    (strictly decreasing) with ``counts[:k]``; entries with count 0 are skipped."""
    rank = np.int64(0)
    left = n
    bound = n
    for i in range(k):
        if counts[i] <= 0:
            continue
        a = sizes[i]
        rank += table[left, min(bound, left)] - table[left, a]
        left -= a * counts[i]
        bound = a
    return rank


@jit(forceinline=True)
def rank_changed(table, n, sizes, counts, k, take1, less1, take2, less2, add1, more1,
                 add2, more2):
    """The rank of the partition ``sizes[:k]``/``counts[:k]`` changed by taking
    ``less1`` parts of size ``take1`` and ``less2`` of size ``take2`` away and adding
    ``more1`` parts of size ``add1`` and ``more2`` of size ``add2`` (sizes 0 or counts
    0 change nothing; ``add1 > add2`` when both are given), without building it: the
    children and parents of a position, ranked from its distinct parts."""
    rank = np.int64(0)
    left = n
    bound = n
    i = 0
    j = 0  # the next addition to place: 0 add1, 1 add2, 2 none left
    if add1 <= 0 or more1 <= 0:
        j = 1
    if j == 1 and (add2 <= 0 or more2 <= 0):
        j = 2
    while True:
        size = sizes[i] if i < k else 0
        extra = add1 if j == 0 else (add2 if j == 1 else 0)
        if extra > size:
            size = extra
        if size <= 0:
            break
        count = 0
        if i < k and sizes[i] == size:
            count += counts[i]
            i += 1
        if j == 0 and add1 == size:
            count += more1
            j = 2 if add2 <= 0 or more2 <= 0 else 1
        elif j == 1 and add2 == size:
            count += more2
            j = 2
        if size == take1:
            count -= less1
        if size == take2:
            count -= less2
        if count > 0:
            rank += table[left, min(bound, left)] - table[left, size]
            left -= size * count
            bound = size
    return rank


@jit(forceinline=True)
def unrank_partition(table, n, rank, sizes, counts):
    """Writes the distinct parts of the partition of ``n`` of rank ``rank`` into
    ``sizes`` (decreasing) and ``counts``; returns how many distinct parts."""
    k = 0
    left = n
    part = n
    while left > 0:
        if part > left:
            part = left
        while rank >= table[left - part, part]:  # partitions with this first part
            rank -= table[left - part, part]
            part -= 1
        if k > 0 and sizes[k - 1] == part:
            counts[k - 1] += 1
        else:
            sizes[k] = part
            counts[k] = 1
            k += 1
        left -= part
    return k


@jit
def unrank_all(table, n, sizes, counts, lengths):
    """Every partition of n in rank order: row r of ``sizes``/``counts`` (each
    ``(p(n), max_distinct_parts(n))``) and ``lengths[r]`` its number of distinct parts
    (for tests and tools)."""
    for r in range(lengths.shape[0]):
        lengths[r] = unrank_partition(table, n, r, sizes[r], counts[r])


@jit
def rank_all(table, n, sizes, counts, lengths, ranks):
    """The rank of every row of ``sizes``/``counts`` (the inverse of ``unrank_all``)."""
    for r in range(lengths.shape[0]):
        ranks[r] = rank_partition(table, n, sizes[r], counts[r], lengths[r])
