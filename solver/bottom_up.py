"""The bottom-up kernel: solves the positions of an IMMEDIATE or SWEEP tier.

Every move of such a tier leads to a tier solved before it, or (SWEEP) to a higher
local index of the same tier, which the sweep from the top index down has already
solved. A position's value follows from its children's records at once (RULES.md):
WIN if some child is a loss for the player to move there, else TIE if some child is
a tie, else DRAW if some child is a draw (a loopy child tier), else LOSE. The tier
driver (``solver/tiers.py``) splits IMMEDIATE tiers into chunks on several threads.

    >>> from tiersolve.games import make_game
    >>> from tiersolve.solver.tiers import solve
    >>> stats = solve(make_game("1210"), threads=1, progress=False)
    >>> int(stats.counts.sum())
    22
"""

from __future__ import annotations

import numpy as np

from tiersolve.contract import (
    CHILD_INDEX, CHILD_NOT_YET_SOLVED, CHILD_OUT_OF_RANGE, CHILD_TIER, CHILD_TIER_NOT_SOLVED,
    LEVEL_NOT_HIGHER, LEVEL_OUT_OF_RANGE, REMOTENESS_OVERFLOW,
)
from tiersolve.jit import bound_later, specialise
from tiersolve.solver.common import (
    NO_CHILD, expanding_kernel, read_child, report_failure, score_outcome,
)
from tiersolve.solver.records import pack_record
from tiersolve.values import DRAW

expand, sweep_level = bound_later("expand", "sweep_level")


def _solve_range(out, state, child, moves, data, tier, lo, hi, addresses, sizes, records,
                 first, none, failure, levels, level):
    """Template: solve local indices hi-1 down to lo of ``tier`` into ``records``,
    local index ``i`` at ``records[i - first]`` (``first`` is 0 for a whole tier, and
    a piece's first index when a tier is solved in pieces); ``out``..``moves`` are
    ``expand``'s buffers (``solver.common.expanding_kernel`` compiles it).

    ``addresses[t]`` is the address of tier t's records (0: not solved; for a SWEEP
    tier its own records), ``sizes[t]`` its size; ``none`` is the records' "no
    remoteness". The first contract failure goes to ``failure`` (see solver.common)
    and stops the sweep.

    A leveled sweep (``levels`` not empty: the tier's ``sweep_level`` of each index)
    solves only the indices of ``level``, whose moves inside the tier lead to higher
    levels, solved before; the calls of one level share nothing, so they run side by
    side, and each goes on past a failure so that the lowest one is reported."""
    if hi <= lo:
        return
    like = records[lo - first]
    leveled = levels.size > 0
    for local in range(hi - 1, lo - 1, -1):
        if leveled and levels[local] != level:
            continue
        count = expand(data, tier, local, out, state, child, moves)
        if count <= 0:  # illegal (0), or primitive with value code -count
            records[local - first] = pack_record(-count, 0 if count < 0 else none)
            continue
        best = np.int64(NO_CHILD)
        problem = 0
        for k in range(count):
            problem, score = read_child(out, k, addresses, sizes, like)
            index = out[k, CHILD_INDEX]
            # A move inside a sweep tier must lead to a position solved before this
            # one (read_child read its record, in range, whatever it holds).
            if out[k, CHILD_TIER] == tier and problem != CHILD_OUT_OF_RANGE \
                    and problem != CHILD_TIER_NOT_SOLVED:
                if leveled:
                    if levels[index] <= level:
                        problem = LEVEL_NOT_HIGHER
                elif index <= local:
                    problem = CHILD_NOT_YET_SOLVED
            if problem != 0:
                report_failure(failure, problem, local, out[k, CHILD_TIER], index)
                break
            best = max(best, score)
        if problem != 0:
            records[local - first] = pack_record(0, none)
            if leveled:  # this level's other positions do not read this one
                continue
            return  # stop: the positions below may read this one
        value, distance = score_outcome(best, none)
        if value != DRAW and distance >= none:
            report_failure(failure, REMOTENESS_OVERFLOW, local, tier, distance)
            distance = 0
        records[local - first] = pack_record(value, distance)


def _sweep_levels(data, tier, lo, hi, levels, histogram, state_size, failure):
    """Template: ``levels[local] = sweep_level(...)`` for ``lo <= local < hi``, each
    counted in ``histogram``; a level outside the histogram is a contract failure.
    ``sweep_level`` is bound to the game's function by ``specialise``."""
    state = np.empty(state_size, np.int64)
    for local in range(lo, hi):
        level = sweep_level(data, tier, local, state)
        if level < 0 or level >= histogram.size:
            report_failure(failure, LEVEL_OUT_OF_RANGE, local, tier, level)
            return
        levels[local] = level
        histogram[level] += 1


def levels_kernel_for(game):
    """The game's compiled kernel that computes a sweep tier's levels."""
    return specialise(_sweep_levels, game.kernel_label, sweep_level=game.sweep_level)


#: The levels of a leveled sweep, one byte an index.
LEVEL_TYPE = np.uint8


def kernel_for(game):
    """The game's compiled bottom-up kernel (compiled or loaded from cache on first use),
    called as ``kernel(state_size, max_moves, data, tier, lo, hi, addresses, sizes,
    records, first, none, failure, levels, level)``."""
    return expanding_kernel(_solve_range, game)


#: The jobs of ``warm_up``: the kernel, and a sweep's levels.
SOLVE, LEVELS = "solve", "levels"


def compile_jobs(game) -> list[str]:
    """The jobs of ``warm_up(game, records_type, job)``, the largest first."""
    return [SOLVE] if game.sweep_level is None else [SOLVE, LEVELS]


def warm_up(game, records_type: np.dtype, job: str | None = None) -> None:
    """Compile (or load) the kernels for records of ``records_type``: all of them, or
    those of one of ``compile_jobs``."""
    count = len(game.tier_sizes)
    if job in (None, SOLVE):
        kernel_for(game)(game.state_size, game.max_moves, game.data, 0, 0, 0,
                         np.zeros(count, np.int64), np.zeros(count, np.int64),
                         np.zeros(1, records_type), 0, 0, np.zeros(4, np.int64),
                         np.zeros(0, LEVEL_TYPE), 0)
    if job in (None, LEVELS) and game.sweep_level is not None:
        levels_kernel_for(game)(game.data, 0, 0, 0, np.zeros(0, LEVEL_TYPE),
                                np.zeros(1, np.int64), game.state_size, np.zeros(4, np.int64))
