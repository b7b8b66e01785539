"""Pousse: insert a marker from a side of a row or column, pushing the line along; more
straights than the opponent wins.

Rules: docs/RULES.md, section "Pousse".

The N x N board starts empty; ``x`` moves first. A move ``L i``, ``R i``, ``T c`` or
``B c`` inserts a marker of the mover's colour from the left or right of row ``i``, or
the top or bottom of column ``c``: rows and columns are named as the board is labelled,
rows by number from the bottom (``1``), columns by letter from the left (``a``), as
every game's squares are (``L 1`` enters at a1, ``B c`` at c1). The markers from the
entry square up to the first empty square move one square along; in a full line the
last one is pushed off the board. All 4N insertions are always legal, even one that
gives back the same board. A straight is a row or column of N markers of one colour;
a board with more straights of one colour than of the other ends the game, and that
colour wins, whoever made the move.

The database solves the *position game* (docs/RULES.md): a position is the board and the
player to move, and a repeated board is not punished, so endless play is a DRAW. The
real rule (who repeats a board loses) needs the game's history: ``tiersolve.databases.history``
answers it on top of the database.

Position ``(T row row ...)``: turn ``x``/``o``; cells ``x``, ``o``, ``-``.

Index (``hashers/boards.py``): tier k holds every board with k markers (x markers as
the "black" cells, o as the "white"), times two for the turn. An insertion adds a
marker, unless the line was full and one falls off: only those moves stay in the
tier (tiers with at least N markers are LOOPY, solved with un-moves: the line slides
back and the fallen marker, of either colour, returns). Every other move leads to
tier k + 1, which is solved first.

State vector: ``[turn, cells...]`` (turn 0 = x; cells in text order, 0 empty, 1 x, 2 o).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tiersolve.bits import as_mask, deposit_bits, extract_bits, popcount
from tiersolve.contract import TierType
from tiersolve.games.base import (
    PUSH, Game, GameFunctions, GameSpec, MoveSketch, Option, board_cells, code_masks,
    decode_board_state, encode_board_state, fill_after_move, mover_masks,
)
from tiersolve.hashers.boards import (
    BoardSpace, block_of_counts, decode_board, encode_board, encode_in_block,
)
from tiersolve.jit import jit
from tiersolve.values import LOSE, UNDECIDED, WIN

EMPTY, X, O = 0, 1, 2
SYMBOLS = "-xo"
SIDES = "LRTB"


class PousseData(NamedTuple):
    """``board``: the board index (``BoardSpace.table``); ``lines[m, k]``: the cell k
    squares from the entry of insertion m (``move_code``), entry first;
    ``straights[l]``: the mask of row or column l (rows first); ``line_masks[m]``: the
    cells of insertion m's line; ``reversed_entry[m]``: 1 if its entry is the line's
    highest cell (R and B), so that its bits in entry order are the reverse of the
    mask's order; ``reverse[b]``: the N low bits of b reversed; ``inserted``: every
    insertion into every line (``insertion_table``)."""

    board: np.ndarray
    lines: np.ndarray
    straights: np.ndarray
    line_masks: np.ndarray
    reversed_entry: np.ndarray
    reverse: np.ndarray
    inserted: np.ndarray


@jit(forceinline=True)
def outcome(straights, xs, os, turn):
    """WIN or LOSE for the player to move if one colour has more straights, else
    UNDECIDED."""
    balance = 0
    for line in range(straights.shape[0]):
        mask = straights[line]
        if xs & mask == mask:
            balance += 1
        elif os & mask == mask:
            balance -= 1
    if balance == 0:
        return UNDECIDED
    return WIN if (balance > 0) == (turn == 0) else LOSE


@jit(forceinline=True)
def _line_bits(data, move, mask):
    """The cells of ``mask`` on insertion ``move``'s line as bits in entry order."""
    bits = extract_bits(mask, data.line_masks[move])
    return data.reverse[bits] if data.reversed_entry[move] else bits


@jit(forceinline=True)
def _board_bits(data, move, bits):
    """The inverse of ``_line_bits``: line bits in entry order as a board mask."""
    if data.reversed_entry[move]:
        bits = data.reverse[bits]
    return deposit_bits(bits, data.line_masks[move])


@jit(forceinline=True)
def insert(data, move, mine, theirs):
    """The (mine, theirs) masks after the owner of ``mine`` makes insertion ``move``,
    and whether a marker fell off (the line was full: the count of markers stays):
    the line's cells looked up in ``data.inserted`` (a table lookup costs less than
    sliding the line in entry order, which reverses half the lines twice)."""
    size = data.lines.shape[1]
    line = data.line_masks[move]
    key = (data.reversed_entry[move] << (2 * size)) | extract_bits(mine, line) | \
        (extract_bits(theirs, line) << size)
    after = data.inserted[key]
    low = (np.int64(1) << size) - 1
    return ((mine & ~line) | deposit_bits(after & low, line),
            (theirs & ~line) | deposit_bits((after >> size) & low, line),
            (after >> (2 * size)) != 0)


@jit(forceinline=True)
def _expand_into(data, tier, local, out, leaving_only):
    """``expand``, or with ``leaving_only`` ``expand_leaving``: insertions into a full
    line stay in the tier, and only the number of distinct boards they make is
    counted (two insertions may make one board: L 1 and R 1 into a row of the
    mover's markers leave it as it was); their boards are kept in the last rows
    of ``out`` meanwhile."""
    board, straights = data.board, data.straights
    xs, os, turn, _ = decode_board(board, tier, local)
    value = outcome(straights, xs, os, turn)
    if value != UNDECIDED:
        return -np.int64(value), -1
    mine, theirs = (xs, os) if turn == 0 else (os, xs)
    moves = data.lines.shape[0]
    rows = 0
    staying = 0
    # Every insertion that leaves the tier adds one marker of the mover's: one block.
    child_tier, first, white_boards = block_of_counts(board, popcount(xs) + 1 - turn,
                                                      popcount(os) + turn, 1 - turn)
    for move in range(moves):
        after_mine, after_theirs, full = insert(data, move, mine, theirs)
        if leaving_only and full:
            seen = False
            for k in range(staying):
                if out[moves - 1 - k, 0] == after_mine and out[moves - 1 - k, 1] == after_theirs:
                    seen = True
                    break
            if not seen:
                out[moves - 1 - staying, 0] = after_mine
                out[moves - 1 - staying, 1] = after_theirs
                staying += 1
            continue
        black, white = (after_mine, after_theirs) if turn == 0 else (after_theirs, after_mine)
        if full:  # stays in the tier (expand only)
            out[rows, 0], out[rows, 1] = encode_board(board, black, white, 1 - turn)
        else:
            out[rows, 0] = child_tier
            out[rows, 1] = encode_in_block(board, first, white_boards, black, white)
        out[rows, 2] = 0
        out[rows, 3] = move
        rows += 1
    return rows, staying


@jit
def expand(data, tier, local, out, state, child, moves):
    count, _ = _expand_into(data, tier, local, out, False)
    return count


@jit
def expand_leaving(data, tier, local, out, state, child, moves):
    return _expand_into(data, tier, local, out, True)


@jit
def parents(data, tier, local, out, state, other):
    """Un-moves inside the tier: an insertion into a full line whose entry square now
    holds the mover's marker; the line slides back towards the entry and the marker
    that fell off (x or o) returns at the far end. Parents that are finished games
    may be given (the solver skips them)."""
    board = data.board
    xs, os, turn, _ = decode_board(board, tier, local)
    mover = 1 - turn
    mine, theirs = (xs, os) if mover == 0 else (os, xs)
    size = data.lines.shape[1]
    last = np.int64(1) << (size - 1)
    count = 0
    # Two blocks hold every parent: the marker that fell off was the mover's (the
    # counts stay), or the other's (one marker of the mover's becomes the other's).
    x_count, o_count = popcount(xs), popcount(os)
    step = 1 if mover == 0 else -1
    _, same_first, same_boards = block_of_counts(board, x_count, o_count, mover)
    _, other_first, other_boards = block_of_counts(board, max(x_count - step, 0),
                                                   max(o_count + step, 0), mover)
    for move in range(data.lines.shape[0]):
        line = data.line_masks[move]
        if (mine | theirs) & line != line:
            continue  # not full: the insertion added a marker, so it came from another tier
        line_mine = _line_bits(data, move, mine)
        if not line_mine & 1:
            continue  # the entry square holds the marker just inserted: the mover's
        line_theirs = _line_bits(data, move, theirs)
        for fallen in range(2):  # the marker that fell off: the mover's, or the other's
            before_mine = (mine & ~line) | _board_bits(data, move, (line_mine >> 1) |
                                                       (last if fallen == 0 else 0))
            before_theirs = (theirs & ~line) | _board_bits(data, move, (line_theirs >> 1) |
                                                           (last if fallen == 1 else 0))
            black, white = (before_mine, before_theirs) if mover == 0 else \
                (before_theirs, before_mine)
            if fallen == 0:
                out[count] = encode_in_block(board, same_first, same_boards, black, white) << 1
            else:
                out[count] = encode_in_block(board, other_first, other_boards, black, white) << 1
            count += 1
    return count


@jit
def generate_moves(data, state, moves):
    """Move codes 0..4N-1: side * N + k (sides L, R, T, B; k: the row from the bottom
    or the column from the left, 0-based), as ``Pousse.move_code`` names them."""
    for move in range(data.lines.shape[0]):
        moves[move] = move
    return data.lines.shape[0]


@jit
def do_move(data, state, move, child):
    mine, theirs = mover_masks(state, data.board[0])
    after_mine, after_theirs, _ = insert(data, move, mine, theirs)
    fill_after_move(child, data.board[0], state[0], after_mine, after_theirs)
    return 0


@jit
def primitive(data, state, move_count):
    xs, os = code_masks(state, data.board[0], X, O)
    return outcome(data.straights, xs, os, state[0])


def insertion_table(size: int) -> np.ndarray:
    """``table[(reversed << 2N) | mine | theirs << N]``: a line of N cells after its
    owner of ``mine`` inserts from its entry (the lowest cell, or with ``reversed`` the
    highest), as ``mine' | theirs' << N | full << 2N`` (bits in the line's cell order;
    ``full``: a marker fell off). In entry order the run of markers up to the first
    empty square moves one square on, and the new marker takes the entry square.
    Keys with a cell of both colours are never looked up.

    >>> table = insertion_table(4)
    >>> bin(table[0b0001 | 0b0110 << 4])      # x o o - : x inserted at the left
    '0b11000011'
    >>> bin(table[1 << 8 | 0b1111 << 4])      # o o o o, x from the right: an o falls off
    '0b101111000'
    """
    keys = np.arange(1 << (2 * size), dtype=np.int64)
    bits = (keys[:, None] >> np.arange(2 * size)) & 1
    mine, theirs = bits[:, :size], bits[:, size:]
    table = np.zeros(2 << (2 * size), np.int64)
    for reverse in (0, 1):
        order = slice(None, None, -1) if reverse else slice(None)
        line_mine, line_theirs = mine[:, order], theirs[:, order]        # entry order
        empty = (line_mine | line_theirs) == 0
        full = ~empty.any(axis=1)
        # Cells up to the first empty one (all of them when full) move one square on.
        moving = np.cumsum(np.cumsum(empty, axis=1), axis=1) <= 1
        moving[full] = True
        after_mine = np.where(moving, np.roll(line_mine, 1, axis=1), line_mine)
        after_theirs = np.where(moving, np.roll(line_theirs, 1, axis=1), line_theirs)
        after_mine[:, 0], after_theirs[:, 0] = 1, 0
        weights = 1 << np.arange(size)[order]                          # back to cell order
        table[reverse << (2 * size):(reverse + 1) << (2 * size)] = (after_mine @ weights) | \
            ((after_theirs @ weights) << size) | (full.astype(np.int64) << (2 * size))
    return table


def insertion_lines(size: int) -> np.ndarray:
    """The cells (in text order: the top row first) of each insertion, entry first, in
    move code order: L 1 .. L N and R 1 .. R N (row 1 the bottom one), then T a ..
    and B a .. (column a the left one).

    >>> insertion_lines(2).tolist()       # cells 0 1 / 2 3: a2 b2 / a1 b1
    [[2, 3], [0, 1], [3, 2], [1, 0], [0, 2], [1, 3], [2, 0], [3, 1]]
    """
    lines = []
    for side in SIDES:
        for i in range(size):
            row = size - 1 - i  # row i + 1 from the bottom, in text order
            if side == "L":
                cells = [row * size + k for k in range(size)]
            elif side == "R":
                cells = [row * size + size - 1 - k for k in range(size)]
            elif side == "T":
                cells = [k * size + i for k in range(size)]
            else:
                cells = [(size - 1 - k) * size + i for k in range(size)]
            lines.append(cells)
    return np.array(lines, dtype=np.int64)


#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "pousse"


class Pousse(Game):
    name = NAME
    title = "Pousse"
    options_spec = (
        Option("size", int, 4, "board size N (an N x N board)", minimum=1, maximum=8),
    )
    functions = GameFunctions(decode_board_state, encode_board_state, generate_moves, do_move,
                              primitive, expand, parents=parents, expand_leaving=expand_leaving)
    state_fields = "turn (0 = x), then cells top row first (0 empty, 1 x, 2 o)"
    #: The real game: whoever repeats a board configuration loses (tiersolve.databases.history).
    repetition_loses = True

    @staticmethod
    def board_key(state: np.ndarray) -> bytes:
        """The board configuration of a position (the turn left out)."""
        return np.asarray(state[1:], dtype=np.int8).tobytes()

    @staticmethod
    def markers(state: np.ndarray) -> int:
        """Markers on the board (never fewer after a move)."""
        return int(np.count_nonzero(state[1:]))

    @staticmethod
    def markers_of_key(key: bytes) -> int:
        return len(key) - key.count(0)

    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = (
        {"size": 1}, {"size": 2}, {"size": 3},
    )
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = (
        {"size": 1}, {"size": 2}, {"size": 3},
    )

    def build(self) -> GameSpec:
        size = self.options["size"]
        cells = board_cells(size, size, limit=64)
        self.space = BoardSpace(cells, [[(x, k - x) for x in range(k + 1)] for k in range(cells + 1)])
        tiers = self.space.tiers
        lines = insertion_lines(size)
        straights = np.zeros(2 * size, dtype=np.int64)
        for i in range(size):
            for k in range(size):
                straights[i] |= np.int64(1) << (i * size + k)          # row i
                straights[size + i] |= np.int64(1) << (k * size + i)   # column i
        line_masks = np.array([as_mask(sum(1 << int(c) for c in line)) for line in lines], np.int64)
        reversed_entry = np.array([int(line[0] > line[-1]) for line in lines], np.int64)
        reverse = np.array([int(format(b, f"0{size}b")[::-1], 2) for b in range(1 << size)], np.int64)
        data = PousseData(self.space.table, lines, straights, line_masks, reversed_entry, reverse,
                               insertion_table(size))
        return GameSpec(
            tiers=tiers, data=data, state_size=1 + cells, max_moves=4 * size, loopy=True,
            remoteness_bound=None, max_parents=8 * size,
            hasher={"name": "two-colour boards", "tiers": "markers on the board (x, o), turn",
                    "cells": cells, "symmetries": 1})

    def tier_children(self, tier: int) -> set[int]:
        size = self.options["size"]
        cells = size * size
        children = {tier + 1} if tier < cells else set()
        return children | ({tier} if tier >= size else set())

    def tier_type(self, tier: int) -> TierType:
        return TierType.LOOPY if tier >= self.options["size"] else TierType.IMMEDIATE

    def default_start(self) -> str:
        size = self.options["size"]
        return "(x " + " ".join(["-" * size] * size) + ")"

    def parse(self, text: str) -> np.ndarray:
        turn, cells = self.parse_board(text, "xo", SYMBOLS)
        return np.array([turn, *cells], dtype=np.int64)

    def format(self, state: np.ndarray) -> str:
        return self.format_board("xo"[state[0]], state[1:], SYMBOLS)

    def move_name(self, state: np.ndarray, move: int) -> str:
        """``L 1`` .. ``R N`` (a row, by number from the bottom), ``T a`` .. ``B n`` (a
        column, by letter from the left): the names the board's labels give."""
        size = self.options["size"]
        side, line = divmod(int(move), size)
        if SIDES[side] in "LR":
            return f"{SIDES[side]} {line + 1}"
        return f"{SIDES[side]} {chr(ord('a') + line)}"

    def move_code(self, name: str) -> int:
        """The move code of a name like ``L 1`` or ``T a`` (case and spaces do not
        matter: ``l1``, ``TA``); ValueError otherwise, saying how moves are named.

        >>> from tiersolve.games import make_game
        >>> game = make_game("pousse", size=3)
        >>> game.move_code("L 1"), game.move_code("t c"), game.move_name(game.start(), 11)
        (0, 8, 'B c')
        """
        size = self.options["size"]
        text = "".join(name.split())
        side, line = text[:1].upper(), text[1:].lower()
        last = chr(ord("a") + size - 1)
        if side in ("L", "R") and line.isdigit() and 1 <= int(line) <= size:
            return SIDES.index(side) * size + int(line) - 1
        if side in ("T", "B") and len(line) == 1 and "a" <= line <= last:
            return SIDES.index(side) * size + ord(line) - ord("a")
        raise ValueError(f"{name!r} is not a Pousse move: L or R and a row 1..{size} (from the "
                         f"bottom), or T or B and a column a..{last}, e.g. 'L 1' or 'T a'")

    def move_sketch(self, state: np.ndarray, name: str) -> MoveSketch | None:
        """A marker pushed in at an edge, along the row or column from there.

        >>> from tiersolve.games import make_game
        >>> game = make_game("pousse", size=3)
        >>> game.move_sketch(game.start(), "B a")
        MoveSketch(kind='push', cells=((2, 0), (1, 0), (0, 0)), path=(), side='B')
        >>> game.move_sketch(game.start(), "L 1").cells     # row 1: the bottom one
        ((2, 0), (2, 1), (2, 2))
        """
        try:
            move = self.move_code(name)
        except ValueError:
            return None
        size = self.options["size"]
        cells = tuple(divmod(int(cell), size) for cell in self.data.lines[move])
        return MoveSketch(PUSH, cells, side=SIDES[move // size])


GAME = Pousse
