"""The loopy kernel: retrograde analysis inside one LOOPY tier, lean and threaded.

Moves that leave the tier lead to tiers solved before it; moves inside it may form
cycles. The tier is solved exactly as docs/RULES.md defines values, in four phases:

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
   known to lose drops by one, and at zero the parent becomes a LOSE in
   max(r + 1, its level from step 1). Within a level every update commutes, so the
   result is the least fixed point (every WIN is forceable in finitely many moves)
   and does not depend on the number of threads.
3. **TIE** spreads level by level from tied positions to the open positions that
   have a move to them (or a tied move out of the tier), remoteness 1 + the least.
4. **DRAW**: every position still open.

Parents come from the game's un-move generator (``parents``), as chess tablebase
generators do. A level costs its own positions, not the tier's:

* **Frontier by blocks.** Every block of 64 positions keeps the lowest level at which
  one of its positions has work (``due``, 2 bytes a block); a level visits only the
  blocks due at it, and threads take blocks from a shared cursor.
* **Updates in two steps** (propagation blocking). Threads *generate* the parents of
  the level's positions straight into their own buffers, by bucket (a range of the
  tier): each bucket is a chain of fixed-size chunks taken from the thread's buffer
  as it fills, since a block's parents crowd into few buckets. Then each bucket's
  updates are *applied* by one thread. No update needs an atomic operation, and the
  parents' counters are read and written a bucket at a time instead of at random
  over the tier. A round ends when the chunks run out; a level may take several
  rounds. An update is 4 bytes (8 in tiers of 2**31 positions or more).

A game without un-moves is solved by *value iteration*: each level expands the open
positions again and reads their children (slower, no parents needed).

Memory: 4 bytes per position of the tier (value 1, remoteness 2, move counter 1;
2 for games with more than 255 moves), 2 bytes per block of 64, the update buffers
(an eighth of a byte a position a thread, between 16 and 64 MB a thread), plus the
solved child tiers' records.
At the end the remoteness array is turned in place into the tier's records.
"""

from __future__ import annotations

import numpy as np

from tiersolve.bits import lowest_bit, sort_unique
from tiersolve.contract import (
    CHILD_ILLEGAL, CHILD_INDEX, CHILD_NONCANONICAL, CHILD_OUT_OF_RANGE, CHILD_SAME_MOVER,
    CHILD_TIER, PARENT_OUT_OF_RANGE, REMOTENESS_OVERFLOW, TOO_MANY_MOVES, UNMOVES_DISAGREE,
)
from tiersolve.jit import bound_later, inlined, jit, specialise
from tiersolve.solver.atomic import atomic_add, load_acquire, store_release
from tiersolve.solver.common import (
    DRAW_SCORE, NO_CHILD, TIE_SCORE, WIN_SCORE, ContractFailure, as_seen_by_parent, expanding,
    first_failure, no_failure, read_child, report_failure, score_outcome, score_remoteness,
    scratch,
)
from tiersolve.solver.records import pack_record, record_none
from tiersolve.values import DRAW, ILLEGAL, LOSE, NO_REMOTENESS, NONCANONICAL, TIE, WIN

expand, expand_leaving, parents = bound_later("expand", "expand_leaving", "parents")
#: Whether the game has ``expand_leaving`` (``specialise`` binds it as a constant).
LEAVING = False

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

#: Positions per block of the frontier (a power of two: block = local >> BLOCK_BITS).
BLOCK_BITS = 6
#: ``due`` of a block with nothing left to do in the current phase.
NO_DUE = 0xFFFF
#: Blocks a thread takes from the shared cursor at a time.
GRAB_BLOCKS = 64
#: Bytes of updates a generating thread buffers before they are applied: at most
#: UPDATE_BYTES, at least MIN_UPDATE_BYTES (fewer, fuller rounds: each round applies
#: a bucket's updates at once), else an eighth of a byte a position of the tier.
UPDATE_BYTES = 64 << 20
MIN_UPDATE_BYTES = 16 << 20
#: Tiers below this many positions have 4-byte updates ``(parent << 1) | good``.
NARROW_UPDATES = 1 << 31
#: Updates in a chunk of a bucket's chain.
CHUNK = 1024
#: Rows of a generating thread's ``chains``: each bucket's first and current chunk and
#: the updates in its current chunk.
FIRST, CURRENT, FILLED = 0, 1, 2
#: The most buckets of a tier (fewer, larger ones for very large tiers), and the least
#: positions in one (2**12).
MAX_BUCKETS = 1024
MIN_BUCKET_BITS = 12
#: Apply calls a round, per thread: a position's parents crowd into few buckets, so
#: calls of many buckets each leave one thread with most of the work (on two threads,
#: LOA 5x5's largest tier applied in 6.4 s with 8 calls a thread, 5.1 s with 32).
APPLY_CALLS = 32


@jit(forceinline=True)
def _is_open(value):
    return value >= WIN_PENDING


@jit(forceinline=True)
def _inside_moves(out, count, tier, size, inside, failure, local):
    """Collect the in-tier children ``(child << 1) | same_mover`` of one expanded
    position into ``inside`` and return how many distinct ones (-1 after a failure)."""
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
    return sort_unique(inside, found)


@jit(forceinline=True)
def _event(value, distance, tie_phase):
    """The level at which a position has work in a phase (NO_DUE if none): a decided
    WIN/LOSE (or one due to be settled) in phase 2, a TIE (or one due) in phase 3."""
    if distance == NO_REMOTENESS:
        return NO_DUE
    if tie_phase:
        if value == TIE or value == OPEN_NOT_LOSING:
            return distance
        return NO_DUE
    if value == WIN or value == LOSE or value == WIN_PENDING:
        return distance
    return NO_DUE


@jit(forceinline=True)
def _level_mask(values, remoteness, base, top, level, tie_phase):
    """(the positions of base..top-1 at ``level`` as bits from ``base``, the lowest
    level above ``level`` at which one of them has work: see ``_event``). Without a
    branch a position, so that the compiler can vectorise it: most positions of a
    block visited are not at the level, and which are is unpredictable."""
    mask = np.uint64(0)
    later = np.int64(NO_DUE)
    for local in range(base, top):
        value = values[local]
        distance = np.int64(remoteness[local])
        if tie_phase:
            event = (value == TIE) | (value == OPEN_NOT_LOSING)
        else:
            event = (value == WIN) | (value == LOSE) | (value == WIN_PENDING)
        mask |= np.uint64(distance == level) << np.uint64(local - base)
        # NO_REMOTENESS is NO_DUE: a position without a level never lowers ``later``.
        later = min(later, distance if event & (distance > level) else np.int64(NO_DUE))
    return mask, later


@jit(forceinline=True)
def _block_due(values, remoteness, base, top, after, tie_phase):
    """The lowest level above ``after`` at which a position of base..top-1 has work."""
    return _level_mask(values, remoteness, base, top, after, tie_phase)[1]


@jit(forceinline=True)
def _blocks_due(values, remoteness, due, lo, hi, tie_phase):
    """Set ``due`` of the blocks of lo..hi-1 (lo a block boundary; hi one, or the
    tier's end) from scratch; returns the lowest (NO_LEVEL if none)."""
    first = NO_LEVEL
    for block in range(lo >> BLOCK_BITS, (hi + (1 << BLOCK_BITS) - 1) >> BLOCK_BITS):
        base = block << BLOCK_BITS
        level = _block_due(values, remoteness, base, min(base + (1 << BLOCK_BITS), hi), -1,
                           tie_phase)
        due[block] = level
        if level != NO_DUE:
            first = min(first, np.int64(level))
    return first


def _start(data, tier, lo, hi, offset, addresses, sizes, record_like, values, remoteness,
           counters, due, counter_limit, failure, buffers):
    """Template, phase 1 over entries lo..hi-1 of the work arrays (block boundaries),
    which hold the tier's local indices from ``offset`` on (0 for a whole tier, a
    part's first index for a part of it: ``solver/loopy_parts.py``); child tiers'
    records are read through ``addresses``; ``record_like`` is an array of their
    dtype. Sets the blocks' ``due``; returns the first level with work. With
    ``LEAVING`` (a constant bound at compile time) the game's ``expand_leaving``
    gives the moves out of the tier and only counts the others."""
    out, state, child, moves, inside = buffers
    like = record_like[0]
    size = sizes[tier]
    for local in range(lo, hi):
        counters[local] = 0
        position = local + offset
        if LEAVING:
            count, staying = expand_leaving(data, tier, position, out, state, child, moves)
            in_play = staying >= 0
        else:
            count = expand(data, tier, position, out, state, child, moves)
            staying = 0
            in_play = count > 0
        if not in_play:  # illegal (0), or primitive / non-canonical with code -count
            values[local] = -count
            remoteness[local] = 0 if count < 0 and -count != NONCANONICAL else NO_REMOTENESS
            continue
        best = np.int64(NO_CHILD)
        problem = 0
        for k in range(count):
            if out[k, CHILD_TIER] == tier:
                continue
            problem, score = read_child(out, k, addresses, sizes, like)
            if problem != 0:
                report_failure(failure, problem, position, out[k, CHILD_TIER],
                               out[k, CHILD_INDEX])
                break
            best = max(best, score)
        found = moves_inside(problem, LEAVING, staying, out, count, tier, size, inside, failure,
                             position, counter_limit)
        if found < 0:
            values[local] = ILLEGAL
            remoteness[local] = NO_REMOTENESS
            continue
        counters[local] = found
        values[local], remoteness[local] = start_state(best, found)
    return _blocks_due(values, remoteness, due, lo, hi, 0)


@jit(forceinline=True)
def moves_inside(problem, leaving, staying, out, count, tier, size, inside, failure, position,
                 counter_limit):
    """The moves inside the tier of an expanded position: ``staying`` (counted by
    ``expand_leaving`` if ``leaving``) or its distinct in-tier children, at most
    ``counter_limit``; -1 if it is illegal (``problem``: a move out of the tier broke
    the contract, or a move inside it leads out of range)."""
    if problem != 0:
        return -1
    found = staying if leaving else _inside_moves(out, count, tier, size, inside, failure,
                                                  position)
    if found > counter_limit:
        report_failure(failure, TOO_MANY_MOVES, position, tier, found)
        found = counter_limit
    return found


@jit(forceinline=True)
def start_state(best, found):
    """(value or work state, remoteness) of a position after phase 1, from the best
    score of its moves out of the tier and its ``found`` moves inside it."""
    # A remoteness from the solved tiers is below 8191, so +1 cannot reach NO_REMOTENESS.
    if found == 0:  # every move leaves the tier: decided now
        return score_outcome(best, np.int64(NO_REMOTENESS))
    if best >= WIN_SCORE:
        return WIN_PENDING, score_remoteness(best) + 1
    if best >= TIE_SCORE:
        return OPEN_NOT_LOSING, score_remoteness(best) + 1
    if best >= DRAW_SCORE:
        return OPEN_NOT_LOSING, np.int64(NO_REMOTENESS)
    return OPEN, best + 1


def _generate(data, tier, level, tie_phase, distinct, offset, tier_size, values, remoteness, due,
              cursor, resume, updates, chains, links, bucket_bits, failure, buffers):
    """Template, one round of a level: take blocks due at ``level`` from the shared
    ``cursor``, settle their positions due now (WIN_PENDING -> WIN, or in the tie
    phase OPEN_NOT_LOSING -> TIE), write an update ``(parent << 1) | good`` (good: the
    child is a loss for the parent's mover) for each in-tier parent of every position
    decided at ``level`` into its bucket's chain, and recompute each finished block's
    ``due``. A chain is chunks of ``updates`` (one per entry of ``links``) taken in
    turn: ``chains[FIRST, k]`` and ``chains[CURRENT, k]`` are bucket k's first and
    current chunk (-1: none), ``chains[FILLED, k]`` the updates in the current one, and
    ``links[c]`` the chunk after chunk c. Stops early when the chunks could run out
    (``resume`` = [block, end of the blocks taken, next position of the block,
    finished]). The work arrays hold the tier's local indices from ``offset`` on (as
    in ``_start``); parents are local indices of the whole tier of ``tier_size``
    positions, so buckets are too."""
    out, state, other = buffers
    size = values.shape[0]
    blocks = due.shape[0]
    chunk = updates.shape[0] // links.shape[0]
    # A position's parents may each start a chunk.
    last_start = links.shape[0] - out.shape[0]
    for k in range(chains.shape[1]):
        chains[FIRST, k] = -1
        chains[FILLED, k] = chunk
    taken = 0
    block, end, next_local = resume[0], resume[1], resume[2]
    while True:
        if block >= end:
            block = atomic_add(cursor, 0, GRAB_BLOCKS)
            if block >= blocks:
                block = end = blocks
                resume[3] = 1
                break
            end = min(block + GRAB_BLOCKS, blocks)
            next_local = block << BLOCK_BITS
        if due[block] != level:
            block += 1
            next_local = block << BLOCK_BITS
            continue
        base = block << BLOCK_BITS
        top = min(base + (1 << BLOCK_BITS), size)
        full = False
        # The block's next level is found in the same pass, unless the pass starts
        # inside the block (a round that filled the buffers stopped there).
        whole = next_local == base
        at_level, later = _level_mask(values, remoteness, base, top, level, tie_phase)
        at_level &= ~((np.uint64(1) << np.uint64(next_local - base)) - np.uint64(1))
        while at_level:
            local = base + lowest_bit(at_level)
            at_level &= at_level - np.uint64(1)
            value = values[local]
            if tie_phase:
                if value == OPEN_NOT_LOSING:
                    value = TIE
                    values[local] = TIE
                elif value != TIE:
                    continue
            else:
                if value == WIN_PENDING:
                    value = WIN
                    values[local] = WIN
                elif value != WIN and value != LOSE:
                    continue
            if taken > last_start:
                next_local = local
                full = True
                break
            count = parents(data, tier, local + offset, out, state, other)
            if not distinct:
                count = sort_unique(out, count)
            for p in range(count):
                parent = out[p] >> 1
                if parent < 0 or parent >= tier_size:
                    report_failure(failure, PARENT_OUT_OF_RANGE, local + offset, tier, parent)
                    continue
                good = 0
                if not tie_phase and as_seen_by_parent(value, out[p] & 1) == WIN:
                    good = 1
                bucket = parent >> bucket_bits
                at = chains[FILLED, bucket]
                if at == chunk:  # the bucket's chunk is full (or it has none): chain a new one
                    if chains[FIRST, bucket] < 0:
                        chains[FIRST, bucket] = taken
                    else:
                        links[chains[CURRENT, bucket]] = taken
                    links[taken] = -1
                    chains[CURRENT, bucket] = taken
                    taken += 1
                    at = 0
                updates[chains[CURRENT, bucket] * chunk + at] = (parent << 1) | good
                chains[FILLED, bucket] = at + 1
        if full:
            break
        due[block] = later if whole else _block_due(values, remoteness, base, top, level, tie_phase)
        block += 1
        next_local = block << BLOCK_BITS
    resume[0], resume[1], resume[2] = block, end, next_local


@jit(forceinline=True)
def _apply_update(level, tie_phase, update, values, remoteness, counters, due):
    """One update ``(parent << 1) | good`` of ``_apply``."""
    parent = update >> 1
    left = counters[parent]
    if left == 0:
        return
    left -= 1
    counters[parent] = left
    current = values[parent]
    if not _is_open(current):
        return
    decided = np.int64(-1)
    if tie_phase:
        values[parent] = TIE
        decided = level + 1
        if current == OPEN_NOT_LOSING:  # a tie out of the tier may be due now
            decided = min(decided, np.int64(remoteness[parent]))
    elif update & 1:
        values[parent] = WIN
        decided = level + 1
        if current == WIN_PENDING:  # a win out of the tier may be due now
            decided = min(decided, np.int64(remoteness[parent]))
    elif left == 0 and current == OPEN:  # every move inside the tier loses
        values[parent] = LOSE
        decided = max(level + 1, np.int64(remoteness[parent]))
    if decided >= 0:
        remoteness[parent] = decided
        block = parent >> BLOCK_BITS
        if decided < due[block]:
            due[block] = decided


@jit(_nrt=False)  # allocates nothing; uncounted, the inlined _apply_update costs no references
def _apply(level, tie_phase, values, remoteness, counters, due, updates, chains, links,
           bucket_bits, first, last, final):
    """Apply the generated updates of buckets first..last-1 (this call alone owns
    them): a child decided at ``level`` counts its parent's moves down, and decides
    the parent (WIN or TIE at level + 1, or LOSE when its last move loses). A parent
    whose win or tie out of the tier is due at ``level`` itself, in a block not yet
    visited in this level's rounds, is decided at ``level``: when the block is
    visited, it is spread then. With
    ``final`` (the level's last round), returns the lowest ``due`` of those buckets'
    blocks: the next level with work there; else NO_LEVEL.

    Every decided child counts its parent down, whatever the parent's state, so at
    the end a counter above zero means a move to a position never decided (a draw,
    or a broken game's illegal index). A counter already at zero belongs to a parent
    with no move inside the tier (an illegal or finished position that an un-move
    generator may give): it is left alone."""
    chunk_size = updates.shape[1] // links.shape[1]
    for row in range(updates.shape[0]):
        for bucket in range(first, last):
            chunk = chains[row, FIRST, bucket]
            while chunk >= 0:
                filled = chains[row, FILLED, bucket] if chunk == chains[row, CURRENT, bucket] \
                    else chunk_size
                for i in range(chunk * chunk_size, chunk * chunk_size + filled):
                    _apply_update(level, tie_phase, np.int64(updates[row, i]), values, remoteness,
                                  counters, due)
                chunk = links[row, chunk]
    if not final:
        return NO_LEVEL
    lowest = NO_LEVEL
    per_bucket = 1 << (bucket_bits - BLOCK_BITS)
    for block in range(first * per_bucket, min(last * per_bucket, due.shape[0])):
        if due[block] != NO_DUE and due[block] < lowest:
            lowest = np.int64(due[block])
    return lowest


@jit
def _open_to_ties(lo, hi, values, remoteness, due):
    """Before phase 3: OPEN positions forget their LOSE level (they have no tie out of
    the tier), and the blocks' ``due`` now counts ties. Returns the first level with
    ties to spread."""
    for local in range(lo, hi):
        if values[local] == OPEN:
            remoteness[local] = NO_REMOTENESS
    return _blocks_due(values, remoteness, due, lo, hi, 1)


# -- value iteration: games without an un-move generator ----------------------------

@jit
def _settle_pending(lo, hi, level, values, remoteness, pending, settled):
    """WIN_PENDING positions whose out-of-tier win is due at ``level`` become WINs
    (``pending``) or OPEN_NOT_LOSING positions whose tie is due become TIEs."""
    for local in range(lo, hi):
        if values[local] == pending and remoteness[local] == level:
            values[local] = settled


@jit(forceinline=True)
def _due_later(value, distance, level, tie_phase):
    """Does this position give work at a level above ``level``?"""
    event = _event(value, distance, tie_phase)
    return event != NO_DUE and event > level


def _spread_by_iteration(data, tier, lo, hi, level, tie_phase, values, remoteness, counters,
                         failure, buffers):
    """Template, one level of phase 2 or 3 without an un-move generator: every open
    position is expanded again and decided from its children decided by ``level``.
    Positions decided here are written at once, remoteness first, then the value with
    a release store: a thread that sees the value (an acquire load) sees the
    remoteness, ``level + 1``, and skips the child (it is above ``level``)."""
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
        count = expand(data, tier, local, out, state, child, moves)
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
            remoteness[local] = level + 1
            store_release(values, local, TIE if tie_phase else WIN)
            next_level = min(next_level, level + 1)
        elif not tie_phase and value == OPEN and distinct > 0 and losing == distinct:
            decided = max(level + 1, np.int64(remoteness[local]))
            remoteness[local] = decided
            store_release(values, local, LOSE)
            next_level = min(next_level, decided)
    return next_level


# -- the end of a tier ---------------------------------------------------------------

def _count_undecided_moves(data, tier, lo, hi, distinct, values, counters, failure, buffers):
    """Template: the moves inside the tier to positions never decided, counted twice:
    by their sources (the counters left above zero after phases 2 and 3) minus by
    their targets (the legal parents, with a counter above zero, of every position
    left open or found a draw when the tier started, from the un-move generator). A move to an illegal or non-canonical
    index counts only on the first side, so the total over the tier is zero unless
    the game broke its contract (then ``_check_undecided_moves`` finds the move).
    Draws cost one un-move generation each, instead of an ``expand`` of every
    position with a move to a draw."""
    out, state, other = buffers
    size = values.shape[0]
    difference = 0
    for local in range(lo, hi):
        value = values[local]
        if value == ILLEGAL or value == NONCANONICAL:
            continue
        difference += np.int64(counters[local])
        if not _is_open(value) and value != DRAW:  # a draw from the start never spreads
            continue
        count = parents(data, tier, local, out, state, other)
        if not distinct:
            count = sort_unique(out, count)
        for p in range(count):
            parent = out[p] >> 1
            if 0 <= parent < size and counters[parent] > 0:
                difference -= 1
    return difference


def _check_undecided_moves(data, tier, lo, hi, values, counters, failure, buffers):
    """Template: positions with a move inside the tier to a position never decided
    (counter above zero after phases 2 and 3) have that move checked: it must lead to
    a legal, canonical position, not an illegal index that would pass for a draw."""
    out, state, child, moves, _ = buffers
    size = values.shape[0]
    for local in range(lo, hi):
        if counters[local] == 0 or values[local] == ILLEGAL or values[local] == NONCANONICAL:
            continue
        count = expand(data, tier, local, out, state, child, moves)
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


# -- the driver side -------------------------------------------------------------------

@jit
def _no_expand_leaving(data, tier, local, out, state, child, moves):
    """Stands in for ``expand_leaving`` in games without it (never called)."""
    return np.int64(0), np.int64(-1)


def kernels_for(game):
    """The game's compiled loopy kernels: (start, spread, check); ``spread`` generates
    parents with the game's un-moves, or, for a game without, is the value
    iteration. Each takes its scratch arrays (``buffers``) from the caller. The
    kernels that run the game's functions are compiled without reference counting
    (``solver.common.expanding``): a game's ``expand`` and ``parents`` allocate nothing."""
    leaving = getattr(game, "expand_leaving", None)
    start = specialise(_start, game.kernel_label, refcounts=game.expand_counts_references,
                       expand=inlined(game.expand),
                       expand_leaving=inlined(leaving or _no_expand_leaving),
                       LEAVING=leaving is not None)
    check = expanding(_check_undecided_moves, game)
    if game.parents is not None:
        spread = specialise(_generate, game.kernel_label, refcounts=False,
                            parents=inlined(game.parents))
    else:
        spread = expanding(_spread_by_iteration, game)
    return start, spread, check


def counting_kernel_for(game):
    """The game's ``_count_undecided_moves`` (games with an un-move generator)."""
    return specialise(_count_undecided_moves, game.kernel_label, refcounts=False,
                      parents=inlined(game.parents))


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


def distinct_parents(game) -> bool:
    """Whether the game promises that its un-moves never give one parent twice (the
    solver then does not sort them)."""
    return bool(getattr(game, "parents_are_distinct", False))


def bucket_bits(size: int) -> int:
    """log2 of the positions in an update bucket of a tier of ``size`` positions: at
    least 2**MIN_BUCKET_BITS, at most MAX_BUCKETS buckets."""
    bits = MIN_BUCKET_BITS
    while (size >> bits) >= MAX_BUCKETS:
        bits += 1
    return bits


def bucket_count(size: int) -> int:
    """Update buckets of a tier of ``size`` positions (``bucket_bits``)."""
    return -(-size >> bucket_bits(size))


def update_type(size: int) -> np.dtype:
    """Updates ``(parent << 1) | good`` of a tier of ``size`` positions: 4 bytes below
    NARROW_UPDATES positions, else 8."""
    return np.dtype(np.uint32) if size < NARROW_UPDATES else np.dtype(np.int64)


def chunk_count(game, size: int) -> int:
    """Chunks of CHUNK updates a generating thread buffers in one round (see
    UPDATE_BYTES): at least enough for four positions' parents."""
    budget = min(UPDATE_BYTES, max(MIN_UPDATE_BYTES, size >> 3))
    return max(budget // (CHUNK * update_type(size).itemsize), 4 * max(game.max_parents, 1) + 64)


def work_bytes(game, size: int, threads: int) -> int:
    """Memory a loopy tier of ``size`` positions takes while it is solved on
    ``threads`` threads: its arrays, the blocks' ``due`` and the update buffers."""
    own = size * bytes_per_position(game) + 2 * (-(-size >> BLOCK_BITS))
    if game.parents is None:
        return own
    buckets = bucket_count(size)
    chunks = chunk_count(game, size)
    return own + threads * (chunks * (CHUNK * update_type(size).itemsize + 8) + 3 * 8 * buckets)


#: The jobs of ``warm_up``, each a kernel or a few small ones (``compile_jobs``).
START, GENERATE, ITERATE, COUNT, APPLY, ENDS = (
    "start", "generate", "iterate", "count", "apply", "ends")


def compile_jobs(game) -> list[str]:
    """The jobs of ``warm_up(game, records_type, job)``, the largest first: separate
    processes may take them (``databases.build.KernelCompile``)."""
    if game.parents is None:
        return [START, ITERATE, ENDS]
    return [START, GENERATE, COUNT, APPLY, ENDS]


def warm_up(game, records_type: np.dtype, job: str | None = None) -> None:
    """Compile (or load) the kernels a tier runs, for child records of
    ``records_type``: all of them, or those of one of ``compile_jobs``. Not the check
    of ``kernels_for``, which only a game that breaks its contract runs."""
    start, spread, _ = kernels_for(game)
    count = len(game.tier_sizes)
    values = np.zeros(1, np.uint8)
    remoteness = np.zeros(1, np.uint16)
    counters = np.zeros(1, counter_type(game))
    due = np.zeros(1, np.uint16)
    failure = np.zeros(4, np.int64)
    addresses = np.zeros(count, np.int64)
    if job in (None, START):
        start(game.data, 0, 0, 0, 0, addresses, addresses, np.zeros(1, records_type), values,
              remoteness, counters, due, 1, failure, buffers(game))
    if job in (None, ITERATE) and game.parents is None:
        spread(game.data, 0, 0, 0, 0, 0, values, remoteness, counters, failure, buffers(game))
        _settle_pending(0, 0, 0, values, remoteness, WIN_PENDING, WIN)
    if job in (None, ENDS):
        _open_to_ties(0, 0, values, remoteness, due)
        _to_records(0, 0, values, remoteness, 8191, failure)
    if game.parents is None:
        return
    for dtype in {update_type(size) for size in game.tier_sizes}:  # those its tiers use
        updates = np.zeros((1, 8), dtype)
        chains = np.zeros((1, 3, 1), np.int64)
        links = np.zeros((1, 1), np.int64)
        if job in (None, GENERATE):
            spread(game.data, 0, 0, 0, False, 0, 0, values, remoteness, due, np.ones(1, np.int64),
                   np.zeros(4, np.int64), updates[0], chains[0], links[0], 12, failure,
                   buffers(game, spread=True))
        if job in (None, APPLY):
            _apply(0, 0, values, remoteness, counters, due, updates, chains, links, 12, 0, 0,
                   False)
    if job in (None, COUNT):
        counting_kernel_for(game)(game.data, 0, 0, 0, False, values, counters, failure,
                                  buffers(game, spread=True))


def block_chunks(size: int, threads: int, smallest: int) -> list[tuple[int, int]]:
    """[lo, hi) ranges covering 0..size-1 for the linear phases, on block boundaries:
    about four a thread, none smaller than ``smallest`` (rounded up to a block)."""
    block = 1 << BLOCK_BITS
    step = max(smallest, -(-size // (4 * threads)))
    step = -(-step // block) * block
    return [(lo, min(lo + step, size)) for lo in range(0, size, step)]


def solve_tier(game, tier: int, addresses: np.ndarray, threads: int, records_type: np.dtype,
               smallest_chunk: int = 1 << 16):
    """The phases of one loopy tier as a generator: it yields lists of calls
    ``(kernel, args)`` that may run on any threads at once, is sent the list of their
    results, and returns ``(records, largest remoteness)``. Raises ContractFailure.

    The linear phases run in chunks of at least ``smallest_chunk`` positions;
    ``addresses[tier]`` stays 0 (a loopy tier reads itself through its work arrays)."""
    start, spread, check = kernels_for(game)
    sizes = np.asarray(game.tier_sizes, dtype=np.int64)
    size = int(sizes[tier])
    values = np.empty(size, np.uint8)
    remoteness = np.empty(size, np.uint16)
    counters = np.empty(size, counter_type(game))
    due = np.empty(-(-size >> BLOCK_BITS), np.uint16)
    limit = int(np.iinfo(counters.dtype).max)
    distinct = distinct_parents(game)
    chunks = block_chunks(size, threads, smallest_chunk)

    def checked(calls, failures):
        """Run one batch; its results, after checking for contract failures."""
        results = yield calls
        failed = first_failure(failures)
        if failed is not None:
            raise ContractFailure(failed)
        return results

    failures = [no_failure() for _ in chunks]
    levels = yield from checked(
        [(start, (game.data, tier, lo, hi, 0, addresses, sizes, np.zeros(1, records_type), values,
                  remoteness, counters, due, limit, failure, buffers(game)))
         for (lo, hi), failure in zip(chunks, failures)], failures)
    if game.parents is not None:
        yield from _levels_by_parents(game, tier, spread, threads, distinct, values, remoteness,
                                      counters, due, chunks, min(levels), checked)
    else:
        yield from _levels_by_iteration(game, tier, spread, values, remoteness, counters, due,
                                        chunks, min(levels), checked)
        failures = [no_failure() for _ in chunks]
    if game.parents is not None:  # value iteration has read every open position's moves
        counting = counting_kernel_for(game)
        failures = [no_failure() for _ in chunks]
        differences = yield from checked(
            [(counting, (game.data, tier, lo, hi, distinct, values, counters, failure,
                         buffers(game, spread=True)))
             for (lo, hi), failure in zip(chunks, failures)], failures)
        if sum(differences) != 0:  # a move leads to an illegal index: find it
            failures = [no_failure() for _ in chunks]
            yield from checked([(check, (game.data, tier, lo, hi, values, counters, failure,
                                         buffers(game)))
                                for (lo, hi), failure in zip(chunks, failures)], failures)
            failure = no_failure()  # no such move: the un-moves miss some moves, or add some
            failure[:] = (UNMOVES_DISAGREE, 0, tier, sum(differences))
            raise ContractFailure(failure)
    del counters, due
    failures = [no_failure() for _ in chunks]
    longest = yield from checked([(_to_records, (lo, hi, values, remoteness,
                                                 record_none(records_type), failure))
                                  for (lo, hi), failure in zip(chunks, failures)], failures)
    del values
    records = remoteness if records_type == remoteness.dtype else remoteness.astype(records_type)
    return records, int(max(longest, default=0))


def _levels_by_parents(game, tier, generate, threads, distinct, values, remoteness, counters, due,
                       chunks, level, checked):
    """Phases 2 and 3 with the un-move generator: per level, rounds of a generate
    batch (one call a thread) and an apply batch (one call per range of buckets)."""
    size = values.shape[0]
    bits = bucket_bits(size)
    buckets = bucket_count(size)
    taken = chunk_count(game, size)
    updates = np.empty((threads, taken * CHUNK), update_type(size))
    chains = np.zeros((threads, 3, buckets), np.int64)
    links = np.zeros((threads, taken), np.int64)
    resume = np.zeros((threads, 4), np.int64)
    cursor = np.zeros(1, np.int64)
    scratches = [buffers(game, spread=True) for _ in range(threads)]
    step = -(-buckets // min(buckets, APPLY_CALLS * threads))
    ranges = [(first, min(first + step, buckets)) for first in range(0, buckets, step)]
    for tie_phase in (0, 1):
        if tie_phase:
            level = min((yield [(_open_to_ties, (lo, hi, values, remoteness, due))
                                for lo, hi in chunks]))
        while level < NO_LEVEL:
            cursor[0] = 0
            resume[:] = 0
            while True:
                failures = [no_failure() for _ in range(threads)]
                yield from checked(
                    [(generate, (game.data, tier, level, tie_phase, distinct, 0, size, values,
                                 remoteness, due, cursor, resume[t], updates[t], chains[t],
                                 links[t], bits, failures[t], scratches[t]))
                     for t in range(threads)], failures)
                final = bool(resume[:, 3].all())
                levels = yield [(_apply, (level, tie_phase, values, remoteness, counters, due,
                                          updates, chains, links, bits, first, last, final))
                                for first, last in ranges]
                if final:
                    break
            level = min(levels)


def _levels_by_iteration(game, tier, iterate, values, remoteness, counters, due, chunks, level,
                         checked):
    """Phases 2 and 3 by value iteration: each level settles what is due and expands
    every open position again."""
    for tie_phase, pending, settled in ((0, WIN_PENDING, WIN), (1, OPEN_NOT_LOSING, TIE)):
        if tie_phase:
            level = min((yield [(_open_to_ties, (lo, hi, values, remoteness, due))
                                for lo, hi in chunks]))
        while level < NO_LEVEL:
            yield [(_settle_pending, (lo, hi, level, values, remoteness, pending, settled))
                   for lo, hi in chunks]
            failures = [no_failure() for _ in chunks]
            levels = yield from checked(
                [(iterate, (game.data, tier, lo, hi, level, tie_phase, values, remoteness,
                            counters, failure, buffers(game)))
                 for (lo, hi), failure in zip(chunks, failures)], failures)
            level = min(levels)
