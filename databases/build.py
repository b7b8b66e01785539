"""Build a whole database: plan its memory, solve tier by tier (resumably, in this
process or on a Dask cluster), merge the tiers into the HDF5 file, report. The steps
every build shares (output checks, lock, full disk, report) are ``lifecycle``'s.

>>> from tiersolve.games import make_game
>>> report = build_database(make_game("1210"), "1210.h5", progress=False)
>>> report.summary_line()  # doctest: +ELLIPSIS
'1210: 22 positions (win 14, lose 8, tie 0, draw 0; illegal 0) · start (L 0) win in 7 · ...'
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tiersolve.contract import TierType
from tiersolve.databases.format import (
    PARTIAL_SUFFIX, PartialBuild, crash_point, provenance_attributes, write_database,
)
from tiersolve.databases.lifecycle import (
    KERNEL_BYTES, BuildRefused, BuildReport, BuildRun, check_work_dir, legal_start,
    memory_available, resident_bytes,
)
from tiersolve.databases.naming import default_path, default_reachable_path, human_bytes, plural
from tiersolve.games.base import Game
from tiersolve.jit import initialise_compiler
from tiersolve.solver import tiers
from tiersolve.solver.common import announced_if_slow, progress_bar
from tiersolve.values import VALUE_NAMES


def _kernels_marker(game: Game) -> Path:
    """A file in this version's kernel cache that says the solver kernels of ``game``
    (its label and record type) have been compiled into the cache."""
    from tiersolve.jit import CACHE_DIR

    return Path(CACHE_DIR) / f"compiled-{game.label()}-{tiers.records_type(game).name}"


def note_kernels_cached(game: Game) -> None:
    """Mark ``game``'s solver kernels as cached (``KernelCompile`` then skips them)."""
    try:
        _kernels_marker(game).touch()
    except OSError:
        pass


def compile_kernels(name: str, options: dict, claims: str) -> None:
    """The work of one of ``KernelCompile``'s children started afresh (not forked):
    ``take_compile_jobs`` for the game ``name`` with ``options``."""
    from tiersolve.games import make_game

    take_compile_jobs(make_game(name, **options), claims)


def take_compile_jobs(game: Game, claims: str) -> None:
    """Compile, into the cache, each job of ``tiers.compile_jobs(game)`` that no other
    process has claimed, in order. A job is claimed by creating its file in the
    folder ``claims``."""
    for job in tiers.compile_jobs(game):
        try:
            os.close(os.open(Path(claims) / job.replace(":", "-"),
                             os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:  # another process has it
            continue
        tiers.warm_up(game, job)


class _ForkedChild:
    """A child forked to run ``take_compile_jobs``, with the two methods of
    ``subprocess.Popen`` that ``KernelCompile`` uses."""

    def __init__(self, game: Game, claims: str) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:
            code = 1
            try:
                quiet = os.open(os.devnull, os.O_WRONLY)
                os.dup2(quiet, 1)
                os.dup2(quiet, 2)
                take_compile_jobs(game, claims)
                code = 0
            finally:
                os._exit(code)  # no exit handlers or buffers of the parent's
        self.code: int | None = None

    def wait(self) -> int:
        if self.code is None:
            self.code = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
        return self.code

    def kill(self) -> None:
        if self.code is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _may_fork() -> bool:
    """Whether compiling children may be forked from this process: only where fork
    exists and this process runs a single thread (forking copies no other thread,
    nor the locks they may hold)."""
    return hasattr(os, "fork") and threading.active_count() == 1


#: The most child processes that compile a game's kernels at once (each may take
#: hundreds of MB while it compiles).
MAX_COMPILERS = 4


class KernelCompile:
    """Compiles ``game``'s solver kernels into the cache in child processes, while
    this process goes on; nothing to do if the cache already holds them.

    Apart, because numba's compiler takes hundreds of MB for some games (Breakthrough
    4x4: 720 MB for a build that needs 198 MB once compiled), and that memory, freed
    or not, would be part of the build's peak and break its plan; the build then only
    loads the kernels. One child a core (up to MAX_COMPILERS), because compiling is
    single-threaded: the children take the jobs of ``tiers.compile_jobs`` in turn,
    and a helper function that one of them has compiled already comes to the others
    from the disk cache. If a child fails, the build compiles what is missing itself.
    The wait is announced on stderr once, in one line, if it lasts over a second."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.children: list[subprocess.Popen | _ForkedChild] = []
        self.claims: str | None = None
        self.began = time.perf_counter()
        self.seconds = 0.0
        if _kernels_marker(game).exists():
            return
        code = ("import json, sys; from tiersolve.databases.build import compile_kernels; "
                "compile_kernels(sys.argv[1], json.loads(sys.argv[2]), sys.argv[3])")
        count = max(1, min(len(tiers.compile_jobs(game)), os.cpu_count() or 1, MAX_COMPILERS))
        forking = _may_fork()
        if forking:  # numba's set-up, once here instead of in every child
            initialise_compiler()
        try:
            self.claims = tempfile.mkdtemp(prefix="tiersolve-compile-")
            for _ in range(count):
                self.children.append(_ForkedChild(game, self.claims) if forking else subprocess.Popen(
                    [sys.executable, "-c", code, game.name, json.dumps(game.options),
                     self.claims], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        except OSError:  # cannot start a process: the build compiles in-process
            self.cancel()

    def wait(self) -> float:
        """Wait for the children; returns the seconds since they started (0 if there
        was nothing to compile)."""
        if not self.children:
            return self.seconds
        with announced_if_slow(f"{self.game.describe()}: compiling its kernels, once for "
                               "this version of tiersolve", began=self.began):
            codes = [child.wait() for child in self.children]
        self.children = []
        self._forget_claims()
        self.seconds = time.perf_counter() - self.began
        if not any(codes):
            note_kernels_cached(self.game)
        return self.seconds

    def cancel(self) -> None:
        """Stop the children (the build ended before it needed the kernels)."""
        for child in self.children:
            child.kill()
            child.wait()
        self.children = []
        self._forget_claims()

    def _forget_claims(self) -> None:
        if self.claims is not None:
            shutil.rmtree(self.claims, ignore_errors=True)
            self.claims = None


def solver_name(game: Game) -> str:
    """Which kernels the game's tiers use, e.g. ``bottom-up`` or ``loopy (un-moves)``."""
    kinds = tiers.tier_kinds(game)
    names = []
    if kinds - {TierType.LOOPY}:
        names.append("bottom-up")
    if TierType.LOOPY in kinds:
        names.append("loopy (" + ("un-moves" if game.parents is not None else "value iteration") + ")")
    return " + ".join(names)


@dataclass(frozen=True)
class MemoryPlan:
    """The expected peak memory of a build, in bytes, and its parts."""

    solver: int      # tier arrays and records held at once (solver.tiers)
    writing: int     # buffers of the merge into the database file
    baseline: int    # the process itself: Python, numpy, numba, h5py, compiled kernels

    @property
    def total(self) -> int:
        return self.solver + self.writing + self.baseline


def memory_plan(game: Game, threads: int | None = None, budget: int | None = None) -> MemoryPlan:
    """The expected peak resident memory of building ``game`` (the figure ``--plan``
    prints and the memory check uses)."""
    solver = tiers.estimate_peak_bytes(game, threads, budget)
    largest_tier = int(max(game.tier_sizes, default=0))
    block = min(largest_tier, 1 << 22)
    # a merge block: records, values, remoteness and h5py's conversion buffers
    writing = block * (2 * tiers.records_type(game).itemsize + 3) + (8 << 20)
    # a tier kept on disk is read back whole (the partial file's records)
    return MemoryPlan(solver, writing, resident_bytes() + KERNEL_BYTES)


def plan_report(game: Game, threads: int | None = None) -> dict:
    """The plan as data: positions, tiers, solver and memory (``--plan --json``)."""
    needed = memory_plan(game, threads)
    report = {"game": game.name, "description": game.describe(), "options": dict(game.options),
              "positions": game.size, "tiers": game.tiers.count, "solver": solver_name(game),
              "planned_peak_bytes": needed.total, "planned_solver_bytes": needed.solver,
              "planned_baseline_bytes": needed.baseline,
              "memory_available_bytes": memory_available()}
    rate = game.measured_rate  # (positions a second, where measured), or None
    if rate:
        largest = int(np.argmax(game.tier_sizes))
        report.update(measured_rate=rate[0], measured_on=rate[1],
                      planned_seconds=game.size / rate[0], largest_tier=largest,
                      largest_tier_positions=int(game.tier_sizes[largest]))
    return report


def plan(game: Game, threads: int | None = None) -> str:
    """One line: how many positions, which solver, how much memory."""
    report = plan_report(game, threads)
    return (f"{game.describe()}: {plural(game.size, 'position')} in "
            f"{plural(game.tiers.count, 'tier')}, {report['solver']} solver, about "
            f"{human_bytes(report['planned_peak_bytes'])} of memory "
            f"({human_bytes(report['memory_available_bytes'])} available)"
            + (f", its largest tier {report['largest_tier_positions']:,} positions, about "
               f"{report['planned_seconds'] / 3600:,.1f} hours on one core at "
               f"{report['measured_rate'] / 1e6:.2f} M positions/s (measured on "
               f"{report['measured_on']})" if "planned_seconds" in report else ""))


def default_output(game: Game, out: str | os.PathLike | None, reachable: bool = False) -> Path:
    """The file a build writes: ``out``, else the game's default file (of a
    ``--reachable`` build if ``reachable``)."""
    if out is not None:
        return Path(out)
    if reachable:
        return default_reachable_path(game)
    return default_path(game)


def build_database(game: Game, path: str | os.PathLike | None = None, *, start: str | None = None,
                   threads: int | None = None, progress: bool = True, force: bool = False,
                   restart: bool = False, overwrite: bool = False, workers: int | None = None,
                   scheduler: str | None = None,
                   work_dir: str | os.PathLike | None = None,
                   worker_memory: int | None = None,
                   loopy_parts: int | None = None) -> BuildReport:
    """Solve ``game`` and write its database; returns the report.

    ``workers=N`` solves the tiers on a Dask LocalCluster of N processes, and
    ``scheduler`` ("tcp://HOST:PORT") on an existing Dask cluster
    (``databases/cluster.py``; ClusterError if that cannot be done); otherwise
    the tiers are solved in this process. ``work_dir`` holds ``<file>.partial/``
    instead of the database's folder (on a cluster: a folder every worker shares).
    On a cluster, a LOOPY tier too large for a worker (``worker_memory`` bytes, else
    the workers' own limit) is solved in parts across the workers; ``loopy_parts``
    splits every loopy tier into that many (``databases/split.py``).

    A database already at ``path`` is never silently replaced: if it holds the same
    game, options and start, nothing is built and the report says ``skipped``; any
    other file there raises BuildRefused. ``overwrite`` rebuilds in both cases.

    Solved tiers are kept in ``<path>.partial/`` as they are solved: a build that is
    interrupted resumes from them when called again with the same game and options
    (``restart`` discards them). Raises BuildRefused if the solve needs more memory
    than is available (unless ``force``) or the output or ``work_dir`` cannot be
    written, PartialBuildMismatch for a partial build of something else, ValueError
    for a bad start position, and KeyboardInterrupt (the tiers solved so far are
    kept)."""
    began = time.perf_counter()  # the total's clock, started before the compile's
    path = Path(path) if path is not None else default_path(game)
    on_cluster = workers is not None or scheduler is not None
    # The kernels compile while the start position, the file and the memory are
    # checked; a check that fails stops the compile (cluster workers compile their own,
    # and a file that may already hold the database is checked first).
    compiling = KernelCompile(game) if not on_cluster and (overwrite or not path.exists()) \
        else None
    try:
        return _build(game, path, start=start, threads=threads, progress=progress, force=force,
                      restart=restart, overwrite=overwrite, workers=workers,
                      scheduler=scheduler, work_dir=work_dir, compiling=compiling,
                      began=began, worker_memory=worker_memory, loopy_parts=loopy_parts)
    finally:
        if compiling is not None:
            compiling.cancel()


def _build(game: Game, path: Path, *, start: str | None, threads: int | None, progress: bool,
           force: bool, restart: bool, overwrite: bool, workers: int | None,
           scheduler: str | None, work_dir: str | os.PathLike | None,
           compiling: KernelCompile | None, began: float, worker_memory: int | None = None,
           loopy_parts: int | None = None) -> BuildReport:
    """``build_database``'s work, with the kernels perhaps compiling already (since
    ``began`` or later)."""
    threads_given = threads is not None
    threads = threads or os.cpu_count() or 1
    run = BuildRun(game, path, partial_directory(path, work_dir), work_dir_hint=True,
                   began=began)
    if work_dir is not None:
        check_work_dir(Path(work_dir))
    start_state = legal_start(game, start if start is not None else game.default_start())
    skipped = run.existing(overwrite, start=game.format(start_state))
    if skipped is not None:
        return skipped
    start_index = game.index(start_state)
    available = memory_available()
    needed = memory_plan(game, threads, available)
    on_cluster = workers is not None or scheduler is not None
    if on_cluster:
        from tiersolve.databases.cluster import check_cluster_options, solve_on_cluster

        check_cluster_options(workers, scheduler)
    if needed.total > available and not force and not on_cluster:  # workers check their own
        raise BuildRefused(f"{game.describe()} needs about {human_bytes(needed.total)} of memory "
                           f"but only {human_bytes(available)} is available; use --force to try anyway")
    with run:
        partial = PartialBuild(_partial_base(path, work_dir), game, tiers.records_type(game),
                               restart=restart)
        done = partial.done()
        called = time.perf_counter()
        writing = [0.0]

        def keep(tier: int, records: np.ndarray, counts: np.ndarray, longest: int) -> None:
            began = time.perf_counter()
            partial.save(tier, records, counts, longest)
            writing[0] += time.perf_counter() - began

        with run.guarded("keeping a solved tier"):
            if on_cluster:
                stats = solve_on_cluster(game, partial, workers=workers, scheduler=scheduler,
                                         threads=threads if threads_given else None,
                                         progress=progress, force=force,
                                         worker_memory=worker_memory, loopy_parts=loopy_parts)
            else:
                waiting = time.perf_counter()
                if len(done) < game.tiers.count:
                    compiling = compiling or KernelCompile(game)
                    compile_seconds = compiling.wait()
                else:  # resumed with every tier solved: only the file is left to write
                    compile_seconds = 0.0
                waited = time.perf_counter() - waiting
                stats = tiers.solve(game, threads=threads, progress=progress, sink=keep,
                                    done=done, load=partial.load,
                                    budget=None if force else available)
                # The compile began before this build's checks: the report counts all
                # of it, and the solve none of it.
                called += waited - compile_seconds
                stats.compile_seconds += compile_seconds
                note_kernels_cached(game)
        solving = time.perf_counter() - called - stats.compile_seconds - writing[0]
        counts = {VALUE_NAMES[code]: int(stats.counts[code]) for code in VALUE_NAMES}
        attributes = {
            "title": game.title,
            "description": game.describe(),
            "state_fields": game.state_fields,
            "solver": solver_name(game),
            "start_position": game.format(start_state),
            "max_remoteness": stats.max_remoteness,
            **{f"count_{name}": count for name, count in counts.items()},
            "compile_seconds": stats.compile_seconds,
            "solve_seconds": solving,
            "threads": threads,
            "resumed_tiers": len(done),
            **provenance_attributes(),
        }
        merging = time.perf_counter()
        attributes["build_seconds"] = 0.0  # both set just before the file is closed, below
        attributes["write_seconds"] = 0.0
        with run.guarded(f"writing {path}"):
            with progress_bar(game.size, f"writing {path.name}", progress) as bar:
                def step(count: int) -> None:
                    bar.update(count)
                    attributes["write_seconds"] = writing[0] + time.perf_counter() - merging
                    attributes["build_seconds"] = time.perf_counter() - run.began

                write_database(path, game, partial, stats.max_remoteness, attributes, step,
                               start_index=start_index)
        writing[0] += time.perf_counter() - merging
        start_value = attributes["start_value"]
        start_remoteness = None if attributes["start_remoteness"] < 0 else attributes["start_remoteness"]
        crash_point("after-rename")
        partial.discard()
    return run.report(
        description=game.describe(), positions=game.size, counts=counts,
        start=game.format(start_state), start_value=start_value,
        start_remoteness=start_remoteness, max_remoteness=stats.max_remoteness,
        solver=attributes["solver"], threads=threads, compile_seconds=stats.compile_seconds,
        solve_seconds=solving, write_seconds=writing[0],
        solver_peak_bytes=int(stats.peak_bytes), planned_peak_bytes=needed.total,
        resumed_tiers=len(done), split_tiers=stats.split_tiers,
        **_largest_tier(game, stats.tier_seconds))


def _partial_base(path: Path, work_dir: str | os.PathLike | None) -> Path:
    """The database path a build's partial folder is named after (in ``work_dir``
    if given)."""
    return Path(work_dir) / path.name if work_dir is not None else path


def partial_directory(path: Path, work_dir: str | os.PathLike | None = None) -> Path:
    """Where a build of ``path`` keeps its solved tiers: ``<path>.partial/``."""
    base = _partial_base(path, work_dir)
    return base.with_name(base.name + PARTIAL_SUFFIX)


def _largest_tier(game: Game, seconds: dict[int, float]) -> dict:
    if not seconds:
        return {}
    tier = max(seconds, key=lambda t: (int(game.tier_sizes[t]), -t))
    key = game.tiers.keys[tier]
    return {"largest_tier": f"{tier} {tuple(key)}" if len(key) else str(tier),
            "largest_tier_seconds": seconds[tier]}
