"""The HDF5 files: written arrays and attributes read back, opening by game name
(which checks the game and every option), bad, damaged and closed files refused in
one line, lookups validated, bulk numpy access."""

from __future__ import annotations

import json
import shutil

import h5py
import numpy as np
import pytest

from tiersolve.databases import (
    VALUES, ClosedDatabaseError, DamagedDatabaseError, DatabaseMismatchError, open_database,
)
from tiersolve.databases.build import build_database
from tiersolve.databases.format import FORMAT_NAME, FORMAT_VERSION
from tiersolve.databases.lifecycle import BuildRefused
from tiersolve.games import make_game
from tiersolve.solver import tiers
from tiersolve.solver.records import split_records

from conftest import value_there
from crafting import rewrite_metadata


@pytest.mark.parametrize("name, options", [
    ("ttt", {"rows": 3, "cols": 3}),
    ("northcott", {"rows": 2, "cols": 5, "backward": True}),
    ("1210", {"target": 600, "max_step": 2}),  # remoteness beyond 254: stored as uint16
])
def test_file_holds_exactly_what_the_solver_computed(tmp_path, name, options):
    game = make_game(name, **options)
    kept = {}
    tiers.solve(game, threads=1, progress=False,
                sink=lambda tier, records, counts, longest: kept.__setitem__(tier, records.copy()))
    records = np.concatenate([kept[t] for t in range(game.tiers.count)])
    values, remoteness = split_records(records, np.dtype(np.uint16))

    report = build_database(game, tmp_path / "x.h5", progress=False)
    with open_database(tmp_path / "x.h5") as db:
        assert np.array_equal(db.value_array(), values)
        stored = db.remoteness_array()
        none = remoteness == np.iinfo(remoteness.dtype).max
        assert np.array_equal(stored == -1, none)
        assert np.array_equal(stored[stored >= 0], remoteness[~none])
        attrs = db.attributes
        assert attrs["format"] == FORMAT_NAME and attrs["format_version"] == FORMAT_VERSION
        assert attrs["game"] == name and json.loads(attrs["options"]) == game.options
        assert json.loads(attrs["hasher"]) == game.hasher
        assert attrs["num_positions"] == game.size == values.size
        counts = {v: int((values == code).sum()) for code, v in enumerate(VALUES)}
        assert {v: attrs[f"count_{v}"] for v in VALUES} == counts == report.counts
        start = db.lookup(attrs["start_position"])
        assert (attrs["start_value"], attrs["start_remoteness"]) == \
            (start.value, -1 if start.remoteness is None else start.remoteness)
        for key in ("build_seconds", "solve_seconds", "compile_seconds", "numba_version",
                    "package_version", "created_utc", "numpy_version", "h5py_version"):
            assert key in attrs
        expected_dtype = np.uint16 if name == "1210" else np.uint8  # the smallest that holds it
    with h5py.File(tmp_path / "x.h5", "r") as file:  # the file itself, as any HDF5 reader sees it
        assert file["remoteness"].dtype == expected_dtype
        assert file["value"].compression == "gzip" and file["value"].chunks is not None
        assert file["value"].fletcher32 and file["remoteness"].fletcher32


def test_lookup_and_moves(database):
    db = database("northcott", rows=3, cols=6)
    record = db.lookup(" (L 1L3R0 0L1R3 1L2R1) ")
    assert (record.position, record.value, record.remoteness) == ("(L 1L3R0 0L1R3 1L2R1)", "lose", 6)
    moves = db.moves("(R 4L0R0 0L1R3 1L2R1)")
    assert [m.value for m in moves][0] == "win"  # R's best move wins (it leaves L lost)
    assert moves[0].move.startswith("R row")
    assert [value_there(m)[0] for m in moves][0] == "lose"
    winning = [m.remoteness for m in moves if m.value == "win"]
    assert winning == sorted(winning)  # among winning moves, fastest first


def test_moves_are_ordered_best_first(database):
    db = database("ttt", rows=3, cols=3)
    rank = {"win": 0, "tie": 1, "draw": 2, "lose": 3}  # values for the player who moves
    for position in ("(x --- --- ---)", "(o x-- --- ---)", "(x xo- --- ---)", "(o xo- x-- ---)"):
        moves = db.moves(position)
        keys = [(rank[m.value], m.remoteness if m.value != "lose" else -m.remoteness) for m in moves]
        assert keys == sorted(keys)
        best = moves[0]
        record = db.lookup(position)
        assert (record.value, record.remoteness) == (best.value, best.remoteness + 1)


@pytest.mark.parametrize("position, message", [
    ("L 1L3R0 0L1R3 1L2R1", "missing parentheses"),
    ("(X 1L3R0 0L1R3 1L2R1)", "turn .* must be L or R"),
    ("(L 1L3R0 0L1R3)", "has 2 rows"),
    ("(L 1L3R1 0L1R3 1L2R1)", "spans 7 columns"),
    ("(L 1L3Q0 0L1R3 1L2R1)", "a row is aLbRc"),
    ("()", "empty position"),
    (42, "is a string"),
])
def test_bad_positions_raise_value_errors(database, position, message):
    db = database("northcott", rows=3, cols=6)
    with pytest.raises(ValueError, match=message):
        db.lookup(position)
    with pytest.raises(ValueError, match=message):
        db.moves(position)


@pytest.mark.parametrize("position, message", [
    ("(x ---- ----)", "has 2 rows, but this ttt 3x4"),
    ("(x --- --- ---)", "row 1 .* has 3 cells, but this ttt 3x4 game has 4 columns"),
    ("(x ---- ---- ---)", "row 3 .* has 3 cells"),
    ("(o ---- ---- ----)", "it must be x's turn"),
    ("(x xx-- ---- ----)", "x moves first"),
    ("(x xxx- oo-- o---)", "x already has a line"),
    ("(x ---- ---- --a-)", "cells are"),
])
def test_bad_ttt_positions(database, position, message):
    with pytest.raises(ValueError, match=message):
        database("ttt").lookup(position)


def test_bulk_access_is_numpy_in_numpy_out(database):
    db = database("ttt", rows=3, cols=3, diagonal=True)
    values = db.value_array()
    remoteness = db.remoteness_array()
    wins_in_3 = np.flatnonzero((values == VALUES.index("win")) & (remoteness == 3))
    assert wins_in_3.size > 0
    got_values, got_remoteness = db.lookup_indices(wins_in_3[::-1])
    assert (got_values == 1).all() and (got_remoteness == 3).all()
    texts = db.positions(wins_in_3[:20])
    assert np.array_equal(db.indices_of(texts), wins_in_3[:20])
    for text in texts:
        assert (db.lookup(text).value, db.lookup(text).remoteness) == ("win", 3)
    states = db.decode(wins_in_3[:20])
    assert states.shape == (20, 10)  # turn + 9 cells
    with pytest.raises(IndexError):
        db.lookup_indices([db.size])


def test_lookup_indices_spans_chunks(tmp_path):
    game = make_game("ttt", rows=3, cols=4)
    build_database(game, tmp_path / "t.h5", progress=False)
    with open_database(tmp_path / "t.h5") as db:
        everything = db.value_array()
        picks = np.random.default_rng(3).integers(0, db.size, 5000)
        values, _ = db.lookup_indices(picks)
        assert np.array_equal(values, everything[picks])


def test_open_by_game_name(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMESOLVER_DB_DIR", str(tmp_path))
    build_database(make_game("1210", target=5), progress=False)
    assert (tmp_path / "1210_target5.h5").exists()
    with open_database("1210", target=5) as db:
        assert db.lookup("(L 0)").value == "win"
    with pytest.raises(FileNotFoundError, match="build it"):
        open_database("1210", target=6)


def _copy(source, tmp_path, name="copy.h5"):
    target = tmp_path / name
    shutil.copy(source, target)
    return target


def test_unknown_files_are_refused(database, tmp_path):
    source = database("1210").path
    rewrite_metadata(_copy(source, tmp_path, "a.h5"), format="something-else")
    with pytest.raises(ValueError, match="is not a tiersolve database file"):
        open_database(tmp_path / "a.h5")
    rewrite_metadata(_copy(source, tmp_path, "b.h5"), format_version=99)
    with pytest.raises(ValueError, match="format version 99"):
        open_database(tmp_path / "b.h5")
    rewrite_metadata(_copy(source, tmp_path, "c.h5"), hasher=json.dumps({"name": "another"}))
    with pytest.raises(ValueError, match="different index layout"):
        open_database(tmp_path / "c.h5")
    (tmp_path / "d.h5").write_text("not hdf5")
    with pytest.raises(ValueError, match="not a readable database file"):
        open_database(tmp_path / "d.h5")
    with pytest.raises(FileNotFoundError):
        open_database(tmp_path / "missing.h5")


def test_build_refuses_when_memory_is_short(tmp_path, monkeypatch):
    import tiersolve.databases.build as build

    monkeypatch.setattr(build, "memory_available", lambda: 1000)
    with pytest.raises(BuildRefused, match="use --force"):
        build_database(make_game("ttt", rows=3, cols=3), tmp_path / "x.h5", progress=False)
    assert not (tmp_path / "x.h5").exists()
    build_database(make_game("ttt", rows=3, cols=3), tmp_path / "x.h5", progress=False, force=True)
    assert (tmp_path / "x.h5").exists()


def test_failed_build_leaves_no_database_file(tmp_path, monkeypatch):
    def explode(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(tiers, "solve", explode)
    with pytest.raises(RuntimeError):
        build_database(make_game("ttt", rows=2, cols=2, k=2), tmp_path / "x.h5", progress=False)
    assert [p.name for p in tmp_path.iterdir()] == ["x.h5.partial"]  # kept for a resume


def test_custom_start_is_recorded(tmp_path):
    report = build_database(make_game("northcott", rows=2, cols=4), tmp_path / "n.h5",
                            start="(R 1L1R0 0L2R0)", progress=False)
    assert report.start == "(R 1L1R0 0L2R0)"
    with open_database(tmp_path / "n.h5") as db:
        assert db.start == "(R 1L1R0 0L2R0)"
        assert db.lookup(db.start).value == report.start_value
    with pytest.raises(ValueError, match="has 3 rows"):
        build_database(make_game("northcott", rows=2, cols=4), tmp_path / "m.h5",
                       start="(R 1L1R0 0L2R0 0L2R0)", progress=False)


def test_opening_by_game_checks_the_game_and_every_option(tmp_path, monkeypatch):
    monkeypatch.setenv("TIERSOLVE_DB_DIR", str(tmp_path))
    build_database(make_game("ttt", rows=3, cols=3, diagonal=True), tmp_path / "ttt_3x3.h5",
                   progress=False)
    with pytest.raises(DatabaseMismatchError, match="holds ttt 3x3 \\(diagonal\\), not ttt 3x3"):
        open_database("ttt", rows=3, cols=3)
    build_database(make_game("northcott", rows=3, cols=6), tmp_path / "n.h5", progress=False)
    shutil.copy(tmp_path / "n.h5", tmp_path / "ttt_3x3.h5")
    with pytest.raises(DatabaseMismatchError, match="holds northcott 3x6"):
        open_database("ttt", rows=3, cols=3)
    shutil.copy(tmp_path / "n.h5", tmp_path / "northcott_3x6.h5")
    with open_database("northcott", rows=3, cols=6, misere=False) as db:  # defaults may be named
        assert db.game.describe() == "northcott 3x6"


def test_damaged_and_odd_files_say_what_is_wrong_in_one_line(tmp_path):
    path = tmp_path / "t.h5"
    build_database(make_game("ttt", rows=3, cols=3), path, progress=False)
    broken = tmp_path / "broken.h5"
    shutil.copy(path, broken)
    with h5py.File(broken, "r+") as file:
        del file["remoteness"]
    with pytest.raises(DamagedDatabaseError, match="lacks remoteness") as missing:
        open_database(broken)
    with pytest.raises(DamagedDatabaseError, match="is a folder, not a database file") as folder:
        open_database(tmp_path)
    db = open_database(path)
    db.close()
    with pytest.raises(ClosedDatabaseError, match="is closed") as closed:
        db.lookup("(x --- --- ---)")
    for error in (missing, folder, closed):
        assert "\n" not in str(error.value) and "identifier" not in str(error.value)


def test_lookup_indices_checks_its_input(tmp_path):
    path = tmp_path / "t.h5"
    build_database(make_game("ttt", rows=3, cols=3), path, progress=False)
    with open_database(path) as db:
        with pytest.raises(TypeError, match="whole numbers"):
            db.lookup_indices([1.5])
        value, remoteness = db.lookup_indices(3)
        values, remotenesses = db.lookup_indices([3])
        assert (value, remoteness) == (values[0], remotenesses[0]) and np.ndim(value) == 0
        with pytest.raises(IndexError, match="outside this database"):
            db.lookup_indices([db.size])
    with pytest.raises(TypeError, match="opens a file; the options rows"):
        open_database(path, rows=4)
