"""Bottom-up solver for games without cycles, tier by tier.

Tiers are solved in dependency order: a tier's moves lead to tiers solved before it,
or stay in the tier, in which case the game promises that they lead to a *higher*
local index, and the tier is swept from its highest index down. Tiers on the same
level of the tier graph are independent, and so are chunks of a tier without
in-tier moves; both run on a pool of threads (the numba kernels release the GIL),
and the result does not depend on the number of threads.

Only the tiers still needed by later levels stay in memory; each solved tier is
handed to a sink (the database writer) at once.

    >>> from games import make_game
    >>> stats = solve_bottom_up(make_game("1210"), threads=1, progress=False)
    >>> int(stats.counts.sum())
    22
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from solver.common import (
    SolvableGame, SolveStats, SolverError, TierSink, announced, as_seen_by_parent, progress_bar,
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


def tier_levels(game: SolvableGame) -> tuple[list[list[int]], list[set[int]]]:
    """Tiers grouped into levels (a level's tiers only need tiers of lower levels),
    and each tier's child tiers other than itself. Raises SolverError on a tier cycle."""
    count = len(game.tier_sizes)
    children = [set(game.tier_children(t)) - {t} for t in range(count)]
    parents: list[set[int]] = [set() for _ in range(count)]
    for tier, kids in enumerate(children):
        for kid in kids:
            parents[kid].add(tier)
    level = [0] * count
    waiting = [len(kids) for kids in children]
    ready = [t for t in range(count) if waiting[t] == 0]
    done = 0
    while ready:
        tier = ready.pop()
        done += 1
        for parent in parents[tier]:
            level[parent] = max(level[parent], level[tier] + 1)
            waiting[parent] -= 1
            if waiting[parent] == 0:
                ready.append(parent)
    if done != count:
        raise SolverError(f"{game.name}: the tier graph has a cycle; use the retrograde solver")
    levels: list[list[int]] = [[] for _ in range(max(level, default=-1) + 1)]
    for tier in range(count):
        levels[level[tier]].append(tier)
    return levels, children


def _last_use(levels: list[list[int]], children: list[set[int]]) -> dict[int, int]:
    """For each tier, the last level that reads it (its own level if no parent)."""
    last = {}
    for number, level in enumerate(levels):
        for tier in level:
            last.setdefault(tier, number)
            for kid in children[tier]:
                last[kid] = max(last.get(kid, 0), number)
    return last


BYTES_PER_POSITION = 3  # uint8 value + uint16 remoteness


def estimate_peak_bytes(game: SolvableGame) -> int:
    """Memory the bottom-up solver will hold at its peak (value and remoteness arrays)."""
    levels, children = tier_levels(game)
    last = _last_use(levels, children)
    sizes = game.tier_sizes
    resident: set[int] = set()
    peak = 0
    for number, level in enumerate(levels):
        window = set(level) | set().union(*(children[t] for t in level))
        held = int(sum(sizes[t] for t in resident | window)) + int(sum(sizes[t] for t in window))
        peak = max(peak, held)
        resident = {t for t in resident | set(level) if last[t] > number}
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
    levels, children = tier_levels(game)
    last = _last_use(levels, children)
    sizes = np.asarray(game.tier_sizes, dtype=np.int64)
    resident: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    started = time.perf_counter()
    bar = progress_bar(int(sizes.sum()), f"solving {game.name}", progress)
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for number, level in enumerate(levels):
            needed = sorted(set().union(*(children[t] for t in level)))
            window = needed + level
            base = np.full(len(sizes), -1, dtype=np.int64)
            offset = 0
            for tier in window:
                base[tier] = offset
                offset += sizes[tier]
            values = np.full(offset, UNDECIDED, dtype=np.uint8)
            remoteness = np.full(offset, NO_REMOTENESS, dtype=np.uint16)
            for tier in needed:
                tier_values, tier_remoteness = resident[tier]
                values[base[tier]:base[tier] + sizes[tier]] = tier_values
                remoteness[base[tier]:base[tier] + sizes[tier]] = tier_remoteness
            held = offset + sum(len(v) for v, _ in resident.values())
            stats.peak_bytes = max(stats.peak_bytes, held * BYTES_PER_POSITION)

            tasks = []
            for tier in level:
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
                raise SolverError(f"{game.name}: {failures} positions of level {number} have a "
                                  "child that is unsolved, illegal or outside the tiers solved so far")
            for tier in level:
                tier_values = values[base[tier]:base[tier] + sizes[tier]]
                tier_remoteness = remoteness[base[tier]:base[tier] + sizes[tier]]
                stats.add_tier(tier_values, tier_remoteness)
                if sink is not None:
                    sink(tier, tier_values, tier_remoteness)
                if last[tier] > number:  # copied out so that the window can be freed
                    resident[tier] = (tier_values.copy(), tier_remoteness.copy())
            resident = {t: arrays for t, arrays in resident.items() if last[t] > number}
            del values, remoteness
    bar.close()
    stats.solve_seconds = time.perf_counter() - started
    assert stats.counts[ILLEGAL] + stats.counts[1:].sum() == sizes.sum()
    return stats
