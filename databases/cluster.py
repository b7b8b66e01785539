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

Games travel to the workers by name and options (``make_game(name, **options)``),
never as pickled kernels; each worker loads the numba kernels from its own cache.

    >>> from tiersolve.games import make_game
    >>> game = make_game("domineering", rows=2, cols=2)  # tiers: dominoes placed
    >>> [int(size) for size in game.tier_sizes], critical_path(game)
    ([1, 6, 1], [1, 7, 8])
"""

from __future__ import annotations

import functools
import json
import os
import re
import socket
import sys
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from tiersolve.databases.format import PartialBuild, PartialBuildMismatch
from tiersolve.errors import TiersolveError
from tiersolve.games import make_game
from tiersolve.games.base import Game
from tiersolve.solver import tiers
from tiersolve.solver.common import SolveStats, progress_bar

#: What to tell a user whose Python lacks dask and distributed.
INSTALL_HINT = "install the cluster extra: pip install 'tiersolve[cluster]'"
#: Seconds to wait for an existing scheduler to answer.
CONNECT_TIMEOUT = 30
#: ``tcp://host:port`` (or tls://, ucx://, inproc://), or ``host:port``.
SCHEDULER_ADDRESS = re.compile(r"^([a-z][a-z0-9+.-]*://\S+|[^\s:/]+:\d+)$")
PARTIAL_SUFFIX = ".partial"


class ClusterError(TiersolveError):
    """A cluster build cannot start or cannot finish: dask is missing, the scheduler
    is unreachable, a worker cannot see the work dir or runs other code, or a tier
    keeps killing its workers."""


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
    """What a task returns: the solved tier's summary and where and how it ran."""

    tier: int
    counts: np.ndarray
    max_remoteness: int
    seconds: float
    compile_seconds: float
    peak_bytes: int
    host: str


@functools.lru_cache(maxsize=4)
def _game(name: str, options_json: str) -> Game:
    """The game of a task, made once per worker process."""
    return make_game(name, **json.loads(options_json))


def _open_partial(directory: Path, game: Game) -> PartialBuild:
    """The partial build in ``directory`` as a worker sees it (never created here:
    a folder the worker cannot see means the work dir is not shared)."""
    host = socket.gethostname()
    if not (directory / "manifest.json").is_file():
        raise ClusterError(f"the worker on {host} cannot see the work dir {directory}: put it on "
                           "a filesystem every worker shares (--work-dir)")
    database = directory.with_name(directory.name.removesuffix(PARTIAL_SUFFIX))
    try:
        return PartialBuild(database, game, tiers.records_type(game))
    except PartialBuildMismatch:
        raise ClusterError(f"the worker on {host} runs another version of tiersolve than the "
                           "build's client; install the same version on every machine") from None


def _worker_threads() -> int:
    """Kernel threads for a task on this worker: its machine's cores shared among
    the worker's task slots."""
    from distributed import get_worker

    try:
        slots = get_worker().state.nthreads
    except (ValueError, AttributeError):  # not inside a worker
        slots = 1
    return max(1, (os.cpu_count() or 1) // max(slots, 1))


def solve_tier(task: TierTask, tier: int) -> TierResult:
    """A worker's task: solve ``tier`` (the tiers it reads are in the partial build's
    folder) and keep it there; returns its summary."""
    game = _game(task.game, task.options_json)
    partial = _open_partial(Path(task.partial_directory), game)
    began = time.perf_counter()
    stats = tiers.solve(game, threads=task.threads or _worker_threads(), progress=False,
                        sink=partial.save, load=partial.load, only={tier})
    return TierResult(tier=tier, counts=stats.counts, max_remoteness=stats.max_remoteness,
                      seconds=time.perf_counter() - began - stats.compile_seconds,
                      compile_seconds=stats.compile_seconds, peak_bytes=stats.peak_bytes,
                      host=socket.gethostname())


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


def task_peak_bytes(game: Game, tier: int) -> int:
    """Memory a task takes for ``tier``: its own arrays and the tiers it reads."""
    reads = {int(t) for t in game.tier_children(tier)} - {tier, tiers.TERMINAL}
    record_bytes = tiers.records_type(game).itemsize
    return tiers.work_bytes(game, tier) + sum(int(game.tier_sizes[t]) for t in reads) * record_bytes


def largest_task_bytes(game: Game) -> int:
    """The most memory any one task takes (a worker must have this much, plus the
    process itself)."""
    return max((task_peak_bytes(game, t) for t in range(len(game.tier_sizes))), default=0)


@contextmanager
def connect(workers: int | None = None, scheduler: str | None = None) -> Iterator[Any]:
    """A ``distributed.Client``: on a new LocalCluster of ``workers`` processes (one
    task slot each), or connected to the scheduler at ``scheduler``."""
    check_cluster_options(workers, scheduler)
    import logging

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
    # ":0": any free port, so two builds on one machine never collide
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=logging.ERROR) as cluster, \
            Client(cluster) as client:
        yield client


def solve_on_cluster(game: Game, partial: PartialBuild, *, workers: int | None = None,
                     scheduler: str | None = None, threads: int | None = None,
                     progress: bool = True, force: bool = False) -> SolveStats:
    """Solve every tier of ``game`` not yet in ``partial.done()`` as Dask tasks, each
    tier kept in the partial build's folder; returns the stats of the whole game.

    ``workers=N`` starts a LocalCluster of N processes on this machine (each task
    then uses all of this machine's cores); ``scheduler`` connects to an
    existing cluster (each task uses its worker machine's cores / the worker's task
    slots, unless ``threads`` says otherwise). Raises ClusterError if a worker has
    less memory than the largest task needs (unless ``force``) or a tier keeps
    killing its workers, SolverError if the game breaks the contract, and
    KeyboardInterrupt (the tiers solved so far are kept)."""
    check_cluster_options(workers, scheduler)
    if workers is not None and threads is None:
        # Every task may use all of this machine's cores: tiers often form a chain, and
        # then one task runs at a time; when several run, the cores are shared.
        threads = os.cpu_count() or 1
    task = TierTask(game.name, json.dumps(game.options, sort_keys=True),
                    str(partial.directory.resolve()), threads)
    with connect(workers, scheduler) as client:
        if progress and find_spec("bokeh") is not None:
            print(f"dask dashboard: {client.dashboard_link}", file=sys.stderr, flush=True)
        if not force:
            _check_worker_memory(client, game)
        return _run_tiers(client, game, partial.done(), task, progress)


def _check_worker_memory(client: Any, game: Game) -> None:
    """Refuse a build whose largest task does not fit in a worker's memory limit."""
    from tiersolve.databases.build import KERNEL_BYTES, human_bytes

    limits = [info.get("memory_limit") or 0
              for info in client.scheduler_info().get("workers", {}).values()]
    limits = [limit for limit in limits if limit]
    needed = largest_task_bytes(game) + KERNEL_BYTES
    if limits and needed > min(limits):
        raise ClusterError(f"{game.describe()}: the largest tier needs about {human_bytes(needed)} "
                           f"on one worker, but a worker may use only {human_bytes(min(limits))}; "
                           "give the workers more memory (fewer per machine), or use --force")


def _run_tiers(client: Any, game: Game, done: dict[int, tuple[np.ndarray, int]],
               task: TierTask, progress: bool) -> SolveStats:
    """Submit each tier when the tiers it reads are solved; collect the results."""
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    stats = SolveStats()
    for counts, longest in done.values():
        stats.add(counts, longest)
    plan = tiers.TierPlan(game, done)
    priority = critical_path(game, plan)
    sizes = [int(size) for size in game.tier_sizes]
    build_id = uuid.uuid4().hex[:8]
    queue = as_completed()
    submitted: dict[str, tuple[int, Any]] = {}  # key -> (tier, future)

    def submit_ready() -> None:
        while plan.ready:
            tier, _ = plan.start()
            future = client.submit(solve_tier, task, tier, key=f"solve-tier-{tier}-{build_id}",
                                   priority=priority[tier], pure=False)
            submitted[future.key] = (tier, future)
            queue.add(future)

    remaining = sum(sizes) - sum(sizes[t] for t in done)
    bar = progress_bar(remaining, f"solving {game.name} on the cluster", progress)
    submit_ready()
    try:
        for future in queue:
            try:
                result: TierResult = future.result()
            except KilledWorker:
                tier = submitted[future.key][0]
                raise ClusterError(f"{game.name}: tier {tier} killed every worker that ran it "
                                   f"(out of memory? it needs about "
                                   f"{task_peak_bytes(game, tier):,} bytes); the tiers solved "
                                   "so far are kept") from None
            stats.add(result.counts, result.max_remoteness)
            stats.tier_seconds[result.tier] = result.seconds
            stats.compile_seconds = max(stats.compile_seconds, result.compile_seconds)
            stats.peak_bytes = max(stats.peak_bytes, result.peak_bytes)
            bar.update(sizes[result.tier])
            plan.finish(result.tier)
            submit_ready()
    except BaseException:
        client.cancel([future for _, future in submitted.values() if not future.done()])
        raise
    finally:
        bar.close()
    if plan.unsolved:
        raise ClusterError(f"{game.name}: {plan.unsolved} tiers were never ready")
    return stats


__all__ = ["ClusterError", "INSTALL_HINT", "TierResult", "TierTask", "check_cluster_options",
           "cluster_available", "connect", "critical_path", "largest_task_bytes",
           "solve_on_cluster", "solve_tier", "task_peak_bytes"]
