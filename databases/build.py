"""Build a database: check the output and memory, solve tier by tier (resumably),
merge the tiers into the HDF5 file, report.

>>> from tiersolve.games import make_game
>>> from tiersolve.databases.build import build_database
>>> report = build_database(make_game("1210"), "1210.h5", progress=False)  # doctest: +SKIP
>>> report.summary_line()                                                        # doctest: +SKIP
'1210: 22 positions (win 14, lose 8, tie 0, draw 0; illegal 0) · start (L 0) win in 7 · ...'
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import numpy as np

from tiersolve.databases.format import (PARTIAL_SUFFIX, PartialBuild, crash_point,
                                         provenance_attributes, write_database)
from tiersolve.databases.reader import default_path
from tiersolve.errors import TiersolveError
from tiersolve.games.base import Game
from tiersolve.solver import tiers
from tiersolve.solver.common import TierType, progress_bar
from tiersolve.solver.values import ILLEGAL, VALUE_NAMES

if TYPE_CHECKING:
    from tiersolve.databases.reader import Database

#: What the process holds besides the solver's arrays once the kernels are loaded
#: (numba, LLVM and the compiled kernels; measured: see docs/DECISIONS.md).
KERNEL_BYTES = 30 << 20


class BuildRefused(TiersolveError):
    """The build cannot start: it would not fit in memory (and was not forced), or
    its output cannot be written."""


class DiskFull(BuildRefused):
    """The disk filled up while the build kept its tiers or wrote the database."""


@dataclass
class BuildReport:
    """What a build did; ``summary_line()`` for people, ``asdict`` for machines."""

    game: str
    description: str
    path: str
    positions: int
    counts: dict[str, int]
    start: str
    start_value: str
    start_remoteness: int | None
    max_remoteness: int
    solver: str
    threads: int
    compile_seconds: float
    solve_seconds: float
    write_seconds: float
    total_seconds: float
    file_bytes: int
    solver_peak_bytes: int
    planned_peak_bytes: int
    peak_rss_bytes: int
    tiers: int
    resumed_tiers: int
    largest_tier: str = ""               # the largest tier solved in this run
    largest_tier_seconds: float = 0.0    # and how long it took
    options: dict = field(default_factory=dict)
    skipped: bool = False                # an identical database existed: nothing was built
    leftover: str = ""                   # then, the folder an interrupted rebuild kept
    leftover_bytes: int = 0

    def summary_line(self) -> str:
        counts = ", ".join(f"{name} {self.counts[name]:,}" for name in ("win", "lose", "tie", "draw"))
        start = f"{self.start_value}" + ("" if self.start_remoteness is None
                                         else f" in {self.start_remoteness}")
        images = self.counts.get("noncanonical", 0)
        symmetry = (f"; noncanonical {images:,}, left to their symmetric representatives"
                    if images else "")
        resumed = f" · resumed {self.resumed_tiers} of {self.tiers} tiers" if self.resumed_tiers else ""
        if self.skipped:
            kept = (f"; {self.leftover} ({human_bytes(self.leftover_bytes)}) holds an interrupted "
                    "rebuild, which --overwrite resumes (delete that folder if it is not wanted)"
                    if self.leftover else "")
            return (f"{self.path} already holds {self.description} ({plural(self.positions, 'position')}, "
                    f"start {self.start} {start}): nothing to do; --overwrite rebuilds it{kept}")
        return (f"{self.description}: {plural(self.positions, 'position')} ({counts}; illegal "
                f"{self.counts['illegal']:,}{symmetry}) · start {self.start} {start} · "
                f"{self.total_seconds:.1f} s (compile {self.compile_seconds:.1f}, solve "
                f"{self.solve_seconds:.1f}, write {self.write_seconds:.1f}){resumed} · peak memory "
                f"{human_bytes(self.peak_rss_bytes)} · {human_bytes(self.file_bytes)} → {self.path}")

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2)


def plural(count: int, noun: str) -> str:
    """``plural(1, "position")`` -> '1 position'; 2 -> '2 positions' (thousands separated)."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def human_bytes(count: float) -> str:
    """1536 -> '1.5 KB'."""
    for unit in ("B", "KB", "MB", "GB", "TB", "PB"):
        if count < 1024 or unit == "PB":
            break
        count /= 1024
    return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"


def memory_available() -> int:
    """Bytes of memory available to a new allocation (MemAvailable on Linux)."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES")


def resident_bytes() -> int:
    """The resident memory of this process now."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class CompileTimer:
    """How long numba compiles while a block runs (loading kernels from its cache does
    not count): ``with CompileTimer() as compiling: ...``, then ``compiling.seconds``.
    For solvers whose kernels compile on first use, inside the solve, so that a
    report does not count compiling as solving."""

    def __enter__(self) -> "CompileTimer":
        from numba.core import event

        self._listener = event.TimingListener()
        self._installed = event.install_listener("numba:compile", self._listener)
        self._installed.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._installed.__exit__(*exc)

    @property
    def seconds(self) -> float:
        return self._listener.duration if self._listener.done else 0.0


def _kernels_marker(game: Game) -> Path:
    """A file in this version's kernel cache that says the solver kernels of ``game``
    (its label and record type) have been compiled into the cache."""
    from tiersolve.solver.jit import CACHE_DIR

    return Path(CACHE_DIR) / f"compiled-{game.label()}-{tiers.records_type(game).name}"


def note_kernels_cached(game: Game) -> None:
    """Mark ``game``'s solver kernels as cached (``compile_apart`` then skips them)."""
    try:
        _kernels_marker(game).touch()
    except OSError:
        pass


def compile_kernels(name: str, options: dict) -> None:
    """Compile the solver kernels of a game into the cache (``compile_apart``'s child)."""
    from tiersolve.games import make_game

    game = make_game(name, **options)
    tiers.warm_up(game)
    note_kernels_cached(game)


def compile_apart(game: Game, progress: bool) -> float:
    """Compile ``game``'s solver kernels in a child process, unless this kernel cache
    already holds them; returns the seconds it took. numba's compiler takes hundreds
    of MB for some games (Breakthrough 4x4: 720 MB for a build that needs 198 MB
    once compiled), and that memory, freed or not, would be part of the build's peak
    and break its plan; the build itself then only loads the kernels. If the child
    cannot run, the build compiles them itself, as before."""
    if _kernels_marker(game).exists():
        return 0.0
    began = time.perf_counter()
    code = ("import json, sys; from tiersolve.databases.build import compile_kernels; "
            "compile_kernels(sys.argv[1], json.loads(sys.argv[2]))")
    from tiersolve.solver.common import announced

    with announced(f"{game.name}: compiling the numba kernels, once for this version", progress):
        try:
            subprocess.run([sys.executable, "-c", code, game.name, json.dumps(game.options)],
                           check=True, capture_output=True, timeout=24 * 3600)
        except (OSError, subprocess.SubprocessError):
            return 0.0
    return time.perf_counter() - began


def solver_name(game: Game) -> str:
    """Which kernels the game's tiers use, e.g. ``bottom-up`` or ``loopy (un-moves)``."""
    kinds = {tiers.tier_type(game, t) for t in range(game.tiers.count)}
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
    return {"game": game.name, "description": game.describe(), "options": dict(game.options),
            "positions": game.size, "tiers": game.tiers.count, "solver": solver_name(game),
            "planned_peak_bytes": needed.total, "planned_solver_bytes": needed.solver,
            "planned_baseline_bytes": needed.baseline, "memory_available_bytes": memory_available()}


def plan(game: Game, threads: int | None = None) -> str:
    """One line: how many positions, which solver, how much memory."""
    report = plan_report(game, threads)
    return (f"{game.describe()}: {plural(game.size, 'position')} in "
            f"{plural(game.tiers.count, 'tier')}, {report['solver']} solver, about "
            f"{human_bytes(report['planned_peak_bytes'])} of memory "
            f"({human_bytes(report['memory_available_bytes'])} available)")


def default_output(game: Game, out: str | os.PathLike | None, reachable: bool = False) -> Path:
    """The file a build writes: ``out``, else the game's default file (of a
    ``--reachable`` build if ``reachable``)."""
    if out is not None:
        return Path(out)
    if reachable:
        from tiersolve.databases.reachable import default_reachable_path

        return default_reachable_path(game)
    return default_path(game)


def check_output(path: Path) -> None:
    """Refuse, before any solving, an output that cannot or must not be written: a
    folder, anything but a regular file (a device, a pipe), a place more than one
    missing folder below an existing one, or one this process cannot write to."""
    if str(path) in ("", "."):
        raise BuildRefused("--out needs a file name, e.g. --out db/game.h5")
    if path.is_dir():
        raise BuildRefused(f"--out {path} is a directory; give a file name inside it, "
                           f"e.g. {path / 'game.h5'}")
    if path.exists() and not path.is_file():
        raise BuildRefused(f"--out {path} is not a regular file (a device, pipe or socket); "
                           "give the name of a database file")
    parent = path.parent if str(path.parent) else Path(".")
    existing = parent if parent.exists() else parent.parent
    if not existing.exists():
        raise BuildRefused(f"the folder {parent} does not exist and neither does {existing}; "
                           f"create it first (mkdir -p {parent}), or choose another --out")
    if not existing.is_dir():
        raise BuildRefused(f"cannot create {parent}: {existing} is not a directory")
    try:  # os.access is not enough: root passes it, and /sys or /proc still refuse
        with tempfile.NamedTemporaryFile(dir=existing, prefix=".tiersolve-probe-"):
            pass
    except OSError as error:
        raise BuildRefused(f"cannot write to {existing}: {_reason(error)}") from None
    if path.exists() and not os.access(path, os.W_OK):
        raise BuildRefused(f"cannot overwrite {path}: permission denied")


def _reason(error: OSError) -> str:
    """An OSError's reason in a few words, e.g. 'permission denied'."""
    return (error.strerror or str(error)).lower()


def make_folder(path: Path) -> None:
    """Create the database's folder if it is missing (``check_output`` allowed at most
    one level); BuildRefused if that fails."""
    try:
        path.parent.mkdir(exist_ok=True)
    except OSError as error:
        raise BuildRefused(f"cannot create {path.parent}: {_reason(error)}") from None


def legal_start(game: Game, text: str) -> np.ndarray:
    """The state of a start position; ValueError if it is not a legal position."""
    state = game.parse(text)
    reason = game.unreachable_reason(state)
    if reason is None and game.primitive_value(state) == ILLEGAL:
        reason = game.explain_illegal(state)
    if reason is not None:
        raise ValueError(f"start {text!r} is not a legal position: {reason}")
    return state


class _BuildLock:
    """An exclusive lock on ``<database>.lock``, so two builds never write one file.

    The file is removed when the lock is released; a build that opened it just
    before checks, once it holds the lock, that the name still leads to the file it
    locked (else it locks the new one), so two builds never hold two locks."""

    def __init__(self, path: Path, wait: bool = True) -> None:
        self.path = path.with_name(path.name + ".lock")
        while True:
            try:
                self.handle = open(self.path, "a")
            except OSError as error:
                raise BuildRefused(f"cannot write {self.path}: {_reason(error)}") from None
            try:
                fcntl.flock(self.handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                self.handle.close()
                raise BuildRefused(f"another build is writing {path} (it holds {self.path}); "
                                   "wait for it to finish") from None
            try:
                if os.stat(self.path).st_ino == os.fstat(self.handle.fileno()).st_ino:
                    return
            except FileNotFoundError:
                pass
            self.handle.close()  # removed by the build that held it: lock the new one

    def release(self) -> None:
        self.path.unlink(missing_ok=True)  # before unlocking, so no one locks a removed file
        fcntl.flock(self.handle, fcntl.LOCK_UN)
        self.handle.close()


def tidy_finished_build(path: Path, folder: Path, lock: "_BuildLock | None" = None) -> None:
    """Remove what a build of ``path`` killed after its final rename left: its work
    ``folder`` once that folder's marker names the complete file at ``path`` (the
    file's ``build_id``), its ``.tmp`` file, and its lock file. Needs the build lock:
    ``lock``, or one taken here (if another build holds it, nothing is touched)."""
    from tiersolve.databases.format import MERGED_MARKER
    from tiersolve.databases.reader import Database

    own = lock is None
    if own:
        try:
            lock = _BuildLock(path)
        except BuildRefused:
            return
    try:
        path.with_name(path.name + ".tmp").unlink(missing_ok=True)
        marker = folder / MERGED_MARKER
        if marker.is_file() and path.is_file():
            try:
                with Database(path) as db:
                    finished = db.attributes.get("build_id") == marker.read_text().strip()
            except (TiersolveError, OSError):
                finished = False
            if finished:
                shutil.rmtree(folder, ignore_errors=True)
    finally:
        if own:
            lock.release()


def is_disk_full(error: BaseException) -> bool:
    """Whether ``error`` says the disk (or the user's quota) is full: an OSError with
    errno ENOSPC or EDQUOT, HDF5's report of one, or numpy's short write."""
    if not isinstance(error, OSError):
        return False
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    text = str(error)
    return ("No space left on device" in text or "errno = 28" in text
            or ("requested and" in text and "written" in text))


#: What an HDF5 file takes besides its data, at most, for the room a build asks for:
#: its superblock, object headers and chunk indexes, and the page a filesystem rounds
#: it up to.
FILE_OVERHEAD_BYTES = 8 << 10


@contextmanager
def disk_full_explained(game: Game, path: Path, work_folder: Path, what: str,
                        work_dir_hint: bool = False) -> Iterator[None]:
    """Turn a full disk inside the block into DiskFull: one line saying how much room
    the build needs and where (its kept tiers in ``work_folder``, the database at
    ``path``), and, if ``work_dir_hint``, that ``--work-dir`` puts the tiers elsewhere."""
    try:
        yield
    except OSError as error:
        if not is_disk_full(error):
            raise
        records = tiers.records_type(game).itemsize
        # uncompressed, plus HDF5's own blocks and a filesystem's page of each file
        tiers_room = game.size * records + game.tiers.count * FILE_OVERHEAD_BYTES
        file_room = game.size * (1 + records) + 16 * FILE_OVERHEAD_BYTES
        hint = (", or keep the solved tiers on another disk with --work-dir DIR"
                if work_dir_hint else "")
        raise DiskFull(
            f"the disk is full: {what} failed. This build needs up to "
            f"{human_bytes(tiers_room)} for its solved tiers in {work_folder} "
            f"({human_bytes(_free_bytes(work_folder))} free) and up to {human_bytes(file_room)} "
            f"for the database in {path.parent} ({human_bytes(_free_bytes(path))} free); the "
            f"tiers solved so far are kept: free some space and run the same command again"
            f"{hint}") from None


def _free_bytes(place: Path) -> int:
    """Free bytes on the disk holding ``place`` (or the nearest folder that exists)."""
    for folder in (place, *place.parents):
        if folder.exists():
            try:
                return shutil.disk_usage(folder).free
            except OSError:
                return 0
    return 0


class PeakMemory:
    """The peak resident memory of this process from its creation on, not
    ``ru_maxrss``, which a process inherits from whatever forked it.

    On Linux it resets the kernel's high-water mark (writing 5 to
    ``/proc/self/clear_refs``) and reads ``VmHWM`` from ``/proc/self/status``: exact,
    and free. Where that cannot be done, a thread samples the resident memory every
    20 ms (a peak shorter than that may be missed). docs/DECISIONS.md."""

    def __init__(self) -> None:
        self._sampled = resident_bytes()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        try:
            with open("/proc/self/clear_refs", "w") as clear:
                clear.write("5")
            self._exact = _high_water_mark() is not None
        except OSError:
            self._exact = False
        if not self._exact:
            self._thread = threading.Thread(target=self._sample, daemon=True,
                                            name="tiersolve-peak-memory")
            self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.02):
            self._sampled = max(self._sampled, resident_bytes())

    def stop(self) -> None:
        """Stop sampling (the peak so far stays readable)."""
        self._stop.set()

    @property
    def bytes(self) -> int:
        """The peak so far."""
        if self._exact:
            return _high_water_mark() or 0
        return max(self._sampled, resident_bytes())


def _high_water_mark() -> int | None:
    """``VmHWM`` of this process in bytes, or None if the kernel does not say."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def build_database(game: Game, path: str | os.PathLike | None = None, *, start: str | None = None,
                   threads: int | None = None, progress: bool = True, force: bool = False,
                   restart: bool = False, overwrite: bool = False, workers: int | None = None,
                   scheduler: str | None = None,
                   work_dir: str | os.PathLike | None = None) -> BuildReport:
    """Solve ``game`` and write its database; returns the report.

    ``workers=N`` solves the tiers on a Dask LocalCluster of N processes, and
    ``scheduler`` ("tcp://HOST:PORT") on an existing Dask cluster
    (``solver/cluster.py``; ClusterError if that cannot be done); otherwise
    the tiers are solved in this process. ``work_dir`` holds ``<file>.partial/``
    instead of the database's folder (on a cluster: a folder every worker shares).

    A database already at ``path`` is never silently replaced: if it holds the same
    game, options and start, nothing is built and the report says ``skipped``; any
    other file there raises BuildRefused. ``overwrite`` rebuilds in both cases.

    Solved tiers are kept in ``<path>.partial/`` as they are solved: a build that is
    interrupted resumes from them when called again with the same game and options
    (``restart`` discards them). Raises BuildRefused if the solve needs more memory
    than is available (unless ``force``) or the output cannot be written,
    PartialBuildMismatch for a partial build of something else, ValueError for a bad
    start position, and KeyboardInterrupt (the tiers solved so far are kept)."""
    begun = time.perf_counter()
    threads_given = threads is not None
    threads = threads or os.cpu_count() or 1
    path = Path(path) if path is not None else default_path(game)
    check_output(path)
    start_state = legal_start(game, start if start is not None else game.default_start())
    partial_folder = partial_directory(path, work_dir)
    if path.exists() and not overwrite:
        tidy_finished_build(path, partial_folder)
        return existing_report(path, game, start=game.format(start_state), leftover=partial_folder)
    start_index = game.index(start_state)
    available = memory_available()
    needed = memory_plan(game, threads, available)
    on_cluster = workers is not None or scheduler is not None
    if on_cluster:
        from tiersolve.solver.cluster import check_cluster_options, solve_on_cluster

        check_cluster_options(workers, scheduler)
    if needed.total > available and not force and not on_cluster:  # workers check their own
        raise BuildRefused(f"{game.describe()} needs about {human_bytes(needed.total)} of memory "
                           f"but only {human_bytes(available)} is available; use --force to try anyway")
    make_folder(path)
    lock = _BuildLock(path)
    peak = PeakMemory()
    try:
        tidy_finished_build(path, partial_folder, lock)
        partial = PartialBuild(_partial_base(path, work_dir), game, tiers.records_type(game),
                               restart=restart)
        done = partial.done()
        called = time.perf_counter()
        writing = [0.0]

        def keep(tier: int, records: np.ndarray, counts: np.ndarray, longest: int) -> None:
            began = time.perf_counter()
            partial.save(tier, records, counts, longest)
            writing[0] += time.perf_counter() - began

        with disk_full_explained(game, path, partial.directory, "keeping a solved tier",
                                 work_dir_hint=True):
            if on_cluster:
                stats = solve_on_cluster(game, partial, workers=workers, scheduler=scheduler,
                                         threads=threads if threads_given else None,
                                         progress=progress, force=force)
            else:
                compiling = compile_apart(game, progress) if len(done) < game.tiers.count else 0.0
                stats = tiers.solve(game, threads=threads, progress=progress, sink=keep,
                                    done=done, load=partial.load,
                                    budget=None if force else available)
                stats.compile_seconds += compiling
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
        with disk_full_explained(game, path, partial.directory, f"writing {path}",
                                 work_dir_hint=True):
            with progress_bar(game.size, f"writing {path.name}", progress) as bar:
                def step(count: int) -> None:
                    bar.update(count)
                    attributes["write_seconds"] = writing[0] + time.perf_counter() - merging
                    attributes["build_seconds"] = time.perf_counter() - begun

                write_database(path, game, partial, stats.max_remoteness, attributes, step,
                               start_index=start_index)
        writing[0] += time.perf_counter() - merging
        start_value = attributes["start_value"]
        start_remoteness = None if attributes["start_remoteness"] < 0 else attributes["start_remoteness"]
        crash_point("after-rename")
        partial.discard()
    finally:
        lock.release()
        peak.stop()
    return BuildReport(
        game=game.name, description=game.describe(), path=str(path), positions=game.size,
        counts=counts, start=game.format(start_state), start_value=start_value,
        start_remoteness=start_remoteness, max_remoteness=stats.max_remoteness,
        solver=attributes["solver"], threads=threads, compile_seconds=stats.compile_seconds,
        solve_seconds=solving, write_seconds=writing[0],
        total_seconds=time.perf_counter() - begun, file_bytes=path.stat().st_size,
        solver_peak_bytes=int(stats.peak_bytes), planned_peak_bytes=needed.total,
        peak_rss_bytes=peak.bytes,
        tiers=game.tiers.count, resumed_tiers=len(done), options=dict(game.options),
        **_largest_tier(game, stats.tier_seconds))


def _partial_base(path: Path, work_dir: str | os.PathLike | None) -> Path:
    """The database path a build's partial folder is named after (in ``work_dir``
    if given)."""
    return Path(work_dir) / path.name if work_dir is not None else path


def partial_directory(path: Path, work_dir: str | os.PathLike | None = None) -> Path:
    """Where a build of ``path`` keeps its solved tiers: ``<path>.partial/``."""
    base = _partial_base(path, work_dir)
    return base.with_name(base.name + PARTIAL_SUFFIX)


def existing_report(path: Path, game: Game, *, start: str | None = None,
                    starts: list[str] | None = None, leftover: Path | None = None) -> BuildReport:
    """The report of the complete database at ``path`` (``skipped`` set) when it is
    what this build would write: this game and options, and the same ``start`` (a
    full build) or ``starts`` (a ``--reachable`` build). Otherwise BuildRefused,
    saying what differs. ``leftover``: the folder an interrupted build of the same
    file would have kept, which the report then names."""
    from tiersolve.databases.reader import Database
    from tiersolve.errors import DatabaseMismatchError

    advice = "use --overwrite to replace it, or another --out"
    try:
        db = Database(path)
    except DatabaseMismatchError:
        raise BuildRefused(f"{path} already exists and holds a database of another version of "
                           f"tiersolve; {advice}") from None
    except (TiersolveError, OSError, KeyError):
        raise BuildRefused(f"{path} already exists and is not a readable tiersolve database; "
                           f"{advice}") from None
    with db:
        held = db.reachable_from
        if (db.game.name, db.game.options) != (game.name, game.options):
            difference = f"{db.game.describe()}, not {game.describe()}"
        elif starts is None and held is not None:
            difference = (f"only the positions reachable from {', '.join(held)}, not every "
                          "position")
        elif starts is not None and held is None:
            difference = (f"every position, not only those reachable from {', '.join(starts)}")
        elif starts is not None and held != starts:
            difference = (f"the positions reachable from {', '.join(held)}, not from "
                          f"{', '.join(starts)}")
        elif starts is None and db.start != start:
            difference = f"{game.describe()} with the start {db.start}, not {start}"
        else:
            difference = None
        if difference is not None:
            raise BuildRefused(f"{path} already holds {difference}; {advice}")
        info = db.info()
        attrs = db.attributes
    kept = leftover if leftover is not None and leftover.exists() else None
    return BuildReport(
        game=game.name, description=info.description, path=str(path), positions=info.positions,
        counts=info.counts, start=info.start, start_value=info.start_value,
        start_remoteness=info.start_remoteness, max_remoteness=info.max_remoteness,
        solver=info.solver, threads=info.threads,
        compile_seconds=float(attrs.get("compile_seconds", 0.0)),
        solve_seconds=float(attrs.get("solve_seconds", 0.0)),
        write_seconds=float(attrs.get("write_seconds", 0.0)), total_seconds=0.0,
        file_bytes=info.file_bytes, solver_peak_bytes=0, planned_peak_bytes=0, peak_rss_bytes=0,
        tiers=info.tiers, resumed_tiers=0, options=dict(game.options), skipped=True,
        leftover=str(kept) if kept else "", leftover_bytes=folder_bytes(kept) if kept else 0)


def folder_bytes(folder: Path) -> int:
    """The bytes of the files in ``folder`` and below."""
    return sum(entry.stat().st_size for entry in folder.rglob("*") if entry.is_file())


def _largest_tier(game: Game, seconds: dict[int, float]) -> dict:
    if not seconds:
        return {}
    tier = max(seconds, key=lambda t: (int(game.tier_sizes[t]), -t))
    key = game.tiers.keys[tier]
    return {"largest_tier": f"{tier} {tuple(key)}" if len(key) else str(tier),
            "largest_tier_seconds": seconds[tier]}
