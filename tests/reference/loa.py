"""Reference Lines of Action (written from RULES.md and seed 003 only).

Board: ``rows`` x ``cols`` (each at least 3, default 4x4; the standard board is
8x8).  Rows are listed top to bottom.  Black starts on the top and bottom rows
without the corners, white on the left and right columns without the corners;
black moves first.

State: ``(turn, black_mask, white_mask)``, ``turn`` in ``"b"``/``"w"``, bit
``r * cols + c`` for row ``r`` counted from the top (text order) and column
``c`` from the left.  Text: ``(b -bb- w--w w--w -bb-)`` -- turn, then rows top
to bottom, cells ``b``, ``w`` or ``-``.

Rules as implemented (Olympiad rules 1-10 of seed 003, as RULES.md settles them):

* A move takes one of the mover's pieces in a straight line in one of the 8
  directions (along a row, a column or either diagonal) exactly ``n`` cells,
  where ``n`` is the number of pieces of both colours on the *whole* line
  through the piece (both directions, the moving piece included).  The same
  ``n`` thus applies to both directions along one line.
* A move leaving the board is illegal.  The piece may pass over its own pieces
  but not over an opponent piece (cells strictly between start and target);
  it may not land on its own piece; landing on an opponent piece captures it.
* Connection: a side is connected when all its pieces form one group under
  8-adjacency (orthogonal and diagonal neighbours).  A single piece is
  connected.
* The game is judged on the position as it stands (so "the move that
  connects" is the move leading to it):
    - both sides connected: primitive TIE (rule 8: a move making both sides
      connected is a draw -- RULES.md maps it to TIE);
    - exactly one side connected: primitive, that side has won, i.e. WIN if it
      is the player to move (this happens after a capture that leaves only the
      captured side connected), LOSE otherwise;
    - neither connected: the game goes on.
* A player with no legal move passes (rule 9): ``moves`` then returns the one
  move to the same board with the other player to move; that position is not
  primitive.
* Rule 10 (third repetition is drawn) is not part of the position; the
  solver's DRAW value of the cyclic move graph stands for it.
* A side with no pieces never arises in play (a side reduced to one piece is
  connected, which ends the game before its last piece could be taken), so
  such boards are rejected with ValueError.
"""

try:
    from ._common import format_two_colour, int_option, no_more_options, parse_two_colour
except ImportError:  # imported as a top-level module
    from _common import format_two_colour, int_option, no_more_options, parse_two_colour

# The four lines through a cell, each as its two opposite directions (dr, dc).
_AXES = [
    ((0, 1), (0, -1)),     # row
    ((1, 0), (-1, 0)),     # column
    ((1, 1), (-1, -1)),    # main diagonal (r - c constant)
    ((1, -1), (-1, 1)),    # anti-diagonal (r + c constant)
]


def _popcount(x):
    return bin(x).count("1")


class Game:
    name = "loa"

    def __init__(self, **options):
        options = dict(options)
        self.rows = int_option(options, "rows", 4, 3)
        self.cols = int_option(options, "cols", 4, 3)
        no_more_options(options, self.name)
        R, C = self.rows, self.cols
        self.size = R * C

        def on_board(r, c):
            return 0 <= r < R and 0 <= c < C

        # neighbours[i]: mask of the (up to 8) cells adjacent to cell i.
        self.neighbours = []
        # rays[i]: list of (line_mask, path) with one entry per direction:
        #   line_mask: every cell of the whole line through i along that axis
        #              (i included), used to count the pieces on the line;
        #   path: the cells from i outwards in that direction (i excluded), as
        #         a tuple of (cell_bit, mask_of_the_cells_before_it_on_the_path).
        self.rays = []
        for i in range(self.size):
            r, c = divmod(i, C)
            nb = 0
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dr or dc) and on_board(r + dr, c + dc):
                        nb |= 1 << ((r + dr) * C + c + dc)
            self.neighbours.append(nb)
            rays = []
            for axis in _AXES:
                line = 1 << i
                paths = []
                for dr, dc in axis:
                    path = []
                    before = 0
                    rr, cc = r + dr, c + dc
                    while on_board(rr, cc):
                        bit = 1 << (rr * C + cc)
                        path.append((bit, before))
                        before |= bit
                        line |= bit
                        rr, cc = rr + dr, cc + dc
                    paths.append(tuple(path))
                for path in paths:
                    rays.append((line, path))
            self.rays.append(tuple(rays))

    # ------------------------------------------------------------------ start
    def start(self):
        R, C = self.rows, self.cols
        black = white = 0
        for c in range(1, C - 1):          # top and bottom rows, no corners
            black |= 1 << c
            black |= 1 << ((R - 1) * C + c)
        for r in range(1, R - 1):          # left and right columns, no corners
            white |= 1 << (r * C)
            white |= 1 << (r * C + C - 1)
        return ("b", black, white)

    # ------------------------------------------------------------ text format
    def parse(self, text):
        state = parse_two_colour(text, self.rows, self.cols)
        self._check(state)
        return state

    def format(self, state):
        return format_two_colour(state, self.rows, self.cols)

    def _check(self, state):
        _, black, white = state
        if not black or not white:
            raise ValueError("each side needs at least one piece (a side without "
                             "pieces cannot arise in Lines of Action)")

    # ------------------------------------------------------------------ rules
    def connected(self, pieces):
        """True when the pieces of ``pieces`` (a mask) form one 8-connected group."""
        if not pieces:
            raise ValueError("a side without pieces cannot arise")
        seen = frontier = pieces & -pieces   # start from the lowest piece
        neighbours = self.neighbours
        while frontier:
            grow = 0
            while frontier:
                p = frontier & -frontier
                frontier ^= p
                grow |= neighbours[p.bit_length() - 1]
            frontier = grow & pieces & ~seen
            seen |= frontier
        return seen == pieces

    def primitive(self, state):
        turn, black, white = state
        self._check(state)
        b_done = self.connected(black)
        w_done = self.connected(white)
        if b_done and w_done:
            return "tie"
        if not (b_done or w_done):
            return None
        mover_done = b_done if turn == "b" else w_done
        return "win" if mover_done else "lose"

    def _targets(self, state):
        """(from_bit, to_bit) of every legal move of the player to move."""
        turn, black, white = state
        mover, opp = (black, white) if turn == "b" else (white, black)
        occupied = black | white
        out = []
        m = mover
        while m:
            p = m & -m
            m ^= p
            for line, path in self.rays[p.bit_length() - 1]:
                n = _popcount(line & occupied)   # >= 1: the piece itself
                if n > len(path):
                    continue                     # would leave the board
                target, between = path[n - 1]
                if between & opp:
                    continue                     # may not jump an opponent piece
                if target & mover:
                    continue                     # may not land on its own piece
                out.append((p, target))
        return out

    def moves(self, state):
        if self.primitive(state) is not None:
            return []
        turn, black, white = state
        nxt = "w" if turn == "b" else "b"
        targets = self._targets(state)
        if not targets:
            # Rule 9: no legal move -> pass (same board, other player to move).
            return [((nxt, black, white), False)]
        out = []
        for p, q in targets:
            if turn == "b":
                child = (nxt, (black ^ p) | q, white & ~q)   # q captured if white
            else:
                child = (nxt, black & ~q, (white ^ p) | q)
            out.append((child, False))
        return out
