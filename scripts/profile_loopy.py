#!/usr/bin/env python3
"""Where the time of a loopy tier goes: the tier's kernel batches timed by kernel, on
1 or more threads (docs/PROFILE.md).

    python scripts/profile_loopy.py loa --rows 5 --cols 5 --max-pieces 4
    python scripts/profile_loopy.py surakarta --size 6 --max-pieces 3 --tier 5 --threads 1
    python scripts/profile_loopy.py loa --rows 5 --cols 5 --max-pieces 4 --unmoves

The tiers the chosen tier reads (by default the game's largest loopy tier) are solved
first, untimed; then the tier's batches run as ``solver.tiers`` runs them, and the
seconds of each kind of kernel call, the number of batches of each and the levels
are printed. With ``--unmoves``, only the game's un-move generator is timed, on one
thread over every position of the tier (decided or not): parents a position and
nanoseconds a position.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

from _installed import require_tiersolve

require_tiersolve("profile_loopy.py")

import numpy as np  # noqa: E402

from tiersolve.cli.common import add_game_options, game_from_args  # noqa: E402
from tiersolve.contract import TierType  # noqa: E402
from tiersolve.games import GAMES, game_class  # noqa: E402
from tiersolve.jit import bound_later, inlined, specialise  # noqa: E402
from tiersolve.solver import loopy, tiers  # noqa: E402
from tiersolve.solver.atomic import address_of  # noqa: E402

parents, = bound_later("parents")  # bound by specialise to the game's un-move generator


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


def _all_parents(data, tier, lo, hi, out, state, other):
    """Template: the number of un-moves of positions lo..hi-1 (``parents`` bound)."""
    total = 0
    for local in range(lo, hi):
        total += parents(data, tier, local, out, state, other)
    return total


def time_unmoves(game, tier: int) -> tuple[float, float]:
    """(parents a position, seconds a position) of the game's ``parents`` over the tier."""
    count_parents = specialise(_all_parents, game.kernel_label, refcounts=False,
                               parents=inlined(game.parents))
    out, state, other = loopy.buffers(game, spread=True)
    count_parents(game.data, tier, 0, min(1000, game.tier_sizes[tier]), out, state, other)  # compile
    size = int(game.tier_sizes[tier])
    began = time.perf_counter()
    total = count_parents(game.data, tier, 0, size, out, state, other)
    return total / size, (time.perf_counter() - began) / size


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--tier", type=int, default=None, help="the tier (default: the largest loopy one)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1, help="solve the tier this many times "
                        "and show the fastest (the machine's timings vary)")
    parser.add_argument("--unmoves", action="store_true",
                        help="time only the un-move generator, one thread, every position")
    first, rest = parser.parse_known_args(argv)
    options = argparse.ArgumentParser(allow_abbrev=False)
    options.add_argument("game")
    add_game_options(options, game_class(first.game))
    game = game_from_args(options.parse_args([first.game, *rest]))
    loopy_tiers = [t for t in range(len(game.tier_sizes))
                   if tiers.tier_type(game, t) == TierType.LOOPY]
    if not loopy_tiers:
        parser.error(f"{game.describe()} has no loopy tier to profile")
    if first.tier is not None and first.tier not in loopy_tiers:
        parser.error(f"tier {first.tier} of {game.describe()} is not loopy; its loopy tiers: "
                     f"{loopy_tiers[0]}..{loopy_tiers[-1]}" if len(loopy_tiers) > 1 else
                     f"tier {first.tier} of {game.describe()} is not loopy; its loopy tier: {loopy_tiers[0]}")
    tier = first.tier if first.tier is not None else max(loopy_tiers, key=lambda t: game.tier_sizes[t])
    if first.unmoves:
        if game.parents is None:
            parser.error(f"{game.describe()} has no un-move generator")
        per_position, seconds = time_unmoves(game, tier)
        print(f"{game.describe()}: tier {tier} ({game.tier_sizes[tier]:,} positions), un-moves "
              f"on 1 thread: {per_position:.2f} parents and {seconds * 1e9:.1f} ns a position "
              f"({seconds / max(per_position, 1e-9) * 1e9:.1f} ns a parent)")
        return 0
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
