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
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

import numpy as np

from solver.common import (
    TERMINAL, SolvableGame, SolveStats, SolverError, TierSink, announced, as_seen_by_parent,
    progress_bar, scratch,
)
from solver.jit import specialise
from solver.values import ILLEGAL, LOSE, TIE, UNDECIDED, WIN

#: Positions per task when a tier is split between threads.
CHUNK = 1 << 17


def _solve_positions(data, tier, lo, hi, base, values, remoteness, none, state_size, max_moves):
    """Template: solve local indices hi-1 down to lo of ``tier``; returns failures.

    ``base[t]`` is where tier t starts in ``values``/``remoteness`` (-1: not loaded);
    ``none`` is the remoteness stored for illegal positions (the dtype's maximum), and
    a remoteness that would reach it counts as a failure.
    ``expand`` is bound to the game's function by ``specialise``.
    """
    out, state, child, moves = scratch(state_size, max_moves)
    start = base[tier]
    failures = 0
    for local in range(hi - 1, lo - 1, -1):
        at = start + local
        count = expand(data, tier, local, out, state, child, moves)  # noqa: F821 (bound)
        if count <= 0:
            values[at] = -count
            remoteness[at] = 0 if count < 0 else none
            continue
        best_win = none
        best_tie = none
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
        elif best_win < none - 1:
            values[at] = WIN
            remoteness[at] = best_win + 1
        elif best_tie < none - 1:
            values[at] = TIE
            remoteness[at] = best_tie + 1
        elif worst_lose < none - 1:
            values[at] = LOSE
            remoteness[at] = worst_lose + 1
        else:
            values[at] = UNDECIDED
            failures += 1
    return failures


class TierPlan:
    """Which tiers can be solved next, and which solved tiers must stay in memory.

    A tier is ready when every tier its moves reach (other than itself) is solved;
    ready tiers are taken smallest number first (games number their tiers so that
    this keeps few in memory). A solved tier stays in memory until every tier that
    reads it has started (each copies what it reads into its own window).
    Raises SolverError if the tier graph has a cycle."""

    def __init__(self, game: SolvableGame) -> None:
        count = len(game.tier_sizes)
        reach = [set(game.tier_children(t)) for t in range(count)]
        self.children = [sorted(reach[t] - {t, TERMINAL}) for t in range(count)]
        self.self_moves = [t in reach[t] for t in range(count)]
        self.parents: list[list[int]] = [[] for _ in range(count)]
        for tier, kids in enumerate(self.children):
            for kid in kids:
                self.parents[kid].append(tier)
        self.waiting = [len(kids) for kids in self.children]
        self.readers_left = [len(ps) for ps in self.parents]
        self.ready = [t for t in range(count) if self.waiting[t] == 0]
        heapq.heapify(self.ready)
        self.resident: set[int] = set()
        self.unsolved = count
        self._check_acyclic(game.name)

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
            raise SolverError(f"{name}: the tier graph has a cycle; use the retrograde solver")

    def start(self) -> tuple[int, list[int], list[int]]:
        """Take the next ready tier: (tier, tiers it reads, resident tiers now free)."""
        tier = heapq.heappop(self.ready)
        freed = []
        for kid in self.children[tier]:
            self.readers_left[kid] -= 1
            if self.readers_left[kid] == 0:
                self.resident.discard(kid)
                freed.append(kid)
        return tier, self.children[tier], freed

    def finish(self, tier: int) -> bool:
        """Record a solved tier; True if it must stay in memory for later readers."""
        self.unsolved -= 1
        for parent in self.parents[tier]:
            self.waiting[parent] -= 1
            if self.waiting[parent] == 0:
                heapq.heappush(self.ready, parent)
        if self.readers_left[tier] > 0:
            self.resident.add(tier)
            return True
        return False


def estimate_peak_bytes(game: SolvableGame, threads: int | None = None) -> int:
    """Memory the bottom-up solver holds at its peak (value and remoteness arrays),
    simulating tiers that finish in the order they start, ``threads`` at a time."""
    threads = threads or os.cpu_count() or 1
    sizes = [int(size) for size in game.tier_sizes]
    plan, windows, peak = TierPlan(game), {}, 0
    while plan.ready or windows:
        while plan.ready and len(windows) < threads:
            tier, reads, _ = plan.start()
            windows[tier] = sizes[tier] + sum(sizes[t] for t in reads)
            peak = max(peak, sum(windows.values()) + sum(sizes[t] for t in plan.resident))
        plan.finish(next(iter(windows)))
        del windows[next(iter(windows))]
    return peak * bytes_per_position(game)


def remoteness_dtype(game: SolvableGame) -> np.dtype:
    """uint8 when the game bounds every remoteness below 255, else uint16."""
    bound = getattr(game, "remoteness_bound", None)
    return np.dtype(np.uint8) if bound is not None and bound < 255 else np.dtype(np.uint16)


def bytes_per_position(game: SolvableGame) -> int:
    """Value (1 byte) and remoteness held in memory per position."""
    return 1 + remoteness_dtype(game).itemsize


def kernel_for(game: SolvableGame):
    """The game's compiled bottom-up kernel (compiled or loaded from cache on first use)."""
    return specialise(_solve_positions, game.kernel_label, expand=game.expand)


def warm_up(game: SolvableGame) -> float:
    """Compile (or load) the kernel; returns the seconds it took."""
    start = time.perf_counter()
    kernel = kernel_for(game)
    dtype = remoteness_dtype(game)
    kernel(game.data, 0, 0, 0, np.zeros(len(game.tier_sizes), np.int64), np.zeros(0, np.uint8),
           np.zeros(0, dtype), np.iinfo(dtype).max, game.state_size, game.max_moves)
    return time.perf_counter() - start


class _Window:
    """The arrays one tier is solved in: copies of the tiers it reads, then its own."""

    def __init__(self, tier, reads, sizes, resident, dtype, none) -> None:
        self.base = np.full(len(sizes), -1, dtype=np.int64)
        offset = 0
        for t in [*reads, tier]:
            self.base[t] = offset
            offset += sizes[t]
        self.values = np.full(offset, UNDECIDED, dtype=np.uint8)
        self.remoteness = np.full(offset, none, dtype=dtype)
        for t in reads:
            values, remoteness = resident[t]
            self.values[self.base[t]:self.base[t] + sizes[t]] = values
            self.remoteness[self.base[t]:self.base[t] + sizes[t]] = remoteness
        self.start = int(self.base[tier])
        self.tasks = 0
        self.failures = 0

    def own(self) -> tuple[np.ndarray, np.ndarray]:
        """The solved tier's values and remoteness."""
        return self.values[self.start:], self.remoteness[self.start:]


def solve_bottom_up(game: SolvableGame, *, threads: int | None = None, progress: bool = True,
                    sink: TierSink | None = None) -> SolveStats:
    """Solve every tier of an acyclic game; ``sink(tier, values, remoteness)`` gets each
    tier as soon as it is solved (the arrays are only valid during the call)."""
    threads = threads or os.cpu_count() or 1
    with announced(f"{game.name}: loading or compiling the numba kernels", progress):
        stats = SolveStats(compile_seconds=warm_up(game))
    kernel = kernel_for(game)
    dtype = remoteness_dtype(game)
    none = int(np.iinfo(dtype).max)
    sizes = np.asarray(game.tier_sizes, dtype=np.int64)
    plan = TierPlan(game)
    resident: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # solved tiers still to be read
    windows: dict[int, _Window] = {}                          # tiers being solved
    pending: dict = {}                                        # future -> tier
    bar = progress_bar(int(sizes.sum()), f"solving {game.name}", progress)

    def held_bytes() -> int:
        positions = sum(len(w.values) for w in windows.values()) + sum(len(v) for v, _ in resident.values())
        return positions * bytes_per_position(game)

    def complete(tier: int) -> None:
        window = windows.pop(tier)
        if window.failures:
            raise SolverError(f"{game.name}: {window.failures} positions of tier {tier} have a "
                              "child that is unsolved, illegal or outside the tiers solved so far")
        tier_values, tier_remoteness = window.own()
        stats.add_tier(tier_values, tier_remoteness)
        if sink is not None:
            sink(tier, tier_values, tier_remoteness)
        if plan.finish(tier):  # copied out so that the window can be freed
            resident[tier] = (tier_values.copy(), tier_remoteness.copy())

    with ThreadPoolExecutor(max_workers=threads) as pool:
        while plan.ready or pending:
            while plan.ready and len(pending) < threads:  # keep every thread busy
                tier, reads, freed = plan.start()
                window = _Window(tier, reads, sizes, resident, dtype, none)
                for kid in freed:
                    del resident[kid]
                windows[tier] = window
                stats.peak_bytes = max(stats.peak_bytes, held_bytes())
                step = int(sizes[tier]) if plan.self_moves[tier] else CHUNK
                for lo in range(0, int(sizes[tier]), max(step, 1)):
                    hi = min(lo + step, int(sizes[tier]))
                    future = pool.submit(kernel, game.data, tier, lo, hi, window.base, window.values,
                                         window.remoteness, none, game.state_size, game.max_moves)
                    pending[future] = (tier, hi - lo)
                    window.tasks += 1
                if window.tasks == 0:  # an empty tier
                    complete(tier)
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                tier, count = pending.pop(future)
                window = windows[tier]
                window.failures += future.result()
                window.tasks -= 1
                bar.update(count)
                if window.tasks == 0:
                    complete(tier)
    if plan.unsolved:
        raise SolverError(f"{game.name}: {plan.unsolved} tiers were never ready")
    bar.close()
    assert stats.counts[ILLEGAL] + stats.counts[1:].sum() == sizes.sum()
    return stats
