"""The solver at scale: symmetry, threads, memory, chunked lookups, unindexed finished games."""

from __future__ import annotations

import numpy as np
import pytest

from tiersolve.databases import open_database
from tiersolve.databases.build import build_database
from tiersolve.games import make_game
from tiersolve.solver import tiers
from tiersolve.values import NONCANONICAL

from conftest import legal_indices

SYMMETRIC = [
    ("domineering", {"rows": 4, "cols": 4}, 4),
    ("domineering", {"rows": 3, "cols": 4}, 4),
    ("clobber", {"rows": 3, "cols": 3}, 8),
    ("clobber", {"rows": 2, "cols": 4}, 4),
    ("konane", {"rows": 4, "cols": 4}, 8),          # four of the eight swap the players
    ("konane", {"rows": 3, "cols": 4, "goagain_any": True}, 4),
    ("breakthrough", {"rows": 4, "cols": 3}, 2),
    ("knightthrough", {"rows": 4, "cols": 3}, 2),
]


@pytest.mark.parametrize("name, options, group", SYMMETRIC)
def test_symmetry_gives_every_position_the_same_value(database, name, options, group):
    plain = database(name, **options)
    symmetric = database(name, **options, symmetry=True)
    texts = plain.positions(legal_indices(plain))
    values, remoteness = plain.lookup_indices(legal_indices(plain))
    # every position's text goes to its class's stored index, which has its value
    # (texts are read once: lookup_many's own path is checked on every game elsewhere)
    canonical = symmetric.indices_of(texts)
    stored_values, stored_remoteness = symmetric.lookup_indices(canonical)
    assert (stored_values == values).all() and (stored_remoteness == remoteness).all()
    # one stored index per class, and it is the class's highest index
    stored = legal_indices(symmetric)
    assert set(canonical.tolist()) == set(stored.tolist())
    assert (canonical >= legal_indices(plain)).all()
    counts = symmetric.attributes
    assert counts["count_noncanonical"] + len(stored) + counts["count_illegal"] == symmetric.size
    assert len(stored) * group >= len(texts) > len(stored)  # the saving is real


def test_symmetry_is_reported(tmp_path):
    report = build_database(make_game("domineering", rows=4, cols=4, symmetry=True),
                            tmp_path / "d.h5", progress=False)
    assert report.counts["noncanonical"] > 0
    counts = report.counts
    assert counts["win"] + counts["lose"] + counts["noncanonical"] == 32_768  # they add up
    assert ("32,768 positions (win 5,410, lose 2,974, tie 0, draw 0; illegal 0; noncanonical "
            "24,384, left to their symmetric representatives)") in report.summary_line()


@pytest.mark.parametrize("name, options", [
    ("domineering", {"rows": 4, "cols": 4}),            # chunks of a tier in parallel
    ("breakthrough", {"rows": 4, "cols": 4}),           # independent tiers in parallel
    ("clobber", {"rows": 3, "cols": 4, "symmetry": True}),
    ("loa", {"rows": 3, "cols": 4}),                    # loopy tiers shared by threads
    ("knightsdance", {"rows": 4, "cols": 4, "jump_block": True}),
    ("pousse", {"size": 3}),
])
def test_results_do_not_depend_on_the_number_of_threads(name, options, monkeypatch):
    monkeypatch.setattr(tiers, "CHUNK", 1 << 10)  # many chunks even on a small board
    monkeypatch.setattr(tiers, "LOOPY_CHUNK", 1 << 9)
    game = make_game(name, **options)
    results = []
    for threads in (1, 2):
        kept = {}
        tiers.solve(game, threads=threads, progress=False,
                    sink=lambda tier, records, counts, longest: kept.__setitem__(tier, records.copy()))
        results.append(kept)
    assert results[0].keys() == results[1].keys()
    for tier, records in results[0].items():
        assert np.array_equal(records, results[1][tier])


def test_peak_memory_is_a_few_tiers_not_the_whole_game():
    # a chain of tiers: the tier being solved and the one it reads
    game = make_game("domineering", rows=4, cols=5)
    stats = tiers.solve(game, threads=2, progress=False)
    assert stats.peak_bytes <= 2 * int(game.tier_sizes.max())  # 1-byte records
    assert stats.peak_bytes == tiers.estimate_peak_bytes(game, 2)
    # a three-dimensional tier graph: well under half of the game at once; which tiers
    # overlap depends on timing, so the estimate (a simulation) is only close
    game = make_game("breakthrough", rows=5, cols=3)
    stats = tiers.solve(game, threads=2, progress=False)
    whole = int(game.tier_sizes.sum()) * tiers.records_type(game).itemsize
    assert stats.peak_bytes < whole / 2
    assert stats.peak_bytes <= 1.25 * tiers.estimate_peak_bytes(game, 2)


class _Recorder:
    """Stands in for an h5py dataset and records which slices are read."""

    def __init__(self, dataset):
        self.dataset, self.reads = dataset, []
        self.chunks, self.dtype, self.shape = dataset.chunks, dataset.dtype, dataset.shape

    def __getitem__(self, key):
        self.reads.append(key)
        return self.dataset[key]


def test_a_lookup_reads_only_the_chunk_it_needs(tmp_path):
    build_database(make_game("clobber", rows=3, cols=4), tmp_path / "c.h5", progress=False)
    with open_database(tmp_path / "c.h5") as db:
        checked = db._file  # every read of the data goes through the checked file
        checked.values, checked.remoteness = _Recorder(checked.values), _Recorder(checked.remoteness)
        db.lookup("(w b-bw wbwb bwbw)")
        for recorder in (checked.values, checked.remoteness):
            assert len(recorder.reads) == 1
            (part,) = recorder.reads
            assert part.stop - part.start <= recorder.chunks[0] < db.size


def test_finished_games_the_index_leaves_out_are_answered_by_the_rules(database):
    db = database("breakthrough", rows=4, cols=3)
    position = "(w --- -w- b-- ---)"  # each of White's three moves reaches the top row
    assert (db.lookup(position).value, db.lookup(position).remoteness) == ("win", 1)
    moves = db.moves(position)
    assert sorted(m.move for m in moves) == ["b3-a4", "b3-b4", "b3-c4"]
    assert {(m.value, m.remoteness) for m in moves} == {("win", 0)}  # for White, who makes it
    finished = "(b -w- --- b-- ---)"
    assert (db.lookup(finished).value, db.lookup(finished).remoteness) == ("lose", 0)
    with pytest.raises(ValueError, match="finished game"):
        db.index(finished)
    with pytest.raises(ValueError, match="cannot arise"):
        db.lookup("(w -w- --- b-- ---)")  # White arrived, yet White to move


def test_noncanonical_code_is_documented_in_the_file(database):
    db = database("domineering", rows=3, cols=4, symmetry=True)
    assert db.attributes["count_noncanonical"] == int((db.value_array() == NONCANONICAL).sum()) > 0
