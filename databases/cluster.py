"""Builds on a Dask cluster: every tier is a task, the tier graph is the task graph.

The client (the ``build`` command) walks the same ``TierPlan`` as the in-process
solver: a tier is submitted as soon as every tier its moves reach is solved. A task
solves ONE tier with the in-process driver (``solver.tiers.solve(..., only={tier})``)
on the worker's cores: it reads the tiers it needs from the partial build's folder
(``<database>.partial/``, which every worker must see: a shared filesystem) and
keeps its own tier there (``PartialBuild.save`` writes under a temporary name and
renames, so a task run twice, after its worker died, is harmless). Tasks return
only their tier's counts and timings; the client merges the tier files into the
database as an in-process build does.

An IMMEDIATE tier larger than ``PIECE_POSITIONS`` is split by index range into
pieces, one task each (``solver.tiers.solve_piece``), so that one huge tier keeps
every worker busy; a worker keeps the tiers a piece reads for its next piece of the
same tier. The tier is solved once its pieces, kept as files, cover it; a resumed
build solves only the pieces missing. SWEEP tiers read their own higher indices: each
runs whole on one worker. A LOOPY tier runs whole on one worker if it fits one
(as GamesmanOne's MPI solver runs a loopy tier), else in parts across the workers,
exchanging updates in rounds (``split_tiers`` chooses them; ``databases/split.py``).

Games travel to the workers by name and options (``make_game(name, **options)``),
never as pickled kernels; each worker loads the numba kernels from its own cache.

    >>> from tiersolve.games import make_game
    >>> game = make_game("domineering", rows=2, cols=2)  # tiers: dominoes placed
    >>> [int(size) for size in game.tier_sizes], critical_path(game)
    ([1, 6, 1], [1, 7, 8])
"""

from __future__ import annotations

import json
import logging
import os
import re
import socket
import sys
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator

import numpy as np

from tiersolve.contract import TierType
from tiersolve.databases.on_workers import (
    ClusterError, open_partial as _open_partial, task_game as _game,
    worker_threads as _worker_threads,
)
from tiersolve.games.base import Game
from tiersolve.solver import interrupts, tiers
from tiersolve.solver.common import SolveStats, progress_bar

if TYPE_CHECKING:  # the tiers a build keeps are the database layer's files
    from tiersolve.databases.format import PartialBuild

#: What to tell a user whose Python lacks dask and distributed.
INSTALL_HINT = "install the cluster extra: pip install 'tiersolve[cluster]'"
#: Seconds to wait for an existing scheduler to answer.
CONNECT_TIMEOUT = 30
#: ``tcp://host:port`` (or tls://, ucx://, inproc://), or ``host:port``.
SCHEDULER_ADDRESS = re.compile(r"^([a-z][a-z0-9+.-]*://\S+|[^\s:/]+:\d+)$")
#: The level of Dask's log lines a local cluster shows (``connect``).
LOCAL_CLUSTER_LOG_LEVEL = logging.CRITICAL
#: Positions in one piece of a large IMMEDIATE tier (64 MB of one-byte records).
PIECE_POSITIONS = 1 << 26


def cluster_available() -> bool:
    """Whether dask and distributed are installed (the ``cluster`` extra)."""
    return find_spec("dask") is not None and find_spec("distributed") is not None


def check_cluster_options(workers: int | None, scheduler: str | None) -> None:
    """Raise ClusterError (one line) for a bad ``workers``/``scheduler`` pair, or if
    the cluster extra is not installed."""
    if workers is not None and scheduler is not None:
        raise ClusterError("give --workers N (a cluster on this machine) or --scheduler ADDRESS "
                           "(an existing cluster), not both")
    if workers is not None and workers < 1:
        raise ClusterError(f"--workers must be at least 1, got {workers}")
    if scheduler is not None and not SCHEDULER_ADDRESS.match(scheduler):
        raise ClusterError(f"--scheduler {scheduler!r} is not a scheduler address; "
                           "give it as tcp://HOST:PORT")
    if not cluster_available():
        raise ClusterError(INSTALL_HINT)


@dataclass(frozen=True)
class TierTask:
    """What a worker needs to solve a tier: the game by name and options, the
    partial build's folder, and how many threads to use (None: the worker's share
    of its machine's cores)."""

    game: str
    options_json: str
    partial_directory: str
    threads: int | None = None


@dataclass(frozen=True)
class TierResult:
    """What a task returns: the solved tier's (or piece's) summary and where and how
    it ran."""

    tier: int
    counts: np.ndarray
    max_remoteness: int
    seconds: float
    compile_seconds: float
    peak_bytes: int
    host: str
    piece: tuple[int, int] | None = None  # (lo, hi) of a piece; None: the whole tier


def solve_tier(task: TierTask, tier: int) -> TierResult:
    """A worker's task: solve ``tier`` (the tiers it reads are in the partial build's
    folder) and keep it there; returns its summary."""
    game = _game(task.game, task.options_json)
    partial = _open_partial(Path(task.partial_directory), game)
    began = time.perf_counter()
    stats = tiers.solve(game, threads=task.threads or _worker_threads(), progress=False,
                        sink=partial.save, load=partial.load, only={tier},
                        announce=False)
    return TierResult(tier=tier, counts=stats.counts, max_remoteness=stats.max_remoteness,
                      seconds=time.perf_counter() - began - stats.compile_seconds,
                      compile_seconds=stats.compile_seconds, peak_bytes=stats.peak_bytes,
                      host=socket.gethostname())


#: The tiers the last piece task of this worker process read, kept for its next piece
#: of the same tier: (partial folder, tier) -> records.
_READS: dict[tuple[str, int], np.ndarray] = {}
_READS_LOCK = threading.Lock()


def _kept_reads(partial: PartialBuild, game: Game, tier: int) -> dict[int, np.ndarray]:
    """The tiers ``tier`` reads, loaded once per worker for all its pieces of ``tier``
    (tiers of earlier tasks are let go)."""
    folder = str(partial.directory)
    wanted = {(folder, kid) for kid in tiers.tiers_read(game, tier)}
    with _READS_LOCK:
        for key in set(_READS) - wanted:
            del _READS[key]
        for key in wanted - set(_READS):
            _READS[key] = partial.load(key[1])
        return {kid: _READS[folder, kid] for _, kid in wanted}


def forget_reads() -> None:
    """Let go of the tiers a worker keeps for its next piece (run on every worker at
    the end of a build)."""
    with _READS_LOCK:
        _READS.clear()


def solve_piece(task: TierTask, tier: int, lo: int, hi: int) -> TierResult:
    """A worker's task: solve local indices ``lo..hi-1`` of the IMMEDIATE ``tier`` and
    keep them as a piece in the partial build's folder; returns the piece's summary."""
    game = _game(task.game, task.options_json)
    partial = _open_partial(Path(task.partial_directory), game)
    compile_seconds = tiers.warm_up(game)
    began = time.perf_counter()
    reads = _kept_reads(partial, game, tier)
    records, counts, longest = tiers.solve_piece(game, tier, lo, hi, load=reads.__getitem__,
                                                 threads=task.threads or _worker_threads())
    partial.save_piece(tier, lo, records, counts, longest)
    return TierResult(tier=tier, counts=counts, max_remoteness=longest,
                      seconds=time.perf_counter() - began, compile_seconds=compile_seconds,
                      peak_bytes=records.nbytes + sum(kept.nbytes for kept in reads.values()),
                      host=socket.gethostname(), piece=(lo, hi))


def piece_ranges(game: Game, tier: int, kept: Iterable[tuple[int, int]],
                 piece_positions: int = PIECE_POSITIONS) -> list[tuple[int, int]] | None:
    """The pieces of ``tier`` still to solve, given the (lo, hi) pieces ``kept``, or
    None if the tier is solved whole (it is not IMMEDIATE, or not larger than one
    piece).

        >>> from tiersolve.games import make_game
        >>> game = make_game("domineering", rows=3, cols=3)  # tier 2: C(9, 4) = 126 boards
        >>> piece_ranges(game, 2, [(50, 100)], piece_positions=40)
        [(0, 40), (40, 50), (100, 126)]
        >>> piece_ranges(game, 2, [], piece_positions=200) is None
        True
    """
    size = int(game.tier_sizes[tier])
    if tiers.tier_type(game, tier) != TierType.IMMEDIATE or size <= piece_positions:
        return None
    missing, end = [], 0
    for lo, hi in sorted(kept) + [(size, size)]:
        for start in range(end, lo, piece_positions):
            missing.append((start, min(start + piece_positions, lo)))
        end = max(end, hi)
    return missing


def critical_path(game: Game, plan: tiers.TierPlan | None = None) -> list[int]:
    """Per tier, the positions on the longest chain of tiers from it to the last
    tier solved (itself included): a task's priority, so the chain that bounds the
    build's length is never left waiting."""
    plan = plan or tiers.TierPlan(game)
    sizes = [int(size) for size in game.tier_sizes]
    longest: list[int] = [0] * len(sizes)
    for tier in reversed(_dependency_order(plan)):
        longest[tier] = sizes[tier] + max((longest[p] for p in plan.parents[tier]), default=0)
    return longest


def _dependency_order(plan: tiers.TierPlan) -> list[int]:
    """The tiers in an order where every tier comes after the tiers it reads."""
    waiting = [len(kids) for kids in plan.children]
    order = [t for t, count in enumerate(waiting) if count == 0]
    for tier in order:  # the list grows as tiers become ready
        for parent in plan.parents[tier]:
            waiting[parent] -= 1
            if waiting[parent] == 0:
                order.append(parent)
    return order


def task_peak_bytes(game: Game, tier: int, piece_positions: int = PIECE_POSITIONS) -> int:
    """Memory a task takes for ``tier`` (or for one piece of it): its own arrays and
    the tiers it reads."""
    record_bytes = tiers.records_type(game).itemsize
    own = tiers.work_bytes(game, tier)
    if piece_ranges(game, tier, [], piece_positions) is not None:
        own = piece_positions * record_bytes
    return own + sum(int(game.tier_sizes[t]) for t in tiers.tiers_read(game, tier)) * record_bytes


def largest_task_bytes(game: Game, piece_positions: int = PIECE_POSITIONS) -> int:
    """The most memory any one task takes (a worker must have this much, plus the
    process itself)."""
    return max((task_peak_bytes(game, t, piece_positions) for t in range(len(game.tier_sizes))),
               default=0)


def split_tiers(game: Game, workers: int, limit: int | None, parts: int | None = None,
                threads: int = 1, force: bool = False) -> dict[int, int]:
    """The LOOPY tiers to solve in parts across ``workers`` workers, and into how many:
    every one (of at least two blocks) into ``parts`` if given; else those whose task
    needs more than ``limit`` bytes (a worker's memory) beside the worker process
    itself (``split.WORKER_BASELINE_BYTES``), into one part a worker.
    Raises ClusterError if such a tier cannot be split (its game has no un-moves) or
    would not fit even so (unless ``force``).

        >>> from tiersolve.games import make_game
        >>> game = make_game("loa", rows=3, cols=3)
        >>> [int(size) for size in game.tier_sizes]
        [144, 504, 504, 1512]
        >>> split_tiers(game, 2, None, parts=3)  # each at least three blocks of 64
        {0: 3, 1: 3, 2: 3, 3: 3}
        >>> split_tiers(game, 2, 1 << 40)
        {}
    """
    from tiersolve.databases.naming import human_bytes
    from tiersolve.databases.split import (
        WORKER_BASELINE_BYTES, child_window_bytes, split_worker_bytes,
    )
    from tiersolve.solver import loopy_parts

    chosen: dict[int, int] = {}
    for tier, size in enumerate(int(size) for size in game.tier_sizes):
        if tiers.tier_type(game, tier) != TierType.LOOPY:
            continue
        if parts is not None:
            count = len(loopy_parts.part_ranges(size, parts))
        elif limit and task_peak_bytes(game, tier) + WORKER_BASELINE_BYTES > limit:
            count = len(loopy_parts.part_ranges(size, workers))
        else:
            continue
        if count < 2:
            continue
        if not loopy_parts.can_split(game):
            raise ClusterError(f"{game.describe()}: loopy tier {tier} needs to be split, but the "
                               "game has no un-move generator (parents); a loopy tier is split "
                               "only by un-moves")
        window = child_window_bytes(game, tier, count, workers, threads, limit)
        needed = split_worker_bytes(game, tier, count, workers, threads, window)
        if parts is None and needed > limit and not force:
            raise ClusterError(f"{game.describe()}: loopy tier {tier} needs about "
                               f"{human_bytes(needed)} a worker even in {count} parts on "
                               f"{workers} workers, but a worker may use only "
                               f"{human_bytes(limit)}; add workers or memory")
        chosen[tier] = count
    return chosen


def _local_memory_limit(workers: int, worker_memory: int | None) -> int:
    """A LocalCluster worker's memory limit: ``worker_memory``, or Dask's default
    (this machine's memory shared among the workers)."""
    if worker_memory is not None:
        return worker_memory
    from distributed.system import MEMORY_LIMIT

    return int(MEMORY_LIMIT // max(workers, 1))


def split_plan(game: Game, *, workers: int | None = None, scheduler: str | None = None,
               worker_memory: int | None = None, parts: int | None = None,
               threads: int | None = None) -> list[dict]:
    """What ``--plan`` shows of a cluster build: each LOOPY tier it would solve in
    parts, with each part's range and memory and the most a worker holds."""
    from tiersolve.databases.split import (
        WORKER_BASELINE_BYTES, child_window_bytes, split_worker_bytes,
    )
    from tiersolve.solver import loopy_parts

    check_cluster_options(workers, scheduler)
    if scheduler is not None:
        with connect(scheduler=scheduler) as client:
            count = len(client.scheduler_info().get("workers", {})) or 1
            limit = worker_memory or _worker_memory_limit(client)
            threads = threads or _cores_per_worker(client)
    else:
        count = workers or 1
        limit = _local_memory_limit(count, worker_memory)
        threads = threads or os.cpu_count() or 1
    planned = []
    for tier, parts_of_tier in split_tiers(game, count, limit, parts, threads).items():
        size = int(game.tier_sizes[tier])
        ranges = loopy_parts.part_ranges(size, parts_of_tier)
        planned.append({
            "tier": tier, "key": [int(k) for k in game.tiers.keys[tier]], "positions": size,
            "workers": count, "worker_limit_bytes": limit,
            "whole_task_bytes": task_peak_bytes(game, tier) + WORKER_BASELINE_BYTES,
            "parts": [{"lo": lo, "hi": hi,
                       "bytes": loopy_parts.part_work_bytes(game, size, hi - lo, threads)}
                      for lo, hi in ranges],
            "child_window_bytes": child_window_bytes(game, tier, len(ranges), count, threads,
                                                     limit),
            "worker_bytes": split_worker_bytes(
                game, tier, len(ranges), count, threads,
                child_window_bytes(game, tier, len(ranges), count, threads, limit))})
    return planned


def split_plan_lines(planned: list[dict]) -> list[str]:
    """``split_plan`` for people: a line a split tier and one a part."""
    from tiersolve.databases.naming import human_bytes

    if not planned:
        return ["no loopy tier is split: each fits one worker"]
    lines = []
    for tier in planned:
        key = f" {tuple(tier['key'])}" if tier["key"] else ""
        limit = human_bytes(tier["worker_limit_bytes"]) if tier["worker_limit_bytes"] else "none"
        window = tier["child_window_bytes"]
        reads = "" if window is None else \
            f", reading its child tiers {human_bytes(window)} at a time"
        lines.append(f"tier {tier['tier']}{key}: {tier['positions']:,} positions in "
                     f"{len(tier['parts'])} parts on {tier['workers']} workers; whole, it needs "
                     f"{human_bytes(tier['whole_task_bytes'])}; in parts at most "
                     f"{human_bytes(tier['worker_bytes'])} a worker (limit {limit}){reads}")
        for part in tier["parts"]:
            lines.append(f"  part {part['lo']:,}..{part['hi'] - 1:,}: {human_bytes(part['bytes'])}")
    return lines


@contextmanager
def connect(workers: int | None = None, scheduler: str | None = None,
            worker_memory: int | None = None) -> Iterator[Any]:
    """A ``distributed.Client``: on a new LocalCluster of ``workers`` processes (one
    task slot each, each limited to ``worker_memory`` bytes if given), or connected
    to the scheduler at ``scheduler``."""
    check_cluster_options(workers, scheduler)
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as error:
            raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
        try:
            yield client
        finally:
            client.close()
        return
    # ":0": any free port, so two builds on one machine never collide. Dask's own log
    # lines stay quiet up to CRITICAL: as the cluster shuts down, a worker whose
    # heartbeat meets the closed scheduler logs an ERROR with a 30-line traceback, and
    # errors that matter reach the build as exceptions of its tasks.
    limit = {} if worker_memory is None else {"memory_limit": worker_memory}
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=LOCAL_CLUSTER_LOG_LEVEL,
                      **limit) as cluster, \
            Client(cluster) as client:
        yield client


def solve_on_cluster(game: Game, partial: PartialBuild, *, workers: int | None = None,
                     scheduler: str | None = None, threads: int | None = None,
                     progress: bool = True, force: bool = False,
                     worker_memory: int | None = None,
                     loopy_parts: int | None = None) -> SolveStats:
    """Solve every tier of ``game`` not yet in ``partial.done()`` as Dask tasks, each
    tier kept in the partial build's folder; returns the stats of the whole game.

    ``workers=N`` starts a LocalCluster of N processes on this machine (each task
    then uses all of this machine's cores); ``scheduler`` connects to an
    existing cluster (each task uses its worker machine's cores / the worker's task
    slots, unless ``threads`` says otherwise). A LOOPY tier whose task needs more
    than a worker's memory (``worker_memory``, else the workers' Dask memory limit)
    is solved in parts across the workers (``databases/split.py``); ``loopy_parts``
    splits every loopy tier into that many. Raises ClusterError if a worker has less
    memory than the largest task needs (unless ``force``) or a tier keeps killing
    its workers, SolverError if the game breaks the contract, and KeyboardInterrupt
    (the tiers solved so far are kept)."""
    check_cluster_options(workers, scheduler)
    if workers is not None and threads is None:
        # Every task may use all of this machine's cores: tiers often form a chain, and
        # then one task runs at a time; when several run, the cores are shared.
        threads = os.cpu_count() or 1
    task = TierTask(game.name, json.dumps(game.options, sort_keys=True),
                    str(partial.directory.resolve()), threads)
    with connect(workers, scheduler, worker_memory) as client:
        if progress and find_spec("bokeh") is not None:
            print(f"dask dashboard: {client.dashboard_link}", file=sys.stderr, flush=True)
        limit = worker_memory or _worker_memory_limit(client)
        count = len(client.scheduler_info().get("workers", {})) or workers or 1
        split = split_tiers(game, count, limit, loopy_parts, threads or _cores_per_worker(client),
                            force)
        if not force:
            _check_worker_memory(game, limit, split)
        try:
            return _run_tiers(client, game, partial, task, progress, split, limit)
        finally:
            client.run(forget_reads)


def _worker_memory_limit(client: Any) -> int | None:
    """The smallest Dask memory limit of the cluster's workers (None: none has one)."""
    limits = [info.get("memory_limit") or 0
              for info in client.scheduler_info().get("workers", {}).values()]
    limits = [limit for limit in limits if limit]
    return min(limits) if limits else None


def _cores_per_worker(client: Any) -> int:
    """Kernel threads a worker's task gets (as ``_worker_threads`` on the worker)."""
    try:
        return max(1, min(client.run(_worker_threads).values()))
    except Exception:  # a worker that does not answer: plan for one thread
        return 1


def _check_worker_memory(game: Game, limit: int | None, split: dict[int, int]) -> None:
    """Refuse a build whose largest task (split tiers aside) does not fit in a
    worker's memory limit."""
    from tiersolve.databases.lifecycle import KERNEL_BYTES
    from tiersolve.databases.naming import human_bytes

    needed = max((task_peak_bytes(game, t, PIECE_POSITIONS) for t in range(len(game.tier_sizes))
                  if t not in split), default=0) + KERNEL_BYTES
    if limit and needed > limit:
        raise ClusterError(f"{game.describe()}: the largest tier needs about {human_bytes(needed)} "
                           f"on one worker, but a worker may use only {human_bytes(limit)}; "
                           "give the workers more memory (fewer per machine), or use --force")


def _run_tiers(client: Any, game: Game, partial: PartialBuild, task: TierTask,
               progress: bool, split: dict[int, int] | None = None,
               worker_memory: int | None = None) -> SolveStats:
    """Submit each tier (or its pieces) when the tiers it reads are solved; collect
    the results. A tier of ``split`` (tier -> parts) runs alone on the cluster once
    the tasks running when it became ready have finished (no task is submitted
    meanwhile); its parts read their child tiers in windows if they do not fit whole
    in ``worker_memory``."""
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    from tiersolve.databases.split import solve_split_tier

    split = split or {}

    done = partial.done()
    stats = SolveStats()
    for counts, longest in done.values():
        stats.add(counts, longest)
    plan = tiers.TierPlan(game, done)
    priority = critical_path(game, plan)
    sizes = [int(size) for size in game.tier_sizes]
    build_id = uuid.uuid4().hex[:8]
    queue = as_completed()
    submitted: dict[str, tuple[int, Any]] = {}  # key -> (tier, future)
    pieces_out: dict[int, int] = {}  # tier -> its pieces not yet solved
    remaining = sum(sizes) - sum(sizes[t] for t in done)
    bar = progress_bar(remaining, f"solving {game.name} on the cluster", progress)

    def submit(tier: int, function: Any, *args: int) -> None:
        key = "-".join(["solve-tier", *map(str, (tier, *args)), build_id])
        future = client.submit(function, task, tier, *args, key=key, priority=priority[tier],
                               pure=False)
        submitted[future.key] = (tier, future)
        queue.add(future)

    waiting: list[int] = []  # ready tiers held back while a split tier waits or runs
    splitting: list[int] = []  # split tiers ready

    def submit_ready() -> None:
        while plan.ready:
            tier, _ = plan.start()
            (splitting if tier in split else waiting).append(tier)
        if splitting:
            return
        while waiting:
            tier = waiting.pop(0)
            kept = partial.pieces(tier)
            missing = piece_ranges(game, tier, kept, PIECE_POSITIONS)
            if missing is None:
                submit(tier, solve_tier)
                continue
            for (lo, hi), (counts, longest) in kept.items():  # solved before a resume
                stats.add(counts, longest)
                bar.update(hi - lo)
            pieces_out[tier] = len(missing)
            for lo, hi in missing:
                submit(tier, solve_piece, lo, hi)

    def solve_split() -> None:
        tier = splitting.pop(0)
        bar.set_postfix_str(f"tier {tier} in {split[tier]} parts", refresh=False)
        report = solve_split_tier(client, game, partial, task, tier, split[tier],
                                  on_round=lambda _: interrupts.check(),
                                  worker_memory=worker_memory)
        stats.add(report.counts, report.max_remoteness)
        stats.tier_seconds[tier] = report.seconds
        stats.peak_bytes = max([stats.peak_bytes, *report.peak_bytes.values()])
        stats.split_tiers.append(report.as_dict())
        bar.update(sizes[tier])
        plan.finish(tier)

    submit_ready()
    results = iter(queue)
    try:
        while True:
            if splitting and queue.is_empty():
                solve_split()
                submit_ready()
                continue
            future = next(results, None)
            if future is None:
                break
            interrupts.check()  # a signal whose KeyboardInterrupt was lost (solver.interrupts)
            try:
                result: TierResult = future.result()
            except KilledWorker:
                tier = submitted[future.key][0]
                raise ClusterError(f"{game.name}: tier {tier} killed every worker that ran it "
                                   f"(out of memory? it needs about "
                                   f"{task_peak_bytes(game, tier, PIECE_POSITIONS):,} bytes); "
                                   "the tiers solved so far are kept") from None
            stats.add(result.counts, result.max_remoteness)
            tier = result.tier
            # a tier in pieces: the sum of its pieces' seconds (as if one worker solved it)
            stats.tier_seconds[tier] = stats.tier_seconds.get(tier, 0.0) + result.seconds
            stats.compile_seconds = max(stats.compile_seconds, result.compile_seconds)
            stats.peak_bytes = max(stats.peak_bytes, result.peak_bytes)
            if result.piece is not None:
                bar.update(result.piece[1] - result.piece[0])
                pieces_out[tier] -= 1
                if pieces_out[tier]:
                    continue
            else:
                bar.update(sizes[tier])
            plan.finish(tier)
            submit_ready()
    except BaseException:
        client.cancel([future for _, future in submitted.values() if not future.done()])
        raise
    finally:
        bar.close()
    if plan.unsolved:
        raise ClusterError(f"{game.name}: {plan.unsolved} tiers were never ready")
    return stats


__all__ = ["ClusterError", "INSTALL_HINT", "PIECE_POSITIONS", "TierResult", "TierTask",
           "check_cluster_options", "cluster_available", "connect", "critical_path",
           "forget_reads", "largest_task_bytes", "piece_ranges", "solve_on_cluster", "solve_piece",
           "solve_tier", "split_plan", "split_plan_lines", "split_tiers", "task_peak_bytes"]
