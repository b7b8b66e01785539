"""Plain-Python reference implementation of Breakthrough (written from RULES.md only).

Board: ``rows`` x ``cols`` (at least 4 rows); rows are listed top to bottom,
``a1`` is the bottom-left cell.  White fills the two bottom rows, black the two
top rows; white moves first.  White moves up (towards the top row), black
down.  A piece moves one cell straight forward or diagonally forward onto an
empty cell, or captures an opponent piece diagonally forward (never straight).
Who reaches the opponent's home row (white: the top row, black: the bottom row)
wins: the position right after that move is primitive and a LOSE for the
player to move.  A player with no legal move (including no pieces) loses.

State: ``(turn, black_mask, white_mask)``, ``turn`` in ``"b"``/``"w"``, bit
``r * cols + c`` for row ``r`` counted from the top (text order), column ``c``
from the left.

Text: ``(w bbbb bbbb wwww wwww)`` -- turn, then rows top to bottom, cells
``b``, ``w`` or ``-``.
"""

from ._common import format_two_colour, int_option, parse_two_colour


class Game:
    name = "breakthrough"
    _default_rows = 4
    _default_cols = 4

    def __init__(self, **options):
        options = dict(options)
        self.rows = int_option(options, "rows", self._default_rows, 4)
        self.cols = int_option(options, "cols", self._default_cols, 1)
        misere = options.pop("misere", False)
        if misere is not False:
            raise ValueError(f"{self.name} has no misere variant")
        if options:
            raise ValueError(f"unknown options for {self.name}: {sorted(options)}")
        R, C = self.rows, self.cols
        self.top_mask = (1 << C) - 1                    # white's goal row
        self.bottom_mask = ((1 << C) - 1) << ((R - 1) * C)  # black's goal row
        # per colour, per cell: (quiet_targets_mask, capture_targets_mask)
        #   quiet targets: may be entered only when empty
        #   capture targets: may be entered when empty or holding an opponent piece
        self._tables = {"w": self._build(-1), "b": self._build(+1)}

    def _steps(self, dr):
        """(row step, column step, may_capture) of one piece moving in direction dr."""
        return [(dr, 0, False), (dr, -1, True), (dr, 1, True)]

    def _build(self, dr):
        R, C = self.rows, self.cols
        table = []
        for i in range(R * C):
            r, c = divmod(i, C)
            quiet = capture = 0
            for sr, sc, may_capture in self._steps(dr):
                rr, cc = r + sr, c + sc
                if 0 <= rr < R and 0 <= cc < C:
                    bit = 1 << (rr * C + cc)
                    if may_capture:
                        capture |= bit
                    else:
                        quiet |= bit
            table.append((quiet, capture))
        return tuple(table)

    # ------------------------------------------------------------------ start
    def start(self):
        C, R = self.cols, self.rows
        row = (1 << C) - 1
        black = row | (row << C)
        white = (row << ((R - 2) * C)) | (row << ((R - 1) * C))
        return ("w", black, white)

    # ------------------------------------------------------------ text format
    def parse(self, text):
        return parse_two_colour(text, self.rows, self.cols)

    def format(self, state):
        return format_two_colour(state, self.rows, self.cols)

    # ------------------------------------------------------------------ rules
    def _finished(self, state):
        """'lose' / 'win' for the player to move if a home row has been reached."""
        turn, black, white = state
        white_home = white & self.top_mask
        black_home = black & self.bottom_mask
        if turn == "w":
            opp_reached, mover_reached = black_home, white_home
        else:
            opp_reached, mover_reached = white_home, black_home
        if opp_reached:
            return "lose"
        if mover_reached:  # cannot arise in play (the game would have ended)
            return "win"
        return None

    def moves(self, state):
        if self._finished(state) is not None:
            return []
        turn, black, white = state
        if turn == "w":
            mover, opp, nxt = white, black, "b"
        else:
            mover, opp, nxt = black, white, "w"
        empty_or_opp = ~mover
        empty = ~(mover | opp)
        table = self._tables[turn]
        out = []
        m = mover
        while m:
            p = m & -m
            m ^= p
            quiet, capture = table[p.bit_length() - 1]
            targets = (quiet & empty) | (capture & empty_or_opp)
            base = mover ^ p
            while targets:
                q = targets & -targets
                targets ^= q
                new_mover = base | q
                new_opp = opp & ~q
                if turn == "w":
                    out.append(((nxt, new_opp, new_mover), False))
                else:
                    out.append(((nxt, new_mover, new_opp), False))
        return out

    def _has_move(self, state):
        turn, black, white = state
        mover, opp = (white, black) if turn == "w" else (black, white)
        empty_or_opp = ~mover
        empty = ~(mover | opp)
        table = self._tables[turn]
        m = mover
        while m:
            p = m & -m
            m ^= p
            quiet, capture = table[p.bit_length() - 1]
            if (quiet & empty) or (capture & empty_or_opp):
                return True
        return False

    def primitive(self, state):
        done = self._finished(state)
        if done is not None:
            return done
        if not self._has_move(state):
            return "lose"
        return None
