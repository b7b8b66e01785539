"""Konane: jump one of your pieces over an adjacent opponent piece onto the empty cell
behind it, removing the jumped piece. A piece that can jump again earns a go-again
turn (jump again or pass). A player with no legal move loses.

Rules: docs/RULES.md, section "Konane".

Position ``(T L row row ...)``: turn ``w``/``b``; ``L`` is ``""`` or the cell where T
just landed on a go-again turn; cells ``w``, ``b``, ``-``. The board is a
checkerboard with ``a1`` white, so a cell only ever holds its own colour: a board is
just the set of occupied cells. ``--goagain-any``: on a go-again turn any piece may
jump, and the go-again turn exists whenever the player has any jump.
``--symmetry`` stores one position per class under the mirrors and turns of the
board (eight on a square board, four otherwise). A symmetry that maps white cells
to black ones also swaps the players: both have the same moves, so a position and
its colour-swapped image with the other player to move have the same value.

Index: tier ``2p`` holds the ordinary positions with ``p`` pieces (the occupied set,
a combination, and the turn); tier ``2p + 1`` the go-again positions (the occupied set
and the landing cell among the occupied cells, whose colour is the turn). A jump
removes a piece, a pass leaves a go-again tier for the ordinary tier of the same
board, so every move leads to a tier solved earlier. Under ``--symmetry`` a class is
stored at its highest index (``hashers.symmetry``).

State vector: ``[turn, L, cells...]`` (turn 0 = white; L = -1 or a cell number in text
order; cells in text order: 0 empty, 1 white, 2 black).
"""

from __future__ import annotations

from functools import cached_property
from typing import NamedTuple

import numpy as np

from tiersolve.bits import copy_into, deposit_bits, lowest_bit, permutation_tables, permute, popcount
from tiersolve.errors import ImpossiblePositionError
from tiersolve.games.base import (
    MISERE, Game, GameFunctions, GameSpec, Option, board_cells, cols_option, no_move_value,
    parse_square, rows_option, square_name,
)
from tiersolve.hashers.combinations import rank_subset, subset_count, unrank_subset
from tiersolve.hashers.symmetry import grid_symmetries
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit
from tiersolve.values import ILLEGAL, NONCANONICAL, UNDECIDED

CELLS, GOAGAIN_ANY, IS_MISERE, SYMMETRIES = 0, 1, 2, 3
EMPTY, WHITE, BLACK = 0, 1, 2
PASS = -1
SYMBOLS = "-wb"
DIRECTIONS = ("up", "down", "left", "right")


class KonaneData(NamedTuple):
    """What the kernels read (``Game.data``)."""

    params: np.ndarray           # [cells, go-again any, misere, symmetries]
    colour: np.ndarray           # [white cells mask, black cells mask]
    over: np.ndarray             # [cell, up/down/left/right] -> the cell jumped over (-1: off the board)
    land: np.ndarray             # [cell, up/down/left/right] -> the landing cell (-1: off the board)
    symmetry_tables: np.ndarray  # tiersolve.bits.permutation_tables of the symmetries
    swaps_colour: np.ndarray     # [symmetry] -> 1 if it maps white cells to black ones


@jit(forceinline=True)
def _ordinary_index(data, occupied, turn):
    """Local index of a board with ``turn`` to move in its ordinary tier: under
    ``--symmetry`` the highest among its images (a colour-swapping image has the other
    player to move)."""
    best = 2 * rank_subset(occupied) + turn
    for which in range(data.params[SYMMETRIES]):
        image = 2 * rank_subset(permute(occupied, data.symmetry_tables, which)) + \
            (turn ^ data.swaps_colour[which])
        best = max(best, image)
    return best


@jit(forceinline=True)
def _goagain_index(data, occupied, landed, pieces):
    """Local index of a go-again position (board, landing cell) in its tier; under
    ``--symmetry`` the highest among its images."""
    best = pieces * rank_subset(occupied) + popcount(occupied & ((np.int64(1) << landed) - 1))
    for which in range(data.params[SYMMETRIES]):
        board = permute(occupied, data.symmetry_tables, which)
        cell = lowest_bit(permute(np.int64(1) << landed, data.symmetry_tables, which))
        best = max(best, pieces * rank_subset(board) + popcount(board & ((np.int64(1) << cell) - 1)))
    return best


@jit(forceinline=True)
def _can_jump(occupied, cell, over, land):
    for direction in range(4):
        target = land[cell, direction]
        if target >= 0 and (occupied >> over[cell, direction]) & 1 and not (occupied >> target) & 1:
            return True
    return False


@jit(forceinline=True)
def _has_jump(occupied, pieces, over, land):
    while pieces:
        cell = lowest_bit(pieces)
        if _can_jump(occupied, cell, over, land):
            return True
        pieces &= pieces - 1
    return False


@jit(forceinline=True)
def _masks(data, state):
    """(occupied cells, the mover's pieces)."""
    params, colour = data.params, data.colour
    occupied = 0
    for c in range(params[CELLS]):
        if state[2 + c] != EMPTY:
            occupied |= np.int64(1) << c
    return occupied, occupied & colour[state[0]]


@jit
def generate_moves(data, state, moves):
    """Move code = cell * 4 + direction for a jump, PASS (-1) for passing."""
    params, over, land = data.params, data.over, data.land
    occupied, mine = _masks(data, state)
    landed = state[1]
    if landed >= 0 and not params[GOAGAIN_ANY]:
        mine &= np.int64(1) << landed
    count = 0
    while mine:
        cell = lowest_bit(mine)
        mine &= mine - 1
        for direction in range(4):
            target = land[cell, direction]
            if target >= 0 and (occupied >> over[cell, direction]) & 1 and not (occupied >> target) & 1:
                moves[count] = cell * 4 + direction
                count += 1
    if landed >= 0:
        moves[count] = PASS
        count += 1
    return count


@jit
def do_move(data, state, move, child):
    params, over, land = data.params, data.over, data.land
    copy_into(child, state)
    if move == PASS:
        child[0] = 1 - state[0]
        child[1] = -1
        return 0
    cell, direction = move // 4, move % 4
    target = land[cell, direction]
    child[2 + cell] = EMPTY
    child[2 + over[cell, direction]] = EMPTY
    child[2 + target] = state[2 + cell]
    occupied, mine = _masks(data, child)
    again = _has_jump(occupied, mine, over, land) if params[GOAGAIN_ANY] \
        else _can_jump(occupied, target, over, land)
    if again:
        child[1] = target
        return 1
    child[0] = 1 - state[0]
    child[1] = -1
    return 0


@jit
def primitive(data, state, move_count):
    params, over, land = data.params, data.over, data.land
    if state[1] >= 0:  # a go-again turn exists only if a jump is possible
        occupied, mine = _masks(data, state)
        possible = _has_jump(occupied, mine, over, land) if params[GOAGAIN_ANY] \
            else _can_jump(occupied, state[1], over, land)
        return UNDECIDED if possible else ILLEGAL
    return no_move_value(params[IS_MISERE]) if move_count == 0 else UNDECIDED


@jit
def encode(data, state):
    occupied, _ = _masks(data, state)
    pieces = popcount(occupied)
    if state[1] < 0:
        return 2 * pieces, _ordinary_index(data, occupied, state[0])
    return 2 * pieces + 1, _goagain_index(data, occupied, state[1], pieces)


@jit
def decode(data, tier, local, state):
    params, colour = data.params, data.colour
    cells = params[CELLS]
    pieces = tier // 2
    if tier % 2 == 0:
        occupied = unrank_subset(local // 2, pieces, cells)
        state[0] = local % 2
        state[1] = -1
    else:
        occupied = unrank_subset(local // pieces, pieces, cells)
        landed = lowest_bit(deposit_bits(np.int64(1) << (local % pieces), occupied))
        state[0] = 0 if (colour[0] >> landed) & 1 else 1
        state[1] = landed
    for c in range(cells):
        if (occupied >> c) & 1:
            state[2 + c] = WHITE if (colour[0] >> c) & 1 else BLACK
        else:
            state[2 + c] = EMPTY


@jit
def expand(data, tier, local, out, state, child, moves):
    """Fast path on bit masks: the same moves, in the same order, as the composition
    of decode, generate_moves, do_move, primitive and encode, without state vectors."""
    params, colour, over, land = data.params, data.colour, data.over, data.land
    cells = params[CELLS]
    pieces = tier // 2
    if tier % 2 == 0:
        occupied = unrank_subset(local // 2, pieces, cells)
        turn = local % 2
        landed = -1
        if params[SYMMETRIES] and _ordinary_index(data, occupied, turn) != local:
            return -np.int64(NONCANONICAL)
    else:
        occupied = unrank_subset(local // pieces, pieces, cells)
        landed = lowest_bit(deposit_bits(np.int64(1) << (local % pieces), occupied))
        turn = 0 if (colour[0] >> landed) & 1 else 1
        if params[SYMMETRIES] and _goagain_index(data, occupied, landed, pieces) != local:
            return -np.int64(NONCANONICAL)
    mine = occupied & colour[turn]
    if landed >= 0:  # a go-again turn exists only if a jump is possible
        possible = _has_jump(occupied, mine, over, land) if params[GOAGAIN_ANY] \
            else _can_jump(occupied, landed, over, land)
        if not possible:
            return 0  # ILLEGAL
    movers = mine if landed < 0 or params[GOAGAIN_ANY] else np.int64(1) << landed
    count = 0
    while movers:
        cell = lowest_bit(movers)
        movers &= movers - 1
        for direction in range(4):
            target = land[cell, direction]
            if target < 0 or not (occupied >> over[cell, direction]) & 1 or (occupied >> target) & 1:
                continue
            after = (occupied & ~(np.int64(1) << cell) & ~(np.int64(1) << over[cell, direction])) \
                | (np.int64(1) << target)
            again = _has_jump(after, after & colour[turn], over, land) if params[GOAGAIN_ANY] \
                else _can_jump(after, target, over, land)
            if again:
                out[count, 0] = 2 * (pieces - 1) + 1
                out[count, 1] = _goagain_index(data, after, target, pieces - 1)
                out[count, 2] = 1
            else:
                out[count, 0] = 2 * (pieces - 1)
                out[count, 1] = _ordinary_index(data, after, 1 - turn)
                out[count, 2] = 0
            out[count, 3] = cell * 4 + direction
            count += 1
    if landed >= 0:
        out[count, 0] = 2 * pieces
        out[count, 1] = _ordinary_index(data, occupied, 1 - turn)
        out[count, 2] = 0
        out[count, 3] = PASS
        count += 1
    if count == 0:
        return -no_move_value(params[IS_MISERE])
    return count


def jump_tables(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Colour masks (white cells, black cells) and, per cell and direction, the cell
    jumped over and the landing cell (-1 off the board)."""
    cells = rows * cols
    white = sum(1 << c for c in range(cells) if ((rows - 1 - c // cols) + c % cols) % 2 == 0)
    colour = np.array([white, ((1 << cells) - 1) & ~white], dtype=np.int64)
    over = np.full((cells, 4), -1, dtype=np.int64)
    land = np.full((cells, 4), -1, dtype=np.int64)
    for cell in range(cells):
        row, col = divmod(cell, cols)
        for direction, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
            if 0 <= row + 2 * dr < rows and 0 <= col + 2 * dc < cols:
                over[cell, direction] = (row + dr) * cols + col + dc
                land[cell, direction] = (row + 2 * dr) * cols + col + 2 * dc
    return colour, over, land


#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "konane"


class Konane(Game):
    name = NAME
    title = "Konane"
    options_spec = (
        rows_option(3),
        cols_option(4, minimum=2),
        Option("goagain_any", bool, False,
               "on a go-again turn any piece may jump (and the turn exists whenever one can)"),
        MISERE,
        Option("symmetry", bool, False,
               "store one position per class of mirror images and rotations of the board "
               "(those that swap the colours also swap the players)"),
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive, expand)
    state_fields = "turn (0 = white), go-again cell (-1 none; cell numbers in text order), " \
                   "then cells top row first (0 empty, 1 white, 2 black)"

    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = (
        {"rows": 2, "cols": 3}, {"rows": 3, "cols": 3, "goagain_any": True, "symmetry": True},
        {"rows": 3, "cols": 4, "symmetry": True},
    )
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = (
        {"rows": 3, "cols": 4}, {"rows": 3, "cols": 4, "goagain_any": True},
        {"rows": 3, "cols": 4, "misere": True}, {"rows": 4, "cols": 4},
        {"rows": 3, "cols": 4, "symmetry": True},
        {"rows": 4, "cols": 4, "misere": True, "symmetry": True},
    )
    #: Another jump rule on the larger board, half a minute: pytest -m slow.
    slow_reference_boards = ({"rows": 4, "cols": 4, "goagain_any": True},)

    def build(self) -> GameSpec:
        rows, cols = self.options["rows"], self.options["cols"]
        cells = board_cells(rows, cols)
        keys, sizes = [], []
        for pieces in range(cells + 1):
            boards = int(subset_count(cells, pieces))
            keys += [(pieces, 0), (pieces, 1)]
            sizes += [2 * boards, pieces * boards]
        tiers = TierLayout(keys=keys, sizes=sizes)
        colour, over, land = jump_tables(rows, cols)
        symmetries = grid_symmetries(rows, cols, mirror_up_down=True, transpose=True) \
            if self.options["symmetry"] else []
        white = int(colour[0])
        swaps = [int(any(((white >> c) & 1) != ((white >> image) & 1) for c, image in enumerate(p)))
                 for p in symmetries]
        data = KonaneData(
            params=np.array([cells, self.options["goagain_any"], self.options["misere"],
                             len(symmetries)], dtype=np.int64),
            colour=colour, over=over, land=land,
            symmetry_tables=permutation_tables(symmetries, cells),
            swaps_colour=np.array(swaps or [0], dtype=np.int64))
        return GameSpec(
            tiers=tiers, data=data, state_size=2 + cells, max_moves=4 * cells + 1, loopy=False,
            remoteness_bound=2 * cells,
            hasher={"name": "combinations+turn|landing-cell",
                    "tiers": "(pieces p, go-again g): g=0 occupied set and turn, g=1 occupied "
                             "set and the landing cell among the p occupied cells",
                    "cells": cells, "symmetries": len(symmetries) + 1})

    def tier_children(self, tier: int) -> set[int]:
        pieces, goagain = divmod(tier, 2)
        children = {2 * (pieces - 1), 2 * (pieces - 1) + 1} if pieces > 0 else set()
        return children | ({2 * pieces} if goagain else set())

    def _cell_is_white(self, cell: int) -> bool:
        rows, cols = self.options["rows"], self.options["cols"]
        return ((rows - 1 - cell // cols) + cell % cols) % 2 == 0

    @cached_property
    def _cell_colours(self) -> str:
        """``w`` or ``b`` for each cell in text order: the colour of the piece it may hold."""
        return "".join("w" if self._cell_is_white(c) else "b"
                       for c in range(self.options["rows"] * self.options["cols"]))

    def default_start(self) -> str:
        rows, cols = self.options["rows"], self.options["cols"]
        if (rows, cols) == (3, 4):
            return '(w "" wbwb bwb- w-wb)'
        cells = list(self._cell_colours)
        cells[(rows - 1) * cols] = cells[(rows - 1) * cols + 1] = "-"  # a1 and b1
        return '(w "" ' + " ".join("".join(cells[r * cols:(r + 1) * cols]) for r in range(rows)) + ")"

    def _square_name(self, cell: int) -> str:
        return square_name(cell // self.options["cols"], cell % self.options["cols"], self.options["rows"])

    def parse(self, text: str) -> np.ndarray:
        rows, cols = self.options["rows"], self.options["cols"]
        turn, *words = self.split_position(text)
        if turn not in ("w", "b"):
            raise ValueError(f"the turn in {text!r} must be w or b, got {turn!r}")
        if not words:
            raise ValueError(f'{text!r} lacks the go-again cell ("" or a cell like d1)')
        landed_word, *board = words
        self.check_rows(board, text, SYMBOLS)
        mover = 0 if turn == "w" else 1
        symbols = "".join(board)
        for c, (symbol, own) in enumerate(zip(symbols, self._cell_colours)):
            if symbol != "-" and symbol != own:
                    raise ValueError(f"{text!r} has {symbol} on {self._square_name(c)}, a "
                                     f"{'white' if own == 'w' else 'black'} cell: a cell holds "
                                     "only its own colour or is empty")
        cells = [SYMBOLS.index(symbol) for symbol in symbols]
        landed = -1
        if landed_word != '""':
            try:
                    row, col = parse_square(landed_word, rows, cols)
            except ValueError as error:
                    raise ValueError(f'the go-again cell in {text!r} must be "" or a cell: {error}') from None
            landed = row * cols + col
            owner = WHITE if mover == 0 else BLACK
            if cells[landed] != owner:
                    raise ValueError(f"in {text!r} {'White' if mover == 0 else 'Black'} goes again "
                                     f"from {landed_word}, which holds no {'white' if mover == 0 else 'black'} piece")
        state = np.array([mover, landed, *cells], dtype=np.int64)
        if landed >= 0 and self.primitive_value(state) == ILLEGAL:
            raise ImpossiblePositionError(f"{text!r} cannot arise: {self.explain_illegal(state)}")
        return state

    def explain_illegal(self, state: np.ndarray) -> str:
        if self.options["goagain_any"]:
            return "a go-again turn only exists when the player has a jump, and here none is left"
        return (f"a go-again turn only exists when the piece that landed on "
                    f"{self._square_name(int(state[1]))} can jump again, and it cannot")

    def format(self, state: np.ndarray) -> str:
        landed = '""' if state[1] < 0 else self._square_name(int(state[1]))
        return self.format_board(f"{'wb'[state[0]]} {landed}", state[2:], SYMBOLS)

    def move_name(self, state: np.ndarray, move: int) -> str:
        if move == PASS:
            return "pass"
        cell, direction = divmod(move, 4)
        target = int(self.data.land[cell, direction])
        return f"{self._square_name(cell)} {DIRECTIONS[direction]} to {self._square_name(target)}"


GAME = Konane
