"""A LOOPY tier solved in parts (solver/loopy_parts.py, databases/split.py) gives
exactly the records of the whole tier's kernel: in one process for every loopy game's
small boards, with buffers so small that each level takes several exchanges; on a
local Dask cluster of 2 and 4 worker processes; and when a worker is killed in the
middle of a split tier. The larger boards of docs/CLUSTER.md are in
scripts/bench_split.py."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from tiersolve.cli.build import build_main
from tiersolve.contract import TierType
from tiersolve.games import make_game
from tiersolve.solver import loopy, loopy_parts, tiers

#: Small boards of the five games of docs/CLUSTER.md's table, every loopy tier split.
SMALL_BOARDS = [
    ("loa", {"rows": 3, "cols": 4, "symmetry": True}),
    ("quixo", {"size": 3}),
    ("surakarta", {"size": 4, "max_pieces": 2, "symmetry": True}),
    ("knightsdance", {"rows": 4, "cols": 5}),
    ("pousse", {"size": 3}),
]


@pytest.fixture
def small_buffers(monkeypatch):
    """Buffers of a few updates and buckets of 64 positions (as test_loopy_kernel), so
    that a level takes several exchanges, and the check several too."""
    monkeypatch.setattr(loopy, "MIN_BUCKET_BITS", 6)
    monkeypatch.setattr(loopy, "MIN_UPDATE_BYTES", 64)
    monkeypatch.setattr(loopy, "UPDATE_BYTES", 64)
    monkeypatch.setattr(loopy, "CHUNK", 4)
    monkeypatch.setattr(loopy_parts, "PART_MIN_UPDATE_BYTES", 64)
    monkeypatch.setattr(loopy_parts, "CHECK_POSITIONS", 3)
    monkeypatch.setattr(loopy_parts, "SMALLEST_CHUNK", 256)


def _whole_tiers(game) -> dict[int, np.ndarray]:
    kept: dict[int, np.ndarray] = {}
    tiers.solve(game, threads=2, progress=False,
                sink=lambda tier, records, counts, longest: kept.update({tier: records.copy()}))
    return kept


@pytest.mark.parametrize("name, options", SMALL_BOARDS, ids=[n for n, _ in SMALL_BOARDS])
def test_parts_equal_the_whole_tier(small_buffers, name, options):
    game = make_game(name, **options)
    whole = _whole_tiers(game)
    loopy_tiers = [t for t in range(len(game.tier_sizes))
                   if tiers.tier_type(game, t) == TierType.LOOPY and game.tier_sizes[t] >= 128]
    assert loopy_tiers
    exchanges = 0
    for tier in loopy_tiers:
        # (parts, threads, child records read at once: None for whole child tiers)
        for parts, threads, window in ((2, 1, None), (3, 2, None), (4, 1, None), (3, 2, 300)):
            stats = loopy_parts.SplitStats()
            records, _ = loopy_parts.solve_in_parts(game, tier, parts, whole.__getitem__,
                                                    records_type=tiers.records_type(game),
                                                    threads=threads, stats=stats,
                                                    window_positions=window)
            assert np.array_equal(records, whole[tier]), (tier, parts, threads, window)
            exchanges = max(exchanges, max(r.exchanges for r in stats.rounds))
    assert exchanges >= 2  # the buffers did fill in the middle of a round


@pytest.mark.parametrize("name, options", [SMALL_BOARDS[0], SMALL_BOARDS[4]],
                         ids=[SMALL_BOARDS[0][0], SMALL_BOARDS[4][0]])
def test_a_snapshot_and_the_logs_give_back_every_round(small_buffers, tmp_path, name, options):
    """The checkpoints of split.py: a snapshot after the start, a log a round, a new
    snapshot now and then. After every round, parts loaded from the snapshot and its
    logs hold exactly the arrays of the parts that ran (frontier included), a record
    cut short at the log's end is dropped, and the tier ends identical."""
    game = make_game(name, **options)
    whole = _whole_tiers(game)
    tier = max((t for t in range(len(game.tier_sizes))
                if tiers.tier_type(game, t) == TierType.LOOPY), key=lambda t: game.tier_sizes[t])
    records_type = tiers.records_type(game)
    ranges = loopy_parts.part_ranges(int(game.tier_sizes[tier]), 3)
    host = loopy_parts.PartHost(game, tier, ranges, range(len(ranges)), 2)
    reads = {kid: whole[kid] for kid in tiers.tiers_read(game, tier)}
    level = min(host.start(reads, records_type).values())
    state = loopy_parts.RoundState("levels", 0, level, 1)
    snapshot = tmp_path / "snapshot-1"
    host.save(snapshot)
    checked = []

    def checkpoint(reached):
        nonlocal snapshot
        if reached.round % 5 == 0:  # a new snapshot, as LOG_SHARE asks now and then
            snapshot = tmp_path / f"snapshot-{reached.round}"
            host.save(snapshot)
        else:
            host.log(snapshot, reached.round)
        if reached.round % 2:
            with open(snapshot / "part-001.log", "ab") as handle:
                handle.write(b"cut short")  # a record whose round never completed
        copy = loopy_parts.PartHost(game, tier, ranges, range(len(ranges)), 1)
        copy.load(snapshot, loopy_parts.RoundState(**reached.as_dict()))
        for k, part in host.parts.items():
            for array in ("values", "remoteness", "counters", "due"):
                assert np.array_equal(getattr(copy.parts[k], array), getattr(part, array)), \
                    (reached, k, array)
        copy.close()
        checked.append(reached.round)

    loopy_parts.solve_rounds(loopy_parts._LocalHosts(host), tier, state, checkpoint)
    finished = host.finish(records_type)
    host.close()
    assert np.array_equal(np.concatenate([finished[k][0] for k in sorted(finished)]), whole[tier])
    assert len(checked) >= 6 and checked == list(range(2, len(checked) + 2))


def test_part_ranges_start_on_blocks_and_cover_the_tier():
    for size, parts in ((1_000_003, 3), (64 * 7, 4), (65, 2), (10, 3)):
        ranges = loopy_parts.part_ranges(size, parts)
        assert ranges[0][0] == 0 and ranges[-1][1] == size
        assert all(hi == lo for (_, hi), (lo, _) in zip(ranges, ranges[1:]))
        assert all(lo % 64 == 0 and hi > lo for lo, hi in ranges)
        assert len(ranges) == min(parts, -(-size // 64))


def test_a_game_without_unmoves_cannot_be_split(monkeypatch):
    from tiersolve.databases import cluster

    game = make_game("loa", rows=3, cols=3)
    monkeypatch.setattr(loopy_parts, "can_split", lambda game: False)
    with pytest.raises(cluster.ClusterError, match="no un-move generator"):
        cluster.split_tiers(game, 2, None, parts=2)


def test_a_tier_too_large_for_a_worker_is_split_in_one_part_a_worker():
    from tiersolve.databases import cluster, split

    game = make_game("loa", rows=4, cols=4)  # the last tier: 1,801,800 positions
    whole = cluster.task_peak_bytes(game, 15) + split.WORKER_BASELINE_BYTES
    limit = whole - 1
    chosen = cluster.split_tiers(game, 3, limit)
    assert chosen == {15: 3}  # only the tier that does not fit
    assert split.split_worker_bytes(game, 15, 3, 3, 1) < limit
    with pytest.raises(cluster.ClusterError, match="even in 3 parts on 3 workers"):
        cluster.split_tiers(game, 3, split.WORKER_BASELINE_BYTES + 1000)


def test_the_plan_shows_each_split_tier_and_its_parts(capsys):
    code = build_main(["loa", "--rows", "3", "--cols", "4", "--plan", "--workers", "2",
                       "--loopy-parts", "3", "--json"])
    planned = json.loads(capsys.readouterr().out)["split_tiers"]
    assert code == 0 and [t["tier"] for t in planned] == [0, 1, 2, 3, 4, 5, 6, 7]
    last = planned[-1]
    assert [(p["lo"], p["hi"]) for p in last["parts"]] == [(0, 9216), (9216, 18496),
                                                           (18496, 27720)]
    assert all(p["bytes"] > (p["hi"] - p["lo"]) * 4 for p in last["parts"])
    code = build_main(["loa", "--rows", "3", "--cols", "4", "--plan", "--workers", "2",
                       "--loopy-parts", "3"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0 and "tier 7 (4, 2): 27,720 positions in 3 parts on 2 workers" in lines[-4]
    assert lines[-1].startswith("  part 18,496..27,719: ")


def test_worker_memory_needs_a_cluster(tmp_path, capsys):
    code = build_main(["1210", "--worker-memory", "1GiB", "--out", str(tmp_path / "a.h5")])
    error = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(error) == 1 and "need --workers N or --scheduler" in error[0]


# -- on a local Dask cluster --------------------------------------------------------------

distributed = pytest.importorskip("distributed") if not os.environ.get("CI") else \
    __import__("distributed")


def _arrays(path: Path) -> tuple[np.ndarray, np.ndarray]:
    from tiersolve.databases import open_database

    with open_database(path) as db:
        return db.value_array(), db.remoteness_array()


def _same(built: Path, reference: Path) -> bool:
    (values, remoteness), (expected, expected_remoteness) = _arrays(built), _arrays(reference)
    return np.array_equal(values, expected) and np.array_equal(remoteness, expected_remoteness)


@pytest.fixture(scope="module")
def in_process(tmp_path_factory):
    """In-process builds, made once: (name, options) -> path."""
    from tiersolve.databases.build import build_database

    folder, built = tmp_path_factory.mktemp("in-process"), {}

    def build(name: str, options: dict) -> Path:
        key = (name, json.dumps(options, sort_keys=True))
        if key not in built:
            built[key] = folder / f"{name}-{len(built)}.h5"
            build_database(make_game(name, **options), built[key], progress=False, threads=2)
        return built[key]

    return build


@pytest.fixture(scope="module")
def local_cluster():
    """Local clusters of N worker processes, made once: N -> cluster."""
    made: dict[int, object] = {}

    def cluster(workers: int):
        if workers not in made:
            made[workers] = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                                     processes=True, dashboard_address=":0")
        return made[workers]

    yield cluster
    for running in made.values():
        running.close()


@pytest.mark.parametrize("workers", [2, 4])
def test_split_tiers_on_a_local_cluster_equal_the_in_process_build(tmp_path, in_process, workers,
                                                                  monkeypatch, local_cluster):
    from tiersolve.databases import split as splitting
    from tiersolve.databases.build import build_database

    cases = [("loa", {"rows": 3, "cols": 3}), ("pousse", {"size": 3})]
    cluster = local_cluster(workers)
    # with 4 workers, only the cuts that use more than 2 of them (CI's time)
    cuts = ((2, None), (3, None), (4, None), (3, 1000)) if workers == 2 else ((3, None), (4, None))
    for name, options in cases:
        for parts, window in cuts:
            # window: bytes of child records a worker reads at once
            monkeypatch.setattr(splitting, "child_window_bytes", lambda *_: window)
            out = tmp_path / f"{name}-{parts}-{window}.h5"
            report = build_database(make_game(name, **options), out, progress=False,
                                    scheduler=cluster.scheduler_address, loopy_parts=parts)
            assert _same(out, in_process(name, options)), (name, parts, window)
            split = report.split_tiers
            assert split and max(len(s["parts"]) for s in split) == parts
            assert all(s["rounds"] and s["peak_bytes"] for s in split)
            assert all(s["window_bytes"] == window for s in split)
            assert len({w for s in split for w in s["peak_bytes"]}) == min(workers, parts)


def test_a_worker_killed_in_a_split_tier_changes_nothing(tmp_path, in_process, monkeypatch):
    """Lines of Action 4x4 with a worker's memory just below what its last tier (1.8 M
    positions) needs whole: that tier alone is split, in one part a worker. SIGKILL one
    of the two workers in its third round: the tier starts again from its last round
    kept, on the worker left and the one the nanny restarts, and ends identical."""
    from tiersolve.databases import cluster, split
    from tiersolve.databases.build import build_database

    name, options = "loa", {"rows": 4, "cols": 4}
    game = make_game(name, **options)
    memory = cluster.task_peak_bytes(game, 15) + split.WORKER_BASELINE_BYTES - 1
    assert cluster.split_tiers(game, 2, memory, threads=2) == {15: 2}
    expected = in_process(name, options)
    out = tmp_path / "killed.h5"
    state = out.with_name(out.name + ".partial") / "loopy-000015" / "state.json"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as local, \
            distributed.Client(local) as client:
        pids = client.run(os.getpid)
        outcome: dict[str, object] = {}

        def build() -> None:
            try:
                outcome["report"] = build_database(game, out, progress=False,
                                                   worker_memory=memory,
                                                   scheduler=local.scheduler_address)
            except BaseException as error:  # reported by the assertion below
                outcome["error"] = error

        builder = threading.Thread(target=build)
        builder.start()
        killed, deadline = False, time.monotonic() + 240
        while not killed and builder.is_alive() and time.monotonic() < deadline:
            try:
                reached = json.loads(state.read_text())["round"]
            except (OSError, ValueError):
                reached = 0
            if reached >= 3:
                os.kill(pids[min(pids)], signal.SIGKILL)
                killed = True
            time.sleep(0.005)
        builder.join(timeout=300)
    assert killed, "the split tier ended before its third round"
    assert "error" not in outcome, outcome.get("error")
    [last] = outcome["report"].split_tiers
    assert last["tier"] == 15 and last["restarts"] == 1 and len(last["parts"]) == 2
    assert _same(out, expected)


def test_a_stopped_split_tier_resumes_from_its_last_round(tmp_path, in_process, monkeypatch,
                                                         local_cluster):
    """Stop a build (Ctrl-C) once round 3 of Lines of Action 3x3's largest tier is kept
    (its snapshot after the start, then a log a round): built again, that tier begins
    from round 3, not from its start, and the database is identical."""
    from tiersolve.databases import split
    from tiersolve.databases.build import build_database

    name, options = "loa", {"rows": 3, "cols": 3}
    game = make_game(name, **options)
    largest = max((t for t in range(len(game.tier_sizes))
                   if tiers.tier_type(game, t) == TierType.LOOPY), key=lambda t: game.tier_sizes[t])
    out = tmp_path / "stopped.h5"
    write_state = split._write_state

    def stop_at_round_3(folder, state, snapshot, ranges):
        write_state(folder, state, snapshot, ranges)
        if folder.name == f"loopy-{largest:06d}" and state.round == 3:
            raise KeyboardInterrupt

    local = local_cluster(2)
    monkeypatch.setattr(split, "_write_state", stop_at_round_3)
    with pytest.raises(KeyboardInterrupt):
        build_database(game, out, progress=False, scheduler=local.scheduler_address,
                       loopy_parts=2)
    monkeypatch.setattr(split, "_write_state", write_state)
    report = build_database(game, out, progress=False, scheduler=local.scheduler_address,
                            loopy_parts=2)
    [resumed] = [s for s in report.split_tiers if s["tier"] == largest]
    # the same tier's rounds from the start, in one process
    whole = _whole_tiers(game)
    stats = loopy_parts.SplitStats()
    loopy_parts.solve_in_parts(game, largest, 2, whole.__getitem__,
                               records_type=tiers.records_type(game), stats=stats)
    every = [(r.kind, r.level, r.tie) for r in stats.rounds]
    assert resumed["resumed_round"] == 3 and len(every) > 4
    assert [(r["kind"], r["level"], r["tie"]) for r in resumed["rounds"]] == every[2:]
    assert _same(out, in_process(name, options))
