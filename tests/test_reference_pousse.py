"""Self-checks of the plain-Python reference Pousse (tests/reference/pousse.py):
the pushing rule case by case, straights and dominance, text and move order,
position-game solves of N = 1, 2, 3 checked position by position against the
RULES.md equations, and the real game with history (repetition loses) solved
by brute force."""

import itertools
import random
import time

import pytest

from reference.pousse import Game, real_move_results, real_value
from reference.solve import check_solution as _check_solution
from reference.solve import solve


def board(game, rows):
    """Board string from rows written top to bottom, e.g. ``"xo- ---"``."""
    return game.board_from_rows(rows)


def column_board(n, col, cells_top_to_bottom):
    """An otherwise empty N x N board with column ``col`` (0-based) filled."""
    cells = ["-"] * (n * n)
    for r, ch in enumerate(cells_top_to_bottom):
        cells[r * n + col] = ch
    return "".join(cells)


def column(game, b, col):
    n = game.size
    return "".join(b[r * n + col] for r in range(n))


# --------------------------------------------------------------- options, text
def test_options():
    assert Game().size == 4
    assert Game(size=1).size == 1
    assert Game(size=7).size == 7
    for bad in ({"size": 0}, {"size": -2}, {"size": "3"}, {"size": True},
                {"size": 2.0}, {"rows": 3}, {"misere": True}):
        with pytest.raises(ValueError):
            Game(**bad)
    assert Game(misere=False).size == 4  # misere=False is the only accepted value


def test_start_and_text():
    g = Game()
    s = g.start()
    assert g.format(s) == "(x ---- ---- ---- ----)"
    assert g.parse("(x ---- ---- ---- ----)") == s
    assert g.primitive(s) is None
    assert len(g.moves(s)) == 16
    g3 = Game(size=3)
    assert g3.format(g3.start()) == "(x --- --- ---)"
    text = "(o xo- --x oox)"
    st = g3.parse(text)
    assert g3.format(st) == text
    assert g3.parse("  ( O XO- --X OOX ) ") == st          # case and spacing
    assert g3.parse("(o xo\u2013 \u2014-x oox)") == st      # typographic dashes
    assert hash(st) == hash(g3.parse(text)) and {st, g3.parse(text)} == {st}
    for bad in ("(x --- ---)", "(x --- --- --- ---)", "(z --- --- ---)",
                "(x --a --- ---)", "(x ---- --- ---)", "x --- --- ---", 5):
        with pytest.raises(ValueError):
            g3.parse(bad)
    # round trip over every N = 2 board and both turns
    g2 = Game(size=2)
    for cells in itertools.product("xo-", repeat=4):
        for turn in "xo":
            s2 = (turn, "".join(cells))
            assert g2.parse(g2.format(s2)) == s2


def test_move_order_and_names():
    g2 = Game(size=2)
    assert g2.move_names(g2.start()) == ["L 1", "L 2", "R 1", "R 2",
                                         "T a", "T b", "B a", "B b"]
    g = Game(size=3)
    names = g.move_names(g.start())
    assert names == ["L 1", "L 2", "L 3", "R 1", "R 2", "R 3",
                     "T a", "T b", "T c", "B a", "B b", "B c"]
    # where a marker lands on the empty board: (row, col) 0-based, the top row 0:
    # rows are numbered from the bottom, columns lettered from the left
    lands = {"L 3": (0, 0), "L 2": (1, 0), "L 1": (2, 0),
             "R 3": (0, 2), "R 2": (1, 2), "R 1": (2, 2),
             "T a": (0, 0), "T b": (0, 1), "T c": (0, 2),
             "B a": (2, 0), "B b": (2, 1), "B c": (2, 2)}
    moves = g.moves(g.start())
    for name, (child, same) in zip(names, moves):
        assert same is False
        assert child[0] == "o"
        r, c = lands[name]
        expected = ["-"] * 9
        expected[r * 3 + c] = "x"
        assert child[1] == "".join(expected), name
    # aligned with insert() and play() for an arbitrary position, o to move
    s = g.parse("(o xo- -xx o-o)")
    for name, (child, _) in zip(g.move_names(s), g.moves(s)):
        assert child == ("x", g.insert(s[1], name, "o")) == g.play(s, name)
    # the other spellings of a move
    b = s[1]
    for spelling in ("T b", "Tb", "tB", " t b ", ("T", "b"), 7):
        assert g.insert(b, spelling, "x") == g.insert(b, "T b", "x")
    assert g.insert(s, "T b", "x") == g.insert(b, "T b", "x")  # a state works too
    # (T 2 and L b: columns are letters, rows numbers)
    for bad in ("X 1", "L 4", "L 0", "L", "1", "T 2", "T d", "L b", ("Q", 1), ("T", 2),
                12, -1, None):
        with pytest.raises(ValueError):
            g.insert(b, bad, "x")
    with pytest.raises(ValueError):
        g.insert(b, "L 3", "-")


# ------------------------------------------------------------------- pushing
def test_insert_into_empty_line():
    g = Game(size=4)
    empty = "-" * 16
    assert g.board_rows(g.insert(empty, "L 4", "x")) == ["x---", "----", "----", "----"]
    assert g.board_rows(g.insert(empty, "R 2", "o")) == ["----", "----", "---o", "----"]
    assert g.board_rows(g.insert(empty, "T b", "x")) == ["-x--", "----", "----", "----"]
    assert g.board_rows(g.insert(empty, "B d", "o")) == ["----", "----", "----", "---o"]
    # the entry square is empty: nothing moves, even with markers further on
    b = board(g, "-xox ---- ---- ----")
    assert g.board_rows(g.insert(b, "L 4", "o")) == ["oxox", "----", "----", "----"]
    b = board(g, "---- xox- ---- ----")
    assert g.board_rows(g.insert(b, "R 3", "o")) == ["----", "xoxo", "----", "----"]


def test_push_up_to_first_empty_square():
    g = Game(size=4)
    # from the left: x o - o; the x and o move right, the last o stays
    b = board(g, "xo-o ---- ---- ----")
    assert g.board_rows(g.insert(b, "L 4", "x")) == ["xxoo", "----", "----", "----"]
    b = board(g, "---- ox-x ---- ----")
    assert g.board_rows(g.insert(b, "L 3", "o")) == ["----", "ooxx",
                                                      "----", "----"]
    # from the right: x - o o; the two o's move left into the gap, x stays
    b = board(g, "---- ---- x-oo ----")
    assert g.board_rows(g.insert(b, "R 2", "o")) == ["----", "----", "xooo", "----"]
    # only the first empty square is filled: x x - - from the left
    b = board(g, "xx-- ---- ---- ----")
    assert g.board_rows(g.insert(b, "L 4", "o")) == ["oxx-", "----", "----", "----"]
    # from the top: column x o - x -> o x o x
    b = column_board(4, 1, "xo-x")
    assert column(g, g.insert(b, "T b", "o"), 1) == "oxox"
    # from the bottom: column (top to bottom) x - o o -> x o o x
    b = column_board(4, 2, "x-oo")
    assert column(g, g.insert(b, "B c", "x"), 2) == "xoox"
    # other lines are untouched
    b = board(g, "oxox x-oo oxxo -o-x")
    nb = g.insert(b, "R 3", "o")
    assert g.board_rows(nb) == ["oxox", "xooo", "oxxo", "-o-x"]


def test_push_into_full_line_drops_the_last_marker():
    g = Game(size=4)
    b = board(g, "xoox ---- ---- ----")
    assert g.board_rows(g.insert(b, "L 4", "o"))[0] == "oxoo"  # the right x falls off
    assert g.board_rows(g.insert(b, "R 4", "o"))[0] == "ooxo"  # the left x falls off
    b = column_board(4, 3, "xoxo")
    assert column(g, g.insert(b, "T d", "x"), 3) == "xxox"      # the bottom o falls off
    assert column(g, g.insert(b, "B d", "x"), 3) == "oxox"      # the top x falls off
    # marker counts: +1 into a line with an empty square, +0 into a full line
    b = board(g, "xoxo o--- x--- o---")
    assert g.insert(b, "L 4", "x").count("-") == b.count("-")
    assert g.insert(b, "T a", "x").count("-") == b.count("-")
    assert g.insert(b, "L 3", "x").count("-") == b.count("-") - 1
    assert g.insert(b, "B b", "x").count("-") == b.count("-") - 1


def test_insert_that_leaves_the_board_unchanged():
    g = Game(size=4)
    b = board(g, "xxxx o--- ---- ----")
    assert g.insert(b, "L 4", "x") == b
    assert g.insert(b, "R 4", "x") == b
    assert g.insert(b, "L 4", "o") != b
    b = column_board(4, 0, "oooo")
    assert g.insert(b, "T a", "o") == b and g.insert(b, "B a", "o") == b
    # such a move is legal: it is one of the 4N moves, other player to move
    g2 = Game(size=2)
    s = g2.parse("(x xx oo)")
    assert g2.primitive(s) is None  # one straight each
    kids = dict(zip(g2.move_names(s), (c for c, _ in g2.moves(s))))
    assert len(kids) == 8
    assert kids["L 2"] == kids["R 2"] == ("o", s[1])


def _insert_other_way(b, line, colour):
    """Independent formulation: remove the line's first empty square (or its
    last cell when full) and put the new marker in front."""
    values = [b[i] for i in line]
    if "-" in values:
        del values[values.index("-")]
    else:
        del values[-1]
    values = [colour] + values
    cells = list(b)
    for i, v in zip(line, values):
        cells[i] = v
    return "".join(cells)


def test_insert_matches_an_independent_formulation():
    rng = random.Random(2024)
    for n in (1, 2, 3, 4):
        g = Game(size=n)
        if n <= 2:
            boards = ["".join(c) for c in itertools.product("xo-", repeat=n * n)]
        else:
            boards = ["".join(rng.choice("xo-") for _ in range(n * n)) for _ in range(600)]
        for b in boards:
            for colour in "xo":
                for k, line in enumerate(g.lines):
                    assert g.insert(b, k, colour) == _insert_other_way(b, line, colour)


# ----------------------------------------------------------------- straights
def test_straights_rows_and_columns_only():
    g = Game(size=3)
    assert g.straights(board(g, "x-- -x- --x")) == (0, 0)   # diagonal
    assert g.straights(board(g, "--o -o- o--")) == (0, 0)   # anti-diagonal
    assert g.primitive(("x", board(g, "x-o -x- o-x"))) is None
    assert g.straights(board(g, "xxx --- ---")) == (1, 0)
    assert g.straights(board(g, "xxx x-- x--")) == (2, 0)   # a row and a column
    assert g.straights(board(g, "o-- o-- o--")) == (0, 1)
    assert g.straights(board(g, "xxo xxo xxo")) == (2, 1)
    assert g.straights(board(g, "xxx ooo xxx")) == (2, 1)
    assert g.straights(board(g, "xxx xxx xxx")) == (6, 0)
    assert g.straights(board(g, "xx- xx- ---")) == (0, 0)
    assert g.straights(board(g, "xxo oox xxo")) == (0, 0)
    g1 = Game(size=1)
    assert g1.straights("x") == (2, 0) and g1.straights("-") == (0, 0)


def test_primitive_values():
    g = Game(size=3)
    xs = board(g, "xxx o-- o--")
    assert g.primitive(("x", xs)) == "win" and g.primitive(("o", xs)) == "lose"
    assert g.moves(("x", xs)) == [] and g.move_names(("o", xs)) == []
    os_ = board(g, "o-x o-x oxx")                                # one each: o col, x col
    assert g.straights(os_) == (1, 1)
    assert g.primitive(("x", os_)) is None and len(g.moves(("o", os_))) == 12
    two_one = board(g, "xxx ooo xxx")
    assert g.primitive(("o", two_one)) == "lose" and g.primitive(("x", two_one)) == "win"
    assert g.primitive(("x", "-" * 9)) is None
    g2 = Game(size=2)
    assert g2.primitive(g2.parse("(o xx oo)")) is None           # 1 row each
    assert g2.primitive(g2.parse("(o xo xo)")) is None           # 1 column each
    assert g2.primitive(g2.parse("(o xo ox)")) is None
    assert g2.primitive(g2.parse("(o xx xo)")) == "lose"         # x: row + column


def test_move_making_straights_of_both_colours():
    # equal numbers: the game goes on
    g2 = Game(size=2)
    s = g2.parse("(x xo ox)")
    child = g2.play(s, "L 1")
    assert g2.format(child) == "(o xo xo)"
    assert g2.straights(child[1]) == (1, 1)
    assert g2.primitive(child) is None and len(g2.moves(child)) == 8
    g3 = Game(size=3)
    child = g3.play(g3.parse("(x xxo xxo oox)"), "L 1")
    assert g3.format(child) == "(o xxo xxo xoo)" and g3.straights(child[1]) == (1, 1)
    assert g3.primitive(child) is None
    # 2 against 1: the mover's colour dominates
    s = g3.parse("(x xxo oox xxo)")
    assert g3.primitive(s) is None
    child = g3.play(s, "T c")
    assert g3.format(child) == "(o xxx ooo xxx)"
    assert g3.primitive(child) == "lose"
    # o moves, making one o straight and two x straights: x wins anyway
    g4 = Game(size=4)
    s = g4.parse("(o xoxo ox-x ox-x ox-x)")
    assert g4.straights(s[1]) == (0, 0)
    child = g4.play(s, "L 4")
    assert g4.format(child) == "(x oxox ox-x ox-x ox-x)"
    assert g4.straights(child[1]) == (2, 1)
    assert g4.primitive(child) == "win"
    # o's move completing only an x straight: x wins
    child = g2.play(g2.parse("(o x- -x)"), "L 2")
    assert g2.format(child) == "(x ox -x)" and g2.primitive(child) == "win"


# ---------------------------------------------------------- position game
def check_solution(game, result):
    """The generic check, plus what Pousse adds: 4N moves everywhere, no ties."""
    _check_solution(game, result)
    assert all(len(game.moves(s)) == 4 * game.size for s in result if game.primitive(s) is None)
    assert all(v != "tie" for v, _ in result.values())



def counts(result):
    out = {}
    for v, _ in result.values():
        out[v] = out.get(v, 0) + 1
    return out


def test_position_game_n1():
    g = Game(size=1)
    res = solve(g, [g.start()])
    # every move puts x in the single cell: a row and a column for x
    assert res == {("x", "-"): ("win", 1), ("o", "x"): ("lose", 0)}
    check_solution(g, res)


def test_position_game_n2():
    g = Game(size=2)
    res = solve(g, [g.start()])
    check_solution(g, res)
    assert res[g.start()] == ("win", 3)
    assert len(res) == 93 and counts(res) == {"win": 57, "lose": 36}
    # every non-primitive position with two or more markers is a win in 1
    for s, vr in res.items():
        if g.primitive(s) is None and s[1].count("-") <= 2:
            assert vr == ("win", 1), g.format(s)
    assert res[g.parse("(o x- --)")] == ("lose", 2)


def test_position_game_n3():
    g = Game(size=3)
    t = time.time()
    res = solve(g, [g.start()])
    check_solution(g, res)
    assert time.time() - t < 30
    assert res[g.start()] == ("draw", None)
    assert len(res) == 28095
    assert counts(res) == {"win": 17302, "lose": 8826, "draw": 1967}


# -------------------------------------------------------------- real game
def test_real_game_n2_start():
    g = Game(size=2)
    for method in ("minimax", "deepening"):
        for prune in (True, False):
            assert real_value(g.start(), [], game=g, method=method, prune=prune) == ("win", 3)
    assert real_value(g.start(), ["----"], method="value") == ("win", None)
    assert g.real_value(g.start()) == ("win", 3)
    res = real_move_results(g.start(), [], game=g, method="minimax")
    assert res == [(name, "win", 2) for name in g.names]


def test_real_game_n2_equals_position_game_for_every_legal_history():
    """On 2x2 every non-terminal position with 2+ markers has an immediate
    win, and an immediate win makes a dominant board, which no legal history
    holds; so repetition never changes a value.  Walk every reachable
    (position, relevant history) pair and compare both solvers."""
    g = Game(size=2)
    pos = solve(g, [g.start()])
    start = g.start()
    stack = [(start, frozenset([start[1]]))]
    seen = set()
    while stack:
        s, hist = stack.pop()
        if (s, hist) in seen:
            continue
        seen.add((s, hist))
        if g.primitive(s) is not None:
            assert real_value(s, hist, game=g) == pos[s] == (g.primitive(s), 0)
            continue
        assert real_value(s, hist, game=g) == pos[s], (g.format(s), sorted(hist))
        m = 4 - s[1].count("-")
        for c, _ in g.moves(s):
            if c[1] in hist:
                continue  # the mover would lose by repetition
            mc = 4 - c[1].count("-")
            keep = [b for b in hist if 4 - b.count("-") >= mc] if mc > m else list(hist)
            stack.append((c, frozenset(keep + [c[1]])))
    assert len(seen) > 400


def test_real_game_methods_agree_on_random_histories():
    g = Game(size=2)
    states = list(solve(g, [g.start()]))
    boards = sorted({s[1] for s in states})
    rng = random.Random(11)
    for s in states:
        for _ in range(6):
            hist = rng.sample(boards, rng.randint(0, 25))
            rf = rng.random() < 0.5
            a = real_value(s, hist, game=g, repetition_first=rf)
            b = real_value(s, hist, game=g, method="deepening", repetition_first=rf)
            c = real_value(s, hist, game=g, method="value", repetition_first=rf)
            d = real_value(s, hist, game=g, prune=False, repetition_first=rf)
            over = g.primitive(s) is not None
            assert a == b == d and c == (a[0], 0 if over else None), (g.format(s), hist)
            if g.primitive(s) is None:
                res = real_move_results(s, hist, game=g, method="minimax",
                                        repetition_first=rf)
                wins = [r for _, v, r in res if v == "win"]
                if wins:
                    assert a == ("win", 1 + min(wins))
                else:
                    assert a == ("lose", 1 + max(r for _, _, r in res))


def test_real_game_n2_hand_made_histories():
    g = Game(size=2)
    start = g.start()
    singles = ["x---", "-x--", "--x-", "---x"]
    # every first move makes a 1-marker board; if all of them "occurred", x
    # loses at once (impossible in play: the marker count never goes down)
    assert real_value(start, singles, game=g) == ("lose", 1)
    assert all(v == "lose" and r == 0 for _, v, r in real_move_results(start, singles, game=g))
    # three of them: only the two moves onto the fourth (bottom right) avoid
    # the repetition, and they still win
    res = real_move_results(start, singles[:3], game=g, method="minimax")
    assert [(n, v) for n, v, _ in res if v == "win"] == [("R 1", "win"), ("B b", "win")]
    assert real_value(start, singles[:3], game=g) == ("win", 3)
    # a move that leaves the board unchanged repeats the current board: a loss
    s = g.parse("(x xx oo)")
    res = dict((n, (v, r)) for n, v, r in real_move_results(s, [], game=g))
    assert res["L 2"] == res["R 2"] == ("lose", 0)
    assert res["T a"] == res["T b"] == res["L 1"] == res["R 1"] == ("win", 0)
    assert real_value(s, [], game=g) == ("win", 1)
    # the current board already decided: the history does not matter
    assert real_value(g.parse("(o xx x-)"), ["xxx-"], game=g) == ("lose", 0)


def test_real_game_repetition_checked_before_dominance():
    g1 = Game(size=1)
    start = g1.start()
    # hand-made history holding the dominant board "x": every x move repeats it
    assert real_value(start, ["x"], game=g1) == ("lose", 1)
    assert real_value(start, ["x"], game=g1, repetition_first=False) == ("win", 1)
    assert real_value(start, ["o"], game=g1) == ("win", 1)
    assert real_value(start, [], game=g1) == ("win", 1)


def test_real_game_n3_repetition_decides():
    """x L2, o R2, x L2, o R2 on 3x3: without the history x would win by
    L 2 (its only winning move), but L 2 now recreates the board after the
    third move, so x loses."""
    g = Game(size=3)
    s = g.start()
    hist = [s[1]]
    for name in ("L 2", "R 2", "L 2", "R 2"):
        s = g.play(s, name)
        hist.append(s[1])
    assert g.format(s) == "(x --- xoo ---)"
    assert g.insert(s[1], "L 2", "x") == hist[3]        # "--- xxo ---"
    assert solve(g, [s])[s] == ("draw", None)           # position game
    assert real_value(s, [], game=g, method="deepening") == ("win", 3)
    fresh = real_move_results(s, [], game=g)
    assert [n for n, v, _ in fresh if v == "win"] == ["L 2"]
    assert real_value(s, hist, game=g, method="deepening") == ("lose", 2)
    assert real_value(s, hist, game=g, method="value") == ("lose", None)
    res = real_move_results(s, hist, game=g)
    assert ("L 2", "lose", 0) in res
    assert all(v == "lose" for _, v, _ in res)
    # the configuration is the board only: the turn recorded with a history
    # board is ignored
    as_states = [("o" if i % 2 else "x", b) for i, b in enumerate(hist)]
    flipped = [("x" if i % 2 else "o", b) for i, b in enumerate(hist)]
    assert real_value(s, as_states, game=g, method="deepening") == ("lose", 2)
    assert real_value(s, flipped, game=g, method="deepening") == ("lose", 2)


def test_real_game_n3_start():
    g = Game(size=3)
    t = time.time()
    assert real_value(g.start(), [], game=g, method="deepening") == ("win", 9)
    assert real_value(g.start(), [], game=g, method="value") == ("win", None)
    assert real_value(g.parse("(o x-- --- ---)"), ["---------"], game=g,
                      method="deepening") == ("lose", 8)
    assert time.time() - t < 20


def test_real_game_n3_value_and_deepening_agree_on_random_games():
    g = Game(size=3)
    rng = random.Random(3)
    for _ in range(60):
        s = g.start()
        hist = [s[1]]
        for _ in range(rng.randint(2, 14)):
            opts = [c for c, _ in g.moves(s) if c[1] not in hist and g.primitive(c) is None]
            if not opts:
                break
            s = rng.choice(opts)
            hist.append(s[1])
        v, r = real_value(s, hist, game=g, method="deepening")
        assert real_value(s, hist, game=g, method="value") == (v, None)
        res = real_move_results(s, hist, game=g)
        wins = [rr for _, vv, rr in res if vv == "win"]
        if wins:
            assert (v, r) == ("win", 1 + min(wins))
        else:
            assert (v, r) == ("lose", 1 + max(rr for _, _, rr in res))


def test_real_value_errors():
    g = Game(size=2)
    with pytest.raises(ValueError):
        real_value(g.start(), [], game=g, method="magic")
    with pytest.raises(ValueError):
        real_value(g.start(), ["x--"], game=g)
    with pytest.raises(ValueError):
        real_value(("x", "-----"), [])
    with pytest.raises(RuntimeError):
        real_value(Game(size=3).start(), [], method="minimax", max_nodes=50)
