"""Reference Tomorrow's Tic-Tac-Toe (written from RULES.md only).

State ``(turn, board)``: turn "x"/"o", board a string of rows*cols cells
("x", "o", "-"), rows top to bottom.  Players alternate placing their mark on
an empty cell.  A line is k equal marks in a row horizontally or vertically
(and along both diagonal directions with ``diagonal=True``); longer runs count.

Primitive (player to move = T, opponent = the player who just moved):
* the opponent has a line -> standard LOSE for T, misere WIN;
* otherwise T has a line (cannot happen in play, only in a hand-written
  position) -> the line's owner won: standard WIN, misere LOSE;
* otherwise a full board -> TIE.
"""

try:
    from ._common import bool_option, int_option, no_more_options, split_text
except ImportError:  # imported as a top-level module
    from _common import bool_option, int_option, no_more_options, split_text

DEFAULT_3X4 = "(x ---- x--- --o-)"


class Game:
    name = "ttt"

    def __init__(self, **options):
        options = dict(options)
        self.rows = int_option(options, "rows", 3, 1)
        self.cols = int_option(options, "cols", 4, 1)
        self.k = int_option(options, "k", 3, 1)
        self.diagonal = bool_option(options, "diagonal")
        self.misere = bool_option(options, "misere")
        no_more_options(options, self.name)
        self.size = self.rows * self.cols
        self.windows = self._windows()

    def _windows(self):
        R, C, k = self.rows, self.cols, self.k
        dirs = [(0, 1), (1, 0)]
        if self.diagonal:
            dirs += [(1, 1), (1, -1)]
        out = set()
        for r in range(R):
            for c in range(C):
                for dr, dc in dirs:
                    cells = []
                    for t in range(k):
                        rr, cc = r + t * dr, c + t * dc
                        if not (0 <= rr < R and 0 <= cc < C):
                            break
                        cells.append(rr * C + cc)
                    else:
                        out.add(tuple(cells))
        return sorted(out)

    def start(self):
        if (self.rows, self.cols) == (3, 4):
            return self.parse(DEFAULT_3X4)
        return ("x", "-" * self.size)

    def parse(self, text):
        tokens = split_text(text)
        if len(tokens) != 1 + self.rows:
            raise ValueError(f"expected a turn and {self.rows} rows: {text!r}")
        turn = tokens[0].lower()
        if turn not in ("x", "o"):
            raise ValueError(f"bad turn in {text!r}")
        rows = [t.lower() for t in tokens[1:]]
        for row in rows:
            if len(row) != self.cols or set(row) - set("xo-"):
                raise ValueError(f"bad row {row!r} in {text!r}")
        return (turn, "".join(rows))

    def format(self, state):
        turn, board = state
        C = self.cols
        rows = [board[i:i + C] for i in range(0, self.size, C)]
        return "(" + " ".join([turn] + rows) + ")"

    def _has_line(self, board, mark):
        for w in self.windows:
            for i in w:
                if board[i] != mark:
                    break
            else:
                return True
        return False

    def primitive(self, state):
        turn, board = state
        other = "o" if turn == "x" else "x"
        if self._has_line(board, other):
            return "win" if self.misere else "lose"
        if self._has_line(board, turn):
            return "lose" if self.misere else "win"
        if "-" not in board:
            return "tie"
        return None

    def moves(self, state):
        turn, board = state
        other = "o" if turn == "x" else "x"
        out = []
        for i, ch in enumerate(board):
            if ch == "-":
                out.append(((other, board[:i] + turn + board[i + 1:]), False))
        return out
