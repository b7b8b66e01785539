"""Builds on a Dask cluster (databases/cluster.py) write exactly the database of an
in-process build: for acyclic and loopy games, when a worker is killed mid-build,
and when the build resumes from tiers already kept; a local cluster keeps Dask quiet
as it shuts down. Without the cluster extra the module is skipped, unless $CI is set
(then a missing install fails)."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest

if os.environ.get("CI"):
    import distributed
else:
    distributed = pytest.importorskip("distributed")

from tiersolve.cli.build import build_main
from tiersolve.databases import cluster, open_database
from tiersolve.databases.build import build_database
from tiersolve.databases.format import PartialBuild
from tiersolve.games import make_game
from tiersolve.solver import tiers

#: Sixteen loopy tiers; the largest takes about a second and a half on one thread.
LOA_4X4 = ("loa", {"rows": 4, "cols": 4})


def arrays(path: Path) -> tuple[np.ndarray, np.ndarray]:
    with open_database(path) as db:
        return db.value_array(), db.remoteness_array()


def assert_same_database(built: Path, reference: Path) -> None:
    (values, remoteness), (expected_values, expected_remoteness) = arrays(built), arrays(reference)
    assert np.array_equal(values, expected_values)
    assert np.array_equal(remoteness, expected_remoteness)


@pytest.fixture(scope="module")
def local_cluster():
    """Two worker processes with one task slot each, shared by the tests."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as running:
        yield running


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """In-process builds, made once: (game name, options) -> database path."""
    folder = tmp_path_factory.mktemp("in-process")
    built: dict[tuple[str, str], Path] = {}

    def build(name: str, options: dict) -> Path:
        key = (name, repr(sorted(options.items())))
        if key not in built:
            path = folder / f"{name}-{len(built)}.h5"
            build_database(make_game(name, **options), path, progress=False, threads=1)
            built[key] = path
        return built[key]

    return build


@pytest.mark.parametrize("name, options", [("ttt", {"rows": 3, "cols": 4}),
                                           ("loa", {"rows": 3, "cols": 3})],
                         ids=["ttt-3x4-acyclic", "loa-3x3-loopy"])
def test_a_cluster_build_equals_the_in_process_build(tmp_path, local_cluster, reference,
                                                     name, options):
    out = tmp_path / "cluster.h5"
    report = build_database(make_game(name, **options), out, progress=False,
                            scheduler=local_cluster.scheduler_address)
    assert_same_database(out, reference(name, options))
    assert report.resumed_tiers == 0
    assert not out.with_name(out.name + ".partial").exists()


def test_the_command_starts_its_own_local_cluster_and_uses_the_work_dir(tmp_path, reference,
                                                                        capfd):
    out, work = tmp_path / "db" / "domineering.h5", tmp_path / "shared"
    code = build_main(["domineering", "--rows", "3", "--cols", "4", "--workers", "2",
                       "--work-dir", str(work), "--out", str(out), "--quiet"])
    assert code == 0
    assert capfd.readouterr().err == ""  # the workers' processes said nothing either
    assert_same_database(out, reference("domineering", {"rows": 3, "cols": 4}))
    assert work.is_dir() and not (work / "domineering.h5.partial").exists()


def test_a_tier_in_pieces_equals_the_in_process_build(tmp_path, local_cluster, reference,
                                                      monkeypatch):
    name, options = "domineering", {"rows": 4, "cols": 4}  # tiers of up to 12,870 boards
    monkeypatch.setattr(cluster, "PIECE_POSITIONS", 1000)
    split = spy_on_pieces(monkeypatch)
    out = tmp_path / "pieces.h5"
    build_database(make_game(name, **options), out, progress=False,
                   scheduler=local_cluster.scheduler_address)
    assert_same_database(out, reference(name, options))
    assert max(len(pieces) for pieces in split.values()) == 13  # the largest tier in 13 pieces


def test_a_resumed_build_solves_only_the_missing_pieces(tmp_path, local_cluster, reference,
                                                         monkeypatch):
    name, options = "domineering", {"rows": 4, "cols": 4}
    game, out = make_game(name, **options), tmp_path / "resumed.h5"
    kept = PartialBuild(out, game, tiers.records_type(game))
    tiers.solve(game, threads=1, progress=False, sink=kept.save, only=range(5, 9))
    for lo, hi in ((0, 1000), (3000, 4000)):  # two pieces of tier 4, C(16, 8) = 12,870 boards
        records, counts, longest = tiers.solve_piece(game, 4, lo, hi, load=kept.load)
        kept.save_piece(4, lo, records, counts, longest)
    monkeypatch.setattr(cluster, "PIECE_POSITIONS", 1000)
    split = spy_on_pieces(monkeypatch)
    build_database(game, out, progress=False, scheduler=local_cluster.scheduler_address)
    assert_same_database(out, reference(name, options))
    assert split[4][:3] == [(1000, 2000), (2000, 3000), (4000, 5000)]
    assert sum(hi - lo for lo, hi in split[4]) == 12870 - 2000


def spy_on_pieces(monkeypatch) -> dict[int, list[tuple[int, int]]]:
    """The pieces the client submits, per tier."""
    split: dict[int, list[tuple[int, int]]] = {}
    real = cluster.piece_ranges

    def recording(game, tier, kept, piece_positions):
        pieces = real(game, tier, kept, piece_positions)
        if pieces is not None:
            split[tier] = pieces
        return pieces

    monkeypatch.setattr(cluster, "piece_ranges", recording)
    return split


@pytest.mark.parametrize("name, options, pieces, trigger", [
    (*LOA_4X4, None, "tier-000012.h5"),  # the three largest (loopy) tiers are left
    ("domineering", {"rows": 5, "cols": 5}, 1 << 17, "piece-000006-*.h5"),  # pieces of C(25,12)
], ids=["loopy-tiers", "pieces"])
def test_a_killed_worker_changes_nothing(tmp_path, local_cluster, reference, monkeypatch,
                                         name, options, pieces, trigger):
    if pieces is not None:
        monkeypatch.setattr(cluster, "PIECE_POSITIONS", pieces)
    out = tmp_path / "killed.h5"
    expected = reference(name, options)
    client = distributed.Client(local_cluster)
    pids = client.run(os.getpid)
    outcome: dict[str, object] = {}

    def build() -> None:
        try:
            outcome["report"] = build_database(make_game(name, **options), out, progress=False,
                                               threads=1, scheduler=local_cluster.scheduler_address)
        except BaseException as error:  # reported by the assertion below
            outcome["error"] = error

    builder = threading.Thread(target=build)
    builder.start()
    partial = out.with_name(out.name + ".partial")
    killed, deadline = None, time.monotonic() + 60
    while killed is None and builder.is_alive() and time.monotonic() < deadline:
        if any(partial.glob(trigger)):
            busy = [address for address, keys in client.processing().items() if keys]
            if busy:
                killed = busy[0]
                os.kill(pids[killed], signal.SIGKILL)
        time.sleep(0.01)
    builder.join(timeout=120)
    client.close()
    assert killed is not None, "no worker was busy to be killed"
    assert "error" not in outcome, outcome.get("error")
    assert_same_database(out, expected)


def test_a_resumed_cluster_build_equals_the_in_process_build(tmp_path, local_cluster, reference):
    name, options = "ttt", {"rows": 3, "cols": 4}
    game, out = make_game(name, **options), tmp_path / "ttt.h5"
    kept = PartialBuild(out, game, tiers.records_type(game))
    tiers.solve(game, threads=1, progress=False, sink=kept.save, only=range(7, 13))  # full boards first
    assert sorted(kept.done()) == list(range(7, 13))
    report = build_database(game, out, progress=False, scheduler=local_cluster.scheduler_address)
    assert report.resumed_tiers == 6
    assert_same_database(out, reference(name, options))


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the lost one
def test_a_lost_interrupt_stops_a_cluster_build(tmp_path, local_cluster, lose_an_interrupt):
    """A SIGINT whose KeyboardInterrupt was lost stops the build at the next result,
    with the tiers solved so far kept (solver.interrupts)."""
    from tiersolve.solver.interrupts import stopping_on_signals

    name, options = LOA_4X4
    out = tmp_path / "loa.h5"
    with stopping_on_signals():
        lose_an_interrupt()
        with pytest.raises(KeyboardInterrupt):
            build_database(make_game(name, **options), out, progress=False,
                           scheduler=local_cluster.scheduler_address)
    assert not out.exists()
    assert out.with_name(out.name + ".partial").is_dir()


def test_without_the_cluster_extra_workers_fail_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cluster, "cluster_available", lambda: False)
    code = build_main(["1210", "--workers", "2", "--out", str(tmp_path / "1210.h5")])
    error = capsys.readouterr().err
    assert code == 2
    assert error.strip().splitlines() == [
        "build_db.py: error: install the cluster extra: pip install 'tiersolve[cluster]'"]
    assert not (tmp_path / "1210.h5").exists()


@pytest.mark.parametrize("arguments, message", [
    (["--workers", "0"], "argument --workers: must be at least 1, got 0"),
    (["--workers", "2", "--scheduler", "tcp://localhost:8786"], "not both"),
    (["--scheduler", "no address"], "is not a scheduler address"),
    (["--reachable", "--work-dir", "x"], "do not apply to --reachable"),
])
def test_cluster_option_mistakes_are_one_line(tmp_path, capsys, arguments, message):
    try:
        code = build_main(["1210", *arguments, "--out", str(tmp_path / "1210.h5")])
    except SystemExit as stop:  # a mistake argparse finds
        code = stop.code
    error = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(error) == 1 and message in error[0]


def test_an_unreachable_scheduler_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    code = build_main(["1210", "--scheduler", "tcp://127.0.0.1:9", "--out", str(tmp_path / "a.h5"),
                       "--quiet"])
    error = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(error) == 1 and "cannot reach the Dask scheduler" in error[0]


def test_only_solves_just_those_tiers():
    game = make_game("ttt", rows=3, cols=4)
    kept: dict[int, np.ndarray] = {}
    stats = tiers.solve(game, threads=1, progress=False, only={10, 11, 12},  # read no other tier
                        sink=lambda tier, records, counts, longest: kept.update({tier: records}))
    assert sorted(kept) == [10, 11, 12] and sorted(stats.tier_seconds) == [10, 11, 12]
    assert int(stats.counts.sum()) == sum(int(game.tier_sizes[t]) for t in (10, 11, 12))


def test_a_local_cluster_keeps_dask_quiet_as_it_shuts_down(monkeypatch):
    distributed = pytest.importorskip("distributed")
    from tiersolve.databases import cluster

    made = {}

    class Recorded(Exception):
        pass

    def local_cluster(**options):
        made.update(options)
        raise Recorded

    monkeypatch.setattr(distributed, "LocalCluster", local_cluster)
    with pytest.raises(Recorded):
        with cluster.connect(workers=2):
            pass
    # a worker's heartbeat meeting the closed scheduler logs at ERROR, with a traceback
    assert made["silence_logs"] >= logging.CRITICAL
