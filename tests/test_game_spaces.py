"""Every game's index space as a whole: the hash over every index (illegal ones
included), moves through the Python API, options. The contract itself, index by
index, is checked by the game tester (tests/test_conformance.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tiersolve.games import GAMES, make_game
from tiersolve.games.base import Game
from tiersolve.values import ILLEGAL, UNDECIDED

SMALL_SPACES = [
    ("1210", {}),
    ("1210", {"target": 7, "max_step": 3}),
    ("ttt", {"rows": 3, "cols": 3}),
    ("ttt", {}),
    ("ttt", {"rows": 2, "cols": 2, "k": 2}),
    ("northcott", {"rows": 2, "cols": 4}),
    ("northcott", {}),
    ("northcott", {"rows": 1, "cols": 2}),
    ("knightsdance", {"rows": 2, "cols": 3}),
    ("knightsdance", {"rows": 3, "cols": 3, "jump_block": True}),
    ("surround", {"rows": 2, "cols": 3}),
    ("surround", {"rows": 3, "cols": 3, "wormholes": True}),
    ("surround", {"rows": 2, "cols": 2, "wormholes": True}),
    ("konane", {"rows": 2, "cols": 3}),
    ("konane", {"rows": 3, "cols": 3, "goagain_any": True}),
    ("domineering", {"rows": 3, "cols": 3}),
    ("domineering", {"rows": 2, "cols": 4, "misere": True}),
    ("clobber", {"rows": 2, "cols": 3}),
    ("clobber", {"rows": 3, "cols": 3, "misere": True}),
    ("breakthrough", {"rows": 4, "cols": 2}),
    ("breakthrough", {"rows": 4, "cols": 3}),
    ("knightthrough", {"rows": 5, "cols": 2}),
]


def _ids(case):
    return make_game(case[0], **case[1]).label()


@pytest.fixture(params=SMALL_SPACES, ids=[_ids(c) for c in SMALL_SPACES])
def game(request) -> Game:
    name, options = request.param
    return make_game(name, **options)


def test_hash_is_a_bijection_on_the_whole_space(game):
    indices = np.arange(game.size)
    states = game.decode_many(indices)
    assert np.array_equal(game.encode_many(states), indices)
    assert len(np.unique(states, axis=0)) == game.size


#: Positions a space's moves are followed from in plain Python (above it, a sample;
#: the game tester follows every index of its boards in numba: test_conformance.py).
MOVES_FOLLOWED = 20_000


def test_moves_stay_in_the_space(game):
    """From every position (or MOVES_FOLLOWED of them), every move gives a position
    of the space or a finished game the index leaves out."""
    indices = range(game.size) if game.size <= MOVES_FOLLOWED else \
        np.random.default_rng(7).choice(game.size, MOVES_FOLLOWED, replace=False).tolist()
    for index in indices:
        state = game.state_at(index)
        if game.primitive_value(state) != UNDECIDED:
            continue
        children = game.children(state)
        assert children, f"{game.format(state)} is not primitive but has no move"
        for child in children:
            assert (child.state[0] == state[0]) == child.same_mover  # the turn passes or not
            assert game.primitive_value(child.state) != ILLEGAL
            finished = game.terminal_value(child.state)
            if finished is None:
                assert 0 <= game.index(child.state) < game.size
            else:  # a finished game the index leaves out: its value is the rules'
                assert finished == game.primitive_value(child.state)


def test_start_position_is_legal(game):
    start = game.start()
    assert game.format(start) == game.default_start()
    assert game.primitive_value(start) != ILLEGAL


def test_registry_names_match_modules():
    for name in GAMES:
        assert make_game(name).name == name


@pytest.mark.parametrize("name", list(GAMES))
def test_unknown_option_is_a_clear_error(name):
    with pytest.raises(ValueError, match="has no option colour "):
        make_game(name, colour=3)


@pytest.mark.parametrize("name, options, message", [
    ("ttt", {"rows": 0}, "^rows must be at least 1"),
    ("ttt", {"rows": 8, "cols": 8}, "at most 63"),
    ("ttt", {"rows": 3, "cols": 3, "k": 4}, "no line could ever be made"),
    ("ttt", {"k": "3"}, "whole number"),
    ("northcott", {"cols": 1}, "^cols must be at least 2"),
    ("1210", {"target": 0}, "^target must be at least 1"),
    ("1210", {"misere": "yes"}, "^misere is True or False"),
])
def test_bad_options_are_clear_errors(name, options, message):
    with pytest.raises(ValueError, match=message):
        make_game(name, **options)
