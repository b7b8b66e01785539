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

from typing import Any, NamedTuple

import numpy as np

from tiersolve.errors import ImpossiblePositionError
from tiersolve.games.base import (
    GameFunctions, Option, PieceCountGame, board_cells, code_masks, decode_board_state,
    encode_board_state, keep_first_pieces, square_name,
)
from tiersolve.hashers.bits import lowest_bit
from tiersolve.hashers.boards import decode_board, encode_board
from tiersolve.hashers.symmetry import grid_symmetries
from tiersolve.solver.common import TERMINAL
from tiersolve.solver.jit import jit
from tiersolve.solver.values import ILLEGAL, LOSE, NONCANONICAL, UNDECIDED

EMPTY, BLACK, WHITE = 0, 1, 2
SYMBOLS = "-bw"
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1))
CORNERS = ("top-right", "bottom-right", "bottom-left", "top-left")


class SurakartaData(NamedTuple):
    """``board``: the board index (``BoardSpace.table``); ``neighbours[c]``: the
    8 points around c; ``path_start[c]..path_start[c+1]``: the capture paths of a piece
    on c, each a row of ``path_cells`` (the points in travel order, -1 after the end)
    with ``path_looped`` (1 once a loop has been passed)."""

    board: np.ndarray
    neighbours: np.ndarray
    path_start: np.ndarray
    path_cells: np.ndarray
    path_looped: np.ndarray


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


def capture_paths(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``path_start``, ``path_cells`` and ``path_looped`` (see SurakartaData): from every
    place a point takes on every circuit, both ways round, each point until the path
    would come back to where it began."""
    per_cell: list[list[tuple[list[int], list[int]]]] = [[] for _ in range(n * n)]
    for _, points, loops in circuits(n):
        length = len(points)
        loop_after = [i in loops for i in range(length)]
        for begin in range(length):
            for step in (1, -1):
                cells, looped, passed, at = [], [], False, begin
                for _ in range(length - 1):
                    following = (at + step) % length
                    passed |= loop_after[at if step == 1 else following]
                    at = following
                    cells.append(points[at][0] * n + points[at][1])
                    looped.append(int(passed))
                row, col = points[begin]
                per_cell[row * n + col].append((cells, looped))
    longest = max((len(c) for paths in per_cell for c, _ in paths), default=1)
    starts = np.zeros(n * n + 1, dtype=np.int64)
    starts[1:] = np.cumsum([len(paths) for paths in per_cell])
    cells = np.full((max(int(starts[-1]), 1), longest), -1, dtype=np.int64)
    looped = np.zeros_like(cells)
    row = 0
    for paths in per_cell:
        for path, flags in paths:
            cells[row, :len(path)] = path
            looped[row, :len(flags)] = flags
            row += 1
    return starts, cells, looped


@jit(inline="always")
def capture_targets(path_start, path_cells, path_looped, cell, mine, theirs):
    """The opponent points a piece on ``cell`` can capture (a mask)."""
    found = 0
    for path in range(path_start[cell], path_start[cell + 1]):
        for k in range(path_cells.shape[1]):
            point = path_cells[path, k]
            if point < 0:
                break
            if point == cell or not ((mine | theirs) >> point) & 1:
                continue  # its own start point, or an empty one
            if (theirs >> point) & 1 and path_looped[path, k]:
                found |= np.int64(1) << point
            break
    return found


@jit(inline="always")
def legal_moves(neighbours, path_start, path_cells, path_looped, mine, theirs, found):
    """``found[k] = (from, to)`` for every move of the owner of ``mine``; returns how
    many. A capture and a step never share a target (steps go to empty points)."""
    count = 0
    empty = ~(mine | theirs)
    pieces = mine
    while pieces:
        cell = lowest_bit(pieces)
        pieces &= pieces - 1
        targets = (neighbours[cell] & empty) | \
            capture_targets(path_start, path_cells, path_looped, cell, mine, theirs)
        while targets:
            found[count, 0] = cell
            found[count, 1] = lowest_bit(targets)
            targets &= targets - 1
            count += 1
    return count


@jit
def expand(data, tier, local, out, state, child, moves):
    board, neighbours, path_start, path_cells, path_looped = data
    black, white, turn, canonical = decode_board(board, tier, local)
    if not canonical:
        return -np.int64(NONCANONICAL)
    mine, theirs = (black, white) if turn == 0 else (white, black)
    count = legal_moves(neighbours, path_start, path_cells, path_looped, mine, theirs, out)
    cells = board[0]
    for k in range(count):
        origin, target = out[k, 0], out[k, 1]
        moved = mine ^ (np.int64(1) << origin) ^ (np.int64(1) << target)
        left = theirs & ~(np.int64(1) << target)
        out[k, 3] = origin * cells + target
        out[k, 2] = 0
        if left == 0:  # the last piece taken: the player to move there has lost
            out[k, 0], out[k, 1] = TERMINAL, LOSE
        elif turn == 0:
            out[k, 0], out[k, 1] = encode_board(board, moved, left, 1)
        else:
            out[k, 0], out[k, 1] = encode_board(board, left, moved, 0)
    if count == 0:
        return -np.int64(LOSE)
    return count


@jit
def parents(data, tier, local, out, state, other):
    """Un-moves inside the tier: a piece of the player who just moved steps back to an
    empty neighbouring point (captures leave the tier). Exact."""
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
            source = lowest_bit(sources)
            sources &= sources - 1
            before = mine ^ (np.int64(1) << cell) ^ (np.int64(1) << source)
            if mover == 0:
                out[count] = encode_board(board, before, white, mover)[1] << 1
            else:
                out[count] = encode_board(board, black, before, mover)[1] << 1
            count += 1
    return count


@jit
def generate_moves(data, state, moves):
    """Move code = from point * cells + to point."""
    cells = data.board[0]
    black, white = code_masks(state, cells, BLACK, WHITE)
    mine, theirs = (black, white) if state[0] == 0 else (white, black)
    found = np.empty((moves.shape[0], 2), np.int64)
    count = legal_moves(data.neighbours, data.path_start, data.path_cells, data.path_looped,
                        mine, theirs, found)
    for k in range(count):
        moves[k] = found[k, 0] * cells + found[k, 1]
    return count


@jit
def do_move(data, state, move, child):
    cells = data.board[0]
    origin, target = move // cells, move % cells
    child[:] = state
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


class Surakarta(PieceCountGame):
    name = "surakarta"
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
                              primitive, expand,
                              terminal, parents)
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

    def build(self) -> None:
        size = self.options["size"]
        cells = board_cells(size, size, limit=64)
        limit = self.piece_limit
        symmetries = grid_symmetries(size, size, mirror_up_down=True, transpose=True) \
            if self.options["symmetry"] else []
        self.build_space(cells, limit, limit, symmetries)
        neighbours = np.zeros(cells, dtype=np.int64)
        for cell in range(cells):
            row, col = divmod(cell, size)
            for dr, dc in DIRECTIONS:
                if 0 <= row + dr < size and 0 <= col + dc < size:
                    neighbours[cell] |= np.int64(1) << ((row + dr) * size + col + dc)
        self.data = SurakartaData(self.space.table, neighbours, *capture_paths(size))
        self.state_size = 1 + cells
        self.max_moves = limit * (8 + limit)  # each piece: 8 steps, a capture per opposing piece
        self.max_parents = 8 * limit
        self.loopy = True
        # One piece steps from one point to another; symmetric images may coincide.
        self.moves_are_distinct = not self.options["symmetry"]
        self.remoteness_bound = None

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


GAME = Surakarta
