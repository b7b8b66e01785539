"""A LOOPY tier solved in parts: the tier's index range cut into K parts, each of
which holds only its own work arrays, exchanging updates in rounds.

A tier too large for one machine's memory is cut by index range into parts
(``part_ranges``, on blocks of 64 positions). A part (``LoopyPart``) holds the value,
remoteness, move counter and frontier (``due``) of its own positions only, and runs
the kernels of ``solver/loopy.py`` on them, with its first index as their offset:

1. **Start**: every part expands its positions against the solved child tiers, as
   the whole tier's phase 1 does; if the child tiers do not fit beside the parts,
   a window of them at a time (``_start_window``: every position expanded once a
   window).
2. **Rounds, one a level**, for WIN/LOSE and then TIE: each part takes its positions
   decided at the level (settling those whose win or tie out of the tier is due then),
   generates their parents with the game's un-moves, and sends each parent to the
   part that owns it (``generate``); the owner counts a child down and marks a WIN
   (TIE), or a LOSE at zero (``apply``). A level whose updates overflow the buffers
   takes several exchanges; the level ends when every part has visited all its
   positions due at it. Every update of a level is applied before the next level
   starts, as in the whole tier's kernel, so every position is decided at the same
   level and with the same remoteness: the arrays are identical to the whole tier's,
   for any K and any cut (the tests compare them).
3. **Check**: the moves into undecided positions are counted from both ends, as the
   whole tier does: each part sends the parents of its undecided positions to their
   owners, which count those with a move left; the sum must equal the counters left.
4. **Finish**: open positions become DRAWs and each part packs its records.

A ``PartHost`` holds the parts of one process (a Dask worker, or this process) and
their outgoing updates; ``solve_rounds`` drives the rounds over a set of hosts (the
Dask driver in ``databases/split.py``, or ``solve_in_parts`` here, one host
holding every part: what the tests compare with the whole tier's solve).

Games without un-moves cannot be split: their levels re-expand open positions and
read their children, which may lie in any part.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

import numpy as np

from tiersolve.bits import sort_unique
from tiersolve.contract import (
    CHILD_INDEX, CHILD_OUT_OF_RANGE, CHILD_SAME_MOVER, CHILD_TIER, CHILD_TIER_NOT_SOLVED, TERMINAL,
    UNMOVES_DISAGREE,
)
from tiersolve.jit import bound_later, inlined, jit, specialise
from tiersolve.solver import loopy
from tiersolve.solver.atomic import address_of, load_at
from tiersolve.solver.common import (
    NO_CHILD, ContractFailure, child_problem, child_score, first_failure, no_failure,
    read_child, report_failure, tier_summary,
)
from tiersolve.solver.loopy import (
    BLOCK_BITS, CURRENT, FILLED, FIRST, NO_DUE, NO_LEVEL, OPEN, OPEN_NOT_LOSING, WIN_PENDING,
    _apply_update, _block_due, _blocks_due, _is_open, moves_inside, start_state,
)
from tiersolve.solver.records import record_none, unpack_remoteness, unpack_value
from tiersolve.values import DRAW, ILLEGAL, NO_REMOTENESS, NONCANONICAL, TIE, WIN

expand, expand_leaving, parents = bound_later("expand", "expand_leaving", "parents")
#: Whether the game has ``expand_leaving`` (``specialise`` binds it as a constant).
LEAVING = False

#: What a round does: a level of WIN/LOSE or TIE (``LEVEL``), or the count of moves
#: into undecided positions at the end (``CHECK``).
LEVEL, CHECK = "level", "check"
#: Positions whose parents a thread of the check writes at most before an exchange.
CHECK_POSITIONS = 1 << 14
#: Smallest chunk of a part's linear phases (as ``tiers.LOOPY_CHUNK``).
SMALLEST_CHUNK = 1 << 16
#: The least bytes of updates a part's generating thread buffers (an eighth of a byte
#: a position of the part, up to ``loopy.UPDATE_BYTES``): less than the whole tier's
#: least (``loopy.MIN_UPDATE_BYTES``), so that a small part takes little memory.
PART_MIN_UPDATE_BYTES = 4 << 20


def part_ranges(size: int, parts: int) -> list[tuple[int, int]]:
    """``parts`` ranges [lo, hi) that cover a tier of ``size`` positions, of nearly
    equal numbers of blocks (64 positions), each starting on a block; fewer if the
    tier has fewer blocks.

        >>> part_ranges(1000, 3)
        [(0, 320), (320, 640), (640, 1000)]
        >>> part_ranges(100, 4)
        [(0, 64), (64, 100)]
    """
    blocks = -(-size >> BLOCK_BITS)
    count = max(1, min(parts, blocks))
    cuts = [(blocks * k // count) << BLOCK_BITS for k in range(count)] + [size]
    return [(cuts[k], min(cuts[k + 1], size)) for k in range(count)]


def child_windows(game, tier: int, window_positions: int | None) -> list[tuple[int, int, int]]:
    """The windows ``(child tier, lo, hi)`` in which a part reads the tiers ``tier``
    reads in its start: each whole if ``window_positions`` is None, else ranges of at
    most that many records; ``[(-1, 0, 0)]`` if it reads none.

        >>> from tiersolve.games import make_game
        >>> child_windows(make_game("loa", rows=3, cols=3), 3, 400)
        [(1, 0, 400), (1, 400, 504), (2, 0, 400), (2, 400, 504)]
    """
    from tiersolve.solver.tiers import tiers_read

    windows = []
    for kid in tiers_read(game, tier):
        size = int(game.tier_sizes[kid])
        step = size if window_positions is None else max(1, window_positions)
        windows.extend((kid, lo, min(lo + step, size)) for lo in range(0, size, max(step, 1)))
    return windows or [(-1, 0, 0)]


def can_split(game) -> bool:
    """Whether the game's loopy tiers can be solved in parts (it has un-moves)."""
    return game.parents is not None


def part_work_bytes(game, tier_size: int, part_size: int, threads: int) -> int:
    """Memory one part of ``part_size`` positions of a tier of ``tier_size`` takes on
    ``threads`` threads: its work arrays and frontier, the update buffers of its
    generating threads and their updates gathered by owner (as many again)."""
    # arrays, frontier, and a bit a position for the rounds' logs (``log_round``)
    own = part_size * loopy.bytes_per_position(game) + 2 * (-(-part_size >> BLOCK_BITS)) + \
        (-(-part_size >> 3))
    chunks = part_chunk_count(game, tier_size, part_size)
    buffers = threads * (chunks * (loopy.CHUNK * loopy.update_type(tier_size).itemsize + 8)
                         + 3 * 8 * loopy.bucket_count(tier_size))
    gathered = threads * chunks * loopy.CHUNK * loopy.update_type(part_size).itemsize
    return own + buffers + gathered


def part_chunk_count(game, tier_size: int, part_size: int) -> int:
    """Chunks of ``loopy.CHUNK`` updates a part's generating thread buffers in one
    exchange (see PART_MIN_UPDATE_BYTES); at least enough for four positions' parents."""
    budget = min(loopy.UPDATE_BYTES, max(min(PART_MIN_UPDATE_BYTES, loopy.MIN_UPDATE_BYTES),
                                         part_size >> 3))
    item = loopy.update_type(tier_size).itemsize
    return max(budget // (loopy.CHUNK * item), 4 * max(game.max_parents, 1) + 64)


# -- kernels --------------------------------------------------------------------------

@jit
def _gather(updates, chains, links, bucket_bits, lo, hi, out):
    """The updates of parents lo..hi-1 in the bucket chains of every generating thread
    (rows of ``updates``, ``chains``, ``links``; see ``loopy._generate``), written to
    ``out`` as ``((parent - lo) << 1) | good`` in bucket order (if ``out`` has room:
    call with an empty ``out`` to count them). Returns how many."""
    chunk_size = updates.shape[1] // links.shape[1]
    count = 0
    last = min(((hi - 1) >> bucket_bits) + 1, chains.shape[2])
    writing = out.shape[0] > 0
    for bucket in range(lo >> bucket_bits, last):
        for row in range(updates.shape[0]):
            chunk = chains[row, FIRST, bucket]
            while chunk >= 0:
                filled = chains[row, FILLED, bucket] if chunk == chains[row, CURRENT, bucket] \
                    else chunk_size
                for i in range(chunk * chunk_size, chunk * chunk_size + filled):
                    update = np.int64(updates[row, i])
                    parent = update >> 1
                    if lo <= parent < hi:
                        if writing:
                            out[count] = ((parent - lo) << 1) | (update & 1)
                        count += 1
                chunk = links[row, chunk]
    return count


@jit
def _first_at_or_after(updates, local):
    """The first entry of ``updates`` (in bucket order) whose parent is ``local`` or
    later, for ``local`` on a bucket boundary (binary search)."""
    lo, hi = 0, updates.shape[0]
    while lo < hi:
        middle = (lo + hi) >> 1
        if (np.int64(updates[middle]) >> 1) >= local:
            hi = middle
        else:
            lo = middle + 1
    return lo


@jit(_nrt=False)  # allocates nothing, as loopy._apply
def _apply_range(level, tie_phase, updates, first, last, values, remoteness, counters, due):
    """Apply ``updates[first:last]`` (part-local parents), as ``loopy._apply`` does."""
    for i in range(first, last):
        _apply_update(level, tie_phase, np.int64(updates[i]), values, remoteness, counters, due)


@jit
def _lowest_due(due):
    """The lowest level at which a block has work (NO_LEVEL if none)."""
    lowest = NO_LEVEL
    for block in range(due.shape[0]):
        if due[block] != NO_DUE and due[block] < lowest:
            lowest = np.int64(due[block])
    return lowest


@jit
def _mark_touched(updates, touched):
    """Set the bit of each update's (part-local) parent in ``touched``."""
    for i in range(updates.shape[0]):
        parent = np.int64(updates[i]) >> 1
        touched[parent >> 3] |= np.uint8(1 << (parent & 7))


@jit
def _count_touched(touched):
    """How many bits of ``touched`` are set."""
    count = 0
    for byte in range(touched.shape[0]):
        bits = np.int64(touched[byte])
        while bits:
            bits &= bits - 1
            count += 1
    return count


@jit
def _take_touched(touched, out):
    """The positions whose bit is set, in order, written to ``out``; clears the bits.
    Returns how many."""
    count = 0
    for byte in range(touched.shape[0]):
        bits = touched[byte]
        if bits == 0:
            continue
        for bit in range(8):
            if bits & (1 << bit):
                out[count] = (byte << 3) | bit
                count += 1
        touched[byte] = 0
    return count


@jit
def _replay(indices, new_values, new_remoteness, new_counters, values, remoteness, counters):
    """Write a round's logged entries back into the work arrays."""
    for i in range(indices.shape[0]):
        local = np.int64(indices[i])
        values[local] = new_values[i]
        remoteness[local] = new_remoteness[i]
        counters[local] = new_counters[i]


@jit
def _resume_rounds(values, remoteness, due, level, tie_phase):
    """After a snapshot and the logged rounds are written back: what the rounds before
    ``level`` did that the logs do not hold, done again. Each round's generation
    settled its positions due then (WIN_PENDING -> WIN; in the tie phase
    OPEN_NOT_LOSING -> TIE, and at its start OPEN positions forgot their LOSE level,
    ``loopy._open_to_ties``); and each block's ``due`` is the lowest level from
    ``level`` on at which one of its positions has work, as the rounds left it."""
    size = values.shape[0]
    for local in range(size):
        value = values[local]
        distance = np.int64(remoteness[local])
        if value == WIN_PENDING and (tie_phase or distance < level):
            values[local] = WIN
        elif tie_phase and value == OPEN:
            remoteness[local] = NO_REMOTENESS
        elif tie_phase and value == OPEN_NOT_LOSING and distance != NO_REMOTENESS \
                and distance < level:
            values[local] = TIE
    for block in range(due.shape[0]):
        base = block << BLOCK_BITS
        due[block] = _block_due(values, remoteness, base, min(base + (1 << BLOCK_BITS), size),
                                level - 1, tie_phase)


#: A round's record in a part's log: its header (round, entries), then the entries'
#: local indices, values, remoteness and move counters, each array whole.
LOG_HEADER = np.dtype([("round", "<i8"), ("entries", "<i8")])


def _undecided_parents(data, tier, lo, hi, offset, tier_size, distinct, values, out, buffers):
    """Template: from entry ``lo`` on (up to ``hi``), write the in-tier parents
    (tier-local indices) of every position left undecided (open, or a DRAW from the
    start) into ``out``, stopping before it could overflow. Returns (the next entry
    to visit, parents written). The parents' side of ``loopy._count_undecided_moves``."""
    found, state, other = buffers
    filled = 0
    local = lo
    while local < hi:
        value = values[local]
        if value == ILLEGAL or value == NONCANONICAL or (not _is_open(value) and value != DRAW):
            local += 1
            continue
        if filled + found.shape[0] > out.shape[0]:
            break
        count = parents(data, tier, local + offset, found, state, other)
        if not distinct:
            count = sort_unique(found, count)
        for p in range(count):
            parent = found[p] >> 1
            if 0 <= parent < tier_size:
                out[filled] = parent
                filled += 1
        local += 1
    return local, filled


#: Value codes of a position between the windows of a windowed start: its best
#: score out of the tier so far, by band (``common.child_score``: a loss, a draw, a
#: tie, a win), its remoteness field holding the score's low 16 bits; NO_BEST: none.
NO_BEST = 239
#: Bits of a score below its band.
SCORE_BITS = 16


@jit(forceinline=True)
def _window_best(out, count, best, window_tier, window_lo, window_hi, window_address, like,
                 failure, position):
    """(failure code or 0, best score) after the moves of an expanded position into
    the window: local indices window_lo..window_hi-1 of ``window_tier``, whose records
    are at ``window_address``."""
    for k in range(count):
        index = out[k, CHILD_INDEX]
        if out[k, CHILD_TIER] != window_tier or index < window_lo or index >= window_hi:
            continue
        record = load_at(window_address, index - window_lo, like)
        value = unpack_value(record)
        problem = child_problem(value)
        if problem != 0:
            report_failure(failure, problem, position, window_tier, index)
            return problem, best
        best = max(best, child_score(value, np.int64(unpack_remoteness(record)),
                                     out[k, CHILD_SAME_MOVER]))
    return 0, best


def _start_window(data, tier, lo, hi, offset, first, window_tier, window_lo, window_hi,
                  window_address, read, sizes, record_like, values, remoteness, counters,
                  counter_limit, failure, buffers):
    """Template, phase 1 of entries lo..hi-1 (positions from ``offset`` on) against one
    window of the child tiers (see ``_window_best``), for a part whose child tiers do
    not fit in memory at once. The ``first`` window's pass also does what needs no
    child tier: positions not in play get their value, the moves inside the tier are
    counted, finished games out of the index are scored, and moves to a tier not read
    (``read[t]`` is 0) or beyond a tier are reported. Between windows an open
    position's best score so far is kept in its value (NO_BEST + 1 + band) and
    remoteness; ``_start_finish`` turns it into the state ``loopy._start`` gives."""
    out, state, child, moves, inside = buffers
    like = record_like[0]
    size = sizes[tier]
    for local in range(lo, hi):
        if not first and values[local] < NO_BEST:
            continue  # decided in the first window's pass
        position = local + offset
        if LEAVING:
            count, staying = expand_leaving(data, tier, position, out, state, child, moves)
            in_play = staying >= 0
        else:
            count = expand(data, tier, position, out, state, child, moves)
            staying = 0
            in_play = count > 0
        if first:
            counters[local] = 0
            if not in_play:  # illegal (0), or primitive / non-canonical with code -count
                values[local] = -count
                remoteness[local] = 0 if count < 0 and -count != NONCANONICAL else NO_REMOTENESS
                continue
            best = np.int64(NO_CHILD)
            problem = 0
            for k in range(count):
                target = out[k, CHILD_TIER]
                if target == tier:
                    continue
                index = out[k, CHILD_INDEX]
                if target == TERMINAL:
                    problem, score = read_child(out, k, read, sizes, like)
                    best = max(best, score)
                elif read[target] == 0:
                    problem = CHILD_TIER_NOT_SOLVED
                elif index < 0 or index >= sizes[target]:
                    problem = CHILD_OUT_OF_RANGE
                if problem != 0:
                    report_failure(failure, problem, position, target, index)
                    break
            found = moves_inside(problem, LEAVING, staying, out, count, tier, size, inside,
                                 failure, position, counter_limit)
            if found < 0:
                values[local] = ILLEGAL
                remoteness[local] = NO_REMOTENESS
                continue
            counters[local] = found
        else:
            code = np.int64(values[local])
            best = np.int64(NO_CHILD) if code == NO_BEST else \
                ((code - NO_BEST - 1) << SCORE_BITS) | np.int64(remoteness[local])
        problem, best = _window_best(out, count, best, window_tier, window_lo, window_hi,
                                     window_address, like, failure, position)
        if problem != 0:
            values[local] = ILLEGAL
            remoteness[local] = NO_REMOTENESS
        elif best == NO_CHILD:
            values[local] = NO_BEST
        else:
            values[local] = NO_BEST + 1 + (best >> SCORE_BITS)
            remoteness[local] = best & ((1 << SCORE_BITS) - 1)


@jit
def _start_finish(lo, hi, values, remoteness, counters, due):
    """After the last window: each open position's state from its best score and its
    moves inside the tier (as ``loopy._start``); sets the blocks' ``due`` and returns
    the first level with work."""
    for local in range(lo, hi):
        code = np.int64(values[local])
        if code < NO_BEST or code > NO_BEST + 4:
            continue
        best = np.int64(NO_CHILD) if code == NO_BEST else \
            ((code - NO_BEST - 1) << SCORE_BITS) | np.int64(remoteness[local])
        values[local], remoteness[local] = start_state(best, np.int64(counters[local]))
    return _blocks_due(values, remoteness, due, lo, hi, 0)


def start_window_kernel(game):
    """The game's ``_start_window``."""
    leaving = getattr(game, "expand_leaving", None)
    return specialise(_start_window, game.kernel_label, refcounts=game.expand_counts_references,
                      expand=inlined(game.expand),
                      expand_leaving=inlined(leaving or loopy._no_expand_leaving),
                      LEAVING=leaving is not None)


def undecided_parents_kernel(game):
    """The game's ``_undecided_parents`` (games with un-moves)."""
    return specialise(_undecided_parents, game.kernel_label, refcounts=False,
                      parents=inlined(game.parents))


# -- one part ---------------------------------------------------------------------------

class LoopyPart:
    """The positions lo..hi-1 of a LOOPY tier: their work arrays, and the kernels'
    buffers for them (see the module docstring)."""

    def __init__(self, game, tier: int, lo: int, hi: int, threads: int) -> None:
        self.game, self.tier, self.lo, self.hi = game, tier, lo, hi
        self.threads = max(1, threads)
        self.tier_size = int(game.tier_sizes[tier])
        size = hi - lo
        self.values = np.empty(size, np.uint8)
        self.remoteness = np.empty(size, np.uint16)
        self.counters = np.empty(size, loopy.counter_type(game))
        self.due = np.empty(-(-size >> BLOCK_BITS), np.uint16)
        self.level, self.tie_phase = NO_LEVEL, 0
        self._buffers: tuple | None = None
        self._check: tuple | None = None
        #: One bit a position: those an update reached since the last ``log_round``
        #: (None: not logging).
        self.touched: np.ndarray | None = None
        self.touched_updates = 0

    @property
    def size(self) -> int:
        return self.hi - self.lo

    @property
    def nbytes(self) -> int:
        """The bytes of its work arrays."""
        return sum(a.nbytes for a in (self.values, self.remoteness, self.counters, self.due))

    def _chunks(self) -> list[tuple[int, int]]:
        return loopy.block_chunks(self.size, self.threads, SMALLEST_CHUNK)

    def start(self, pool: ThreadPoolExecutor, addresses: np.ndarray, records_type: np.dtype
              ) -> int:
        """Phase 1 (the child tiers' records are read through ``addresses``); returns
        the first level with work (NO_LEVEL if none)."""
        start, _, _ = loopy.kernels_for(self.game)
        sizes = np.asarray(self.game.tier_sizes, dtype=np.int64)
        limit = int(np.iinfo(self.counters.dtype).max)
        chunks = self._chunks()
        failures = [no_failure() for _ in chunks]
        levels = _run(pool, [(start, (self.game.data, self.tier, lo, hi, self.lo, addresses, sizes,
                                      np.zeros(1, records_type), self.values, self.remoteness,
                                      self.counters, self.due, limit, failure,
                                      loopy.buffers(self.game)))
                             for (lo, hi), failure in zip(chunks, failures)])
        _raise_failure(failures)
        return int(min(levels, default=NO_LEVEL))

    def start_window(self, pool: ThreadPoolExecutor, first: bool, window: tuple[int, int, int],
                     records: np.ndarray, read: np.ndarray) -> None:
        """Phase 1 against one window ``(tier, lo, hi)`` of the child tiers, whose
        ``records`` are given (``_start_window``); ``read[t]`` is 1 for every child tier."""
        kernel = start_window_kernel(self.game)
        sizes = np.asarray(self.game.tier_sizes, dtype=np.int64)
        limit = int(np.iinfo(self.counters.dtype).max)
        address = address_of(records) if records.size else 0
        chunks = self._chunks()
        failures = [no_failure() for _ in chunks]
        _run(pool, [(kernel, (self.game.data, self.tier, lo, hi, self.lo, first, *window, address,
                              read, sizes, np.zeros(1, records.dtype), self.values,
                              self.remoteness, self.counters, limit, failure,
                              loopy.buffers(self.game)))
                    for (lo, hi), failure in zip(chunks, failures)])
        _raise_failure(failures)

    def finish_start(self, pool: ThreadPoolExecutor) -> int:
        """After the last window; returns the first level with work (NO_LEVEL if none)."""
        levels = _run(pool, [(_start_finish, (lo, hi, self.values, self.remoteness, self.counters,
                                              self.due))
                             for lo, hi in self._chunks()])
        return int(min(levels, default=NO_LEVEL))

    def begin_level(self, level: int, tie_phase: int) -> None:
        """Start a level: its generating threads begin at the first block."""
        self.level, self.tie_phase = level, tie_phase
        buffers = self._level_buffers()
        buffers["cursor"][0] = 0
        buffers["resume"][:] = 0

    def _level_buffers(self) -> dict[str, Any]:
        if self._buffers is None:
            threads, buckets = self.threads, loopy.bucket_count(self.tier_size)
            taken = part_chunk_count(self.game, self.tier_size, self.size)
            self._buffers = {
                "updates": np.empty((threads, taken * loopy.CHUNK), loopy.update_type(self.tier_size)),
                "chains": np.zeros((threads, 3, buckets), np.int64),
                "links": np.zeros((threads, taken), np.int64),
                "resume": np.zeros((threads, 4), np.int64),
                "cursor": np.zeros(1, np.int64),
                "scratch": [loopy.buffers(self.game, spread=True) for _ in range(threads)],
            }
        return self._buffers

    def generate(self, pool: ThreadPoolExecutor, ranges: Sequence[tuple[int, int]]
                 ) -> tuple[dict[int, np.ndarray], bool]:
        """One exchange of the current level: settle and spread what is due, until the
        buffers are full or every block is visited. Returns the updates for each part
        of ``ranges`` that gets some (its index -> updates with its own local parents),
        and whether this part has visited every block due at the level."""
        b = self._level_buffers()
        if b["resume"][:, 3].all():
            return {}, True
        _, generate, _ = loopy.kernels_for(self.game)
        bits = loopy.bucket_bits(self.tier_size)
        failures = [no_failure() for _ in range(self.threads)]
        _run(pool, [(generate, (self.game.data, self.tier, self.level, self.tie_phase,
                                loopy.distinct_parents(self.game), self.lo, self.tier_size,
                                self.values, self.remoteness, self.due, b["cursor"], b["resume"][t],
                                b["updates"][t], b["chains"][t], b["links"][t], bits, failures[t],
                                b["scratch"][t]))
                    for t in range(self.threads)])
        _raise_failure(failures)
        dtype = loopy.update_type(max(hi - lo for lo, hi in ranges))
        none = np.zeros(0, dtype)

        def gathered(owner: int) -> np.ndarray:
            lo, hi = ranges[owner]
            count = _gather(b["updates"], b["chains"], b["links"], bits, lo, hi, none)
            out = np.empty(count, dtype)
            if count:
                _gather(b["updates"], b["chains"], b["links"], bits, lo, hi, out)
            return out

        outgoing = dict(zip(range(len(ranges)), pool.map(gathered, range(len(ranges)))))
        return ({owner: updates for owner, updates in outgoing.items() if updates.size},
                bool(b["resume"][:, 3].all()))

    def apply(self, pool: ThreadPoolExecutor, incoming: Sequence[np.ndarray], final: bool) -> int:
        """Apply the updates other parts (and this one) sent for its positions; at the
        level's end (``final``), returns the next level with work here (else NO_LEVEL)."""
        incoming = [updates for updates in incoming if updates.size]
        if incoming:
            bits = loopy.bucket_bits(self.tier_size)
            first, last = self.lo >> bits, ((self.hi - 1) >> bits) + 1
            step = max(1, -(-(last - first) // (4 * self.threads)))
            # Ranges of whole buckets, so that no two calls share a block.
            cuts = [max(0, (bucket << bits) - self.lo) for bucket in range(first, last, step)][1:]
            edges = [[0, *(_first_at_or_after(updates, cut) for cut in cuts), updates.size]
                     for updates in incoming]

            def apply_slice(k: int) -> None:
                for updates, edge in zip(incoming, edges):
                    if edge[k + 1] > edge[k]:
                        _apply_range(self.level, self.tie_phase, updates, edge[k], edge[k + 1],
                                     self.values, self.remoteness, self.counters, self.due)

            list(pool.map(apply_slice, range(len(cuts) + 1)))
            if self.touched is not None:
                for updates in incoming:
                    _mark_touched(updates, self.touched)
                    self.touched_updates += updates.size
        return int(_lowest_due(self.due)) if final else NO_LEVEL

    def open_to_ties(self, pool: ThreadPoolExecutor) -> int:
        """Between WIN/LOSE and TIE (``loopy._open_to_ties``); returns the first tie level."""
        levels = _run(pool, [(loopy._open_to_ties, (lo, hi, self.values, self.remoteness, self.due))
                             for lo, hi in self._chunks()])
        return int(min(levels, default=NO_LEVEL))

    def begin_check(self) -> int:
        """Start the check; returns the moves inside the tier its positions still have
        to undecided positions (the sources' side of the count)."""
        step = -(-self.size // self.threads)
        spans = [(lo, min(lo + step, self.size)) for lo in range(0, self.size, step)]
        width = max(self.game.max_parents, 1)
        self._check = ([lo for lo, _ in spans], [hi for _, hi in spans],
                       [np.empty(CHECK_POSITIONS * width, np.int64) for _ in spans],
                       [loopy.buffers(self.game, spread=True) for _ in spans])
        return int(self.counters.sum(dtype=np.int64))

    def generate_check(self, pool: ThreadPoolExecutor, starts: np.ndarray
                       ) -> tuple[dict[int, np.ndarray], bool]:
        """One exchange of the check: the parents of undecided positions, for each part
        that owns some (its index -> its local indices); and whether this part is done."""
        at, ends, outs, scratch = self._check
        kernel = undecided_parents_kernel(self.game)
        distinct = loopy.distinct_parents(self.game)
        results = _run(pool, [(kernel, (self.game.data, self.tier, at[t], ends[t], self.lo,
                                        self.tier_size, distinct, self.values, outs[t], scratch[t]))
                              for t in range(len(at))])
        found = np.concatenate([outs[t][:filled] for t, (_, filled) in enumerate(results)])
        for t, (next_at, _) in enumerate(results):
            at[t] = next_at
        owners = np.searchsorted(starts, found, side="right") - 1
        outgoing = {}
        for owner in np.unique(owners):
            mine = found[owners == owner] - starts[owner]
            outgoing[int(owner)] = mine.astype(loopy.update_type(int(mine.max()) + 1))
        return outgoing, all(a >= e for a, e in zip(at, ends))

    def count_live(self, incoming: Sequence[np.ndarray]) -> int:
        """How many of the parents sent still have a move left (the targets' side)."""
        return sum(int(np.count_nonzero(self.counters[updates] > 0)) for updates in incoming)

    def finish(self, pool: ThreadPoolExecutor, records_type: np.dtype
               ) -> tuple[np.ndarray, np.ndarray, int]:
        """Open positions become DRAWs and the part's records are packed: (records,
        counts per value, largest remoteness). The work arrays are let go."""
        chunks = self._chunks()
        failures = [no_failure() for _ in chunks]
        _run(pool, [(loopy._to_records, (lo, hi, self.values, self.remoteness,
                                         record_none(records_type), failure))
                    for (lo, hi), failure in zip(chunks, failures)])
        _raise_failure(failures)
        remoteness = self.remoteness
        records = remoteness if records_type == remoteness.dtype else remoteness.astype(records_type)
        self.release()
        counts, longest = tier_summary(records)
        return records, counts, longest

    def release(self) -> None:
        """Let go of the arrays."""
        for name in ("values", "remoteness", "counters", "due"):
            setattr(self, name, np.empty(0, np.uint8))
        self._buffers = self._check = self.touched = None

    # -- checkpoints -------------------------------------------------------------------
    def save(self, path: Path) -> None:
        """Write the work arrays to ``path`` durably (under a temporary name first): a
        snapshot, from which the rounds are logged (``log_round``)."""
        temporary = path.with_name(path.name + ".tmp")
        with open(temporary, "wb") as handle:
            np.savez(handle, values=self.values, remoteness=self.remoteness,
                     counters=self.counters, due=self.due)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
        self.start_logging()

    def start_logging(self) -> None:
        """From now on, note the positions updates reach (``log_round`` writes them)."""
        if self.touched is None:
            self.touched = np.zeros(-(-self.size >> 3), np.uint8)
        else:
            self.touched[:] = 0
        self.touched_updates = 0

    def _index_type(self) -> np.dtype:
        return np.dtype(np.uint32) if self.size <= 1 << 32 else np.dtype(np.int64)

    def log_round(self, path: Path, round_number: int) -> int:
        """Append to the log ``path`` (synced) what the round changed: the move counter,
        value and remoteness of every position an update reached since the last call.
        Everything else a round changes follows from the round it ended
        (``_resume_rounds``). Returns the bytes written."""
        if self.touched is None:
            raise RuntimeError("log_round before a snapshot (save or load)")
        indices = np.empty(_count_touched(self.touched) if self.touched_updates else 0,
                           self._index_type())
        count = _take_touched(self.touched, indices) if indices.size else 0
        self.touched_updates = 0
        header = np.array([(round_number, count)], LOG_HEADER)
        arrays = (indices, self.values[indices], self.remoteness[indices], self.counters[indices])
        with open(path, "ab") as handle:
            for array in (header, *arrays):
                handle.write(array.tobytes())
            handle.flush()
            os.fsync(handle.fileno())
        return header.nbytes + sum(array.nbytes for array in arrays)

    def load(self, path: Path, log: Path | None = None, state: RoundState | None = None
             ) -> None:
        """Read the work arrays ``save`` wrote; then, with ``log`` and ``state``, write
        back the rounds logged up to ``state.round`` (the log is cut after it) and redo
        what they did beyond the log (``_resume_rounds``)."""
        with np.load(path) as kept:
            for name in ("values", "remoteness", "counters", "due"):
                array = kept[name]
                if array.shape != getattr(self, name).shape:
                    raise ValueError(f"{path} holds {name} of {array.shape}, not of this part")
                setattr(self, name, array)
        self.start_logging()
        if log is None or state is None:
            return
        index_type = self._index_type()
        kept_bytes = 0
        if log.exists():
            with open(log, "r+b") as handle:
                while True:
                    data = handle.read(LOG_HEADER.itemsize)
                    if len(data) < LOG_HEADER.itemsize:
                        break
                    header = np.frombuffer(data, LOG_HEADER)
                    if int(header["round"][0]) > state.round:
                        break
                    count = int(header["entries"][0])
                    parts = []
                    for dtype in (index_type, self.values.dtype, self.remoteness.dtype,
                                  self.counters.dtype):
                        data = handle.read(count * dtype.itemsize)
                        if len(data) < count * dtype.itemsize:
                            break
                        parts.append(np.frombuffer(data, dtype))
                    if len(parts) < 4:
                        break  # a record cut short: its round was never complete
                    _replay(*parts, self.values, self.remoteness, self.counters)
                    kept_bytes = handle.tell()
                handle.truncate(kept_bytes)
                handle.flush()
                os.fsync(handle.fileno())
        if state.phase == "levels":
            _resume_rounds(self.values, self.remoteness, self.due, np.int64(state.level),
                           np.int64(state.tie))


def _run(pool: ThreadPoolExecutor, calls: list[tuple[Callable, tuple]]) -> list:
    """Run kernel calls on the pool; their results in order."""
    return list(pool.map(lambda call: call[0](*call[1]), calls))


def _raise_failure(failures: list[np.ndarray]) -> None:
    failed = first_failure(failures)
    if failed is not None:
        raise ContractFailure(failed)


# -- the parts of one process -------------------------------------------------------------

class PartHost:
    """The parts of a split tier that one process holds, with their outgoing updates
    until their owners take them. Every method acts on all its parts and returns a
    value per part (part index -> value); ``connect`` tells it where the other parts
    are (a Dask worker's host takes their updates from other hosts: ``pull``)."""

    def __init__(self, game, tier: int, ranges: Sequence[tuple[int, int]], mine: Sequence[int],
                 threads: int) -> None:
        self.game, self.tier = game, tier
        self.ranges = [tuple(r) for r in ranges]
        self.starts = np.array([lo for lo, _ in self.ranges], dtype=np.int64)
        self.threads = max(1, threads)
        self.pool = ThreadPoolExecutor(max_workers=self.threads)
        self.parts = {k: LoopyPart(game, tier, *self.ranges[k], self.threads) for k in mine}
        self.outbox: dict[tuple[int, int], np.ndarray] = {}  # (sender, owner) -> updates
        self.owners: dict[int, int] = {}                    # part -> host index
        self.host = 0
        self.mode = LEVEL
        self.log_seconds = 0.0  # writing the rounds' logs (``apply``)

    def connect(self, host: int, owners: dict[int, int]) -> None:
        """This host's index and every part's host."""
        self.host, self.owners = host, dict(owners)

    def start(self, reads: dict[int, np.ndarray], records_type: np.dtype) -> dict[int, int]:
        """Phase 1 of every part (``reads``: the child tiers' records)."""
        addresses = np.zeros(len(self.game.tier_sizes), dtype=np.int64)
        for kid, records in reads.items():  # -1: an empty tier, solved (tiers._read_address)
            addresses[kid] = address_of(records) if records.size else -1
        return {k: part.start(self.pool, addresses, records_type) for k, part in self.parts.items()}

    def start_in_windows(self, windows: Sequence[tuple[int, int, int]],
                         load: Callable[[int, int, int], np.ndarray],
                         records_type: np.dtype) -> dict[int, int]:
        """Phase 1 of every part, reading the child tiers a window ``(tier, lo, hi)``
        at a time (``load(tier, lo, hi)`` gives its records): the most child records
        held at once is one window, at the cost of expanding every position once a
        window."""
        read = np.zeros(len(self.game.tier_sizes), dtype=np.int64)
        for tier, _, _ in windows:
            if tier >= 0:
                read[tier] = 1
        for n, (tier, lo, hi) in enumerate(windows):
            records = np.ascontiguousarray(load(tier, lo, hi), dtype=records_type) if tier >= 0 \
                else np.zeros(0, records_type)
            for part in self.parts.values():
                part.start_window(self.pool, n == 0, (tier, lo, hi), records, read)
            del records
        return {k: part.finish_start(self.pool) for k, part in self.parts.items()}

    def begin_level(self, level: int, tie_phase: int) -> None:
        self.mode = LEVEL
        for part in self.parts.values():
            part.begin_level(level, tie_phase)

    def begin_check(self) -> dict[int, int]:
        self.mode = CHECK
        return {k: part.begin_check() for k, part in self.parts.items()}

    def generate(self, begin: tuple[int, int] | None = None
                 ) -> dict[int, tuple[bool, dict[int, int]]]:
        """One exchange's generation in every part: (is it done, updates per owner).
        ``begin``: (level, tie phase) of a level this exchange begins (``begin_level``,
        in the same call: one call fewer a round)."""
        if begin is not None:
            self.begin_level(*begin)
        summary = {}
        for k, part in self.parts.items():
            if self.mode == LEVEL:
                outgoing, done = part.generate(self.pool, self.ranges)
            else:
                outgoing, done = part.generate_check(self.pool, self.starts)
            for owner, updates in outgoing.items():
                self.outbox[k, owner] = updates
            summary[k] = (done, {owner: (int(u.size), int(u.nbytes)) for owner, u in outgoing.items()})
        return summary

    def take(self, owners: Sequence[int]) -> dict[tuple[int, int], np.ndarray]:
        """The updates waiting here for the parts ``owners`` (removed from the outbox)."""
        wanted = set(owners)
        return {key: self.outbox.pop(key) for key in list(self.outbox) if key[1] in wanted}

    def pull(self) -> dict[tuple[int, int], np.ndarray]:
        """The updates for this host's parts from every host (here: from itself)."""
        return self.take(list(self.parts))

    def apply(self, final: bool, log: tuple[str, int] | None = None) -> dict[int, int]:
        """One exchange's application in every part: the next level (LEVEL; NO_LEVEL
        unless ``final``), or the parents with a move left (CHECK). ``log``: (folder,
        round) to log the round in once applied (``log``, in the same call)."""
        incoming = self.pull()
        results = {}
        for k, part in self.parts.items():
            mine = [incoming[key] for key in sorted(incoming) if key[1] == k]
            if self.mode == LEVEL:
                results[k] = part.apply(self.pool, mine, final)
            else:
                results[k] = part.count_live(mine)
        if log is not None:
            began = time.perf_counter()
            self.log(Path(log[0]), log[1])
            self.log_seconds += time.perf_counter() - began
        return results

    def open_to_ties(self) -> dict[int, int]:
        return {k: part.open_to_ties(self.pool) for k, part in self.parts.items()}

    def finish(self, records_type: np.dtype) -> dict[int, tuple[np.ndarray, np.ndarray, int]]:
        return {k: part.finish(self.pool, records_type) for k, part in self.parts.items()}

    def save(self, folder: Path) -> None:
        """Write every part's arrays into ``folder`` (``part-NNN.npz``): a snapshot."""
        folder.mkdir(parents=True, exist_ok=True)
        for k, part in self.parts.items():
            # a log left by an attempt that wrote this snapshot and was then lost
            (folder / f"part-{k:03d}.log").unlink(missing_ok=True)
            part.save(folder / f"part-{k:03d}.npz")

    def log(self, folder: Path, round_number: int) -> int:
        """Append what the round changed in every part to its log in the snapshot's
        ``folder`` (``part-NNN.log``); returns the bytes written."""
        return sum(part.log_round(folder / f"part-{k:03d}.log", round_number)
                   for k, part in self.parts.items())

    def load(self, folder: Path, state: RoundState | None = None) -> None:
        """Every part from the snapshot in ``folder`` and, with ``state``, its log up to
        ``state.round``."""
        for k, part in self.parts.items():
            part.load(folder / f"part-{k:03d}.npz", folder / f"part-{k:03d}.log", state)

    def close(self) -> None:
        for part in self.parts.values():
            part.release()
        self.outbox.clear()
        self.pool.shutdown(wait=False)


# -- the rounds ---------------------------------------------------------------------------

class Hosts(Protocol):
    """How ``solve_rounds`` reaches the hosts: ``call(name, *args)`` runs a method of
    ``PartHost`` on every host and returns their results (in host order);
    ``part_host`` gives each part's host."""

    part_host: dict[int, int]

    def call(self, name: str, *args: Any) -> list[Any]: ...


@dataclass
class RoundStats:
    """One round: a level of WIN/LOSE (``tie`` 0) or TIE (1), the start or the check."""

    kind: str
    level: int
    tie: int
    exchanges: int = 0
    updates: int = 0         # parents sent, to every part (its own included)
    between_parts: int = 0   # parents sent to another part
    between_hosts: int = 0   # parents sent to a part on another host
    bytes_between_hosts: int = 0
    seconds: float = 0.0
    checkpoint_seconds: float = 0.0  # writing the parts' arrays after the round

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class RoundState:
    """Where the rounds are: what ``solve_rounds`` resumes from after a checkpoint."""

    phase: str = "start"     # start, levels, check
    tie: int = 0
    level: int = NO_LEVEL
    round: int = 0

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class SplitStats:
    """What a split tier's rounds did."""

    rounds: list[RoundStats] = field(default_factory=list)

    @property
    def updates(self) -> int:
        return sum(r.updates for r in self.rounds)

    @property
    def bytes_between_hosts(self) -> int:
        return sum(r.bytes_between_hosts for r in self.rounds)


def _exchange(hosts: Hosts, record: RoundStats, begin: tuple[int, int] | None = None,
              log: tuple[str, int] | None = None) -> list[list[dict[int, int]]]:
    """Generate and apply until every part is done; returns every apply's results
    (and counts the parents sent in ``record``). ``begin`` goes with the first
    generation (a level's start), ``log`` with the last application."""
    applied = []
    while True:
        record.exchanges += 1
        summaries = {k: s for summary in hosts.call("generate", begin) for k, s in summary.items()}
        begin = None
        final = all(done for done, _ in summaries.values())
        for sender, (_, sent) in summaries.items():
            for owner, (count, nbytes) in sent.items():
                record.updates += count
                if owner != sender:
                    record.between_parts += count
                if hosts.part_host[owner] != hosts.part_host[sender]:
                    record.between_hosts += count
                    record.bytes_between_hosts += nbytes
        applied.append(hosts.call("apply", final, log if final else None))
        if final:
            return applied


def solve_rounds(hosts: Hosts, tier: int, state: RoundState,
                 checkpoint: Callable[[RoundState], None] | None = None,
                 stats: SplitStats | None = None,
                 on_round: Callable[[RoundStats], None] | None = None,
                 log: Callable[[int], tuple[str, int] | None] | None = None) -> None:
    """Run the rounds of a split tier on ``hosts`` from ``state`` (phase "start" is
    done by the caller, which loads the child tiers) to the end of the check:
    levels of WIN/LOSE, then TIE, then the check. After each round ``checkpoint``
    (if given) keeps the state; ``log(round)`` (if given) says where the hosts log
    the level round that ends as ``round`` (``PartHost.apply``), None for nowhere.
    Raises ContractFailure if the moves and un-moves into undecided positions
    disagree."""
    stats = stats if stats is not None else SplitStats()
    while state.phase == "levels":
        if state.level >= NO_LEVEL:
            if state.tie:
                state.phase = "check"
                break
            state.tie, state.level = 1, min(min(r.values(), default=NO_LEVEL)
                                            for r in hosts.call("open_to_ties"))
        else:
            record = RoundStats("level", state.level, state.tie)
            began = time.perf_counter()
            results = _exchange(hosts, record, (state.level, state.tie),
                                log(state.round + 1) if log is not None else None)[-1]
            state.level = min(min(r.values(), default=NO_LEVEL) for r in results)
            record.seconds = time.perf_counter() - began
            stats.rounds.append(record)
            if on_round is not None:
                on_round(record)
        state.round += 1
        if checkpoint is not None:
            began = time.perf_counter()
            checkpoint(state)
            if stats.rounds:
                stats.rounds[-1].checkpoint_seconds += time.perf_counter() - began
    record = RoundStats("check", -1, -1)
    began = time.perf_counter()
    sources = sum(sum(r.values()) for r in hosts.call("begin_check"))
    targets = sum(sum(r.values()) for results in _exchange(hosts, record) for r in results)
    record.seconds = time.perf_counter() - began
    stats.rounds.append(record)
    if on_round is not None:
        on_round(record)
    if sources != targets:
        failure = no_failure()
        failure[:] = (UNMOVES_DISAGREE, 0, tier, sources - targets)
        raise ContractFailure(failure)


class _LocalHosts:
    """One ``PartHost`` holding every part, in this process."""

    def __init__(self, host: PartHost) -> None:
        self.host = host
        self.part_host = {k: 0 for k in host.parts}

    def call(self, name: str, *args: Any) -> list[Any]:
        return [getattr(self.host, name)(*args)]


def solve_in_parts(game, tier: int, parts: int, load: Callable[[int], np.ndarray], *,
                   records_type: np.dtype, threads: int = 1,
                   stats: SplitStats | None = None,
                   window_positions: int | None = None) -> tuple[np.ndarray, int]:
    """Solve the LOOPY ``tier`` in ``parts`` parts in this process, every exchange
    between them made as on a cluster; returns (its records, largest remoteness).
    ``load(t)`` gives the records of each tier it reads (with ``window_positions``,
    read in windows of that many: ``child_windows``). The records equal those of
    the whole tier's kernel (what the tests check)."""
    from tiersolve.solver.tiers import tiers_read

    ranges = part_ranges(int(game.tier_sizes[tier]), parts)
    host = PartHost(game, tier, ranges, range(len(ranges)), threads)
    hosts = _LocalHosts(host)
    try:
        if window_positions is None:
            reads = {kid: np.ascontiguousarray(load(kid), dtype=records_type)
                     for kid in tiers_read(game, tier)}
            level = min(host.start(reads, records_type).values())
            del reads
        else:
            windows = child_windows(game, tier, window_positions)
            level = min(host.start_in_windows(windows, lambda kid, lo, hi: load(kid)[lo:hi],
                                              records_type).values())
        solve_rounds(hosts, tier, RoundState("levels", 0, level, 1), stats=stats)
        finished = host.finish(records_type)
    finally:
        host.close()
    records = np.concatenate([finished[k][0] for k in sorted(finished)])
    return records, max(finished[k][2] for k in finished)
