"""Self-checks of the plain-Python reference Surakarta (tests/reference/surakarta.py).

The expected circuits, capture lists and move lists below are worked out by
hand from docs/RULES.md ("Surakarta") and the original description; points are
``(row, col)`` counted from the top-left corner.  A second, geometric walker
(cell by cell with a direction, turning through the corner loops at the board
edge) cross-checks the module's circuit-sequence captures on many random
positions.  Small 4x4 solves are checked position by position against the
value rules of RULES.md ("Values and remoteness", as in reference/solve.py).
"""

import itertools
import random
from collections import Counter

import pytest

from reference.solve import check_solution, solve
from reference.surakarta import CAPTURE, STEP, Game, circuits


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------
def text(n, turn, black=(), white=()):
    """Position text from lists of points."""
    rows = [["-"] * n for _ in range(n)]
    for r, c in black:
        rows[r][c] = "b"
    for r, c in white:
        assert rows[r][c] == "-"
        rows[r][c] = "w"
    return "(" + turn + " " + " ".join("".join(row) for row in rows) + ")"


def pos(n, turn, black=(), white=()):
    return Game(size=n).parse(text(n, turn, black, white))


def caps(game, state):
    return [(f, t) for f, t, k in game.move_list(state) if k == CAPTURE]


def steps(game, state):
    return [(f, t) for f, t, k in game.move_list(state) if k == STEP]


def neighbours(n, p):
    r, c = p
    return sorted((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                  if (dr, dc) != (0, 0) and 0 <= r + dr < n and 0 <= c + dc < n)


# --------------------------------------------------------------------------
# An independent geometric capture finder.
# --------------------------------------------------------------------------
def circuit_line(n, i):
    """Is row/column i part of a circuit?"""
    d = min(i, n - 1 - i)
    return d >= 1 and d < n - 1 - d


def through_loop(n, r, c, dr, dc):
    """The piece at the edge point (r, c) moving off the board in direction
    (dr, dc) goes through a corner loop: (new r, new c, new dr, new dc).

    A loop is an arc around a corner: it joins the row and the column at the
    same distance d from that corner's edges."""
    if dc:  # leaving a row at its left or right end
        d = min(r, n - 1 - r)
        col = d if dc < 0 else n - 1 - d
        if r == d:                       # upper half: top corner, enter going down
            return 0, col, 1, 0
        return n - 1, col, -1, 0         # lower half: bottom corner, going up
    d = min(c, n - 1 - c)                # leaving a column at its top or bottom
    row = d if dr < 0 else n - 1 - d
    if c == d:                           # left half: left corner, enter going right
        return row, 0, 0, 1
    return row, n - 1, 0, -1


def walker_captures(n, state, start, along=("row", "col"), start_blocks=False):
    """Targets the mover's piece on ``start`` captures, found by walking.

    ``along`` limits the starting line (row: moving left/right first; col:
    up/down first); ``start_blocks=True`` is a deliberately wrong variant in
    which the piece may not pass its own start point."""
    turn, black, white = state
    mover, opp = (black, white) if turn == "b" else (white, black)
    found = set()
    sr, sc = start
    dirs = []
    if "row" in along and circuit_line(n, sr):
        dirs += [(0, 1), (0, -1)]
    if "col" in along and circuit_line(n, sc):
        dirs += [(1, 0), (-1, 0)]
    for d0 in dirs:
        r, c, dr, dc = sr, sc, d0[0], d0[1]
        passed = False
        for _ in range(8 * n + 8):
            nr, nc = r + dr, c + dc
            if not (0 <= nr < n and 0 <= nc < n):
                nr, nc, dr, dc = through_loop(n, r, c, dr, dc)
                passed = True
            r, c = nr, nc
            if (r, c) == (sr, sc):
                if (dr, dc) == d0 or start_blocks:
                    break                    # back round to the start
                continue                     # passing its own start point
            bit = 1 << (r * n + c)
            if mover & bit:
                break
            if opp & bit:
                if passed:
                    found.add((r, c))
                break
        else:
            raise AssertionError("walker did not come back round")
    return sorted(found)


# --------------------------------------------------------------------------
# options, start, text
# --------------------------------------------------------------------------
def test_options():
    assert Game().size == 6
    assert Game(size=3).size == 3
    for bad in ({"size": 2}, {"size": "4"}, {"size": True}, {"size": 4.0},
                {"max_pieces": 3}, {"symmetry": True}, {"misere": True}, {"rows": 4}):
        with pytest.raises(ValueError):
            Game(**bad)


def test_starts():
    assert Game().format(Game().start()) == \
        "(b bbbbbb bbbbbb ------ ------ wwwwww wwwwww)"
    assert Game(size=4).format(Game(size=4).start()) == "(b bbbb bbbb wwww wwww)"
    assert Game(size=5).format(Game(size=5).start()) == \
        "(b bbbbb bbbbb ----- wwwww wwwww)"
    # 3x3: the two-row bands would overlap; one row each (documented choice)
    assert Game(size=3).format(Game(size=3).start()) == "(b bbb --- www)"
    for n in (3, 4, 5, 6, 7):
        g = Game(size=n)
        s = g.start()
        assert s[0] == "b"
        assert g.parse(g.format(s)) == s


def test_start_moves_6x6():
    g = Game()
    s = g.start()
    expected = sorted(((1, c), (2, c + d), STEP)
                      for c in range(6) for d in (-1, 0, 1) if 0 <= c + d < 6)
    assert len(expected) == 16
    assert g.move_list(s) == expected          # no captures at the start
    assert g.primitive(s) is None
    assert len(g.moves(s)) == 16
    assert all(same is False for _, same in g.moves(s))


def test_start_4x4_is_lost_at_once():
    """On 4x4 the two bands touch: black's steps all hit pieces, and every
    circuit path meets an own piece or a white one before any loop."""
    g = Game(size=4)
    s = g.start()
    assert g.move_list(s) == []
    assert g.primitive(s) == "lose"
    assert g.moves(s) == []
    # white to move in the same placement is just as stuck
    assert g.primitive(g.parse("(w bbbb bbbb wwww wwww)")) == "lose"


def test_text_round_trip_and_errors():
    g = Game()
    for t in ["(w ------ -b---- ------ ------ ----w- ------)",
              "(b b----- ------ ------ ------ ------ -----w)",
              "(b ------ ------ ------ ------ ------ -----w)",   # black has none
              "(w b----- ------ ------ ------ ------ ------)"]:  # white has none
        s = g.parse(t)
        hash(s)
        assert g.format(s) == t
        assert g.parse(g.format(s)) == s
    assert g.parse("(B ------ -B---- ------ ------ ----W- ------)") == \
        g.parse("(b ------ -b---- ------ ------ ----w- ------)")
    bad = [
        "(b ------ ------ ------ ------ ------ ------)",        # no pieces at all
        "(b b----- ------ ------ ------ ------ ------)",        # white (just moved) has none
        "(w ------ ------ ------ ------ ------ -----w)",        # black (just moved) has none
        "(x b----- ------ ------ ------ ------ -----w)",
        "(b b----- ------ ------ ------ ------ ----x-w)",
        "(b b---- ------ ------ ------ ------ -----w)",
        "(b b----- ------ ------ ------ ------)",
        "b b----- ------ ------ ------ ------ -----w",
        "(b ---- -b-- ---- --w-)",                              # 4x4 text on 6x6
    ]
    for t in bad:
        with pytest.raises(ValueError):
            g.parse(t)


# --------------------------------------------------------------------------
# circuits
# --------------------------------------------------------------------------
CIRCUITS_4 = [(
    (1, 2),
    ((1, 0), (1, 1), (1, 2), (1, 3),          # row 1, left to right
     (0, 2), (1, 2), (2, 2), (3, 2),          # column 2, down
     (2, 3), (2, 2), (2, 1), (2, 0),          # row 2, right to left
     (3, 1), (2, 1), (1, 1), (0, 1)),         # column 1, up
    ((3, "top-right"), (7, "bottom-right"), (11, "bottom-left"), (15, "top-left")),
)]

CIRCUITS_5 = [(
    (1, 3),
    ((1, 0), (1, 1), (1, 2), (1, 3), (1, 4),
     (0, 3), (1, 3), (2, 3), (3, 3), (4, 3),
     (3, 4), (3, 3), (3, 2), (3, 1), (3, 0),
     (4, 1), (3, 1), (2, 1), (1, 1), (0, 1)),
    ((4, "top-right"), (9, "bottom-right"), (14, "bottom-left"), (19, "top-left")),
)]

CIRCUITS_6 = [
    ((1, 4),
     ((1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5),
      (0, 4), (1, 4), (2, 4), (3, 4), (4, 4), (5, 4),
      (4, 5), (4, 4), (4, 3), (4, 2), (4, 1), (4, 0),
      (5, 1), (4, 1), (3, 1), (2, 1), (1, 1), (0, 1)),
     ((5, "top-right"), (11, "bottom-right"), (17, "bottom-left"), (23, "top-left"))),
    ((2, 3),
     ((2, 0), (2, 1), (2, 2), (2, 3), (2, 4), (2, 5),
      (0, 3), (1, 3), (2, 3), (3, 3), (4, 3), (5, 3),
      (3, 5), (3, 4), (3, 3), (3, 2), (3, 1), (3, 0),
      (5, 2), (4, 2), (3, 2), (2, 2), (1, 2), (0, 2)),
     ((5, "top-right"), (11, "bottom-right"), (17, "bottom-left"), (23, "top-left"))),
]


@pytest.mark.parametrize("n,expected", [(4, CIRCUITS_4), (5, CIRCUITS_5), (6, CIRCUITS_6)])
def test_circuits_exact(n, expected):
    got = [(c.lines, c.points, c.loops) for c in Game(size=n).circuits()]
    assert got == expected
    assert [(c.lines, c.points, c.loops) for c in circuits(n)] == expected


def test_no_circuits_on_3x3():
    assert Game(size=3).circuits() == []
    g = Game(size=3)
    # only steps: a lone black piece next to a white one never captures
    s = g.parse("(b b-- -w- ---)")
    assert g.move_list(s) == [((0, 0), (0, 1), STEP), ((0, 0), (1, 0), STEP)]


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 9])
def test_circuit_structure(n):
    circs = Game(size=n).circuits()
    ks = [k for k in range(1, n) if k < n - 1 - k]
    assert [c.lines for c in circs] == [(k, n - 1 - k) for k in ks]
    for circ in circs:
        k, m = circ.lines
        pts = circ.points
        L = len(pts)
        assert L == 4 * n
        counts = Counter(pts)
        assert len(counts) == 4 * n - 4
        twice = {p for p, v in counts.items() if v == 2}
        assert twice == {(k, k), (k, m), (m, m), (m, k)}      # the crossings
        assert set(counts.values()) <= {1, 2}
        # every point lies on one of the circuit's four lines
        assert all(r in (k, m) or c in (k, m) for r, c in pts)
        # the loops, by corner, join these line ends
        joins = {
            "top-left": {(k, 0), (0, k)},            # row k left end, column k top
            "top-right": {(k, n - 1), (0, m)},       # row k right end, column m top
            "bottom-right": {(n - 1, m), (m, n - 1)},  # column m bottom, row m right end
            "bottom-left": {(m, 0), (n - 1, k)},     # row m left end, column k bottom
        }
        loop_at = dict(circ.loops)
        assert sorted(loop_at.values()) == sorted(joins)
        used_ends = []
        for i in range(L):
            a, b = pts[i], pts[(i + 1) % L]
            if i in loop_at:
                assert {a, b} == joins[loop_at[i]]
                used_ends += [a, b]
            else:  # plain step along a line: orthogonal neighbours
                assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
        ends = [(k, 0), (k, n - 1), (m, 0), (m, n - 1),
                (0, k), (n - 1, k), (0, m), (n - 1, m)]
        assert sorted(used_ends) == sorted(ends)             # each end once
        # the traversal: row k rightwards, column m down, row m leftwards, column k up
        assert pts[:n] == tuple((k, c) for c in range(n))
        assert pts[n:2 * n] == tuple((r, m) for r in range(n))
        assert pts[2 * n:3 * n] == tuple((m, c) for c in reversed(range(n)))
        assert pts[3 * n:] == tuple((r, k) for r in reversed(range(n)))
    # points on no circuit: the edge lines, and the middle line on odd boards
    on = {p for c in circs for p in c.points}
    for r in range(n):
        for c in range(n):
            assert ((r, c) in on) == (circuit_line(n, r) or circuit_line(n, c))


def test_points_on_two_circuits_6x6():
    circs = Game().circuits()
    a, b = (set(c.points) for c in circs)
    assert a & b == {(1, 2), (1, 3), (4, 2), (4, 3), (2, 1), (3, 1), (2, 4), (3, 4)}


# --------------------------------------------------------------------------
# captures on hand-made positions
# --------------------------------------------------------------------------
def test_capture_through_one_loop_6x6():
    # (2,5) on row 2 (circuit B): right -> top-right loop -> (0,3): 1 loop.
    # Leftwards it meets white (2,0) before any loop: nothing.
    g = Game()
    s = pos(6, "b", black=[(2, 5)], white=[(0, 3), (2, 0)])
    assert caps(g, s) == [((2, 5), (0, 3))]
    assert steps(g, s) == [((2, 5), p) for p in neighbours(6, (2, 5))]
    # white: (0,3) backwards through the top-right loop takes (2,5); (2,0)
    # meets (2,5) before a loop one way and its own (0,3) the other way
    s = pos(6, "w", black=[(2, 5)], white=[(0, 3), (2, 0)])
    assert caps(g, s) == [((0, 3), (2, 5))]


def test_capture_through_two_loops_6x6():
    # (1,5): top-right loop, down column 4 (all empty), bottom-right loop,
    # then (4,5): 2 loops.  Leftwards along row 1 it meets (1,0) first: nothing.
    g = Game()
    s = pos(6, "b", black=[(1, 5)], white=[(4, 5), (1, 0)])
    assert caps(g, s) == [((1, 5), (4, 5))]
    assert steps(g, s) == [((1, 5), p) for p in
                           [(0, 4), (0, 5), (1, 4), (2, 4), (2, 5)]]
    assert g.move_list(s) == sorted(
        [((1, 5), p, STEP) for p in [(0, 4), (0, 5), (1, 4), (2, 4), (2, 5)]]
        + [((1, 5), (4, 5), CAPTURE)])
    # white: (4,5) back through two loops takes (1,5); (1,0) meets (1,5)
    # before a loop, and the other way its own (4,5)
    s = pos(6, "w", black=[(1, 5)], white=[(4, 5), (1, 0)])
    assert caps(g, s) == [((4, 5), (1, 5))]


def test_blocked_by_own_piece_6x6():
    # (2,5) would go through the top-right loop but meets its own (0,3);
    # (0,3) runs down column 3, around three loops, and takes (2,0).
    g = Game()
    s = pos(6, "b", black=[(2, 5), (0, 3)], white=[(2, 0)])
    assert caps(g, s) == [((0, 3), (2, 0))]
    assert walker_captures(6, s, (2, 5)) == []
    s = pos(6, "w", black=[(2, 5), (0, 3)], white=[(2, 0)])
    assert caps(g, s) == [((2, 0), (0, 3))]


def test_opponent_before_loop_4x4():
    g = Game(size=4)
    # black (1,0): rightwards meets (1,2) before any loop; leftwards through
    # the top-left loop it meets (0,1) first
    s = pos(4, "b", black=[(1, 0)], white=[(0, 1), (1, 2)])
    assert g.move_list(s) == [((1, 0), (0, 0), STEP), ((1, 0), (0, 1), CAPTURE),
                              ((1, 0), (1, 1), STEP), ((1, 0), (2, 0), STEP),
                              ((1, 0), (2, 1), STEP)]
    # without (0,1), the left way goes round three loops and takes (1,2)
    s = pos(4, "b", black=[(1, 0)], white=[(1, 2)])
    assert caps(g, s) == [((1, 0), (1, 2))]
    # and with (1,2) shielded by a second black piece behind the loops, none
    s = pos(4, "b", black=[(1, 0), (2, 2)], white=[(1, 2)])
    assert [c for c in caps(g, s) if c[0] == (1, 0)] == []


def test_capture_passing_own_start_4x4():
    # white (1,2) sits on row 1 and column 2.  Up column 2, through the
    # top-right loop, left along row 1 *through (1,2) itself* to (1,0): capture.
    # Every other path of (1,2) meets (1,0) before a loop or its own (0,1).
    g = Game(size=4)
    s = pos(4, "w", black=[(1, 0)], white=[(0, 1), (1, 2)])
    assert caps(g, s) == [((0, 1), (1, 0)), ((1, 2), (1, 0))]
    assert walker_captures(4, s, (1, 2)) == [(1, 0)]
    assert walker_captures(4, s, (1, 2), start_blocks=True) == []
    assert walker_captures(4, s, (1, 2), along=("row",)) == []
    assert steps(g, s) == sorted(
        [((0, 1), p) for p in [(0, 0), (0, 2), (1, 1)]]
        + [((1, 2), p) for p in [(0, 2), (0, 3), (1, 1), (1, 3), (2, 1), (2, 2), (2, 3)]])


def test_piece_on_two_circuits_6x6():
    # (1,2) is on row 1 (circuit A) and column 2 (circuit B).
    # A: left along row 1, top-left loop -> (0,1).  B: up column 2,
    # top-left loop -> (2,0).  Neither target is on the other circuit.
    g = Game()
    s = pos(6, "b", black=[(1, 2)], white=[(0, 1), (2, 0)])
    assert caps(g, s) == [((1, 2), (0, 1)), ((1, 2), (2, 0))]
    assert walker_captures(6, s, (1, 2), along=("row",)) == [(0, 1)]
    assert walker_captures(6, s, (1, 2), along=("col",)) == [(2, 0)]
    assert steps(g, s) == [((1, 2), p) for p in neighbours(6, (1, 2)) if p != (0, 1)]


def test_piece_at_crossing_6x6():
    # (1,1) is where row 1 and column 1 of circuit A cross.
    # Along the column, up, top-left loop -> (1,0).  Along the row, right,
    # three loops round to column 1 going up -> (2,1).  The other two starts
    # meet (1,0) / (2,1) before any loop.
    g = Game()
    s = pos(6, "b", black=[(1, 1)], white=[(1, 0), (2, 1)])
    assert caps(g, s) == [((1, 1), (1, 0)), ((1, 1), (2, 1))]
    assert walker_captures(6, s, (1, 1), along=("row",)) == [(2, 1)]
    assert walker_captures(6, s, (1, 1), along=("col",)) == [(1, 0)]
    assert steps(g, s) == [((1, 1), p) for p in
                           [(0, 0), (0, 1), (0, 2), (1, 2), (2, 0), (2, 2)]]


def test_full_round_without_capture():
    # a lone piece whose opponent is off every circuit goes all the way
    # round (every start, both ways) and captures nothing
    g = Game(size=4)
    s = pos(4, "b", black=[(1, 1)], white=[(0, 0)])
    assert caps(g, s) == []
    assert steps(g, s) == [((1, 1), p) for p in neighbours(4, (1, 1)) if p != (0, 0)]
    g6 = Game()
    s = pos(6, "b", black=[(1, 2)], white=[(5, 5)])
    assert caps(g6, s) == []
    assert len(steps(g6, s)) == 8


def test_capture_child():
    g = Game()
    s = pos(6, "b", black=[(1, 5)], white=[(4, 5), (1, 0)])
    child = g.play(s, ((1, 5), (4, 5), CAPTURE))
    assert g.format(child) == text(6, "w", black=[(4, 5)], white=[(1, 0)])
    kids = [c for c, _ in g.moves(s)]
    assert child in kids
    assert len(kids) == len(set(kids)) == 6


def test_last_capture_and_no_move_loss():
    g = Game(size=4)
    s = pos(4, "b", black=[(1, 0)], white=[(0, 1)])
    child = g.play(s, ((1, 0), (0, 1), CAPTURE))
    assert g.format(child) == "(w -b-- ---- ---- ----)"
    assert g.primitive(child) == "lose" and g.moves(child) == []
    # black in the corner, every neighbour taken, corner on no circuit
    s = pos(4, "b", black=[(0, 0)], white=[(0, 1), (1, 0), (1, 1)])
    assert g.primitive(s) == "lose"
    assert g.moves(s) == [] and g.move_list(s) == []
    # white to move there is fine (e.g. (1,1) steps away)
    s = pos(4, "w", black=[(0, 0)], white=[(0, 1), (1, 0), (1, 1)])
    assert g.primitive(s) is None and g.moves(s)
    s = pos(3, "b", black=[(0, 0)], white=[(0, 1), (1, 0), (1, 1)])
    assert Game(size=3).primitive(s) == "lose"


# --------------------------------------------------------------------------
# the module against the geometric walker
# --------------------------------------------------------------------------
@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_captures_match_walker(n):
    g = Game(size=n)
    rng = random.Random(1000 + n)
    cells = [(r, c) for r in range(n) for c in range(n)]
    checked = captured = 0
    for _ in range(400):
        k = rng.randint(2, min(12, n * n))
        pts = rng.sample(cells, k)
        nb = rng.randint(1, k - 1)
        turn = rng.choice("bw")
        s = pos(n, turn, black=pts[:nb], white=pts[nb:])
        mover = pts[:nb] if turn == "b" else pts[nb:]
        expected = sorted((p, t) for p in mover for t in walker_captures(n, s, p))
        assert caps(g, s) == expected, g.format(s)
        for p in mover:
            assert g.captures_from(s, p) == walker_captures(n, s, p)
        # steps: exactly the empty 8-neighbours
        occupied = set(pts)
        assert steps(g, s) == sorted((p, q) for p in mover for q in neighbours(n, p)
                                     if q not in occupied)
        checked += 1
        captured += bool(expected)
    assert checked == 400 and captured > 50


# --------------------------------------------------------------------------
# small solves
# --------------------------------------------------------------------------


def placements(n, nb, nw):
    cells = range(n * n)
    for B in itertools.combinations(cells, nb):
        rest = [c for c in cells if c not in B]
        for W in itertools.combinations(rest, nw):
            for turn in "bw":
                yield (turn, sum(1 << c for c in B), sum(1 << c for c in W))


def test_solve_1v1_4x4_by_hand():
    """One piece each on 4x4.  Only the four corners are off the circuit, and
    every neighbour of a corner is on it.  With two pieces on the circuit the
    mover always captures (one way round passes a loop before meeting the
    other piece).  So, for the mover:
      both on the circuit                -> WIN 1;
      mover in a corner, other on it     -> LOSE 2 (must step onto it);
      mover on it, other in a corner     -> WIN 3 (step along, it must come out);
      both in corners                    -> WIN 3 (step out; see the line above).
    """
    g = Game(size=4)
    corners = {0, 3, 12, 15}
    starts = list(placements(4, 1, 1))
    assert len(starts) == 480
    result = solve(g, starts)
    check_solution(g, result)
    for s in starts:
        turn, black, white = s
        me, other = (black, white) if turn == "b" else (white, black)
        me_c = me.bit_length() - 1 in corners
        other_c = other.bit_length() - 1 in corners
        if not me_c and not other_c:
            want = ("win", 1)
        elif me_c and not other_c:
            want = ("lose", 2)
        else:
            want = ("win", 3)
        assert result[s] == want, g.format(s)
    # besides the 480 starts only "mover has no piece" positions are reached:
    # the capturing piece always stands on one of the 12 circuit points
    # (for either turn)
    extra = [s for s in result if s not in set(starts)]
    assert len(extra) == 2 * 12
    assert all(result[s] == ("lose", 0) for s in extra)


def test_solve_few_4x4_positions():
    g = Game(size=4)
    texts = ["(b b--b ---- ---- w--w)",   # both sides in the corners
             "(b -bb- ---- ---- -ww-)",
             "(w -b-- b--- ---w --w-)",
             "(b ---- -b-- --w- ----)"]
    starts = [g.parse(t) for t in texts]
    result = solve(g, starts)
    check_solution(g, result)
    assert [result[s] for s in starts] == [("win", 5), ("win", 9), ("win", 5), ("win", 1)]
    # what these starts reach: every position with 1-2 pieces a side (both
    # turns, 29040), plus 252 with the player to move out of pieces
    values = Counter(v for v, _ in result.values())
    assert len(result) == 29292
    assert values == {"win": 20336, "lose": 8956}     # no draws, no ties
    every = set(placements(4, 1, 1)) | set(placements(4, 1, 2)) \
        | set(placements(4, 2, 1)) | set(placements(4, 2, 2))
    assert len(every) == 29040 and every <= set(result)
    out = [s for s in result if s not in every]
    # out of pieces: the opponent keeps 1 or 2 pieces, at least one of them on
    # the circuit (it made the last capture): 12 + (120 - 6), for each turn
    assert len(out) == 2 * (12 + 114)
    assert all(result[s] == ("lose", 0) for s in out)


def test_solve_3x3_draws():
    """3x3 has no circuits, so nobody can ever capture: play goes on forever
    unless a side is boxed in.  One piece each: every position is a DRAW."""
    g = Game(size=3)
    starts = list(placements(3, 1, 1))
    result = solve(g, starts)
    check_solution(g, result)
    assert len(result) == len(starts) == 144
    assert set(result.values()) == {("draw", None)}
    # from the 3x3 start (one row each) a few positions are lost by being
    # boxed in (no legal move), the rest are draws, and so is the start
    s = g.start()
    result = solve(g, [s])
    check_solution(g, result)
    assert result[s] == ("draw", None)
    assert len(result) == 3352
    assert Counter(v for v, _ in result.values()) == {"draw": 3288, "win": 56, "lose": 8}
    assert all(rem <= 1 for v, rem in result.values() if v != "draw")
    lost = sorted(g.format(x) for x, (v, _) in result.items() if v == "lose")
    assert all(Game(size=3).move_list(g.parse(t)) == [] for t in lost)


@pytest.mark.slow
def test_solve_4x4_up_to_3v3():
    """Every 4x4 position with 1-3 pieces a side (about 20 s to solve).
    Draws first appear with three pieces each."""
    g = Game(size=4)
    starts = [s for nb in (1, 2, 3) for nw in (1, 2, 3) for s in placements(4, nb, nw)]
    result = solve(g, starts)
    assert len(starts) == 553200 and len(result) == 554564
    assert Counter(v for v, _ in result.values()) == \
        {"win": 376160, "lose": 177956, "draw": 448}
    draws = Counter((bin(s[1]).count("1"), bin(s[2]).count("1"))
                    for s, (v, _) in result.items() if v == "draw")
    assert draws == {(3, 3): 448}
    assert result[g.parse("(b bb-- ---w -wb- -w--)")] == ("draw", None)
    assert max(r for v, r in result.values() if r is not None) == 17
    check_solution(g, result)
