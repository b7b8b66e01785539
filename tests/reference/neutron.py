"""Plain-Python reference implementation of Neutron (written from RULES.md only;
standard library only).

Board ``rows`` x ``cols`` (options, default 5 x 5, each 3, 5 or 7). ``x`` (moves
first) has a piece on every square of the bottom row, its home row; ``o`` on every
square of the top row, its home row; the neutron ``n`` on the centre square.

A slide: a piece or the neutron goes in one of eight directions over empty squares
and stops where the next square is off the board or taken; at least one square.

Moves: at the start, ``x`` slides one of its pieces only. Every later turn: slide
the neutron; if it stops on either home row the turn (and the game) ends there;
otherwise slide one of the mover's own pieces (a neutron slide after which no own
piece can slide is not a move).

End, for the player to move: the neutron on their own home row -> "win"; on the
other's home row -> "lose"; no move -> "lose".

State ``(turn, board, start)``: turn "x" or "o", board a string of cells row-major
from the top, start True only at the start. Text ``(x ooo -n- xxx)``; the start's
board with x to move but not the start is ``(x again ooo -n- xxx)``.
"""

try:
    from ._common import int_option, no_more_options, split_text
except ImportError:  # imported as a top-level module
    from _common import int_option, no_more_options, split_text

WIN = "win"
LOSE = "lose"
STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


class Game:
    name = "neutron"

    def __init__(self, **options):
        options = dict(options)
        self.rows = int_option(options, "rows", 5, 3)
        self.cols = int_option(options, "cols", 5, 3)
        no_more_options(options, self.name)
        if self.rows % 2 == 0 or self.cols % 2 == 0:
            raise ValueError("rows and cols must be odd")

    def start_board(self):
        rows = ["-" * self.cols for _ in range(self.rows)]
        rows[0] = "o" * self.cols
        rows[-1] = "x" * self.cols
        middle = self.rows // 2
        rows[middle] = rows[middle][:self.cols // 2] + "n" + rows[middle][self.cols // 2 + 1:]
        return "".join(rows)

    def start(self):
        return ("x", self.start_board(), True)

    def parse(self, text):
        tokens = split_text(text)
        start = True
        if len(tokens) > 1 and tokens[1] == "again":
            tokens = [tokens[0]] + tokens[2:]
            start = False
        if len(tokens) != self.rows + 1 or tokens[0] not in ("x", "o"):
            raise ValueError(f"bad Neutron position {text!r}")
        board = "".join(tokens[1:])
        if len(board) != self.rows * self.cols or set(board) - set("xon-"):
            raise ValueError(f"bad Neutron position {text!r}")
        if board.count("n") != 1 or board.count("x") != self.cols or board.count("o") != self.cols:
            raise ValueError(f"wrong piece counts in {text!r}")
        is_start_board = tokens[0] == "x" and board == self.start_board()
        if not start and not is_start_board:
            raise ValueError(f"'again' only with the start's board: {text!r}")
        return (tokens[0], board, start and is_start_board)

    def format(self, state):
        turn, board, start = state
        rows = [board[r * self.cols:(r + 1) * self.cols] for r in range(self.rows)]
        head = turn
        if not start and turn == "x" and board == self.start_board():
            head = "x again"
        return "(" + head + " " + " ".join(rows) + ")"

    def slide(self, board, cell):
        """Every (direction, stop) of the piece on ``cell`` that moves it."""
        r, c = divmod(cell, self.cols)
        result = []
        for dr, dc in STEPS:
            rr, cc = r, c
            while (0 <= rr + dr < self.rows and 0 <= cc + dc < self.cols
                   and board[(rr + dr) * self.cols + cc + dc] == "-"):
                rr, cc = rr + dr, cc + dc
            if (rr, cc) != (r, c):
                result.append(rr * self.cols + cc)
        return result

    @staticmethod
    def moved(board, source, target):
        cells = list(board)
        cells[source], cells[target] = "-", cells[source]
        return "".join(cells)

    def on_home_row(self, cell):
        return cell < self.cols or cell >= (self.rows - 1) * self.cols

    def piece_slides(self, board, turn):
        out = []
        for cell, ch in enumerate(board):
            if ch == turn:
                for stop in self.slide(board, cell):
                    out.append(self.moved(board, cell, stop))
        return out

    def moves(self, state):
        turn, board, start = state
        other = "o" if turn == "x" else "x"
        boards = []
        if start:
            boards = self.piece_slides(board, turn)
        else:
            n = board.index("n")
            for stop in self.slide(board, n):
                after = self.moved(board, n, stop)
                if self.on_home_row(stop):
                    boards.append(after)
                else:
                    boards += self.piece_slides(after, turn)
        return [((other, b, False), False) for b in boards]

    def primitive(self, state):
        turn, board, start = state
        n = board.index("n")
        bottom = n >= (self.rows - 1) * self.cols
        top = n < self.cols
        if bottom or top:
            own = bottom if turn == "x" else top
            return WIN if own else LOSE
        if not self.moves(state):
            return LOSE
        return None
