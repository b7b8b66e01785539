"""The tier driver: solves every tier of a game in dependency order, each with the
kernel of its type, on a pool of threads, holding in memory only what is needed.

* A tier is **ready** when every tier its moves reach (other than itself) is solved;
  ready tiers are taken smallest number first (games number their tiers so that
  this keeps few in memory) while threads and the memory budget allow.
* Each tier runs as a sequence of batches of kernel calls on the shared pool:
  IMMEDIATE tiers in chunks, SWEEP tiers in one sweep (``solver/bottom_up.py``), or
  level by level in chunks if the game gives each index a ``sweep_level``,
  LOOPY tiers phase by phase and level by level, each phase in chunks
  (``solver/loopy.py``). Several tiers run at once, so both cores stay busy.
* Solved tiers are **records** (``tiersolve.solver.records``); a kernel reads the tiers a tier
  needs through a table of their addresses, without copying them. A solved tier
  stays in memory until every tier that reads it has finished.
* Every solved tier goes to a **sink** at once (the builder writes it to disk); a
  build that resumes passes the tiers already on disk as ``done`` with a ``load``
  function, and only the rest are solved.

The result does not depend on the number of threads.

    >>> from tiersolve.games import make_game
    >>> stats = solve(make_game("northcott", rows=1, cols=3, backward=True), progress=False)
    >>> stats.counts.tolist()  # illegal, win, lose, tie, draw, noncanonical
    [0, 2, 4, 0, 0, 0]
"""

from __future__ import annotations

import heapq
import os
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Callable, Generator, Iterable

import numpy as np

from tiersolve.contract import (
    CHILD_ILLEGAL, CHILD_NONCANONICAL, CHILD_NOT_YET_SOLVED, CHILD_OUT_OF_RANGE,
    CHILD_TIER_NOT_SOLVED, FAIL_CHILD_LOCAL, FAIL_CHILD_TIER, FAIL_KIND, FAIL_LOCAL,
    LEVEL_NOT_HIGHER, LEVEL_OUT_OF_RANGE, PARENT_OUT_OF_RANGE, REMOTENESS_OVERFLOW, TERMINAL,
    TERMINAL_NOT_A_VALUE, TOO_MANY_MOVES, UNMOVES_DISAGREE, TierType,
)
from tiersolve.solver import bottom_up, interrupts, loopy
from tiersolve.solver.atomic import address_of
from tiersolve.solver.common import (
    ContractFailure, SolvableGame, SolverError, SolveStats, announced_if_slow, first_failure, no_failure,
    progress_bar, tier_summary,
)
from tiersolve.solver.records import record_dtype, record_none

#: Positions per chunk of an IMMEDIATE tier (a progress step).
CHUNK = 1 << 17
#: Smallest chunk of a loopy tier's phases (fewer, larger calls below this).
LOOPY_CHUNK = 1 << 16
#: Smallest SWEEP tier solved level by level (below it, one thread sweeps it faster
#: than a pass over its levels and a batch per level).
LEVELED_SWEEP_MIN = 1 << 20

#: Called with (tier, records, counts per value, largest remoteness) once a tier is solved.
TierSink = Callable[[int, np.ndarray, np.ndarray, int], None]


def tiers_read(game: SolvableGame, tier: int) -> list[int]:
    """The other tiers ``tier``'s moves reach, in order: the solved tiers it reads."""
    return sorted({int(t) for t in game.tier_children(tier)} - {tier, TERMINAL})


def tier_type(game: SolvableGame, tier: int) -> TierType:
    """The game's type for ``tier`` (``Game.tier_type`` derives it from the moves)."""
    return TierType(game.tier_type(tier))


def tier_kinds(game: SolvableGame) -> set[TierType]:
    """The types of all the game's tiers (which kernels its build runs)."""
    return {tier_type(game, t) for t in range(len(game.tier_sizes))}


def records_type(game: SolvableGame) -> np.dtype:
    """The dtype of the game's records (uint8 when its remoteness bound allows)."""
    return record_dtype(getattr(game, "remoteness_bound", None))


class TierPlan:
    """Which tiers can be solved next, and which solved tiers must stay in memory.

    ``done`` tiers (already solved, e.g. on disk) are never started. A solved tier
    stays until every tier that reads it has finished. Raises SolverError if the tier
    graph has a cycle (apart from a tier's moves into itself)."""

    def __init__(self, game: SolvableGame, done: Iterable[int] = ()) -> None:
        count = len(game.tier_sizes)
        self.children = [tiers_read(game, t) for t in range(count)]
        self.parents: list[list[int]] = [[] for _ in range(count)]
        for tier, kids in enumerate(self.children):
            for kid in kids:
                if not 0 <= kid < count:
                    raise SolverError(f"{game.name}: tier_children({tier}) names tier {kid}, "
                                      f"but there are {count} tiers")
                self.parents[kid].append(tier)
        self.done = set(done)
        self.waiting = [len(kids) for kids in self.children]
        self.readers_left = [sum(1 for p in ps if p not in self.done) for ps in self.parents]
        self.ready = [t for t in range(count) if self.waiting[t] == 0]
        heapq.heapify(self.ready)
        self.unsolved = count
        self._check_acyclic(game.name)
        self._skip_done()

    def _check_acyclic(self, name: str) -> None:
        waiting, ready, seen = list(self.waiting), list(self.ready), 0
        while ready:
            tier = ready.pop()
            seen += 1
            for parent in self.parents[tier]:
                waiting[parent] -= 1
                if waiting[parent] == 0:
                    ready.append(parent)
        if seen != len(self.waiting):
            raise SolverError(f"{name}: the tier graph has a cycle; moves between different "
                              "tiers must always lead to tiers solved earlier")

    def _skip_done(self) -> None:
        skipped = [t for t in self.ready if t in self.done]
        while skipped:
            tier = skipped.pop()
            self.ready.remove(tier)
            heapq.heapify(self.ready)
            self._solved(tier)
            skipped = [t for t in self.ready if t in self.done]

    def _solved(self, tier: int) -> None:
        self.unsolved -= 1
        for parent in self.parents[tier]:
            self.waiting[parent] -= 1
            if self.waiting[parent] == 0:
                heapq.heappush(self.ready, parent)

    def start(self) -> tuple[int, list[int]]:
        """Take the next ready tier: (tier, the tiers it reads)."""
        tier = heapq.heappop(self.ready)
        return tier, self.children[tier]

    def finish(self, tier: int) -> tuple[bool, list[int]]:
        """Record a solved tier: (must it stay in memory for later readers, the tiers
        it read that no tier needs any more)."""
        self._solved(tier)
        self._skip_done()
        freed = []
        for kid in self.children[tier]:
            self.readers_left[kid] -= 1
            if self.readers_left[kid] == 0:
                freed.append(kid)
        return self.readers_left[tier] > 0, freed


def leveled(game: SolvableGame, tier: int, threads: int = 2) -> bool:
    """Whether ``tier`` is swept level by level: a SWEEP tier of at least
    LEVELED_SWEEP_MIN positions, of a game with ``sweep_level``, on several threads."""
    return (threads > 1 and game.sweep_level is not None
            and int(game.tier_sizes[tier]) >= LEVELED_SWEEP_MIN
            and tier_type(game, tier) == TierType.SWEEP)


def work_bytes(game: SolvableGame, tier: int, threads: int = 2) -> int:
    """Memory a tier takes while it is solved on ``threads`` threads (its own arrays;
    a leveled sweep's levels are counted, as on several threads; a loopy tier's
    frontier and update buffers)."""
    size = int(game.tier_sizes[tier])
    if tier_type(game, tier) == TierType.LOOPY:
        return loopy.work_bytes(game, size, threads)
    levels = np.dtype(bottom_up.LEVEL_TYPE).itemsize if leveled(game, tier) else 0
    return size * (records_type(game).itemsize + levels)


def estimate_peak_bytes(game: SolvableGame, threads: int | None = None,
                        budget: int | None = None) -> int:
    """The solver's peak memory (tier arrays and records held), simulating the
    schedule of ``solve`` with tiers finishing in the order they start."""
    threads = threads or os.cpu_count() or 1
    sizes = [int(size) for size in game.tier_sizes]
    record_bytes = records_type(game).itemsize
    plan, running, resident, peak = TierPlan(game), {}, set(), 0
    while plan.ready or running:
        while plan.ready and len(running) < threads:
            tier = plan.ready[0]
            held = sum(running.values()) + sum(sizes[t] for t in resident) * record_bytes
            if running and budget is not None and held + work_bytes(game, tier, threads) > budget:
                break
            plan.start()
            running[tier] = work_bytes(game, tier, threads)
            peak = max(peak, held + running[tier])
        tier = next(iter(running))
        del running[tier]
        stays, freed = plan.finish(tier)
        if stays:
            resident.add(tier)
        resident.difference_update(freed)
    return peak


def chunks_of(size: int, step: int) -> list[tuple[int, int]]:
    """[lo, hi) ranges of at most ``step`` covering 0..size-1."""
    return [(lo, min(lo + step, size)) for lo in range(0, size, max(step, 1))]


def _bottom_up_tier(game, tier: int, addresses: np.ndarray, chunks, dtype,
                    piece: tuple[int, int] | None = None):
    """An IMMEDIATE or SWEEP tier as a generator of kernel batches (see loopy.solve_tier);
    with ``piece=(lo, hi)``, just those local indices of an IMMEDIATE tier."""
    kernel = bottom_up.kernel_for(game)
    first, end = piece if piece is not None else (0, int(game.tier_sizes[tier]))
    records = np.empty(end - first, dtype)
    if tier_type(game, tier) == TierType.SWEEP:
        addresses[tier] = address_of(records) if records.size else 0
    sizes = np.asarray(game.tier_sizes, dtype=np.int64)
    failures = [no_failure() for _ in chunks]
    no_levels = np.zeros(0, bottom_up.LEVEL_TYPE)
    yield ([(kernel, (game.state_size, game.max_moves, game.data, tier, lo, hi, addresses, sizes,
                      records, first, record_none(dtype), failure, no_levels, 0))
            for (lo, hi), failure in zip(chunks, failures)], [hi - lo for lo, hi in chunks])
    failed = first_failure(failures)
    if failed is not None:
        raise ContractFailure(failed)
    return records, None


def _leveled_sweep(game, tier: int, addresses: np.ndarray, chunks, dtype):
    """A SWEEP tier level by level, as a generator of kernel batches: one batch
    computes every index's ``sweep_level``, then one batch per level, highest first,
    solves that level's indices in every chunk that has some. A batch is yielded as
    (calls, positions each call solves) for the progress bar."""
    size = int(game.tier_sizes[tier])
    records = np.empty(size, dtype)
    addresses[tier] = address_of(records)
    levels = np.empty(size, bottom_up.LEVEL_TYPE)
    histograms = np.zeros((len(chunks), game.sweep_levels), np.int64)
    failures = [no_failure() for _ in chunks]
    counting = bottom_up.levels_kernel_for(game)
    yield [(counting, (game.data, tier, lo, hi, levels, histograms[c], game.state_size, failures[c]))
           for c, (lo, hi) in enumerate(chunks)], [0] * len(chunks)
    failed = first_failure(failures)
    if failed is not None:
        raise ContractFailure(failed)
    kernel = bottom_up.kernel_for(game)
    sizes = np.asarray(game.tier_sizes, dtype=np.int64)
    for level in range(game.sweep_levels - 1, -1, -1):
        here = [c for c in range(len(chunks)) if histograms[c, level]]
        failures = [no_failure() for _ in here]
        yield [(kernel, (game.state_size, game.max_moves, game.data, tier, *chunks[c], addresses,
                         sizes, records, 0, record_none(dtype), failure, levels, level))
               for c, failure in zip(here, failures)], [int(histograms[c, level]) for c in here]
        failed = first_failure(failures)
        if failed is not None:
            raise ContractFailure(failed)
    return records, None


def _read_address(records: np.ndarray) -> int:
    """A solved tier's entry in a kernel's address table (-1: an empty tier, nothing
    to read, but solved)."""
    return address_of(records) if records.size else -1


def solve_piece(game: SolvableGame, tier: int, lo: int, hi: int, *,
                load: Callable[[int], np.ndarray],
                threads: int | None = None) -> tuple[np.ndarray, np.ndarray, int]:
    """Solve local indices ``lo..hi-1`` of the IMMEDIATE ``tier`` alone: returns their
    records, counts per value and largest remoteness. ``load(t)`` gives the records
    of each tier that ``tier`` reads. Pieces laid end to end are the records ``solve``
    makes for the whole tier: a cluster build splits a large tier into pieces, so
    that several workers share it.

        >>> from tiersolve.games import make_game
        >>> game = make_game("ttt", rows=3, cols=4)
        >>> whole = {}
        >>> _ = solve(game, progress=False, only={11, 12},
        ...           sink=lambda tier, records, counts, longest: whole.update({tier: records}))
        >>> size = int(game.tier_sizes[11])
        >>> pieces = [solve_piece(game, 11, lo, hi, load=whole.get)[0]
        ...           for lo, hi in ((0, 5), (5, 100), (100, size))]
        >>> bool((np.concatenate(pieces) == whole[11]).all())
        True

    Raises SolverError for a tier of another type, a range outside the tier, or a
    game that breaks the contract."""
    kind = tier_type(game, tier)
    size = int(game.tier_sizes[tier])
    if kind != TierType.IMMEDIATE:
        raise SolverError(f"{game.name}: tier {tier} is a {kind.name} tier; only IMMEDIATE "
                          "tiers can be solved in pieces")
    if not 0 <= lo <= hi <= size:
        raise SolverError(f"{game.name}: piece {lo}..{hi} is outside tier {tier}'s {size:,} positions")
    threads = threads or os.cpu_count() or 1
    warm_up(game)
    dtype = records_type(game)
    addresses = np.zeros(len(game.tier_sizes), dtype=np.int64)
    reads = {}  # held here while the kernels read them
    for kid in tiers_read(game, tier):
        reads[kid] = np.ascontiguousarray(load(kid), dtype=dtype)
        addresses[kid] = _read_address(reads[kid])
    chunks = [(lo + a, lo + b) for a, b in chunks_of(hi - lo, CHUNK)]
    steps = _bottom_up_tier(game, tier, addresses, chunks, dtype, piece=(lo, hi))
    calls, _ = next(steps)
    with ThreadPoolExecutor(max_workers=threads) as pool:
        results = list(pool.map(lambda call: call[0](*call[1]), calls))
    try:
        steps.send(results)
    except StopIteration as finished:
        records, _ = finished.value
    except ContractFailure as error:
        raise SolverError(describe_failure(game, tier, error.failure)) from None
    counts, longest = tier_summary(records)
    return records, counts, longest


@dataclass
class _Running:
    """A tier being solved: its batch generator and the calls still out."""

    tier: int
    steps: Generator
    addresses: np.ndarray
    positions: int
    began: float
    outstanding: int = 0
    results: list = field(default_factory=list)
    batches: int = 0
    credited: int = 0        # positions already shown on the progress bar
    sizes: list = field(default_factory=list)  # positions of each call of the batch out


#: The job of ``warm_up`` that compiles ``tier_summary``'s kernel.
SUMMARY_JOB = "summary"


def compile_jobs(game: SolvableGame) -> list[str]:
    """The jobs of ``warm_up(game, job)``, the largest first: ``loopy:<job>`` and
    ``bottom-up:<job>`` for the kernels of each kind of tier the game has, and
    ``summary`` for the count of a solved tier's values. Separate
    processes may take them: a job's helpers that another process compiled already
    come from the disk cache (``databases.build.KernelCompile``)."""
    kinds = tier_kinds(game)
    loopy_jobs = [f"loopy:{job}" for job in loopy.compile_jobs(game)] \
        if TierType.LOOPY in kinds else []
    bottom_up_jobs = [f"bottom-up:{job}" for job in bottom_up.compile_jobs(game)] \
        if kinds - {TierType.LOOPY} else []
    # The loopy kernels that generate moves and un-moves first, then the bottom-up ones;
    # last, the count of each solved tier's values.
    return loopy_jobs[:2] + bottom_up_jobs + loopy_jobs[2:] + [SUMMARY_JOB]


def warm_up(game: SolvableGame, job: str | None = None) -> float:
    """Compile (or load) every kernel the game's tiers need, or those of one of
    ``compile_jobs``; returns the seconds."""
    began = time.perf_counter()
    kinds = tier_kinds(game)
    dtype = records_type(game)
    kind, _, part = (job or "").partition(":")
    if kinds - {TierType.LOOPY} and kind in ("", "bottom-up"):
        bottom_up.warm_up(game, dtype, part or None)
    if TierType.LOOPY in kinds and kind in ("", "loopy"):
        loopy.warm_up(game, dtype, part or None)
    if job in (None, SUMMARY_JOB):
        tier_summary(np.zeros(1, dtype))
    return time.perf_counter() - began


def solve(game: SolvableGame, *, threads: int | None = None, progress: bool = True,
          sink: TierSink | None = None, done: dict[int, tuple[np.ndarray, int]] | None = None,
          load: Callable[[int], np.ndarray] | None = None,
          budget: int | None = None, only: Iterable[int] | None = None,
          announce: bool = True) -> SolveStats:
    """Solve every tier of ``game``; ``sink`` gets each tier as soon as it is solved.

    ``done`` maps tiers solved earlier to their (counts, largest remoteness), and
    ``load(tier)`` returns such a tier's records when a tier to solve reads it.
    ``budget`` (bytes) holds back a tier while others run if it would not fit.
    ``only`` solves just those tiers (a cluster task solves one): the tiers they read
    must be in ``done`` or loadable, and the stats cover ``done`` and ``only``.
    A compile that lasts over a second is announced on stderr unless ``announce`` is
    false (a cluster worker reports it in its result instead).
    Raises SolverError, naming the position and tier, if the game breaks the contract."""
    threads = threads or os.cpu_count() or 1
    done = dict(done or {})
    skipped = set(done)
    if only is not None:
        skipped |= set(range(len(game.tier_sizes))) - set(only)
    compiling = announced_if_slow(f"{game.name}: compiling its kernels, once for this "
                                  "version of tiersolve") if announce else nullcontext()
    with compiling:
        stats = SolveStats(compile_seconds=warm_up(game))
    for counts, longest in done.values():
        stats.add(counts, longest)
    dtype = records_type(game)
    sizes = np.asarray(game.tier_sizes, dtype=np.int64)
    plan = TierPlan(game, skipped)
    resident: dict[int, np.ndarray] = {}
    running: dict[int, _Running] = {}
    pending: dict[Future, int] = {}
    remaining = int(sizes.sum()) - sum(int(sizes[t]) for t in skipped)
    bar = progress_bar(remaining, f"solving {game.name}", progress)

    def held_bytes() -> int:
        return sum(records.nbytes for records in resident.values()) + \
            sum(work_bytes(game, r.tier, threads) for r in running.values())

    def start(tier: int, reads: list[int]) -> None:
        addresses = np.zeros(len(sizes), dtype=np.int64)
        for kid in reads:
            if kid not in resident:
                if load is None:
                    raise SolverError(f"{game.name}: tier {kid} is needed but was neither solved "
                                      "nor can it be loaded")
                resident[kid] = np.ascontiguousarray(load(kid), dtype=dtype)
            addresses[kid] = _read_address(resident[kid])
        size = int(sizes[tier])
        kind = tier_type(game, tier)
        if kind == TierType.LOOPY:
            steps = loopy.solve_tier(game, tier, addresses, threads, dtype, LOOPY_CHUNK)
        elif leveled(game, tier, threads):
            step = max(CHUNK, -(-size // (8 * threads)))
            steps = _leveled_sweep(game, tier, addresses, chunks_of(size, step), dtype)
        else:
            step = CHUNK if kind == TierType.IMMEDIATE else size
            steps = _bottom_up_tier(game, tier, addresses, chunks_of(size, step), dtype)
        job = _Running(tier, steps, addresses, size, time.perf_counter())
        running[tier] = job
        stats.peak_bytes = max(stats.peak_bytes, held_bytes())
        advance(job, None)

    def advance(job: _Running, results) -> None:
        """Send a finished batch's results; submit the next batch or complete the tier."""
        while True:
            try:
                calls = job.steps.send(results)
            except StopIteration as finished:
                complete(job, *finished.value)
                return
            except ContractFailure as error:
                raise SolverError(describe_failure(game, job.tier, error.failure)) from None
            credits = None
            if isinstance(calls, tuple):  # (calls, positions each call solves)
                calls, credits = calls
            if calls:
                break
            results = []  # an empty tier (or level) has no calls: go on at once
        job.results = [None] * len(calls)
        job.outstanding = len(calls)
        job.batches += 1
        if credits is None:
            # The first batch expands every position; a loopy tier's levels come after
            # it, so its first batch shows half the tier on the bar and completion the rest.
            share = 1 if tier_type(game, job.tier) != TierType.LOOPY else 2
            credits = [(args[3] - args[2]) // share if job.batches == 1 and len(args) > 3 else 0
                       for _, args in calls]
        job.sizes = credits
        if job.batches > 1:
            bar.set_postfix_str(f"tier {_tier_text(game, job.tier)}: pass {job.batches}", refresh=False)
        for slot, (kernel, args) in enumerate(calls):
            pending[pool.submit(kernel, *args)] = (job.tier, slot)

    def complete(job: _Running, records: np.ndarray, _longest) -> None:
        del running[job.tier]
        counts, longest = tier_summary(records)
        stats.add(counts, longest)
        if sink is not None:
            sink(job.tier, records, counts, longest)
        bar.update(job.positions - job.credited)
        stats.tier_seconds[job.tier] = time.perf_counter() - job.began
        stays, freed = plan.finish(job.tier)
        if stays:
            resident[job.tier] = records
        for kid in freed:
            resident.pop(kid, None)

    pool = ThreadPoolExecutor(max_workers=threads)
    try:
        while plan.ready or running:
            while plan.ready and len(running) < threads:
                candidate = plan.ready[0]
                if running and budget is not None and \
                        held_bytes() + work_bytes(game, candidate, threads) > budget:
                    break
                start(*plan.start())
            if not pending:
                continue
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            interrupts.check()  # a signal whose KeyboardInterrupt was lost (solver.interrupts)
            for future in finished:
                tier, slot = pending.pop(future)
                job = running[tier]
                job.results[slot] = future.result()
                job.outstanding -= 1
                if job.sizes[slot]:
                    bar.update(job.sizes[slot])
                    job.credited += job.sizes[slot]
                if job.outstanding == 0:
                    advance(job, job.results)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    bar.close()
    if plan.unsolved:
        raise SolverError(f"{game.name}: {plan.unsolved} tiers were never ready")
    return stats


def describe_failure(game: SolvableGame, tier: int, failure: np.ndarray) -> str:
    """One line naming the position, tier and move that broke the contract."""
    kind, local = int(failure[FAIL_KIND]), int(failure[FAIL_LOCAL])
    child_tier, child = int(failure[FAIL_CHILD_TIER]), int(failure[FAIL_CHILD_LOCAL])
    where = _position_text(game, tier, local)
    move = _move_text(game, tier, local, child_tier, child)
    target = f"index {child} of tier {_tier_text(game, child_tier)}"
    if kind == CHILD_ILLEGAL:
        target = f"{_position_text(game, child_tier, child)}"
    messages = {
        CHILD_TIER_NOT_SOLVED: f"{move} leads to tier {_tier_text(game, child_tier)}, which is "
                               f"not solved before tier {tier}: declare it in "
                               f"tier_children({tier}) (and keep the tier graph acyclic)",
        CHILD_OUT_OF_RANGE: f"{move} leads to {target}, beyond that tier's "
                            f"{_size(game, child_tier):,} positions",
        CHILD_ILLEGAL: f"{move} leads to {target}, which the game marks illegal",
        CHILD_NONCANONICAL: f"{move} leads to {target}, which is not the stored representative "
                            "of its symmetry class",
        CHILD_NOT_YET_SOLVED: f"{move} stays in its sweep tier and leads to {target}, which is "
                              f"not above index {local}",
        LEVEL_NOT_HIGHER: f"{move} stays in its sweep tier and leads to {target}, whose "
                          "sweep_level is not higher",
        LEVEL_OUT_OF_RANGE: f"sweep_level gives {where} level {child}, outside "
                            f"0..{getattr(game, 'sweep_levels', 0) - 1} (sweep_levels)",
        REMOTENESS_OVERFLOW: f"the remoteness of {where} would be {child}, more than the game's "
                             f"records hold (declare a larger remoteness_bound)",
        PARENT_OUT_OF_RANGE: f"the un-move generator gives index {child} as a parent of {where}, "
                             f"beyond the tier's {_size(game, tier):,} positions",
        TOO_MANY_MOVES: f"{where} has {child} distinct moves inside its tier, more than the "
                        "move counters hold",
        TERMINAL_NOT_A_VALUE: f"{move} leads to a finished game that is not indexed, whose "
                              f"value code {child} is not WIN, LOSE, TIE or DRAW",
        UNMOVES_DISAGREE: f"the moves into the positions of tier {_tier_text(game, tier)} left "
                          f"undecided and the un-moves from them differ by {child}: the "
                          "un-move generator misses or adds parents (games.tester.check_game "
                          "names one on a small board)",
    }
    return f"{game.name}: contract broken: {messages.get(kind, f'failure {kind} at {where}')}"


def _size(game, tier: int) -> int:
    return int(game.tier_sizes[tier]) if 0 <= tier < len(game.tier_sizes) else 0


def _tier_text(game, tier: int) -> str:
    keys = getattr(getattr(game, "tiers", None), "keys", None)
    if keys is not None and 0 <= tier < len(keys) and len(keys[tier]):
        return f"{tier} {tuple(keys[tier])}"
    return str(tier)


def _position_text(game, tier: int, local: int) -> str:
    """``(position text) (tier 3 (2, 1), index 17)``, as far as the game can tell."""
    described = f"index {local} of tier {_tier_text(game, tier)}"
    position_text = getattr(game, "position_text", None)
    if position_text is not None:
        try:
            return f"{position_text(tier, local)} ({described})"
        except Exception:  # the description is best effort; the failure itself is certain
            pass
    return described


def _move_text(game, tier: int, local: int, child_tier: int, child: int) -> str:
    """``the move 'a1-b2' from <position>``, or ``a move from <position>``."""
    name = None
    move_to = getattr(game, "move_to", None)
    if move_to is not None:
        try:
            name = move_to(tier, local, child_tier, child)
        except Exception:  # best effort, as above
            name = None
    where = _position_text(game, tier, local)
    return f"the move {name!r} from {where}" if name else f"a move from {where}"
