"""Solving only the positions that play reaches from given starts.

Some index spaces dwarf what play reaches (Surround 5×5 indexes 5.0·10^9 positions;
52,167 are reachable from its start). This solver never touches the rest:

1. as one explicit **move graph** (``solver.reachable_graph``): the reachable set
   found breadth first, every move linked, and the graph solved by retrograde
   analysis; any game, and the only way for games with LOOPY tiers;
2. **tier by tier** (``search_tiers``, ``solve_tiers``), for a game without LOOPY
   tiers (cheaper: no edges kept):

* the search takes the tiers parents first, so a tier's positions are all known when
  its turn comes: they are closed under the tier's own moves (SWEEP tiers), stored,
  and expanded once; their children wait, deduplicated, in the tiers below (sorted
  arrays, a bitmap of the tier once that is smaller, or, with a store on disk and a
  tier too large for a bitmap, bucket files of index ranges);
* the solve takes the tiers children first, each from its highest index down, every
  child found by binary search in a directory bucket of its tier's sorted positions;
  a tier's records stay in memory only while a tier still to be solved reads them.

A ``TierStore`` on disk keeps the tiers as files, so memory holds a few tiers, not
the whole set. Both methods are tested against each other and against the full
databases.

Everything per position runs in numba; Python only loops over frontiers.

    >>> from tiersolve.games import make_game
    >>> game = make_game("1210")
    >>> solved = solve_reachable(game, [game.index(game.parse("(L 0)"))])
    >>> len(solved.indices), int(solved.value[0]), int(solved.remoteness[0])  # (L 0): win in 7
    (20, 1, 7)
"""

from __future__ import annotations

import json
import os
import shutil
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tiersolve.bits import lowest_bit, popcount
from tiersolve.contract import (
    CHILD_INDEX, CHILD_NOT_FOUND, CHILD_NOT_YET_SOLVED, CHILD_TIER, FAILURES, POSITION_ILLEGAL,
    REMOTENESS_OVERFLOW, TERMINAL, TERMINAL_NOT_A_VALUE, TierType,
)
from tiersolve.jit import bound_later, jit
from tiersolve.solver import interrupts
from tiersolve.solver.atomic import address_of, load_at
from tiersolve.solver.common import (
    NO_CHILD, SolverError, expanding_kernel, read_child, score_outcome,
)
from tiersolve.solver.reachable_graph import (  # noqa: F401 (the graph method's names, here too)
    BLOCK,
    ReachableSolution,
    bytes_per_position,
    expand_positions,
    find_reachable,
    link,
    solve_graph,
)
from tiersolve.solver.records import pack_record, record_none
from tiersolve.solver.sorted_sets import members, sorted_unique
from tiersolve.solver.tiers import records_type, tier_type, tiers_read
from tiersolve.values import DRAW, VALUE_BITS, VALUE_MASK

expand, = bound_later("expand")

#: A tier's unmerged children are merged into its sorted set once they are this many
#: (or more than the set holds).
MERGE_AT = 8 * BLOCK


def has_loopy_tiers(game) -> bool:
    """Whether some tier of the game has moves that may cycle."""
    return any(TierType(game.tier_type(t)) == TierType.LOOPY for t in range(game.tiers.count))


def tier_order(game) -> list[int]:
    """The tiers, each after every tier its moves reach (a depth-first topological sort)."""
    order, placed = [], set()
    for root in range(game.tiers.count):
        stack = [(root, iter(sorted(game.tier_children(root))))]
        if root in placed:
            continue
        placed.add(root)
        while stack:
            tier, children = stack[-1]
            child = next((c for c in children if c != tier and c >= 0 and c not in placed), None)
            if child is None:
                order.append(tier)
                stack.pop()
            else:
                placed.add(child)
                stack.append((child, iter(sorted(game.tier_children(child)))))
    return order


class TierStore:
    """Where the bottom-up method keeps each tier's sorted reachable local indices
    (``"positions"``) and solved records (``"records"``), and small notes (the
    search's counts): in memory, or as files in ``directory``, each written whole
    before it is renamed into place, arrays read back memory-mapped. On disk, a
    search or solve holds only the few tiers it works on, so the set may outgrow
    memory, and a build that stops keeps what it finished."""

    def __init__(self, directory: str | os.PathLike | None = None) -> None:
        self.directory = Path(directory) if directory is not None else None
        self._arrays: dict[tuple[str, int], np.ndarray] = {}
        self._notes: dict[str, object] = {}
        if self.directory is not None:
            self.directory.mkdir(parents=True, exist_ok=True)

    def _path(self, kind: str, tier: int) -> Path:
        return self.directory / f"{kind}-{tier:06d}.npy"

    def put(self, kind: str, tier: int, array: np.ndarray) -> None:
        if self.directory is None:
            self._arrays[kind, tier] = array
            return
        final = self._path(kind, tier)
        temporary = final.with_suffix(".tmp")
        with open(temporary, "wb") as out:
            np.save(out, array)
        os.replace(temporary, final)

    def has(self, kind: str, tier: int) -> bool:
        if self.directory is None:
            return (kind, tier) in self._arrays
        return self._path(kind, tier).exists()

    def get(self, kind: str, tier: int) -> np.ndarray:
        """The array (memory-mapped, read-only, when on disk)."""
        if self.directory is None:
            return self._arrays[kind, tier]
        return np.load(self._path(kind, tier), mmap_mode="r")

    def drop(self, kind: str, tier: int) -> None:
        """Forget an array (remove its file)."""
        if self.directory is None:
            self._arrays.pop((kind, tier), None)
        else:
            self._path(kind, tier).unlink(missing_ok=True)

    def note(self, name: str, value) -> None:
        """Keep ``value`` (plain JSON data) under ``name``."""
        if self.directory is None:
            self._notes[name] = value
            return
        final = self.directory / f"{name}.json"
        temporary = final.with_suffix(".tmp")
        temporary.write_text(json.dumps(value))
        os.replace(temporary, final)

    def noted(self, name: str):
        """What ``note`` kept under ``name``, or None."""
        if self.directory is None:
            return self._notes.get(name)
        path = self.directory / f"{name}.json"
        return json.loads(path.read_text()) if path.exists() else None


@jit
def _set_bits(bits, locals_):
    for local in locals_:
        bits[local >> 6] |= np.int64(1) << (local & 63)


@jit
def _bits_to_locals(bits):
    """The set bits' positions, ascending."""
    count = 0
    for word in bits:
        count += popcount(word)
    found = np.empty(count, dtype=np.int64)
    k = 0
    for word in range(bits.size):
        rest = bits[word]
        while rest:
            found[k] = (word << 6) + lowest_bit(rest)
            k += 1
            rest &= rest - 1
    return found


#: A tier's waiting children go to bucket files on disk (when the search has a
#: directory and no bitmap of the tier is affordable) once they are this many.
SPILL_AT = 1 << 26

#: The largest bitmap of a tier's waiting children (bytes).
BITMAP_LIMIT = 1 << 32

#: Bucket files of a spilled tier: each holds one range of its local indices, so
#: each is sorted alone.
SPILL_BUCKETS = 256


class _Pending:
    """The local indices found so far in one tier, deduplicated: sorted arrays merged
    as they grow; a bitmap of the tier once that costs less than a quarter of the
    arrays (and at most ``bitmap_limit`` bytes); else, with a ``spill`` folder, files
    of buckets of index ranges (each bucket is sorted when the tier's turn comes), so
    the children of a tier larger than memory can wait on disk."""

    def __init__(self, size: int, bitmap_limit: int, spill: Path | None = None) -> None:
        self.size = size
        self.bitmap_limit = bitmap_limit
        self.spill = spill
        self.merged = np.zeros(0, np.int64)
        self.unmerged: list[np.ndarray] = []
        self.unmerged_size = 0
        self.bits: np.ndarray | None = None
        self.bounds: np.ndarray | None = None  # bucket boundaries once spilled

    def add(self, locals_: np.ndarray) -> None:
        """Add sorted, distinct local indices."""
        if self.bits is not None:
            _set_bits(self.bits, locals_)
            return
        if self.bounds is not None:
            self._append(locals_)
            return
        self.unmerged.append(locals_)
        self.unmerged_size += locals_.size
        if self.unmerged_size > max(self.merged.size, MERGE_AT):
            held = self.merged.size + self.unmerged_size
            bitmap_bytes = -(-self.size // 64) * 8
            if 32 * held > bitmap_bytes and bitmap_bytes <= self.bitmap_limit:
                self.bits = np.zeros(-(-self.size // 64), dtype=np.int64)
                for part in (self.merged, *self.unmerged):
                    _set_bits(self.bits, part)
                self.merged, self.unmerged, self.unmerged_size = np.zeros(0, np.int64), [], 0
            elif self.spill is not None and held > SPILL_AT:
                self.spill.mkdir(parents=True, exist_ok=True)
                step = -(-self.size // SPILL_BUCKETS)
                self.bounds = np.arange(0, self.size + step, step, dtype=np.int64)
                for part in (self.merged, *self.unmerged):
                    self._append(part)
                self.merged, self.unmerged, self.unmerged_size = np.zeros(0, np.int64), [], 0
            else:
                self._merge()

    def _bucket(self, bucket: int) -> Path:
        return self.spill / f"bucket-{bucket:04d}.bin"

    def _append(self, locals_: np.ndarray) -> None:
        cuts = np.searchsorted(locals_, self.bounds)
        for bucket in np.flatnonzero(np.diff(cuts)):
            with open(self._bucket(bucket), "ab") as out:
                locals_[cuts[bucket]:cuts[bucket + 1]].tofile(out)

    def _merge(self) -> None:
        self.merged = sorted_unique(np.concatenate([self.merged, *self.unmerged]), owned=True)
        self.unmerged, self.unmerged_size = [], 0

    def result(self) -> np.ndarray:
        """The sorted distinct local indices (bucket files and their folder are removed)."""
        if self.bits is not None:
            return _bits_to_locals(self.bits)
        if self.bounds is not None:
            parts = []
            for bucket in range(self.bounds.size - 1):
                path = self._bucket(bucket)
                if path.exists():
                    parts.append(sorted_unique(np.fromfile(path, dtype=np.int64), owned=True).copy())
                    path.unlink()
            self.spill.rmdir()
            return np.concatenate(parts) if parts else np.zeros(0, np.int64)
        self._merge()
        return self.merged


def _by_tier(offsets: np.ndarray, targets: np.ndarray):
    """(tier, sorted distinct local indices) of global ``targets``, tier by tier."""
    targets = sorted_unique(targets)
    bounds = np.searchsorted(targets, offsets)
    for tier in np.flatnonzero(np.diff(bounds)):
        yield int(tier), targets[bounds[tier]:bounds[tier + 1]] - offsets[tier]


def _expand_children(out, state, child, moves, data, tier, locals_, start, kid_tiers,
                     kid_locals, max_moves, illegal):
    """Template (``solver.common.expanding_kernel``): the children (tier, local) of
    ``locals_[start:]`` into ``kid_tiers`` and ``kid_locals`` while they surely fit;
    returns (the next row, children written). Moves to finished games outside the
    index are left out; an illegal position stops the call with its row in
    ``illegal[0]``."""
    written = 0
    row = start
    while row < locals_.size and written + max_moves <= kid_locals.size:
        count = expand(data, tier, locals_[row], out, state, child, moves)
        if count == 0:
            illegal[0] = row
            return row, written
        for k in range(max(count, 0)):
            if out[k, CHILD_TIER] != TERMINAL:
                kid_tiers[written] = out[k, CHILD_TIER]
                kid_locals[written] = out[k, CHILD_INDEX]
                written += 1
        row += 1
    return row, written


#: Children one search task collects before sorting them (two int64 arrays).
CHILDREN_BUFFER = 1 << 22


def _children_by_tier(game, tier: int, locals_: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """(child tier, sorted distinct child locals) of the positions ``locals_`` of ``tier``,
    in parts; SolverError for an illegal one."""
    kernel = expanding_kernel(_expand_children, game)
    capacity = max(CHILDREN_BUFFER, 2 * game.max_moves)
    kid_tiers = np.empty(capacity, np.int64)
    kid_locals = np.empty(capacity, np.int64)
    illegal = np.full(1, -1, np.int64)
    found, row = [], 0
    while row < locals_.size:
        row, written = kernel(game.state_size, game.max_moves, game.data, tier, locals_, row,
                              kid_tiers, kid_locals, game.max_moves, illegal)
        if illegal[0] >= 0:
            bad = int(locals_[illegal[0]] + game.tiers.offsets[tier])
            raise SolverError(f"{game.name}: play reaches index {bad}, which the game marks illegal")
        tiers_found = kid_tiers[:written]
        for kid in np.flatnonzero(np.bincount(tiers_found, minlength=1)):
            found.append((int(kid), sorted_unique(kid_locals[:written][tiers_found == kid], owned=True)))
    return found


def _expand_in_chunks(pool, game, tier: int, frontier: np.ndarray, threads: int):
    """``_children_by_tier`` of ``frontier`` in chunks of BLOCK positions on the pool,
    in order, with at most two chunks a thread under way (so the children waiting to
    be taken stay few)."""
    window: deque = deque()
    for lo in range(0, frontier.size, BLOCK):
        window.append(pool.submit(_children_by_tier, game, tier, frontier[lo:lo + BLOCK]))
        if len(window) >= 2 * threads:
            yield window.popleft().result()
    while window:
        yield window.popleft().result()


def search_tiers(game, starts: np.ndarray, store: TierStore, progress=None,
                 bitmap_limit: int | None = None, threads: int | None = None) -> dict[int, int]:
    """Find what play reaches from the global indices ``starts``, one tier at a time,
    each tier after every tier with moves into it: a tier's positions are complete
    when its turn comes, are closed under its own moves (a SWEEP tier's), stored in
    ``store`` and expanded once (in chunks on ``threads``), their children waiting in
    the tiers below. Returns the positions found per tier (also noted in ``store``:
    a store that holds them is not searched again); ``progress(found)`` is called
    after each tier."""
    searched = store.noted("search")
    if searched is not None:  # a build that resumes: the search was finished
        return {int(tier): count for tier, count in searched.items()}
    offsets = np.asarray(game.tiers.offsets, dtype=np.int64)
    sizes = np.asarray(game.tier_sizes, dtype=np.int64)
    threads = threads or os.cpu_count() or 1
    bitmap_limit = BITMAP_LIMIT if bitmap_limit is None else bitmap_limit
    pending: dict[int, _Pending] = {}
    done: dict[int, int] = {}

    def waiting(tier: int) -> _Pending:
        if tier in done:
            raise SolverError(f"{game.name}: a move leads to tier {tier}, which is not solved "
                              "after the tiers with moves into it: declare it in tier_children")
        if tier not in pending:
            spill = None if store.directory is None else store.directory / f"waiting-{tier:06d}"
            pending[tier] = _Pending(int(sizes[tier]), bitmap_limit, spill)
        return pending[tier]

    if store.directory is not None:  # what a search that was stopped left waiting
        for left in store.directory.glob("waiting-*"):
            shutil.rmtree(left)

    for tier, locals_ in _by_tier(offsets, np.asarray(starts, dtype=np.int64)):
        waiting(tier).add(locals_)
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for tier in reversed(tier_order(game)):
            if tier not in pending:
                continue
            seen = frontier = pending.pop(tier).result()
            while frontier.size:  # closed under the tier's own moves (SWEEP tiers have some)
                inside = []
                for found in _expand_in_chunks(pool, game, tier, frontier, threads):
                    for kid, kid_locals in found:
                        if kid == tier:
                            inside.append(kid_locals)
                        else:
                            waiting(kid).add(kid_locals)
                frontier = sorted_unique(np.concatenate(inside)) if inside else seen[:0]
                frontier = frontier[~members(frontier, seen)]
                if frontier.size:
                    seen = np.insert(seen, np.searchsorted(seen, frontier), frontier)
            store.put("positions", tier, seen)
            done[tier] = int(seen.size)
            if progress is not None:
                progress(sum(done.values()))
    store.note("search", {str(tier): count for tier, count in done.items()})
    return done


@jit(forceinline=True)
def _find(address, directory, shift, target):
    """The row of ``target`` in the sorted int64 array at ``address``, or -1: its
    ``directory`` (an int64 array's address) holds the first row of each bucket of
    ``2^shift`` values, so the binary search covers a few rows."""
    lo = load_at(directory, target >> shift, target)
    end = load_at(directory, (target >> shift) + 1, target)
    hi = end
    while lo < hi:
        middle = (lo + hi) >> 1
        if load_at(address, middle, target) < target:
            lo = middle + 1
        else:
            hi = middle
    if lo < end and load_at(address, lo, target) == target:
        return lo
    return np.int64(-1)


def _directory(positions: np.ndarray, size: int) -> tuple[np.ndarray, int]:
    """(first row of each bucket, bucket bits) for ``_find``: 8 to 16 positions a
    bucket on average, over local indices 0..size-1, so the directory takes at most
    a byte a position and a search reads two adjacent cache lines."""
    shift = max(0, int(size - 1).bit_length() - max(1, int(positions.size).bit_length() - 4))
    buckets = ((size - 1) >> shift) + 1
    return np.searchsorted(positions, np.arange(buckets + 1, dtype=np.int64) << shift), shift


def _solve_rows(out, state, child, moves, data, tier, positions, lo, hi, records,
                position_addresses, directories, shifts, record_addresses, sizes, none, failure):
    """Template (``solver.common.expanding_kernel``): solve rows hi-1 down to lo of one
    tier's sorted reachable local indices ``positions`` into ``records``. Each child is
    found by binary search in its tier's positions (``position_addresses[t]``, with
    ``directories[t]`` and ``shifts[t]`` for ``_find``; 0 for a tier not to be read)
    and read from its records (``record_addresses[t]``; a SWEEP tier's own
    ``records``, filled with ``UNSOLVED``). The first problem stops the call, in
    ``failure`` (code, row, child tier, child local)."""
    like = records[0]
    for row in range(hi - 1, lo - 1, -1):
        count = expand(data, tier, positions[row], out, state, child, moves)
        if count <= 0:
            if count == 0:
                failure[0], failure[1], failure[2], failure[3] = POSITION_ILLEGAL, row, tier, positions[row]
                return
            records[row] = pack_record(-count, 0)
            continue
        best = np.int64(NO_CHILD)
        for k in range(count):
            kid = out[k, CHILD_TIER]
            local = out[k, CHILD_INDEX]
            if kid != TERMINAL:  # the child's row in its tier's positions: read_child reads it
                at = np.int64(-1)
                if position_addresses[kid] != 0 and 0 <= local < sizes[kid]:
                    at = _find(position_addresses[kid], directories[kid], shifts[kid], local)
                if at < 0:
                    failure[0], failure[1], failure[2], failure[3] = CHILD_NOT_FOUND, row, kid, local
                    return
                out[k, CHILD_INDEX] = at
            problem, score = read_child(out, k, record_addresses, sizes, like)
            if problem != 0:
                failure[0], failure[1], failure[2], failure[3] = problem, row, kid, local
                return
            best = max(best, score)
        result, distance = score_outcome(best, none)
        if result != DRAW and distance >= none:
            failure[0], failure[1], failure[2], failure[3] = REMOTENESS_OVERFLOW, row, tier, distance
            return
        records[row] = pack_record(result, distance if result != DRAW else none)


def solve_tiers(game, counts: dict[int, int], store: TierStore,
                threads: int | None = None, progress=None) -> None:
    """Solve the tiers ``search_tiers`` stored, each after the tiers its moves reach,
    into ``store``'s ``"records"``; a tier's children stay in memory while a tier
    still to be solved reads them. IMMEDIATE tiers run in chunks on ``threads``.
    Tiers the store already holds records of are not solved again.
    ``progress(solved)`` is told the positions solved after each tier."""
    kernel = expanding_kernel(_solve_rows, game)
    dtype = records_type(game)
    none = record_none(dtype)
    threads = threads or os.cpu_count() or 1
    count = game.tiers.count
    order = [t for t in tier_order(game) if counts.get(t)]
    reads = {t: [k for k in tiers_read(game, t) if counts.get(k)] for t in order}
    readers = {t: 0 for t in order}
    for kids in reads.values():
        for kid in kids:
            readers[kid] += 1
    sizes = np.asarray(game.tier_sizes, dtype=np.int64)
    held: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, int]] = {}  # with directories
    solved = 0
    for tier in order:
        kids = reads[tier]
        if store.has("records", tier):  # solved before a build was stopped
            _release(held, readers, kids)
            solved += counts[tier]
            continue
        positions = np.ascontiguousarray(store.get("positions", tier))
        records = np.full(positions.size, np.iinfo(dtype).max, dtype)  # all UNSOLVED
        for kid in kids:
            if kid not in held:
                kid_positions = np.array(store.get("positions", kid))
                held[kid] = (kid_positions, np.array(store.get("records", kid)),
                             *_directory(kid_positions, int(sizes[kid])))
        tables = np.zeros((4, count), np.int64)  # positions, directory, shift, records
        sweep = tier_type(game, tier) == TierType.SWEEP
        entry = (positions, records, *_directory(positions, int(sizes[tier]))) \
            if sweep or readers[tier] else None
        own = [(tier, entry)] if sweep else []  # an IMMEDIATE tier reads none of its own records
        for kid, (kid_positions, kid_records, directory, shift) in \
                [*((k, held[k]) for k in kids), *own]:
            if kid_positions.size:
                tables[:, kid] = (address_of(kid_positions), address_of(directory), shift,
                                  address_of(kid_records))
        step = positions.size if sweep else BLOCK
        chunks = [(lo, min(lo + step, positions.size)) for lo in range(0, positions.size, step)]
        failures = [np.zeros(4, np.int64) for _ in chunks]
        with ThreadPoolExecutor(max_workers=1 if sweep else threads) as pool:
            list(pool.map(lambda c: kernel(game.state_size, game.max_moves, game.data, tier,
                                           positions, c[0][0], c[0][1], records, tables[0],
                                           tables[1], tables[2], tables[3], sizes, none, c[1]),
                          zip(chunks, failures)))
        failed = [f for f in failures if f[0]]
        if failed:
            raise SolverError(_failure_text(game, tier, positions, failed[0]))
        store.put("records", tier, records)
        solved += positions.size
        interrupts.check()  # a signal whose KeyboardInterrupt was lost (solver.interrupts)
        if progress is not None:
            progress(solved)
        if readers[tier]:
            held[tier] = entry
        _release(held, readers, kids)


def _failure_text(game, tier: int, positions: np.ndarray, failure: np.ndarray) -> str:
    """One line for a ``_solve_rows`` failure (code, row, child tier, child local)."""
    kind, row, kid, local = (int(x) for x in failure)
    child = f"(index {local + int(game.tiers.offsets[kid])})" if kid >= 0 else ""
    problem = {
        POSITION_ILLEGAL: "is illegal",
        CHILD_NOT_FOUND: f"has a move to a position the search did not find {child}",
        CHILD_NOT_YET_SOLVED: "has a move to a position not solved before it (a SWEEP tier's "
                              f"move to a lower index?) {child}",
        REMOTENESS_OVERFLOW: f"would have remoteness {local}, more than the game's records hold",
        TERMINAL_NOT_A_VALUE: "has a move to a finished game that is not indexed, whose value "
                              f"code {local} is not WIN, LOSE, TIE or DRAW",
    }.get(kind, f"has a move that breaks the contract: {FAILURES.get(kind, kind)} {child}")
    return f"{game.name}: index {int(positions[row]) + int(game.tiers.offsets[tier])} reached by play {problem}"


def _release(held: dict, readers: dict[int, int], kids: list[int]) -> None:
    """A tier that read ``kids`` is done: forget those no other tier still reads."""
    for kid in kids:
        readers[kid] -= 1
        if not readers[kid]:
            held.pop(kid, None)


@dataclass
class TieredSolution:
    """Solved positions kept tier by tier in a ``TierStore`` (``counts``: positions
    per tier), read back in order of global index."""

    game: object
    counts: dict[int, int]
    store: TierStore

    @property
    def size(self) -> int:
        return sum(self.counts.values())

    def parts(self, rows: int = 1 << 26):
        """(global indices, value codes, remoteness (-1 none) as int32) of at most
        ``rows`` positions at a time, in order of global index."""
        offsets = np.asarray(self.game.tiers.offsets, dtype=np.int64)
        for tier in sorted(t for t, n in self.counts.items() if n):
            all_records = self.store.get("records", tier)
            all_positions = self.store.get("positions", tier)
            for lo in range(0, all_records.size, rows):
                records = np.asarray(all_records[lo:lo + rows])
                distance = (records >> VALUE_BITS).astype(np.int32)
                distance[distance == record_none(records.dtype)] = -1
                yield (all_positions[lo:lo + rows] + offsets[tier],
                       (records & VALUE_MASK).astype(np.uint8), distance)

    def whole(self) -> "ReachableSolution":
        """Everything in memory at once."""
        parts = list(self.parts())
        if not parts:
            return ReachableSolution(np.zeros(0, np.int64), np.zeros(0, np.uint8), np.zeros(0, np.int32))
        return ReachableSolution(*(np.concatenate(column) for column in zip(*parts)))


def solve_reachable(game, starts, progress=None, check=None, method: str | None = None,
                    store: TierStore | None = None,
                    threads: int | None = None) -> ReachableSolution | TieredSolution:
    """Find and solve every position reachable from the global indices ``starts``;
    ``progress(message)`` is told about each phase, ``check(found)`` the positions
    found after each tier or level of the search (it may raise to stop it). ``method``
    is "bottom-up" (games without LOOPY tiers only) or "graph"; by default bottom-up
    where it applies. Bottom-up with a ``store`` keeps the tiers there and returns a
    TieredSolution; otherwise everything comes back in one ReachableSolution."""
    def say(message: str) -> None:
        if progress is not None:
            progress(message)

    def level(found: int) -> None:
        interrupts.check()  # a signal whose KeyboardInterrupt was lost (solver.interrupts)
        say(f"{found:,} positions found")
        if check is not None:
            check(found)

    method = method or ("graph" if has_loopy_tiers(game) else "bottom-up")
    if method == "bottom-up":
        if has_loopy_tiers(game):
            raise SolverError(f"{game.name}: a game with LOOPY tiers is solved as a graph")
        kept = store if store is not None else TierStore()
        counts = search_tiers(game, np.asarray(starts, dtype=np.int64), kept, level)
        total = sum(counts.values())
        say(f"solving {total:,} positions bottom-up")
        solve_tiers(game, counts, kept, threads,
                    lambda solved: say(f"{solved:,} of {total:,} positions solved"))
        solution = TieredSolution(game, counts, kept)
        return solution if store is not None else solution.whole()
    return solve_graph(game, starts, level, say)
