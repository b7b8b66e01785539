"""Hash schemes are bijections on their whole range, with the orders the solvers use."""

from __future__ import annotations

import itertools
import random
from math import comb

import numpy as np
import pytest

from tiersolve.bits import (
    as_mask, deposit_bits, deposit_bits_by_bytes, extract_bits, extract_bits_by_bytes, lowest_bit,
    permutation_tables, popcount,
)
from tiersolve.hashers.combinations import (
    SMALL_CELLS, next_subset, rank_subset, subset_count, unrank_subset,
)
from tiersolve.hashers.mixed_radix import digits_count, rank_digits, unrank_digits
from tiersolve.hashers.rearranger import board_count, rank_board, unrank_board
from tiersolve.hashers.regions import rank_region_board, region_board_count, unrank_region_board
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit


def test_bit_helpers_match_plain_python():
    rng = random.Random(1)
    for _ in range(3000):
        mask, source = rng.getrandbits(63), rng.getrandbits(63)
        packed = [source >> bit & 1 for bit in range(63) if mask >> bit & 1]
        assert extract_bits(source, mask) == sum(b << i for i, b in enumerate(packed))
        assert deposit_bits(extract_bits(source, mask), mask) == source & mask
        assert popcount(mask) == bin(mask).count("1")
        assert lowest_bit(mask) == (mask & -mask).bit_length() - 1
    assert lowest_bit(0) == 64


@pytest.mark.parametrize("extract, deposit", [(extract_bits, deposit_bits),
                                              (extract_bits_by_bytes, deposit_bits_by_bytes)],
                         ids=["chosen", "byte tables"])
def test_pext_and_pdep_on_all_64_bits(extract, deposit):
    """Both implementations (the processor's BMI2 instructions where FAST_PEXT, and the
    byte tables everywhere) agree with plain Python, bit 63 included."""
    rng = random.Random(2)
    for _ in range(2000):
        mask, source = rng.getrandbits(64), rng.getrandbits(64)
        packed = sum((source >> bit & 1) << i
                     for i, bit in enumerate(b for b in range(64) if mask >> b & 1))
        assert extract(as_mask(source), as_mask(mask)) == as_mask(packed)
        assert deposit(as_mask(packed), as_mask(mask)) == as_mask(source & mask)


@pytest.mark.parametrize("cells", range(0, 15))
def test_combinations_are_a_bijection_in_numeric_order(cells):
    for size in range(cells + 1):
        subsets = sorted(sum(1 << c for c in chosen)
                         for chosen in itertools.combinations(range(cells), size))
        assert len(subsets) == subset_count(cells, size) == comb(cells, size)
        walked = subsets[0]
        for rank, mask in enumerate(subsets):
            assert rank_subset(mask) == rank
            assert unrank_subset(rank, size, cells) == mask
            assert walked == mask
            if rank + 1 < len(subsets):
                walked = next_subset(walked)


@jit
def _all_unranked(size, cells):
    out = np.empty(subset_count(cells, size), np.int64)
    for rank in range(out.size):
        out[rank] = unrank_subset(rank, size, cells)
    return out


@jit
def _all_ranked(masks):
    return np.array([rank_subset(mask) for mask in masks])


def test_the_small_subset_tables_agree_with_the_byte_tables():
    """Every subset of SMALL_CELLS cells: unranked by table (n = 16) and by the scan of
    binomials (the same ranks with n = 17, colex order being the same), and ranked by
    table and, with one more element on cell 40 (which adds C(40, size + 1) to the
    rank and takes it past the table), by the byte tables."""
    assert SMALL_CELLS == 16
    for size in range(SMALL_CELLS + 1):
        table = _all_unranked(size, SMALL_CELLS)
        scanned = _all_unranked(size, SMALL_CELLS + 1)[:table.size]
        assert np.array_equal(table, scanned)
        assert np.array_equal(table, np.sort(table)) and (table >> SMALL_CELLS == 0).all()
        assert np.array_equal(_all_ranked(table), np.arange(table.size))
        beyond = _all_ranked(table | (np.int64(1) << 40))
        assert np.array_equal(beyond, np.arange(table.size) + comb(40, size + 1))


def test_combinations_on_63_cells_round_trip():
    rng = random.Random(2)
    for _ in range(2000):
        chosen = sorted(rng.sample(range(63), rng.randint(0, 63)))
        mask = sum(1 << c for c in chosen)
        rank = rank_subset(mask)
        assert rank == sum(comb(p, i + 1) for i, p in enumerate(chosen))
        assert 0 <= rank < comb(63, len(chosen))
        assert unrank_subset(rank, len(chosen), 63) == mask


def _boards(cells, first, second):
    for a in itertools.combinations(range(cells), first):
        rest = [c for c in range(cells) if c not in a]
        for b in itertools.combinations(rest, second):
            yield sum(1 << c for c in a), sum(1 << c for c in b)


@pytest.mark.parametrize("cells", range(0, 9))
def test_rearranger_is_a_bijection_for_every_count(cells):
    for first in range(cells + 1):
        for second in range(cells - first + 1):
            boards = list(_boards(cells, first, second))
            assert len(boards) == board_count(cells, first, second)
            ranks = [rank_board(a, b, cells) for a, b in boards]
            assert sorted(ranks) == list(range(len(boards)))
            for (a, b), rank in zip(boards, ranks):
                assert unrank_board(rank, cells, first, second) == (a, b)


def test_rearranger_orders_moves_upwards():
    """Moving a piece of either kind to a higher free cell raises the rank
    (the second kind with the first kind fixed); bottom-up sweeps rely on it."""
    cells = 7
    for first in range(4):
        for second in range(4):
            for a, b in _boards(cells, first, second):
                rank = rank_board(a, b, cells)
                for mover, other in ((a, b), (b, a)):
                    for src in range(cells):
                        if not mover >> src & 1:
                            continue
                        for dst in range(src + 1, cells):
                            if (a | b) >> dst & 1:
                                continue
                            moved = mover & ~(1 << src) | 1 << dst
                            if mover is a:
                                assert rank_board(moved, b, cells) > rank
                            else:
                                assert rank_board(a, moved, cells) > rank


def test_mixed_radix_is_a_bijection():
    radices = np.array([3, 1, 4, 2], dtype=np.int64)
    out = np.zeros(4, dtype=np.int64)
    vectors = list(itertools.product(*(range(r) for r in radices)))
    assert len(vectors) == digits_count(radices)
    for index, digits in enumerate(vectors):  # product order = first digit most significant
        assert rank_digits(np.array(digits, dtype=np.int64), radices) == index
        unrank_digits(index, radices, out)
        assert tuple(out) == digits


def test_tier_layout_locates_every_index():
    layout = TierLayout(keys=[(0,), (1,), (2,), (3,)], sizes=[3, 0, 1, 5])
    seen = []
    for index in range(layout.size):
        tier, local = layout.locate(index)
        assert layout.global_index(tier, local) == index
        seen.append((tier, local))
    assert seen == [(0, 0), (0, 1), (0, 2), (2, 0)] + [(3, i) for i in range(5)]
    tiers, locals_ = layout.locate_many(np.arange(layout.size))
    assert list(zip(tiers.tolist(), locals_.tolist())) == seen
    with pytest.raises(IndexError):
        layout.locate(layout.size)


def _region_boards(region, first, second, first_in_f):
    f, s, g = ([c for c in range(16) if mask >> c & 1] for mask in region)
    for in_f in itertools.combinations(f, first_in_f):
        for in_s in itertools.combinations(s, first - first_in_f):
            free = [c for c in g + s if c not in in_s]
            for seconds in itertools.combinations(free, second):
                yield sum(1 << c for c in in_f + in_s), sum(1 << c for c in seconds)


@pytest.mark.parametrize("region", [
    (0b111000000, 0b000111000, 0b000000111),  # a 3x3 board: top row, middle row, bottom row
    (0b110000, 0b001100, 0b000011),
    (0b1, 0b110, 0b0),
    (0b0, 0b1111, 0b0),
])
def test_region_rearranger_is_a_bijection_with_its_orders(region):
    region = np.array(region, dtype=np.int64)
    f_cells, s_cells, g_cells = (bin(int(m)).count("1") for m in region)
    backwards = permutation_tables([list(range(s_cells))[::-1]], s_cells)
    for first in range(f_cells + s_cells + 1):
        for first_in_f in range(min(first, f_cells) + 1):
            for second in range(g_cells + s_cells + 1):
                boards = list(_region_boards(region, first, second, first_in_f))
                assert len(boards) == region_board_count(region, first, second, first_in_f)
                ranks = [rank_region_board(a, b, region, backwards) for a, b in boards]
                assert sorted(ranks) == list(range(len(boards)))
                for (a, b), rank in zip(boards, ranks):
                    assert unrank_region_board(rank, region, first, second, first_in_f, backwards) == (a, b)
                    occupied = a | b
                    for src in range(16):  # first kind down within S, second kind up
                        for dst in range(16):
                            if occupied >> dst & 1:
                                continue
                            if a >> src & 1 and dst < src and region[1] >> src & 1 and region[1] >> dst & 1:
                                assert rank_region_board(a & ~(1 << src) | 1 << dst, b, region, backwards) > rank
                            if b >> src & 1 and dst > src and (region[1] | region[2]) >> dst & 1:
                                assert rank_region_board(a, b & ~(1 << src) | 1 << dst, region, backwards) > rank


def _board_space(cells, counts, symmetric, monkeypatch=None, direct_unrank=None,
                 direct_orbits=None):
    """A BoardSpace of a rows x cols board (its mirrors and turns if ``symmetric``),
    a tier per (black, white) count; ``direct_*`` replace the sizes up to which it
    keeps direct tables (0: none, so the slower paths are tested)."""
    from tiersolve.hashers import boards
    from tiersolve.hashers.symmetry import grid_symmetries
    rows, cols = cells
    if direct_unrank is not None:
        monkeypatch.setattr(boards, "DIRECT_UNRANK", direct_unrank)
    if direct_orbits is not None:
        monkeypatch.setattr(boards, "DIRECT_ORBITS", direct_orbits)
    symmetries = grid_symmetries(rows, cols, mirror_up_down=True, transpose=rows == cols) \
        if symmetric else []
    space = boards.BoardSpace(rows * cols, [[bw] for bw in counts], symmetries)
    space.table  # made now, with the sizes set above (it is made on first use)
    return space


@pytest.mark.parametrize("symmetric", [False, True], ids=["plain", "symmetry"])
def test_direct_unrank_tables_decode_as_the_binomial_scan_does(monkeypatch, symmetric):
    """Boards of more than 16 cells decode through tables of subset masks; the same
    space without them (every subset unranked by scanning binomials) decodes every
    index alike, and every canonical index encodes back to itself."""
    from tiersolve.hashers.boards import decode_board, encode_board
    counts = [(1, 1), (2, 1), (1, 3), (3, 2)]
    fast = _board_space((5, 5), counts, symmetric)
    slow = _board_space((5, 5), counts, symmetric, monkeypatch, direct_unrank=0)
    assert fast.table.size > slow.table.size  # the tables are there, and only in one

    @jit
    def disagreements(fast_table, slow_table, tier, size):
        wrong = 0
        for local in range(size):
            black, white, turn, canonical = decode_board(fast_table, tier, local)
            if (black, white, turn, canonical) != decode_board(slow_table, tier, local):
                wrong += 1
            elif canonical and encode_board(fast_table, black, white, turn) != (tier, local):
                wrong += 1
        return wrong

    for tier, size in enumerate(fast.tiers.sizes):
        assert disagreements(fast.table, slow.table, tier, size) == 0


@pytest.mark.parametrize("shape, counts, symmetric, direct_orbits", [
    ((5, 5), [(4, 4), (3, 4), (4, 3)], True, None),
    ((5, 5), [(4, 4), (3, 4), (4, 3)], True, 0),   # canonical sets found from the images
    ((5, 5), [(4, 4), (3, 4), (4, 3)], False, None),
    ((6, 6), [(3, 3), (2, 3), (3, 2)], True, None),
    ((4, 5), [(4, 4), (3, 4), (4, 3)], True, None),
    ((8, 8), [(3, 3), (2, 3), (3, 2)], True, None),   # bit 63 is a cell
])
def test_encode_changed_is_encode_board_of_the_changed_board(shape, counts, symmetric,
                                                             direct_orbits, monkeypatch):
    """A piece of either colour moved to an empty cell, or a black piece moved onto a
    white one (a capture): the index from the board's images equals the board's."""
    from tiersolve.hashers.boards import (
        board_images, canonical_black, decode_board, encode_board, encode_changed,
    )
    space = _board_space(shape, counts, symmetric, monkeypatch, direct_orbits=direct_orbits)
    cells = shape[0] * shape[1]

    @jit
    def mismatches(table, tier, size, cells, seed):
        np.random.seed(seed)
        black_images = np.zeros(8, np.int64)
        white_images = np.zeros(8, np.int64)
        wrong = 0
        tried = 0
        for _ in range(4000):
            black, white, turn, canonical = decode_board(table, tier, np.random.randint(0, size))
            if not canonical:
                continue
            board_images(table, black, black_images)
            board_images(table, white, white_images)
            known = canonical_black(table, black_images)
            empty = ~(black | white) & ((np.int64(1) << cells) - 1) if cells < 64 else ~(black | white)
            for kind in range(3):
                pick = np.random.randint(0, 64)
                source = black if kind != 1 else white
                target = empty if kind != 2 else white
                a, b = source, target
                for _ in range(pick % max(popcount(source), 1)):
                    a &= a - 1
                for _ in range(pick % max(popcount(target), 1)):
                    b &= b - 1
                moved = (a & -a) | (b & -b)
                black_change = moved if kind != 1 else 0
                white_change = moved if kind == 1 else (b & -b if kind == 2 else 0)
                if kind == 2 and popcount(white) < 2:
                    continue
                got = encode_changed(table, black_images, white_images, black_change,
                                     white_change, 1 - turn, known)
                want = encode_board(table, black ^ black_change, white ^ white_change, 1 - turn)
                tried += 1
                if got != want:
                    wrong += 1
        return wrong, tried

    wrong, tried = mismatches(space.table, 0, space.tiers.sizes[0], cells, 7)
    assert tried > 3000 and wrong == 0


@pytest.mark.parametrize("shape, counts, symmetric, direct_orbits", [
    ((5, 5), [(4, 4)], True, None),
    ((5, 5), [(4, 4)], True, 0),   # canonical sets found from the images
    ((5, 5), [(4, 4)], False, None),
    ((6, 6), [(3, 3)], True, None),
    ((4, 5), [(4, 3)], True, None),
    ((8, 8), [(3, 3)], True, None),   # bit 63 is a cell
])
def test_encode_quiet_moves_is_encode_board_of_each_moved_board(shape, counts, symmetric,
                                                                direct_orbits, monkeypatch):
    """A batch of moves of one colour to empty cells (an un-move generator's parents):
    each index equals encode_board of the moved board with the mover to move, for
    either mover, whether the black set is symmetric or not."""
    from tiersolve.hashers.boards import (
        board_images, canonical_black, decode_board, encode_board, encode_quiet_moves,
    )
    space = _board_space(shape, counts, symmetric, monkeypatch, direct_orbits=direct_orbits)
    cells = shape[0] * shape[1]

    @jit
    def mismatches(table, size, cells, seed):
        np.random.seed(seed)
        black_images = np.zeros(8, np.int64)
        white_images = np.zeros(8, np.int64)
        changes = np.zeros(16, np.int64)
        wanted = np.zeros(16, np.int64)
        wrong = 0
        tried = 0
        for _ in range(3000):
            black, white, turn, canonical = decode_board(table, 0, np.random.randint(0, size))
            if not canonical:
                continue
            board_images(table, black, black_images)
            board_images(table, white, white_images)
            known = canonical_black(table, black_images)
            mover = np.random.randint(0, 2)
            mine = black if mover == 0 else white
            empty = ~(black | white) & ((np.int64(1) << cells) - 1) if cells < 64 else ~(black | white)
            count = np.random.randint(1, 17)
            for k in range(count):  # a random piece of the mover to a random empty cell
                a, b = mine, empty
                for _ in range(np.random.randint(0, 64) % popcount(a)):
                    a &= a - 1
                for _ in range(np.random.randint(0, 64) % popcount(b)):
                    b &= b - 1
                changes[k] = (a & -a) | (b & -b)
                moved_black = black ^ changes[k] if mover == 0 else black
                moved_white = white ^ changes[k] if mover == 1 else white
                wanted[k] = encode_board(table, moved_black, moved_white, mover)[1] << 1
            encode_quiet_moves(table, black_images, white_images, known, mover, changes, count,
                               changes)
            for k in range(count):
                tried += 1
                if changes[k] != wanted[k]:
                    wrong += 1
        return wrong, tried

    wrong, tried = mismatches(space.table, space.tiers.sizes[0], cells, 11)
    assert tried > 10000 and wrong == 0
