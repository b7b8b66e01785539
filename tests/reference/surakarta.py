"""Plain-Python reference implementation of Surakarta (written from RULES.md and
the seed text only).

Board and circuits
------------------
An ``n`` x ``n`` board of points (option ``size``, default 6, at least 3);
``(row, col)`` counts from the top-left corner, from 0.  For each
``k = 1, 2, ...`` with ``k < n-1-k`` the lines ``k`` and ``m = n-1-k`` (rows and
columns) form one circuit.  A corner loop is a circular arc around a corner of
the board, so it joins the end of a row and the end of a column that lie at
the *same distance* ``k`` from that corner's two edges:

* top-left:     left end ``(k, 0)`` of row k   <->  top end ``(0, k)`` of column k
* top-right:    right end ``(k, n-1)`` of row k <-> top end ``(0, m)`` of column m
* bottom-right: bottom end ``(n-1, m)`` of column m <-> right end ``(m, n-1)`` of row m
* bottom-left:  left end ``(m, 0)`` of row m  <->  bottom end ``(n-1, k)`` of column k

These four loops use each of the eight line ends exactly once, and the four
lines and four loops form one closed track.  Travelled once (``circuits()``
lists it in this order, ``4n`` entries):

    row k     (k,0) .. (k,n-1)     left to right, then the top-right loop
    column m  (0,m) .. (n-1,m)     downwards,     then the bottom-right loop
    row m     (m,n-1) .. (m,0)     right to left, then the bottom-left loop
    column k  (n-1,k) .. (0,k)     upwards,       then the top-left loop,
                                   back to (k,0)

The four crossings ``(k,k), (k,m), (m,m), (m,k)`` appear twice in the
sequence (once on the row, once on the column), so a circuit has ``4n``
entries and ``4n - 4`` distinct points.  6x6 (``o`` = a point; only circuit
lines are drawn; the inner loops are circuit A = lines 1 and 4, the outer
loops circuit B = lines 2 and 3)::

      .---------------.   .---------------.
      |               |   |               |
      |   .-------.   |   |   .-------.   |
      |   |       |   |   |   |       |   |
      |   |   o   o   o   o   o   o   |   |   row 0
      |   |       |   |   |   |       |   |
      |   '---o---o---o---o---o---o---'   |   row 1
      |           |   |   |   |           |
      '-------o---o---o---o---o---o-------'   row 2
                  |   |   |   |
      .-------o---o---o---o---o---o-------.   row 3
      |           |   |   |   |           |
      |   .---o---o---o---o---o---o---.   |   row 4
      |   |       |   |   |   |       |   |
      |   |   o   o   o   o   o   o   |   |   row 5
      |   |       |   |   |   |       |   |
      |   '-------'   |   |   '-------'   |
      |               |   |               |
      '---------------'   '---------------'
          col 0   1   2   3   4   5

Joined points (loop ends), 6x6:

    A (k=1, m=4): top-left (0,1)-(1,0)     top-right (1,5)-(0,4)
                  bottom-right (5,4)-(4,5)  bottom-left (4,0)-(5,1)
    B (k=2, m=3): top-left (0,2)-(2,0)     top-right (2,5)-(0,3)
                  bottom-right (5,3)-(3,5)  bottom-left (3,0)-(5,2)

The corner points and the edge lines 0 and n-1 are on no circuit; a point
such as (1,2) lies on two circuits (row 1 of A, column 2 of B).
On 5x5 the middle lines (row 2, column 2) are on no circuit; 4x4 has one
circuit (lines 1 and 2); 3x3 has none (only stepping moves).

Moves
-----
* Step: one piece moves one point in any of the 8 directions onto an empty
  point.
* Capture: a piece on a circuit travels along it in either direction (from
  every occurrence of its point in every circuit it is on, so a piece at a
  crossing may start along the row or the column, and a piece on two circuits
  may use either).  It goes over empty points only -- its own start point
  counts as empty once it has left it, so it may pass it -- and stops at the
  first occupied point: an opponent piece there is captured (the mover lands
  on it and it is removed) if at least one corner loop has been passed on the
  way, otherwise (own piece, or an opponent piece before any loop) the path
  gives nothing.  A path that returns to its own start occurrence (same
  point, same line, same direction) without meeting anything gives nothing.

A move is ``(from, to, kind)`` with points ``(row, col)`` and kind ``"step"``
or ``"capture"``; the same capture reached along several paths is one move.
``moves(state)`` gives one entry per distinct move; distinct moves always
give distinct children (the mover's piece set changes by from -> to), so this
is also exactly one entry per distinct child.  ``same_mover`` is always False.

Primitive positions (values for the player to move)
---------------------------------------------------
* the player to move has no pieces: ``"lose"`` (the opponent captured them all);
* the player to move has pieces but no legal move: ``"lose"``;
* the player who just moved has no pieces while the player to move has some
  cannot arise in play; ``parse`` rejects it (and an empty board), and
  ``primitive`` calls it ``"win"`` if it is handed one anyway.

There are no ties.  Repetition is not part of the position game: cycles are
left to the solver (DRAW).

Start: black fills the two top rows, white the two bottom rows, black to
move.  On 3x3 the two-row bands would overlap, so there each side fills one
row (``min(2, n // 2)`` rows each); the middle row stays empty.

State: ``(turn, black_mask, white_mask)``, ``turn`` in ``"b"``/``"w"``, bit
``r * n + c`` for row ``r`` from the top.  Text: ``(b bbbbbb bbbbbb ------
------ wwwwww wwwwww)`` -- turn, then rows top to bottom, cells ``b``, ``w``,
``-``.
"""

from collections import namedtuple

try:
    from ._common import format_two_colour, int_option, no_more_options, parse_two_colour
except ImportError:  # imported as a top-level module
    from _common import format_two_colour, int_option, no_more_options, parse_two_colour

STEP = "step"
CAPTURE = "capture"
_DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]

Circuit = namedtuple("Circuit", "lines points loops")
Circuit.__doc__ = """One circuit.

``lines``: ``(k, n-1-k)``, the row/column numbers it uses;
``points``: the cyclic sequence of ``(row, col)`` visited when travelling it
once (``4n`` entries, the four crossings twice);
``loops``: ``(i, corner)`` pairs: a corner loop joins ``points[i]`` to
``points[(i + 1) % len(points)]``; corner is "top-right", "bottom-right",
"bottom-left" or "top-left"."""


def circuits(n):
    """The circuits of an ``n`` x ``n`` board (see the module docstring)."""
    out = []
    k = 1
    while k < n - 1 - k:
        m = n - 1 - k
        pts = []
        loops = []
        pts += [(k, c) for c in range(n)]               # row k, left to right
        loops.append((len(pts) - 1, "top-right"))
        pts += [(r, m) for r in range(n)]               # column m, downwards
        loops.append((len(pts) - 1, "bottom-right"))
        pts += [(m, c) for c in range(n - 1, -1, -1)]   # row m, right to left
        loops.append((len(pts) - 1, "bottom-left"))
        pts += [(r, k) for r in range(n - 1, -1, -1)]   # column k, upwards
        loops.append((len(pts) - 1, "top-left"))
        out.append(Circuit((k, m), tuple(pts), tuple(loops)))
        k += 1
    return out


class Game:
    name = "surakarta"

    def __init__(self, **options):
        options = dict(options)
        self.size = int_option(options, "size", 6, 3)
        no_more_options(options, self.name)
        n = self.size
        self.n = n
        self.cells = n * n
        self._circuits = circuits(n)
        # steps[i]: mask of the 8-neighbours of cell i
        self._steps = []
        for i in range(self.cells):
            r, c = divmod(i, n)
            mask = 0
            for dr, dc in _DIRS:
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n:
                    mask |= 1 << (rr * n + cc)
            self._steps.append(mask)
        # paths[i]: every capture path of a piece on cell i, each a tuple of
        # (cell, loop passed so far) for the points after the start, in order,
        # up to (not including) the return to the start occurrence.
        self._paths = [[] for _ in range(self.cells)]
        for circ in self._circuits:
            pts = circ.points
            L = len(pts)
            after_loop = [False] * L     # a loop lies between i and i+1
            for i, _ in circ.loops:
                after_loop[i] = True
            for s in range(L):
                start = pts[s][0] * n + pts[s][1]
                for d in (1, -1):
                    path = []
                    passed = False
                    i = s
                    while True:
                        j = (i + d) % L
                        if after_loop[i if d == 1 else j]:
                            passed = True
                        if j == s:
                            break
                        path.append((pts[j][0] * n + pts[j][1], passed))
                        i = j
                    self._paths[start].append(tuple(path))

    # ---------------------------------------------------------------- layout
    def circuits(self):
        """The circuits of this board (list of ``Circuit``)."""
        return list(self._circuits)

    # ----------------------------------------------------------------- start
    def start(self):
        n = self.n
        bands = min(2, n // 2)
        full = (1 << (bands * n)) - 1
        black = full
        white = full << ((n - bands) * n)
        return ("b", black, white)

    # ------------------------------------------------------------- text form
    def parse(self, text):
        state = parse_two_colour(text, self.n, self.n)
        turn, black, white = state
        if not black and not white:
            raise ValueError(f"surakarta position without pieces: {text!r}")
        mover, opp = (black, white) if turn == "b" else (white, black)
        if mover and not opp:
            raise ValueError(
                f"the player who just moved has no pieces (cannot arise): {text!r}")
        return state

    def format(self, state):
        return format_two_colour(state, self.n, self.n)

    # ----------------------------------------------------------------- rules
    def _point(self, i):
        return divmod(i, self.n)

    def captures_from(self, state, point):
        """Cells (as points) the piece of the player to move on ``point`` can
        capture, sorted, each once."""
        turn, black, white = state
        mover, opp = (black, white) if turn == "b" else (white, black)
        start = point[0] * self.n + point[1]
        if not (mover >> start) & 1:
            raise ValueError(f"no piece of the player to move on {point}")
        return sorted(self._point(t) for t in self._capture_cells(start, mover, opp))

    def _capture_cells(self, start, mover, opp):
        found = set()
        for path in self._paths[start]:
            for cell, passed in path:
                if cell == start:
                    continue            # its own start point counts as empty
                bit = 1 << cell
                if mover & bit:
                    break               # own piece: blocked
                if opp & bit:
                    if passed:
                        found.add(cell)
                    break               # opponent before any loop: nothing
        return found

    def move_list(self, state):
        """Every legal move ``(from, to, kind)`` of the player to move, sorted
        (``[]`` if either side has no pieces).  Does not check primitivity
        otherwise; a position without moves is primitive LOSE."""
        turn, black, white = state
        mover, opp = (black, white) if turn == "b" else (white, black)
        if not opp:
            return []
        empty = ~(mover | opp)
        out = []
        m = mover
        while m:
            p = m & -m
            m ^= p
            i = p.bit_length() - 1
            frm = self._point(i)
            t = self._steps[i] & empty
            while t:
                q = t & -t
                t ^= q
                out.append((frm, self._point(q.bit_length() - 1), STEP))
            for cell in self._capture_cells(i, mover, opp):
                out.append((frm, self._point(cell), CAPTURE))
        out.sort()
        return out

    def play(self, state, move):
        """The child reached by ``move`` (no legality check beyond occupancy)."""
        turn, black, white = state
        frm, to, kind = move
        fb = 1 << (frm[0] * self.n + frm[1])
        tb = 1 << (to[0] * self.n + to[1])
        mover, opp = (black, white) if turn == "b" else (white, black)
        if not mover & fb:
            raise ValueError(f"no piece of the mover on {frm}")
        if kind == STEP:
            if (mover | opp) & tb:
                raise ValueError(f"step onto an occupied point {to}")
        elif kind == CAPTURE:
            if not opp & tb:
                raise ValueError(f"capture of an empty point {to}")
        else:
            raise ValueError(f"bad move kind {kind!r}")
        mover = (mover & ~fb) | tb
        opp &= ~tb
        if turn == "b":
            return ("w", mover, opp)
        return ("b", opp, mover)

    def moves(self, state):
        """``[(child, False), ...]``, one entry per distinct move (equivalently
        per distinct child); ``[]`` for primitive positions."""
        if self.primitive(state) is not None:
            return []
        return [(self.play(state, mv), False) for mv in self.move_list(state)]

    def _has_move(self, mover, opp):
        empty = ~(mover | opp)
        m = mover
        while m:
            p = m & -m
            m ^= p
            i = p.bit_length() - 1
            if self._steps[i] & empty:
                return True
            if self._capture_cells(i, mover, opp):
                return True
        return False

    def primitive(self, state):
        turn, black, white = state
        mover, opp = (black, white) if turn == "b" else (white, black)
        if not mover:
            return "lose"
        if not opp:
            return "win"        # cannot arise in play (parse rejects it)
        if not self._has_move(mover, opp):
            return "lose"
        return None
