"""The loopy kernel against the independent plain-Python reference, on every legal
position of small boards of the loopy games, with 1 and with 2 threads.

The kernel is run in small pieces so that every part of it is exercised on these
small tiers: phases in chunks of 256 positions, update buckets of 64 positions and
update buffers of 512 entries, so that a level takes several rounds of generating
and applying, and a thread stops in the middle of a block and resumes it."""

from __future__ import annotations

import numpy as np
import pytest

from tiersolve.games import make_game
from tiersolve.solver import loopy, tiers
from tiersolve.solver.records import split_records
from tiersolve.values import ILLEGAL, NONCANONICAL, VALUE_NAMES

from reference import solve_all

CASES = [
    ("loa", {"rows": 3, "cols": 4, "symmetry": True}),
    ("loa", {"rows": 4, "cols": 4, "max_pieces": 2, "symmetry": True}),
    # test_crosscheck compares this board with the reference too
    pytest.param("surakarta", {"size": 4, "max_pieces": 3}, marks=pytest.mark.slow),
    ("surakarta", {"size": 4, "max_pieces": 2, "symmetry": True}),
    ("pousse", {"size": 3}),
    ("knightsdance", {"rows": 4, "cols": 5}),
    ("northcott", {"rows": 3, "cols": 5, "backward": True}),
    # the 4x4 game, every position: the reference takes minutes (-m slow)
    pytest.param("loa", {"rows": 4, "cols": 4, "max_pieces": 3}, marks=pytest.mark.slow),
    pytest.param("loa", {"rows": 4, "cols": 4}, marks=pytest.mark.slow),
]


def _solved(game, threads: int) -> tuple[np.ndarray, np.ndarray]:
    """(value codes, remoteness) of every index, solved by ``tiers.solve``."""
    kept: dict[int, np.ndarray] = {}
    tiers.solve(game, threads=threads, progress=False,
                sink=lambda tier, records, counts, longest: kept.update({tier: records.copy()}))
    records = np.concatenate([kept[t] for t in range(len(game.tier_sizes))])
    values, remoteness = split_records(records, np.dtype(np.int32))
    remoteness[remoteness == np.iinfo(np.int32).max] = -1
    return values, remoteness


def _reference(name: str, options: dict, texts: list[str]) -> dict:
    """The reference's values (``solve_all`` keeps them for the session: the
    crosscheck asks for the same positions of some of these boards)."""
    rules = {k: v for k, v in options.items() if k not in ("symmetry", "max_pieces")}
    return solve_all(name, rules, texts)


def _case_id(case) -> str:
    name, options = case.values[:2] if hasattr(case, "values") else case
    return make_game(name, **options).label()


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name, options", CASES, ids=[_case_id(c) for c in CASES])
def test_every_position_matches_the_reference(monkeypatch, name, options, threads):
    monkeypatch.setattr(tiers, "LOOPY_CHUNK", 256)
    monkeypatch.setattr(loopy, "MIN_BUCKET_BITS", 6)
    monkeypatch.setattr(loopy, "MIN_UPDATE_BYTES", 64)  # as few chunks as allowed
    monkeypatch.setattr(loopy, "UPDATE_BYTES", 64)
    monkeypatch.setattr(loopy, "CHUNK", 4)  # buckets' chains of several chunks
    game = make_game(name, **options)
    assert loopy.chunk_count(game, game.size) == 4 * game.max_parents + 64
    values, remoteness = _solved(game, threads)
    legal = np.flatnonzero((values != ILLEGAL) & (values != NONCANONICAL))
    texts = [game.format(state) for state in game.decode_many(legal)]
    reference = _reference(name, options, texts)
    differences = [(text, (VALUE_NAMES[int(values[i])], None if remoteness[i] < 0 else int(remoteness[i])),
                    reference.get(text))
                   for text, i in zip(texts, legal)
                   if reference.get(text) != (VALUE_NAMES[int(values[i])],
                                              None if remoteness[i] < 0 else int(remoteness[i]))]
    assert len(legal) > 1000 and not differences, \
        f"{len(differences)} of {len(legal)} differ, e.g. (position, solver, reference): {differences[:3]}"
