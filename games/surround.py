"""Surround: two worms grow from their heads, one cell up, down, left or right onto an
empty cell; the old head becomes body. A player who cannot grow on their turn loses.

Rules: docs/RULES.md, section "Surround".

Position ``(T row row ...)``: turn ``w``/``b``; cells ``w`` white head, ``o`` white
body, ``b`` black head, ``x`` black body, ``-`` empty. ``--wormholes`` wraps the board
at every edge.

Index: tier ``t`` holds the positions with ``t`` body cells (White moves first and
every move adds one body cell, so ``t`` fixes the turn). Within a tier: the body
cells (a combination), then the white head among the free cells, then the black head
among the rest. Who owns a body cell never matters for play, so the index does not
pay for it: positions that differ only in body colours share an index. When a
position is built from an index, body cells are coloured by which head they are
nearer to (a display choice; colours the user typed are kept everywhere else).

State vector: ``[turn, cells...]`` (turn 0 = white; cells in text order: 0 empty,
1 white head, 2 white body, 3 black head, 4 black body).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tiersolve.bits import copy_into, deposit_bits, lowest_bit, popcount
from tiersolve.errors import ImpossiblePositionError
from tiersolve.games.base import (
    MISERE, Game, GameFunctions, GameSpec, Option, board_cells, cols_option, no_move_value,
    rows_option, square_name,
)
from tiersolve.hashers.combinations import rank_subset, subset_count, unrank_subset
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit
from tiersolve.values import UNDECIDED

CELLS, IS_MISERE = 0, 1
EMPTY, WHITE_HEAD, WHITE_BODY, BLACK_HEAD, BLACK_BODY = 0, 1, 2, 3, 4
SYMBOLS = "-wobx"
DIRECTIONS = ("up", "down", "left", "right")
UNREACHED = 1 << 20


class SurroundData(NamedTuple):
    """What the kernels read (``Game.data``)."""

    params: np.ndarray      # [cells, misere]
    neighbours: np.ndarray  # [cell, up/down/left/right] -> cell (-1: off the board)
    through: np.ndarray     # [cell, direction] -> 1 if that step goes through a wormhole


@jit(forceinline=True)
def _heads_rank(free, white_head, black_head):
    """Rank of the (white head, black head) pair among the free cells."""
    free_cells = popcount(free)
    white_index = popcount(free & ((np.int64(1) << white_head) - 1))
    rest = free & ~(np.int64(1) << white_head)
    black_index = popcount(rest & ((np.int64(1) << black_head) - 1))
    return white_index * (free_cells - 1) + black_index


@jit(forceinline=True)
def _local(body, white_head, black_head, cells):
    free = ((np.int64(1) << cells) - 1) & ~body
    free_cells = popcount(free)
    return rank_subset(body) * free_cells * (free_cells - 1) + _heads_rank(free, white_head, black_head)


@jit(forceinline=True)
def _unrank(tier, local, cells):
    free_cells = cells - tier
    pairs = free_cells * (free_cells - 1)
    body = unrank_subset(local // pairs, tier, cells)
    rest = local % pairs
    free = ((np.int64(1) << cells) - 1) & ~body
    white_head = lowest_bit(deposit_bits(np.int64(1) << (rest // (free_cells - 1)), free))
    others = free & ~(np.int64(1) << white_head)
    black_head = lowest_bit(deposit_bits(np.int64(1) << (rest % (free_cells - 1)), others))
    return body, white_head, black_head


@jit
def expand(data, tier, local, out, state, child, moves):
    """Fast path on bit masks (the composition would colour bodies it never needs)."""
    params, neighbours, _ = data
    cells = params[CELLS]
    body, white_head, black_head = _unrank(tier, local, cells)
    white_moves = tier % 2 == 0
    head = white_head if white_moves else black_head
    occupied = body | (np.int64(1) << white_head) | (np.int64(1) << black_head)
    grown = body | (np.int64(1) << head)
    body_rank = rank_subset(grown)
    free = ((np.int64(1) << cells) - 1) & ~grown
    free_cells = cells - tier - 1
    count = 0
    for direction in range(4):
        target = neighbours[head, direction]
        if target < 0 or (occupied >> target) & 1:
            continue
        heads = _heads_rank(free, target, black_head) if white_moves \
            else _heads_rank(free, white_head, target)
        out[count, 0] = tier + 1
        out[count, 1] = body_rank * free_cells * (free_cells - 1) + heads
        out[count, 2] = 0
        out[count, 3] = direction
        count += 1
    if count == 0:
        return -np.int64(no_move_value(params[IS_MISERE]))
    return count


@jit
def encode(data, state):
    cells = data.params[CELLS]
    body = 0
    white_head = 0
    black_head = 0
    for c in range(cells):
        code = state[1 + c]
        if code == WHITE_BODY or code == BLACK_BODY:
            body |= np.int64(1) << c
        elif code == WHITE_HEAD:
            white_head = c
        elif code == BLACK_HEAD:
            black_head = c
    return popcount(body), _local(body, white_head, black_head, cells)


@jit
def _distances(neighbours, body, start, cells):
    """Steps from ``start`` to every body cell, moving through body cells only."""
    distance = np.full(cells, UNREACHED, np.int64)
    queue = np.empty(cells, np.int64)
    distance[start] = 0
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        cell = queue[head]
        head += 1
        for direction in range(4):
            target = neighbours[cell, direction]
            if target >= 0 and (body >> target) & 1 and distance[target] == UNREACHED:
                distance[target] = distance[cell] + 1
                queue[tail] = target
                tail += 1
    return distance


@jit
def decode(data, tier, local, state):
    params, neighbours, _ = data
    cells = params[CELLS]
    body, white_head, black_head = _unrank(tier, local, cells)
    state[0] = tier % 2
    state[1:] = EMPTY
    state[1 + white_head] = WHITE_HEAD
    state[1 + black_head] = BLACK_HEAD
    # Colour the body cells nearer (relatively) to the white head white, in the
    # numbers that alternating play gives: White has grown ceil(t/2) cells.
    from_white = _distances(neighbours, body, white_head, cells)
    from_black = _distances(neighbours, body, black_head, cells)
    body_cells = np.empty(tier, np.int64)
    keys = np.empty(tier, np.int64)
    k = 0
    for c in range(cells):
        if (body >> c) & 1:
            body_cells[k] = c
            keys[k] = from_white[c] - from_black[c]
            k += 1
    order = np.argsort(keys, kind="mergesort")
    for rank in range(tier):
        state[1 + body_cells[order[rank]]] = WHITE_BODY if rank < (tier + 1) // 2 else BLACK_BODY


@jit
def generate_moves(data, state, moves):
    """Move code = direction (0 up, 1 down, 2 left, 3 right)."""
    neighbours = data.neighbours
    head_code = WHITE_HEAD if state[0] == 0 else BLACK_HEAD
    head = 0
    for c in range(state.shape[0] - 1):
        if state[1 + c] == head_code:
            head = c
    count = 0
    for direction in range(4):
        target = neighbours[head, direction]
        if target >= 0 and state[1 + target] == EMPTY:
            moves[count] = direction
            count += 1
    return count


@jit
def do_move(data, state, move, child):
    neighbours = data.neighbours
    head_code = WHITE_HEAD if state[0] == 0 else BLACK_HEAD
    copy_into(child, state)
    for c in range(state.shape[0] - 1):
        if state[1 + c] == head_code:
            child[1 + c] = WHITE_BODY if state[0] == 0 else BLACK_BODY
            child[1 + neighbours[c, move]] = head_code
    child[0] = 1 - state[0]
    return 0


@jit
def primitive(data, state, move_count):
    return no_move_value(data.params[IS_MISERE]) if move_count == 0 else UNDECIDED


def neighbour_table(rows: int, cols: int, wrap: bool) -> tuple[np.ndarray, np.ndarray]:
    """Cell reached in each direction (up, down, left, right), -1 off the board; and
    whether that step goes through a wormhole.

    On a board 1 or 2 cells across with wormholes, two directions can reach the same
    cell; they are one move, kept under the direction that does not wrap (the first
    one if both do), and the other direction is marked -1."""
    cells = rows * cols
    targets = np.full((cells, 4), -1, dtype=np.int64)
    through = np.zeros((cells, 4), dtype=np.int64)
    for cell in range(cells):
        row, col = divmod(cell, cols)
        for direction, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
            r, c = row + dr, col + dc
            inside = 0 <= r < rows and 0 <= c < cols
            if inside or wrap:
                targets[cell, direction] = (r % rows) * cols + c % cols
                through[cell, direction] = not inside
        for direction in range(4):
            for other in range(4):
                same = other != direction and targets[cell, other] == targets[cell, direction] >= 0
                if same and (through[cell, other], other) < (through[cell, direction], direction):
                    targets[cell, direction] = -1
                    break
    return targets, through


#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "surround"


class Surround(Game):
    name = NAME
    title = "Surround"
    options_spec = (
        rows_option(3, minimum=2),
        cols_option(5, minimum=2),
        Option("wormholes", bool, False, "the board wraps around at every edge (a torus)"),
        MISERE,
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive, expand)
    state_fields = "turn (0 = white), then cells top row first (0 empty, 1 white head, " \
                   "2 white body, 3 black head, 4 black body)"

    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = (
        {"rows": 2, "cols": 3}, {"rows": 3, "cols": 3, "wormholes": True},
        {"rows": 2, "cols": 2, "wormholes": True},
    )
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = (
        {"rows": 3, "cols": 4}, {"rows": 3, "cols": 4, "wormholes": True, "misere": True},
    )
    #: The other options, half a minute each: pytest -m slow.
    slow_reference_boards = ({"rows": 3, "cols": 4, "wormholes": True},
                             {"rows": 3, "cols": 4, "misere": True})

    def build(self) -> GameSpec:
        rows, cols = self.options["rows"], self.options["cols"]
        cells = board_cells(rows, cols)
        sizes = [int(subset_count(cells, t)) * (cells - t) * (cells - t - 1) for t in range(cells - 1)]
        tiers = TierLayout(keys=[(t,) for t in range(cells - 1)], sizes=sizes)
        targets, through = neighbour_table(rows, cols, self.options["wormholes"])
        data = SurroundData(params=np.array([cells, self.options["misere"]], dtype=np.int64),
                           neighbours=targets, through=through)
        return GameSpec(
            tiers=tiers, data=data, state_size=1 + cells, max_moves=4, loopy=False,
            remoteness_bound=cells - 2,
            hasher={"name": "combinations+heads", "tiers": "body cells t",
                    "within tier": "body subset, white head among free cells, black head among "
                                   "the rest", "cells": cells})

    def tier_children(self, tier: int) -> set[int]:
        return {tier + 1} if tier + 1 < self.tiers.count else set()

    def default_start(self) -> str:
        rows, cols = self.options["rows"], self.options["cols"]
        board = [["-"] * cols for _ in range(rows)]
        board[0][1] = "w"
        board[1][cols - 1] = "b"
        return "(w " + " ".join("".join(row) for row in board) + ")"

    def parse(self, text: str) -> np.ndarray:
        turn, cells = self.parse_board(text, "wb", SYMBOLS)
        for code, colour in ((WHITE_HEAD, "white"), (BLACK_HEAD, "black")):
            heads = cells.count(code)
            if heads != 1:
                    raise ImpossiblePositionError(f"{text!r} has {heads} {colour} head{'s' if heads != 1 else ''} ({SYMBOLS[code]}); a "
                                     "position has exactly one of each")
        white_body, black_body = cells.count(WHITE_BODY), cells.count(BLACK_BODY)
        if white_body not in (black_body, black_body + 1):
            raise ImpossiblePositionError(f"in {text!r} White has grown {white_body} cells (o) and Black "
                                 f"{black_body} (x); they alternate starting with White")
        expected = "w" if white_body == black_body else "b"
        if "wb"[turn] != expected:
            raise ImpossiblePositionError(f"in {text!r} it must be {'White' if expected == 'w' else 'Black'}'s "
                                 f"turn: White has grown {white_body} cells and Black {black_body}")
        return np.array([0 if expected == "w" else 1, *cells], dtype=np.int64)

    def format(self, state: np.ndarray) -> str:
        """The position's text. Body colours are printed as given, unless they cannot
        arise in play (a state decoded from an index, which stores no colours, may be
        coloured so): then as a colouring that play reaches, if there is one.

        >>> game = GAME(rows=2, cols=3)
        >>> game.format(game.parse("(w xbx owo)"))   # black body a1 is off its worm
        '(w obx owx)'
        """
        if self.unreachable_reason(state) is not None:
            state = self._reachable_colouring(state)
        return self.format_board("wb"[state[0]], state[1:], SYMBOLS)

    def _reachable_colouring(self, state: np.ndarray) -> np.ndarray:
        """The state with its body cells recoloured into two worms that play can grow
        (White's with as many cells as Black's or one more), or unchanged if none."""
        cells = state[1:]
        body = set(np.flatnonzero((cells == WHITE_BODY) | (cells == BLACK_BODY)).tolist())
        white_head = int(np.flatnonzero(cells == WHITE_HEAD)[0])
        black_head = int(np.flatnonzero(cells == BLACK_HEAD)[0])
        targets = self.data.neighbours
        white_cells = (len(body) + 1) // 2

        def grow(path: list[int]) -> list[int] | None:
            """A white worm ending at the white head (``path`` from the head back),
            leaving a black worm of the other body cells."""
            if len(path) == white_cells + 1:
                    rest = body - set(path)
                    return path if _path_from(black_head, rest | {black_head}, targets) else None
            for target in targets[path[-1]]:
                    if int(target) in body and int(target) not in path:
                        found = grow(path + [int(target)])
                        if found is not None:
                            return found
            return None

        white = grow([white_head])
        if white is None:
            return state
        recoloured = state.copy()
        for cell in body:
            recoloured[1 + cell] = WHITE_BODY if cell in white else BLACK_BODY
        return recoloured

    def unreachable_reason(self, state: np.ndarray) -> str | None:
        """A worm grows one cell at a time from its head, so its body cells and head
        form a path that ends at the head; a body cell off that path cannot arise.

        >>> game = GAME(rows=3, cols=4)
        >>> game.unreachable_reason(game.parse("(b -w-- o--b ----)"))
        "White's body and head (a2, b3) do not form a path ending at the head"
        >>> game.unreachable_reason(game.parse("(b ow-- ---b ----)")) is None
        True
        """
        cells = state[1:]
        targets = self.data.neighbours
        rows = self.options["rows"]
        cols = self.options["cols"]
        for head_code, body_code, colour in ((WHITE_HEAD, WHITE_BODY, "White"),
                                                 (BLACK_HEAD, BLACK_BODY, "Black")):
            worm = set(np.flatnonzero((cells == head_code) | (cells == body_code)).tolist())
            head = int(np.flatnonzero(cells == head_code)[0])
            if not _path_from(head, worm, targets):
                    names = ", ".join(square_name(c // cols, c % cols, rows) for c in sorted(
                        worm, key=lambda c: (c % cols, -(c // cols))))
                    return f"{colour}'s body and head ({names}) do not form a path ending at the head"
        return None

    def move_name(self, state: np.ndarray, move: int) -> str:
        head = int(np.flatnonzero(state[1:] == (WHITE_HEAD if state[0] == 0 else BLACK_HEAD))[0])
        wormhole = self.data.through[head, move]
        return DIRECTIONS[move] + (" through the wormhole" if wormhole else "")


def _path_from(cell: int, worm: set[int], targets: np.ndarray) -> bool:
    """Whether a path from ``cell`` through neighbouring cells visits all of ``worm``
    exactly once (a worm is short and thin, so backtracking is quick)."""
    left = worm - {cell}
    if not left:
        return True
    for target in targets[cell]:
        if int(target) in left:
            if _path_from(int(target), left, targets):
                    return True
    return False


GAME = Surround
