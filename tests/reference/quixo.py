"""Plain-Python reference implementation of Quixo (written from RULES.md only;
standard library only).

Board ``N`` x ``N`` cubes (option ``size``, default 5, 3 to 5), every cube blank
(``-``) at the start; players ``x`` and ``o``, ``x`` moves first.

Moves.  The player to move takes a cube of the outer ring (a cell of the first or
last row or column) that is blank or shows their own symbol (never the
opponent's), turns it to their symbol and pushes it back in at an end of its row
or of its column, other than the cell it was taken from.  The cubes between that
end and the vacated cell slide one place towards the vacated cell; the pushed cube
ends up on the chosen end.  So a corner cube has two destinations and any other
ring cube three.

Move order (``moves`` and ``move_names`` are aligned): source cells in row-major
order from the top left; for each source, the destinations in the order
left end of its row, right end of its row, top end of its column, bottom end of
its column, leaving out the source cell itself.  Different moves may give the same
child; each is listed.

Move names: source square, ``-``, destination square, squares named as in chess
(file letter from the left, rank number from the bottom): ``b3-c3``.

End.  A line is a whole row, a whole column or one of the two long diagonals
showing one symbol.  ``primitive(state)``, for the player to move: a line of their
own symbol -> "win", else a line of the opponent's -> "lose", else None.
Primitives have no moves.  (A push making lines of both symbols loses for its
maker; the child then has the other player to move with their own line on the
board, a "win" for them, which is the same thing.)  Play can go on for ever, so
the solver may find draws.

Unreachable positions (RULES.md, Quixo "Notation"): ``x`` to move with no ``o``
on the board, other than the empty start, or ``o`` to move with no ``x`` on the
board (the empty board with ``o`` to move included).  ``unreachable(state)``
returns True for those; ``parse`` accepts them (the text is well formed) and
``primitive``/``moves`` work on them as on any other position; no move from a
position leads to one of them.

State ``(turn, board)``: ``turn`` is "x" or "o", ``board`` a string of N*N cells
"x"/"o"/"-" in row-major order, top row first.  Text ``(x --- --- ---)``: the
turn, then the rows from the top.
"""

try:
    from ._common import cell_name, int_option, no_more_options, split_board
except ImportError:  # imported as a top-level module
    from _common import cell_name, int_option, no_more_options, split_board

WIN = "win"
LOSE = "lose"
BLANK = "-"
OTHER = {"x": "o", "o": "x"}
MIN_SIZE, MAX_SIZE = 3, 5


class Game:
    name = "quixo"

    def __init__(self, **options):
        options = dict(options)
        self.size = int_option(options, "size", 5, MIN_SIZE)
        if self.size > MAX_SIZE:
            raise ValueError(f"option size must be at most {MAX_SIZE}, got {self.size}")
        no_more_options(options, self.name)
        N = self.size

        # The lines: every row, every column, the two long diagonals.
        lines = []
        for r in range(N):
            lines.append([r * N + c for c in range(N)])
        for c in range(N):
            lines.append([r * N + c for r in range(N)])
        lines.append([i * N + i for i in range(N)])
        lines.append([i * N + (N - 1 - i) for i in range(N)])
        self.lines = [tuple(line) for line in lines]

        # The slides: (source cell, destination cell, path), path = the cells from
        # the destination to the source, both included, along the row or column.
        slides = []
        for r in range(N):
            for c in range(N):
                if not (r in (0, N - 1) or c in (0, N - 1)):
                    continue  # not on the outer ring
                ends = [(r, 0), (r, N - 1), (0, c), (N - 1, c)]
                for (er, ec) in ends:
                    if (er, ec) == (r, c):
                        continue  # may not go back in where it was taken from
                    if er == r:  # along the row
                        step = 1 if c > ec else -1
                        path = [r * N + cc for cc in range(ec, c + step, step)]
                    else:        # along the column
                        step = 1 if r > er else -1
                        path = [rr * N + c for rr in range(er, r + step, step)]
                    slides.append((r * N + c, er * N + ec, tuple(path)))
        self.slides = slides
        self.names = [cell_name(src // N, src % N, N) + "-" + cell_name(dst // N, dst % N, N)
                      for src, dst, _ in slides]

    # ------------------------------------------------------------------ text
    def start(self):
        return ("x", BLANK * (self.size * self.size))

    def parse(self, text):
        N = self.size
        turn, rows = split_board(text, N, N)
        if turn not in OTHER:
            raise ValueError(f"turn must be x or o: {text!r}")
        board = "".join(rows)
        for ch in board:
            if ch not in "xo-":
                raise ValueError(f"bad cell {ch!r} in {text!r}")
        return (turn, board)

    def format(self, state):
        turn, board = state
        N = self.size
        return "(" + turn + " " + " ".join(board[r * N:(r + 1) * N] for r in range(N)) + ")"

    # ----------------------------------------------------------------- rules
    def has_line(self, board, symbol):
        for line in self.lines:
            if all(board[i] == symbol for i in line):
                return True
        return False

    def primitive(self, state):
        turn, board = state
        if self.has_line(board, turn):
            return WIN
        if self.has_line(board, OTHER[turn]):
            return LOSE
        return None

    def unreachable(self, state):
        """True for the positions RULES.md says no game reaches: ``x`` to move where
        only one player has cubes; ``o`` to move with no ``x``, or with no ``o`` and
        more than one ``x``; and a board that is not empty where the player who just
        moved has no cube on the outer ring."""
        turn, board = state
        xs, os = board.count("x"), board.count("o")
        if turn == "x" and (xs == 0) != (os == 0):
            return True
        if turn == "o" and (xs == 0 or (os == 0 and xs != 1)):
            return True
        n = self.size
        ring = [board[r * n + c] for r in range(n) for c in range(n)
                if r in (0, n - 1) or c in (0, n - 1)]
        last = "o" if turn == "x" else "x"
        return xs + os > 0 and last not in ring

    def _push(self, board, path, symbol):
        """The board after taking the cube at ``path[-1]`` and pushing a ``symbol``
        cube in at ``path[0]``: each cube of ``path[0] .. path[-2]`` moves one place
        towards ``path[-1]``."""
        cells = list(board)
        for k in range(len(path) - 1, 0, -1):
            cells[path[k]] = board[path[k - 1]]
        cells[path[0]] = symbol
        return "".join(cells)

    def _legal(self, state):
        """(index into slides, child) of every legal move, in move order."""
        if self.primitive(state) is not None:
            return []
        turn, board = state
        nxt = OTHER[turn]
        out = []
        for k, (src, dst, path) in enumerate(self.slides):
            if board[src] == nxt:
                continue  # the opponent's cube may not be taken
            out.append((k, (nxt, self._push(board, path, turn))))
        return out

    def moves(self, state):
        return [(child, False) for _, child in self._legal(state)]

    def move_names(self, state):
        return [self.names[k] for k, _ in self._legal(state)]

    def play(self, state, move):
        """The child after the named move (``"b3-c3"``, any case); ValueError if the
        move is not legal in ``state``."""
        wanted = move.strip().lower()
        for k, child in self._legal(state):
            if self.names[k] == wanted:
                return child
        raise ValueError(f"{move!r} is not a legal move in {self.format(state)}")
