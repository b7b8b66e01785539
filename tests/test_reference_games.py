"""Self-checks of the reference games (tests/reference/) against known facts and
the example games of the seed texts, and properties of mid-sized solves from the
default starts."""

import pytest

from reference import GAMES, make_game, solve, solve_all


def children_texts(game, text):
    return [game.format(c) for c, _ in game.moves(game.parse(text))]


def replay(name, options, texts):
    """Each text must be a child of the one before."""
    game = make_game(name, **options)
    for a, b in zip(texts, texts[1:]):
        assert b in children_texts(game, a), (a, b)
    return game


def test_registry():
    for name in ("1210", "ttt", "northcott", "knightsdance", "surround", "konane"):
        assert name in GAMES
        game = make_game(name)
        assert isinstance(game, GAMES[name])


@pytest.mark.parametrize("name,bad", [
    ("1210", {"target": 0}),
    ("1210", {"max_step": "2"}),
    ("ttt", {"k": 0}),
    ("ttt", {"diagonal": 1}),
    ("northcott", {"cols": 1}),
    ("knightsdance", {"rows": 0}),
    ("surround", {"wormhole": True}),
    ("konane", {"goagain_any": None}),
])
def test_bad_options(name, bad):
    with pytest.raises(ValueError):
        make_game(name, **bad)


def test_default_starts():
    starts = {
        "1210": "(L 0)",
        "ttt": "(x ---- x--- --o-)",
        "northcott": "(L 1L3R0 0L1R3 1L2R1)",
        "knightsdance": "(w 5 6 a1 b1 f5 b5)",
        "surround": "(w -w--- ----b -----)",
        "konane": '(w "" wbwb bwb- w-wb)',
    }
    for name, text in starts.items():
        game = make_game(name)
        assert game.format(game.start()) == text
        assert game.parse(text) == game.start()
    other = {
        "ttt": ({"rows": 3, "cols": 3}, "(x --- --- ---)"),
        "northcott": ({"rows": 2, "cols": 4}, "(L 0L2R0 0L2R0)"),
        "knightsdance": ({"rows": 4, "cols": 4}, "(w 4 4 a1 b1 d4 b4)"),
        "surround": ({"rows": 4, "cols": 4}, "(w -w-- ---b ---- ----)"),
        "konane": ({"rows": 4, "cols": 4}, '(w "" bwbw wbwb bwbw --wb)'),
    }
    for name, (options, text) in other.items():
        game = make_game(name, **options)
        assert game.format(game.start()) == text
    # the 3x4 Tic-Tac-Toe start goes with every other option
    game = make_game("ttt", k=2, diagonal=True, misere=True)
    assert game.format(game.start()) == "(x ---- x--- --o-)"


# --- 1,2,...,10 ---------------------------------------------------------------

def test_1210_standard_formula():
    for target in range(1, 16):
        for step in range(1, 5):
            r = solve_all("1210", {"target": target, "max_step": step}, ["(L 0)"])
            for s in range(target + 1):
                d = target - s
                q, m = divmod(d, step + 1)
                expect = ("lose", 2 * q) if m == 0 else ("win", 2 * q + 1)
                for t in "LR":
                    if f"({t} {s})" in r:
                        assert r[f"({t} {s})"] == expect, (target, step, s)


def test_1210_default():
    r = solve_all("1210", {}, ["(L 0)"])
    assert r["(L 0)"] == ("win", 7)  # 10 mod 3 != 0
    assert r["(R 10)"] == ("lose", 0)
    assert r["(L 9)"] == ("win", 1)
    assert r["(L 7)"] == ("lose", 2)
    # the seed's example game: 1, 2, 4, 6, 7, 8, 10, Left wins
    replay("1210", {}, ["(L 0)", "(R 1)", "(L 2)", "(R 4)", "(L 6)", "(R 7)", "(L 8)", "(R 10)"])


def test_1210_misere():
    r = solve_all("1210", {"misere": True}, ["(L 0)"])
    assert r["(R 10)"] == ("win", 0)
    assert r["(L 9)"] == ("lose", 1)
    assert r["(L 8)"] == ("win", 2)
    assert r["(L 7)"] == ("win", 2)
    assert r["(L 6)"] == ("lose", 3)
    # reaching the target loses: d = target - s with d % 3 == 1 loses
    for text, (v, _) in r.items():
        d = 10 - int(text[3:-1])
        assert v == ("lose" if d % 3 == 1 else "win"), text


# --- Tomorrow's Tic-Tac-Toe --------------------------------------------------

def test_ttt_classic_3x3_is_tie_in_9():
    r = solve_all("ttt", {"rows": 3, "cols": 3, "diagonal": True}, ["(x --- --- ---)"])
    assert r["(x --- --- ---)"] == ("tie", 9)
    assert r["(x x-- -o- ---)"][0] == "tie"
    assert r["(x xx- oo- ---)"] == ("win", 1)
    assert r["(o xx- oo- x--)"] == ("win", 1)
    assert r["(o x-x -o- x-o)"] == ("lose", 2)  # x threatens two lines
    assert sum(1 for v, _ in r.values() if v == "tie") > 0


def test_ttt_lines_and_primitives():
    game = make_game("ttt", rows=3, cols=4)
    assert game.primitive(game.parse("(o xxx- o--- -o--)")) == "lose"
    assert game.primitive(game.parse("(o xxxx oo-- -o--)")) == "lose"  # longer run
    assert game.primitive(game.parse("(x x--- -o-- xoo-)")) is None  # no line
    assert game.primitive(game.parse("(o x--- xo-- xoo-)")) == "lose"  # vertical
    assert game.primitive(game.parse("(o x--- ox-- o-x-)")) is None  # no diagonals
    diag = make_game("ttt", rows=3, cols=4, diagonal=True)
    assert diag.primitive(diag.parse("(o x--- ox-- o-x-)")) == "lose"
    assert diag.primitive(diag.parse("(o ---x -ox- ox--)")) == "lose"  # anti-diagonal
    mis = make_game("ttt", rows=3, cols=4, misere=True)
    assert mis.primitive(mis.parse("(o xxx- o--- -o--)")) == "win"
    # full board: a line beats the tie
    assert game.primitive(game.parse("(o xxxo ooxx xoox)")) == "lose"
    assert game.primitive(game.parse("(x xxoo ooxx xxoo)")) == "tie"
    # typographic dash
    assert game.parse("(x \u2013\u2013\u2013\u2013 x\u2013\u2013\u2013 \u2013\u2013o\u2013)") == game.start()


def test_ttt_small_k():
    # k = 1: the first placement wins
    r = solve_all("ttt", {"rows": 2, "cols": 2, "k": 1}, ["(x -- --)"])
    assert r["(x -- --)"] == ("win", 1)
    # k larger than the board: every game is a tie after filling the board
    r = solve_all("ttt", {"rows": 2, "cols": 2, "k": 3}, ["(x -- --)"])
    assert r["(x -- --)"] == ("tie", 4)


# --- Northcott -----------------------------------------------------------------

def test_northcott_default_is_nim():
    r = solve_all("northcott", {}, ["(L 1L3R0 0L1R3 1L2R1)"])
    assert r["(L 1L3R0 0L1R3 1L2R1)"][0] == "lose"  # gaps 3, 1, 2 xor to 0
    for rows, cols in ((3, 5), (3, 6), (2, 7)):
        game = make_game("northcott", rows=rows, cols=cols)
        res = solve(game, [game.start()])
        assert len(res) > 10
        for (turn, rs), (v, _) in res.items():
            x = 0
            for _, b, _ in rs:
                x ^= b
            assert v == ("win" if x else "lose")


def test_northcott_example_game():
    texts = [
        "(L 1L3R0 0L1R3 1L2R1)",
        "(R 4L0R0 0L1R3 1L2R1)",  # L, row 1 forward 3
        "(L 4L0R0 0L0R4 1L2R1)",  # R, row 2 forward 1
        "(R 4L0R0 0L0R4 2L1R1)",  # L, row 3 forward 1
        "(L 4L0R0 0L0R4 2L0R2)",  # R, row 3 forward 1: L has no moves
    ]
    game = replay("northcott", {}, texts)
    assert game.primitive(game.parse(texts[-1])) == "lose"
    back = make_game("northcott", backward=True)
    assert back.primitive(back.parse(texts[-1])) is None
    assert "(R 0L4R0 0L0R4 2L0R2)" in children_texts(back, texts[-1])
    mis = make_game("northcott", misere=True)
    assert mis.primitive(mis.parse(texts[-1])) == "win"


def test_northcott_backward():
    # Retreating does not change the outcome: the Nim winner answers a retreat
    # by following it, which ends in finitely many moves, so no draws.
    r = solve_all("northcott", {"backward": True}, ["(L 1L3R0 0L1R3 1L2R1)"])
    assert len(r) > 1000
    game = make_game("northcott", backward=True)
    for text, (v, rem) in r.items():
        x = 0
        for _, b, _ in game.parse(text)[1]:
            x ^= b
        assert v == ("win" if x else "lose"), text
        assert rem is not None
    # only L's pieces at the left edge and every gap closed ends the game for L
    assert r["(L 0L0R4 0L0R4 0L0R4)"] == ("lose", 0)
    assert "(R 4L0R0 4L0R0 4L0R0)" in r
    # misere with retreats: nobody has to walk into the end, so DRAWs appear
    r = solve_all("northcott", {"backward": True, "misere": True}, ["(L 1L3R0 0L1R3 1L2R1)"])
    assert r["(L 1L3R0 0L1R3 1L2R1)"] == ("draw", None)
    assert r["(L 0L0R4 0L0R4 0L0R4)"] == ("win", 0)
    assert all((rem is None) == (v == "draw") for v, rem in r.values())
    # big multi-digit rows parse and print
    big = make_game("northcott", rows=1, cols=14)
    assert big.format(big.parse("(R 10L0R2)")) == "(R 10L0R2)"


# --- Knight's Dance --------------------------------------------------------------

def test_knightsdance_example_game():
    texts = [
        "(w 5 6 a1 b1 f5 b5)",
        "(b 5 6 a1 b1 e3 b5)",
        "(w 5 6 a1 b1 e3 c3)",
        "(b 5 6 a1 b1 c4 c3)",
        "(w 5 6 a1 b1 c4 b5)",
        "(b 5 6 a1 b1 d2 b5)",
        "(w 5 6 a1 b1 d2 d4)",
        "(b 5 6 a1 b1 b1 d4)",  # white captures black's king
    ]
    game = replay("knightsdance", {}, texts)
    assert game.primitive(game.parse(texts[-1])) == "lose"
    # with jump-block the knight on c4 stops c3-b5
    jb = make_game("knightsdance", jump_block=True)
    assert texts[4] not in children_texts(jb, texts[3])
    mis = make_game("knightsdance", misere=True)
    assert mis.primitive(mis.parse(texts[-1])) == "win"
    assert mis.parse("(B 5 6 A1 B1 B1 D4)") == mis.parse(texts[-1])


def test_knightsdance_moves_and_captures():
    game = make_game("knightsdance")
    # own king is not a target, the opponent's knight is
    assert sorted(children_texts(game, "(w 5 6 a1 f1 b3 c1)")) == sorted([
        "(b 5 6 a1 f1 d4 c1)", "(b 5 6 a1 f1 d2 c1)", "(b 5 6 a1 f1 c5 c1)",
        "(b 5 6 a1 f1 a5 c1)", "(b 5 6 a1 f1 c1 c1)",
    ])
    assert game.primitive(game.parse("(b 5 6 a1 f1 c1 c1)")) == "lose"
    assert game.primitive(game.parse("(w 5 6 a1 f1 c1 c1)")) == "lose"  # black captured
    with pytest.raises(ValueError):
        game.parse("(w 5 6 a1 f1 f1 c1)")  # white to move on black's king
    with pytest.raises(ValueError):
        game.parse("(w 5 6 a1 a1 c3 c1)")
    with pytest.raises(ValueError):
        game.parse("(w 4 6 a1 b1 c3 c1)")
    # a knight with no move: the player to move loses (misere: wins)
    tiny = make_game("knightsdance", rows=2, cols=2)
    s = tiny.parse("(w 2 2 a1 b1 a2 b2)")
    assert tiny.moves(s) == [] and tiny.primitive(s) == "lose"
    assert make_game("knightsdance", rows=2, cols=2, misere=True).primitive(s) == "win"


def test_knightsdance_jump_block():
    plain = make_game("knightsdance")
    jb = make_game("knightsdance", jump_block=True)
    # black knight directly above the white knight on c3 blocks b5 and d5
    t = "(w 5 6 a1 f1 c3 c4)"
    all8 = {"b5", "d5", "a4", "e4", "a2", "e2", "b1", "d1"}
    assert {x[-6:-4] for x in children_texts(plain, t)} == all8
    assert {x[-6:-4] for x in children_texts(jb, t)} == all8 - {"b5", "d5"}
    # a piece diagonally adjacent (d4) blocks d5 and e4
    t = "(w 5 6 a1 f1 c3 d4)"
    assert {x[-6:-4] for x in children_texts(jb, t)} == all8 - {"d5", "e4"}
    # the seed's illustration: black's own king on b3 blocks c2-a3 and c2-b4,
    # a white piece on b3 blocks b2-a4 and b2-c4 (captures are blocked too)
    small = make_game("knightsdance", rows=4, cols=4, jump_block=True)
    assert sorted(x[-3:-1] for x in children_texts(small, "(b 4 4 d4 b3 a1 c2)")) == ["a1", "d4"]
    assert sorted(x[-3:-1] for x in children_texts(small, "(b 4 4 d1 a1 b3 b2)")) == ["d1", "d3"]
    # own king diagonally next to the knight: b2-d1 is blocked by c1
    assert sorted(x[-3:-1] for x in children_texts(small, "(b 4 4 d1 c1 b3 b2)")) == ["d3"]
    # a blocked capture: the white knight on b3 shields the white king on c4
    plain = make_game("knightsdance", rows=4, cols=4)
    assert "(w 4 4 c4 a1 b3 c4)" in children_texts(plain, "(b 4 4 c4 a1 b3 b2)")
    assert "(w 4 4 c4 a1 b3 c4)" not in children_texts(small, "(b 4 4 c4 a1 b3 b2)")


def test_knightsdance_4x4_has_draws_and_all_placements():
    game = make_game("knightsdance", rows=4, cols=4)
    placements = game.all_placements()
    assert len(placements) == len(set(placements))
    n = 16
    quiet = 2 * n * (n - 1) * (n - 2) * (n - 3)  # four distinct squares, both turns
    # per turn: the last mover's knight on the opposing king or knight
    captures = 2 * 2 * n * (n - 1) * (n - 2)
    assert len(placements) == quiet + captures
    for turn, wk, bk, wn, bn in placements:
        if turn == "w":
            assert wn != bk
        else:
            assert bn != wk
    for s in placements:
        assert game.parse(game.format(s)) == s
    r = solve(game, placements)
    assert len(r) == len(placements)
    assert any(v == "draw" for v, _ in r.values())
    assert r[game.start()][0] in ("win", "lose", "draw")


# --- Surround ------------------------------------------------------------------

def test_surround_example_game():
    texts = [
        "(w -w--- ----b -----)",  # 0
        "(b -o--- -w--b -----)",  # white down
        "(w -o--- -w--x ----b)",  # black down
        "(b -o--- wo--x ----b)",  # white left
        "(w -o--- wo--x ---bx)",  # black left
        "(b -o--- oo--x w--bx)",  # 5: white down
        "(w -o--- oo--x w-bxx)",  # black left
        "(b -o--- oo--x owbxx)",  # white right
        "(w -o--- oob-x owxxx)",  # 8: black up
    ]
    game = replay("surround", {}, texts)
    last = game.parse(texts[-1])
    assert game.moves(last) == [] and game.primitive(last) == "lose"  # white loses
    mis = make_game("surround", misere=True)
    assert mis.primitive(last) == "win"
    r = solve_all("surround", {}, [texts[0]])
    for t in texts:
        assert t in r


def test_surround_wormholes():
    game = make_game("surround", rows=3, cols=5, wormholes=True)
    kids = children_texts(game, "(w -w--- ----b -----)")
    assert sorted(kids) == sorted([
        "(b -o--- -w--b -----)", "(b wo--- ----b -----)", "(b -ow-- ----b -----)",
        "(b -o--- ----b -w---)",  # through the top edge
    ])
    kids = children_texts(game, "(b -w--- b---- -----)")
    assert "(w -w--- x---b -----)" in kids  # through the left edge
    # 2 rows with wormholes: up and down reach the same cell, one move
    two = make_game("surround", rows=2, cols=3, wormholes=True)
    assert sorted(children_texts(two, "(w -w- --b)")) == sorted(
        ["(b -o- -wb)", "(b wo- --b)", "(b -ow --b)"])
    both = make_game("surround", rows=2, cols=2, wormholes=True)
    assert sorted(children_texts(both, "(w w- -b)")) == ["(b o- wb)", "(b ow -b)"]
    one = make_game("surround", rows=1, cols=4, wormholes=True)
    assert sorted(children_texts(one, "(w w-b-)")) == ["(b o-bw)", "(b owb-)"]


# --- Konane --------------------------------------------------------------------

KONANE_EXAMPLE = [
    '(w "" wbwb bwb- w-wb)',
    '(b "" wbwb b--w w-wb)',  # White, B2 right to D2
    '(w "" wbwb b--w wb--)',  # Black, D1 left to B1
    '(b "" wbwb b--w --w-)',  # White, A1 right to C1
    '(b d1 wbw- b--- --wb)',  # Black, D3 down to D1: board #4, goes again
    '(w "" wbw- b--- -b--)',  # Black (goes again), D1 left to B1
    '(w a1 -bw- ---- wb--)',  # White, A3 down to A1 (could go again)
    '(b "" -bw- ---- wb--)',  # White passes up a go-again
    '(w "" ---b ---- wb--)',  # Black, B3 right to D3
    '(b "" ---b ---- --w-)',  # White, A1 right to C1: black has no moves
]


def test_konane_example_game():
    game = replay("konane", {}, KONANE_EXAMPLE)
    last = game.parse(KONANE_EXAMPLE[-1])
    assert game.primitive(last) == "lose"
    same = {game.format(c): f for c, f in game.moves(game.parse(KONANE_EXAMPLE[3]))}
    assert same['(b d1 wbw- b--- --wb)'] is True
    same = {game.format(c): f for c, f in game.moves(game.parse(KONANE_EXAMPLE[4]))}
    assert same == {'(w "" wbw- b--- -b--)': False, '(w "" wbw- b--- --wb)': False}
    r = solve_all("konane", {}, [KONANE_EXAMPLE[0]])
    for t in KONANE_EXAMPLE:
        assert t in r
    # with goagain_any, black's D1-B1 jump gives a go-again (D3 can jump)
    anyg = make_game("konane", goagain_any=True)
    assert children_texts(anyg, KONANE_EXAMPLE[1]) == ['(b b1 wbwb b--w wb--)']


def test_konane_go_again_toy():
    # 1x5: w b - b -.  White jumps a1 -> c1 and may go again (c1 -> e1) or pass.
    opts = {"rows": 1, "cols": 5}
    game = make_game("konane", **opts)
    start = '(w "" wb-b-)'
    moves = [(game.format(c), f) for c, f in game.moves(game.parse(start))]
    assert moves == [('(w c1 --wb-)', True)]
    moves = sorted((game.format(c), f) for c, f in game.moves(game.parse('(w c1 --wb-)')))
    assert moves == [('(b "" ----w)', False), ('(b "" --wb-)', False)]
    r = solve_all("konane", opts, [start])
    assert r['(b "" ----w)'] == ("lose", 0)
    assert r['(b "" --wb-)'] == ("win", 1)
    assert r['(w c1 --wb-)'] == ("win", 1)
    assert r[start] == ("win", 2)  # the go-again child counts unflipped
    r = solve_all("konane", dict(opts, misere=True), [start])
    assert r['(b "" ----w)'] == ("win", 0)
    assert r['(b "" --wb-)'] == ("lose", 1)
    assert r['(w c1 --wb-)'] == ("win", 2)  # passing is the good move
    assert r[start] == ("win", 3)


def test_konane_goagain_any():
    # after a3 -> a1 the landing piece cannot jump again, but c3 can
    std = make_game("konane", rows=4, cols=4)
    anyg = make_game("konane", rows=4, cols=4, goagain_any=True)
    start = '(w "" bwbw wbwb bwbw --wb)'
    assert [(std.format(c), f) for c, f in std.moves(std.parse(start))] == [
        ('(b "" bwbw -bwb -wbw w-wb)', False)]
    assert [(anyg.format(c), f) for c, f in anyg.moves(anyg.parse(start))] == [
        ('(w a1 bwbw -bwb -wbw w-wb)', True)]
    kids = children_texts(anyg, '(w a1 bwbw -bwb -wbw w-wb)')
    assert '(b "" bwbw -bwb -wbw w-wb)' in kids  # pass
    assert '(w a3 bwbw w--b -wbw w-wb)' in kids  # c3 jumps left, another go-again
    assert std.primitive(std.parse('(w a1 bwbw -bwb -wbw w-wb)')) is None


def test_konane_parse_checks():
    game = make_game("konane")
    with pytest.raises(ValueError):
        game.parse('(w "" bwbw bwb- w-wb)')  # a black piece on a white cell
    with pytest.raises(ValueError):
        game.parse('(w d1 wbw- b--- --wb)')  # d1 holds a black piece
    assert game.format(game.parse('(b d1 wbw- b--- --wb)')) == '(b d1 wbw- b--- --wb)'


# --------------------------------------------------------------------------
# Mid-sized solves from the default starts: properties of the results.
# --------------------------------------------------------------------------
def solve_start(name, options):
    game = make_game(name, **options)
    text = game.format(game.start())
    return text, solve_all(name, options, [text])


@pytest.mark.parametrize("wormholes", [False, True])
def test_surround_4x4(wormholes):
    text, result = solve_start("surround", {"rows": 4, "cols": 4, "wormholes": wormholes})
    assert text == "(w -w-- ---b ---- ----)"
    assert result[text][0] in ("win", "lose")
    # every game ends: no ties, no draws
    assert {v for v, _ in result.values()} == {"win", "lose"}


@pytest.mark.parametrize("goagain_any", [False, True])
def test_konane_4x4(goagain_any):
    text, result = solve_start("konane", {"rows": 4, "cols": 4, "goagain_any": goagain_any})
    assert text == '(w "" bwbw wbwb bwbw --wb)'
    assert {v for v, _ in result.values()} <= {"win", "lose"}
    # go-again states are never primitive
    assert all(rem > 0 for t, (v, rem) in result.items() if '""' not in t)


def test_ttt_3x4_default():
    text, result = solve_start("ttt", {})
    assert text == "(x ---- x--- --o-)"
    assert result[text][0] in ("win", "lose", "tie")
    assert "draw" not in {v for v, _ in result.values()}
    # a tie takes the full board: remoteness = number of empty cells
    for t, (v, rem) in result.items():
        if v == "tie":
            assert rem == t.count("-")
