"""Reference Northcott's Game (written from RULES.md only).

State ``(turn, rows)``: turn "L"/"R", rows a tuple of (a, b, c) triples (row
word ``aLbRc``: a cells left of L, b between, c right of R; a+b+c+2 = cols).
A move picks a row and moves the mover's piece 1..b cells towards the
opponent; with ``backward=True`` also 1..a (L) or 1..c (R) cells away from it.
Standard: the player who cannot move loses; misere: wins.
"""

import re

try:
    from ._common import bool_option, int_option, no_more_options, split_text
except ImportError:  # imported as a top-level module
    from _common import bool_option, int_option, no_more_options, split_text

DEFAULT_3X6 = "(L 1L3R0 0L1R3 1L2R1)"
_ROW = re.compile(r"^(\d+)L(\d+)R(\d+)$")


class Game:
    name = "northcott"

    def __init__(self, **options):
        options = dict(options)
        self.rows = int_option(options, "rows", 3, 1)
        self.cols = int_option(options, "cols", 6, 2)
        self.backward = bool_option(options, "backward")
        self.misere = bool_option(options, "misere")
        no_more_options(options, self.name)

    def start(self):
        if (self.rows, self.cols) == (3, 6):
            return self.parse(DEFAULT_3X6)
        return ("L", ((0, self.cols - 2, 0),) * self.rows)

    def parse(self, text):
        tokens = split_text(text)
        if len(tokens) != 1 + self.rows or tokens[0].upper() not in ("L", "R"):
            raise ValueError(f"bad northcott position {text!r}")
        rows = []
        for word in tokens[1:]:
            m = _ROW.match(word.upper())
            if not m:
                raise ValueError(f"bad row {word!r} in {text!r}")
            a, b, c = (int(g) for g in m.groups())
            if a + b + c + 2 != self.cols:
                raise ValueError(f"row {word!r} is not {self.cols} cells wide")
            rows.append((a, b, c))
        return (tokens[0].upper(), tuple(rows))

    def format(self, state):
        turn, rows = state
        return "(" + " ".join([turn] + [f"{a}L{b}R{c}" for a, b, c in rows]) + ")"

    def moves(self, state):
        turn, rows = state
        other = "R" if turn == "L" else "L"
        out = []
        for i, (a, b, c) in enumerate(rows):
            new = []
            if turn == "L":
                new += [(a + d, b - d, c) for d in range(1, b + 1)]
                if self.backward:
                    new += [(a - d, b + d, c) for d in range(1, a + 1)]
            else:
                new += [(a, b - d, c + d) for d in range(1, b + 1)]
                if self.backward:
                    new += [(a, b + d, c - d) for d in range(1, c + 1)]
            for row in new:
                out.append(((other, rows[:i] + (row,) + rows[i + 1:]), False))
        return out

    def primitive(self, state):
        turn, rows = state
        for a, b, c in rows:
            if b > 0:
                return None
            if self.backward and (a if turn == "L" else c) > 0:
                return None
        return "win" if self.misere else "lose"
