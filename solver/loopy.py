"""The loopy kernel: retrograde analysis inside one LOOPY tier, lean and threaded.

Moves that leave the tier lead to tiers solved before it; moves inside it may form
cycles. The tier is solved exactly as RULES.md defines values, in four phases:

1. **Start.** Every position is expanded once. Primitives get their value with
   remoteness 0. A position's moves out of the tier are settled from the solved child
   tiers, and its moves inside the tier are counted (distinct children only). A
   position with no move inside the tier is decided at once; the others are *open*,
   and their remoteness field remembers what the moves out of the tier promise: the
   earliest WIN they give (``WIN_PENDING``), the earliest TIE, or the level below
   which the position cannot be a LOSE (1 + the largest remoteness of its losing
   moves out of the tier).
2. **WIN and LOSE, level by level.** Level r holds the positions decided with
   remoteness r. Their in-tier parents are generated: a parent for which the child
   is a loss becomes a WIN in r + 1; for any other parent the count of moves not yet
   known to lose drops by one (an atomic decrement, so threads may share a tier),
   and at zero the parent becomes a LOSE in max(r + 1, its level from step 1).
   Within a level every update commutes, so the result is the least fixed point
   (every WIN is forceable in finitely many moves) and does not depend on the
   number of threads.
3. **TIE** spreads level by level from tied positions to the open positions that
   have a move to them (or a tied move out of the tier), remoteness 1 + the least.
4. **DRAW**: every position still open.

Parents come from the game's un-move generator (``parents``), as chess tablebase
generators do. A game without one is solved by *value iteration*: each level
expands the open positions again and reads their children (slower, no parents
needed). Neither stores a reverse edge.

Memory: 4 bytes per position of the tier (value 1, remoteness 2, move counter 1;
2 for games with more than 255 moves), plus the solved child tiers' records. At the
end the remoteness array is turned in place into the tier's records.
"""

from __future__ import annotations

import numpy as np

from tiersolve.solver.atomic import atomic_decrement, load_acquire, load_at, store_release
from tiersolve.solver.common import (
    CHILD_ILLEGAL, CHILD_INDEX, CHILD_NONCANONICAL, CHILD_OUT_OF_RANGE, CHILD_SAME_MOVER,
    CHILD_TIER, CHILD_TIER_NOT_SOLVED, PARENT_OUT_OF_RANGE, ContractFailure,
    REMOTENESS_OVERFLOW, TERMINAL, TOO_MANY_MOVES, as_seen_by_parent, child_problem,
    conclude, expanding, first_failure, no_failure, report_failure, scratch, tally,
)
from tiersolve.solver.jit import jit, specialise
from tiersolve.solver.values import (
    DRAW, ILLEGAL, LOSE, NO_REMOTENESS, NONCANONICAL, TIE, WIN, pack_record, record_none,
    unpack_remoteness, unpack_value,
)

# Work states of positions that are not decided yet (value codes above every real one).
#: Open, and every move found so far loses: it becomes a LOSE when its last move
#: inside the tier does. Remoteness field: the least remoteness that LOSE can have.
OPEN = 255
#: Open, and some move out of the tier ties or draws, so it can never be a LOSE.
#: Remoteness field: 1 + the least remoteness of a tie out of the tier (or none).
OPEN_NOT_LOSING = 254
#: A move out of the tier wins in (remoteness field) moves; it becomes a WIN then,
#: unless a move inside the tier wins sooner.
WIN_PENDING = 253

#: Returned as "next level" when nothing is left to do.
NO_LEVEL = 1 << 62


@jit(inline="always")
def _is_open(value):
    return value >= WIN_PENDING


@jit(inline="always")
def _sort_unique(buffer, count):
    """Sort buffer[:count] in place (insertion sort: it is short) and drop repeats;
    returns the number of distinct entries."""
    for i in range(1, count):
        item = buffer[i]
        j = i - 1
        while j >= 0 and buffer[j] > item:
            buffer[j + 1] = buffer[j]
            j -= 1
        buffer[j + 1] = item
    distinct = 0
    for i in range(count):
        if distinct == 0 or buffer[i] != buffer[distinct - 1]:
            buffer[distinct] = buffer[i]
            distinct += 1
    return distinct


@jit(inline="always")
def _decide(values, remoteness, position, value, distance):
    """Give a position its value: remoteness first, then the value is published."""
    remoteness[position] = distance
    store_release(values, position, value)


@jit(inline="always")
def _inside_moves(out, count, tier, size, inside, failure, local):
    """Collect the distinct in-tier children ``(child << 1) | same_mover`` of one
    expanded position into ``inside``; returns how many (-1 after a failure)."""
    found = 0
    for k in range(count):
        if out[k, CHILD_TIER] != tier:
            continue
        child = out[k, CHILD_INDEX]
        if child < 0 or child >= size:
            report_failure(failure, CHILD_OUT_OF_RANGE, local, tier, child)
            return -1
        inside[found] = (child << 1) | out[k, CHILD_SAME_MOVER]
        found += 1
    return _sort_unique(inside, found)


def _start(data, tier, lo, hi, addresses, sizes, record_like, values, remoteness, counters,
           counter_limit, failure, buffers):
    """Template, phase 1 over local indices lo..hi-1 (child tiers' records are read
    through ``addresses``; ``record_like`` is an array of their dtype). Returns the
    lowest remoteness of a position decided WIN/LOSE or WIN_PENDING (the first level
    with work)."""
    out, state, child, moves, inside = buffers
    like = record_like[0]
    first_level = NO_LEVEL
    size = sizes[tier]
    for local in range(lo, hi):
        counters[local] = 0
        count = expand(data, tier, local, out, state, child, moves)  # noqa: F821 (bound)
        if count <= 0:  # illegal (0), or primitive / non-canonical with code -count
            values[local] = -count
            remoteness[local] = 0 if count < 0 and -count != NONCANONICAL else NO_REMOTENESS
            if count < 0 and (-count == WIN or -count == LOSE):
                first_level = 0
            continue
        best_win = np.int64(NO_REMOTENESS)
        best_tie = np.int64(NO_REMOTENESS)
        worst_lose = np.int64(-1)
        draws = 0
        problem = 0
        for k in range(count):
            child_tier = out[k, CHILD_TIER]
            index = out[k, CHILD_INDEX]
            if child_tier == tier:
                continue
            if child_tier == TERMINAL:
                value = as_seen_by_parent(index, out[k, CHILD_SAME_MOVER])
                distance = np.int64(0)
            else:
                if addresses[child_tier] == 0:
                    problem = CHILD_TIER_NOT_SOLVED
                elif index < 0 or index >= sizes[child_tier]:
                    problem = CHILD_OUT_OF_RANGE
                record = like
                if problem == 0:
                    record = load_at(addresses[child_tier], index, like)
                    problem = child_problem(unpack_value(record))
                if problem != 0:
                    report_failure(failure, problem, local, child_tier, index)
                    break
                value = as_seen_by_parent(unpack_value(record), out[k, CHILD_SAME_MOVER])
                distance = np.int64(unpack_remoteness(record))
            best_win, best_tie, worst_lose, draws = tally(value, distance, best_win, best_tie,
                                                          worst_lose, draws)
        distinct = _inside_moves(out, count, tier, size, inside, failure, local) if problem == 0 else -1
        if distinct < 0:
            values[local] = ILLEGAL
            remoteness[local] = NO_REMOTENESS
            continue
        if distinct > counter_limit:
            report_failure(failure, TOO_MANY_MOVES, local, tier, distinct)
            distinct = counter_limit
        counters[local] = distinct
        # A remoteness from the solved tiers is below 8191, so +1 cannot reach NO_REMOTENESS.
        if distinct == 0:  # every move leaves the tier: decided now
            values[local], remoteness[local] = conclude(best_win, best_tie, worst_lose, draws,
                                                        np.int64(NO_REMOTENESS))
            if values[local] == WIN or values[local] == LOSE:
                first_level = min(first_level, np.int64(remoteness[local]))
        elif best_win < NO_REMOTENESS:
            values[local], remoteness[local] = WIN_PENDING, best_win + 1
            first_level = min(first_level, best_win + 1)
        elif best_tie < NO_REMOTENESS or draws:
            values[local] = OPEN_NOT_LOSING
            remoteness[local] = best_tie + 1 if best_tie < NO_REMOTENESS else NO_REMOTENESS
        else:
            values[local], remoteness[local] = OPEN, worst_lose + 1
    return first_level


@jit
def _settle_pending(lo, hi, level, values, remoteness, pending, settled):
    """WIN_PENDING positions whose out-of-tier win is due at ``level`` become WINs
    (``pending``) or OPEN_NOT_LOSING positions whose tie is due become TIEs."""
    for local in range(lo, hi):
        if values[local] == pending and remoteness[local] == level:
            values[local] = settled


@jit(inline="always")
def _due_later(value, distance, level, tie_phase):
    """Does this position give work at a level above ``level``: decided at that level
    (WIN/LOSE in phase 2, TIE in phase 3) or due to be settled then?"""
    if distance <= level or distance == NO_REMOTENESS:
        return False
    if tie_phase:
        return value == TIE or value == OPEN_NOT_LOSING
    return value == WIN or value == LOSE or value == WIN_PENDING


def _spread_from_parents(data, tier, lo, hi, level, tie_phase, values, remoteness, counters,
                         failure, buffers):
    """Template, one level of phase 2 (``tie_phase`` 0) or 3 (1) over lo..hi-1, with the
    game's un-move generator. Returns the next level with work (NO_LEVEL if none)."""
    out, state, other = buffers
    size = values.shape[0]
    next_level = NO_LEVEL
    for local in range(lo, hi):
        value = load_acquire(values, local)
        distance = np.int64(remoteness[local])
        if _is_open(value) or distance != level or \
                not (value == TIE if tie_phase else (value == WIN or value == LOSE)):
            if _due_later(value, distance, level, tie_phase):
                next_level = min(next_level, distance)
            continue
        count = parents(data, tier, local, out, state, other)  # noqa: F821 (bound)
        count = _sort_unique(out, count)
        for p in range(count):
            parent = out[p] >> 1
            if parent < 0 or parent >= size:
                report_failure(failure, PARENT_OUT_OF_RANGE, local, tier, parent)
                continue
            found = _update_parent(values, remoteness, counters, parent, value, out[p] & 1,
                                   level, tie_phase)
            next_level = min(next_level, found)
    return next_level


@jit(inline="always")
def _update_parent(values, remoteness, counters, parent, child_value, same_mover, level, tie_phase):
    """Apply one decided child (of remoteness ``level``) to an in-tier parent; returns
    the level at which the parent was decided, or NO_LEVEL.

    Every child decided in phase 2 or 3 counts its parent's counter down, whatever
    the parent's state, so at the end a counter above zero means a move to a
    position never decided (a draw, or a broken game's illegal index). A WIN is
    published before the count, so the thread whose count reaches zero sees it."""
    current = load_acquire(values, parent)
    decided = NO_LEVEL
    if tie_phase:
        if _is_open(current):
            _decide(values, remoteness, parent, TIE, level + 1)
            decided = level + 1
        atomic_decrement(counters, parent)
        return decided
    good = as_seen_by_parent(child_value, same_mover) == WIN
    if good and _is_open(current):
        _decide(values, remoteness, parent, WIN, level + 1)
        decided = level + 1
    if atomic_decrement(counters, parent) == 1 and not good and \
            load_acquire(values, parent) == OPEN:  # every move inside the tier loses
        decided = max(level + 1, np.int64(remoteness[parent]))
        _decide(values, remoteness, parent, LOSE, decided)
    return decided


def _spread_by_iteration(data, tier, lo, hi, level, tie_phase, values, remoteness, counters,
                         failure, buffers):
    """Template, one level of phase 2 or 3 without an un-move generator: every open
    position is expanded again and decided from its children decided by ``level``."""
    out, state, child, moves, inside = buffers
    size = values.shape[0]
    next_level = NO_LEVEL
    for local in range(lo, hi):
        value = load_acquire(values, local)
        distance = np.int64(remoteness[local])
        if _due_later(value, distance, level, tie_phase):
            next_level = min(next_level, distance)
        if not _is_open(value):
            continue
        count = expand(data, tier, local, out, state, child, moves)  # noqa: F821 (bound)
        distinct = _inside_moves(out, count, tier, size, inside, failure, local)
        losing = 0
        for k in range(distinct):
            target = inside[k] >> 1
            seen = load_acquire(values, target)
            if seen == ILLEGAL or seen == NONCANONICAL:
                report_failure(failure, CHILD_ILLEGAL if seen == ILLEGAL else CHILD_NONCANONICAL,
                               local, tier, target)
                continue
            if _is_open(seen) or np.int64(remoteness[target]) > level:
                continue
            if tie_phase:
                if seen == TIE:
                    losing = -1
                    break
                continue
            mine = as_seen_by_parent(seen, inside[k] & 1)
            if mine == WIN:
                losing = -1
                break
            if mine == LOSE:
                losing += 1
        if losing == -1:
            _decide(values, remoteness, local, TIE if tie_phase else WIN, level + 1)
            next_level = min(next_level, level + 1)
        elif not tie_phase and value == OPEN and distinct > 0 and losing == distinct:
            decided = max(level + 1, np.int64(remoteness[local]))
            _decide(values, remoteness, local, LOSE, decided)
            next_level = min(next_level, decided)
    return next_level


@jit
def _open_to_ties(lo, hi, values, remoteness):
    """Before phase 3: OPEN positions forget their LOSE level (they have no tie out of
    the tier). Returns the first level with ties to spread."""
    first = NO_LEVEL
    for local in range(lo, hi):
        value = values[local]
        if value == OPEN:
            remoteness[local] = NO_REMOTENESS
        elif (value == TIE or value == OPEN_NOT_LOSING) and remoteness[local] != NO_REMOTENESS:
            first = min(first, np.int64(remoteness[local]))
    return first


def _check_undecided_moves(data, tier, lo, hi, values, counters, failure, buffers):
    """Template: positions with a move inside the tier to a position never decided
    (counter above zero after phases 2 and 3) have that move checked: it must lead to
    a legal, canonical position, not an illegal index that would pass for a draw."""
    out, state, child, moves, _ = buffers
    size = values.shape[0]
    for local in range(lo, hi):
        if counters[local] == 0 or values[local] == ILLEGAL or values[local] == NONCANONICAL:
            continue
        count = expand(data, tier, local, out, state, child, moves)  # noqa: F821 (bound)
        for k in range(count):
            target = out[k, CHILD_INDEX]
            if out[k, CHILD_TIER] != tier or target < 0 or target >= size:
                continue
            if values[target] == ILLEGAL or values[target] == NONCANONICAL:
                report_failure(failure, CHILD_ILLEGAL if values[target] == ILLEGAL
                               else CHILD_NONCANONICAL, local, tier, target)


@jit
def _to_records(lo, hi, values, remoteness, none, failure):
    """Phase 4 and packing: open positions become DRAWs, and each position's record
    replaces its remoteness in place. Returns the largest remoteness."""
    longest = 0
    for local in range(lo, hi):
        value = values[local]
        distance = np.int64(remoteness[local])
        if _is_open(value):
            value = DRAW
        if value == DRAW or value == ILLEGAL or value == NONCANONICAL:
            distance = none
        elif distance >= none:
            report_failure(failure, REMOTENESS_OVERFLOW, local, -1, distance)
            distance = 0
        else:
            longest = max(longest, distance)
        remoteness[local] = pack_record(np.int64(value), distance)
    return longest


def kernels_for(game):
    """The game's compiled loopy kernels: (start, spread, check). Each takes its
    scratch arrays (``buffers``) from the caller; those that expand positions are
    compiled by ``solver.common.expanding``, as the bottom-up kernel's loop is."""
    start = expanding(_start, game)
    check = expanding(_check_undecided_moves, game)
    if game.parents is not None:  # un-move generators may copy arrays, which counts references
        spread = specialise(_spread_from_parents, game.kernel_label, parents=game.parents)
    else:
        spread = expanding(_spread_by_iteration, game)
    return start, spread, check


def buffers(game, spread: bool = False) -> tuple[np.ndarray, ...]:
    """Scratch arrays for one call of a kernel of ``kernels_for`` (``spread``: of
    the spread kernel, which with an un-move generator takes parents' buffers)."""
    if spread and game.parents is not None:
        return (np.empty(max(game.max_parents, 1), np.int64), np.empty(game.state_size, np.int64),
                np.empty(game.state_size, np.int64))
    return (*scratch(game.state_size, game.max_moves), np.empty(max(game.max_moves, 1), np.int64))


def counter_type(game) -> np.dtype:
    """Move counters: uint8 unless a position can have more than 255 moves."""
    return np.dtype(np.uint8) if game.max_moves <= 255 else np.dtype(np.uint16)


def bytes_per_position(game) -> int:
    """Work memory of a loopy tier per position: value, remoteness, move counter."""
    return 1 + 2 + counter_type(game).itemsize


def warm_up(game, records_type: np.dtype) -> None:
    """Compile (or load) the kernels for child records of ``records_type``."""
    start, spread, check = kernels_for(game)
    count = len(game.tier_sizes)
    values = np.zeros(1, np.uint8)
    remoteness = np.zeros(1, np.uint16)
    counters = np.zeros(1, counter_type(game))
    failure = np.zeros(4, np.int64)
    addresses = np.zeros(count, np.int64)
    start(game.data, 0, 0, 0, addresses, addresses, np.zeros(1, records_type), values,
          remoteness, counters, 1, failure, buffers(game))
    spread(game.data, 0, 0, 0, 0, 0, values, remoteness, counters, failure, buffers(game, spread=True))
    check(game.data, 0, 0, 0, values, counters, failure, buffers(game))
    _settle_pending(0, 0, 0, values, remoteness, WIN_PENDING, WIN)
    _open_to_ties(0, 0, values, remoteness)
    _to_records(0, 0, values, remoteness, 8191, failure)


def solve_tier(game, tier: int, addresses: np.ndarray, chunks: list[tuple[int, int]],
               records_type: np.dtype):
    """The phases of one loopy tier as a generator: it yields lists of calls
    ``(kernel, args)`` that may run on any threads at once, is sent the list of their
    results, and returns ``(records, largest remoteness)``. Raises ContractFailure.

    ``chunks`` split the tier's local indices into ranges; ``addresses[tier]`` stays
    0 (a loopy tier reads itself through its work arrays)."""
    start, spread, check = kernels_for(game)
    sizes = np.asarray(game.tier_sizes, dtype=np.int64)
    size = int(sizes[tier])
    values = np.empty(size, np.uint8)
    remoteness = np.empty(size, np.uint16)
    counters = np.empty(size, counter_type(game))
    limit = int(np.iinfo(counters.dtype).max)
    failures = [no_failure() for _ in chunks]

    def run(kernel, *args, game_args=True, scratch_of=None):
        """One call per chunk; the results, after checking for contract failures.
        ``scratch_of()`` gives each call its scratch arrays."""
        calls = [(kernel, ((game.data, tier, lo, hi) if game_args else (lo, hi)) + args + (failure,)
                  + ((scratch_of(),) if scratch_of is not None else ()))
                 for (lo, hi), failure in zip(chunks, failures)]
        results = yield calls
        failed = first_failure(failures)
        if failed is not None:
            raise ContractFailure(failed)
        return results

    levels = yield from run(start, addresses, sizes, np.zeros(1, records_type), values,
                            remoteness, counters, limit, scratch_of=lambda: buffers(game))
    for tie_phase, pending, settled in ((0, WIN_PENDING, WIN), (1, OPEN_NOT_LOSING, TIE)):
        if tie_phase:
            levels = yield [(_open_to_ties, (lo, hi, values, remoteness)) for lo, hi in chunks]
        level = min(levels)
        while level < NO_LEVEL:
            yield [(_settle_pending, (lo, hi, level, values, remoteness, pending, settled))
                   for lo, hi in chunks]
            levels = yield from run(spread, level, tie_phase, values, remoteness, counters,
                                    scratch_of=lambda: buffers(game, spread=True))
            level = min(levels)
    if game.parents is not None:  # value iteration has read every open position's moves
        yield from run(check, values, counters, scratch_of=lambda: buffers(game))
    del counters
    longest = yield from run(_to_records, values, remoteness, record_none(records_type),
                             game_args=False)
    del values
    records = remoteness if records_type == remoteness.dtype else remoteness.astype(records_type)
    return records, int(max(longest, default=0))
