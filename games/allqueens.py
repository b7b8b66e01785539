"""All Queens Chess: six queens a side on a 5x5 board, moving as chess queens with no
captures; four of one colour in a line ends the game.

Rules: docs/RULES.md, section "All Queens Chess" (GamesmanOne's ``mallqueenschess``,
to compare values).

Position ``(w wbwbw ----- b---w ----- bwbwb)``: the player to move (``w`` moves
first), then the rows from the top; cells ``w``, ``b``, ``-``. A move is named by its
two squares, ``a5-a4``.

Index (``hashers/boards.py``): every position has all its queens, so the whole game
is one LOOPY tier, solved with un-moves (a queen of the player who just moved slides
back). Positions are stored as the player to move sees them, the mover's queens as
the board's "black" cells and the other's as its "white" ones (the rules treat both
colours alike), and up to the square's 8 symmetries. ``BoardSpace`` keeps a turn bit
that this game does not need: the local index here is the board's index halved
(the turn bit is always 0). A position where the player to move has a line is
ILLEGAL (the game ended a move earlier).

State vector: ``[turn, cells...]`` (turn 0 = white; cells in text order, 0 empty,
1 white, 2 black). ``decode`` gives white to move.

>>> from tiersolve.games import make_game
>>> game = make_game("allqueens", size=3)
>>> game.default_start()
'(w wbw --- bwb)'
>>> [child.move for child in game.children(game.start())][:4]
['a3-a2', 'a3-b2', 'c3-b2', 'c3-c2']
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tiersolve.bits import copy_into, full_mask, lowest_bit, popcount, sort_unique
from tiersolve.contract import TierType
from tiersolve.errors import ImpossiblePositionError
from tiersolve.games.base import (
    Game, GameFunctions, GameSpec, Option, add_move, fill_cells, mover_masks, square_name,
)
from tiersolve.hashers.boards import (
    BoardSpace, board_images, canonical_black, decode_board, encode_board, encode_changed,
)
from tiersolve.hashers.symmetry import grid_symmetries
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit
from tiersolve.values import DRAW, ILLEGAL, LOSE, NONCANONICAL, UNDECIDED

#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "allqueens"

SYMBOLS = "-wb"
#: Queens a side and the length of a winning line, by board size (docs/DECISIONS.md).
QUEENS = {3: 3, 4: 4, 5: 6}
LINE = {3: 3, 4: 4, 5: 4}
#: A move's code: from * MOVE + to.
MOVE = 32
#: The eight directions (rows down, columns right).
DIRECTIONS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
#: The params fields.
SIZE, CELLS = 0, 1


class AllQueensData(NamedTuple):
    """``board``: the board index (``BoardSpace.table``); ``params``: [size, cells];
    ``lines``: the mask of every winning line; ``rays[(cell * 8 + d) * size + k]``: the
    k-th cell from ``cell`` in direction d, -1 past the edge."""

    board: np.ndarray
    params: np.ndarray
    lines: np.ndarray
    rays: np.ndarray


@jit(forceinline=True)
def has_line(lines, cells):
    """Whether the queens ``cells`` fill a winning line."""
    for k in range(lines.shape[0]):
        if cells & lines[k] == lines[k]:
            return True
    return False


@jit(forceinline=True)
def outcome(lines, mover, other):
    """ILLEGAL if the player to move has a line (the game ended a move earlier), a LOSE
    in 0 if the other has one, else UNDECIDED."""
    if has_line(lines, mover):
        return ILLEGAL
    if has_line(lines, other):
        return LOSE
    return UNDECIDED


@jit(forceinline=True)
def reach(data, cell, empty):
    """The mask of the empty cells a queen on ``cell`` slides to (blocked by any queen)."""
    size = data.params[SIZE]
    rays = data.rays
    found = np.int64(0)
    base = cell * 8 * size
    for d in range(8):
        for k in range(size):
            target = rays[base + d * size + k]
            if target < 0 or not (empty >> target) & 1:
                break
            found |= np.int64(1) << target
    return found


@jit
def decode(data, tier, local, state):
    mover, other, _, _ = decode_board(data.board, 0, local << 1)
    state[0] = 0
    fill_cells(state, data.params[CELLS], mover, other, 1, 2)


@jit
def encode(data, state):
    mover, other = mover_masks(state, data.params[CELLS])
    tier, local = encode_board(data.board, mover, other, 0)
    return tier, local >> 1


#: ``_opening``'s verdict when the position is stored and open: its moves follow.
OPEN = 1


@jit
def _opening(data, local):
    """The queens of ``local`` (mover's, other's) and what ``expand`` returns if it
    stops here: -NONCANONICAL, 0 for an illegal position, -value of an ended game, or
    ``OPEN``."""
    mover, other, _, canonical = decode_board(data.board, 0, local << 1)
    if not canonical:
        return mover, other, -np.int64(NONCANONICAL)
    value = outcome(data.lines, mover, other)
    if value == ILLEGAL:
        return mover, other, np.int64(0)
    if value != UNDECIDED:
        return mover, other, -np.int64(value)
    return mover, other, np.int64(OPEN)


@jit
def expand(data, tier, local, out, state, child, moves):
    board = data.board
    mover, other, verdict = _opening(data, local)
    if verdict != OPEN:
        return verdict
    empty = full_mask(data.params[CELLS]) & ~(mover | other)
    # The child as its mover sees it: the other's queens are its "black" cells.
    board_images(board, other, state)
    board_images(board, mover, child)
    known = canonical_black(board, state)
    count = 0
    pieces = mover
    while pieces:
        source = lowest_bit(pieces)
        pieces &= pieces - 1
        targets = reach(data, source, empty)
        while targets:
            target = lowest_bit(targets)
            targets &= targets - 1
            change = (np.int64(1) << source) | (np.int64(1) << target)
            _, child_local = encode_changed(board, state, child, 0, change, 0, known)
            count = add_move(out, count, 0, child_local >> 1, source * MOVE + target)
    if count == 0:
        return -np.int64(DRAW)  # walled in (``primitive``)
    return count


@jit
def expand_leaving(data, tier, local, out, state, child, moves):
    """``expand`` without ranking the children: every move stays in the one tier. Two
    moves reach one stored position only if a symmetry keeps the other's queens (the
    child's "black" cells, which no move changes) and maps one moved set to the other:
    so only positions whose other's queens have a symmetry rank their children, to
    count the distinct ones."""
    board = data.board
    mover, other, verdict = _opening(data, local)
    if verdict != OPEN:
        return verdict, np.int64(-1)
    empty = full_mask(data.params[CELLS]) & ~(mover | other)
    board_images(board, other, state)
    known = canonical_black(board, state)
    exact = popcount(known[1]) > 1  # the other's queens have a symmetry
    if exact:
        board_images(board, mover, child)
    staying = 0
    pieces = mover
    while pieces:
        source = lowest_bit(pieces)
        pieces &= pieces - 1
        targets = reach(data, source, empty)
        if not exact:
            staying += popcount(targets)
            continue
        while targets:
            target = lowest_bit(targets)
            targets &= targets - 1
            change = (np.int64(1) << source) | (np.int64(1) << target)
            moves[staying] = encode_changed(board, state, child, 0, change, 0, known)[1]
            staying += 1
    if staying == 0:
        return -np.int64(DRAW), np.int64(-1)
    if exact:
        staying = sort_unique(moves, staying)
    return np.int64(0), np.int64(staying)


@jit
def parents(data, tier, local, out, state, other_scratch):
    """Un-moves: a queen of the player who just moved slides back along a line of empty
    cells; the parent is seen by that player."""
    board = data.board
    mover, moved, _, _ = decode_board(board, 0, local << 1)  # moved: who just moved
    empty = full_mask(data.params[CELLS]) & ~(mover | moved)
    board_images(board, moved, state)  # the parent's "black" cells, before the slide
    board_images(board, mover, other_scratch)
    unused = (np.int64(0), np.int64(1), np.int64(0))  # (only read when black stays)
    count = 0
    pieces = moved
    while pieces:
        target = lowest_bit(pieces)
        pieces &= pieces - 1
        sources = reach(data, target, empty)
        while sources:
            source = lowest_bit(sources)
            sources &= sources - 1
            change = (np.int64(1) << source) | (np.int64(1) << target)
            # The parent's local index (turn bit 0) halved, then shifted for the
            # same-mover bit (0): the board's index itself.
            out[count] = encode_changed(board, state, other_scratch, change, 0, 0, unused)[1]
            count += 1
    return count


@jit
def generate_moves(data, state, moves):
    cells = data.params[CELLS]
    mover, other = mover_masks(state, cells)
    empty = full_mask(cells) & ~(mover | other)
    count = 0
    for source in range(cells):
        if (mover >> source) & 1:
            targets = reach(data, source, empty)
            for target in range(cells):
                if (targets >> target) & 1:
                    moves[count] = source * MOVE + target
                    count += 1
    return count


@jit
def do_move(data, state, move, child):
    copy_into(child, state)
    child[0] = 1 - state[0]
    child[1 + move % MOVE] = state[1 + move // MOVE]
    child[1 + move // MOVE] = 0
    return 0


@jit
def primitive(data, state, move_count):
    mover, other = mover_masks(state, data.params[CELLS])
    value = outcome(data.lines, mover, other)
    if value == UNDECIDED and move_count == 0:
        return DRAW
    return value


def winning_lines(size: int, length: int) -> list[list[int]]:
    """Every line of ``length`` cells along a row, a column or a diagonal of a size x
    size board (cells in text order).

    >>> len(winning_lines(5, 4)), len(winning_lines(4, 4)), len(winning_lines(3, 3))
    (28, 10, 8)
    """
    found = []
    for r in range(size):
        for c in range(size):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                line = [(r + k * dr, c + k * dc) for k in range(length)]
                if all(0 <= rr < size and 0 <= cc < size for rr, cc in line):
                    found.append([rr * size + cc for rr, cc in line])
    return found


def ray_table(size: int) -> np.ndarray:
    """``AllQueensData.rays`` of a size x size board."""
    rays = np.full(size * size * 8 * size, -1, np.int64)
    for r in range(size):
        for c in range(size):
            for d, (dr, dc) in enumerate(DIRECTIONS):
                for k in range(size - 1):
                    rr, cc = r + (k + 1) * dr, c + (k + 1) * dc
                    if not (0 <= rr < size and 0 <= cc < size):
                        break
                    rays[((r * size + c) * 8 + d) * size + k] = rr * size + cc
    return rays


class AllQueens(Game):
    name = NAME
    title = "All Queens Chess"
    options_spec = (
        Option("size", int, 5, "board size N (an N x N board): 5 is the game, with six "
               "queens a side and lines of four; 4 has four queens and lines of four, 3 "
               "three queens and lines of three", minimum=3, maximum=5),
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive, expand,
                              parents=parents, expand_leaving=expand_leaving)
    state_fields = "turn (0 = white), then cells top row first (0 empty, 1 white, 2 black)"
    piece_noun = "queen"

    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = ({"size": 3},)
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = ({"size": 3},)
    #: The same, minutes each: pytest -m slow.
    slow_reference_boards = ({"size": 4},)

    def build(self) -> GameSpec:
        size = self.options["size"]
        cells = size * size
        queens = QUEENS[size]
        self.space = BoardSpace(cells, [[(queens, queens)]],
                                grid_symmetries(size, size, mirror_up_down=True, transpose=True))
        lines = np.array([sum(1 << c for c in line)
                          for line in winning_lines(size, LINE[size])], np.int64)
        most = queens * 4 * (size - 1)  # a queen in the middle reaches 4 (N - 1) cells
        return GameSpec(
            tiers=TierLayout(keys=[(2 * queens,)], sizes=[self.space.tiers.sizes[0] // 2]),
            data=AllQueensData(self.space.table, np.array([size, cells], np.int64), lines,
                               ray_table(size)),
            state_size=1 + cells, max_moves=most, loopy=True, remoteness_bound=None,
            max_parents=most,
            hasher={"name": "two-colour boards up to symmetry, as the mover sees them",
                    "tiers": "one", "cells": cells, "queens": queens, "symmetries": 8,
                    "turn bit": "dropped"})

    def tier_children(self, tier: int) -> set[int]:
        return {tier}

    def tier_type(self, tier: int) -> TierType:
        return TierType.LOOPY

    def default_start(self) -> str:
        size = self.options["size"]
        top = "".join("wb"[c % 2] for c in range(size))
        bottom = "".join("bw"[c % 2] for c in range(size))
        rows = [top] + ["-" * size] * (size - 2) + [bottom]
        if size == 5:  # GamesmanOne's: a queen of each colour on the middle row's ends
            rows[2] = "b---w"
        return "(w " + " ".join(rows) + ")"

    def parse(self, text: str) -> np.ndarray:
        turn, cells = self.parse_board(text, "wb", SYMBOLS)
        queens = QUEENS[self.options["size"]]
        white, black = cells.count(1), cells.count(2)
        if (white, black) != (queens, queens):
            raise ImpossiblePositionError(
                f"{text!r} has {white} white and {black} black queens; each player has "
                f"{queens} on this board, and no queen is ever taken")
        return np.array([turn, *cells], dtype=np.int64)

    def format(self, state: np.ndarray) -> str:
        return self.format_board("wb"[state[0]], state[1:], SYMBOLS)

    def explain_illegal(self, state: np.ndarray) -> str:
        mover = "white" if state[0] == 0 else "black"
        return (f"{mover}, to move, already has a line: the game ended before the other's "
                "move")

    def move_name(self, state: np.ndarray, move: int) -> str:
        size = self.options["size"]
        source, target = divmod(int(move), MOVE)
        return (f"{square_name(*divmod(source, size), size)}-"
                f"{square_name(*divmod(target, size), size)}")


GAME = AllQueens
