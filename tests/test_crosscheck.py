"""The databases agree with the independent plain-Python reference (tests/reference/),
value and remoteness, on every legal position of the small boards every game declares
(``reference_boards``), and from the starts of some larger ones."""

from __future__ import annotations

import numpy as np
import pytest

from tiersolve.games import GAMES, game_class

from conftest import legal_indices
from reference import solve_all

VALUE_NAMES = ("illegal", "win", "lose", "tie", "draw")


def _differences(db, texts, indices, reference) -> list:
    return _compare(texts, *db.lookup_indices(indices), reference)


def _compare(texts, values, remoteness, reference) -> list:
    found = []
    for text, value, distance in zip(texts, values, remoteness):
        mine = (VALUE_NAMES[value], None if distance < 0 else int(distance))
        if reference.get(text) != mine:
            found.append((text, mine, reference.get(text)))
    return found


def crosscheck(db, name: str, options: dict, starts: list[str] | None = None) -> int:
    """Compare with the reference every legal position of ``db`` (``starts=None``) or
    everything reachable from ``starts``; returns the number of positions compared.

    Every state the reference reaches must also be a legal database position with the
    same value and remoteness (looked up by text, so Surround's body colours, which
    the index ignores, may differ from the database's own printing)."""
    mismatches, known = [], set()
    options = {k: v for k, v in options.items() if k not in ("symmetry", "max_pieces")}  # storage
    if starts is None:
        indices = legal_indices(db)
        texts = db.positions(indices)
        reference = solve_all(name, options, texts)
        mismatches += _differences(db, texts, indices, reference)
        known = set(texts)
    else:
        reference = solve_all(name, options, starts)
    reached = [text for text in reference if text not in known]
    if reached:
        values, remoteness = db.lookup_many(reached)  # also finished games the index leaves out
        mismatches += _compare(reached, values, remoteness, reference)
    assert not mismatches, f"{len(mismatches)} differences, e.g. (position, db, reference): " \
                           f"{mismatches[:5]}"
    return len(reference)


#: Every game's ``reference_boards``, and its ``slow_reference_boards`` under -m slow.
VARIANTS = [
    *((name, options) for name in GAMES for options in game_class(name).reference_boards),
    *(pytest.param(name, options, marks=pytest.mark.slow)
      for name in GAMES for options in game_class(name).slow_reference_boards),
]


def _variant_id(case) -> str:
    name, options = case.values[:2] if hasattr(case, "values") else case
    return f"{name}-" + "-".join(f"{k}{v}" for k, v in options.items())


@pytest.mark.parametrize("name, options", VARIANTS, ids=[_variant_id(c) for c in VARIANTS])
def test_every_position_matches_the_reference(database, name, options):
    compared = crosscheck(database(name, **options), name, options)
    assert compared > 0


@pytest.mark.parametrize("name, options", [
    ("ttt", {}), ("ttt", {"diagonal": True}), ("ttt", {"misere": True}),
    ("ttt", {"rows": 4, "cols": 3, "diagonal": True}),
    ("northcott", {}), ("northcott", {"misere": True}),
    ("northcott", {"backward": True}),
    ("knightsdance", {}), ("knightsdance", {"jump_block": True, "misere": True}),
    ("surround", {}), ("surround", {"wormholes": True}),
    ("konane", {}), ("konane", {"goagain_any": True, "misere": True}),
    pytest.param("knightthrough", {"rows": 4, "cols": 4}, marks=pytest.mark.slow),  # 50 s
])
def test_default_start_and_everything_it_reaches(database, name, options):
    db = database(name, **options)
    assert crosscheck(db, name, options, starts=[db.start]) > 1


@pytest.mark.parametrize("name, options", [
    ("surround", {"rows": 4, "cols": 4}),
    ("surround", {"rows": 4, "cols": 4, "wormholes": True}),
    ("surround", {"rows": 4, "cols": 4, "wormholes": True, "misere": True}),
])
def test_sampled_positions_and_everything_they_reach(database, name, options):
    """Boards too big to compare whole: the start and 100 random legal positions,
    and every position they lead to."""
    db = database(name, **options)
    legal = legal_indices(db)
    picks = np.random.default_rng(7).choice(legal, size=100, replace=False)
    assert crosscheck(db, name, options, starts=[db.start, *db.positions(picks)]) > 100
