"""Quixo: take a blank or own cube from the ring, push it back in at an end of its
row or column; a line of your symbol wins, and making the opponent's line loses.

Rules: docs/RULES.md, section "Quixo".

Position ``(T row row ...)``: turn ``x``/``o``; cells ``x``, ``o``, ``-`` (blank).
A move is named by the cube taken and the end it goes in at: ``b3-c3``.

Index (``hashers/boards.py``): positions are stored up to the square's 8 symmetries
and up to the exchange of the two symbols, since the rules treat ``x`` and ``o``
alike: a position is the cubes of the player to move and those of the other. A tier
holds the boards whose two counts are {a, b}, a <= b, as one block of
``hashers.boards`` with the cubes of count a as its "black" cells and the turn bit
saying whose move it is (0: the player with a cubes); with a == b only turn 0 is
stored, turn 1 being the same positions again (NONCANONICAL). Cubes never turn back
to blank, so the counts never go down: a move that takes a blank cube leads to the
tier with one more of the mover's, a move that takes one of the mover's own cubes
stays in the tier and may cycle. Every tier but the empty board's is LOOPY, solved
with un-moves (the pushed cube goes back where it came from, the line sliding back).
This stores half the positions of an index by colour and turn.

State vector: ``[turn, cells...]`` (turn 0 = x; cells in text order, 0 blank, 1 x,
2 o). ``decode`` always gives ``x`` to move.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tiersolve.bits import popcount
from tiersolve.contract import CHILD_INDEX, CHILD_MOVE, CHILD_SAME_MOVER, CHILD_TIER, TierType
from tiersolve.games.base import (
    Game, GameFunctions, GameSpec, Option, fill_after_move, fill_cells, mover_masks, parse_square,
    square_name,
)
from tiersolve.hashers.boards import BoardSpace, decode_board, encode_board
from tiersolve.hashers.symmetry import grid_symmetries
from tiersolve.jit import jit
from tiersolve.values import ILLEGAL, LOSE, NONCANONICAL, UNDECIDED, WIN

#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "quixo"

BLANK, X, O = 0, 1, 2
SYMBOLS = "-xo"
# The columns of ``QuixoData.moves``: the cube taken, the end it goes in at, how far
# (in cells, signed) the cubes between slide, and the mask of those that slide (the
# end's cell included, the source's not).
SOURCE, END, SHIFT, SLIDING = range(4)


class QuixoData(NamedTuple):
    """``board``: the board index (``BoardSpace.table``); ``moves[m]``: move m's
    source cell, end cell, shift and sliding mask (columns SOURCE ... SLIDING);
    ``lines``: the masks of the rows, columns and two diagonals; ``ring[0]``: the mask
    of the outer ring."""

    board: np.ndarray
    moves: np.ndarray
    lines: np.ndarray
    ring: np.ndarray


@jit(forceinline=True)
def has_line(lines, mask):
    """Whether the cells of ``mask`` fill one of ``lines``."""
    for k in range(lines.shape[0]):
        if mask & lines[k] == lines[k]:
            return True
    return False


@jit(forceinline=True)
def outcome(lines, mine, theirs):
    """The value for the owner of ``mine``, to move: a line of theirs is a WIN (the
    opponent's push made it, even with their own), else a line of the other's a LOSE,
    else UNDECIDED."""
    if has_line(lines, mine):
        return WIN
    if has_line(lines, theirs):
        return LOSE
    return UNDECIDED


@jit(forceinline=True)
def legal(ring, mover, other):
    """Whether a position where the player to move has the cubes ``mover`` and the
    other ``other`` (as ``x`` or as ``o``) may arise: the empty start, ``o`` after
    ``x``'s first move, or a board where both have cubes; and after a move, the cube
    just pushed in shows its player's symbol on the ring."""
    if other == 0:
        return mover == 0
    return (mover != 0 or popcount(other) == 1) and other & ring != 0


@jit(forceinline=True)
def encode_position(board, mover, other):
    """(tier, local) of the position where the player to move has ``mover``: the
    player with fewer cubes is the block's "black" (the mover, on equal counts)."""
    if popcount(mover) > popcount(other):
        return encode_board(board, other, mover, 1)
    return encode_board(board, mover, other, 0)


@jit(forceinline=True)
def decode_position(board, tier, local):
    """(mover, other, stored): the cubes of the player to move and of the other at
    (tier, local), and whether it is the stored one of its class."""
    fewer, more, turn, canonical = decode_board(board, tier, local)
    if turn == 0:
        return fewer, more, canonical
    return more, fewer, canonical and popcount(fewer) != popcount(more)


@jit
def decode(data, tier, local, state):
    mover, other, _ = decode_position(data.board, tier, local)
    state[0] = 0
    fill_cells(state, data.board[0], mover, other, X, O)


@jit
def encode(data, state):
    mine, theirs = mover_masks(state, data.board[0])
    return encode_position(data.board, mine, theirs)


@jit(forceinline=True)
def _shift(mask, shift):
    return mask << shift if shift > 0 else mask >> -shift


@jit(forceinline=True)
def push(moves, move, mine, theirs):
    """The (mine, theirs) masks after the owner of ``mine`` makes ``move``: the cubes
    between the end and the source slide one place towards the source, and the
    mover's cube goes in at the end."""
    sliding = moves[move, SLIDING]
    shift = moves[move, SHIFT]
    line = sliding | (np.int64(1) << moves[move, SOURCE])
    return ((mine & ~line) | _shift(mine & sliding, shift) | (np.int64(1) << moves[move, END]),
            (theirs & ~line) | _shift(theirs & sliding, shift))


@jit(forceinline=True)
def unpush(moves, move, mine, theirs):
    """The inverse of ``push`` for a move that took one of the mover's own cubes (the
    only moves that stay in a tier): the cubes slide back towards the end, and the
    cube goes back to the source as the mover's."""
    shift = moves[move, SHIFT]
    source = np.int64(1) << moves[move, SOURCE]
    line = moves[move, SLIDING] | source
    slid = _shift(moves[move, SLIDING], shift)  # where the sliding cubes are now
    return ((mine & ~line) | _shift(mine & slid, -shift) | source,
            (theirs & ~line) | _shift(theirs & slid, -shift))


@jit
def expand(data, tier, local, out, state, child, moves):
    mine, theirs, stored = decode_position(data.board, tier, local)
    if not stored:
        return -np.int64(NONCANONICAL)
    if not legal(data.ring[0], mine, theirs):
        return 0
    value = outcome(data.lines, mine, theirs)
    if value != UNDECIDED:
        return -np.int64(value)
    table = data.moves
    count = 0
    for move in range(table.shape[0]):
        if (theirs >> table[move, SOURCE]) & 1:
            continue  # a cube showing the opponent's symbol cannot be taken
        after_mine, after_theirs = push(table, move, mine, theirs)
        out[count, CHILD_TIER], out[count, CHILD_INDEX] = encode_position(
            data.board, after_theirs, after_mine)
        out[count, CHILD_SAME_MOVER] = 0
        out[count, CHILD_MOVE] = move
        count += 1
    return count


@jit
def parents(data, tier, local, out, state, other):
    """Un-moves inside the tier: the player who just moved had taken one of their own
    cubes, so any cube of theirs at an end may go back to any source of that end."""
    theirs, mine, _ = decode_position(data.board, tier, local)  # mine: who just moved
    table = data.moves
    count = 0
    for move in range(table.shape[0]):
        if not (mine >> table[move, END]) & 1:
            continue
        before_mine, before_theirs = unpush(table, move, mine, theirs)
        out[count] = encode_position(data.board, before_mine, before_theirs)[1] << 1
        count += 1
    return count


@jit
def generate_moves(data, state, moves):
    table = data.moves
    theirs = 2 - state[0]  # the opponent's cell code
    count = 0
    for move in range(table.shape[0]):
        if state[1 + table[move, SOURCE]] != theirs:
            moves[count] = move
            count += 1
    return count


@jit
def do_move(data, state, move, child):
    mine, theirs = mover_masks(state, data.board[0])
    after_mine, after_theirs = push(data.moves, move, mine, theirs)
    fill_after_move(child, data.board[0], state[0], after_mine, after_theirs)
    return 0


@jit
def primitive(data, state, move_count):
    mine, theirs = mover_masks(state, data.board[0])
    if not legal(data.ring[0], mine, theirs):
        return ILLEGAL
    return outcome(data.lines, mine, theirs)


def move_table(size: int) -> np.ndarray:
    """Every move of an N x N board, ``[source, end, shift, sliding]`` (``QuixoData``):
    for each ring cell in text order, the ends of its row and then of its column,
    except itself.

    >>> move_table(3)[:2].tolist()   # a3 (cell 0) in at c3, or at a1
    [[0, 2, -1, 6], [0, 6, -3, 72]]
    """
    rows = []
    for source in range(size * size):
        r, c = divmod(source, size)
        if 0 < r < size - 1 and 0 < c < size - 1:
            continue  # not on the ring
        for step, ends in ((1, (r * size, r * size + size - 1)),       # along the row
                           (size, (c, (size - 1) * size + c))):       # along the column
            for end in ends:
                if end == source:
                    continue
                # The cells from the end up to (not including) the source slide
                # one step towards the source.
                toward = step if source > end else -step
                sliding = sum(1 << cell for cell in range(end, source, toward))
                rows.append([source, end, toward, sliding])
    return np.array(rows, dtype=np.int64)


def line_masks(size: int) -> np.ndarray:
    """The rows, the columns and the two long diagonals, as masks."""
    cells = [[r * size + c for c in range(size)] for r in range(size)]
    cells += [[r * size + c for r in range(size)] for c in range(size)]
    cells += [[k * size + k for k in range(size)], [k * size + size - 1 - k for k in range(size)]]
    return np.array([sum(1 << cell for cell in line) for line in cells], dtype=np.int64)


class Quixo(Game):
    name = NAME
    title = "Quixo"
    options_spec = (
        Option("size", int, 5, "board size N (an N x N board)", minimum=3, maximum=5),
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive, expand,
                              parents=parents)
    state_fields = "turn (0 = x), then cells top row first (0 blank, 1 x, 2 o)"
    #: What a player takes to move, as the page of ``tiersolve serve`` names it ("Click
    #: a ringed cube"): the rings are on the cubes one may take, blank ones included.
    piece_noun = "cube"

    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = ({"size": 3},)
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = ({"size": 3},)

    def build(self) -> GameSpec:
        size = self.options["size"]
        cells = size * size
        counts = sorted(((a, b) for a in range(cells + 1) for b in range(a, cells + 1 - a)),
                        key=lambda ab: (ab[0] + ab[1], ab))
        self.space = BoardSpace(cells, [[xo] for xo in counts],
                                grid_symmetries(size, size, mirror_up_down=True, transpose=True))
        table = move_table(size)
        return GameSpec(
            tiers=self.space.tiers,
            data=lambda: QuixoData(  # the board's tables take seconds on 5x5: made on use
                self.space.table, table, line_masks(size),
                np.array([sum(1 << int(c) for c in set(table[:, SOURCE]))], np.int64)),
            state_size=1 + cells, max_moves=len(table), loopy=True, remoteness_bound=None,
            max_parents=len(table),
            hasher={"name": "two-colour boards up to symmetry and colour",
                    "tiers": "(fewer cubes, more cubes), who moves", "cells": cells,
                    "symmetries": 16})

    def tier_children(self, tier: int) -> set[int]:
        a, b = self.tiers.keys[tier]
        more = {self.space.tier_of(*sorted(counts)) for counts in ((a + 1, b), (a, b + 1))}
        more.discard(-1)
        return more if (a, b) == (0, 0) else more | {tier}

    def tier_type(self, tier: int) -> TierType:
        return TierType.IMMEDIATE if self.tiers.keys[tier] == (0, 0) else TierType.LOOPY

    def default_start(self) -> str:
        size = self.options["size"]
        return "(x " + " ".join(["-" * size] * size) + ")"

    def parse(self, text: str) -> np.ndarray:
        turn, cells = self.parse_board(text, "xo", SYMBOLS)
        return np.array([turn, *cells], dtype=np.int64)

    def format(self, state: np.ndarray) -> str:
        return self.format_board("xo"[state[0]], state[1:], SYMBOLS)

    def unreachable_reason(self, state: np.ndarray) -> str | None:
        xs, os = int(np.count_nonzero(state[1:] == X)), int(np.count_nonzero(state[1:] == O))
        if state[0] == 0 and (xs == 0) != (os == 0):
            return (f"x is to move with {xs} x and {os} o cubes, but once both have moved both "
                    "have cubes, and before that it is o's move")
        if state[0] == 1 and (xs == 0 or (os == 0 and xs != 1)):
            return (f"o is to move with {xs} x and {os} o cubes, but x moves first, and o "
                    "takes a cube at its first move, after x's first")
        size = self.options["size"]
        ring = [state[1 + r * size + c] for r in range(size) for c in range(size)
                if r in (0, size - 1) or c in (0, size - 1)]
        last = O if state[0] == 0 else X  # the player who made the last move
        if xs + os and last not in ring:
            return (f"{SYMBOLS[last]} made the last move, so a cube of {SYMBOLS[last]} is on the "
                    "outer ring, where every pushed cube goes in")
        return None

    def explain_illegal(self, state: np.ndarray) -> str:
        return self.unreachable_reason(state) or super().explain_illegal(state)

    def move_name(self, state: np.ndarray, move: int) -> str:
        size = self.options["size"]
        source, end = (int(cell) for cell in self.data.moves[move, :2])
        return f"{square_name(*divmod(source, size), size)}-{square_name(*divmod(end, size), size)}"

    def move_code(self, name: str) -> int:
        """The move code of a name like ``b3-c3``; ValueError otherwise."""
        size = self.options["size"]
        parts = name.replace(" ", "").split("-")
        if len(parts) != 2:
            raise ValueError(f"{name!r} is not a Quixo move: the cube taken and the end it goes "
                             "in at, like 'b3-c3'")
        source, end = ((r * size + c) for r, c in (parse_square(p, size, size) for p in parts))
        for move, row in enumerate(self.data.moves):
            if row[SOURCE] == source and row[END] == end:
                return move
        raise ValueError(f"{name!r} is not a Quixo move: a cube is taken from the ring and goes "
                         "in at another end of its row or column")


GAME = Quixo
