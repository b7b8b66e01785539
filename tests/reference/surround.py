"""Reference Surround (written from RULES.md only).

State ``(turn, board)``: turn "w"/"b", board a string of rows*cols cells, rows
top to bottom: "w" white head, "o" white body, "b" black head, "x" black body,
"-" empty.  A move grows the mover's head one cell up/down/left/right onto an
empty cell; the old head becomes body of the mover's colour.  With
``wormholes=True`` the board wraps at every edge; directions reaching the same
cell are one move.  Standard: the player with no legal move on their turn
loses; misere: wins.
"""

try:
    from ._common import bool_option, int_option, no_more_options, split_text
except ImportError:  # imported as a top-level module
    from _common import bool_option, int_option, no_more_options, split_text

DEFAULT_3X5 = "(w -w--- ----b -----)"


class Game:
    name = "surround"

    def __init__(self, **options):
        options = dict(options)
        self.rows = int_option(options, "rows", 3, 1)
        self.cols = int_option(options, "cols", 5, 1)
        self.wormholes = bool_option(options, "wormholes")
        self.misere = bool_option(options, "misere")
        no_more_options(options, self.name)
        R, C = self.rows, self.cols
        self.size = R * C
        self.neighbours = []
        for i in range(self.size):
            r, c = divmod(i, C)
            cells = []
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                if self.wormholes:
                    rr, cc = rr % R, cc % C
                elif not (0 <= rr < R and 0 <= cc < C):
                    continue
                j = rr * C + cc
                if j != i and j not in cells:
                    cells.append(j)
            self.neighbours.append(tuple(cells))

    def start(self):
        if (self.rows, self.cols) == (3, 5):
            return self.parse(DEFAULT_3X5)
        C = self.cols
        if self.rows < 2 or C < 2:
            raise ValueError("the default start needs at least 2 rows and 2 columns")
        white, black = 1, C + C - 1
        board = ["-"] * self.size
        board[white] = "w"
        board[black] = "b"
        return ("w", "".join(board))

    def parse(self, text):
        tokens = split_text(text)
        if len(tokens) != 1 + self.rows or tokens[0].lower() not in ("w", "b"):
            raise ValueError(f"bad surround position {text!r}")
        rows = [t.lower() for t in tokens[1:]]
        for row in rows:
            if len(row) != self.cols or set(row) - set("wobx-"):
                raise ValueError(f"bad row {row!r} in {text!r}")
        board = "".join(rows)
        if board.count("w") != 1 or board.count("b") != 1:
            raise ValueError(f"need exactly one white and one black head: {text!r}")
        return (tokens[0].lower(), board)

    def format(self, state):
        turn, board = state
        C = self.cols
        return "(" + " ".join([turn] + [board[i:i + C] for i in range(0, self.size, C)]) + ")"

    def moves(self, state):
        turn, board = state
        if turn == "w":
            head, body, other = "w", "o", "b"
        else:
            head, body, other = "b", "x", "w"
        h = board.index(head)
        cells = list(board)
        cells[h] = body
        out = []
        for j in self.neighbours[h]:
            if board[j] == "-":
                cells[j] = head
                out.append(((other, "".join(cells)), False))
                cells[j] = "-"
        return out

    def primitive(self, state):
        turn, board = state
        h = board.index(turn)  # the mover's head letter equals the turn letter
        for j in self.neighbours[h]:
            if board[j] == "-":
                return None
        return "win" if self.misere else "lose"
