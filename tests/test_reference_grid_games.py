"""Self-checks of the plain-Python reference games clobber, domineering,
breakthrough and knightthrough (tests/reference/*.py).

These modules are written from docs/RULES.md only; the tests here check
them against hand-worked positions and a few published results, using a small
memoised minimax that implements the value/remoteness rules of RULES.md
("Values and remoteness") for acyclic games.
"""


import pytest

from reference import breakthrough, clobber, domineering, knightthrough

FLIP = {"win": "lose", "lose": "win", "tie": "tie"}


# --------------------------------------------------------------------------
# A tiny independent solver (acyclic games only), iterative.
# --------------------------------------------------------------------------
def minimax(game, start):
    """Return {state: (value, remoteness)} for every state reachable from start.

    Values are from the mover's point of view: primitive positions get
    remoteness 0; WIN if some child is a loss for its mover (1 + min remoteness
    of those children); TIE if no win but some tie child (1 + min of those);
    otherwise LOSE (1 + max remoteness of all children).
    """
    values = {}
    primitive, moves = game.primitive, game.moves
    stack = [[start, None]]
    while stack:
        frame = stack[-1]
        state = frame[0]
        if state in values:
            stack.pop()
            continue
        kids = frame[1]
        if kids is None:
            p = primitive(state)
            if p is not None:
                assert p in ("win", "lose", "tie"), p
                values[state] = (p, 0)
                stack.pop()
                continue
            kids = moves(state)
            assert kids, f"non-primitive position without moves: {game.format(state)}"
            frame[1] = kids
            pending = [c for c, _ in kids if c not in values]
            if pending:
                stack.extend([c, None] for c in pending)
                continue
        stack.pop()
        best_win = best_tie = None
        worst_lose = -1
        for child, same_mover in kids:
            v, r = values[child]
            if not same_mover:
                v = FLIP[v]
            if v == "win":
                if best_win is None or r < best_win:
                    best_win = r
            elif v == "tie":
                if best_tie is None or r < best_tie:
                    best_tie = r
            else:
                if r > worst_lose:
                    worst_lose = r
        if best_win is not None:
            values[state] = ("win", best_win + 1)
        elif best_tie is not None:
            values[state] = ("tie", best_tie + 1)
        else:
            values[state] = ("lose", worst_lose + 1)
    return values


def solve_start(module, **options):
    game = module.Game(**options)
    start = game.start()
    return minimax(game, start)[start]


def value_of(game, text):
    state = game.parse(text)
    return minimax(game, state)[state]


def child_texts(game, text):
    kids = game.moves(game.parse(text))
    assert all(same is False for _, same in kids)
    return sorted(game.format(c) for c, _ in kids)


# --------------------------------------------------------------------------
# Options, starts, text round trips
# --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "module, kwargs",
    [
        (clobber, dict(rows=0)),
        (clobber, dict(cols=0)),
        (clobber, dict(rows=2.5)),
        (clobber, dict(misere="yes")),
        (clobber, dict(colour=3)),
        (domineering, dict(rows=-1)),
        (domineering, dict(cols=0)),
        (breakthrough, dict(rows=3)),
        (breakthrough, dict(cols=0)),
        (breakthrough, dict(misere=True)),
        (knightthrough, dict(rows=2, cols=5)),
        (knightthrough, dict(cols=0)),
    ],
)
def test_bad_options(module, kwargs):
    with pytest.raises(ValueError):
        module.Game(**kwargs)


def test_default_starts():
    assert clobber.Game().format(clobber.Game().start()) == "(b wbwb bwbw wbwb bwbw)"
    assert domineering.Game().format(domineering.Game().start()) == (
        "(v ----- ----- ----- ----- -----)"
    )
    for m in (breakthrough, knightthrough):
        g = m.Game()
        assert g.format(g.start()) == "(w bbbb bbbb wwww wwww)"


def test_sized_starts():
    g = clobber.Game(rows=3, cols=5)  # a1 (bottom left) black
    assert g.format(g.start()) == "(b bwbwb wbwbw bwbwb)"
    g = clobber.Game(rows=2, cols=3)
    assert g.format(g.start()) == "(b wbw bwb)"
    g = clobber.Game(rows=1, cols=1)
    assert g.format(g.start()) == "(b b)"
    g = domineering.Game(rows=2, cols=3)
    assert g.format(g.start()) == "(v --- ---)"
    for m in (breakthrough, knightthrough):
        g = m.Game(rows=6, cols=3)
        assert g.format(g.start()) == "(w bbb bbb --- --- www www)"
        g = m.Game(rows=4, cols=1)
        assert g.format(g.start()) == "(w b b w w)"


@pytest.mark.parametrize(
    "module, options, text",
    [
        (clobber, dict(), "(w b--w -bw- ---- wwbb)"),
        (clobber, dict(rows=2, cols=3), "(b --- ---)"),
        (domineering, dict(), "(h ##--- ##--- ----# ----# -----)"),
        (domineering, dict(rows=3, cols=2), "(v -# -# --)"),
        (breakthrough, dict(), "(b -b-- b--w -w-- w---)"),
        (breakthrough, dict(rows=5, cols=2), "(w bb -- -w -- w-)"),
        (knightthrough, dict(), "(w ---- ---- ---- ----)"),
        (knightthrough, dict(rows=6, cols=3), "(b b-b --- -b- w-- --- ww-)"),
    ],
)
def test_round_trip(module, options, text):
    g = module.Game(**options)
    state = g.parse(text)
    assert g.format(state) == text
    assert g.parse(g.format(state)) == state
    hash(state)


@pytest.mark.parametrize(
    "module, text",
    [
        (clobber, "(x bwbw wbwb bwbw wbwb)"),
        (clobber, "(b bwbw wbwb bwbw)"),
        (clobber, "(b bwbw wbwb bwbw wbwbw)"),
        (clobber, "(b bwbw wbwb bwbw wbwx)"),
        (clobber, "b bwbw wbwb bwbw wbwb"),
        (domineering, "(v ----- ----- ----- ----- ----b)"),
        (domineering, "(b ----- ----- ----- ----- -----)"),
        (breakthrough, "(v bbbb bbbb wwww wwww)"),
        (knightthrough, "(w bbbb bbbb wwww)"),
    ],
)
def test_bad_texts(module, text):
    with pytest.raises(ValueError):
        module.Game().parse(text)


def test_round_trip_all_reachable():
    """format/parse are inverse on every position reachable on small boards."""
    for module, opts in [
        (clobber, dict(rows=2, cols=3)),
        (domineering, dict(rows=3, cols=3)),
        (breakthrough, dict(rows=4, cols=2)),
        (knightthrough, dict(rows=5, cols=2)),
    ]:
        g = module.Game(**opts)
        for state in minimax(g, g.start()):
            assert g.parse(g.format(state)) == state


# --------------------------------------------------------------------------
# Domineering
# --------------------------------------------------------------------------
def test_domineering_tiny_boards():
    assert solve_start(domineering, rows=1, cols=1) == ("lose", 0)  # v cannot move
    assert solve_start(domineering, rows=1, cols=2) == ("lose", 0)  # no vertical room
    assert solve_start(domineering, rows=2, cols=1) == ("win", 1)  # v moves, h stuck
    assert solve_start(domineering, rows=3, cols=1) == ("win", 1)
    # 2x2: whoever moves first wins (Lachmann, Moore, Rapaport, "Who wins
    # Domineering on rectangular boards?", 2000, introduction).
    assert solve_start(domineering, rows=2, cols=2) == ("win", 1)
    g = domineering.Game(rows=2, cols=2)
    assert value_of(g, "(h -- --)") == ("win", 1)


def test_domineering_misere_tiny():
    assert solve_start(domineering, rows=1, cols=1, misere=True) == ("win", 0)
    assert solve_start(domineering, rows=1, cols=2, misere=True) == ("win", 0)
    # v must place; then h has no move and wins under misere
    assert solve_start(domineering, rows=2, cols=1, misere=True) == ("lose", 1)


def test_domineering_moves():
    g = domineering.Game(rows=2, cols=3)
    assert child_texts(g, "(v --- ---)") == ["(h #-- #--)", "(h -#- -#-)", "(h --# --#)"]
    assert child_texts(g, "(h --- ---)") == sorted([
        "(v ##- ---)",
        "(v -## ---)",
        "(v --- ##-)",
        "(v --- -##)",
    ])
    assert child_texts(g, "(v -#- ---)") == ["(h ##- #--)", "(h -## --#)"]
    assert g.primitive(g.parse("(v -#- #-#)")) == "lose"
    assert g.primitive(g.parse("(h -#- #-#)")) == "lose"
    assert g.primitive(g.parse("(h --# #-#)")) is None


def test_domineering_transpose_symmetry():
    """R x C with v to move is C x R with h to move (transpose the board)."""
    a = domineering.Game(rows=3, cols=4)
    b = domineering.Game(rows=4, cols=3)
    va = minimax(a, a.start())
    vb = minimax(b, b.parse("(h --- --- --- ---)"))
    for state, val in va.items():
        rows = a.format(state)[3:-1].split()
        trans = ["".join(r[c] for r in rows) for c in range(a.cols)]
        t = "(" + ("h" if state[0] == "v" else "v") + " " + " ".join(trans) + ")"
        tb = b.parse(t)
        assert vb[tb] == val, (a.format(state), t)


def test_domineering_4x4_first_player_wins():
    # 4x4 Domineering is a first-player win (Breuker, Uiterwijk, van den Herik,
    # "Solving 8x8 Domineering", Theoretical Computer Science 230, 2000).
    value, remoteness = solve_start(domineering, rows=4, cols=4)
    assert value == "win"
    assert remoteness == 7  # our own computation


# --------------------------------------------------------------------------
# Clobber
# --------------------------------------------------------------------------
def test_clobber_moves():
    g = clobber.Game(rows=2, cols=3)
    # black b1 can clobber b2 (above) or a1 (left); nothing lies right of it
    assert child_texts(g, "(b -w- wb-)") == sorted(["(w -b- w--)", "(w -w- b--)"])
    # white b2 clobbers b1 from above, white a1 clobbers b1 from the left
    assert child_texts(g, "(w -w- wb-)") == sorted(["(b --- ww-)", "(b -w- -w-)"])
    # no diagonal clobbering: black and white only diagonally adjacent
    assert g.primitive(g.parse("(b -w- b--)")) == "lose"
    assert g.primitive(g.parse("(w -w- b--)")) == "lose"
    assert g.moves(g.parse("(b -w- b--)")) == []
    # stones of one colour only: nobody can move
    assert g.primitive(g.parse("(b bb- b--)")) == "lose"
    gm = clobber.Game(rows=2, cols=3, misere=True)
    assert gm.primitive(gm.parse("(b -w- b--)")) == "win"


def test_clobber_tiny_values():
    assert solve_start(clobber, rows=1, cols=1) == ("lose", 0)
    assert solve_start(clobber, rows=1, cols=2) == ("win", 1)
    assert solve_start(clobber, rows=1, cols=2, misere=True) == ("lose", 1)
    assert solve_start(clobber, rows=2, cols=1) == ("win", 1)
    # bwb with black to move: clobber the white stone, white is stuck
    assert solve_start(clobber, rows=1, cols=3) == ("win", 1)
    g = clobber.Game(rows=1, cols=3)
    assert value_of(g, "(w bwb)") == ("win", 1)


@pytest.mark.parametrize("n", [2, 4, 6, 8, 10])
def test_clobber_linear_even_rows(n):
    # Albert, Grossman, Nowakowski, Wolfe (2004) conjectured, and Chen, Folkersen,
    # Hasham, Hayward et al. proved (arXiv:2509.08985, 2025): every non-empty
    # even-length alternating-colour linear Clobber position except oxoxox is a
    # first-player win; oxoxox (length 6) is a second-player win.
    expected = "lose" if n == 6 else "win"
    for rows, cols in ((1, n), (n, 1)):
        g = clobber.Game(rows=rows, cols=cols)
        s = g.start()
        v = minimax(g, s)
        assert v[s][0] == expected
        flipped = ("w", s[1], s[2])  # white to move first
        assert minimax(g, flipped)[flipped][0] == expected


def test_clobber_3x4():
    assert solve_start(clobber, rows=3, cols=4) == ("lose", 8)  # own computation


# --------------------------------------------------------------------------
# Breakthrough
# --------------------------------------------------------------------------
def test_breakthrough_no_straight_capture():
    g = breakthrough.Game(rows=4, cols=3)
    # white on b2, black on b3 right in front: only the two diagonals
    assert child_texts(g, "(w --- -b- -w- ---)") == sorted([
        "(b --- wb- --- ---)",
        "(b --- -bw --- ---)",
    ])
    # black in front: straight blocked, diagonals to the empty cells
    assert child_texts(g, "(b --- -b- -w- ---)") == sorted([
        "(w --- --- bw- ---)",
        "(w --- --- -wb ---)",
    ])


def test_breakthrough_diagonal_capture():
    g = breakthrough.Game(rows=4, cols=3)
    assert child_texts(g, "(w --- b-- -w- ---)") == sorted([
        "(b --- b-w --- ---)",
        "(b --- bw- --- ---)",
        "(b --- w-- --- ---)",  # capture
    ])
    assert child_texts(g, "(b --- -b- w-w ---)") == sorted([
        "(w --- --- b-w ---)",  # capture
        "(w --- --- w-b ---)",  # capture
        "(w --- --- wbw ---)",
    ])
    # never onto an own piece; straight moves only onto empty cells
    assert child_texts(g, "(w --- --- -w- www)") == sorted([
        "(b --- w-- --- www)",  # b2-a3
        "(b --- -w- --- www)",  # b2-b3
        "(b --- --w --- www)",  # b2-c3
        "(b --- --- ww- -ww)",  # a1-a2
        "(b --- --- ww- w-w)",  # b1-a2
        "(b --- --- -ww w-w)",  # b1-c2
        "(b --- --- -ww ww-)",  # c1-c2
    ])


def test_breakthrough_forward_only_and_goal():
    g = breakthrough.Game(rows=4, cols=3)
    # a white piece on row 3 has only forward moves, each reaching the top row
    kids = g.moves(g.parse("(w --- -w- --- ---)"))
    assert sorted(g.format(c) for c, _ in kids) == [
        "(b --w --- --- ---)",
        "(b -w- --- --- ---)",
        "(b w-- --- --- ---)",
    ]
    for c, _ in kids:
        assert g.primitive(c) == "lose"
        assert g.moves(c) == []
    assert value_of(g, "(w --- -w- --- ---)") == ("win", 1)
    # black reaching the bottom row ends the game too, even with white pieces left
    assert g.primitive(g.parse("(w --- --- www -b-)")) == "lose"
    assert value_of(g, "(b --- --- -b- w-w)") == ("win", 1)


def test_breakthrough_no_moves_loses():
    g = breakthrough.Game(rows=4, cols=1)
    # white piece blocked by a black piece straight ahead: neither can move
    assert g.primitive(g.parse("(w - b w -)")) == "lose"
    assert g.primitive(g.parse("(b - b w -)")) == "lose"
    assert solve_start(breakthrough, rows=4, cols=1) == ("lose", 0)
    g = breakthrough.Game(rows=4, cols=3)
    # no pieces left
    assert g.primitive(g.parse("(w --- b-- --- ---)")) == "lose"
    assert g.primitive(g.parse("(b --- --- --w ---)")) == "lose"
    # capturing the last black piece wins at once (black then has no move)
    assert value_of(g, "(w --- -b- w-- ---)") == ("win", 1)


def test_breakthrough_start_values():
    # own computations (no published value for these small boards is checked)
    assert solve_start(breakthrough, rows=4, cols=2) == ("lose", 8)
    assert solve_start(breakthrough, rows=4, cols=3) == ("lose", 12)


# --------------------------------------------------------------------------
# Knightthrough
# --------------------------------------------------------------------------
def _piece_targets(game, text, cell):
    """Cells (r, c) a piece on (r, c)=cell can move to, from the child list."""
    state = game.parse(text)
    turn = state[0]
    mover_idx = 1 if turn == "b" else 2
    src = 1 << (cell[0] * game.cols + cell[1])
    out = set()
    for child, _ in game.moves(state):
        before, after = state[mover_idx], child[mover_idx]
        if before & src and not after & src:
            dst = after & ~before
            i = dst.bit_length() - 1
            out.add(divmod(i, game.cols))
    return out


def test_knightthrough_moves_forward_only():
    g = knightthrough.Game(rows=5, cols=5)
    # white knight in the centre: +1 row +-2 cols, +2 rows +-1 col, upwards only
    assert _piece_targets(g, "(w ----- ----- --w-- ----- -----)", (2, 2)) == {
        (1, 0), (1, 4), (0, 1), (0, 3)
    }
    # black knight in the centre moves downwards only
    assert _piece_targets(g, "(b ----- ----- --b-- ----- -----)", (2, 2)) == {
        (3, 0), (3, 4), (4, 1), (4, 3)
    }
    # own pieces block the landing square, opponent pieces are captured
    text = "(w -b--- w---- --w-- ----- -----)"
    assert _piece_targets(g, text, (2, 2)) == {(0, 1), (0, 3), (1, 4)}
    state = g.parse(text)
    caps = [c for c, _ in g.moves(state) if c[1] == 0]
    assert len(caps) == 1 and g.format(caps[0]) == "(b -w--- w---- ----- ----- -----)"
    assert g.primitive(caps[0]) == "lose"
    # edge: a knight in a corner has at most two forward moves
    assert _piece_targets(g, "(w ----- ----- ----- ----- w----)", (4, 0)) == {(3, 2), (2, 1)}
    # nothing straight or diagonal, nothing sideways
    assert _piece_targets(g, "(w ----- w---- ----- ----- -----)", (1, 0)) == {(0, 2)}


def test_knightthrough_goal_and_no_moves():
    g = knightthrough.Game(rows=4, cols=3)
    assert g.primitive(g.parse("(w --- --- --- -b-)")) == "lose"
    assert g.primitive(g.parse("(b w-- --- --- ---)")) == "lose"
    assert g.moves(g.parse("(b w-- --- -b- ---)")) == []
    # a white knight on row 2 of a 1-column board can never move
    g1 = knightthrough.Game(rows=4, cols=1)
    assert g1.primitive(g1.start()) == "lose"
    # on a 2-column board only the (+2 rows, +-1 column) jumps fit: b1 -> a3 only
    g2 = knightthrough.Game(rows=4, cols=2)
    assert _piece_targets(g2, "(w -- -- -- -w)", (3, 1)) == {(1, 0)}
    assert g2.primitive(g2.parse("(w -- w- -- --)")) == "lose"  # row 1 piece stuck
    assert g2.primitive(g2.parse("(b -- w- -- --)")) == "lose"  # black has no pieces


def test_knightthrough_start_values():
    # On 4-row boards white captures onto the top row at once.
    assert solve_start(knightthrough, rows=4, cols=3) == ("win", 1)
    assert solve_start(knightthrough, rows=5, cols=2) == ("lose", 6)  # own computation


# --------------------------------------------------------------------------
# Full solves from the start: values (own computations)
# --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "module, options, expected",
    [
        (breakthrough, dict(rows=4, cols=3), ("lose", 12)),
        (knightthrough, dict(rows=4, cols=3), ("win", 1)),
        (knightthrough, dict(rows=4, cols=4), ("win", 1)),
        (clobber, dict(rows=3, cols=4), ("lose", 8)),
        (domineering, dict(rows=4, cols=4), ("win", 7)),
    ],
)
def test_full_solve_values(module, options, expected):
    assert solve_start(module, **options) == expected


# --------------------------------------------------------------------------
# Cross-check with the generic reference solver once it exists
# --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "module, options",
    [
        (clobber, dict(rows=2, cols=3)),
        (clobber, dict(rows=2, cols=3, misere=True)),
        (domineering, dict(rows=3, cols=3)),
        (domineering, dict(rows=3, cols=3, misere=True)),
        (breakthrough, dict(rows=4, cols=3)),
        (knightthrough, dict(rows=5, cols=2)),
    ],
)
def test_generic_solver_agrees(module, options):
    ref_solve = pytest.importorskip("reference.solve")
    game = module.Game(**options)
    start = game.start()
    mine = minimax(game, start)
    theirs = ref_solve.solve(game, [start])
    for state, (value, remoteness) in mine.items():
        v, r = theirs[state]
        assert (str(v).lower(), r) == (value, remoteness), game.format(state)
