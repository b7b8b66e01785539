"""Retrograde solver for games whose move graph has cycles.

Follows RULES.md exactly:

1. A forward pass expands every position once: primitives get their value with
   remoteness 0, other positions count their moves, and every move is recorded as a
   reverse edge (child -> parent, with a flag when the same player moves again).
2. WIN/LOSE spread backwards from the decided positions in order of remoteness
   (a FIFO queue): a child that is a loss for the parent's mover makes the parent a
   WIN at once (so its remoteness is 1 + the smallest); a parent whose moves are all
   wins for the opponent becomes a LOSE when its last move is counted (1 + the
   largest). This is the least fixed point: every WIN is forceable in finitely many
   moves.
3. TIE spreads backwards from tie primitives through positions still undecided.
4. Whatever is left is a DRAW (no remoteness).

The whole position space is held in memory: values (1 byte), remoteness (2),
move counters (4), reverse-edge offsets (8), queue (8) per position, and 8 bytes per
move. ``estimate_peak_bytes`` gives the figure before solving.

    >>> from games import make_game
    >>> stats = solve_retrograde(make_game("northcott", rows=1, cols=3, backward=True),
    ...                          progress=False)
    >>> int(stats.counts[4])  # draws
    0
"""

from __future__ import annotations

import time

import numpy as np

from solver.common import (
    TERMINAL, SolvableGame, SolveStats, SolverError, TierSink, announced, as_seen_by_parent,
    progress_bar, scratch,
)
from solver.jit import jit, specialise
from solver.values import DRAW, ILLEGAL, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN

#: Positions per call of the forward-pass kernels (a progress bar tick).
CHUNK = 1 << 18


def _count_moves(data, tier, lo, hi, start, values, remoteness, moves_left, parents_end,
                 tier_starts, state_size, max_moves):
    """Template: first forward pass over local indices lo..hi-1 of ``tier``.

    Records primitives, the number of moves of every other position that are not yet
    known to lose, and how many moves lead into each position (accumulated in
    ``parents_end[child + 1]``). Moves to terminal (unindexed) finished games are
    settled here: one that wins decides the position (remoteness 1); ones that lose
    are not counted; one that ties is remembered (remoteness 1 on an undecided
    position) for the TIE pass."""
    out, state, child, moves = scratch(state_size, max_moves)
    for local in range(lo, hi):
        at = start + local
        count = expand(data, tier, local, out, state, child, moves)  # noqa: F821 (bound)
        moves_left[at] = 0
        if count <= 0:
            values[at] = -count
            remoteness[at] = 0 if count < 0 else NO_REMOTENESS
            continue
        wins, losses, ties = _terminal_outcomes(out, count)
        if wins or losses == count:  # decided by finished games alone: remoteness 1
            values[at] = WIN if wins else LOSE
            remoteness[at] = 1
            continue
        values[at] = UNDECIDED
        remoteness[at] = 1 if ties else NO_REMOTENESS
        moves_left[at] = count - losses
        for k in range(count):
            if out[k, 0] != TERMINAL:
                parents_end[tier_starts[out[k, 0]] + out[k, 1] + 1] += 1


@jit(inline="always")
def _terminal_outcomes(out, count):
    """How many moves to terminal children win, lose and tie for the mover."""
    wins = 0
    losses = 0
    ties = 0
    for k in range(count):
        if out[k, 0] == TERMINAL:
            seen = as_seen_by_parent(out[k, 1], out[k, 2])
            wins += seen == WIN
            losses += seen == LOSE
            ties += seen == TIE
    return wins, losses, ties


def _record_parents(data, tier, lo, hi, start, values, parents_end, parents, tier_starts,
                    state_size, max_moves):
    """Template: second forward pass; writes each move as a reverse edge.

    ``parents_end[c]`` starts as the end of child c's slice of ``parents`` and is
    moved down as edges are written, so that afterwards it is the slice's start.
    An edge is ``(parent << 1) | same_mover``."""
    out, state, child, moves = scratch(state_size, max_moves)
    for local in range(lo, hi):
        at = start + local
        if values[at] != UNDECIDED:
            continue
        count = expand(data, tier, local, out, state, child, moves)  # noqa: F821 (bound)
        for k in range(count):
            if out[k, 0] == TERMINAL:
                continue
            target = tier_starts[out[k, 0]] + out[k, 1]
            parents_end[target] -= 1
            parents[parents_end[target]] = (at << 1) | out[k, 2]


@jit
def _check_children(values, parents_start, parents):
    """Number of reverse edges whose child index is not a legal position."""
    broken = 0
    for position in range(values.shape[0]):
        if values[position] == ILLEGAL and parents_start[position + 1] > parents_start[position]:
            broken += 1
    return broken


@jit(inline="always")
def _decide(values, remoteness, queue, tail, position, value, distance):
    """Give ``position`` its value and remoteness and queue it; returns the new tail."""
    values[position] = value
    remoteness[position] = distance
    queue[tail] = position
    return tail + 1


@jit
def _propagate(values, remoteness, moves_left, parents_start, parents, queue):
    """WIN/LOSE by remoteness order, then TIE, then DRAW. Returns the largest remoteness."""
    size = values.shape[0]
    longest = 1
    tail = 0
    for distance in range(2):  # primitives, then positions settled by terminal moves
        for position in range(size):
            if (values[position] == WIN or values[position] == LOSE) and remoteness[position] == distance:
                queue[tail] = position
                tail += 1
    head = 0
    while head < tail:
        position = queue[head]
        head += 1
        value = values[position]
        distance = np.int64(remoteness[position]) + 1
        for e in range(parents_start[position], parents_start[position + 1]):
            parent = parents[e] >> 1
            if values[parent] != UNDECIDED:
                continue
            seen = value
            if (parents[e] & 1) == 0:  # the opponent moves in the child: flip
                seen = LOSE if value == WIN else WIN
            if seen == WIN:
                tail = _decide(values, remoteness, queue, tail, parent, WIN, distance)
                longest = max(longest, distance)
            else:
                moves_left[parent] -= 1
                if moves_left[parent] == 0:
                    tail = _decide(values, remoteness, queue, tail, parent, LOSE, distance)
                    longest = max(longest, distance)
    tail = 0
    for position in range(size):
        if values[position] == TIE:
            queue[tail] = position
            tail += 1
    for position in range(size):  # undecided, with a move to a terminal tie
        if values[position] == UNDECIDED and remoteness[position] == 1:
            tail = _decide(values, remoteness, queue, tail, position, TIE, 1)
    head = 0
    while head < tail:
        position = queue[head]
        head += 1
        distance = np.int64(remoteness[position]) + 1
        for e in range(parents_start[position], parents_start[position + 1]):
            parent = parents[e] >> 1
            if values[parent] == UNDECIDED:
                tail = _decide(values, remoteness, queue, tail, parent, TIE, distance)
                longest = max(longest, distance)
    for position in range(size):
        if values[position] == UNDECIDED:
            values[position] = DRAW
            remoteness[position] = NO_REMOTENESS
    return longest


def estimate_peak_bytes(game: SolvableGame) -> int:
    """Upper bound of the memory a retrograde solve holds (every move counted once)."""
    size = int(np.sum(game.tier_sizes))
    return size * (1 + 2 + 4 + 8 + 8) + size * max(game.max_moves, 1) * 8


def _kernels(game: SolvableGame):
    return (specialise(_count_moves, game.kernel_label, expand=game.expand),
            specialise(_record_parents, game.kernel_label, expand=game.expand))


def warm_up(game: SolvableGame) -> float:
    """Compile (or load) the kernels; returns the seconds it took."""
    start = time.perf_counter()
    count_moves, record_parents = _kernels(game)
    tiers = np.zeros(len(game.tier_sizes), np.int64)
    nothing8, nothing64 = np.zeros(0, np.uint8), np.zeros(1, np.int64)
    count_moves(game.data, 0, 0, 0, 0, nothing8, np.zeros(0, np.uint16), np.zeros(0, np.int32),
                nothing64, tiers, game.state_size, game.max_moves)
    record_parents(game.data, 0, 0, 0, 0, nothing8, nothing64, nothing64, tiers,
                   game.state_size, game.max_moves)
    _propagate(nothing8, np.zeros(0, np.uint16), np.zeros(0, np.int32), nothing64,
               nothing64, nothing64)
    _check_children(nothing8, nothing64, nothing64)
    return time.perf_counter() - start


def _chunks(sizes: np.ndarray):
    for tier, size in enumerate(sizes):
        for lo in range(0, int(size), CHUNK):
            yield tier, lo, min(lo + CHUNK, int(size))


def solve_retrograde(game: SolvableGame, *, threads: int | None = None, progress: bool = True,
                     sink: TierSink | None = None) -> SolveStats:
    """Solve a game with cycles; ``sink(tier, values, remoteness)`` gets every tier at the end.

    ``threads`` is accepted for symmetry with the bottom-up solver; this solver runs
    on one thread."""
    with announced(f"{game.name}: loading or compiling the numba kernels", progress):
        stats = SolveStats(compile_seconds=warm_up(game), peak_bytes=estimate_peak_bytes(game))
    count_moves, record_parents = _kernels(game)
    sizes = np.asarray(game.tier_sizes, dtype=np.int64)
    tier_starts = np.zeros(len(sizes), dtype=np.int64)
    tier_starts[1:] = np.cumsum(sizes)[:-1]
    size = int(sizes.sum())

    values = np.empty(size, dtype=np.uint8)
    remoteness = np.empty(size, dtype=np.uint16)
    moves_left = np.empty(size, dtype=np.int32)
    parents_end = np.zeros(size + 1, dtype=np.int64)
    with progress_bar(size, f"{game.name}: counting moves", progress) as bar:
        for tier, lo, hi in _chunks(sizes):
            count_moves(game.data, tier, lo, hi, tier_starts[tier], values, remoteness,
                        moves_left, parents_end, tier_starts, game.state_size, game.max_moves)
            bar.update(hi - lo)
    np.cumsum(parents_end, out=parents_end)  # now the end of each child's slice (shifted by one)
    parents = np.empty(int(parents_end[-1]), dtype=np.int64)
    stats.peak_bytes = size * (1 + 2 + 4 + 8 + 8) + parents.nbytes
    slice_ends = parents_end[1:]
    with progress_bar(size, f"{game.name}: recording moves", progress) as bar:
        for tier, lo, hi in _chunks(sizes):
            record_parents(game.data, tier, lo, hi, tier_starts[tier], values, slice_ends,
                           parents, tier_starts, game.state_size, game.max_moves)
            bar.update(hi - lo)
    # Every slice_ends[c] has moved down to the start of child c's slice; shift them
    # into place (no copy: this array is the largest per-position one besides edges).
    parents_end[:size] = slice_ends
    parents_end[size] = parents.shape[0]
    parents_start = parents_end
    del parents_end, slice_ends
    broken = _check_children(values, parents_start, parents)
    if broken:
        raise SolverError(f"{game.name}: {broken} moves lead to indices that are not legal positions")
    queue = np.empty(size, dtype=np.int64)
    with announced(f"{game.name}: propagating values backwards", progress):
        longest = _propagate(values, remoteness, moves_left, parents_start, parents, queue)
    if longest >= NO_REMOTENESS:
        raise SolverError(f"{game.name}: remoteness beyond {NO_REMOTENESS - 1} cannot be stored")
    del queue, parents, parents_start, moves_left
    for tier in range(len(sizes)):
        tier_values = values[tier_starts[tier]:tier_starts[tier] + sizes[tier]]
        tier_remoteness = remoteness[tier_starts[tier]:tier_starts[tier] + sizes[tier]]
        stats.add_tier(tier_values, tier_remoteness)
        if sink is not None:
            sink(tier, tier_values, tier_remoteness)
    return stats
