#!/usr/bin/env python3
"""Where the time of a loopy tier goes: the tier's kernel batches timed by kernel, on
1 or more threads (docs/PROFILE.md).

    python scripts/profile_loopy.py loa --rows 5 --cols 5 --max-pieces 4
    python scripts/profile_loopy.py surakarta --size 6 --max-pieces 3 --tier 5 --threads 1

The tiers the chosen tier reads (by default the game's largest loopy tier) are solved
first, untimed; then the tier's batches run as ``solver.tiers`` runs them, and the
seconds of each kind of kernel call, the number of batches of each and the levels
are printed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

from _installed import require_tiersolve

require_tiersolve("profile_loopy.py")

import numpy as np  # noqa: E402

from tiersolve.cli import add_game_options, game_from_args  # noqa: E402
from tiersolve.games import GAMES, game_class  # noqa: E402
from tiersolve.solver import loopy, tiers  # noqa: E402
from tiersolve.solver.atomic import address_of  # noqa: E402
from tiersolve.solver.common import TierType  # noqa: E402


def _kernel_name(kernel) -> str:
    name = getattr(kernel, "__name__", None) or getattr(getattr(kernel, "py_func", None), "__name__", "?")
    return name.split("__")[0].lstrip("_")


def profile_tier(game, tier: int, threads: int, repeat: int = 1) -> tuple[dict, dict, float]:
    """Solve ``tier`` of ``game`` (its child tiers first, untimed) ``repeat`` times;
    returns the fastest run's (seconds by kernel, batches by kernel, total seconds)."""
    below, frontier = set(), [tier]
    while frontier:
        for kid in set(tiers.tiers_read(game, frontier.pop())) - below:
            below.add(kid)
            frontier.append(kid)
    kept: dict[int, np.ndarray] = {}
    tiers.solve(game, progress=False, only=below,
                sink=lambda t, records, counts, longest: kept.update({t: records}))
    tiers.warm_up(game)
    dtype = tiers.records_type(game)
    addresses = np.zeros(len(game.tier_sizes), dtype=np.int64)
    for kid in tiers.tiers_read(game, tier):
        addresses[kid] = address_of(kept[kid]) if kept[kid].size else -1
    runs = [_timed_run(game, tier, addresses, threads, dtype) for _ in range(repeat)]
    return min(runs, key=lambda run: run[2])


def _timed_run(game, tier, addresses, threads, dtype):
    steps = loopy.solve_tier(game, tier, addresses, threads, dtype, tiers.LOOPY_CHUNK)
    seconds: dict[str, float] = defaultdict(float)
    batches: dict[str, int] = defaultdict(int)
    began = time.perf_counter()
    results = None
    with ThreadPoolExecutor(max_workers=threads) as pool:
        while True:
            try:
                calls = steps.send(results)
            except StopIteration:
                break
            if isinstance(calls, tuple):
                calls = calls[0]
            if not calls:
                results = []
                continue
            name = _kernel_name(calls[0][0])
            start = time.perf_counter()
            results = list(pool.map(lambda call: call[0](*call[1]), calls))
            seconds[name] += time.perf_counter() - start
            batches[name] += 1
    return dict(seconds), dict(batches), time.perf_counter() - began


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--tier", type=int, default=None, help="the tier (default: the largest loopy one)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1, help="solve the tier this many times "
                        "and show the fastest (the machine's timings vary)")
    first, rest = parser.parse_known_args(argv)
    options = argparse.ArgumentParser()
    options.add_argument("game")
    add_game_options(options, game_class(first.game))
    game = game_from_args(options.parse_args([first.game, *rest]))
    loopy_tiers = [t for t in range(len(game.tier_sizes))
                   if tiers.tier_type(game, t) == TierType.LOOPY]
    tier = first.tier if first.tier is not None else max(loopy_tiers, key=lambda t: game.tier_sizes[t])
    seconds, batches, total = profile_tier(game, tier, first.threads, first.repeat)
    size = int(game.tier_sizes[tier])
    print(f"{game.describe()}: tier {tier} ({size:,} positions), {first.threads} thread(s): "
          f"{total:.2f} s, {size / total / 1e6:.2f} M positions/s")
    for name in sorted(seconds, key=seconds.get, reverse=True):
        print(f"  {name:24s} {seconds[name]:8.3f} s  {batches[name]:6d} batches  "
              f"{seconds[name] / size * 1e9:8.1f} ns/position")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
