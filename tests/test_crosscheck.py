"""The databases agree with the independent plain-Python reference (tests/reference/),
value and remoteness, on every legal position of small boards of every variant."""

from __future__ import annotations

import pytest

from conftest import legal_indices
from reference import solve_all

VALUE_NAMES = ("illegal", "win", "lose", "tie", "draw")


def crosscheck(db, name: str, options: dict, starts: list[str] | None = None) -> int:
    """Compare every legal position of ``db`` (or everything reachable from ``starts``)
    with the reference, in both directions; returns the number of positions compared."""
    indices = legal_indices(db)
    texts = db.positions(indices)
    reference = solve_all(name, options, texts if starts is None else starts)
    mismatches = []
    if starts is None:
        values, remoteness = db.lookup_indices(indices)
        for text, value, distance in zip(texts, values, remoteness):
            mine = (VALUE_NAMES[value], None if distance < 0 else int(distance))
            if reference.get(text) != mine:
                mismatches.append((text, mine, reference.get(text)))
    # every state the reference reached is legal in the database with the same result
    reached = list(reference)
    values, remoteness = db.lookup_indices(db.indices_of(reached))
    for text, value, distance in zip(reached, values, remoteness):
        mine = (VALUE_NAMES[value], None if distance < 0 else int(distance))
        if reference[text] != mine:
            mismatches.append((text, mine, reference[text]))
    assert not mismatches, f"{len(mismatches)} differences, e.g. (position, db, reference): " \
                           f"{mismatches[:5]}"
    return len(reached)


VARIANTS = [
    ("1210", {"target": 10, "max_step": 2}),
    ("1210", {"target": 10, "max_step": 2, "misere": True}),
    ("1210", {"target": 13, "max_step": 3}),
    ("1210", {"target": 13, "max_step": 3, "misere": True}),
    ("ttt", {"rows": 3, "cols": 3}),
    ("ttt", {"rows": 3, "cols": 3, "diagonal": True}),
    ("ttt", {"rows": 3, "cols": 3, "misere": True}),
    ("ttt", {"rows": 3, "cols": 3, "diagonal": True, "misere": True}),
    ("ttt", {"rows": 3, "cols": 3, "k": 2, "diagonal": True}),
    ("ttt", {"rows": 2, "cols": 4, "k": 2, "misere": True}),
    ("ttt", {"rows": 3, "cols": 4}),
    ("ttt", {"rows": 3, "cols": 4, "diagonal": True, "misere": True}),
    ("northcott", {"rows": 2, "cols": 4}),
    ("northcott", {"rows": 2, "cols": 4, "misere": True}),
    ("northcott", {"rows": 2, "cols": 4, "backward": True}),
    ("northcott", {"rows": 2, "cols": 4, "backward": True, "misere": True}),
    ("northcott", {"rows": 3, "cols": 5}),
    ("northcott", {"rows": 3, "cols": 5, "backward": True}),
    ("northcott", {"rows": 3, "cols": 5, "backward": True, "misere": True}),
    ("northcott", {"rows": 3, "cols": 6, "backward": True, "misere": True}),
]


@pytest.mark.parametrize("name, options", VARIANTS,
                         ids=[f"{n}-" + "-".join(f"{k}{v}" for k, v in o.items()) for n, o in VARIANTS])
def test_every_position_matches_the_reference(database, name, options):
    compared = crosscheck(database(name, **options), name, options)
    assert compared > 0


@pytest.mark.parametrize("name, options", [
    ("ttt", {}), ("ttt", {"diagonal": True}), ("ttt", {"misere": True}),
    ("ttt", {"rows": 4, "cols": 3, "diagonal": True}),
    ("northcott", {}), ("northcott", {"misere": True}),
    ("northcott", {"backward": True}),
])
def test_default_start_and_everything_it_reaches(database, name, options):
    db = database(name, **options)
    assert crosscheck(db, name, options, starts=[db.start]) > 1
