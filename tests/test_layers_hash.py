"""``hashers.layers``: layered two-colour boards up to symmetry are a bijection between
0..size-1 and the classes of positions, on every position of small cases."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tiersolve.hashers.layers import (
    LayerSpace, decode_layers, encode_layers, layer_board, layer_code,
)
from tiersolve.hashers.symmetry import grid_symmetries


def boards(cells: int, black: int, white: int) -> list[tuple[int, int]]:
    """Every (black mask, white mask) of these counts."""
    found = []
    for blacks in itertools.combinations(range(cells), black):
        rest = [c for c in range(cells) if c not in blacks]
        for whites in itertools.combinations(rest, white):
            found.append((sum(1 << c for c in blacks), sum(1 << c for c in whites)))
    return found


def image(permutation: list[int], mask: int) -> int:
    return sum(1 << permutation[c] for c in range(len(permutation)) if mask >> c & 1)


def encode(space: LayerSpace, layers) -> tuple[int, int]:
    codes = np.array([layer_code(space.table, black, white) for black, white in layers])
    return encode_layers(space.table, codes)


def decode(space: LayerSpace, tier: int, local: int) -> tuple[tuple[int, int], ...]:
    codes = np.zeros(space.layers, np.int64)
    decode_layers(space.table, tier, local, codes)
    return tuple(tuple(int(v) for v in layer_board(space.table, code)) for code in codes)


CASES = {
    "3x3, three layers": (3, 3, [[((1, 1), (1, 0), (0, 1))], [((0, 0), (1, 1), (1, 1))]]),
    "3x3, two layers, two tiers of two blocks": (
        3, 3, [[((2, 1), (1, 1)), ((1, 2), (1, 1))], [((0, 0), (2, 0)), ((1, 0), (0, 0))]]),
    "2x2, three layers": (2, 2, [[((1, 1), (1, 1), (0, 1))], [((2, 0), (0, 0), (1, 1))]]),
    "2x3 (four symmetries)": (2, 3, [[((1, 1), (2, 0)), ((1, 1), (1, 1))]]),
}


@pytest.mark.parametrize("symmetric", [True, False], ids=["symmetric", "plain"])
@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_every_class_has_one_index_and_every_index_one_class(case, symmetric):
    rows, cols, blocks = CASES[case]
    cells = rows * cols
    group = grid_symmetries(rows, cols, mirror_up_down=True, transpose=True) if symmetric else []
    space = LayerSpace(cells, blocks, group)
    everything = [list(range(cells)), *group]
    for tier, tier_blocks in enumerate(blocks):
        classes: dict[tuple[int, int], set] = {}
        for block in tier_blocks:
            for layers in itertools.product(*(boards(cells, b, w) for b, w in block)):
                located = encode(space, layers)
                assert located[0] == tier
                members = {tuple((image(p, b), image(p, w)) for b, w in layers) for p in everything}
                classes.setdefault(located, set()).update(members)
                # every image has the same index
                assert all(encode(space, member) == located for member in members)
        # one index a class, and every index of the tier used
        assert sorted(local for _, local in classes) == list(range(space.tiers.sizes[tier]))
        for (_, local), members in classes.items():
            assert decode(space, tier, local) in members


def test_the_tier_size_is_burnside_count():
    """Gobblet Gobblers' largest tier (two pieces of each colour in each of three
    layers): 756**3 boards, and exactly Burnside's number of classes under the
    square's eight symmetries."""
    group = grid_symmetries(3, 3, mirror_up_down=True, transpose=True)
    space = LayerSpace(9, [[((2, 2),) * 3]], group)
    fixed = []
    for permutation in [list(range(9)), *group]:
        fixed.append(sum(1 for black, white in boards(9, 2, 2)
                         if image(permutation, black) == black and image(permutation, white) == white))
    assert space.tiers.sizes == [sum(f ** 3 for f in fixed) // 8]
    assert 756 ** 3 // 8 < space.tiers.sizes[0] < 756 ** 3 // 8 * 1.01
