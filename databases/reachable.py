"""Databases of what play can reach: ``build --reachable``.

Only the positions reachable from the start (or from every ``--start`` given) are
solved (``solver/reachable.py``) and stored: their sorted full-space indices in the
dataset ``indices``, with ``value`` and ``remoteness`` row for row (docs/FORMAT.md).
A lookup finds a position's row by binary search; a position outside the set raises
``UnreachedPositionError`` ("not reachable from this database's starts"), never a
made-up answer.

>>> from tiersolve.games import make_game
>>> report = build_reachable(make_game("1210"), "1210_reachable.h5",
...                          progress=False, overwrite=True)
>>> report.positions, report.start_value, report.start_remoteness
(20, 'win', 7)
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Sequence

import numpy as np

from tiersolve.databases.chunks import ChunkWriter, chunked_layout
from tiersolve.databases.format import (
    INDEX_FILL, VALUE_FILL, checked_small_dataset, crash_point, new_database,
    provenance_attributes,
)
from tiersolve.databases.lifecycle import (
    BuildRefused, BuildReport, BuildRun, CompileTimer, legal_start, memory_available,
    resident_bytes,
)
from tiersolve.databases.naming import default_reachable_path, human_bytes
from tiersolve.games.base import Game
from tiersolve.jit import source_fingerprint
from tiersolve.solver.common import progress_bar
from tiersolve.solver.reachable import (
    TieredSolution, TierStore, bytes_per_position, has_loopy_tiers, solve_reachable,
)
from tiersolve.values import VALUE_NAMES


def parse_starts(game: Game, starts: Sequence[str] | None) -> list[np.ndarray]:
    """The states of the start texts (the game's start if none); ValueError for a
    position that is not legal."""
    states = [legal_start(game, text) for text in (list(starts) if starts else
                                                   [game.default_start()])]
    for text, state in zip(starts or [], states):
        if game.terminal_value(state) is not None:
            raise ValueError(f"start {text!r} is a finished game that the index leaves out: "
                             "there is nothing to solve")
    return states


def build_reachable(game: Game, path: str | os.PathLike | None = None, *,
                    starts: Sequence[str] | None = None, progress: bool = True,
                    overwrite: bool = False, force: bool = False,
                    restart: bool = False, threads: int | None = None) -> BuildReport:
    """Solve the positions reachable from ``starts`` (the game's start if none) and
    write them to ``path``; the report counts the positions stored.

    A game without loopy tiers keeps its tiers in ``<path>.tiers/`` while it runs: a
    build that was stopped resumes from them (once its search was finished, from the
    tiers it solved), unless ``restart`` discards them. Raises BuildRefused if that
    folder holds another build.

    As ``build_database``: an identical database already there is left alone (the
    report says ``skipped``), any other file is refused unless ``overwrite``."""
    path = Path(path) if path is not None else default_reachable_path(game)
    run = BuildRun(game, path, _work_directory(path))
    states = parse_starts(game, starts)
    texts = [game.format(state) for state in states]
    skipped = run.existing(overwrite, starts=texts)
    if skipped is not None:
        return skipped
    with run:
        bar = progress_bar(None, f"searching {game.describe()}", progress)

        def say(message: str) -> None:
            bar.set_postfix_str(message)

        available = memory_available()
        tiered = not has_loopy_tiers(game)  # bottom-up, its tiers in files beside the output
        # tier by tier on every thread; a loopy game's move graph on one
        solver_threads = (threads or os.cpu_count() or 1) if tiered else 1
        store = _work_store(path, game, texts, restart) if tiered else None
        resumed = sum(store.has("records", t) for t in range(game.tiers.count)) if tiered else 0
        if resumed or (tiered and store.noted("search") is not None):
            say(f"resuming: search done, {resumed} tiers solved")

        def check_memory(found: int) -> None:
            bar.update(found - bar.n)
            needed = resident_bytes() + (0 if tiered else found * bytes_per_position(game))
            if needed > available and not force:
                raise BuildRefused(f"{game.describe()}: {found:,} reachable positions so far need "
                                   f"about {human_bytes(needed)} of memory, but only "
                                   f"{human_bytes(available)} is available; use --force to try")

        solving = time.perf_counter()
        with CompileTimer() as compiling, run.guarded("keeping a solved tier"):
            # kernels compile on first use, inside the solve
            solution = solve_reachable(game, [game.index(state) for state in states], say,
                                       check_memory, store=store, threads=threads)
        compile_seconds = compiling.seconds
        solve_seconds = time.perf_counter() - solving - compile_seconds
        bar.close()
        parts = solution.parts if tiered else lambda: [(solution.indices, solution.value,
                                                        solution.remoteness)]
        value_counts, longest, start_value, start_remoteness = _summary(
            parts(), game.index(states[0]))
        counts = {VALUE_NAMES[code]: int(n) for code, n in enumerate(value_counts)}
        attributes = {
            "title": game.title, "description": game.describe() + " (reachable)",
            "state_fields": game.state_fields, "solver": reachable_solver_name(game),
            "start_position": texts[0], "reachable_from": json.dumps(texts),
            "max_remoteness": longest, **{f"count_{name}": n for name, n in counts.items()},
            "compile_seconds": compile_seconds, "solve_seconds": solve_seconds,
            "threads": solver_threads,
            "resumed_tiers": resumed, "start_value": start_value,
            "start_remoteness": -1 if start_remoteness is None else start_remoteness,
            **provenance_attributes(),
        }
        writing = time.perf_counter()
        positions = solution.size if tiered else int(solution.indices.size)
        if tiered and shutil.disk_usage(path.parent).free < WRITTEN_BYTES * positions:
            say("little disk left: each tier's files go as soon as the file holds it")
            parts = lambda: _freeing_parts(solution)  # noqa: E731
        attributes["write_seconds"] = 0.0  # set as the write goes, up to its last part
        attributes["build_seconds"] = 0.0

        def timed(parts):
            for part in parts:
                yield part
                attributes["write_seconds"] = time.perf_counter() - writing
                attributes["build_seconds"] = time.perf_counter() - run.began

        with run.guarded(f"writing {path}"):
            _write(path, game, timed(parts()), positions, longest, attributes,
                   store.directory if tiered else None)
        solution = None  # freed before the work folder goes
        crash_point("after-rename")
        if tiered:
            shutil.rmtree(store.directory, ignore_errors=True)
    return run.report(
        description=game.describe() + " (reachable)", positions=positions, counts=counts,
        start=texts[0], start_value=start_value, start_remoteness=start_remoteness,
        max_remoteness=longest, solver=attributes["solver"], threads=solver_threads,
        compile_seconds=compile_seconds, solve_seconds=solve_seconds,
        write_seconds=time.perf_counter() - writing, solver_peak_bytes=0, planned_peak_bytes=0,
        resumed_tiers=resumed)


def reachable_solver_name(game: Game) -> str:
    """How a ``--reachable`` build solves ``game`` (``info`` shows it)."""
    if has_loopy_tiers(game):
        return "reachable retrograde (move graph)"
    return "reachable bottom-up (tier by tier)"


def _work_directory(path: Path) -> Path:
    """Where a ``--reachable`` build keeps its tiers while it runs: ``<path>.tiers/``."""
    return path.with_name(path.name + ".tiers")


def _work_store(path: Path, game: Game, starts: list[str], restart: bool) -> TierStore:
    """The tiers of this build in ``<path>.tiers/``: kept from a stopped build of the
    same game, starts and sources, else new."""
    work = _work_directory(path)
    manifest = {"game": game.label(), "options": {k: v for k, v in game.options.items()},
                "starts": starts, "source_fingerprint": source_fingerprint()}
    found = work / "manifest.json"
    if work.exists() and not restart:
        try:
            kept = json.loads(found.read_text())
        except (OSError, ValueError):
            kept = None
        if kept != manifest:
            raise BuildRefused(f"{work} holds the tiers of another reachable build (another game, "
                               "start or version of the solver); run again with --restart to "
                               "discard them")
        return TierStore(work)
    shutil.rmtree(work, ignore_errors=True)
    store = TierStore(work)
    found.write_text(json.dumps(manifest))
    return store


def _summary(parts, start: int) -> tuple[np.ndarray, int, str, int | None]:
    """(positions per value code, largest remoteness, the start's value name and
    remoteness) over the solved ``parts`` (indices, values, remoteness)."""
    counts, longest, start_value, start_remoteness = np.zeros(6, np.int64), 0, None, None
    for indices, values, remoteness in parts:
        counts += np.bincount(values, minlength=6)[:6]
        longest = max(longest, int(remoteness.max(initial=0)))
        at = int(np.searchsorted(indices, start))
        if at < indices.size and indices[at] == start:
            start_value = VALUE_NAMES[int(values[at])]
            start_remoteness = None if remoteness[at] < 0 else int(remoteness[at])
    return counts, longest, start_value, start_remoteness


#: Disk a reachable position may take in the file (a generous guess): below that much
#: room the write frees each tier's files as soon as the file holds it.
WRITTEN_BYTES = 6


def _freeing_parts(solution: TieredSolution):
    """The parts of ``solution`` tier by tier, each tier's files removed once its
    parts were taken: a write stopped halfway then loses the build, but one that
    would not fit beside the tiers can finish."""
    for tier, count in sorted(solution.counts.items()):
        yield from TieredSolution(solution.game, {tier: count}, solution.store).parts()
        solution.store.drop("positions", tier)
        solution.store.drop("records", tier)


def _write(path: Path, game: Game, parts, size: int, longest: int, attributes: dict,
           work_folder: Path | None = None) -> None:
    """The file: ``indices``, ``value`` and ``remoteness`` row for row, written part
    by part (``parts``: indices, values, remoteness with -1 for none, in order), and
    ``index_fence``, the first index of each chunk of ``indices`` (docs/FORMAT.md).
    ``work_folder``: the build's kept tiers (``new_database`` marks it when done)."""
    with new_database(path, game, longest, attributes, work_folder) as (out, remoteness_type):
        none = np.iinfo(remoteness_type).max
        indices = out.create_dataset("indices", shape=(size,), dtype=np.int64,
                                     fillvalue=INDEX_FILL, **chunked_layout(size))
        value = out.create_dataset("value", shape=(size,), dtype=np.uint8, fillvalue=VALUE_FILL,
                                   **chunked_layout(size))
        stored = out.create_dataset("remoteness", shape=(size,), dtype=remoteness_type,
                                    **chunked_layout(size))
        chunk = indices.chunks[0] if size else 1
        fence = np.zeros(-(-size // chunk), np.int64)  # the first index of each chunk
        row = 0
        if size:
            with ChunkWriter(indices) as indices_out, ChunkWriter(value) as value_out, \
                    ChunkWriter(stored) as stored_out:
                for part_indices, values, remoteness in parts:
                    end = row + part_indices.size
                    firsts = np.arange(-(-row // chunk) * chunk, end, chunk)
                    fence[firsts // chunk] = part_indices[firsts - row]
                    indices_out.write(part_indices)
                    value_out.write(values)
                    stored_out.write(np.where(remoteness < 0, none, remoteness).astype(remoteness_type))
                    row = end
        checked_small_dataset(out, "index_fence", fence)


__all__ = ["build_reachable", "parse_starts", "reachable_solver_name"]
