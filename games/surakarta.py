"""Surakarta: step to a neighbouring point, or capture along a circuit through at least
one corner loop. Capture all the opponent's pieces to win.

Rules: docs/RULES.md, section "Surakarta".

The board is ``n`` x ``n`` points. For each ``k = 1, 2, ...`` with ``k < n-1-k``, the
lines ``k`` and ``m = n-1-k`` (rows and columns, counted from 0 at the top left) are
joined by four corner loops into one closed circuit: along row k left to right, the
top-right loop into column m going down, the bottom-right loop into row m going
left, the bottom-left loop into column k going up, and the top-left loop back into
row k (the drawing is in docs/SURAKARTA.md). A move steps one point in any of 8
directions onto an empty point, or captures: the piece travels along a circuit it
lies on, in either direction (from a crossing along either line), over empty points
only (its own start point is empty once it has left it), passes at least one loop,
and lands on the first opponent piece it meets, which is removed. Whoever captures
all the opponent's pieces wins; a player with no legal move loses. Repetition is a
DRAW (the position game has cycles). Black fills the two top rows, White the two
bottom rows; Black moves first.

Position ``(T row row ...)``: turn ``b``/``w``; cells ``b``, ``w``, ``-``.

Index (``hashers/boards.py``): a tier per count of black and white pieces, 1 up to
``--max-pieces`` each, the board ranked within it (up to the 8 symmetries of the
square with ``--symmetry``: the circuits are symmetric), times two for the turn.
Steps stay in the tier and can cycle (LOOPY tiers, solved with un-moves: a piece
steps back); captures lead to a tier with one piece fewer, or, capturing the last
piece, to a finished game the index leaves out (a loss for the player to move there).

State vector: ``[turn, cells...]`` (turn 0 = black; cells in text order, 0 empty,
1 black, 2 white).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from tiersolve.bits import as_mask, copy_into, highest_bit, lowest_bit, popcount, shift_down, sort_unique
from tiersolve.contract import TERMINAL
from tiersolve.errors import ImpossiblePositionError
from tiersolve.games.base import (
    MOVE, GameFunctions, GameSpec, MoveSketch, Option, PieceCountGame, board_cells, code_masks,
    decode_board_state, encode_board_state, keep_first_pieces, square_name,
)
from tiersolve.hashers.boards import (
    board_images, canonical_black, colour_changes, decode_board, encode_changed,
    encode_quiet_moves, nearly_symmetric,
)
from tiersolve.hashers.symmetry import grid_symmetries
from tiersolve.jit import jit
from tiersolve.values import ILLEGAL, LOSE, NONCANONICAL, UNDECIDED

EMPTY, BLACK, WHITE = 0, 1, 2
SYMBOLS = "-bw"
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1))
CORNERS = ("top-right", "bottom-right", "bottom-left", "top-left")


class SurakartaData(NamedTuple):
    """``board``: the board index (``BoardSpace.table``); ``neighbours[c]``: the
    8 points around c. The circuits as bit masks of their *places* (a circuit's points
    in travel order, a crossing twice; at most 32 places): ``circuit_cells[k, i]``:
    the point at place i of circuit k; ``cell_places[k, c]``: the places point c
    takes on circuit k; ``place_bytes[k, b, byte]``: the places of the points of
    ``byte`` at byte position b of a board mask; ``loops[k]``: the places after which
    a corner loop lies, doubled (bit i and bit i + places), for travel that wraps."""

    board: np.ndarray
    neighbours: np.ndarray
    circuit_cells: np.ndarray
    cell_places: np.ndarray
    place_bytes: np.ndarray
    loops: np.ndarray


def circuits(n: int) -> list[tuple[tuple[int, int], list[tuple[int, int]], list[int]]]:
    """Each circuit of an n x n board: its lines (k, m), the points in travel order
    (row k rightwards, column m down, row m leftwards, column k up; crossings twice),
    and the positions in that order after which a corner loop lies (in the order
    top-right, bottom-right, bottom-left, top-left)."""
    found = []
    k = 1
    while k < n - 1 - k:
        m = n - 1 - k
        points = [(k, c) for c in range(n)]
        loops = [len(points) - 1]
        points += [(r, m) for r in range(n)]
        loops.append(len(points) - 1)
        points += [(m, c) for c in range(n - 1, -1, -1)]
        loops.append(len(points) - 1)
        points += [(r, k) for r in range(n - 1, -1, -1)]
        loops.append(len(points) - 1)
        found.append(((k, m), points, loops))
        k += 1
    return found


def circuit_tables(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``circuit_cells``, ``cell_places``, ``place_bytes`` and ``loops`` (see
    SurakartaData) of an n x n board."""
    found = circuits(n)
    count, places = max(len(found), 1), 4 * n
    cells = n * n
    circuit_cells = np.full((count, places), -1, dtype=np.int64)
    cell_places = np.zeros((count, cells), dtype=np.int64)
    place_bytes = np.zeros((count, (cells + 7) // 8, 256), dtype=np.int64)
    loops = np.zeros(count, dtype=np.int64)
    byte_values = np.arange(256, dtype=np.int64)
    for k, (_, points, loop_places) in enumerate(found):
        for place, (row, col) in enumerate(points):
            cell = row * n + col
            circuit_cells[k, place] = cell
            cell_places[k, cell] |= 1 << place
        for cell in range(cells):
            position, bit = divmod(cell, 8)
            place_bytes[k, position] |= ((byte_values >> bit) & 1) * cell_places[k, cell]
        single = sum(1 << place for place in loop_places)
        loops[k] = as_mask(single | (single << places))  # 8x8: 32 places, so bit 63
    return circuit_cells, cell_places, place_bytes, loops


@jit(forceinline=True)
def _places(place_bytes, circuit, mask):
    """The places on ``circuit`` of the points of a board mask."""
    places = 0
    position = 0
    while mask != 0:
        places |= place_bytes[circuit, position, mask & 255]
        mask = shift_down(mask, 8)
        position += 1
    return places


@jit(forceinline=True)
def _captures_on(circuit_cells, loops, circuit, own, occupied, theirs):
    """The opponent points a piece whose places on ``circuit`` are ``own`` captures
    there: from each of its places, both ways round, the first occupied place (its
    own places count as empty) if it holds an opponent piece and a loop lies on the
    way. ``occupied``/``theirs``: the circuit's occupied and opponent places."""
    length = circuit_cells.shape[1]
    others = occupied & ~own
    if others == 0:
        return 0
    doubled = others | (others << length)  # places i and i + length: travel that wraps
    loop_places = loops[circuit]
    found = 0
    starts = own
    while starts:
        place = lowest_bit(starts)
        starts &= starts - 1
        # forward: the first occupied place after this one
        distance = lowest_bit(shift_down(doubled, place + 1)) + 1
        target = (place + distance) % length
        if (theirs >> target) & 1 and shift_down(loop_places, place) & ((np.int64(1) << distance) - 1):
            found |= np.int64(1) << circuit_cells[circuit, target]
        # backward: the last occupied place before this one (one lap up in ``doubled``)
        last = highest_bit(doubled & ((np.int64(1) << (place + length)) - 1))
        distance = place + length - last
        target = last % length
        if (theirs >> target) & 1 and shift_down(loop_places, last) & ((np.int64(1) << distance) - 1):
            found |= np.int64(1) << circuit_cells[circuit, target]
    return found


@jit(forceinline=True)
def _capture_targets(data, cell, occupied_places, their_places):
    """The opponent points a piece on ``cell`` captures (a mask), given the occupied
    and opponent places of every circuit."""
    found = 0
    for circuit in range(data.circuit_cells.shape[0]):
        own = data.cell_places[circuit, cell]
        if own:
            found |= _captures_on(data.circuit_cells, data.loops, circuit, own,
                                  occupied_places[circuit], their_places[circuit])
    return found


#: Circuits a board can have (8 x 8: three).
MAX_CIRCUITS = 4


@jit(forceinline=True)
def legal_moves(data, mine, theirs, found, occupied_places, their_places):
    """``found[k] = (from, to)`` for every move of the owner of ``mine``; returns how
    many. A capture and a step never share a target (steps go to empty points).
    ``occupied_places``/``their_places`` are scratch of MAX_CIRCUITS entries."""
    count = 0
    occupied = mine | theirs
    empty = ~occupied
    for circuit in range(data.circuit_cells.shape[0]):
        occupied_places[circuit] = _places(data.place_bytes, circuit, occupied)
        their_places[circuit] = _places(data.place_bytes, circuit, theirs)
    pieces = mine
    while pieces:
        cell = lowest_bit(pieces)
        pieces &= pieces - 1
        targets = (data.neighbours[cell] & empty) | \
            _capture_targets(data, cell, occupied_places, their_places)
        while targets:
            found[count, 0] = cell
            found[count, 1] = lowest_bit(targets)
            targets &= targets - 1
            count += 1
    return count


@jit(forceinline=True)
def _expand_into(data, tier, local, out, state, child, moves, leaving_only):
    """``expand``, or with ``leaving_only`` ``expand_leaving`` (steps, which stay in
    the tier, only counted, unless the board is nearly symmetric: then two steps
    may lead to one stored position, and their children are encoded and counted
    once each, kept in ``moves`` meanwhile): children are encoded from the board's
    images under the symmetries (``state`` holds black's, then from index 8 the
    circuits' occupied and opponent places; ``child`` white's images)."""
    board = data.board
    black, white, turn, canonical = decode_board(board, tier, local)
    if not canonical:
        return -np.int64(NONCANONICAL), -1
    mine, theirs = (black, white) if turn == 0 else (white, black)
    occupied = black | white
    empty = ~occupied
    rows = 0
    staying = 0
    cells = board[0]
    board_images(board, black, state)
    board_images(board, white, child)
    for circuit in range(data.circuit_cells.shape[0]):
        state[8 + circuit] = _places(data.place_bytes, circuit, occupied)
        state[8 + MAX_CIRCUITS + circuit] = _places(data.place_bytes, circuit, theirs)
    repeats = leaving_only and nearly_symmetric(board, state if turn == 0 else child,
                                                child if turn == 0 else state, 4)
    # Black stays only when White moves without a capture: then its canonical form is
    # needed, and found once.
    known = canonical_black(board, state) if turn == 1 and (repeats or not leaving_only) \
        else (black, np.int64(1), np.int64(0))
    pieces = mine
    while pieces:
        origin = lowest_bit(pieces)
        pieces &= pieces - 1
        steps = data.neighbours[origin] & empty
        captures = 0
        for circuit in range(data.circuit_cells.shape[0]):
            own = data.cell_places[circuit, origin]
            if own:
                captures |= _captures_on(data.circuit_cells, data.loops, circuit, own,
                                         state[8 + circuit], state[8 + MAX_CIRCUITS + circuit])
        if leaving_only and not repeats:
            staying += popcount(steps)
            targets = captures
        else:
            targets = steps | captures
        while targets:
            target = lowest_bit(targets)
            targets &= targets - 1
            captured = theirs & (np.int64(1) << target)
            if captured and captured == theirs:  # the last piece taken: the player to move there lost
                child_tier, child_local = TERMINAL, LOSE
            else:
                black_change, white_change = colour_changes(
                    turn, (np.int64(1) << origin) | (np.int64(1) << target), captured)
                child_tier, child_local = encode_changed(board, state, child, black_change,
                                                         white_change, 1 - turn, known)
            if leaving_only and not captured:  # a nearly symmetric board: count each child once
                seen = False
                for j in range(staying):
                    seen = seen or moves[j] == child_local
                if not seen:
                    moves[staying] = child_local
                    staying += 1
                continue
            out[rows, 0], out[rows, 1] = child_tier, child_local
            out[rows, 2] = 0
            out[rows, 3] = origin * cells + target
            rows += 1
    if rows + staying == 0:
        return -np.int64(LOSE), -1
    return rows, staying


@jit
def expand(data, tier, local, out, state, child, moves):
    count, _ = _expand_into(data, tier, local, out, state, child, moves, False)
    return count


@jit
def expand_leaving(data, tier, local, out, state, child, moves):
    return _expand_into(data, tier, local, out, state, child, moves, True)


@jit
def parents(data, tier, local, out, state, other):
    """Un-moves inside the tier: a piece of the player who just moved steps back to an
    empty neighbouring point (captures leave the tier). Exact. Parents are encoded
    from the board's images (in ``state`` and ``other``), as ``expand`` encodes
    children; each is given once (on a nearly symmetric board two un-moves may lead
    to one stored position)."""
    board, neighbours = data.board, data.neighbours
    black, white, turn, _ = decode_board(board, tier, local)
    mover = 1 - turn
    mine = black if mover == 0 else white
    empty = ~(black | white)
    count = 0
    pieces = mine
    while pieces:
        cell = lowest_bit(pieces)
        pieces &= pieces - 1
        sources = neighbours[cell] & empty
        while sources:
            out[count] = (np.int64(1) << cell) | (sources & -sources)
            sources &= sources - 1
            count += 1
    board_images(board, black, state)
    board_images(board, white, other)
    known = canonical_black(board, state) if mover == 1 else (black, np.int64(1), np.int64(0))
    encode_quiet_moves(board, state, other, known, mover, out, count, out)
    if nearly_symmetric(board, state if mover == 0 else other, other if mover == 0 else state, 4):
        count = sort_unique(out, count)
    return count


@jit
def generate_moves(data, state, moves):
    """Move code = from point * cells + to point."""
    cells = data.board[0]
    black, white = code_masks(state, cells, BLACK, WHITE)
    mine, theirs = (black, white) if state[0] == 0 else (white, black)
    found = np.empty((moves.shape[0], 2), np.int64)
    count = legal_moves(data, mine, theirs, found, np.zeros(MAX_CIRCUITS, np.int64),
                        np.zeros(MAX_CIRCUITS, np.int64))
    for k in range(count):
        moves[k] = found[k, 0] * cells + found[k, 1]
    return count


@jit
def do_move(data, state, move, child):
    cells = data.board[0]
    origin, target = move // cells, move % cells
    copy_into(child, state)
    child[1 + target] = state[1 + origin]
    child[1 + origin] = EMPTY
    child[0] = 1 - state[0]
    return 0


@jit
def primitive(data, state, move_count):
    black, white = code_masks(state, data.board[0], BLACK, WHITE)
    mine, theirs = (black, white) if state[0] == 0 else (white, black)
    if theirs == 0:  # the player to move took the last piece, yet moves again
        return ILLEGAL
    if mine == 0 or move_count == 0:
        return LOSE
    return UNDECIDED


@jit
def terminal(data, state):
    """LOSE for a position whose player to move has no pieces left (not indexed)."""
    black, white = code_masks(state, data.board[0], BLACK, WHITE)
    mine, theirs = (black, white) if state[0] == 0 else (white, black)
    return LOSE if mine == 0 and theirs != 0 else 0


# -- drawing (plain Python, for pictures of the board) ---------------------------------
#: Points drawn on each corner loop's three quarters of a circle, ends left out.
LOOP_POINTS = 17


def loop_points(start: tuple[int, int], end: tuple[int, int], size: int) -> list[tuple[float, float]]:
    """The corner loop between two points at the ends of circuit lines, from ``start``
    to ``end`` (both left out), as (row, column) points: three quarters of a circle
    round the board's corner point, outside the board.

    >>> loop_points((1, 3), (0, 2), 4)[::8]  # round the top-right corner of a 4x4 board
    [(0.966, 3.259), (-0.707, 3.707), (-0.259, 2.034)]
    """
    corner = next((row, col) for row, col in ((start[0], end[1]), (end[0], start[1]))
                  if row in (0, size - 1) and col in (0, size - 1))
    radius = math.dist(start, corner)
    first = math.atan2(start[0] - corner[0], start[1] - corner[1])
    turn = math.atan2(end[0] - corner[0], end[1] - corner[1]) - first
    turn %= 2 * math.pi
    if turn < math.pi:  # the short way round lies on the board: a loop goes the long way
        turn -= 2 * math.pi
    steps = LOOP_POINTS + 1
    return [(round(corner[0] + radius * math.sin(first + turn * i / steps), 3),
             round(corner[1] + radius * math.cos(first + turn * i / steps), 3))
            for i in range(1, steps)]


def circuit_paths(size: int) -> list[list[tuple[float, float]]]:
    """Each circuit of an n x n board as a closed line of (row, column) points: its
    two rows and two columns joined by the four corner loops."""
    paths = []
    for _, points, loops in circuits(size):
        path: list[tuple[float, float]] = []
        for place, point in enumerate(points):
            path.append(point)
            if place in loops:
                path += loop_points(point, points[(place + 1) % len(points)], size)
        paths.append(path + [points[0]])
    return paths


def capture_path(cells: list[int], size: int, origin: tuple[int, int],
                 target: tuple[int, int]) -> list[tuple[float, float]] | None:
    """The way a capture from ``origin`` to ``target`` travels (points from start to
    end, loops included), given the cell codes in text order; the shortest if
    several lead there, None if none does."""
    found = []
    for _, points, loops in circuits(size):
        places = len(points)
        for start in (place for place, point in enumerate(points) if point == origin):
            for step in (1, -1):
                path: list[tuple[float, float]] = [origin]
                here, loops_passed = start, 0
                for _ in range(places):
                    there = (here + step) % places
                    if (here if step == 1 else there) in loops:
                        path += loop_points(points[here], points[there], size)
                        loops_passed += 1
                    point = points[there]
                    path.append(point)
                    # the piece's own start is empty once it has left it
                    if point != origin and cells[point[0] * size + point[1]] != EMPTY:
                        if point == target and loops_passed:
                            found.append(path)
                        break
                    here = there
    return min(found, key=len) if found else None


#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "surakarta"


class Surakarta(PieceCountGame):
    name = NAME
    title = "Surakarta"
    options_spec = (
        Option("size", int, 6, "board size N (an N x N board)", minimum=4, maximum=8),
        Option("max_pieces", int, 0, "solve only positions with 1..K pieces of each side (an "
               "endgame table); 0: the size's default, every piece up to 4x4 and 3 from 5x5",
               minimum=0),
        Option("symmetry", bool, False,
               "store one board per class of mirror images and rotations of the square"),
    )
    functions = GameFunctions(decode_board_state, encode_board_state, generate_moves, do_move,
                              primitive, expand, terminal, parents, expand_leaving=expand_leaving)
    state_fields = "turn (0 = black), then cells top row first (0 empty, 1 black, 2 white)"

    @staticmethod
    def automatic_limit(size: int) -> int:
        """Pieces a side the default database holds: every piece up to 4x4, else 3."""
        return 2 * size if size <= 4 else 3

    def normalise(self, options: dict[str, Any]) -> dict[str, Any]:
        size, limit = options["size"], options["max_pieces"]
        if limit and min(limit, 2 * size) == self.automatic_limit(size):
            options = {**options, "max_pieces": 0}
        return options

    @property
    def piece_limit(self) -> int:
        """The most pieces a side has in this database."""
        size, limit = self.options["size"], self.options["max_pieces"]
        return min(limit, 2 * size) if limit else self.automatic_limit(size)

    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = (
        {"size": 4, "max_pieces": 2}, {"size": 4, "max_pieces": 2, "symmetry": True},
        {"size": 6, "max_pieces": 1, "symmetry": True},
    )
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = (
        {"size": 4, "max_pieces": 2}, {"size": 4, "max_pieces": 2, "symmetry": True},
        {"size": 5, "max_pieces": 1},
    )
    #: Three pieces a side (46 s) and the full board (a minute): pytest -m slow.
    slow_reference_boards = ({"size": 4, "max_pieces": 3}, {"size": 6, "max_pieces": 2})

    def build(self) -> GameSpec:
        size = self.options["size"]
        cells = board_cells(size, size, limit=64)
        limit = self.piece_limit
        symmetries = grid_symmetries(size, size, mirror_up_down=True, transpose=True) \
            if self.options["symmetry"] else []
        hasher = self.build_space(cells, limit, limit, symmetries)
        neighbours = np.zeros(cells, dtype=np.int64)
        for cell in range(cells):
            row, col = divmod(cell, size)
            for dr, dc in DIRECTIONS:
                if 0 <= row + dr < size and 0 <= col + dc < size:
                    neighbours[cell] |= np.int64(1) << ((row + dr) * size + col + dc)
        data = SurakartaData(self.space.table, neighbours, *circuit_tables(size))
        return GameSpec(
            tiers=self.space.tiers, data=data, state_size=1 + cells,
            max_moves=limit * (8 + limit),  # each piece: 8 steps, a capture per opposing piece
            loopy=True, remoteness_bound=None, hasher=hasher, max_parents=8 * limit,
            parents_are_distinct=True)  # parents() counts a repeat once itself

    def default_start(self) -> str:
        """Black on the two top rows, White on the two bottom rows; for a database with
        fewer pieces a side (``--max-pieces``), the first K of each in text order."""
        size = self.options["size"]
        board = "b" * (2 * size) + "-" * (size * (size - 4)) + "w" * (2 * size)
        board = keep_first_pieces(board, self.piece_limit if self.piece_limit < 2 * size else 0)
        return "(b " + " ".join(board[r * size:(r + 1) * size] for r in range(size)) + ")"

    def parse(self, text: str) -> np.ndarray:
        turn, cells = self.parse_board(text, "bw", SYMBOLS)
        blacks, whites = cells.count(BLACK), cells.count(WHITE)
        mover, other = (blacks, whites) if turn == 0 else (whites, blacks)
        if other == 0:
            raise ImpossiblePositionError(f"{text!r} cannot arise: the player to move took the last "
                                 "opposing piece, so the game ended with the other player to move")
        limit = self.piece_limit
        if max(blacks, whites) > limit and mover:
            raise ValueError(f"{text!r} has {blacks} black and {whites} white pieces; this "
                                 f"{self.describe()} database holds 1..{limit} a side")
        return np.array([turn, *cells], dtype=np.int64)

    def format(self, state: np.ndarray) -> str:
        return self.format_board("bw"[state[0]], state[1:], SYMBOLS)

    def move_name(self, state: np.ndarray, move: int) -> str:
        size = self.options["size"]
        cells = size * size
        origin, target = divmod(move, cells)
        capture = "x" if state[1 + target] != EMPTY else "-"
        return f"{square_name(origin // size, origin % size, size)}{capture}" \
               f"{square_name(target // size, target % size, size)}"

    def move_sketch(self, state: np.ndarray, name: str) -> MoveSketch | None:
        """A step, or a capture with the way it travels round the loops.

        >>> from tiersolve.games import make_game
        >>> game = make_game("surakarta", size=4, max_pieces=1)
        >>> sketch = game.move_sketch(game.parse("(b -b-- ---- ---- --w-)"), "b4xc1")
        >>> sketch.cells, len(sketch.path), sketch.path[:2], sketch.path[-1]  # two loops
        (((0, 1), (3, 2)), 43, ((0, 1), (-0.259, 0.966)), (3, 2))
        """
        sketch = super().move_sketch(state, name)
        if sketch is None or "x" not in name:
            return sketch
        path = capture_path([int(code) for code in state[1:]], self.options["size"],
                            *sketch.cells)
        return MoveSketch(MOVE, sketch.cells, tuple(path or ()))

    def board_paths(self) -> list[list[tuple[float, float]]]:
        """The circuits (``circuit_paths``)."""
        return circuit_paths(self.options["size"])


GAME = Surakarta
