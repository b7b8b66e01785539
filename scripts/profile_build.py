#!/usr/bin/env python3
"""Where the time of a bottom-up build goes: each stage of the solver's inner loop
timed on its own, over every index of every tier, on one thread (docs/PROFILE.md).

    python scripts/profile_build.py domineering --rows 5 --cols 5
    python scripts/profile_build.py konane --rows 5 --cols 5

Stages, each a numba loop over all indices that does a little more than the one before:
``decode`` (index -> state), ``moves`` (+ generate_moves and primitive), ``children``
(+ do_move of every move), ``composed expand`` (+ hashing every child: the five game
functions as the solver composes them), the game's own ``expand`` if it has one, and
the bottom-up ``solve`` kernel (expand + reading each child's record + the value);
for Domineering also its own ``expand`` with the children's ranks left out.
Differences between stages are the cost of each step; the solve of every tier is
timed through solver.tiers with one thread.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Callable

from _installed import require_tiersolve

require_tiersolve("profile_build.py")

from tiersolve.cli.common import add_game_options, game_from_args  # noqa: E402
from tiersolve.games import GAMES, game_class  # noqa: E402
from tiersolve.games.base import Game  # noqa: E402
from tiersolve.games.domineering import CELLS as DOMINEERING_CELLS  # noqa: E402
from tiersolve.jit import bound_later, specialise  # noqa: E402
from tiersolve.solver import tiers  # noqa: E402
from tiersolve.solver.common import scratch  # noqa: E402
from tiersolve.values import UNDECIDED  # noqa: E402

# What the templates below call; ``specialise`` binds them to the game's functions.
decode, generate_moves, do_move, primitive, expand, unrank_subset = bound_later(
    "decode", "generate_moves", "do_move", "primitive", "expand", "unrank_subset")


def _decode_stage(data, tier, size, state_size, max_moves):
    """Template: decode every index of ``tier``; returns a checksum."""
    out, state, child, moves = scratch(state_size, max_moves)
    total = 0
    for local in range(size):
        decode(data, tier, local, state)
        total += state[0]
    return total


def _moves_stage(data, tier, size, state_size, max_moves):
    """Template: decode, generate the moves and test for a finished game; returns the
    number of moves of positions still in play."""
    out, state, child, moves = scratch(state_size, max_moves)
    total = 0
    for local in range(size):
        decode(data, tier, local, state)
        count = generate_moves(data, state, moves)
        if primitive(data, state, count) == UNDECIDED:
            total += count
    return total


def _children_stage(data, tier, size, state_size, max_moves):
    """Template: as ``_moves_stage``, and make every child position (not hashed)."""
    out, state, child, moves = scratch(state_size, max_moves)
    total = 0
    for local in range(size):
        decode(data, tier, local, state)
        count = generate_moves(data, state, moves)
        if primitive(data, state, count) != UNDECIDED:
            continue
        for k in range(count):
            total += do_move(data, state, moves[k], child) + child[0]
    return total


def _expand_stage(data, tier, size, state_size, max_moves):
    """Template: ``expand`` of every index (children hashed); returns (the moves of
    the positions in play, a checksum of the children's indices)."""
    out, state, child, moves = scratch(state_size, max_moves)
    children = 0
    checksum = 0
    for local in range(size):
        count = expand(data, tier, local, out, state, child, moves)
        for k in range(count):
            checksum += out[k, 1]
        children += max(count, 0)
    return children, checksum


def _domineering_expand_unhashed(data, tier, local, out, state, child, moves):
    """Template: Domineering's ``expand`` (games/domineering.py, without symmetry) with
    each child's covered-cell mask stored instead of its rank: expand minus hashing."""
    covered = unrank_subset(local, 2 * tier, data.params[DOMINEERING_CELLS])
    mine = data.dominoes[tier % 2]
    count = 0
    for k in range(mine.shape[0]):
        if mine[k] >= 0 and covered & mine[k] == 0:
            out[count, 0] = tier + 1
            out[count, 1] = covered | mine[k]
            out[count, 2] = 0
            out[count, 3] = k
            count += 1
    return count


def _run_stage(game: Game, kernel: Callable) -> tuple[float, list]:
    """Seconds to run ``kernel`` over every tier (after one call that loads it), and
    what it returned for each tier."""
    kernel(game.data, 0, 0, game.state_size, game.max_moves)
    began = time.perf_counter()
    returned = [kernel(game.data, tier, int(size), game.state_size, game.max_moves)
                for tier, size in enumerate(game.tier_sizes)]
    return time.perf_counter() - began, returned


def profile(game: Game) -> dict[str, float]:
    """Seconds of each stage over the whole index space, and the counts."""
    f = game.functions
    label = f"profile_{game.kernel_label}"
    five = dict(decode=f.decode, generate_moves=f.generate_moves, primitive=f.primitive,
                do_move=f.do_move)
    results: dict[str, float] = {"positions": float(game.size)}
    results["decode"] = _run_stage(game, specialise(_decode_stage, label, decode=f.decode))[0]
    results["moves"] = _run_stage(game, specialise(
        _moves_stage, label, decode=f.decode, generate_moves=f.generate_moves,
        primitive=f.primitive))[0]
    results["children"] = _run_stage(game, specialise(_children_stage, label, **five))[0]
    results["composed expand"], per_tier = _run_stage(game, specialise(
        _expand_stage, label, expand=game.composed_expand))
    results["children total"] = float(sum(children for children, _ in per_tier))
    if f.expand is not None:
        results["game's expand"] = _run_stage(game, specialise(_expand_stage, label,
                                                                expand=f.expand))[0]
    if game.name == "domineering" and not game.options["symmetry"]:
        from tiersolve.hashers.combinations import unrank_subset

        unhashed = specialise(_domineering_expand_unhashed, label, unrank_subset=unrank_subset)
        results["game's expand, children not hashed"] = _run_stage(game, specialise(
            _expand_stage, label, expand=unhashed))[0]
    tiers.warm_up(game)  # loads the kernels
    stats = tiers.solve(game, threads=1, progress=False)
    results["solve (1 thread)"] = sum(stats.tier_seconds.values())
    return results


def main(argv: list[str]) -> int:
    """``profile_build.py GAME [--option N ...]``: print the stages' seconds."""
    parser = argparse.ArgumentParser(
        allow_abbrev=False,
        prog="profile_build.py", description=__doc__.split("\n\n")[0],
        epilog="example: python scripts/profile_build.py domineering --rows 4 --cols 4")
    parser.add_argument("game", choices=list(GAMES), metavar="GAME", help=", ".join(GAMES))
    chosen, rest = parser.parse_known_args(argv)
    with_options = argparse.ArgumentParser(allow_abbrev=False,
                                           prog=f"profile_build.py {chosen.game}")
    add_game_options(with_options, game_class(chosen.game))
    args = with_options.parse_args(rest, namespace=chosen)
    try:
        game = game_from_args(args)
    except ValueError as error:
        with_options.error(str(error))
    results = profile(game)
    positions, children = int(results.pop("positions")), int(results.pop("children total"))
    print(f"{game.describe()}: {positions:,} positions, {children:,} moves of positions in play")
    for stage, seconds in results.items():
        print(f"  {stage:<36} {seconds:7.3f} s  {1e9 * seconds / positions:7.1f} ns/position")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
