"""The life cycle every build shares, full or ``--reachable``: the output is checked
before any work, a database already there is kept or refused, a lock keeps two builds
off one file, what a killed build left is tidied, a full disk is explained in one
line, and the report counts time and peak memory from the process's own figures.

    >>> from tiersolve.games import make_game
    >>> run = BuildRun(make_game("1210"), "1210.h5", Path("1210.h5.partial"))
    >>> run.existing(overwrite=False, start="(L 0)") is None   # no file there yet
    True
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import resource
import shutil
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterator

import numpy as np

from tiersolve.databases.naming import human_bytes, plural
from tiersolve.errors import TiersolveError
from tiersolve.games.base import Game
from tiersolve.solver import tiers
from tiersolve.values import ILLEGAL

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
    split_tiers: list = field(default_factory=list)  # loopy tiers solved in parts (a cluster build)
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
    refusal = _write_refusal(existing)
    if refusal is not None:
        raise BuildRefused(refusal)
    if path.exists() and not os.access(path, os.W_OK):
        raise BuildRefused(f"cannot overwrite {path}: permission denied")


def check_work_dir(folder: Path) -> None:
    """Refuse, before any solving, a ``--work-dir`` that cannot hold the solved tiers:
    a file, a place below a file, or a folder (or, if it is missing, the nearest one
    that exists, where it would be made) in which no file can be created."""
    if folder.is_file():
        raise BuildRefused(f"--work-dir {folder} is a file, not a folder")
    existing = next((place for place in (folder, *folder.parents) if place.exists()), Path("."))
    if not existing.is_dir():
        raise BuildRefused(f"--work-dir {folder} cannot be made: {existing} is a file, not a "
                           "folder")
    refusal = _write_refusal(existing)
    if refusal is not None:
        raise BuildRefused(f"--work-dir {folder}: {refusal}")


def _write_refusal(folder: Path) -> str | None:
    """Why no file can be created in the existing ``folder`` (``cannot write to
    FOLDER: reason``), or None if one can."""
    try:  # os.access is not enough: root passes it, and /sys or /proc still refuse
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".tiersolve-probe-"):
            pass
    except OSError as error:
        if error.errno == errno.ENOENT and folder.is_dir():
            # the folder is there: its file system takes no new files (/proc), and
            # "no such file or directory" would send the user looking for it
            kind = _file_system(folder)
            return (f"cannot write to {folder}: files cannot be created there"
                    + (f" (a {kind} file system)" if kind else ""))
        return f"cannot write to {folder}: {_reason(error)}"
    return None


def _file_system(folder: Path) -> str | None:
    """The type of the file system ``folder`` is on (``proc``), where the system
    says (Linux's ``/proc/self/mounts``), else None."""
    try:
        with open("/proc/self/mounts") as mounts:
            table = [line.split() for line in mounts]
    except OSError:
        return None
    place = os.path.realpath(folder)
    best = None
    for fields in table:
        if len(fields) < 3:
            continue
        # spaces and the like are written as octal escapes (\040)
        point = re.sub(r"\\([0-7]{3})", lambda code: chr(int(code[1], 8)), fields[1])
        inside = place == point or place.startswith(point.rstrip("/") + "/")
        if inside and (best is None or len(point) >= len(best[0])):
            best = (point, fields[2])
    return best[1] if best else None


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
    kept = leftover if leftover is not None and leftover.exists() else None
    return BuildReport(
        game=game.name, description=info.description, path=str(path), positions=info.positions,
        counts=info.counts, start=info.start, start_value=info.start_value,
        start_remoteness=info.start_remoteness, max_remoteness=info.max_remoteness,
        solver=info.solver, threads=info.threads,
        # nothing was compiled, solved or written: the file's own build is in its
        # metadata (info), not in this call's figures
        compile_seconds=0.0, solve_seconds=0.0, write_seconds=0.0, total_seconds=0.0,
        file_bytes=info.file_bytes, solver_peak_bytes=0, planned_peak_bytes=0, peak_rss_bytes=0,
        tiers=info.tiers, resumed_tiers=0, options=dict(game.options), skipped=True,
        leftover=str(kept) if kept else "", leftover_bytes=folder_bytes(kept) if kept else 0)


def folder_bytes(folder: Path) -> int:
    """The bytes of the files in ``folder`` and below."""
    return sum(entry.stat().st_size for entry in folder.rglob("*") if entry.is_file())




class BuildRun:
    """One build of ``game`` into ``path``, the steps every builder takes in order:

    1. ``BuildRun(...)`` refuses an output that cannot be written, before any work;
    2. ``existing(overwrite, ...)`` gives the report of the same database already
       there (nothing to do), refuses another one, or gives None: build it;
    3. ``with run:`` makes the folder, takes the build lock, measures peak memory
       from here on, and tidies what a killed build of the file left;
    4. ``with run.guarded("writing the file"):`` turns a full disk into one line that
       says how much room the build needs where (``work_folder`` holds the build's
       kept work, which survives it);
    5. ``report(...)`` adds what every build reports (time, file size, peak memory)
       to what the builder solved.
    """

    def __init__(self, game: Game, path: str | os.PathLike, work_folder: Path, *,
                 work_dir_hint: bool = False, began: float | None = None) -> None:
        # ``began``: when the build began, if before this (its kernels may have started
        # compiling first): the total is counted on the same clock as its parts
        self.began = time.perf_counter() if began is None else began
        self.game = game
        self.path = Path(path)
        self.work_folder = work_folder
        self.work_dir_hint = work_dir_hint
        self._lock: _BuildLock | None = None
        self._peak: PeakMemory | None = None
        check_output(self.path)

    def existing(self, overwrite: bool, *, start: str | None = None,
                 starts: list[str] | None = None) -> BuildReport | None:
        """The report of the database already at ``path`` if it is what this build
        would write (``existing_report``: BuildRefused if it is another), or None when
        there is none or ``overwrite`` rebuilds it."""
        if overwrite or not self.path.exists():
            return None
        tidy_finished_build(self.path, self.work_folder)
        report = existing_report(self.path, self.game, start=start, starts=starts,
                                 leftover=self.work_folder)
        report.total_seconds = time.perf_counter() - self.began
        return report

    def __enter__(self) -> "BuildRun":
        make_folder(self.path)
        self._lock = _BuildLock(self.path)
        self._peak = PeakMemory()
        try:
            tidy_finished_build(self.path, self.work_folder, self._lock)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        if self._peak is not None:
            self._peak.stop()

    def guarded(self, what: str):
        """A block in which a full disk raises DiskFull, naming ``what`` failed."""
        return disk_full_explained(self.game, self.path, self.work_folder, what,
                                   work_dir_hint=self.work_dir_hint)

    def report(self, **solved) -> BuildReport:
        """The build's report: what the builder gives in ``solved`` (positions, counts,
        start, timings...) and the game, file, total time and peak memory."""
        return BuildReport(game=self.game.name, path=str(self.path),
                           total_seconds=time.perf_counter() - self.began,
                           file_bytes=self.path.stat().st_size,
                           peak_rss_bytes=self._peak.bytes if self._peak is not None else 0,
                           tiers=self.game.tiers.count, options=dict(self.game.options), **solved)
