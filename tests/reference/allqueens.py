"""Plain-Python reference implementation of All Queens Chess (written from RULES.md
only; standard library only).

Board ``N`` x ``N`` (option ``size``: 5 by default, 3 to 5). Queens a side and the
length of a winning line: 6 and 4 on 5x5, 4 and 4 on 4x4, 3 and 3 on 3x3. White
``w`` moves first. Start: the top row alternates w, b, ... from the left, the bottom
row b, w, ...; on 5x5 the middle row is ``b---w``; every other cell is empty.

Moves.  The player to move slides one of their queens along its row, column or
either diagonal over any number of empty cells (at least one), stopping before an
occupied cell or the edge; no captures.  Named ``a5-a4`` (from, to).  Order:
source cells in row-major order from the top left, then directions N, NE, E, SE,
S, SW, W, NW, then distance.

End.  A line is ``length`` consecutive cells along a row, a column or a diagonal.
If the opponent of the player to move has all of one line, the player to move has
lost (``primitive`` -> "lose").  A player with no move is not primitive: the
position has no children and the solver leaves it a draw.

Valid positions: exactly ``queens`` of each colour; the player to move has no line
(``invalid_reason``).  ``parse`` raises ValueError for an invalid text.

State ``(turn, board)``: ``turn`` "w" or "b", ``board`` a string of N*N cells
"w"/"b"/"-" in row-major order, top row first.  Text ``(w wbw --- bwb)``.
"""

try:
    from ._common import cell_name, int_option, no_more_options, split_board
except ImportError:  # imported as a top-level module
    from _common import cell_name, int_option, no_more_options, split_board

LOSE = "lose"
EMPTY = "-"
OTHER = {"w": "b", "b": "w"}
SETS = {3: (3, 3), 4: (4, 4), 5: (6, 4)}  # size -> (queens a side, line length)
DIRECTIONS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


class Game:
    name = "allqueens"

    def __init__(self, **options):
        options = dict(options)
        self.size = int_option(options, "size", 5, 3)
        if self.size not in SETS:
            raise ValueError(f"option size must be 3, 4 or 5, got {self.size}")
        no_more_options(options, self.name)
        self.queens, self.length = SETS[self.size]
        n = self.size
        self.lines = []
        for r in range(n):
            for c in range(n):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + k * dr, c + k * dc) for k in range(self.length)]
                    if all(0 <= rr < n and 0 <= cc < n for rr, cc in cells):
                        self.lines.append([rr * n + cc for rr, cc in cells])

    # ------------------------------------------------------------------ text
    def start(self):
        n = self.size
        rows = ["".join("wb"[c % 2] for c in range(n))]
        rows += [EMPTY * n for _ in range(n - 2)]
        rows.append("".join("bw"[c % 2] for c in range(n)))
        if n == 5:
            rows[2] = "b---w"
        return ("w", "".join(rows))

    def parse(self, text):
        n = self.size
        turn, rows = split_board(text, n, n)
        if turn not in OTHER:
            raise ValueError(f"turn must be w or b: {text!r}")
        board = "".join(rows)
        if set(board) - set("wb-"):
            raise ValueError(f"cells are w, b or -: {text!r}")
        state = (turn, board)
        reason = self.invalid_reason(state)
        if reason is not None:
            raise ValueError(f"{reason}: {text!r}")
        return state

    def format(self, state):
        turn, board = state
        n = self.size
        return "(" + turn + " " + " ".join(board[r * n:(r + 1) * n] for r in range(n)) + ")"

    # ----------------------------------------------------------------- rules
    def has_line(self, board, colour):
        return any(all(board[i] == colour for i in line) for line in self.lines)

    def invalid_reason(self, state):
        turn, board = state
        if board.count("w") != self.queens or board.count("b") != self.queens:
            return f"each side has {self.queens} queens"
        if self.has_line(board, turn):
            return "the player to move has a line"
        return None

    def _legal(self, state):
        """(name, child) of every slide, in move order (no end check)."""
        turn, board = state
        n = self.size
        out = []
        for i, ch in enumerate(board):
            if ch != turn:
                continue
            r, c = divmod(i, n)
            for dr, dc in DIRECTIONS:
                rr, cc = r + dr, c + dc
                while 0 <= rr < n and 0 <= cc < n and board[rr * n + cc] == EMPTY:
                    j = rr * n + cc
                    cells = list(board)
                    cells[i], cells[j] = EMPTY, turn
                    out.append((self._name(i) + "-" + self._name(j), (OTHER[turn], "".join(cells))))
                    rr += dr
                    cc += dc
        return out

    def _name(self, i):
        return cell_name(i // self.size, i % self.size, self.size)

    def primitive(self, state):
        turn, board = state
        if self.has_line(board, OTHER[turn]):
            return LOSE
        return None

    def moves(self, state):
        if self.primitive(state) is not None:
            return []
        return [(child, False) for _, child in self._legal(state)]

    def move_names(self, state):
        if self.primitive(state) is not None:
            return []
        return [name for name, _ in self._legal(state)]

    def play(self, state, move):
        """The child after the named move (``"a5-a4"``); ValueError if not legal."""
        wanted = move.strip().lower()
        for name, child in ([] if self.primitive(state) else self._legal(state)):
            if name == wanted:
                return child
        raise ValueError(f"{move!r} is not a legal move in {self.format(state)}")
