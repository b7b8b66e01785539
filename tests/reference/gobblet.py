"""Reference Gobblet Gobblers (written from docs/RULES.md only; standard library only).

A 3x3 board (columns a-c, rows 1-3 from the bottom); players ``x`` (first) and ``o``.
Options: ``sizes`` N (1 to 3, default 3: the N smallest of small, medium, large take
part) and ``pieces`` K (1 or 2, default 2: pieces of each size per player).  Each
player's reserve holds the pieces of theirs not on the board.  A square holds a stack
of at most one piece of each size; its largest piece is on top and shows.

Moves.  Place a piece from the mover's reserve, or move one of the mover's pieces
that shows to another square; either way onto an empty square or a stack whose top
piece is smaller (either colour).  Covered pieces stay where they are.

End (``primitive``, for the player to move).  A line (row, column, long diagonal)
whose three top pieces are of one colour: the mover's own colour -> "win" (whatever
the other has), else the other's -> "lose"; else None.  Primitives have no moves.
No repetition rule: play that goes on for ever is a draw for the solver.

Valid positions (``parse`` refuses the others with ValueError): at most K pieces of
each size and colour on the board; either player to move.

State ``(turn, board)``: ``turn`` "x" or "o"; ``board`` a tuple of 9 cells, the rows
from row 3 (top) down to row 1, each read a to c; a cell is a string of N characters,
one per size from the smallest, each "x", "o" or "-".  Text
``(x ---/---/--- ---/---/--- ---/---/---)``: the turn, then the rows from the top,
cells separated by ``/``.

Move names: ``S*b2``, ``M*b2``, ``L*b2`` (place a small, medium, large piece),
``a1-b2`` (move the piece showing on a1).
"""

try:
    from ._common import int_option, no_more_options, split_text
except ImportError:  # imported as a top-level module
    from _common import int_option, no_more_options, split_text

WIN = "win"
LOSE = "lose"
EMPTY = "-"
OTHER = {"x": "o", "o": "x"}
SIZE_LETTERS = "SML"
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8),
         (0, 4, 8), (2, 4, 6))


def square_name(i):
    return "abc"[i % 3] + str(3 - i // 3)


def top(cell):
    """(size, colour) of the piece showing on a cell, or (-1, None) if it is empty."""
    for size in range(len(cell) - 1, -1, -1):
        if cell[size] != EMPTY:
            return size, cell[size]
    return -1, None


class Game:
    name = "gobblet"

    def __init__(self, **options):
        options = dict(options)
        self.sizes = int_option(options, "sizes", 3, 1)
        self.pieces = int_option(options, "pieces", 2, 1)
        no_more_options(options, self.name)
        if self.sizes > 3:
            raise ValueError(f"option sizes must be at most 3, got {self.sizes}")
        if self.pieces > 2:
            raise ValueError(f"option pieces must be at most 2, got {self.pieces}")

    # ------------------------------------------------------------------ text
    def start(self):
        return ("x", (EMPTY * self.sizes,) * 9)

    def parse(self, text):
        words = split_text(text)
        if len(words) != 4 or words[0] not in OTHER:
            raise ValueError(f"a Gobblet Gobblers position is a turn (x or o) and three "
                             f"rows: {text!r}")
        cells = []
        for row in words[1:]:
            row_cells = row.split("/")
            if len(row_cells) != 3:
                raise ValueError(f"row {row!r} must have three squares: {text!r}")
            for cell in row_cells:
                if len(cell) != self.sizes or set(cell) - set("xo-"):
                    raise ValueError(f"bad square {cell!r} (one of x, o, - for each of "
                                     f"{self.sizes} sizes): {text!r}")
                cells.append(cell)
        board = tuple(cells)
        for colour in "xo":
            for size in range(self.sizes):
                placed = sum(cell[size] == colour for cell in board)
                if placed > self.pieces:
                    raise ValueError(f"{placed} pieces of size {SIZE_LETTERS[size]} of "
                                     f"{colour}, more than {self.pieces}: {text!r}")
        return (words[0], board)

    def format(self, state):
        turn, board = state
        rows = ["/".join(board[3 * r:3 * r + 3]) for r in range(3)]
        return "(" + " ".join([turn, *rows]) + ")"

    # ----------------------------------------------------------------- rules
    def reserve(self, state, colour, size):
        """How many pieces of ``size`` ``colour`` has off the board."""
        return self.pieces - sum(cell[size] == colour for cell in state[1])

    def has_line(self, board, colour):
        tops = [top(cell)[1] for cell in board]
        return any(all(tops[i] == colour for i in line) for line in LINES)

    def primitive(self, state):
        turn, board = state
        if self.has_line(board, turn):
            return WIN
        if self.has_line(board, OTHER[turn]):
            return LOSE
        return None

    def _legal(self, state):
        """(name, child) of every legal move (no end check)."""
        turn, board = state
        out = []
        for size in range(self.sizes):
            if self.reserve(state, turn, size) == 0:
                continue
            for j, cell in enumerate(board):
                if top(cell)[0] < size:
                    cells = list(board)
                    cells[j] = cell[:size] + turn + cell[size + 1:]
                    out.append((SIZE_LETTERS[size] + "*" + square_name(j),
                                (OTHER[turn], tuple(cells))))
        for i, source in enumerate(board):
            size, colour = top(source)
            if colour != turn:
                continue
            for j, cell in enumerate(board):
                if j != i and top(cell)[0] < size:
                    cells = list(board)
                    cells[i] = source[:size] + EMPTY + source[size + 1:]
                    cells[j] = cell[:size] + turn + cell[size + 1:]
                    out.append((square_name(i) + "-" + square_name(j),
                                (OTHER[turn], tuple(cells))))
        return out

    def move_names_and_children(self, state):
        if self.primitive(state) is not None:
            return []
        return self._legal(state)

    def moves(self, state):
        return [(child, False) for _, child in self.move_names_and_children(state)]

    def move_names(self, state):
        return [name for name, _ in self.move_names_and_children(state)]

    def play(self, state, move):
        """The child after the named move (``"L*b2"``, ``"a1-b2"``); ValueError if the
        move is not legal in ``state``."""
        wanted = move.strip().lower()
        for name, child in self.move_names_and_children(state):
            if name.lower() == wanted:
                return child
        raise ValueError(f"{move!r} is not a legal move in {self.format(state)}")
