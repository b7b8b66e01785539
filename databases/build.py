"""Build a database: check memory, solve, write the HDF5 file, report.

>>> from games import make_game
>>> from databases.build import build_database
>>> report = build_database(make_game("1210"), "/tmp/1210.h5", progress=False)  # doctest: +SKIP
>>> report.summary_line()                                                        # doctest: +SKIP
'1210: 22 positions (win 14, lose 8, tie 0, draw 0) · start (L 0) win in 7 · ...'
"""

from __future__ import annotations

import json
import os
import platform
import resource
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

import h5py
import numba
import numpy as np

from databases.format import DatabaseWriter
from databases.reader import default_path
from games.base import Game
from solver import bottom_up, retrograde
from solver.jit import source_fingerprint
from solver.values import ILLEGAL, VALUE_NAMES


class BuildRefused(ValueError):
    """The build would not fit in memory (and was not forced)."""


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
    peak_rss_bytes: int
    options: dict = field(default_factory=dict)

    def summary_line(self) -> str:
        counts = ", ".join(f"{name} {self.counts[name]:,}" for name in ("win", "lose", "tie", "draw"))
        start = f"{self.start_value}" + ("" if self.start_remoteness is None
                                         else f" in {self.start_remoteness}")
        images = self.counts.get("noncanonical", 0)
        symmetry = (f" · symmetry: {self.positions - images:,} of the indices stored, "
                    f"{images / self.positions:.0%} saved") if images else ""
        return (f"{self.description}: {self.positions:,} positions ({counts}; illegal "
                f"{self.counts['illegal']:,}){symmetry} · start {self.start} {start} · "
                f"{self.total_seconds:.1f} s (compile {self.compile_seconds:.1f}, solve "
                f"{self.solve_seconds:.1f}, write {self.write_seconds:.1f}) · peak memory {human_bytes(self.peak_rss_bytes)} · "
                f"{human_bytes(self.file_bytes)} → {self.path}")

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2)


def human_bytes(count: float) -> str:
    """1536 -> '1.5 KB'."""
    for unit in ("B", "KB", "MB", "GB"):
        if count < 1024 or unit == "GB":
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


def solver_for(game: Game):
    """The solver module for a game: retrograde with cycles, else bottom-up."""
    return retrograde if game.loopy else bottom_up


def memory_needed(game: Game) -> int:
    """Bytes the solver will hold at its peak."""
    return solver_for(game).estimate_peak_bytes(game)


def plan(game: Game) -> str:
    """One line: how many positions, which solver, how much memory."""
    return (f"{game.describe()}: {game.size:,} positions in {game.tiers.count} tier"
            f"{'s' if game.tiers.count != 1 else ''}, {'retrograde' if game.loopy else 'bottom-up'} "
            f"solver, about {human_bytes(memory_needed(game))} of memory "
            f"({human_bytes(memory_available())} available)")


def build_database(game: Game, path: str | os.PathLike | None = None, *, start: str | None = None,
                   threads: int | None = None, progress: bool = True,
                   force: bool = False) -> BuildReport:
    """Solve ``game`` and write its database; returns the report.

    Raises BuildRefused if the solve needs more memory than is available (unless
    ``force``), ValueError for a bad start position."""
    begun = time.perf_counter()
    threads = threads or os.cpu_count() or 1
    needed, available = memory_needed(game), memory_available()
    if needed > available and not force:
        raise BuildRefused(f"{game.describe()} needs about {human_bytes(needed)} of memory but only "
                           f"{human_bytes(available)} is available; use --force to try anyway")
    start_text = start if start is not None else game.default_start()
    start_state = game.parse(start_text)
    if game.primitive_value(start_state) == ILLEGAL:
        raise ValueError(f"start {start_text!r} is not a legal position: "
                         f"{game.explain_illegal(start_state)}")
    start_tier, start_local = game.locate(start_state)
    start_result: dict[str, int] = {}
    writing = [0.0]

    path = Path(path) if path is not None else default_path(game)
    writer = DatabaseWriter(path, game)

    def sink(tier: int, values: np.ndarray, remoteness: np.ndarray) -> None:
        began = time.perf_counter()
        writer.write_tier(tier, values, remoteness)
        writing[0] += time.perf_counter() - began
        if tier == start_tier:
            start_result["value"] = int(values[start_local])
            distance = int(remoteness[start_local])
            start_result["remoteness"] = None if distance == np.iinfo(remoteness.dtype).max else distance

    solver = solver_for(game)
    try:
        solve = solver.solve_retrograde if game.loopy else solver.solve_bottom_up
        called = time.perf_counter()
        stats = solve(game, threads=threads, progress=progress, sink=sink)
        solving = time.perf_counter() - called - stats.compile_seconds - writing[0]
        counts = {VALUE_NAMES[code]: int(stats.counts[code]) for code in VALUE_NAMES}
        start_remoteness = start_result["remoteness"]
        total = time.perf_counter() - begun
        attributes = {
            "title": game.title,
            "description": game.describe(),
            "state_fields": game.state_fields,
            "solver": "retrograde" if game.loopy else "bottom-up",
            "start_position": game.format(start_state),
            "start_value": VALUE_NAMES[start_result["value"]],
            "start_remoteness": -1 if start_remoteness is None else start_remoteness,
            "max_remoteness": stats.max_remoteness,
            **{f"count_{name}": count for name, count in counts.items()},
            "compile_seconds": stats.compile_seconds,
            "solve_seconds": solving,
            "write_seconds": writing[0],
            "build_seconds": total,
            "threads": threads,
            "created_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "source_fingerprint": source_fingerprint(),
            "package_version": _package_version(),
            "numba_version": numba.__version__,
            "numpy_version": np.__version__,
            "h5py_version": h5py.__version__,
            "python_version": platform.python_version(),
        }
        writer.finish(attributes)
    except BaseException:
        writer.abort()
        raise
    return BuildReport(
        game=game.name, description=game.describe(), path=str(path), positions=game.size,
        counts=counts, start=game.format(start_state),
        start_value=VALUE_NAMES[start_result["value"]], start_remoteness=start_remoteness,
        max_remoteness=stats.max_remoteness, solver=attributes["solver"], threads=threads,
        compile_seconds=stats.compile_seconds, solve_seconds=solving,
        write_seconds=writing[0], total_seconds=time.perf_counter() - begun, file_bytes=path.stat().st_size,
        solver_peak_bytes=int(stats.peak_bytes),
        peak_rss_bytes=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        options=dict(game.options))


def _package_version() -> str:
    try:
        return metadata.version("gamesolver")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"
