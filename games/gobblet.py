"""Gobblet Gobblers: tic-tac-toe with pieces of three sizes, where a larger piece
may cover a smaller one and pieces on top may move; three visible tops of one
colour in a line win.

Rules: docs/RULES.md, section "Gobblet Gobblers" (GamesmanOne's, exactly).

Position ``(x ---/---/--- ---/---/--- ---/---/---)`` (the start): the player to
move, then the rows from the top, each three cells separated by ``/``; a cell is one character a size, smallest first, ``x``, ``o`` or ``-``
(``x-o``: a small x under a large o). Reserves are the pieces not on the board.
A placement is named ``S*b2`` (size letter, ``*``, square), a move of a top piece
``a1-b2``. ``--pieces K`` (pieces of each size a player has, 2) and ``--sizes N``
(the N smallest sizes take part, 3) make smaller games.

Index (``hashers/layers.py``): a size is a layer, a two-colour board whose colours
are the player to move's pieces and the other's (the rules treat x and o alike),
hashed layer by layer, largest first, up to the square's 8 symmetries with no gaps.
Reserves only go down, so they make the tiers: a tier holds the positions whose two
reserves are {a, b}, as a block with the mover holding a and, if a != b, one with
the mover holding b. A placement leads to a tier with one reserve piece fewer; a
move on the board keeps the reserves and swaps who moves, so it stays in the tier
and may cycle: every tier but the start's is LOOPY, solved with un-moves (the
player who just moved takes a top piece back to where it fits). Tiers and blocks
that no game reaches, where the player who moved last has no piece on the board or
the player to move has placed none while the other has placed two, are left out.

State vector: ``[turn, then for each cell in text order, for each size smallest
first: 0 empty, 1 x, 2 o]``. ``decode`` gives x to move.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np

from tiersolve.bits import (
    copy_into, full_mask, lowest_bit, permutation_tables, permute, popcount, sort_unique,
)
from tiersolve.contract import CHILD_INDEX, CHILD_MOVE, CHILD_SAME_MOVER, CHILD_TIER
from tiersolve.errors import ImpossiblePositionError, OtherBoardError
from tiersolve.games.base import (
    MOVE, Game, GameFunctions, GameSpec, MoveSketch, Option, hand_cell, parse_square, square_name,
)
from tiersolve.games.quixo import has_line, line_masks  # the 3x3 board's 8 lines
from tiersolve.hashers.layers import (
    LayerSpace, decode_layers, encode_layers, layer_board, layer_code,
)
from tiersolve.hashers.symmetry import grid_symmetries
from tiersolve.jit import jit
from tiersolve.values import ILLEGAL, LOSE, UNDECIDED, WIN

#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "gobblet"

SIDE = 3
CELLS = SIDE * SIDE
EMPTY, X, O = 0, 1, 2
SYMBOLS = "-xo"
SIZE_LETTERS = "SML"
SIZE_NAMES = ("small", "medium", "large")
#: Drawing: a piece's radius by size (in squares), and each colour's fill.
PIECE_RADII = (0.2, 0.3, 0.4)
PIECE_COLOURS = {"x": "#3a3a3a", "o": "#2f6fbf"}  # apart from the moves' green, yellow, red
PIECES, SIZES = 0, 1  # the fields of ``params``
#: A placement's move code is size * CELLS + cell (below MOVE_BASE); a move of a
#: top piece's is MOVE_BASE + (size * CELLS + from) * CELLS + to.
MOVE_BASE = 32


class GobbletData(NamedTuple):
    """``layers``: the index (``LayerSpace.table``; layer l holds size SIZES-1-l);
    ``params``: [pieces of each size, sizes]; ``lines``: the masks of the 8 lines;
    ``symmetries``: the 7 symmetries of the square other than the identity
    (``tiersolve.bits.permutation_tables``)."""

    layers: np.ndarray
    params: np.ndarray
    lines: np.ndarray
    symmetries: np.ndarray


# The pieces of a position travel as one int64 array ``masks``: masks[l] the player
# to move's cells in layer l (size SIZES-1-l, largest first), masks[L + l] the
# other's (L layers). ``side`` 0 reads them as they are, 1 from the other's side.


@jit(forceinline=True)
def outcome(data, masks):
    """The value for the player to move: ILLEGAL where no game reaches (the player who
    moved last has no piece on the board, or the one to move has placed none while the
    other has placed two); else a line of the mover's tops WIN, even if the other shows
    one too (GamesmanOne's rule: lifting a piece that uncovers the opponent's line
    loses); else a line of the other's LOSE; else UNDECIDED."""
    layers = data.params[SIZES]
    mover_placed = 0
    other_placed = 0
    mover_tops = 0
    other_tops = 0
    covered = 0
    for layer in range(layers):
        mine, theirs = masks[layer], masks[layers + layer]
        mover_placed += popcount(mine)
        other_placed += popcount(theirs)
        mover_tops |= mine & ~covered
        other_tops |= theirs & ~covered
        covered |= mine | theirs
    if (other_placed == 0 and mover_placed > 0) or (mover_placed == 0 and other_placed > 1):
        return ILLEGAL
    if has_line(data.lines, mover_tops):
        return WIN
    if has_line(data.lines, other_tops):
        return LOSE
    return UNDECIDED


@jit(forceinline=True)
def list_moves(data, masks, side, moves, placements):
    """The move codes of the player on ``side`` (0: the player to move) into
    ``moves``; returns how many. Placements (if ``placements``): a reserve piece on a
    cell whose top is smaller (or empty). Moves: a top piece to another cell whose top
    is smaller. The other side's moves, without placements, are also the un-moves of
    its last move (a top piece back to a cell where it fits)."""
    layers = data.params[SIZES]
    pieces = data.params[PIECES]
    board = full_mask(CELLS)
    count = 0
    covered = 0  # cells holding a piece of a larger size
    for layer in range(layers):
        size = layers - 1 - layer
        mine = masks[side * layers + layer]
        occupied = covered | masks[layer] | masks[layers + layer]
        fits = board & ~occupied  # where a piece of this size may go
        if placements and popcount(mine) < pieces:
            rest = fits
            while rest:
                cell = lowest_bit(rest)
                rest &= rest - 1
                moves[count] = size * CELLS + cell
                count += 1
        tops = mine & ~covered
        while tops:
            source = lowest_bit(tops)
            tops &= tops - 1
            rest = fits
            while rest:
                cell = lowest_bit(rest)
                rest &= rest - 1
                moves[count] = MOVE_BASE + (size * CELLS + source) * CELLS + cell
                count += 1
        covered = occupied
    return count


@jit(forceinline=True)
def move_change(layers, move):
    """(layer, the cells of that layer a move flips in its player's mask)."""
    if move < MOVE_BASE:
        return layers - 1 - move // CELLS, np.int64(1) << (move % CELLS)
    rest = move - MOVE_BASE
    cells = (np.int64(1) << (rest % CELLS)) | (np.int64(1) << ((rest // CELLS) % CELLS))
    return layers - 1 - rest // (CELLS * CELLS), cells


@jit(forceinline=True)
def state_masks(layers, state, masks):
    """``masks`` of a state vector."""
    mine = X if state[0] == 0 else O
    for layer in range(layers):
        size = layers - 1 - layer
        masks[layer] = 0
        masks[layers + layer] = 0
        for cell in range(CELLS):
            code = state[1 + cell * layers + size]
            if code == mine:
                masks[layer] |= np.int64(1) << cell
            elif code != EMPTY:
                masks[layers + layer] |= np.int64(1) << cell


@jit(forceinline=True)
def decode_masks(data, tier, local, masks, codes):
    """``masks`` of (tier, local) (``codes``: scratch of a layer each)."""
    layers = data.params[SIZES]
    decode_layers(data.layers, tier, local, codes)
    for layer in range(layers):
        masks[layer], masks[layers + layer] = layer_board(data.layers, codes[layer])


@jit
def decode(data, tier, local, state):
    layers = data.params[SIZES]
    masks, codes = np.zeros(2 * layers, np.int64), np.zeros(layers, np.int64)
    decode_masks(data, tier, local, masks, codes)
    state[0] = 0  # x to move: x holds the mover's pieces
    for layer in range(layers):
        size = layers - 1 - layer
        for cell in range(CELLS):
            at = 1 + cell * layers + size
            state[at] = X if (masks[layer] >> cell) & 1 else \
                O if (masks[layers + layer] >> cell) & 1 else EMPTY


@jit
def encode(data, state):
    layers = data.params[SIZES]
    masks, codes = np.zeros(2 * layers, np.int64), np.zeros(layers, np.int64)
    state_masks(layers, state, masks)
    for layer in range(layers):
        codes[layer] = layer_code(data.layers, masks[layer], masks[layers + layer])
    return encode_layers(data.layers, codes)


@jit
def generate_moves(data, state, moves):
    masks = np.zeros(2 * data.params[SIZES], np.int64)
    state_masks(data.params[SIZES], state, masks)
    return list_moves(data, masks, 0, moves, True)


@jit
def do_move(data, state, move, child):
    layers = data.params[SIZES]
    copy_into(child, state)
    child[0] = 1 - state[0]
    colour = X if state[0] == 0 else O
    layer, cells = move_change(layers, move)
    size = layers - 1 - layer
    while cells:
        cell = lowest_bit(cells)
        cells &= cells - 1
        at = 1 + cell * layers + size
        child[at] = EMPTY if state[at] == colour else colour
    return 0


@jit
def primitive(data, state, move_count):
    masks = np.zeros(2 * data.params[SIZES], np.int64)
    state_masks(data.params[SIZES], state, masks)
    return outcome(data, masks)


@jit(forceinline=True)
def _other_views(data, masks):
    """masks[2L + l] = the code of layer l seen from the other side (its "black"
    cells the other's): every child's and every parent's layers but the one a move
    changes."""
    layers = data.params[SIZES]
    for layer in range(layers):
        masks[2 * layers + layer] = layer_code(data.layers, masks[layers + layer], masks[layer])


@jit(forceinline=True)
def _encode_changed(data, masks, codes, layer, black, white):
    """(tier, local) of the position seen from the other side whose layers are those
    of ``_other_views`` but ``layer``, which holds (black, white); ``codes`` is
    scratch of a layer each."""
    layers = data.params[SIZES]
    for other_layer in range(layers):
        codes[other_layer] = masks[2 * layers + other_layer]
    codes[layer] = layer_code(data.layers, black, white)
    return encode_layers(data.layers, codes)


@jit
def expand(data, tier, local, out, state, child, moves):
    # scratch: ``state`` holds the masks and the other side's views, ``child`` codes
    layers = data.params[SIZES]
    decode_masks(data, tier, local, state, child)
    value = outcome(data, state)
    if value == ILLEGAL:
        return 0
    if value != UNDECIDED:
        return -np.int64(value)
    _other_views(data, state)
    count = list_moves(data, state, 0, moves, True)
    for k in range(count):
        layer, cells = move_change(layers, moves[k])
        out[k, CHILD_TIER], out[k, CHILD_INDEX] = _encode_changed(
            data, state, child, layer, state[layers + layer], state[layer] ^ cells)
        out[k, CHILD_SAME_MOVER] = 0
        out[k, CHILD_MOVE] = moves[k]
    return count


@jit(forceinline=True)
def _moves_may_meet(data, masks):
    """Whether two moves of the player to move's pieces on the board may lead to
    mirror images of one position: only if a symmetry keeps every layer of the other
    player's pieces and moves at most four of the mover's (two moves change two cells
    each: c1 = g(c2) means P xor g(P) = D1 xor g(D2))."""
    layers = data.params[SIZES]
    for g in range(data.symmetries.shape[0]):
        moved = 0
        for layer in range(layers):
            theirs = masks[layers + layer]
            if permute(theirs, data.symmetries, g) != theirs:
                moved = 5
                break
            mine = masks[layer]
            moved += popcount(permute(mine, data.symmetries, g) ^ mine)
        if moved <= 4:
            return True
    return False


@jit
def expand_leaving(data, tier, local, out, state, child, moves):
    """``expand`` with the placements only (they leave the tier); the moves on the
    board, which stay, are counted: each leads to a different position unless a
    symmetry nearly keeps this one (``_moves_may_meet``), and then they are encoded
    and the distinct ones counted."""
    layers = data.params[SIZES]
    decode_masks(data, tier, local, state, child)
    value = outcome(data, state)
    if value == ILLEGAL:
        return np.int64(0), np.int64(-1)
    if value != UNDECIDED:
        return -np.int64(value), np.int64(-1)
    _other_views(data, state)
    count = list_moves(data, state, 0, moves, True)
    meeting = _moves_may_meet(data, state)
    leaving = 0
    staying = 0
    for k in range(count):
        move = moves[k]
        if move >= MOVE_BASE and not meeting:
            staying += 1
            continue
        layer, cells = move_change(layers, move)
        child_tier, child_local = _encode_changed(data, state, child, layer,
                                                  state[layers + layer], state[layer] ^ cells)
        if move >= MOVE_BASE:  # (k >= staying: the codes still to read are not overwritten)
            moves[staying] = child_local
            staying += 1
            continue
        out[leaving, CHILD_TIER], out[leaving, CHILD_INDEX] = child_tier, child_local
        out[leaving, CHILD_SAME_MOVER] = 0
        out[leaving, CHILD_MOVE] = move
        leaving += 1
    if meeting:
        staying = sort_unique(moves, staying)
    return np.int64(leaving), np.int64(staying)


@jit
def parents(data, tier, local, out, state, other):
    """Un-moves inside the tier: the player who just moved takes a top piece of
    theirs back to a cell where it fits (their moves here, undone)."""
    layers = data.params[SIZES]
    decode_masks(data, tier, local, state, other)
    _other_views(data, state)
    # out holds the un-moves' codes first; each is replaced by its parent
    count = list_moves(data, state, 1, out, False)
    for k in range(count):
        layer, cells = move_change(layers, out[k])
        out[k] = _encode_changed(data, state, other, layer, state[layers + layer] ^ cells,
                                 state[layer])[1] << 1
    return count


def reachable_reserves(mover: tuple[int, ...], other: tuple[int, ...], pieces: int) -> bool:
    """Whether a game reaches a position where the player to move has the reserve
    ``mover`` and the other ``other`` (pieces of each size left): the player who
    moved last has placed a piece, and one who has placed none has had no turn, so
    the other has placed at most one."""
    full = pieces * len(mover)
    mover_placed, other_placed = full - sum(mover), full - sum(other)
    return (mover_placed > 0 and other_placed > 0) or (mover_placed == 0 and other_placed <= 1)


class Gobblet(Game):
    name = NAME
    title = "Gobblet Gobblers"
    options_spec = (
        Option("pieces", int, 2, "pieces of each size each player has", minimum=1, maximum=2),
        Option("sizes", int, 3, "sizes of pieces (the smallest N of small, medium, large)",
               minimum=1, maximum=3),
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive, expand,
                              parents=parents, expand_leaving=expand_leaving)
    state_fields = ("turn (0 = x), then for each cell (text order) and each size (smallest "
                    "first): 0 empty, 1 x, 2 o")
    #: The pieces in the reserves (``pieces_in_hand``), by letter.
    piece_colours = {**dict.fromkeys(SIZE_LETTERS, PIECE_COLOURS["x"]),
                     **dict.fromkeys(SIZE_LETTERS.lower(), PIECE_COLOURS["o"])}

    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = ({"pieces": 2, "sizes": 1}, {"pieces": 1, "sizes": 2})
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = ({"pieces": 2, "sizes": 1}, {"pieces": 1, "sizes": 2})
    #: The same, minutes each: pytest -m slow.
    slow_reference_boards = ({"pieces": 1, "sizes": 3},)

    def build(self) -> GameSpec:
        pieces, sizes = self.options["pieces"], self.options["sizes"]
        reserves = list(itertools.product(range(pieces + 1), repeat=sizes))  # smallest first
        self.tier_reserves: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        blocks = []
        for fewer, more in sorted(((a, b) for a in reserves for b in reserves if a <= b),
                                  key=lambda ab: (sum(ab[0]) + sum(ab[1]), ab)):
            orientations = [(fewer, more)] + ([(more, fewer)] if fewer != more else [])
            kept = [(m, o) for m, o in orientations if reachable_reserves(m, o, pieces)]
            if not kept:
                continue
            self.tier_reserves.append((fewer, more))
            # layer l holds size sizes-1-l: (the mover's pieces on the board, the other's)
            blocks.append([tuple((pieces - m[sizes - 1 - layer], pieces - o[sizes - 1 - layer])
                                 for layer in range(sizes)) for m, o in kept])
        symmetries = grid_symmetries(SIDE, SIDE, mirror_up_down=True, transpose=True)
        self.space = LayerSpace(CELLS, blocks, symmetries)
        self.tier_of = {key: tier for tier, key in enumerate(self.tier_reserves)}
        tops = min(CELLS, pieces * sizes)  # pieces on top of a stack, at most
        return GameSpec(
            tiers=type(self.space.tiers)(keys=[(*a, *b) for a, b in self.tier_reserves],
                                         sizes=self.space.tiers.sizes),
            data=GobbletData(self.space.table, np.array([pieces, sizes], np.int64), line_masks(SIDE),
                             permutation_tables(symmetries, CELLS)),
            state_size=1 + CELLS * sizes, max_moves=sizes * CELLS + tops * (CELLS - 1),
            loopy=True, remoteness_bound=None, max_parents=tops * (CELLS - 1),
            hasher={"name": "layered two-colour boards up to symmetry and colour",
                    "tiers": "reserves {mover's, other's}, smallest size first",
                    "cells": CELLS, "layers": sizes, "symmetries": 8})

    def tier_children(self, tier: int) -> set[int]:
        pieces = self.options["pieces"]
        fewer, more = self.tier_reserves[tier]
        full = (pieces,) * self.options["sizes"]
        children = set() if full in (fewer, more) else {tier}  # moves on the board
        for mover, other in ((fewer, more), (more, fewer)):
            if not reachable_reserves(mover, other, pieces):
                continue
            for size, left in enumerate(mover):
                if left:
                    placed = mover[:size] + (left - 1,) + mover[size + 1:]
                    children.add(self.tier_of[tuple(sorted((other, placed)))])
        return children

    def default_start(self) -> str:
        empty = "-" * self.options["sizes"]
        return "(x " + " ".join(["/".join([empty] * SIDE)] * SIDE) + ")"

    def parse(self, text: str) -> np.ndarray:
        words = self.split_position(text)
        sizes, pieces = self.options["sizes"], self.options["pieces"]
        turn, rows = words[0], words[1:]
        if turn not in ("x", "o"):
            case = " (the notation is lower case)" if turn.lower() in ("x", "o") else ""
            raise ValueError(f"the turn in {text!r} must be x or o, got {turn!r}{case}")
        if len(rows) != SIDE:
            raise ValueError(f"{text!r} has {len(rows)} rows; a {self.title} position has "
                             f"{SIDE}, like {self.default_start()}")
        state = [0 if turn == "x" else 1]
        for number, row in enumerate(rows, start=1):
            cells = row.split("/")
            if len(cells) != SIDE:
                raise ValueError(f"row {number} of {text!r} ({row!r}) has {len(cells)} cells; "
                                 f"a row is {SIDE} cells separated by '/'")
            for cell in cells:
                if len(cell) != sizes:
                    raise OtherBoardError(
                        f"the cell {cell!r} of {text!r} has {len(cell)} sizes, but this "
                        f"{self.describe()} game has {sizes} (a character a size, smallest "
                        "first)")
                bad = sorted(set(cell) - set(SYMBOLS))
                if bad:
                    raise ValueError(f"the cell {cell!r} of {text!r} has "
                                     f"{', '.join(map(repr, bad))}; a size is 'x', 'o' or '-'")
                state.extend(SYMBOLS.index(ch) for ch in cell)
        board = np.array(state[1:]).reshape(CELLS, sizes)
        for size in range(sizes):
            for colour in (X, O):
                found = int(np.count_nonzero(board[:, size] == colour))
                if found > pieces:
                    raise ImpossiblePositionError(
                        f"{text!r} has {found} {SIZE_NAMES[size]} pieces of "
                        f"{SYMBOLS[colour]}; each player has {pieces}")
        return np.array(state, dtype=np.int64)

    def format(self, state: np.ndarray) -> str:
        sizes = self.options["sizes"]
        cells = ["".join(SYMBOLS[int(v)] for v in state[1 + cell * sizes:1 + (cell + 1) * sizes])
                 for cell in range(CELLS)]
        rows = ["/".join(cells[r * SIDE:(r + 1) * SIDE]) for r in range(SIDE)]
        return f"({'xo'[int(state[0])]} {' '.join(rows)})"

    def reserves(self, state: np.ndarray) -> dict[str, list[int]]:
        """The pieces of each size (smallest first) each player has not placed.

        >>> game = Gobblet()
        >>> game.reserves(game.parse("(o x--/---/--- ---/---/--- ---/---/---)"))
        {'x': [1, 2, 2], 'o': [2, 2, 2]}
        """
        sizes, pieces = self.options["sizes"], self.options["pieces"]
        board = np.asarray(state[1:]).reshape(CELLS, sizes)
        return {SYMBOLS[colour]: [pieces - int(np.count_nonzero(board[:, size] == colour))
                                  for size in range(sizes)] for colour in (X, O)}

    def unreachable_reason(self, state: np.ndarray) -> str | None:
        full = self.options["pieces"] * self.options["sizes"]
        placed = {player: full - sum(left) for player, left in self.reserves(state).items()}
        mover = "xo"[int(state[0])]
        # x moves first: when x is to move both have had as many turns, else x one more
        alone = (0, 0) if mover == "x" else (1, 0)  # the reach before o's first piece
        if min(placed.values()) > 0 or (placed["x"], placed["o"]) == alone:
            return None
        return (f"with {placed['x']} x and {placed['o']} o pieces on the board it cannot be "
                f"{mover}'s turn: x moves first, the players take turns, and a player's first "
                "move places a piece")

    def explain_illegal(self, state: np.ndarray) -> str:
        return self.unreachable_reason(state) or super().explain_illegal(state)

    def move_name(self, state: np.ndarray, move: int) -> str:
        if move < MOVE_BASE:
            size, cell = divmod(int(move), CELLS)
            return f"{SIZE_LETTERS[size]}*{square_name(*divmod(cell, SIDE), SIDE)}"
        rest, target = divmod(int(move) - MOVE_BASE, CELLS)
        source = rest % CELLS
        return f"{square_name(*divmod(source, SIDE), SIDE)}-{square_name(*divmod(target, SIDE), SIDE)}"

    def board_shape(self) -> tuple[int, int]:
        return SIDE, SIDE

    def stack(self, state: np.ndarray, row: int, col: int) -> list[tuple[int, str]]:
        """The pieces on a square (top-down ``row``, ``col``), as (size, colour), the
        top one first.

        >>> game = Gobblet()
        >>> game.stack(game.parse("(x x-o/---/--- ---/---/--- ---/---/---)"), 0, 0)
        [(2, 'o'), (0, 'x')]
        """
        sizes = self.options["sizes"]
        at = 1 + (row * SIDE + col) * sizes
        return [(size, SYMBOLS[int(state[at + size])]) for size in reversed(range(sizes))
                if state[at + size]]

    def grid(self, state: np.ndarray) -> list[str]:
        """The top piece of each square, for drawing: its size's letter, upper case for
        x, lower case for o (``S``, ``m``); ``stack`` gives every piece.

        >>> game = Gobblet()
        >>> game.grid(game.parse("(x x-o/---/--- -x-/---/--- ---/---/---)"))
        ['l--', 'M--', '---']
        """
        rows = []
        for r in range(SIDE):
            row = ""
            for c in range(SIDE):
                pieces = self.stack(state, r, c)
                row += _letter(*pieces[0]) if pieces else "-"
            rows.append(row)
        return rows

    def pieces_in_hand(self, state: np.ndarray) -> list[tuple[int, int, str, int]]:
        """The reserves, drawn beside the board: x's under it, o's over it, small
        pieces at column a, medium at b, large at c.

        >>> game = Gobblet(pieces=1)
        >>> game.pieces_in_hand(game.parse("(o -x-/---/--- ---/---/--- ---/---/---)"))
        [(0, 0, 'S', 1), (0, 2, 'L', 1), (1, 0, 's', 1), (1, 1, 'm', 1), (1, 2, 'l', 1)]
        """
        return [(side, size, _letter(size, colour), left)
                for side, (colour, reserve) in enumerate(self.reserves(state).items())
                for size, left in enumerate(reserve) if left]

    def move_sketch(self, state: np.ndarray, name: str) -> MoveSketch | None:
        """A placement goes from the reserve (``pieces_in_hand``) to its square; a move
        from its square to its square.

        >>> game = Gobblet()
        >>> game.move_sketch(game.start(), "M*b2")
        MoveSketch(kind='move', cells=((3, 1), (1, 1)), path=(), side='')
        """
        if "*" not in name:
            return super().move_sketch(state, name)
        letter, square = name.split("*", 1)
        return MoveSketch(MOVE, (hand_cell(int(state[0]), SIZE_LETTERS.index(letter), SIDE),
                                 parse_square(square, SIDE, SIDE)))

    def square_svg(self, state: np.ndarray, row: int, col: int, cx: float, cy: float,
                   cell: int) -> str | None:
        """A stack: the top piece as a disc as large as its size, each piece under it
        as a ring of its colour and size, and the whole stack named when the pointer
        is over it."""
        pieces = self.stack(state, row, col)
        if not pieces:
            return None
        named = ", ".join(f"{SIZE_NAMES[size]} {colour}" for size, colour in pieces)
        (size, colour), covered = pieces[0], pieces[1:]
        drawn = [f'<g class="stack" data-square="{square_name(row, col, SIDE)}">'
                 f"<title>{square_name(row, col, SIDE)}: {named}"
                 f"{' (top first)' if covered else ''}</title>",
                 f'<circle cx="{cx}" cy="{cy}" r="{cell * PIECE_RADII[size]:.1f}" '
                 f'fill="{PIECE_COLOURS[colour]}" stroke="#333" stroke-width="1"/>']
        for size, colour in covered:  # a white casing shows a ring on a disc of its colour
            radius = f"{cell * PIECE_RADII[size]:.1f}"
            drawn.append(f'<circle class="covered" cx="{cx}" cy="{cy}" r="{radius}" fill="none" '
                         'stroke="#fff" stroke-width="3.5"/>'
                         f'<circle cx="{cx}" cy="{cy}" r="{radius}" fill="none" '
                         f'stroke="{PIECE_COLOURS[colour]}" stroke-width="1.8"/>')
        return "".join(drawn) + "</g>"


def _letter(size: int, colour: str) -> str:
    """A piece's letter in ``grid`` and the reserves: its size's, upper case for x."""
    return SIZE_LETTERS[size] if colour == "x" else SIZE_LETTERS[size].lower()


GAME = Gobblet
