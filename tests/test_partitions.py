"""The partition hash (``hashers/partitions.py``) is a bijection between the
partitions of n and 0..p(n)-1 on its whole range, in reverse lexicographic order, and
``rank_changed`` ranks a changed partition as ranking the changed one would."""

from __future__ import annotations

import numpy as np
import pytest

from tiersolve.hashers.partitions import (
    max_distinct_parts, partition_count, partition_table, rank_all, rank_changed, unrank_all,
)
from tiersolve.jit import jit


def every_partition(n, largest=None):
    """Every partition of n, parts decreasing, in reverse lexicographic order."""
    largest = n if largest is None else largest
    if n == 0:
        yield ()
        return
    for part in range(min(n, largest), 0, -1):
        for rest in every_partition(n - part, part):
            yield (part, *rest)


def distinct(partition):
    sizes = sorted(set(partition), reverse=True)
    return sizes, [partition.count(size) for size in sizes]


@pytest.mark.parametrize("n", [1, 2, 3, 6, 10, 13, 20, 30])
def test_ranks_are_a_bijection_on_the_whole_range(n):
    table = partition_table(n)
    expected = list(every_partition(n))
    assert partition_count(n) == len(expected)
    width = max(1, max_distinct_parts(n))
    sizes = np.zeros((len(expected), width), np.int64)
    counts = np.zeros((len(expected), width), np.int64)
    lengths = np.zeros(len(expected), np.int64)
    unrank_all(table, n, sizes, counts, lengths)
    for rank, partition in enumerate(expected):  # unrank gives the r-th in the order
        k = lengths[rank]
        assert (sizes[rank, :k].tolist(), counts[rank, :k].tolist()) == distinct(partition)
    ranks = np.zeros(len(expected), np.int64)
    rank_all(table, n, sizes, counts, lengths, ranks)
    assert ranks.tolist() == list(range(len(expected)))


def test_known_counts():
    assert [partition_count(n) for n in (4, 12, 20, 50, 100)] == \
        [5, 77, 627, 204226, 190569292]
    assert [max_distinct_parts(n) for n in (1, 2, 3, 5, 6, 100)] == [1, 1, 2, 2, 3, 13]


@jit
def _changed(table, n, sizes, counts, k, args):
    return rank_changed(table, n, sizes, counts, k, args[0], args[1], args[2], args[3],
                        args[4], args[5], args[6], args[7])


@pytest.mark.parametrize("n", [7, 12])
def test_rank_changed_ranks_every_split_union_and_their_inverses(n):
    table = partition_table(n)
    rank = {p: r for r, p in enumerate(every_partition(n))}
    checked = 0
    for partition in rank:
        sizes, counts = distinct(partition)
        k = len(sizes)
        s, c = np.array(sizes + [0], np.int64), np.array(counts + [0], np.int64)
        changes = []
        for x in sizes:  # take one heap of x, add m heaps of y = x / m
            changes += [((x, 1, 0, 0, x // m, m, 0, 0), [x], [x // m] * m)
                        for m in range(2, x + 1) if x % m == 0]
            changes += [((x, 1, 0, 0, x - y, 1, y, 1), [x], [x - y, y])
                        for y in range(1, (x - 1) // 2 + 1)]
            for y in sizes:
                if y < x:
                    changes.append(((x, 1, y, 1, x + y, 1, 0, 0), [x, y], [x + y]))
        for args, taken, added in changes:
            rest = list(partition)
            for t in taken:
                rest.remove(t)
            child = tuple(sorted(rest + added, reverse=True))
            assert _changed(table, n, s, c, k, np.array(args, np.int64)) == rank[child], \
                (partition, args)
            checked += 1
    assert checked > len(rank)
