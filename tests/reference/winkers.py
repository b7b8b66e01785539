"""Plain-Python reference implementation of Winkers (written from RULES.md only;
standard library only).

A hexagon of points with ``size`` points a side (3: rows of 3, 4, 5, 4, 3; 2: rows
of 2, 3, 2), numbered row by row from the top left. Each player (x first, then o)
has ``neutrals`` checkers and ``winks`` winks. A turn puts one's own checker on an
empty point, or one's own wink on a point holding a checker. A line is three winks
of one colour on neighbouring points along a straight line of the hexagon.

End (for the player to move): the other player has a line: "lose"; every point
holds a wink: "tie"; no move: "win". Checkers placed by a side are not written: the
moves made are winks + checkers on the board (winks cover checkers), x made the
odd-numbered ones, a side's checkers are its moves minus its winks.

Valid positions: the player to move is the one after that many moves; no side has
more winks or checkers than allowed; if any move was made, x has placed at least
one checker; the player to move has no line. ``from_move`` K: at least K moves made.
``symmetry``: storage only.

State ``(turn, board)``: turn "x" or "o", board a string of "-", "c", "x", "o".
"""

try:
    from ._common import bool_option, int_option, no_more_options, split_text
except ImportError:  # imported as a top-level module
    from _common import bool_option, int_option, no_more_options, split_text


class Game:
    name = "winkers"

    def __init__(self, **options):
        options = dict(options)
        self.size = int_option(options, "size", 3, 2)
        self.neutrals = int_option(options, "neutrals", 10, 1)
        self.winks = int_option(options, "winks", 10, 1)
        self.from_move = int_option(options, "from_move", 0, 0)
        bool_option(options, "symmetry", False)
        no_more_options(options, self.name)
        if self.size > 3 or self.neutrals > 10 or self.winks > 10:
            raise ValueError("size 2 or 3, neutrals and winks 1 to 10")
        # Points as (row, position in the row), rows top down; a point's place on a
        # line drawing is x = 2 * position + (widest - row length), y = row.
        side = self.size
        self.rows = [2 * side - 1 - abs(r - (side - 1)) for r in range(2 * side - 1)]
        widest = max(self.rows)
        self.places = []
        for r, length in enumerate(self.rows):
            for k in range(length):
                self.places.append((2 * k + widest - length, r))
        where = {p: i for i, p in enumerate(self.places)}
        self.lines = []
        for (x, y) in self.places:
            for dx, dy in ((2, 0), (1, 1), (-1, 1)):  # along a row, slanting either way
                trio = [(x + k * dx, y + k * dy) for k in range(3)]
                if all(p in where for p in trio):
                    self.lines.append(tuple(where[p] for p in trio))

    def start(self):
        if self.from_move:
            raise ValueError("the reference only solves whole games from the empty board")
        return ("x", "-" * len(self.places))

    def parse(self, text):
        words = split_text(text)
        if len(words) != 1 + len(self.rows) or words[0] not in ("x", "o"):
            raise ValueError(f"bad Winkers position {text!r}")
        if [len(w) for w in words[1:]] != self.rows:
            raise ValueError(f"bad Winkers rows {text!r}")
        board = "".join(words[1:])
        if set(board) - set("-cxo"):
            raise ValueError(f"bad Winkers points {text!r}")
        state = (words[0], board)
        if not self.valid(state):
            raise ValueError(f"no game reaches {text!r}")
        return state

    def format(self, state):
        turn, board = state
        words, at = [], 0
        for length in self.rows:
            words.append(board[at:at + length])
            at += length
        return "(" + turn + " " + " ".join(words) + ")"

    def counts(self, board):
        """(moves made, x's checkers, o's checkers)."""
        moves = board.count("x") + board.count("o") + (len(board) - board.count("-"))
        x_moves, o_moves = (moves + 1) // 2, moves // 2
        return moves, x_moves - board.count("x"), o_moves - board.count("o")

    def has_line(self, board, colour):
        return any(all(board[p] == colour for p in line) for line in self.lines)

    def valid(self, state):
        turn, board = state
        moves, x_checkers, o_checkers = self.counts(board)
        if turn != "xo"[moves % 2]:
            return False
        if board.count("x") > self.winks or board.count("o") > self.winks:
            return False
        if not (0 <= x_checkers <= self.neutrals and 0 <= o_checkers <= self.neutrals):
            return False
        if moves > 0 and x_checkers == 0:
            return False
        if moves < self.from_move:
            return False
        return not self.has_line(board, turn)

    def moves(self, state):
        turn, board = state
        _, x_checkers, o_checkers = self.counts(board)
        checkers = x_checkers if turn == "x" else o_checkers
        winks = board.count(turn)
        other = "o" if turn == "x" else "x"
        children = []
        for p, point in enumerate(board):
            if point == "-" and checkers < self.neutrals:
                children.append(((other, board[:p] + "c" + board[p + 1:]), False))
            elif point == "c" and winks < self.winks:
                children.append(((other, board[:p] + turn + board[p + 1:]), False))
        return children

    def primitive(self, state):
        turn, board = state
        other = "o" if turn == "x" else "x"
        if self.has_line(board, other):
            return "lose"
        if all(point in "xo" for point in board):
            return "tie"
        if not self.moves(state):
            return "win"
        return None
