"""Reference Konane (written from RULES.md only).

State ``(turn, last, board)``: turn "w"/"b"; ``last`` is -1 (text ``""``) or
the index of the cell where ``turn`` just landed on a go-again turn; board a
string of rows*cols cells ("w", "b", "-"), rows top to bottom, index
``row_from_top * cols + col``.  Cell a1 (bottom left) is white and colours
alternate; a cell holds only its own colour or is empty.

A jump moves one of the mover's pieces over an orthogonally adjacent opponent
piece onto the empty cell right behind it, removing the jumped piece.  After a
jump, if the jumping piece can jump again (``goagain_any=True``: if the mover
has any jump at all), the child is a go-again state: same player to move,
``last`` = landing cell, reached by a same-mover move.  Otherwise the opponent
moves next with ``last`` = -1.  On a go-again turn the player may jump again
with the piece on ``last`` (``goagain_any``: with any piece) or pass (opponent
to move, ``last`` = -1).  Go-again states are never primitive.  Standard: a
player with no legal move loses; misere: wins.
"""

try:
    from ._common import bool_option, file_letter, int_option, no_more_options, split_text
except ImportError:  # imported as a top-level module
    from _common import bool_option, file_letter, int_option, no_more_options, split_text

DEFAULT_3X4 = '(w "" wbwb bwb- w-wb)'


class Game:
    name = "konane"

    def __init__(self, **options):
        options = dict(options)
        self.rows = int_option(options, "rows", 3, 1)
        self.cols = int_option(options, "cols", 4, 1)
        self.goagain_any = bool_option(options, "goagain_any")
        self.misere = bool_option(options, "misere")
        no_more_options(options, self.name)
        if self.cols > 26:
            raise ValueError("at most 26 columns are supported")
        R, C = self.rows, self.cols
        self.size = R * C
        # lines[i] = list of (jumped cell, landing cell) for the 4 directions
        self.lines = []
        for i in range(self.size):
            r, c = divmod(i, C)
            out = []
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                r2, c2 = r + 2 * dr, c + 2 * dc
                if 0 <= r2 < R and 0 <= c2 < C:
                    out.append(((r + dr) * C + c + dc, r2 * C + c2))
            self.lines.append(out)

    # --- geometry / text ----------------------------------------------------
    def colour(self, i):
        """The colour ("w"/"b") of cell i on the checkerboard (a1 white)."""
        r, c = divmod(i, self.cols)
        return "w" if (c + self.rows - 1 - r) % 2 == 0 else "b"

    def cell_name(self, i):
        r, c = divmod(i, self.cols)
        return f"{file_letter(c)}{self.rows - r}"

    def cell_index(self, name):
        name = name.lower()
        if len(name) < 2 or not "a" <= name[0] <= "z" or not name[1:].isdigit():
            raise ValueError(f"bad cell {name!r}")
        c, rank = ord(name[0]) - ord("a"), int(name[1:])
        if not (0 <= c < self.cols and 1 <= rank <= self.rows):
            raise ValueError(f"cell {name!r} is off the {self.rows}x{self.cols} board")
        return (self.rows - rank) * self.cols + c

    def start(self):
        if (self.rows, self.cols) == (3, 4):
            return self.parse(DEFAULT_3X4)
        if self.cols < 2:
            raise ValueError("the default start needs at least 2 columns")
        board = [self.colour(i) for i in range(self.size)]
        a1 = (self.rows - 1) * self.cols
        board[a1] = board[a1 + 1] = "-"
        return ("w", -1, "".join(board))

    def parse(self, text):
        tokens = split_text(text)
        if len(tokens) != 2 + self.rows or tokens[0].lower() not in ("w", "b"):
            raise ValueError(f"bad konane position {text!r}")
        turn = tokens[0].lower()
        rows = [t.lower() for t in tokens[2:]]
        for row in rows:
            if len(row) != self.cols or set(row) - set("wb-"):
                raise ValueError(f"bad row {row!r} in {text!r}")
        board = "".join(rows)
        for i, ch in enumerate(board):
            if ch != "-" and ch != self.colour(i):
                raise ValueError(f"{ch!r} on a {self.colour(i)!r} cell {self.cell_name(i)}: {text!r}")
        lt = tokens[1]
        if lt in ('""', "''", "\u201c\u201d"):
            last = -1
        else:
            last = self.cell_index(lt)
            if board[last] != turn:
                raise ValueError(f"go-again cell {lt} does not hold a {turn!r} piece: {text!r}")
        return (turn, last, board)

    def format(self, state):
        turn, last, board = state
        C = self.cols
        lt = '""' if last < 0 else self.cell_name(last)
        rows = [board[i:i + C] for i in range(0, self.size, C)]
        return "(" + " ".join([turn, lt] + rows) + ")"

    # --- play ---------------------------------------------------------------
    def _can_jump_from(self, board, i, opp):
        for over, dest in self.lines[i]:
            if board[over] == opp and board[dest] == "-":
                return True
        return False

    def _has_any_jump(self, board, me, opp):
        for i, ch in enumerate(board):
            if ch == me and self._can_jump_from(board, i, opp):
                return True
        return False

    def moves(self, state):
        turn, last, board = state
        opp = "b" if turn == "w" else "w"
        if last < 0 or self.goagain_any:
            sources = [i for i, ch in enumerate(board) if ch == turn]
        else:
            sources = [last]
        out = []
        for i in sources:
            for over, dest in self.lines[i]:
                if board[over] == opp and board[dest] == "-":
                    cells = list(board)
                    cells[i] = "-"
                    cells[over] = "-"
                    cells[dest] = turn
                    nb = "".join(cells)
                    if self.goagain_any:
                        again = self._has_any_jump(nb, turn, opp)
                    else:
                        again = self._can_jump_from(nb, dest, opp)
                    if again:
                        out.append(((turn, dest, nb), True))
                    else:
                        out.append(((opp, -1, nb), False))
        if last >= 0:
            out.append(((opp, -1, board), False))  # pass
        return out

    def primitive(self, state):
        turn, last, board = state
        if last >= 0:
            return None
        opp = "b" if turn == "w" else "w"
        if self._has_any_jump(board, turn, opp):
            return None
        return "win" if self.misere else "lose"
