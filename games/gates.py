"""Gates (Miller Hollinger's, as GamesmanOne's ``gates`` plays it): two gates, two
triangles and two trapezoids a side on an 18-point hexagonal board. The pieces are
placed first, by either player and of either colour; then each side moves its own
triangles and trapezoids, scoring one by moving it onto one of its own gates. The
other side then moves that gate before its own move. A side that scores both its
spikes (triangles and trapezoids) wins; a side with no move loses.

Rules: docs/RULES.md, section "Gates" (GamesmanOne's ``gates``).

Points 1-18 (0-17 here) in rows of 3, 4, 4, 4 and 3 from the top, the centre of the
hexagon left out. Position ``(w --- ---- ---- ---- --- GGggAAaaZZzz)``: the player
to move (``w`` white, ``b`` black), the points row by row (``G g`` gates, ``A a``
triangles, ``Z z`` trapezoids, ``O o`` the gate a spike was just scored through,
which the player to move moves first), and the pieces still to place (``-`` once
all are placed).

State vector: ``[turn, phase, open gate, G, g, A, a, Z, z]``: turn 0 for white,
phase 0 while pieces are placed and 1 after, the point of the gate just scored
through (-1: none), and a point mask per kind of piece.

Index: a tier per (phase kind, count of each kind on the board): placing tiers
(IMMEDIATE: a placing adds a piece; the player to move is the count's parity), moving
tiers (LOOPY, both turns) and open-gate tiers (IMMEDIATE: the open gate's side and
which of its gates it is, and the turn follows). In a tier, the board is ranked kind
by kind, each kind's points among the points the kinds before it leave free.
"""

from __future__ import annotations

import re
from math import comb
from typing import NamedTuple

import numpy as np

from tiersolve.bits import (copy_into, deposit_bits, extract_bits, lowest_bit, permutation_tables,
                            permute, popcount)
from tiersolve.contract import TierType
from tiersolve.errors import ImpossiblePositionError, OtherBoardError
from tiersolve.games.base import MOVE, PLACE, Game, GameFunctions, GameSpec, MoveSketch, Option
from tiersolve.hashers.combinations import rank_subset, subset_count, unrank_subset
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit
from tiersolve.values import ILLEGAL, LOSE, UNDECIDED

#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "gates"

POINTS = 18
PIECES = "GgAaZz"  # kinds 0-5: a kind's side is kind & 1 (0 white), its shape kind >> 1
GATE, TRIANGLE, TRAPEZOID = 0, 1, 2
WHITE, BLACK = 0, 1
TURN, PHASE, OPEN, MASKS = 0, 1, 2, 3  # fields of the state vector; masks at 3..8
STATE_SIZE = 9
PLACING, PLAYING, OPEN_GATE = 0, 1, 2  # a tier key's first field
NONE = 31  # an absent field of a move code
POINTS_F, GATES_F, TRIANGLES_F, TRAPEZOIDS_F, TOTAL_F = 0, 1, 2, 3, 4  # ``params``

#: Neighbouring points (GamesmanOne's first-level adjacency).
ADJACENT = ((1, 3, 4), (0, 2, 4, 5), (1, 5, 6), (0, 4, 7, 8), (0, 1, 3, 5, 8), (1, 2, 4, 6, 9),
            (2, 5, 9, 10), (3, 8, 11), (3, 4, 7, 11, 12), (5, 6, 10, 13, 14), (6, 9, 14),
            (7, 8, 12, 15), (8, 11, 13, 15, 16), (9, 12, 14, 16, 17), (9, 10, 13, 17),
            (11, 12, 16), (12, 13, 15, 17), (13, 14, 16))
#: Points two steps away, each with the one or two points between (one path each).
TWO_AWAY = (
    ((2, 1, 1), (5, 1, 4), (7, 3, 3), (8, 3, 4)),
    ((3, 0, 4), (6, 2, 5), (8, 4, 4), (9, 5, 5)),
    ((0, 1, 1), (4, 1, 5), (9, 5, 6), (10, 6, 6)),
    ((1, 0, 4), (5, 4, 4), (11, 7, 8), (12, 8, 8)),
    ((2, 1, 5), (6, 5, 5), (7, 3, 8), (9, 5, 5), (11, 8, 8), (12, 8, 8)),
    ((0, 1, 4), (3, 4, 4), (8, 4, 4), (10, 6, 9), (13, 9, 9), (14, 9, 9)),
    ((1, 2, 5), (4, 5, 5), (13, 9, 9), (14, 9, 10)),
    ((0, 3, 3), (4, 3, 8), (12, 8, 11), (15, 11, 11)),
    ((0, 3, 4), (1, 4, 4), (5, 4, 4), (13, 12, 12), (15, 11, 12), (16, 12, 12)),
    ((1, 5, 5), (2, 5, 6), (4, 5, 5), (12, 13, 13), (16, 13, 13), (17, 13, 14)),
    ((2, 6, 6), (5, 6, 9), (13, 9, 14), (17, 14, 14)),
    ((3, 7, 8), (4, 8, 8), (13, 12, 12), (16, 12, 15)),
    ((3, 8, 8), (4, 8, 8), (7, 8, 11), (9, 13, 13), (14, 13, 13), (17, 13, 16)),
    ((5, 9, 9), (6, 9, 9), (8, 12, 12), (10, 9, 14), (11, 12, 12), (15, 12, 16)),
    ((5, 9, 9), (6, 9, 10), (12, 13, 13), (16, 13, 17)),
    ((7, 11, 11), (8, 11, 12), (13, 12, 16), (17, 16, 16)),
    ((8, 12, 12), (9, 13, 13), (11, 12, 15), (14, 13, 17)),
    ((9, 13, 14), (10, 14, 14), (12, 13, 16), (15, 16, 16)),
)
#: Where each point is drawn: (row, column) of a 5 x 9 grid (a hexagon, no centre).
POINT_CELLS = ((0, 2), (0, 4), (0, 6), (1, 1), (1, 3), (1, 5), (1, 7), (2, 0), (2, 2),
               (2, 6), (2, 8), (3, 1), (3, 3), (3, 5), (3, 7), (4, 2), (4, 4), (4, 6))
ROW_LENGTHS = (3, 4, 4, 4, 3)
#: The hexagon's 12 symmetries as point permutations (image of point p at p), the
#: identity first: its six turns, then the same after the mirror in the vertical axis.
SYMMETRIES = (
    tuple(range(18)),
    (2, 6, 10, 1, 5, 9, 14, 0, 4, 13, 17, 3, 8, 12, 16, 7, 11, 15),
    (10, 14, 17, 6, 9, 13, 16, 2, 5, 12, 15, 1, 4, 8, 11, 0, 3, 7),
    (17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
    (15, 11, 7, 16, 12, 8, 3, 17, 13, 4, 0, 14, 9, 5, 1, 10, 6, 2),
    (7, 3, 0, 11, 8, 4, 1, 15, 12, 5, 2, 16, 13, 9, 6, 17, 14, 10),
    (2, 1, 0, 6, 5, 4, 3, 10, 9, 8, 7, 14, 13, 12, 11, 17, 16, 15),
    (10, 6, 2, 14, 9, 5, 1, 17, 13, 4, 0, 16, 12, 8, 3, 15, 11, 7),
    (17, 14, 10, 16, 13, 9, 6, 15, 12, 5, 2, 11, 8, 4, 1, 7, 3, 0),
    (15, 16, 17, 11, 12, 13, 14, 7, 8, 9, 10, 3, 4, 5, 6, 0, 1, 2),
    (7, 11, 15, 3, 8, 12, 16, 0, 4, 13, 17, 1, 5, 9, 14, 2, 6, 10),
    (0, 3, 7, 1, 4, 8, 11, 2, 5, 12, 15, 6, 9, 13, 16, 10, 14, 17),
)
GRID_ROWS, GRID_COLS = 5, 9


def board_tables(points: int) -> tuple[np.ndarray, np.ndarray]:
    """(adjacent, two_away) of the board of the first ``points`` points:
    ``adjacent[p]`` the neighbours of p (-1 after the last); ``two_away[p, j]`` =
    (point, between, between) of the points two steps away (-1 after the last), a
    path through a point off the board left out."""
    adjacent = np.full((POINTS, 5), -1, np.int64)
    two = np.full((POINTS, 6, 3), -1, np.int64)
    for p in range(points):
        near = [q for q in ADJACENT[p] if q < points]
        adjacent[p, :len(near)] = near
        far = []
        for q, b0, b1 in TWO_AWAY[p]:
            between = [b for b in (b0, b1) if b < points]
            if q < points and between:
                far.append((q, between[0], between[-1]))
        for j, row in enumerate(far):
            two[p, j] = row
    return adjacent, two


class GatesData(NamedTuple):
    """``params``: [points, gates, triangles, trapezoids, pieces]; ``tier_of[kind *
    729 + counts in base 3]``: the tier (-1: none); ``tier_key[t]``: (kind, the six
    counts); ``tier_mult[t]``: boards of tier t's counts; ``adjacent``, ``two_away``:
    the board (``board_tables``); ``images[s, p]``: the image of point p under
    symmetry s (only the identity without ``--symmetry``), ``tables`` the same for
    ``permute``."""

    params: np.ndarray
    tier_of: np.ndarray
    tier_key: np.ndarray
    tier_mult: np.ndarray
    adjacent: np.ndarray
    two_away: np.ndarray
    images: np.ndarray
    tables: np.ndarray


# -- the index -------------------------------------------------------------------------
@jit(forceinline=True)
def _kind_of_state(state):
    if state[PHASE] == 0:
        return PLACING
    return PLAYING if state[OPEN] < 0 else OPEN_GATE


@jit(forceinline=True)
def _local_image(data, state, kind, tier, s):
    """The index in ``tier`` of the image of ``state`` under symmetry ``s``."""
    points = data.params[POINTS_F]
    free = (np.int64(1) << points) - 1
    left = points
    rank = 0
    for k in range(6):
        mask = state[MASKS + k]
        if s:
            mask = permute(mask, data.tables, s)
        n = popcount(mask)
        rank = rank * subset_count(left, n) + rank_subset(extract_bits(mask, free))
        free &= ~mask
        left -= n
    if kind == PLACING:
        return rank
    mult = data.tier_mult[tier]
    if kind == PLAYING:
        return state[TURN] * mult + rank
    gate = state[OPEN]
    side = WHITE if (state[MASKS + WHITE] >> gate) & 1 else BLACK
    gates = state[MASKS + side]
    if s:
        gate = data.images[s, gate]
        gates = permute(gates, data.tables, s)
    which = popcount(gates & ((np.int64(1) << gate) - 1))
    return (side * data.params[GATES_F] + which) * mult + rank


@jit
def encode(data, state):
    code = 0
    for k in range(5, -1, -1):
        code = code * 3 + popcount(state[MASKS + k])
    kind = _kind_of_state(state)
    tier = data.tier_of[kind * 729 + code]
    best = _local_image(data, state, kind, tier, 0)
    for s in range(1, data.images.shape[0]):
        local = _local_image(data, state, kind, tier, s)
        if local < best:
            best = local
    return tier, best


@jit
def decode(data, tier, local, state):
    points = data.params[POINTS_F]
    kind = data.tier_key[tier, 0]
    mult = data.tier_mult[tier]
    slot = local // mult
    rank = local % mult
    total = 0
    for k in range(6):
        total += data.tier_key[tier, 1 + k]
    # the digits of the rank, last kind first, into the mask fields
    for k in range(5, -1, -1):
        left = points
        for i in range(k):
            left -= data.tier_key[tier, 1 + i]
        c = subset_count(left, data.tier_key[tier, 1 + k])
        state[MASKS + k] = rank % c
        rank //= c
    free = (np.int64(1) << points) - 1
    left = points
    for k in range(6):
        n = data.tier_key[tier, 1 + k]
        mask = deposit_bits(unrank_subset(state[MASKS + k], n, left), free)
        state[MASKS + k] = mask
        free &= ~mask
        left -= n
    state[OPEN] = -1
    if kind == PLACING:
        state[TURN] = total % 2
        state[PHASE] = 0
    elif kind == PLAYING:
        state[TURN] = slot
        state[PHASE] = 1
    else:
        gates = data.params[GATES_F]
        side = slot // gates
        which = slot % gates
        mask = state[MASKS + side]
        for _ in range(which):
            mask &= mask - 1
        state[OPEN] = lowest_bit(mask)
        state[TURN] = 1 - side
        state[PHASE] = 1


# -- moves -----------------------------------------------------------------------------
@jit(forceinline=True)
def _code(place_kind, place_at, gate_to, source, dest, teleport):
    return (place_kind | (place_at << 3) | (gate_to << 8) | (source << 13) | (dest << 18)
            | (teleport << 23))


@jit(forceinline=True)
def _occupied(state):
    return (state[MASKS] | state[MASKS + 1] | state[MASKS + 2] | state[MASKS + 3]
            | state[MASKS + 4] | state[MASKS + 5])


@jit
def _piece_moves(data, state, side, place_kind, place_at, gate_to, moves, count):
    """Append the moves of ``side``'s triangles and trapezoids on the board of ``state``,
    each after the placing and the gate move given (NONE: none)."""
    points = data.params[POINTS_F]
    blank = ((np.int64(1) << points) - 1) & ~_occupied(state)
    own_gate = state[MASKS + side]
    enemy = state[MASKS + TRIANGLE * 2 + 1 - side] | state[MASKS + TRAPEZOID * 2 + 1 - side]
    open_to = blank | own_gate
    pieces = state[MASKS + TRIANGLE * 2 + side]
    while pieces:
        src = lowest_bit(pieces)
        pieces &= pieces - 1
        for j in range(5):
            q = data.adjacent[src, j]
            if q < 0:
                break
            if (open_to >> q) & 1:
                moves[count] = _code(place_kind, place_at, gate_to, src, q, NONE)
                count += 1
        for j in range(6):
            q = data.two_away[src, j, 0]
            if q < 0:
                break
            if (open_to >> q) & 1 and ((blank >> data.two_away[src, j, 1]) & 1
                                       or (blank >> data.two_away[src, j, 2]) & 1):
                moves[count] = _code(place_kind, place_at, gate_to, src, q, NONE)
                count += 1
    pieces = state[MASKS + TRAPEZOID * 2 + side]
    while pieces:
        src = lowest_bit(pieces)
        pieces &= pieces - 1
        for j in range(5):
            q = data.adjacent[src, j]
            if q < 0:
                break
            if (open_to >> q) & 1:
                moves[count] = _code(place_kind, place_at, gate_to, src, q, NONE)
                count += 1
            elif (enemy >> q) & 1:
                rest = blank
                while rest:
                    t = lowest_bit(rest)
                    rest &= rest - 1
                    moves[count] = _code(place_kind, place_at, gate_to, src, q, t)
                    count += 1
                moves[count] = _code(place_kind, place_at, gate_to, src, q, src)
                count += 1
    return count


@jit
def generate_moves(data, state, moves):
    points = data.params[POINTS_F]
    turn = state[TURN]
    count = 0
    if state[PHASE] == 0:
        blank = ((np.int64(1) << points) - 1) & ~_occupied(state)
        placed = 0
        for k in range(6):
            placed += popcount(state[MASKS + k])
        last = placed == data.params[TOTAL_F] - 1
        rest = blank
        while rest:
            at = lowest_bit(rest)
            rest &= rest - 1
            for k in range(6):
                if popcount(state[MASKS + k]) < data.params[GATES_F + (k >> 1)]:
                    if last:  # the last piece placed, and then a piece of the placer moved
                        state[MASKS + k] |= np.int64(1) << at
                        count = _piece_moves(data, state, turn, k, at, NONE, moves, count)
                        state[MASKS + k] &= ~(np.int64(1) << at)
                    else:
                        moves[count] = _code(k, at, NONE, NONE, NONE, NONE)
                        count += 1
        return count
    gate = state[OPEN]
    if gate < 0:
        return _piece_moves(data, state, turn, 7, NONE, NONE, moves, count)
    side = 1 - turn  # the open gate is the other side's
    blank = ((np.int64(1) << points) - 1) & ~_occupied(state)
    targets = blank | (np.int64(1) << gate)
    while targets:
        to = lowest_bit(targets)
        targets &= targets - 1
        swap = (np.int64(1) << gate) ^ (np.int64(1) << to)  # 0 when the gate stays
        state[MASKS + side] ^= swap
        count = _piece_moves(data, state, turn, 7, NONE, to, moves, count)
        state[MASKS + side] ^= swap
    return count


@jit(forceinline=True)
def _kind_at(state, point):
    for k in range(6):
        if (state[MASKS + k] >> point) & 1:
            return k
    return -1


@jit
def do_move(data, state, move, child):
    copy_into(child, state)
    turn = state[TURN]
    place_kind, place_at = move & 7, (move >> 3) & 31
    gate_to, source = (move >> 8) & 31, (move >> 13) & 31
    dest, teleport = (move >> 18) & 31, (move >> 23) & 31
    child[TURN] = 1 - turn
    child[OPEN] = -1
    if place_kind != 7:
        child[MASKS + place_kind] |= np.int64(1) << place_at
        if source == NONE:
            return 0
        child[PHASE] = 1
    if gate_to != NONE:
        gate = state[OPEN]
        child[MASKS + 1 - turn] ^= (np.int64(1) << gate) ^ (np.int64(1) << gate_to)
    kind = _kind_at(child, source)
    src_bit, dest_bit = np.int64(1) << source, np.int64(1) << dest
    if (child[MASKS + turn] >> dest) & 1:  # onto one's own gate: scored
        child[MASKS + kind] &= ~src_bit
        child[OPEN] = dest
        return 0
    target = _kind_at(child, dest)
    child[MASKS + kind] ^= src_bit | dest_bit
    if target >= 0:  # an enemy spike, sent to the teleport point
        child[MASKS + target] ^= dest_bit | (np.int64(1) << teleport)
    return 0


@jit(forceinline=True)
def _spikes(state, side):
    return popcount(state[MASKS + TRIANGLE * 2 + side]) + popcount(state[MASKS + TRAPEZOID * 2 + side])


@jit
def primitive(data, state, count):
    turn = state[TURN]
    if state[PHASE] == 0:
        placed = 0
        for k in range(6):
            placed += popcount(state[MASKS + k])
        if placed % 2 != turn:
            return ILLEGAL
        return LOSE if count == 0 else UNDECIDED
    full = data.params[TRIANGLES_F] + data.params[TRAPEZOIDS_F]
    if state[OPEN] >= 0:
        side = WHITE if (state[MASKS + WHITE] >> state[OPEN]) & 1 else BLACK
        if side == turn or _spikes(state, side) == full or _spikes(state, turn) == 0:
            return ILLEGAL
        if _spikes(state, side) == 0:
            return LOSE  # the other side has just scored its last spike
    elif _spikes(state, WHITE) == 0 or _spikes(state, BLACK) == 0:
        return ILLEGAL
    return LOSE if count == 0 else UNDECIDED


@jit
def parents(data, tier, local, out, state, other):
    """Un-moves in a moving tier: the other side's triangle or trapezoid moves back
    (a trapezoid's taking sends the spike it moved back onto the point it took)."""
    decode(data, tier, local, state)
    copy_into(other, state)
    turn = state[TURN]
    prev = 1 - turn
    other[TURN] = prev
    points = data.params[POINTS_F]
    blank = ((np.int64(1) << points) - 1) & ~_occupied(state)
    count = 0
    tri = MASKS + TRIANGLE * 2 + prev
    pieces = state[tri]
    while pieces:
        d = lowest_bit(pieces)
        pieces &= pieces - 1
        for j in range(5):
            s = data.adjacent[d, j]
            if s < 0:
                break
            if (blank >> s) & 1:
                other[tri] = state[tri] ^ (np.int64(1) << d) ^ (np.int64(1) << s)
                out[count] = encode(data, other)[1] << 1
                count += 1
        for j in range(6):
            s = data.two_away[d, j, 0]
            if s < 0:
                break
            if (blank >> s) & 1 and ((blank >> data.two_away[d, j, 1]) & 1
                                     or (blank >> data.two_away[d, j, 2]) & 1):
                other[tri] = state[tri] ^ (np.int64(1) << d) ^ (np.int64(1) << s)
                out[count] = encode(data, other)[1] << 1
                count += 1
    other[tri] = state[tri]
    trap = MASKS + TRAPEZOID * 2 + prev
    mine_t, mine_z = MASKS + TRIANGLE * 2 + turn, MASKS + TRAPEZOID * 2 + turn
    pieces = state[trap]
    while pieces:
        d = lowest_bit(pieces)
        pieces &= pieces - 1
        d_bit = np.int64(1) << d
        for j in range(5):
            s = data.adjacent[d, j]
            if s < 0:
                break
            s_bit = np.int64(1) << s
            if (blank >> s) & 1:
                other[trap] = state[trap] ^ d_bit ^ s_bit
                out[count] = encode(data, other)[1] << 1
                count += 1
                for field in (mine_t, mine_z):  # a spike taken at d and sent to j
                    spikes = state[field]
                    while spikes:
                        t = lowest_bit(spikes)
                        spikes &= spikes - 1
                        other[field] = state[field] ^ (np.int64(1) << t) ^ d_bit
                        out[count] = encode(data, other)[1] << 1
                        count += 1
                        other[field] = state[field]
            else:
                for field in (mine_t, mine_z):  # a spike taken at d and sent to s
                    if (state[field] >> s) & 1:
                        other[trap] = state[trap] ^ d_bit ^ s_bit
                        other[field] = state[field] ^ d_bit ^ s_bit
                        out[count] = encode(data, other)[1] << 1
                        count += 1
                        other[field] = state[field]
        other[trap] = state[trap]
    return count


# -- the game --------------------------------------------------------------------------
MOVE_PART = re.compile(r"([GgAaZz])(\d+)|(\d+)>(\d+)|(\d+)-(\d+)(?:/(\d+))?")


def _counts_code(counts) -> int:
    return sum(int(n) * 3 ** k for k, n in enumerate(counts))


class Gates(Game):
    name = NAME
    title = "Gates"
    options_spec = (
        Option("gates", int, 2, "gates a side", 1, 2),
        Option("triangles", int, 2, "triangles a side", 0, 2),
        Option("trapezoids", int, 2, "trapezoids a side", 0, 2),
        Option("points", int, 18, "points of the board used: the first N (fewer for tests)",
               6, 18),
        Option("symmetry", bool, False,
               "store one position of each class under the hexagon's 12 symmetries"),
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive,
                              parents=parents)
    state_fields = ("turn (0 = white), phase (0 placing), the open gate's point (-1: none), "
                    "then point masks of G, g, A, a, Z, z")
    board_of_points = True
    piece_colours = {"G": "#f2f2f2", "A": "#f2f2f2", "Z": "#f2f2f2", "O": "#f2f2f2",
                     "g": "#222222", "a": "#222222", "z": "#222222", "o": "#222222"}
    #: Positions solved a second on one core, and where (``--plan`` gives the time).
    measured_rate = (180_000, "gates --triangles 1 --trapezoids 0: 10,630,207 positions in "
                              "59.3 CPU s, one thread, on a shared machine (load 20)")

    tester_boards = ({"gates": 1, "triangles": 1, "trapezoids": 0, "points": 6},
                     {"gates": 1, "triangles": 0, "trapezoids": 1, "points": 6})
    reference_boards = ({"gates": 1, "triangles": 0, "trapezoids": 1, "points": 6},)
    #: Minutes of the plain-Python solver each.
    slow_reference_boards = ({"gates": 1, "triangles": 1, "trapezoids": 0, "points": 8},
                             {"gates": 1, "triangles": 0, "trapezoids": 1, "points": 8})

    def build(self) -> GameSpec:
        points = self.options["points"]
        gates, triangles, trapezoids = (self.options[k] for k in ("gates", "triangles",
                                                                  "trapezoids"))
        if triangles + trapezoids == 0:
            raise ValueError("--triangles 0 --trapezoids 0 leaves no spike to score: "
                             "give each side at least one triangle or trapezoid")
        most = (gates, gates, triangles, triangles, trapezoids, trapezoids)
        total = sum(most)
        if total > points:
            raise ValueError(f"{total} pieces do not fit on {points} points")
        full = triangles + trapezoids
        keys, sizes, mults = [], [], []

        def boards(counts):
            left, count = points, 1
            for n in counts:
                count *= comb(left, n)
                left -= n
            return count

        for counts in np.ndindex(*(m + 1 for m in most)):
            if sum(counts) < total:
                keys.append((PLACING, *counts))
                mults.append(boards(counts))
                sizes.append(mults[-1])
        for counts in np.ndindex(*(m + 1 for m in most)):
            if counts[0] != gates or counts[1] != gates:
                continue
            white, black = counts[2] + counts[4], counts[3] + counts[5]
            if white and black:
                keys.append((PLAYING, *counts))
                mults.append(boards(counts))
                sizes.append(2 * mults[-1])
        for counts in np.ndindex(*(m + 1 for m in most)):
            if counts[0] != gates or counts[1] != gates:
                continue
            white, black = counts[2] + counts[4], counts[3] + counts[5]
            if (white < full or black < full) and (white or black):
                keys.append((OPEN_GATE, *counts))
                mults.append(boards(counts))
                sizes.append(2 * gates * mults[-1])
        tier_of = np.full(3 * 729, -1, np.int64)
        for t, key in enumerate(keys):
            tier_of[key[0] * 729 + _counts_code(key[1:])] = t
        self._tier_of = {key: t for t, key in enumerate(keys)}
        self._most = most
        adjacent, two_away = board_tables(points)
        symmetric = self.options["symmetry"]
        if symmetric and points != POINTS:
            raise ValueError(f"--symmetry needs the whole board: the first {points} points "
                             "are not symmetric")
        groups = SYMMETRIES if symmetric else SYMMETRIES[:1]
        data = GatesData(np.array([points, gates, triangles, trapezoids, total], np.int64),
                         tier_of, np.array(keys, np.int64), np.array(mults, np.int64),
                         adjacent, two_away, np.array(groups, np.int64)[:, :POINTS],
                         permutation_tables(groups, POINTS))
        per_move = 2 * (5 + 6) + 2 * 5 * (points + 1)
        return GameSpec(
            tiers=TierLayout(keys=keys, sizes=sizes), data=data, state_size=STATE_SIZE,
            max_moves=max(6 * points, (points + 1) * per_move), loopy=True,
            remoteness_bound=None, max_parents=2 * 11 + 2 * 5 * 6,
            parents_are_distinct=not symmetric,
            hasher={"name": "gates", "tiers": "(placing, moving or open gate; the count of "
                                              "each kind on the board)",
                    "in a tier": "each kind's points among the points left free, kind by "
                                 "kind; the turn (moving) or the open gate (open gate)",
                    "points": points, "symmetries": len(groups)})

    def tier_children(self, tier: int) -> set[int]:
        kind, *counts = self.tiers.keys[tier]
        most = self._most
        total = sum(most)
        found = set()

        def add(key):
            if key in self._tier_of:
                found.add(self._tier_of[key])

        if kind == PLACING:
            for k in range(6):
                if counts[k] < most[k]:
                    after = list(counts)
                    after[k] += 1
                    if sum(after) < total:
                        add((PLACING, *after))
                    else:  # the last piece, and a move of black's
                        add((PLAYING, *after))
                        for k2 in (3, 5):
                            if after[k2]:
                                scored = list(after)
                                scored[k2] -= 1
                                add((OPEN_GATE, *scored))
            return found
        white, black = counts[2] + counts[4], counts[3] + counts[5]
        if white == 0 or black == 0:
            return found
        add((PLAYING, *counts))
        for k in range(2, 6):
            if counts[k]:
                scored = list(counts)
                scored[k] -= 1
                add((OPEN_GATE, *scored))
        return found

    def tier_type(self, tier: int) -> TierType:
        return TierType.LOOPY if self.tiers.keys[tier][0] == PLAYING else TierType.IMMEDIATE

    def default_start(self) -> str:
        hand = "".join(ch * n for ch, n in zip(PIECES, self._hand_counts()))
        return f"(w {self._rows('-' * self.options['points'])} {hand})"

    def _hand_counts(self):
        g, t, z = (self.options[k] for k in ("gates", "triangles", "trapezoids"))
        return (g, g, t, t, z, z)

    def _rows(self, board: str) -> str:
        words, at = [], 0
        for length in ROW_LENGTHS:
            if at >= len(board):
                break
            words.append(board[at:at + length])
            at += length
        return " ".join(words)

    def parse(self, text: str) -> np.ndarray:
        example = self.default_start()
        words = self.split_position(text, example)
        points = self.options["points"]
        if len(words) < 3:
            raise ValueError(f"a Gates position is the player to move, the points row by row "
                             f"and the pieces to place, like {example}; got {text!r}")
        turn, rows, hand = words[0], words[1:-1], words[-1]
        if turn not in ("w", "b"):
            raise ValueError(f"the player to move in {text!r} is w (white) or b (black), "
                             f"not {turn!r}")
        board = "".join(rows)
        if len(board) != points or [len(r) for r in rows] != [len(r) for r in
                                                             self._rows(board).split()]:
            raise OtherBoardError(f"{text!r}: the board is {points} points in rows of "
                                  f"{', '.join(str(len(r)) for r in self._rows('-' * points).split())}")
        if set(board) - set("GgAaZzOo-"):
            raise ValueError(f"{text!r}: a point holds G g (gates), A a (triangles), Z z "
                             f"(trapezoids), O o (the gate just scored through) or -")
        if hand != "-" and set(hand) - set(PIECES):
            raise ValueError(f"{text!r}: the last word is the pieces still to place (letters "
                             f"of GgAaZz) or - once all are placed; got {hand!r}")
        opened = [p for p, ch in enumerate(board) if ch in "Oo"]
        if len(opened) > 1:
            raise ImpossiblePositionError(f"{text!r} has {len(opened)} open gates; a turn "
                                          f"opens one at most")
        plain = board.replace("O", "G").replace("o", "g")
        most = self._hand_counts()
        placing = hand != "-"
        held = [hand.count(ch) if placing else 0 for ch in PIECES]
        for k, ch in enumerate(PIECES):
            if plain.count(ch) + held[k] > most[k] or (placing and plain.count(ch) + held[k]
                                                        != most[k]):
                raise ImpossiblePositionError(
                    f"{text!r} has {plain.count(ch)} {ch} on the board and {held[k]} to "
                    f"place; the set has {most[k]}")
        for k in (0, 1):
            if not placing and plain.count(PIECES[k]) != most[k]:
                raise ImpossiblePositionError(f"{text!r}: every gate is on the board once "
                                              f"the pieces are placed")
        if placing and opened:
            raise ImpossiblePositionError(f"{text!r}: no gate is open while pieces are placed")
        state = np.zeros(STATE_SIZE, np.int64)
        state[TURN] = 0 if turn == "w" else 1
        state[PHASE] = 0 if placing else 1
        state[OPEN] = opened[0] if opened else -1
        for k, ch in enumerate(PIECES):
            state[MASKS + k] = sum(1 << p for p, c in enumerate(plain) if c == ch)
        reason = self._impossible(state)
        if reason:
            raise ImpossiblePositionError(f"{text!r}: {reason}")
        return state

    def _impossible(self, state: np.ndarray) -> str | None:
        turn, phase, gate = int(state[TURN]), int(state[PHASE]), int(state[OPEN])
        counts = [bin(int(state[MASKS + k])).count("1") for k in range(6)]
        full = self.options["triangles"] + self.options["trapezoids"]
        white, black = counts[2] + counts[4], counts[3] + counts[5]
        if phase == 0:
            if sum(counts) % 2 != turn:
                return (f"{sum(counts)} pieces are placed, so it is "
                        f"{'white' if sum(counts) % 2 == 0 else 'black'}'s turn")
            return None
        if gate >= 0:
            side = WHITE if state[MASKS + WHITE] >> gate & 1 else BLACK
            name = ("white", "black")
            if side == turn:
                return (f"the open gate is {name[side]}'s, so {name[1 - side]} moves "
                        f"(it moves that gate first)")
            if (white, black)[side] == full:
                return f"{name[side]} has scored nothing, yet its gate is open"
            if (white, black)[1 - side] == 0:
                return f"{name[1 - side]} scored its last spike already: the game was over"
            return None
        if white == 0 or black == 0:
            return "a side has scored all its spikes: the game is over"
        return None

    def explain_illegal(self, state: np.ndarray) -> str:
        return self._impossible(state) or "no sequence of legal moves leads to it"

    def format(self, state: np.ndarray) -> str:
        cells = []
        for p in range(self.options["points"]):
            ch = "-"
            for k in range(6):
                if int(state[MASKS + k]) >> p & 1:
                    ch = PIECES[k]
            if p == int(state[OPEN]):
                ch = "O" if ch == "G" else "o"
            cells.append(ch)
        if state[PHASE] == 0:
            counts = [bin(int(state[MASKS + k])).count("1") for k in range(6)]
            hand = "".join(ch * (m - n) for ch, m, n in zip(PIECES, self._hand_counts(), counts))
        else:
            hand = "-"
        return f"({'wb'[int(state[TURN])]} {self._rows(''.join(cells))} {hand})"

    def move_name(self, state: np.ndarray, move: int) -> str:
        place_kind, place_at = move & 7, (move >> 3) & 31
        gate_to, source = (move >> 8) & 31, (move >> 13) & 31
        dest, teleport = (move >> 18) & 31, (move >> 23) & 31
        parts = []
        if place_kind != 7:
            parts.append(f"{PIECES[place_kind]}{place_at + 1}")
        if gate_to != NONE:
            parts.append(f"{int(state[OPEN]) + 1}>{gate_to + 1}")
        if source != NONE:
            step = f"{source + 1}-{dest + 1}"
            if teleport != NONE:
                step += f"/{teleport + 1}"
            parts.append(step)
        return ",".join(parts)

    # -- drawing: the hexagon of points on a 5 x 9 grid --------------------------------
    def board_shape(self) -> tuple[int, int]:
        return GRID_ROWS, GRID_COLS

    def grid(self, state: np.ndarray) -> list[str]:
        """The points where they are drawn, ``' '`` where no point is.

        >>> from tiersolve.games import make_game
        >>> game = make_game("gates")
        >>> game.grid(game.parse("(w GAg ---- -z-- ---- --- GgAaaZZz)"))[:2]
        ['  G A g  ', ' - - - - ']
        """
        cells = [[" "] * GRID_COLS for _ in range(GRID_ROWS)]
        text = "".join(self.format(state)[3:].split()[:-1])
        for p, ch in enumerate(text):
            row, col = POINT_CELLS[p]
            cells[row][col] = ch
        return ["".join(row) for row in cells]

    def board_paths(self) -> list[list[tuple[float, float]]]:
        """The lines between neighbouring points."""
        points = self.options["points"]
        return [[tuple(float(x) for x in POINT_CELLS[p]), tuple(float(x) for x in POINT_CELLS[q])]
                for p in range(points) for q in ADJACENT[p] if p < q < points]

    def point_names(self) -> dict[tuple[int, int], str]:
        """Each point's number (1-18), by the cell where it is drawn."""
        return {cell: str(p + 1) for p, cell in enumerate(POINT_CELLS[:self.options["points"]])}

    def move_sketch(self, state: np.ndarray, name: str) -> MoveSketch | None:
        """A placing on its point; otherwise the piece's step (the last part of the name).

        >>> from tiersolve.games import make_game
        >>> game = make_game("gates")
        >>> game.move_sketch(game.start(), "A5")
        MoveSketch(kind='place', cells=((1, 3),), path=(), side='')
        """
        last = name.split(",")[-1]
        match = MOVE_PART.fullmatch(last)
        if not match:
            return None
        if match.group(1):
            return MoveSketch(PLACE, (POINT_CELLS[int(match.group(2)) - 1],))
        if match.group(3):
            return MoveSketch(MOVE, (POINT_CELLS[int(match.group(3)) - 1],
                                     POINT_CELLS[int(match.group(4)) - 1]))
        return MoveSketch(MOVE, (POINT_CELLS[int(match.group(5)) - 1],
                                 POINT_CELLS[int(match.group(6)) - 1]))


GAME = Gates
