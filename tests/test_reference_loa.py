"""Self-checks of the reference Lines of Action (tests/reference/loa.py).

Every expected move list below was worked out by hand from RULES.md (section
"Lines of Action") and the Olympiad rules of seed 003; cells are written
(row from the top, column from the left), counted from 0.
"""

import pytest

from reference.loa import Game
from reference.solve import check_solution, solve


def child_texts(game, text):
    """Sorted texts of the children of ``text``; checks same_mover is False."""
    out = []
    for child, same in game.moves(game.parse(text)):
        assert same is False
        out.append(game.format(child))
    return sorted(out)


def popcount(x):
    return bin(x).count("1")


# ---------------------------------------------------------------- options


def test_options():
    g = Game()
    assert (g.rows, g.cols) == (4, 4)
    g = Game(rows=3, cols=5)
    assert (g.rows, g.cols) == (3, 5)
    for bad in ({"rows": 2}, {"cols": 2}, {"rows": "4"}, {"rows": True},
                {"max_pieces": 3}, {"symmetry": True}, {"misere": True}):
        with pytest.raises(ValueError):
            Game(**bad)


# ---------------------------------------------------------------- start / text


@pytest.mark.parametrize("n,text", [
    (3, "(b -b- w-w -b-)"),
    (4, "(b -bb- w--w w--w -bb-)"),
    (5, "(b -bbb- w---w w---w w---w -bbb-)"),
    (8, "(b -bbbbbb- w------w w------w w------w w------w w------w w------w -bbbbbb-)"),
])
def test_start(n, text):
    g = Game(rows=n, cols=n)
    s = g.start()
    assert g.format(s) == text
    assert g.parse(text) == s
    turn, black, white = s
    assert turn == "b"
    assert popcount(black) == popcount(white) == 2 * (n - 2)
    assert g.primitive(s) is None


def test_start_rectangular():
    g = Game(rows=3, cols=5)
    assert g.format(g.start()) == "(b -bbb- w---w -bbb-)"


def test_parse_format_roundtrip_and_errors():
    g = Game(rows=4, cols=4)
    for t in ("(w b--- -w-- --b- ---w)", "(b ---- -bw- ---- wb--)"):
        assert g.format(g.parse(t)) == t
    s = g.parse("(W B--- -W-- --B- ---W)")        # upper case accepted
    assert g.format(s) == "(w b--- -w-- --b- ---w)"
    hash(s)
    for bad in ("(x b--- -w-- --b- ---w)",        # bad turn
                "(b b--- -w-- --b-)",             # too few rows
                "(b b--- -w-- --b- ---w ----)",   # too many rows
                "(b b---- -w-- --b- ---w)",       # row too long
                "(b b--- -x-- --b- ---w)",        # bad cell
                "b b--- -w-- --b- ---w",          # no parentheses
                "(b b--- ---- --b- ----)",        # no white piece
                "(w ---- -w-- ---- ---w)"):       # no black piece
        with pytest.raises(ValueError):
            g.parse(bad)


# ---------------------------------------------------------------- moves


def test_8x8_start_has_36_moves():
    # Per black row: 2 sideways moves of 6 (only from the end pieces),
    # 6 moves of 2 down/up the columns, 5 + 5 diagonal moves of 2 (one of
    # each kind is a capture of a white edge piece).  2 * 18 = 36; white's
    # situation is the mirror image.
    g = Game(rows=8, cols=8)
    s = g.start()
    assert len(g.moves(s)) == 36
    assert len(g.moves(("w",) + s[1:])) == 36
    captures = [c for c, _ in g.moves(s) if popcount(c[2]) == 11]
    assert len(captures) == 4
    for c, _ in g.moves(s):
        assert c[0] == "w" and popcount(c[1]) == 12


def test_3x3_start_moves():
    # (0,1): row has 1 piece -> (0,0), (0,2); column has 2 -> would land on
    # own (2,1); both diagonals hold 2 pieces -> would leave the board.
    # (2,1) likewise.
    g = Game(rows=3, cols=3)
    assert child_texts(g, "(b -b- w-w -b-)") == sorted([
        "(w b-- w-w -b-)", "(w --b w-w -b-)",
        "(w -b- w-w b--)", "(w -b- w-w --b)",
    ])


def test_moves_counting_capture_blocked():
    # 5x5, black (1,0), (4,4); white (1,2), (3,4).
    # (1,0): row 1 holds b + w = 2 pieces -> right 2 onto (1,2): capture.
    #        column 0: 1 -> (0,0), (2,0); main diagonal: 1 -> (2,1);
    #        anti-diagonal: 1 -> (0,1); the other directions leave the board.
    # (4,4): row 4: 1 -> (4,3); column 4 holds w (3,4) + b = 2 -> up 2 onto
    #        (2,4) would jump the white piece: blocked; main diagonal: 1 ->
    #        (3,3); anti-diagonal and the rest leave the board.
    g = Game(rows=5, cols=5)
    text = "(b ----- b-w-- ----- ----w ----b)"
    assert g.primitive(g.parse(text)) is None
    kids = child_texts(g, text)
    assert kids == sorted([
        "(w b---- --w-- ----- ----w ----b)",
        "(w ----- --w-- b---- ----w ----b)",
        "(w ----- --w-- -b--- ----w ----b)",
        "(w -b--- --w-- ----- ----w ----b)",
        "(w ----- --b-- ----- ----w ----b)",   # capture
        "(w ----- b-w-- ----- ----w ---b-)",
        "(w ----- b-w-- ----- ---bw -----)",
    ])
    assert "(w ----- b-w-- ----b ----w -----)" not in kids   # blocked jump
    # The capture leaves white with one piece (connected) and black split:
    # white, now to move, has won.
    assert g.primitive(g.parse("(w ----- --b-- ----- ----w ----b)")) == "win"


def test_moves_own_pieces_and_diagonals():
    # 5x5, black (2,0), (2,1), (2,3); white (0,0), (4,4).  Row 2 holds 3.
    # (2,0): right 3 lands on own (2,3): absent; up 2 onto white (0,0):
    #        capture; down 2 -> (4,0); diagonals hold 1 -> (3,1), (1,1).
    # (2,1): right 3 -> (2,4) passing over own (2,3); column 1: (1,1), (3,1);
    #        diagonals: (1,0), (3,2), (1,2), (3,0).
    # (2,3): left 3 lands on own (2,0): absent; right 3 off the board;
    #        column: (1,3), (3,3); diagonals: (1,2), (3,4), (1,4), (3,2).
    g = Game(rows=5, cols=5)
    text = "(b w---- ----- bb-b- ----- ----w)"
    assert g.primitive(g.parse(text)) is None
    kids = child_texts(g, text)
    expected = [
        "(w b---- ----- -b-b- ----- ----w)",   # (2,0)x(0,0)
        "(w w---- ----- -b-b- ----- b---w)",   # (2,0)-(4,0)
        "(w w---- ----- -b-b- -b--- ----w)",   # (2,0)-(3,1)
        "(w w---- -b--- -b-b- ----- ----w)",   # (2,0)-(1,1)
        "(w w---- ----- b--bb ----- ----w)",   # (2,1)-(2,4) over own (2,3)
        "(w w---- -b--- b--b- ----- ----w)",   # (2,1)-(1,1)
        "(w w---- ----- b--b- -b--- ----w)",   # (2,1)-(3,1)
        "(w w---- b---- b--b- ----- ----w)",   # (2,1)-(1,0)
        "(w w---- ----- b--b- --b-- ----w)",   # (2,1)-(3,2)
        "(w w---- --b-- b--b- ----- ----w)",   # (2,1)-(1,2)
        "(w w---- ----- b--b- b---- ----w)",   # (2,1)-(3,0)
        "(w w---- ---b- bb--- ----- ----w)",   # (2,3)-(1,3)
        "(w w---- ----- bb--- ---b- ----w)",   # (2,3)-(3,3)
        "(w w---- --b-- bb--- ----- ----w)",   # (2,3)-(1,2)
        "(w w---- ----- bb--- ----b ----w)",   # (2,3)-(3,4)
        "(w w---- ----b bb--- ----- ----w)",   # (2,3)-(1,4)
        "(w w---- ----- bb--- --b-- ----w)",   # (2,3)-(3,2)
    ]
    assert kids == sorted(expected)
    # (2,3)-(1,2) joins black diagonally: (2,1)-(1,2) are adjacent.
    assert g.primitive(g.parse("(w w---- --b-- bb--- ----- ----w)")) == "lose"
    # (2,1)-(1,1): (1,1) touches (2,0) but (2,3) is still apart.
    assert g.primitive(g.parse("(w w---- -b--- b--b- ----- ----w)")) is None


def test_white_moves():
    # 4x4, white (1,0), (3,3); black (0,3), (2,2).
    # (1,0): row 1: 1 -> (1,1); column 0: 1 -> (0,0), (2,0);
    #        main diagonal (1,0),(2,1),(3,2): 1 -> (2,1);
    #        anti-diagonal (0,1),(1,0): 1 -> (0,1).
    # (3,3): row 3: 1 -> (3,2); column 3 holds b (0,3) + w = 2 -> (1,3);
    #        main diagonal (0,0),(1,1),(2,2)b,(3,3): 2 -> (1,1) would jump
    #        the black (2,2): blocked; anti-diagonal: 1 -> off the board.
    g = Game(rows=4, cols=4)
    text = "(w ---b w--- --b- ---w)"
    assert g.primitive(g.parse(text)) is None
    assert child_texts(g, text) == sorted([
        "(b ---b -w-- --b- ---w)",
        "(b w--b ---- --b- ---w)",
        "(b ---b ---- w-b- ---w)",
        "(b ---b ---- -wb- ---w)",
        "(b -w-b ---- --b- ---w)",
        "(b ---b w--- --b- --w-)",
        "(b ---b w--w --b- ----)",
    ])


# ---------------------------------------------------------------- connection


def test_connection():
    g = Game(rows=5, cols=5)
    # black chain linked only diagonally; white apart -> black has won
    assert g.connected(g.parse("(w b---- -b--- --b-- ----- w---w)")[1])
    assert g.primitive(g.parse("(w b---- -b--- --b-- ----- w---w)")) == "lose"
    assert g.primitive(g.parse("(b b---- -b--- --b-- ----- w---w)")) == "win"
    # a single piece is connected
    assert g.primitive(g.parse("(b ----- --b-- ----- w---- ---w-)")) == "win"
    # a knight's-move gap is not adjacency
    s = g.parse("(b b---- --b-- ----- w---- ---w-)")
    assert not g.connected(s[1])
    assert g.primitive(s) is None
    # a gap of one empty cell in a row is not adjacency
    assert not g.connected(g.parse("(b b-b-- ----- ----- ----- ----w)")[1])
    # a U shape linked around the bottom is one group
    assert g.connected(g.parse("(b b-b-- b-b-- -b--- ----- ----w)")[1])
    # primitive positions have no moves
    assert g.moves(g.parse("(w b---- -b--- --b-- ----- w---w)")) == []


def test_tie():
    # 4x4, black (3,0), (3,2); white (0,3), (3,3); black to move.
    # Row 3 holds 3 pieces: (3,0) right 3 passes over own (3,2) and captures
    # (3,3): black (3,2),(3,3) joined and white's lone (0,3) connected -> TIE.
    # (3,0): column 1 -> (2,0); anti-diagonal (0,3)w,(3,0) holds 2 -> (1,2).
    # (3,2): row 3 left/right 3 leave the board; (2,2), (2,1), (2,3).
    g = Game(rows=4, cols=4)
    text = "(b ---w ---- ---- b-bw)"
    assert g.primitive(g.parse(text)) is None
    kids = child_texts(g, text)
    assert kids == sorted([
        "(w ---w ---- ---- --bb)",
        "(w ---w ---- b--- --bw)",
        "(w ---w --b- ---- --bw)",
        "(w ---w ---- --b- b--w)",
        "(w ---w ---- -b-- b--w)",
        "(w ---w ---- ---b b--w)",
    ])
    assert g.primitive(g.parse("(w ---w ---- ---- --bb)")) == "tie"
    assert g.primitive(g.parse("(b ---w ---- ---- --bb)")) == "tie"
    assert g.moves(g.parse("(w ---w ---- ---- --bb)")) == []
    # (3,2)-(2,1) touches (3,0) diagonally: black has won.
    assert g.primitive(g.parse("(w ---w ---- -b-- b--w)")) == "lose"
    assert g.primitive(g.parse("(w ---w ---- ---b b--w)")) is None


def test_capture_connects_only_the_captured_side():
    # 4x4, black (0,0), (3,3); white (0,2), (2,1), (3,0); black to move.
    # (0,0): row 0 holds b + w = 2 -> right 2 captures (0,2): white is left
    # with (2,1),(3,0), diagonal neighbours -> connected; black (0,2),(3,3)
    # are apart -> white, to move, has won.
    g = Game(rows=4, cols=4)
    parent = g.parse("(b b-w- ---- -w-- w--b)")
    assert g.primitive(parent) is None
    child = g.parse("(w --b- ---- -w-- w--b)")
    assert child in [c for c, _ in g.moves(parent)]
    assert g.primitive(child) == "win"
    assert g.primitive(("b",) + child[1:]) == "lose"


def test_pass():
    # 5x5: black corners (0,0), (4,4), each walled in by white.
    # (0,0): row 0 and column 0 hold 2 -> jumping white: blocked; the main
    # diagonal holds 4 -> (4,4) own piece; the anti-diagonal leaves the board.
    # (4,4) is the mirror image.  White's two groups are apart.
    g = Game(rows=5, cols=5)
    s = g.parse("(b bw--- ww--- ----- ---ww ---wb)")
    assert g.primitive(s) is None
    assert g.moves(s) == [(("w", s[1], s[2]), False)]
    # white, now to move, has moves of its own
    after = ("w", s[1], s[2])
    assert g.primitive(after) is None
    assert len(g.moves(after)) > 1


# ---------------------------------------------------------------- solving




def test_solve_3x3():
    g = Game(rows=3, cols=3)
    start = g.start()
    result = solve(g, [start])
    assert len(result) == 692
    check_solution(g, result)
    # Black's only moves shift a piece to a corner; each lets a white piece
    # step next to the other white diagonally: black loses in 2.
    assert result[start] == ("lose", 2)
    for c, _ in g.moves(start):
        assert result[c] == ("win", 1)
    values = {v for v, _ in result.values()}
    assert {"win", "lose", "tie"} <= values


def test_solve_pass_then_white_wins():
    # 3x3, black on the four corners, white (1,0), (1,2); black to move.
    # Each corner: its row and diagonal hold 2 -> would land on its own
    # piece; its column holds 3 -> off the board; the other diagonal holds 1
    # -> off the board.  So black passes.  White's (1,0) then has (2,1) and
    # (0,1) (column 3 -> off; row 2 -> own (1,2)), likewise (1,2): each of
    # the four moves puts the two white pieces diagonally side by side.
    g = Game(rows=3, cols=3)
    s = g.parse("(b b-b w-w b-b)")
    after = ("w", s[1], s[2])
    assert g.moves(s) == [(after, False)]
    assert child_texts(g, g.format(after)) == sorted([
        "(b b-b --w bwb)", "(b bwb --w b-b)", "(b bwb w-- b-b)", "(b b-b w-- bwb)",
    ])
    result = solve(g, [s])
    check_solution(g, result)
    assert len(result) == 6
    assert result[after] == ("win", 1)
    assert result[s] == ("lose", 2)       # the pass counts as one ply


def test_both_stuck_pass_forever_is_draw():
    # 3x3 (b bbw / w-w / wbb): every piece of either side would leave the
    # board or land on its own piece, and neither side is connected (black
    # {(0,0),(0,1)} / {(2,1),(2,2)}, white {(0,2),(1,2)} / {(1,0),(2,0)}).
    # Both pass forever: the cycle of two positions is a DRAW (rule 10).
    g = Game(rows=3, cols=3)
    s = g.parse("(b bbw w-w wbb)")
    after = ("w", s[1], s[2])
    assert g.primitive(s) is None and g.primitive(after) is None
    assert g.moves(s) == [(after, False)]
    assert g.moves(after) == [(s, False)]
    result = solve(g, [s])
    check_solution(g, result)
    assert result == {s: ("draw", None), after: ("draw", None)}
