"""Solving what play reaches as one explicit move graph (the method for games with
loopy tiers; ``solver.reachable`` chooses it and solves the others tier by tier):

1. **Find** the reachable set, breadth first: a frontier of global indices is
   expanded by the game's ``expand`` (the same function the tier kernels call), the
   children are deduplicated with numpy and the ones not seen yet form the next
   frontier. The set is kept as a sorted int64 array.
2. **Link** it: every position's moves again, each child mapped to its row in the
   sorted array (a binary search); moves to finished games that the index leaves out
   keep the value the game states (``TERMINAL``). Reverse edges by counting sort.
3. **Solve** the explicit graph by retrograde analysis, exactly as RULES.md defines
   the values and as ``solver/loopy.py`` does inside a tier: WIN/LOSE as the least
   fixed point, level by level of remoteness (a FIFO queue whose levels never
   decrease), then TIE spreading from ties through what is left, then DRAW. On an
   acyclic graph this is the bottom-up rule's answer too, so one algorithm serves
   both kinds of game.

Everything per position runs in numba; Python only loops over frontiers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tiersolve.contract import CHILD_INDEX, CHILD_SAME_MOVER, CHILD_TIER, TERMINAL
from tiersolve.jit import bound_later, jit
from tiersolve.solver.common import SolverError, as_seen_by_parent, expanding_kernel
from tiersolve.solver.sorted_sets import members, sorted_unique
from tiersolve.values import DRAW, ILLEGAL, LOSE, TIE, UNDECIDED, WIN

expand, = bound_later("expand")

#: Positions expanded per kernel call while the set is searched and linked.
BLOCK = 1 << 20


def _expand_positions(out, state, child, moves, data, offsets, indices, first_edge, targets,
                      same, primitive, fill):
    """Template (``solver.common.expanding_kernel``), see ``expand_positions``."""
    for i in range(indices.size):
        index = indices[i]
        tier = np.searchsorted(offsets, index, side="right") - 1
        count = expand(data, tier, index - offsets[tier], out, state, child, moves)
        if not fill:
            primitive[i] = -count if count <= 0 else UNDECIDED
            first_edge[i + 1] = max(count, 0)
            continue
        edge = first_edge[i]
        for k in range(max(count, 0)):
            if out[k, CHILD_TIER] == TERMINAL:
                targets[edge + k] = -1 - out[k, CHILD_INDEX]
            else:
                targets[edge + k] = offsets[out[k, CHILD_TIER]] + out[k, CHILD_INDEX]
            same[edge + k] = out[k, CHILD_SAME_MOVER]


def expand_positions(game, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                          np.ndarray]:
    """(primitive, first_edge, targets, same) of the global ``indices``: each one's
    sign-coded expand result (UNDECIDED if it has moves), where its edges start (one
    more entry: the end), each edge's child global index (``-(1 + value)`` for a
    finished game outside the index) and same-mover flag."""
    kernel = expanding_kernel(_expand_positions, game)
    offsets = np.asarray(game.tiers.offsets, dtype=np.int64)
    indices = np.ascontiguousarray(indices, dtype=np.int64)
    first_edge = np.zeros(indices.size + 1, dtype=np.int64)
    primitive = np.empty(indices.size, dtype=np.uint8)
    none64, none8 = np.zeros(0, np.int64), np.zeros(0, np.uint8)
    kernel(game.state_size, game.max_moves, game.data, offsets, indices, first_edge, none64,
           none8, primitive, False)
    np.cumsum(first_edge, out=first_edge)
    targets = np.empty(int(first_edge[-1]), dtype=np.int64)
    same = np.empty(int(first_edge[-1]), dtype=np.uint8)
    kernel(game.state_size, game.max_moves, game.data, offsets, indices, first_edge, targets,
           same, primitive, True)
    return primitive, first_edge, targets, same


def find_reachable(game, starts: np.ndarray, progress=None) -> np.ndarray:
    """The sorted global indices of every position play reaches from ``starts``
    (themselves included), breadth first. ``progress(found)`` is called per level
    (and may raise to stop the search, e.g. when memory runs short)."""
    seen = sorted_unique(np.asarray(starts, dtype=np.int64))
    frontier = seen
    while frontier.size:
        # The next level: each block's new children, merged whenever the unmerged ones
        # outgrow the merged (so memory stays a small multiple of the level's size).
        level, unmerged, unmerged_size = np.zeros(0, np.int64), [], 0
        for lo in range(0, frontier.size, BLOCK):
            primitive, _, targets, _ = expand_positions(game, frontier[lo:lo + BLOCK])
            if (primitive == ILLEGAL).any():
                bad = int(frontier[lo:lo + BLOCK][np.flatnonzero(primitive == ILLEGAL)[0]])
                raise SolverError(f"{game.name}: play reaches index {bad}, which the game marks "
                                  "illegal")
            children = sorted_unique(targets[targets >= 0])
            del targets
            unmerged.append(children[~members(children, seen)])
            unmerged_size += unmerged[-1].size
            if unmerged_size > max(level.size, 8 * BLOCK):
                level = sorted_unique(np.concatenate([level, *unmerged]))
                unmerged, unmerged_size = [], 0
        frontier = sorted_unique(np.concatenate([level, *unmerged]))
        del level, unmerged
        seen = np.insert(seen, np.searchsorted(seen, frontier), frontier)  # a sorted merge
        if progress is not None:
            progress(seen.size)
    return seen


@dataclass
class ReachableSolution:
    """Solved positions: sorted global ``indices`` with their ``value`` codes and
    ``remoteness`` (-1 for none), row for row."""

    indices: np.ndarray
    value: np.ndarray
    remoteness: np.ndarray

    def counts(self) -> np.ndarray:
        """Positions per value code (ILLEGAL .. DRAW, and 0 NONCANONICAL)."""
        return np.bincount(self.value, minlength=6)[:6].astype(np.int64)


def link(game, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The move graph of a closed set of sorted global ``indices``: (primitive,
    first_edge, child rows as int32, same-mover flags), a child row ``-(1 + value)``
    for a finished game outside the index. Rows are int32 to halve the edges' memory."""
    if indices.size >= 2**31 - 1:
        raise SolverError(f"{game.name}: {indices.size:,} reachable positions are more than "
                          "this solver's int32 rows hold")
    primitive = np.empty(indices.size, dtype=np.uint8)
    first_edge = np.zeros(indices.size + 1, dtype=np.int64)
    targets, same = [], []
    for lo in range(0, indices.size, BLOCK):
        block_primitive, block_first, block_targets, block_same = \
            expand_positions(game, indices[lo:lo + BLOCK])
        primitive[lo:lo + block_primitive.size] = block_primitive
        first_edge[lo + 1:lo + block_first.size] = block_first[1:] + first_edge[lo]
        inside = block_targets >= 0
        rows = np.searchsorted(indices, block_targets[inside])
        if rows.size and (rows.max() >= indices.size or
                          (indices[rows] != block_targets[inside]).any()):
            raise SolverError(f"{game.name}: the reachable set is not closed under moves")
        block_targets[inside] = rows
        targets.append(block_targets.astype(np.int32))
        same.append(block_same)
        del block_targets, rows, inside
    empty = (np.zeros(0, np.int32), np.zeros(0, np.uint8))
    return (primitive, first_edge, np.concatenate(targets) if targets else empty[0],
            np.concatenate(same) if same else empty[1])


@jit
def _reverse(first_edge, targets, same, count):
    """Reverse edges by counting sort: (first_parent, parent rows, same flags)."""
    first_parent = np.zeros(count + 1, dtype=np.int64)
    for edge in range(targets.size):
        if targets[edge] >= 0:
            first_parent[targets[edge] + 1] += 1
    for row in range(count):
        first_parent[row + 1] += first_parent[row]
    filled = first_parent[:-1].copy()
    parents = np.empty(first_parent[count], dtype=np.int32)
    parent_same = np.empty(first_parent[count], dtype=np.uint8)
    for row in range(count):
        for edge in range(first_edge[row], first_edge[row + 1]):
            child = targets[edge]
            if child >= 0:
                parents[filled[child]] = row
                parent_same[filled[child]] = same[edge]
                filled[child] += 1
    return first_parent, parents, parent_same


@jit
def _retrograde(primitive, first_edge, targets, same, first_parent, parents, parent_same):
    """Values and remoteness of every row (see the module docstring)."""
    count = primitive.size
    value = np.full(count, UNDECIDED, dtype=np.uint8)
    remoteness = np.full(count, -1, dtype=np.int32)
    waiting = np.zeros(count, dtype=np.int32)   # children not yet known to be bad
    worst = np.zeros(count, dtype=np.int32)     # largest remoteness of the bad children
    queue = np.empty(count, dtype=np.int32)
    head = 0
    tail = 0
    # Level 0: finished games. Children outside the index are known at once.
    for row in range(count):
        if primitive[row] != UNDECIDED:
            value[row] = primitive[row]
            remoteness[row] = 0
            if value[row] == WIN or value[row] == LOSE:
                queue[tail] = row
                tail += 1
    for row in range(count):
        if primitive[row] != UNDECIDED:
            continue
        waiting[row] = first_edge[row + 1] - first_edge[row]
        for edge in range(first_edge[row], first_edge[row + 1]):
            if targets[edge] < 0:
                seen = as_seen_by_parent(-1 - targets[edge], same[edge])
                if seen == WIN and value[row] == UNDECIDED:
                    value[row] = WIN
                    remoteness[row] = 1
                    queue[tail] = row
                    tail += 1
                elif seen == LOSE:
                    waiting[row] -= 1
        if value[row] == UNDECIDED and waiting[row] == 0:
            value[row] = LOSE
            remoteness[row] = 1
            queue[tail] = row
            tail += 1
    # WIN/LOSE, level by level: the queue's remoteness never decreases.
    while head < tail:
        row = queue[head]
        head += 1
        for k in range(first_parent[row], first_parent[row + 1]):
            parent = parents[k]
            if value[parent] != UNDECIDED:
                continue
            seen = as_seen_by_parent(value[row], parent_same[k])
            if seen == WIN:
                value[parent] = WIN
                remoteness[parent] = remoteness[row] + 1
                queue[tail] = parent
                tail += 1
            elif seen == LOSE:
                waiting[parent] -= 1
                worst[parent] = max(worst[parent], remoteness[row])
                if waiting[parent] == 0:
                    value[parent] = LOSE
                    remoteness[parent] = worst[parent] + 1
                    queue[tail] = parent
                    tail += 1
    # TIE spreads from ties (and moves to tied finished games) through the undecided.
    head = 0
    tail = 0
    for row in range(count):
        if value[row] == TIE:
            queue[tail] = row
            tail += 1
    for row in range(count):
        if value[row] != UNDECIDED:
            continue
        for edge in range(first_edge[row], first_edge[row + 1]):
            if targets[edge] < 0 and -1 - targets[edge] == TIE:
                value[row] = TIE
                remoteness[row] = 1
                queue[tail] = row
                tail += 1
                break
    while head < tail:
        row = queue[head]
        head += 1
        for k in range(first_parent[row], first_parent[row + 1]):
            parent = parents[k]
            if value[parent] == UNDECIDED:
                value[parent] = TIE
                remoteness[parent] = remoteness[row] + 1
                queue[tail] = parent
                tail += 1
    for row in range(count):
        if value[row] == UNDECIDED:
            value[row] = DRAW
    return value, remoteness


def bytes_per_position(game) -> int:
    """Memory a reachable position takes while the game is solved as a graph (for the
    memory check during its search): index, edge offsets, value, remoteness, queues
    (48) and about eight moves of 10 bytes each way (int32 rows and a flag). (The
    bottom-up method holds a few tiers at a time; a build checks what it uses.)"""
    return 48 + 8 * 12


def solve_graph(game, starts: np.ndarray, level=None, say=None) -> ReachableSolution:
    """Find every position play reaches from the global indices ``starts``, link the
    moves and solve the graph; ``level(found)`` is called per level of the search,
    ``say(message)`` once the moves are linked."""
    indices = find_reachable(game, np.asarray(starts, dtype=np.int64), level)
    primitive, first_edge, targets, same = link(game, indices)
    if say is not None:
        say(f"{targets.size:,} moves linked")
    first_parent, parents, parent_same = _reverse(first_edge, targets, same, indices.size)
    value, remoteness = _retrograde(primitive, first_edge, targets, same, first_parent, parents,
                                    parent_same)
    return ReachableSolution(indices, value, remoteness)
