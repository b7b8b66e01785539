"""Reference Knight's Dance (written from RULES.md only).

State ``(turn, wk, bk, wn, bn)``: turn "w"/"b" and the squares of the white
king, black king, white knight, black knight as integers
``(rank - 1) * cols + file`` (file 0 = "a", rank 1 = bottom row).
Text ``(w 5 6 a1 b1 f5 b5)``.

Kings never move.  The mover's knight makes a chess knight move, not onto its
own king; landing on the opponent's king or knight is a capture, which ends
the game with the capturing knight sharing the captured square.

Primitive (capture test first):
* the player who just moved has a knight on an opposing piece -> standard LOSE
  for the player to move (misere WIN);
* the player to move has no legal move -> standard LOSE (misere WIN).

``jump_block=True``: a move (dx, dy) is blocked when the orthogonal neighbour
one step along the long leg or the diagonal neighbour one step along both legs
holds any piece (captures included).
"""

try:
    from ._common import bool_option, file_letter, int_option, no_more_options
except ImportError:  # imported as a top-level module
    from _common import bool_option, file_letter, int_option, no_more_options

DEFAULT_5X6 = "(w 5 6 a1 b1 f5 b5)"
_JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def _sign(v):
    return (v > 0) - (v < 0)


class Game:
    name = "knightsdance"

    def __init__(self, **options):
        options = dict(options)
        self.rows = int_option(options, "rows", 5, 1)
        self.cols = int_option(options, "cols", 6, 1)
        self.jump_block = bool_option(options, "jump_block")
        self.misere = bool_option(options, "misere")
        no_more_options(options, self.name)
        if self.cols > 26:
            raise ValueError("at most 26 columns are supported")
        self.size = self.rows * self.cols
        # table[sq] = list of (target, orthogonal blocker, diagonal blocker)
        self.table = []
        R, C = self.rows, self.cols
        for sq in range(self.size):
            f, r = sq % C, sq // C
            jumps = []
            for dx, dy in _JUMPS:
                tf, tr = f + dx, r + dy
                if not (0 <= tf < C and 0 <= tr < R):
                    continue
                if abs(dy) == 2:
                    ortho = (f, r + _sign(dy))
                else:
                    ortho = (f + _sign(dx), r)
                diag = (f + _sign(dx), r + _sign(dy))
                jumps.append((tr * C + tf, ortho[1] * C + ortho[0], diag[1] * C + diag[0]))
            self.table.append(jumps)
        self.names = [self.square_name(sq) for sq in range(self.size)]
        self.index = {name: sq for sq, name in enumerate(self.names)}
        self.prefix = f" {self.rows} {self.cols} "

    # --- text -------------------------------------------------------------
    def square_name(self, sq):
        return f"{file_letter(sq % self.cols)}{sq // self.cols + 1}"

    def square(self, name):
        sq = self.index.get(name)
        if sq is not None:
            return sq
        name = name.lower()
        if len(name) < 2 or not "a" <= name[0] <= "z" or not name[1:].isdigit():
            raise ValueError(f"bad square {name!r}")
        f, r = ord(name[0]) - ord("a"), int(name[1:]) - 1
        if not (0 <= f < self.cols and 0 <= r < self.rows):
            raise ValueError(f"square {name!r} is off the {self.rows}x{self.cols} board")
        return r * self.cols + f

    def start(self):
        if (self.rows, self.cols) == (5, 6):
            return self.parse(DEFAULT_5X6)
        if self.cols < 2:
            raise ValueError("the default start needs at least 2 columns")
        top = (self.rows - 1) * self.cols
        state = ("w", 0, 1, top + self.cols - 1, top + 1)
        self._check(state)
        return state

    def _check(self, state):
        turn, wk, bk, wn, bn = state
        if wk == bk:
            raise ValueError("the kings share a square")
        if wn == wk or bn == bk:
            raise ValueError("a knight stands on its own king")
        # the player to move cannot have made a capture
        if turn == "w" and wn == bk:
            raise ValueError("white to move but white's knight is on black's king")
        if turn == "b" and bn == wk:
            raise ValueError("black to move but black's knight is on white's king")

    def parse(self, text):
        if not isinstance(text, str):
            raise ValueError(f"position text must be a string, got {text!r}")
        t = text.strip()
        if t[:1] != "(" or t[-1:] != ")":
            raise ValueError(f"position must be written in parentheses: {text!r}")
        tokens = t[1:-1].split()
        if len(tokens) != 7 or tokens[0].lower() not in ("w", "b"):
            raise ValueError(f"bad knightsdance position {text!r}")
        try:
            rows, cols = int(tokens[1]), int(tokens[2])
        except ValueError:
            raise ValueError(f"bad board size in {text!r}") from None
        if rows != self.rows or cols != self.cols:
            raise ValueError(f"{text!r} is not a {self.rows}x{self.cols} position")
        sq = self.square
        state = (tokens[0].lower(), sq(tokens[3]), sq(tokens[4]), sq(tokens[5]), sq(tokens[6]))
        self._check(state)
        return state

    def format(self, state):
        turn, wk, bk, wn, bn = state
        n = self.names
        return f"({turn}{self.prefix}{n[wk]} {n[bk]} {n[wn]} {n[bn]})"

    # --- play -------------------------------------------------------------
    def moves(self, state):
        turn, wk, bk, wn, bn = state
        jb = self.jump_block
        out = []
        if turn == "w":
            for t, o, d in self.table[wn]:
                if t == wk:
                    continue
                if jb and (o == wk or o == bk or o == bn or d == wk or d == bk or d == bn):
                    continue
                out.append((("b", wk, bk, t, bn), False))
        else:
            for t, o, d in self.table[bn]:
                if t == bk:
                    continue
                if jb and (o == wk or o == bk or o == wn or d == wk or d == bk or d == wn):
                    continue
                out.append((("w", wk, bk, wn, t), False))
        return out

    def primitive(self, state):
        turn, wk, bk, wn, bn = state
        if turn == "w":
            captured = bn == wk or bn == wn
        else:
            captured = wn == bk or wn == bn
        if captured or not self._has_move(state):
            return "win" if self.misere else "lose"
        return None

    def _has_move(self, state):
        turn, wk, bk, wn, bn = state
        if turn == "w":
            own, src = wk, wn
        else:
            own, src = bk, bn
        occupied = (wk, bk, wn, bn)
        for t, o, d in self.table[src]:
            if t == own:
                continue
            if self.jump_block and (o in occupied or d in occupied):
                continue
            return True
        return False

    def all_placements(self):
        """Every legal placement of the four pieces, both turns.

        Kings on distinct squares, no knight on its own king.  A knight may
        share a square with an opposing piece only if it belongs to the player
        who just moved (a capture that ended the game); the player to move
        never has a knight on an opposing piece (the white knight sharing the
        black knight's square with black to move is white's capture).
        """
        n = self.size
        out = []
        for wk in range(n):
            for bk in range(n):
                if bk == wk:
                    continue
                for wn in range(n):
                    if wn == wk:
                        continue
                    for bn in range(n):
                        if bn == bk:
                            continue
                        # white to move: black just moved; white's knight may
                        # not sit on black's king; a shared knight square is
                        # black's capture.
                        if wn != bk:
                            out.append(("w", wk, bk, wn, bn))
                        if bn != wk:
                            out.append(("b", wk, bk, wn, bn))
        return out
