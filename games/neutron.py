"""Neutron (Robert Kraus): a neutron and five pieces a side on a 5x5 board; a turn
slides the neutron, then one of one's own pieces, each as far as it goes; the
neutron on one's own home row wins.

Rules: docs/RULES.md, section "Neutron" (GamesmanOne's, to compare values).

Position ``(x ooooo ----- --n-- ----- xxxxx)``: the player to move (``x`` moves
first, from the bottom row, its home row), the rows from the top; cells ``x``,
``o``, ``n`` (the neutron), ``-``. The start is the only position whose move slides
no neutron; the same board later, ``x`` to move (who must slide the neutron), is
written ``(x again ooooo ----- --n-- ----- xxxxx)``. A move is named by its slides,
``c3-c4,a1-a3`` (the neutron, then the piece); ``a1-a4`` at the start, and
``c3-c5`` when the neutron's slide reaches a home row and ends the game.

Index (``hashers/hand_pieces.py``): tier 0 is the start, alone; tier 1 holds every
other position, LOOPY (nothing is captured, so every position has all its pieces),
solved with un-moves. Tier 1 stores a position as the player to move sees it: the
board turned 180° and the colours exchanged when ``o`` moves (the rules treat the two
alike: each wins by the neutron on its own home row), and up to the left-right
mirror. The neutron is the fixed piece (any cell); the mover's pieces and the other's
are two kinds of one face each.

State vector: ``[turn, start, neutron, x, o]``: turn 0 for ``x``; start 1 only at the
start; then cell masks (bit i = cell i in text order, cell 0 = a5).
``decode`` gives ``x`` to move.

>>> from tiersolve.games import make_game
>>> game = make_game("neutron", rows=3, cols=3)
>>> [child.move for child in game.children(game.start())][:3]
['a1-a2', 'b1-a2', 'b1-c2']
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tiersolve.bits import copy_into, lowest_bit
from tiersolve.contract import TierType
from tiersolve.errors import ImpossiblePositionError, OtherBoardError
from tiersolve.games.base import (
    MOVE, Game, GameFunctions, GameSpec, MoveSketch, add_move, cols_option, rows_option,
    square_name,
)
from tiersolve.hashers.hand_pieces import HandPieceSpace, Kind, rank_hand_position, unrank_hand_position
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit
from tiersolve.values import LOSE, NONCANONICAL, UNDECIDED, WIN

#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "neutron"

TURN, START, NEUTRON, XS, OS = range(5)
STATE_SIZE = 5
#: The eight directions (row step, column step), in GamesmanOne's order: UL, U, UR, L,
#: R, DL, D, DR; direction 7 - d is the opposite of d.
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
#: The fields of ``NeutronData.params``.
ROWS, COLS, CELLS, TOP, BOTTOM = range(5)
SYMBOLS = "-xon"


class NeutronData(NamedTuple):
    """``space``: the index of tier 1 (``HandPieceSpace.table``); ``step[cell, d]``: the
    cell next to ``cell`` in direction d, -1 off the board; ``params``: rows, columns,
    cells, the masks of the top and bottom rows."""

    space: np.ndarray
    step: np.ndarray
    params: np.ndarray


@jit(forceinline=True)
def _bit(cell):
    return np.int64(1) << cell


@jit(forceinline=True)
def _slide(step, occupied, source, direction):
    """Where a piece on ``source`` stops sliding in ``direction`` (``source`` if the
    next cell is off the board or taken)."""
    cell = source
    following = step[cell, direction]
    while following >= 0 and not (occupied >> following) & 1:
        cell = following
        following = step[cell, direction]
    return cell


@jit(forceinline=True)
def _turned(mask, cells):
    """The mask of the board turned 180° (cell i to cells - 1 - i)."""
    turned = np.int64(0)
    while mask:
        turned |= _bit(cells - 1 - lowest_bit(mask))
        mask &= mask - 1
    return turned


@jit(forceinline=True)
def _code(neutron_direction, piece, piece_direction):
    """A move's code: the neutron's direction (-1: no neutron slide, the start), the
    piece's cell and direction (-1: no piece slide, the neutron reached a home row)."""
    return ((neutron_direction + 1) * 65 + piece + 1) * 8 + piece_direction


@jit(forceinline=True)
def _rank_other_view(table, scratch, cells, neutron, mover, other):
    """The tier-1 index of the position where the owner of ``other`` is to move, after
    the owner of ``mover`` moved: the board turned round and the colours exchanged."""
    scratch[NEUTRON] = _turned(neutron, cells)
    scratch[XS] = _turned(other, cells)
    scratch[OS] = _turned(mover, cells)
    return rank_hand_position(table, scratch, NEUTRON)


@jit
def decode(data, tier, local, state):
    state[TURN] = 0
    if tier == 0:
        state[START] = 1
        state[NEUTRON] = _bit(data.params[CELLS] // 2)
        state[XS] = data.params[BOTTOM]
        state[OS] = data.params[TOP]
        return
    state[START] = 0
    unrank_hand_position(data.space, local, state, NEUTRON)


@jit
def encode(data, state):
    if state[START]:
        return np.int64(0), np.int64(0)
    if state[TURN] == 0:
        return np.int64(1), rank_hand_position(data.space, state, NEUTRON)
    cells = data.params[CELLS]
    neutron, xs, os = state[NEUTRON], state[XS], state[OS]
    rank = _rank_other_view(data.space, state, cells, neutron, xs, os)
    state[NEUTRON], state[XS], state[OS] = neutron, xs, os
    return np.int64(1), rank


@jit
def generate_moves(data, state, moves):
    step = data.step
    neutron = state[NEUTRON]
    mine = state[XS] if state[TURN] == 0 else state[OS]
    occupied = neutron | state[XS] | state[OS]
    home = data.params[TOP] | data.params[BOTTOM]
    count = 0
    n = lowest_bit(neutron)
    for nd in range(-1 if state[START] else 0, 0 if state[START] else 8):
        after = occupied
        if nd >= 0:
            stop = _slide(step, occupied, n, nd)
            if stop == n:
                continue
            if _bit(stop) & home:
                moves[count] = _code(nd, -1, 0)
                count += 1
                continue
            after = occupied ^ _bit(n) ^ _bit(stop)
        pieces = mine
        while pieces:
            p = lowest_bit(pieces)
            pieces &= pieces - 1
            for pd in range(8):
                following = step[p, pd]
                if following >= 0 and not (after >> following) & 1:
                    moves[count] = _code(nd, p, pd)
                    count += 1
    return count


@jit
def do_move(data, state, move, child):
    copy_into(child, state)
    step = data.step
    turn = state[TURN]
    child[TURN] = 1 - turn
    child[START] = 0
    pd = move % 8
    p = (move // 8) % 65 - 1
    nd = move // (8 * 65) - 1
    occupied = state[NEUTRON] | state[XS] | state[OS]
    if nd >= 0:
        n = lowest_bit(state[NEUTRON])
        stop = _slide(step, occupied, n, nd)
        child[NEUTRON] = _bit(stop)
        occupied ^= _bit(n) ^ _bit(stop)
    if p >= 0:
        stop = _slide(step, occupied, p, pd)
        slot = XS if turn == 0 else OS
        child[slot] ^= _bit(p) ^ _bit(stop)
    return 0


@jit
def primitive(data, state, move_count):
    top, bottom = data.params[TOP], data.params[BOTTOM]
    own, far = (bottom, top) if state[TURN] == 0 else (top, bottom)
    if state[NEUTRON] & own:
        return WIN
    if state[NEUTRON] & far:
        return LOSE
    if move_count == 0:
        return LOSE
    return UNDECIDED


@jit(forceinline=True)
def _children(data, out, count, scratch, neutron, mine, theirs, neutron_moves):
    """Adds to ``out`` the rows of the moves of the owner of ``mine`` (to move, home
    row at the bottom), with (``neutron_moves``) or without (the start) a neutron
    slide first; returns the new count."""
    step, table = data.step, data.space
    cells = data.params[CELLS]
    home = data.params[TOP] | data.params[BOTTOM]
    occupied = neutron | mine | theirs
    n = lowest_bit(neutron)
    for nd in range(-1 if not neutron_moves else 0, 8 if neutron_moves else 0):
        after, moved = occupied, neutron
        if nd >= 0:
            stop = _slide(step, occupied, n, nd)
            if stop == n:
                continue
            moved = _bit(stop)
            if moved & home:
                count = add_move(out, count, 1, _rank_other_view(
                    table, scratch, cells, moved, mine, theirs), _code(nd, -1, 0))
                continue
            after = occupied ^ neutron ^ moved
        scratch[NEUTRON] = _turned(moved, cells)
        scratch[XS] = _turned(theirs, cells)
        pieces = mine
        while pieces:
            p = lowest_bit(pieces)
            pieces &= pieces - 1
            for pd in range(8):
                stop = _slide(step, after, p, pd)
                if stop == p:
                    continue
                scratch[OS] = _turned(mine ^ _bit(p) ^ _bit(stop), cells)
                count = add_move(out, count, 1, rank_hand_position(table, scratch, NEUTRON),
                                 _code(nd, p, pd))
    return count


@jit
def expand(data, tier, local, out, state, child, moves):
    if tier == 0:
        decode(data, tier, local, state)
        return _children(data, out, 0, child, state[NEUTRON], state[XS], state[OS], False)
    if not unrank_hand_position(data.space, local, state, NEUTRON):
        return -np.int64(NONCANONICAL)
    neutron = state[NEUTRON]
    if neutron & data.params[BOTTOM]:
        return -np.int64(WIN)
    if neutron & data.params[TOP]:
        return -np.int64(LOSE)
    count = _children(data, out, 0, child, neutron, state[XS], state[OS], True)
    if count == 0:
        return -np.int64(LOSE)
    return count


@jit(forceinline=True)
def _unslide_neutron(data, out, count, scratch, n, mover, other, occupied):
    """Adds the parents where the neutron slid to ``n`` and the owner of ``mover``
    (who moved, seen turned round) is to move; ``occupied`` holds the neutron."""
    step, table = data.step, data.space
    cells = data.params[CELLS]
    scratch[XS] = _turned(mover, cells)
    scratch[OS] = _turned(other, cells)
    for d in range(8):
        beyond = step[n, d]
        if beyond >= 0 and not (occupied >> beyond) & 1:
            continue  # the neutron would have slid on
        source = step[n, 7 - d]
        while source >= 0 and not (occupied >> source) & 1:
            scratch[NEUTRON] = _bit(cells - 1 - source)
            out[count] = rank_hand_position(table, scratch, NEUTRON) << 1
            count += 1
            source = step[source, 7 - d]
    return count


@jit
def parents(data, tier, local, out, state, other):
    """Un-moves of the player who just moved (the owner of ``state[OS]`` here): the
    neutron alone slid back, when it stands on a home row; else one of their pieces
    slid back, then the neutron."""
    unrank_hand_position(data.space, local, state, NEUTRON)
    step = data.step
    neutron, mine, theirs = state[NEUTRON], state[XS], state[OS]
    occupied = neutron | mine | theirs
    n = lowest_bit(neutron)
    if neutron & (data.params[TOP] | data.params[BOTTOM]):
        return _unslide_neutron(data, out, 0, other, n, theirs, mine, occupied)
    count = 0
    pieces = theirs
    while pieces:
        p = lowest_bit(pieces)
        pieces &= pieces - 1
        for d in range(8):
            beyond = step[p, d]
            if beyond >= 0 and not (occupied >> beyond) & 1:
                continue
            source = step[p, 7 - d]
            while source >= 0 and not (occupied >> source) & 1:
                moved = _bit(p) ^ _bit(source)
                count = _unslide_neutron(data, out, count, other, n, theirs ^ moved, mine,
                                         occupied ^ moved)
                source = step[source, 7 - d]
    return count


def step_table(rows: int, cols: int) -> np.ndarray:
    """``step[cell, d]``: the cell next to ``cell`` in direction d, -1 off the board.

    >>> step_table(3, 3)[4].tolist()   # the centre's eight neighbours
    [0, 1, 2, 3, 5, 6, 7, 8]
    """
    table = np.full((rows * cols, 8), -1, np.int64)
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        for d, (dr, dc) in enumerate(DIRECTIONS):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                table[cell, d] = (r + dr) * cols + c + dc
    return table


class Neutron(Game):
    name = NAME
    title = "Neutron"
    options_spec = (
        rows_option(5, 3, 7),
        cols_option(5, 3, 7),
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive, expand,
                              parents=parents)
    state_fields = ("turn (0 = x), start (1 at the start only), then cell masks of the "
                    "neutron, x and o (bit i = cell i, text order)")
    piece_colours = {"n": "#d9a21b"}  # x and o are drawn as their letters
    #: Positions solved a second on one core, and where (``tiersolve build --plan`` gives
    #: the time of a build at this rate; docs/CLUSTER.md, Neutron 5x5).
    measured_rate = (231_000, "neutron --rows 7 --cols 3: 10,852,801 positions in 46.9 CPU s, "
                              "one thread, on a loaded machine")

    tester_boards = ({"rows": 3, "cols": 3},)
    reference_boards = ({"rows": 3, "cols": 3},)
    slow_reference_boards = ({"rows": 5, "cols": 3},)

    def build(self) -> GameSpec:
        rows, cols = self.options["rows"], self.options["cols"]
        if rows % 2 == 0 or cols % 2 == 0:
            raise ValueError(f"a {rows}x{cols} board has no centre square for the neutron: "
                             "rows and cols must be odd (3, 5 or 7)")
        cells = rows * cols
        mirror = [r * cols + cols - 1 - c for r in range(rows) for c in range(cols)]
        self.space = HandPieceSpace(cells, [Kind(cols, 1, 0), Kind(cols, 1, 0)],
                                    [(cell,) for cell in range(cells)], [mirror])
        top = (1 << cols) - 1
        params = np.array([rows, cols, cells, top, top << (cells - cols)], np.int64)
        reach = max(rows, cols) - 1
        return GameSpec(
            tiers=TierLayout(keys=[(0,), (1,)], sizes=[1, self.space.size]),
            data=NeutronData(self.space.table, step_table(rows, cols), params),
            state_size=STATE_SIZE, max_moves=64 * cols, loopy=True, remoteness_bound=None,
            max_parents=cols * 8 * reach * 8 * reach,
            hasher={"name": "pieces on a board, as the mover sees them, up to the mirror",
                    "tiers": "the start; every other position", "cells": cells,
                    "fixed": "the neutron, on any cell", "symmetries": 2})

    def tier_children(self, tier: int) -> set[int]:
        return {1}

    def tier_type(self, tier: int) -> TierType:
        return TierType.IMMEDIATE if tier == 0 else TierType.LOOPY

    def _start_rows(self) -> list[str]:
        rows, cols = self.options["rows"], self.options["cols"]
        middle = "-" * (cols // 2) + "n" + "-" * (cols // 2)
        return ["o" * cols] + ["-" * cols] * (rows // 2 - 1) + [middle] + \
            ["-" * cols] * (rows // 2 - 1) + ["x" * cols]

    def default_start(self) -> str:
        return "(x " + " ".join(self._start_rows()) + ")"

    def parse(self, text: str) -> np.ndarray:
        words = self.split_position(text)
        rows, cols = self.options["rows"], self.options["cols"]
        again = len(words) == rows + 2 and words[1] == "again"
        if len(words) != rows + 1 + again:
            raise OtherBoardError(
                f"a {self.describe()} position is the player to move and {rows} rows of "
                f"{cols} cells, like {self.default_start()}; got {text!r}")
        turn, board = words[0], words[1 + again:]
        if turn not in ("x", "o"):
            case = " (the notation is lower case)" if turn in ("X", "O") else ""
            raise ValueError(f"the turn in {text!r} must be x or o, got {turn!r}{case}")
        self.check_rows(board, text, SYMBOLS)
        cells = "".join(board)
        counts = {symbol: cells.count(symbol) for symbol in "xon"}
        if counts["n"] != 1:
            raise ImpossiblePositionError(f"{text!r} has {counts['n']} neutrons; the game has one")
        for symbol in "xo":
            if counts[symbol] != cols:
                raise ImpossiblePositionError(
                    f"{text!r} has {counts[symbol]} {symbol} pieces; each side has {cols} "
                    "(nothing is ever captured)")
        at_start = turn == "x" and board == self._start_rows()
        if again and not at_start:
            raise ValueError(f"'again' in {text!r} marks the start's board with x to move, "
                             "reached later; this is another board")
        state = np.zeros(STATE_SIZE, np.int64)
        state[TURN] = "xo".index(turn)
        state[START] = at_start and not again
        for cell, symbol in enumerate(cells):
            if symbol != "-":
                state[(NEUTRON, XS, OS)["nxo".index(symbol)]] |= 1 << cell
        return state

    def format(self, state: np.ndarray) -> str:
        cells = [0] * (self.options["rows"] * self.options["cols"])
        for slot, code in ((XS, 1), (OS, 2), (NEUTRON, 3)):
            mask = int(state[slot])
            for cell in range(len(cells)):
                if mask >> cell & 1:
                    cells[cell] = code
        text = self.format_board("xo"[int(state[TURN])], cells, SYMBOLS)
        if not state[START] and text == self.default_start():
            return "(x again " + text[3:]
        return text

    def _slide_cells(self, state: np.ndarray, move: int) -> list[tuple[int, int]]:
        """The (from, to) cells of the move's slides, the neutron's first."""
        cols = self.options["cols"]
        step = step_table(self.options["rows"], cols)
        pd, p, nd = move % 8, (move // 8) % 65 - 1, move // (8 * 65) - 1
        occupied = int(state[NEUTRON] | state[XS] | state[OS])
        slides = []
        for source, direction in ((int(state[NEUTRON]).bit_length() - 1, nd), (p, pd)):
            if source < 0 or direction < 0:
                continue
            cell = source
            while step[cell, direction] >= 0 and not occupied >> int(step[cell, direction]) & 1:
                cell = int(step[cell, direction])
            occupied ^= (1 << source) ^ (1 << cell)
            slides.append((source, cell))
        return slides

    def move_name(self, state: np.ndarray, move: int) -> str:
        rows, cols = self.options["rows"], self.options["cols"]
        return ",".join("-".join(square_name(*divmod(cell, cols), rows) for cell in slide)
                        for slide in self._slide_cells(state, move))

    def move_sketch(self, state: np.ndarray, name: str) -> MoveSketch | None:
        """The piece's slide (the neutron's when it is the whole move)."""
        cols = self.options["cols"]
        for move in self.moves_of(state):
            if self.move_name(state, int(move)) == name:
                source, target = self._slide_cells(state, int(move))[-1]
                return MoveSketch(MOVE, (divmod(source, cols), divmod(target, cols)))
        return None


GAME = Neutron
