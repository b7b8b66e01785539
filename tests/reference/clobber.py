"""Plain-Python reference implementation of Clobber (written from RULES.md only).

Board: ``rows`` x ``cols``; rows are listed top to bottom, cell ``a1`` is the
bottom-left one.  Start: every cell holds a stone, checkerboard pattern with
``a1`` black; black moves first.  A move puts one of your stones onto an
orthogonally adjacent opponent stone, removing that stone (the moving stone's
cell becomes empty).  A player with no legal move loses (misere: wins).

State: ``(turn, black_mask, white_mask)`` with ``turn`` in ``"b"``/``"w"`` and
bit ``r * cols + c`` standing for row ``r`` counted from the top (text order),
column ``c`` counted from the left.

Text: ``(b bwbw wbwb bwbw wbwb)`` -- turn, then the rows top to bottom, cells
``b``, ``w`` or ``-``.
"""

from ._common import bool_option, format_two_colour, int_option, parse_two_colour


class Game:
    name = "clobber"

    def __init__(self, **options):
        options = dict(options)
        self.rows = int_option(options, "rows", 4, 1)
        self.cols = int_option(options, "cols", 4, 1)
        self.misere = bool_option(options, "misere", False)
        if options:
            raise ValueError(f"unknown options for clobber: {sorted(options)}")
        R, C = self.rows, self.cols
        self.ncells = R * C
        # neighbour mask of every cell (orthogonal)
        nbr = []
        for i in range(self.ncells):
            r, c = divmod(i, C)
            m = 0
            if r > 0:
                m |= 1 << (i - C)
            if r < R - 1:
                m |= 1 << (i + C)
            if c > 0:
                m |= 1 << (i - 1)
            if c < C - 1:
                m |= 1 << (i + 1)
            nbr.append(m)
        self._nbr = nbr

    # ------------------------------------------------------------------ start
    def start(self):
        R, C = self.rows, self.cols
        black = white = 0
        for r in range(R):
            for c in range(C):
                bit = 1 << (r * C + c)
                rank = R - 1 - r  # 0 for the bottom row (rank 1)
                if (rank + c) % 2 == 0:  # a1 is black
                    black |= bit
                else:
                    white |= bit
        return ("b", black, white)

    # ------------------------------------------------------------ text format
    def parse(self, text):
        return parse_two_colour(text, self.rows, self.cols)

    def format(self, state):
        return format_two_colour(state, self.rows, self.cols)

    # ------------------------------------------------------------------ rules
    def _mover_opp(self, state):
        turn, black, white = state
        return (black, white) if turn == "b" else (white, black)

    def moves(self, state):
        turn, black, white = state
        mover, opp = (black, white) if turn == "b" else (white, black)
        nxt = "w" if turn == "b" else "b"
        nbr = self._nbr
        out = []
        m = mover
        while m:
            p = m & -m
            m ^= p
            targets = nbr[p.bit_length() - 1] & opp
            while targets:
                q = targets & -targets
                targets ^= q
                new_mover = (mover ^ p) | q
                new_opp = opp ^ q
                if turn == "b":
                    out.append(((nxt, new_mover, new_opp), False))
                else:
                    out.append(((nxt, new_opp, new_mover), False))
        return out

    def _has_move(self, state):
        mover, opp = self._mover_opp(state)
        nbr = self._nbr
        m = mover
        while m:
            p = m & -m
            m ^= p
            if nbr[p.bit_length() - 1] & opp:
                return True
        return False

    def primitive(self, state):
        if self._has_move(state):
            return None
        return "win" if self.misere else "lose"
