"""Plain-Python reference implementation of Domineering (written from RULES.md only).

Board: ``rows`` x ``cols``, empty at start.  The first player ``v`` places a
vertical domino (two vertically adjacent empty cells), the second player ``h``
a horizontal one (two horizontally adjacent empty cells).  A player with no
legal move loses (misere: wins).

State: ``(turn, covered_mask)`` with ``turn`` in ``"v"``/``"h"`` and bit
``r * cols + c`` for row ``r`` counted from the top (text order), column ``c``
from the left.

Text: ``(v ----- ----- ...)`` -- turn, then the rows top to bottom, cells
``-`` (empty) or ``#`` (covered).
"""

from ._common import bool_option, int_option, split_board


class Game:
    name = "domineering"

    def __init__(self, **options):
        options = dict(options)
        self.rows = int_option(options, "rows", 5, 1)
        self.cols = int_option(options, "cols", 5, 1)
        self.misere = bool_option(options, "misere", False)
        if options:
            raise ValueError(f"unknown options for domineering: {sorted(options)}")
        R, C = self.rows, self.cols
        vert = []
        horiz = []
        for r in range(R):
            for c in range(C):
                i = r * C + c
                if r + 1 < R:
                    vert.append((1 << i) | (1 << (i + C)))
                if c + 1 < C:
                    horiz.append((1 << i) | (1 << (i + 1)))
        self._dominoes = {"v": tuple(vert), "h": tuple(horiz)}

    def start(self):
        return ("v", 0)

    def parse(self, text):
        turn, rows = split_board(text, self.rows, self.cols)
        turn = turn.lower()
        if turn not in ("v", "h"):
            raise ValueError(f"turn must be v or h: {text!r}")
        covered = 0
        i = 0
        for row in rows:
            for ch in row:
                if ch == "#":
                    covered |= 1 << i
                elif ch != "-":
                    raise ValueError(f"bad cell {ch!r} in {text!r}")
                i += 1
        return (turn, covered)

    def format(self, state):
        turn, covered = state
        C = self.cols
        out = []
        for r in range(self.rows):
            out.append("".join("#" if covered >> (r * C + c) & 1 else "-" for c in range(C)))
        return "(" + turn + " " + " ".join(out) + ")"

    def moves(self, state):
        turn, covered = state
        nxt = "h" if turn == "v" else "v"
        return [((nxt, covered | d), False) for d in self._dominoes[turn] if not covered & d]

    def primitive(self, state):
        turn, covered = state
        for d in self._dominoes[turn]:
            if not covered & d:
                return None
        return "win" if self.misere else "lose"
