"""The hash of pieces on a board and in hands (``hashers/hand_pieces.py``) is a
bijection on its whole range, for small boards and kinds, with and without fixed
pieces and symmetries; and its count of Dōbutsu shōgi is Tanaka's."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tiersolve.hashers.hand_pieces import (
    HandPieceSpace, Kind, hand_space_count, rank_hand_position, unrank_hand_position,
)
from tiersolve.hashers.symmetry import grid_symmetries


def every_position(cells, kinds, placements):
    """Every position of the space, by brute force: the fixed pieces on a listed
    placement, then each kind's pieces shared out between its faces and hands, the
    faces on distinct free cells. Positions are tuples laid out as the hash's blocks."""
    faces = [(k, f) for k, kind in enumerate(kinds) for f in range(kind.faces)]
    found = []
    for placement in placements:
        free = [c for c in range(cells) if c not in placement]
        for choice in itertools.product(*(kind.distributions() for kind in kinds)):
            counts = [dist[f] for (k, f), dist in
                      zip(faces, (choice[k] for k, _ in faces))]
            hands = [n for kind, dist in zip(kinds, choice) for n in dist[kind.faces:]]
            pieces = [face for face, n in zip(range(len(faces)), counts) for _ in range(n)]
            if len(pieces) > len(free):
                continue
            for cells_of in itertools.permutations(free, len(pieces)):
                masks = [0] * len(faces)
                for face, cell in zip(pieces, cells_of):
                    masks[face] |= 1 << cell
                found.append((*(1 << c for c in placement), *masks, *hands))
    return sorted(set(found))


SPACES = {
    "one kind, two faces, two hands": (4, [Kind(2, 2, 2)], None),
    "a kind always on the board": (5, [Kind(2, 3, 0)], None),
    "three kinds": (5, [Kind(1, 2, 1), Kind(2, 1, 2), Kind(1, 3, 0)], None),
    "a kind of no pieces": (4, [Kind(0, 2, 2), Kind(2, 2, 1)], None),
    "no kinds, two fixed pieces": (4, [], [(a, b) for a in range(4) for b in range(4) if a != b]),
    "fixed pieces on some placements": (
        6, [Kind(2, 2, 2), Kind(1, 4, 2)],
        [(a, b) for a in range(6) for b in range(6) if a != b and a >= 2 and b < 4]),
    "Lions, Giraffes and Chicks on a 2x3 board": (
        6, [Kind(2, 2, 2), Kind(2, 4, 2)],
        [(a, b) for a in range(6) for b in range(6) if a != b]),
}


@pytest.mark.parametrize("name", SPACES)
def test_ranks_are_a_bijection_on_the_whole_range(name):
    cells, kinds, placements = SPACES[name]
    space = HandPieceSpace(cells, kinds, placements)
    positions = every_position(cells, kinds, space.placements)
    assert space.size == len(positions) == \
        hand_space_count(cells - space.fixed, kinds, len(space.placements))
    block = np.zeros(space.width + 2, np.int64)  # the block at offset 2, as in a state vector
    ranks = []
    for position in positions:
        block[2:] = position
        ranks.append(int(rank_hand_position(space.table, block, 2)))
    assert sorted(ranks) == list(range(space.size))
    for rank, position in zip(ranks, positions):
        assert unrank_hand_position(space.table, rank, block, 2)
        assert tuple(block[2:].tolist()) == position, rank


def test_positions_outside_the_space_rank_to_minus_one():
    space = HandPieceSpace(4, [Kind(2, 2, 2)], [(0,), (1,)])
    block = np.array([0b0001, 0b0010, 0, 1, 0], np.int64)   # fixed on 0, faces, hands
    assert rank_hand_position(space.table, block, 0) >= 0
    for wrong in ([0b0100, 0b0010, 0, 1, 0],    # a placement not listed
                  [0b0001, 0b0011, 0, 1, 0],    # a face on the fixed piece's cell
                  [0b0001, 0b0010, 0, 1, 1],    # three pieces of a kind of two
                  [0b0001, 0b0010, 0b0010, 0, 0],  # two faces on one cell
                  [0b0011, 0b0100, 0, 1, 0]):   # a fixed piece on two cells
        assert rank_hand_position(space.table, np.array(wrong, np.int64), 0) == -1, wrong


@pytest.mark.parametrize("rows, cols, kinds, with_fixed", [
    (2, 3, [Kind(2, 2, 2), Kind(1, 4, 2)], True),
    (2, 2, [Kind(2, 3, 1)], False),
    (3, 2, [Kind(1, 2, 2), Kind(2, 2, 0)], True),
    (4, 3, [Kind(1, 2, 2)], True),
])
def test_symmetry_classes_have_one_stored_index(rows, cols, kinds, with_fixed):
    """Under the left-right mirror (and the 2x2 square's group): every image of a
    position ranks to one index, which unranks to a member of the class and says it is
    stored; the other indices say they are not, and rank to another; and there is a
    stored index for every class, found by brute force."""
    cells = rows * cols
    symmetries = grid_symmetries(rows, cols, mirror_up_down=rows == cols, transpose=rows == cols)
    group = [list(range(cells)), *symmetries]
    placements = [(a, b) for a in range(cells) for b in range(cells) if a != b] \
        if with_fixed else None
    space = HandPieceSpace(cells, kinds, placements, symmetries)
    fixed_and_faces = space.fixed + space.faces

    def images(position):
        return {tuple(sum(1 << permutation[c] for c in range(cells) if mask >> c & 1)
                      for mask in position[:fixed_and_faces]) + tuple(position[fixed_and_faces:])
                for permutation in group}

    classes = {min(images(position))
               for position in every_position(cells, kinds, HandPieceSpace(cells, kinds, placements).placements)}
    block = np.zeros(space.width, np.int64)
    stored = {}
    for rank in range(space.size):
        is_stored = unrank_hand_position(space.table, rank, block, 0)
        position = tuple(block.tolist())
        ranked = {int(rank_hand_position(space.table, np.array(image, np.int64), 0))
                  for image in images(position)}
        assert ranked == {rank} if is_stored else (len(ranked) == 1 and rank not in ranked), rank
        if is_stored:
            stored[min(images(position))] = rank
    assert set(stored) == classes


def test_dobutsu_shogi_has_tanakas_count():
    """Tanaka (2009): 1,567,925,964 positions of Dōbutsu shōgi with both Lions on the
    board, for each player to move."""
    kinds = [Kind(2, 2, 2), Kind(2, 2, 2), Kind(2, 4, 2)]
    lions = [(a, b) for a in range(12) for b in range(12) if a != b]
    assert hand_space_count(10, kinds, len(lions)) == 1_567_925_964
    assert HandPieceSpace(12, kinds, lions).size == 1_567_925_964


@pytest.mark.parametrize("problem, arguments", [
    ("distinct cells", (4, [Kind(1, 1, 1)], [(0, 0)])),
    ("cell to each fixed piece", (4, [Kind(1, 1, 1)], [(0,), (1, 2)])),
    ("not closed under the symmetries", (4, [Kind(1, 1, 1)], [(0,)], [[3, 2, 1, 0]])),
    ("not a permutation", (4, [Kind(1, 1, 1)], None, [[0, 0, 1, 2]])),
    ("at least one face", (4, [Kind(1, 0, 1)], None)),
])
def test_spaces_that_make_no_sense_are_refused(problem, arguments):
    with pytest.raises(ValueError, match=problem):
        HandPieceSpace(*arguments)
