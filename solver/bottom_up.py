"""Bottom-up solver for games without cycles, tier by tier.

Tiers are solved in dependency order (``schedule``): a tier's moves lead to tiers
solved before it, or stay in the tier, in which case the game promises that they
lead to a *higher* local index, and the tier is swept from its highest index down.
Tiers solved in the same wave are independent, and so are chunks of a tier without
in-tier moves; both run on a pool of threads (the numba kernels release the GIL),
and the result does not depend on the number of threads.

A solved tier stays in memory only while a tier that reads it is unsolved; each
solved tier is handed to a sink (the database writer) at once.

    >>> from games import make_game
    >>> stats = solve_bottom_up(make_game("1210"), threads=1, progress=False)
    >>> int(stats.counts.sum())
    22
"""

from __future__ import annotations

import heapq
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from solver.common import (
    TERMINAL, SolvableGame, SolveStats, SolverError, TierSink, announced, as_seen_by_parent,
    progress_bar,
)
from solver.jit import specialise
from solver.values import ILLEGAL, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN

#: Positions per task when a tier is split between threads.
CHUNK = 1 << 17


def _solve_positions(data, tier, lo, hi, base, values, remoteness, state_size, max_moves):
    """Template: solve local indices hi-1 down to lo of ``tier``; returns failures.

    ``base[t]`` is where tier t starts in ``values``/``remoteness`` (-1: not loaded).
    ``expand`` is bound to the game's function by ``specialise``.
    """
    out = np.empty((max(max_moves, 1), 4), np.int64)
    state = np.empty(state_size, np.int64)
    child = np.empty(state_size, np.int64)
    moves = np.empty(max(max_moves, 1), np.int64)
    start = base[tier]
    failures = 0
    for local in range(hi - 1, lo - 1, -1):
        at = start + local
        count = expand(data, tier, local, out, state, child, moves)  # noqa: F821 (bound)
        if count <= 0:
            values[at] = -count
            remoteness[at] = 0 if count < 0 else NO_REMOTENESS
            continue
        best_win = NO_REMOTENESS
        best_tie = NO_REMOTENESS
        worst_lose = -1
        broken = False
        for k in range(count):
            if out[k, 0] == TERMINAL:  # a finished game that is not indexed
                value = as_seen_by_parent(out[k, 1], out[k, 2])
                distance = np.int64(0)
            else:
                child_start = base[out[k, 0]]
                if child_start < 0:
                    broken = True
                    break
                position = child_start + out[k, 1]
                value = as_seen_by_parent(values[position], out[k, 2])
                distance = np.int64(remoteness[position])
            if value == WIN:
                best_win = min(best_win, distance)
            elif value == TIE:
                best_tie = min(best_tie, distance)
            elif value == LOSE:
                worst_lose = max(worst_lose, distance)
            else:  # an unsolved, illegal or drawn child: the game broke the contract
                broken = True
                break
        if broken:
            values[at] = UNDECIDED
            failures += 1
        elif best_win < NO_REMOTENESS - 1:
            values[at] = WIN
            remoteness[at] = best_win + 1
        elif best_tie < NO_REMOTENESS - 1:
            values[at] = TIE
            remoteness[at] = best_tie + 1
        elif worst_lose < NO_REMOTENESS - 1:
            values[at] = LOSE
            remoteness[at] = worst_lose + 1
        else:
            values[at] = UNDECIDED
            failures += 1
    return failures


@dataclass
class Wave:
    """Tiers solved together, the solved tiers they read, and what stays in memory after."""

    tiers: list[int]
    reads: list[int]
    keep: set[int]


def schedule(game: SolvableGame, threads: int) -> list[Wave]:
    """The order in which tiers are solved.

    A tier is ready when every tier its moves reach (other than itself) is solved.
    Each wave takes the ready tiers with the smallest numbers, at most one per thread
    (games number their tiers so that this order keeps few tiers in memory), and a
    solved tier stays in memory only until the last tier that reads it is solved.
    Raises SolverError if the tier graph has a cycle."""
    count = len(game.tier_sizes)
    children = [set(game.tier_children(t)) - {t, TERMINAL} for t in range(count)]
    parents: list[set[int]] = [set() for _ in range(count)]
    for tier, kids in enumerate(children):
        for kid in kids:
            parents[kid].add(tier)
    waiting = [len(kids) for kids in children]
    unsolved_parents = [len(ps) for ps in parents]
    ready = [t for t in range(count) if waiting[t] == 0]
    heapq.heapify(ready)
    waves, resident, solved = [], set(), 0
    while ready:
        tiers = [heapq.heappop(ready) for _ in range(min(max(threads, 1), len(ready)))]
        reads = sorted(set().union(*(children[t] for t in tiers)))
        for tier in tiers:
            solved += 1
            for kid in children[tier]:
                unsolved_parents[kid] -= 1
            for parent in parents[tier]:
                waiting[parent] -= 1
                if waiting[parent] == 0:
                    heapq.heappush(ready, parent)
        resident = {t for t in resident | set(tiers) if unsolved_parents[t] > 0}
        waves.append(Wave(tiers, reads, set(resident)))
    if solved != count:
        raise SolverError(f"{game.name}: the tier graph has a cycle; use the retrograde solver")
    return waves


BYTES_PER_POSITION = 3  # uint8 value + uint16 remoteness


def estimate_peak_bytes(game: SolvableGame, threads: int | None = None) -> int:
    """Memory the bottom-up solver will hold at its peak (value and remoteness arrays)."""
    sizes = game.tier_sizes
    peak, resident = 0, set()
    for wave in schedule(game, threads or os.cpu_count() or 1):
        window = int(sum(sizes[t] for t in wave.reads)) + int(sum(sizes[t] for t in wave.tiers))
        peak = max(peak, window + int(sum(sizes[t] for t in resident)))
        resident = wave.keep
    return peak * BYTES_PER_POSITION


def kernel_for(game: SolvableGame):
    """The game's compiled bottom-up kernel (compiled or loaded from cache on first use)."""
    return specialise(_solve_positions, game.kernel_label, expand=game.expand)


def warm_up(game: SolvableGame) -> float:
    """Compile (or load) the kernel; returns the seconds it took."""
    start = time.perf_counter()
    kernel = kernel_for(game)
    empty = np.zeros(0, np.uint8)
    kernel(game.data, 0, 0, 0, np.zeros(len(game.tier_sizes), np.int64), empty,
           np.zeros(0, np.uint16), game.state_size, game.max_moves)
    return time.perf_counter() - start


def solve_bottom_up(game: SolvableGame, *, threads: int | None = None, progress: bool = True,
                    sink: TierSink | None = None) -> SolveStats:
    """Solve every tier of an acyclic game; ``sink(tier, values, remoteness)`` gets each
    tier as soon as it is solved (the arrays are only valid during the call)."""
    threads = threads or os.cpu_count() or 1
    with announced(f"{game.name}: loading or compiling the numba kernels", progress):
        stats = SolveStats(compile_seconds=warm_up(game))
    kernel = kernel_for(game)
    sizes = np.asarray(game.tier_sizes, dtype=np.int64)
    resident: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    started = time.perf_counter()
    bar = progress_bar(int(sizes.sum()), f"solving {game.name}", progress)
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for wave in schedule(game, threads):
            window = wave.reads + wave.tiers
            base = np.full(len(sizes), -1, dtype=np.int64)
            offset = 0
            for tier in window:
                base[tier] = offset
                offset += sizes[tier]
            values = np.full(offset, UNDECIDED, dtype=np.uint8)
            remoteness = np.full(offset, NO_REMOTENESS, dtype=np.uint16)
            for tier in wave.reads:
                tier_values, tier_remoteness = resident[tier]
                values[base[tier]:base[tier] + sizes[tier]] = tier_values
                remoteness[base[tier]:base[tier] + sizes[tier]] = tier_remoteness
            held = offset + sum(len(v) for v, _ in resident.values())
            stats.peak_bytes = max(stats.peak_bytes, held * BYTES_PER_POSITION)

            tasks = []
            for tier in wave.tiers:
                step = sizes[tier] if tier in game.tier_children(tier) else CHUNK
                for lo in range(0, int(sizes[tier]), int(max(step, 1))):
                    tasks.append((tier, lo, min(lo + step, sizes[tier])))

            def run(task, values=values, remoteness=remoteness, base=base):
                tier, lo, hi = task
                return kernel(game.data, tier, lo, hi, base, values, remoteness,
                              game.state_size, game.max_moves), hi - lo

            failures = 0
            for failed, done in pool.map(run, tasks):
                failures += failed
                bar.update(done)
            if failures:
                raise SolverError(f"{game.name}: {failures} positions of tiers {wave.tiers} have a "
                                  "child that is unsolved, illegal or outside the tiers solved so far")
            for tier in wave.tiers:
                tier_values = values[base[tier]:base[tier] + sizes[tier]]
                tier_remoteness = remoteness[base[tier]:base[tier] + sizes[tier]]
                stats.add_tier(tier_values, tier_remoteness)
                if sink is not None:
                    sink(tier, tier_values, tier_remoteness)
                if tier in wave.keep:  # copied out so that the window can be freed
                    resident[tier] = (tier_values.copy(), tier_remoteness.copy())
            resident = {t: arrays for t, arrays in resident.items() if t in wave.keep}
            del values, remoteness, run
    bar.close()
    stats.solve_seconds = time.perf_counter() - started
    assert stats.counts[ILLEGAL] + stats.counts[1:].sum() == sizes.sum()
    return stats
