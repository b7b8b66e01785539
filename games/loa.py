"""Lines of Action: move a piece along a line exactly as many cells as there are pieces
on that line; connect all your pieces to win.

Rules: docs/RULES.md, section "Lines of Action".

In short (the Olympiad rules): a piece moves in one of
8 directions exactly as many cells as there are pieces of both colours on the whole
line; it may pass over its own pieces but not over the opponent's, may not land on
its own piece, and captures by landing on an opponent's. A side whose pieces form one
8-connected group has won (a single piece is connected); both at once is a TIE. A
player with no legal move passes. Black starts on the top and bottom rows without the
corners, White on the left and right columns without the corners; Black moves first.

Position ``(T row row ...)``: turn ``b``/``w``; cells ``b``, ``w``, ``-``.

Index (``hashers/boards.py``): a tier per count of black and white pieces (1 up to
``--max-pieces`` each, or every count of the full game), the board ranked within it,
times two for the turn; with ``--symmetry`` the boards are ranked up to the mirrors
(and, on square boards, the turns) of the board, densely. Captures lead to tiers with
fewer pieces; the other moves, and passes, stay in the tier and can cycle: the tiers
are LOOPY, solved with un-moves (a piece moves back along its line; a pass is undone
when the player who passed has no move). Boards have up to 8 cells a side (8x8):
the line tables give a move's two cells as a byte.

State vector: ``[turn, cells...]`` (turn 0 = black; cells in text order, 0 empty,
1 black, 2 white).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from tiersolve.bits import (
    as_mask, copy_into, deposit_bits, extract_bits, lowest_bit, popcount, shift_down, sort_unique)
from tiersolve.errors import ImpossiblePositionError
from tiersolve.games.base import (
    GameFunctions, GameSpec, Option, PieceCountGame, board_cells, code_masks, cols_option,
    decode_board_state, encode_board_state, keep_first_pieces, option_text, rows_option,
    square_name,
)
from tiersolve.hashers.boards import (
    board_images, canonical_black, colour_changes, decode_board, encode_board, encode_changed,
    encode_quiet_moves, nearly_symmetric,
)
from tiersolve.hashers.symmetry import grid_symmetries
from tiersolve.jit import jit
from tiersolve.values import LOSE, NONCANONICAL, TIE, UNDECIDED, WIN

EMPTY, BLACK, WHITE = 0, 1, 2
SYMBOLS = "-bw"
PASS = -1
#: (row step, column step) of the 8 directions; direction d ^ 1 is d's opposite.
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1))
#: The line a direction runs along: 0 row, 1 column, 2 diagonal, 3 anti-diagonal.
LINE_OF = (1, 1, 0, 0, 2, 2, 3, 3)
#: The columns of ``line_move_table``: every move's counts and captures, and the quiet moves.
MOVES, QUIET = 0, 1


class LoaData(NamedTuple):
    """``board``: the board index (``BoardSpace.table``); ``lines[c, l]``: the
    cells of line l through cell c; ``targets[c, d, k]``: the cell k steps from c in
    direction d (c itself off the board); ``paths[c, d, k]``: the cells strictly between;
    ``neighbours[c]``: the 8 cells around c; ``line_masks[l]``: every line of at least
    two cells, and ``line_facts[l]``: its (first key in ``line_moves``, length,
    direction along it towards lower cells); ``line_moves``: ``line_move_table``;
    ``cell_lines[c]``: the lines through c, as bits of their indices in ``line_masks``."""

    board: np.ndarray
    lines: np.ndarray
    targets: np.ndarray
    paths: np.ndarray
    neighbours: np.ndarray
    line_masks: np.ndarray
    line_facts: np.ndarray
    line_moves: np.ndarray
    cell_lines: np.ndarray


@jit(forceinline=True)
def connected(pieces, neighbours):
    """Do ``pieces`` (a non-empty mask) form one 8-connected group?"""
    group = pieces & -pieces
    frontier = group
    while frontier:
        cell = lowest_bit(frontier)
        frontier &= frontier - 1
        grown = neighbours[cell] & pieces & ~group
        group |= grown
        frontier |= grown
    return group == pieces


@jit(forceinline=True)
def outcome(neighbours, black, white, turn):
    """The value of a finished game for the player to move, or UNDECIDED."""
    black_done = connected(black, neighbours)
    white_done = connected(white, neighbours)
    if black_done and white_done:
        return TIE
    if black_done:
        return WIN if turn == 0 else LOSE
    if white_done:
        return WIN if turn == 1 else LOSE
    return UNDECIDED


# The move loops below are written out in each function rather than calling a helper
# per direction: a numba call that passes arrays costs more than the move itself.

@jit(forceinline=True)
def legal_moves(lines, targets, paths, mine, theirs, found):
    """The moves of the player owning ``mine``: ``found[k] = (cell * 8 + direction,
    target cell)``; returns how many (0: the player must pass)."""
    count = 0
    occupied = mine | theirs
    pieces = mine
    while pieces:
        cell = lowest_bit(pieces)
        pieces &= pieces - 1
        for direction in range(8):
            distance = popcount(occupied & lines[cell, LINE_OF[direction]])
            target = targets[cell, direction, distance]  # the cell itself when off the board
            blocked = ((mine >> target) & 1) | (paths[cell, direction, distance] & theirs != 0)
            found[count, 0] = cell * 8 + direction  # written always, kept when legal
            found[count, 1] = target
            count += 1 - blocked
    return count


@jit(forceinline=True)
def _line_entry(data, line, mine, theirs, kind):
    """``line_moves`` of line ``line`` (an index of ``line_masks``) on this board: its
    moves (``kind`` MOVES) or its quiet moves (QUIET)."""
    mask = data.line_masks[line]
    first, length = data.line_facts[line, 0], data.line_facts[line, 1]
    key = extract_bits(mine, mask) | (extract_bits(theirs, mask) << length)
    return data.line_moves[first + key, kind]


@jit(forceinline=True)
def _lines_through(data, pieces):
    """The lines through any of ``pieces``, as bits of their indices in ``line_masks``."""
    lines = 0
    while pieces:
        lines |= data.cell_lines[lowest_bit(pieces)]
        pieces &= pieces - 1
    return lines


@jit(forceinline=True)
def _captures_and_quiet_moves(data, mine, theirs, pending):
    """(captures, quiet moves) of the owner of ``mine``, counted a line at a time from
    ``line_moves`` (about half the cost of ``legal_moves``); the lines with a capture
    go into ``pending`` (branch-free: which lines have one is unpredictable; a piece
    captures on at most 4 lines, so they fit in the ``moves`` buffer)."""
    quiet = 0
    lines_with_captures = 0
    lines_hit = _lines_through(data, mine)
    while lines_hit:
        line = lowest_bit(lines_hit)
        lines_hit &= lines_hit - 1
        entry = _line_entry(data, line, mine, theirs, MOVES)
        quiet += entry & 15
        pending[lines_with_captures] = line
        lines_with_captures += (entry >> 4) & 15 != 0
    return lines_with_captures, quiet


@jit(forceinline=True)
def _has_move(lines, targets, paths, mine, theirs):
    occupied = mine | theirs
    pieces = mine
    while pieces:
        cell = lowest_bit(pieces)
        pieces &= pieces - 1
        for direction in range(8):
            distance = popcount(occupied & lines[cell, LINE_OF[direction]])
            target = targets[cell, direction, distance]  # the cell itself when off the board
            if not (mine >> target) & 1 and not paths[cell, direction, distance] & theirs:
                return True
    return False


@jit(forceinline=True)
def _expand_into(data, tier, local, out, state, child, moves, leaving_only):
    """``expand``, or with ``leaving_only`` ``expand_leaving``: the moves' children are
    encoded from the images of the board under the index's symmetries (``state`` holds
    black's, ``child`` white's), changed where the piece moved and captured. Moves
    that stay in the tier (no capture) are only counted, and the captures found, a
    line at a time (``line_moves``), unless the board is nearly symmetric
    (``nearly_symmetric``): then two quiet moves may lead to one stored position, and
    every move is found by ``legal_moves`` and the quiet moves' children are encoded
    and counted once each (kept in ``moves`` meanwhile)."""
    board, lines, targets, paths, neighbours = data[:5]
    black, white, turn, canonical = decode_board(board, tier, local)
    if not canonical:
        return -np.int64(NONCANONICAL), -1
    value = outcome(neighbours, black, white, turn)
    if value != UNDECIDED:
        return -np.int64(value), -1
    mine, theirs = (black, white) if turn == 0 else (white, black)
    if leaving_only:
        capturing_lines, quiet = _captures_and_quiet_moves(data, mine, theirs, moves)
        if capturing_lines == 0 and quiet == 0:  # no legal move: pass (the tier stays)
            return 0, 1
        board_images(board, black, state)
        board_images(board, white, child)
        if not nearly_symmetric(board, state if turn == 0 else child,
                                child if turn == 0 else state, 4):
            return _encode_captures(data, turn, mine, theirs, out, state, child, moves,
                                    capturing_lines), quiet
    count = legal_moves(lines, targets, paths, mine, theirs, out)
    if count == 0:  # no legal move: pass (expand_leaving returned above)
        out[0, 0], out[0, 1] = encode_board(board, black, white, 1 - turn)
        out[0, 2] = 0
        out[0, 3] = PASS
        return 1, 0
    if not leaving_only:  # (expand_leaving has them, on a nearly symmetric board)
        board_images(board, black, state)
        board_images(board, white, child)
    # Black stays only when White moves without a capture: then its canonical form is
    # needed, and found once.
    known = canonical_black(board, state) if turn == 1 else (black, np.int64(1), np.int64(0))
    rows = 0
    staying = 0
    for k in range(count):
        code, target = out[k, 0], out[k, 1]
        captured = theirs & (np.int64(1) << target)
        black_change, white_change = colour_changes(
            turn, (np.int64(1) << (code >> 3)) | (np.int64(1) << target), captured)
        child_tier, child_local = encode_changed(board, state, child, black_change, white_change,
                                                 1 - turn, known)
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
        out[rows, 3] = code
        rows += 1
    return rows, staying


@jit(forceinline=True)
def _encode_captures(data, turn, mine, theirs, out, black_images, white_images, pending,
                     capturing_lines):
    """The children of the captures on the lines ``pending[:capturing_lines]`` into
    ``out``, encoded from the board's images; returns how many."""
    rows = 0
    for k in range(capturing_lines):
        line = pending[k]
        mask = data.line_masks[line]
        entry = _line_entry(data, line, mine, theirs, MOVES)
        toward_lower = data.line_facts[line, 2]
        for capture in range((entry >> 4) & 15):
            change = deposit_bits(shift_down(entry, 8 * (capture + 1)) & 255, mask)
            cell = lowest_bit(change & mine)
            captured = change & theirs
            black_change, white_change = colour_changes(turn, change, captured)
            out[rows, 0], out[rows, 1] = encode_changed(
                data.board, black_images, white_images, black_change, white_change, 1 - turn,
                (black_images[0], np.int64(1), np.int64(0)))  # black loses a piece or moves
            out[rows, 2] = 0
            out[rows, 3] = cell * 8 + toward_lower + (lowest_bit(captured) > cell)
            rows += 1
    return rows


@jit
def expand(data, tier, local, out, state, child, moves):
    count, _ = _expand_into(data, tier, local, out, state, child, moves, False)
    return count


@jit
def expand_leaving(data, tier, local, out, state, child, moves):
    return _expand_into(data, tier, local, out, state, child, moves, True)


@jit
def parents(data, tier, local, out, state, other):
    """Un-moves inside the tier: the piece of the player who just moved goes back along
    one of its lines by that line's count, onto an empty cell, over no opponent piece;
    or that player passed, having no move. Parents that are finished games may be given
    (the solver skips them), and none is when the player to move is connected.

    An un-move is a quiet move of the player who just moved, read backwards (the line
    keeps its count, and the cells between are the same), so they are read a line at
    a time from ``line_moves``, on the lines through that player's pieces, and
    encoded in one batch from the board's images (in ``state`` and ``other``). Each
    parent is given once (on a nearly symmetric board two un-moves may lead to one
    stored position)."""
    board, lines, targets, paths, neighbours = data[:5]
    black, white, turn, _ = decode_board(board, tier, local)
    mover = 1 - turn  # who just moved
    mine, theirs = (black, white) if mover == 0 else (white, black)
    if connected(theirs, neighbours):
        # The player to move has one group here, and had it before any un-move: every
        # parent is a finished game, which the solver would skip (in the largest tier
        # of 5x5 --max-pieces 4, one position in 13 is such a one).
        return 0
    lines_hit = _lines_through(data, mine)
    count = 0
    while lines_hit:
        line = lowest_bit(lines_hit)
        lines_hit &= lines_hit - 1
        mask = data.line_masks[line]
        entry = _line_entry(data, line, mine, theirs, QUIET)
        # Three slots written always: a branch on how many a line has cost more.
        out[count] = deposit_bits(shift_down(entry, 4) & 255, mask)
        out[count + 1] = deposit_bits(shift_down(entry, 12) & 255, mask)
        out[count + 2] = deposit_bits(shift_down(entry, 20) & 255, mask)
        for k in range(3, entry & 15):  # lines of 6 to 8 cells
            out[count + k] = deposit_bits(shift_down(entry, 4 + 8 * k) & 255, mask)
        count += entry & 15
    board_images(board, black, state)
    board_images(board, white, other)
    known = canonical_black(board, state) if mover == 1 else (black, np.int64(1), np.int64(0))
    encode_quiet_moves(board, state, other, known, mover, out, count, out)
    if count == 0 and not _has_move(lines, targets, paths, mine, theirs):
        out[count] = encode_board(board, black, white, mover)[1] << 1
        count += 1
    if nearly_symmetric(board, state if mover == 0 else other, other if mover == 0 else state, 4):
        count = sort_unique(out, count)
    return count


@jit
def generate_moves(data, state, moves):
    """Move code = cell * 8 + direction; PASS (-1) when there is no other move."""
    black, white = code_masks(state, data.board[0], BLACK, WHITE)
    mine, theirs = (black, white) if state[0] == 0 else (white, black)
    found = np.empty((moves.shape[0], 2), np.int64)
    count = legal_moves(data.lines, data.targets, data.paths, mine, theirs, found)
    for k in range(count):  # not a slice assignment: see tiersolve.bits.copy_into
        moves[k] = found[k, 0]
    if count == 0:
        moves[0] = PASS
        count = 1
    return count


@jit
def do_move(data, state, move, child):
    copy_into(child, state)
    child[0] = 1 - state[0]
    if move != PASS:
        cell, direction = move // 8, move % 8
        occupied = 0
        for c in range(data.board[0]):
            occupied |= np.int64(state[1 + c] != EMPTY) << c
        distance = popcount(occupied & data.lines[cell, LINE_OF[direction]])
        target = data.targets[cell, direction, distance]
        child[1 + target] = child[1 + cell]
        child[1 + cell] = EMPTY
    return 0


@jit
def primitive(data, state, move_count):
    black, white = code_masks(state, data.board[0], BLACK, WHITE)
    return outcome(data.neighbours, black, white, state[0])


#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "loa"


class LinesOfAction(PieceCountGame):
    name = NAME
    title = "Lines of Action"
    options_spec = (
        # Lines of up to 8 cells: a move's two cells are a byte of line_moves.
        rows_option(4, minimum=3, maximum=8),
        cols_option(4, minimum=3, maximum=8),
        Option("max_pieces", int, 0, "solve only positions with 1..K pieces of each side (an "
               "endgame table); 0: every position of the game", minimum=0),
        Option("symmetry", bool, False,
               "store one board per class of mirror images (and rotations on square boards)"),
    )
    functions = GameFunctions(decode_board_state, encode_board_state, generate_moves, do_move,
                              primitive, expand, parents=parents, expand_leaving=expand_leaving)
    state_fields = "turn (0 = black), then cells top row first (0 empty, 1 black, 2 white)"

    def starting_pieces(self) -> tuple[int, int]:
        """(black, white) pieces at the start."""
        return 2 * (self.options["cols"] - 2), 2 * (self.options["rows"] - 2)

    def normalise(self, options: dict[str, Any]) -> dict[str, Any]:
        black, white = 2 * (options["cols"] - 2), 2 * (options["rows"] - 2)
        if options["max_pieces"] >= max(black, white):
            options = {**options, "max_pieces": 0}
        return options

    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = (
        {"rows": 3, "cols": 3}, {"rows": 3, "cols": 4, "symmetry": True},
        {"rows": 4, "cols": 3, "max_pieces": 2, "symmetry": True},
        {"rows": 4, "cols": 4, "max_pieces": 2},
    )
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = (
        {"rows": 3, "cols": 3}, {"rows": 3, "cols": 3, "symmetry": True},
        {"rows": 3, "cols": 4, "max_pieces": 2},
        {"rows": 4, "cols": 4, "max_pieces": 2, "symmetry": True},
    )
    #: The same, minutes each: pytest -m slow.
    slow_reference_boards = (
        {"rows": 4, "cols": 4},
    )

    def build(self) -> GameSpec:
        rows, cols = self.options["rows"], self.options["cols"]
        cells = board_cells(rows, cols, limit=64)
        black, white = self.starting_pieces()
        limit = self.options["max_pieces"]
        most_black, most_white = (min(limit, black), min(limit, white)) if limit else (black, white)
        symmetries = grid_symmetries(rows, cols, mirror_up_down=True, transpose=True) \
            if self.options["symmetry"] else []
        try:
            hasher = self.build_space(cells, most_black, most_white, symmetries)
        except ValueError as error:
            raise ValueError(f"{self.describe()}: {error}; build an endgame table with "
                             f"{option_text('max_pieces', 'K')} (e.g. 3 or 4)") from None
        data = LoaData(self.space.table, *line_tables(rows, cols))
        most = max(most_black, most_white)
        return GameSpec(
            tiers=self.space.tiers, data=data, state_size=1 + cells, max_moves=max(8 * most, 1),
            loopy=True, remoteness_bound=None, hasher=hasher,
            # + 2: the un-moves write three slots a line before they know how many it has
            max_parents=8 * most + 3,
            parents_are_distinct=True)  # parents() counts a repeat once itself

    def default_start(self) -> str:
        """The standard start; for an endgame table (``--max-pieces``), the standard
        start with only its first K pieces of each side in text order."""
        rows, cols = self.options["rows"], self.options["cols"]
        edge = "-" + "b" * (cols - 2) + "-"
        middle = "w" + "-" * (cols - 2) + "w"
        board = "".join([edge] + [middle] * (rows - 2) + [edge])
        board = keep_first_pieces(board, self.options["max_pieces"])
        return "(b " + " ".join(board[r * cols:(r + 1) * cols] for r in range(rows)) + ")"

    def parse(self, text: str) -> np.ndarray:
        turn, cells = self.parse_board(text, "bw", SYMBOLS)
        blacks, whites = cells.count(BLACK), cells.count(WHITE)
        start_black, start_white = self.starting_pieces()
        if not blacks or not whites:
            raise ImpossiblePositionError(f"{text!r} cannot arise: a side with one piece is connected and has "
                                 "won, so no side ever loses its last piece")
        if blacks > start_black or whites > start_white:
            raise ImpossiblePositionError(f"{text!r} has {blacks} black and {whites} white pieces; a "
                                 f"{self.describe()} game starts with {start_black} and {start_white}")
        limit = self.options["max_pieces"]
        if limit and max(blacks, whites) > limit:
            raise ValueError(f"{text!r} has {blacks} black and {whites} white pieces, more than "
                                 f"this database's {option_text('max_pieces', limit)}")
        return np.array([turn, *cells], dtype=np.int64)

    def format(self, state: np.ndarray) -> str:
        return self.format_board("bw"[state[0]], state[1:], SYMBOLS)

    def move_name(self, state: np.ndarray, move: int) -> str:
        if move == PASS:
            return "pass"
        rows, cols = self.options["rows"], self.options["cols"]
        cell = move // 8
        child, _ = self.play(state, move)
        target = next(c for c in range(rows * cols) if child[1 + c] == state[1 + cell] and
                          state[1 + c] != state[1 + cell])
        capture = "x" if state[1 + target] != EMPTY else "-"
        return f"{square_name(cell // cols, cell % cols, rows)}{capture}" \
               f"{square_name(target // cols, target % cols, rows)}"


def line_tables(rows: int, cols: int) -> tuple[np.ndarray, ...]:
    """``lines``, ``targets``, ``paths``, ``neighbours``, ``line_masks``, ``line_facts``,
    ``line_moves`` and ``cell_lines`` (see LoaData); masks are built as Python ints and stored as
    int64 (a 64-cell board uses bit 63)."""
    cells = rows * cols
    reach = max(rows, cols)
    lines = [[0] * 4 for _ in range(cells)]
    # Off the board a target is the cell itself: the mover's own piece, never a legal
    # target or an empty source, so the move loops test one bit instead of a sign.
    targets = np.repeat(np.arange(cells, dtype=np.int64), 8 * (reach + 1)).reshape(cells, 8, reach + 1)
    paths = [[[0] * (reach + 1) for _ in range(8)] for _ in range(cells)]
    neighbours = [0] * cells
    for cell in range(cells):
        row, col = divmod(cell, cols)
        for line in range(4):
            lines[cell][line] |= 1 << cell
        for direction, (dr, dc) in enumerate(DIRECTIONS):
            between = 0
            for distance in range(1, reach + 1):
                    r, c = row + dr * distance, col + dc * distance
                    if not (0 <= r < rows and 0 <= c < cols):
                        break
                    bit = 1 << (r * cols + c)
                    lines[cell][LINE_OF[direction]] |= bit
                    targets[cell, direction, distance] = r * cols + c
                    paths[cell][direction][distance] = between
                    between |= bit
                    if distance == 1:
                        neighbours[cell] |= bit

    def masks(values):
        return np.array([as_mask(v) for v in values], dtype=np.int64)

    whole = sorted({(lines[cell][family], family) for cell in range(cells) for family in range(4)
                        if bin(lines[cell][family]).count("1") >= 2})
    lengths = [bin(mask).count("1") for mask, _ in whole]
    firsts = np.cumsum([0] + [4 ** length for length in range(reach + 1)])
    facts = np.array([(firsts[length], length, LINE_OF.index(family))
                          for length, (_, family) in zip(lengths, whole)], dtype=np.int64)
    return (masks([v for row in lines for v in row]).reshape(cells, 4), targets,
            masks([v for per_cell in paths for per_dir in per_cell for v in per_dir])
            .reshape(cells, 8, reach + 1), masks(neighbours), masks([mask for mask, _ in whole]),
            facts.reshape(-1, 3),
            np.concatenate([line_move_table(length) for length in range(reach + 1)]),
            np.array([sum(1 << line for line, (mask, _) in enumerate(whole) if mask >> cell & 1)
                          for cell in range(cells)], dtype=np.int64))


def line_move_table(length: int) -> np.ndarray:
    """The moves along one line of ``length`` cells, for every board of it: row
    ``mine | theirs << length`` (the line's cells in increasing order) holds, in
    column MOVES, ``quiet | captures << 4 | pairs << 8``: the number of moves of the
    owner of ``mine`` along the line that capture nothing, the number that capture,
    and each capture as a byte with its two cells (from and to); in column QUIET,
    ``quiet | pairs << 4``: the moves that capture nothing, each as such a byte. A
    piece moves exactly as many cells as the line holds pieces, not over the other
    side's pieces nor onto its own. Keys with a cell of both colours are never looked
    up.

    >>> table = line_move_table(4)
    >>> entry = int(table[0b0001 | 0b0100 << 4, MOVES])    # b - w -: 0 -> 2 captures
    >>> entry & 15, entry >> 4 & 15, bin(entry >> 8)
    (0, 1, '0b101')
    >>> entry = int(table[0b0001 | 0b1000 << 4, QUIET])    # b - - w: 0 -> 2 captures nothing
    >>> entry & 15, bin(entry >> 4)
    (1, '0b101')
    """
    keys = np.arange(4 ** length, dtype=np.int64)
    cell = np.arange(length)
    mine = (keys[:, None] >> cell) & 1
    theirs = (keys[:, None] >> (cell + length)) & 1
    pieces = (mine | theirs).sum(axis=1)
    quiet = np.zeros(keys.size, np.int64)
    captures = np.zeros(keys.size, np.int64)
    pairs = np.zeros(keys.size, np.int64)
    quiet_pairs = np.zeros(keys.size, np.int64)
    for start in range(length):
        for step in (-1, 1):
            target = start + step * pieces
            inside = (target >= 0) & (target < length)
            target = np.clip(target, 0, length - 1)
            low, high = np.minimum(start, target), np.maximum(start, target)
            between = (cell > low[:, None]) & (cell < high[:, None])
            legal = (mine[:, start] == 1) & inside & (pieces > 0) & \
                    (mine[keys, target] == 0) & ~(between & (theirs == 1)).any(axis=1)
            capture = legal & (theirs[keys, target] == 1)
            quiet_pairs |= np.where(legal & ~capture, ((1 << start) | (1 << target)) << (8 * quiet), 0)
            quiet += legal & ~capture
            pairs |= np.where(capture, ((1 << start) | (1 << target)) << (8 * captures), 0)
            captures += capture
    assert quiet.max(initial=0) <= 7 and captures.max(initial=0) <= 7
    return np.stack([quiet | (captures << 4) | (pairs << 8), quiet | (quiet_pairs << 4)], axis=1)


GAME = LinesOfAction
