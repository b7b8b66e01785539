"""The seed texts' example games replayed through the game code and the lookup library,
and known results of the literature (seeds/000: 1,2,...,10, Tic-Tac-Toe, Northcott)."""

from __future__ import annotations

from functools import reduce
from operator import xor

import numpy as np
import pytest

from conftest import FLIP, legal_indices, value_there


def replay(db, start: str, moves_and_positions: list[tuple[str, str]]):
    """Play named moves from ``start``; each must be legal and reach the given text.
    Every position on the way must be consistent with its moves' values."""
    position = start
    for move, expected in moves_and_positions:
        options = {m.move: m for m in db.moves(position)}
        assert move in options, f"{move!r} is not legal in {position}; legal: {sorted(options)}"
        assert options[move].position == expected
        record = db.lookup(expected)
        assert (record.value, record.remoteness) == value_there(options[move])
        position = expected
    return db.lookup(position)


def test_1210_example_game(database):
    db = database("1210")
    steps = [("+1", "(R 1)"), ("+1", "(L 2)"), ("+2", "(R 4)"), ("+2", "(L 6)"),
             ("+1", "(R 7)"), ("+1", "(L 8)"), ("+2", "(R 10)")]
    final = replay(db, "(L 0)", steps)
    assert (final.value, final.remoteness) == ("lose", 0)  # "Left wins because it reached 10 first"
    assert db.moves("(R 10)") == []


@pytest.mark.parametrize("target, step", [(10, 2), (11, 2), (12, 3), (1, 1), (20, 4)])
def test_1210_is_a_subtraction_game(database, target, step):
    """Standard: the mover loses exactly when target - sum is a multiple of step + 1.
    Misère: exactly when target - 1 - sum is (and at the target itself the mover wins)."""
    standard = database("1210", target=target, max_step=step)
    misere = database("1210", target=target, max_step=step, misere=True)
    for total in range(target + 1):
        for turn in "LR":
            text = f"({turn} {total})"
            assert (standard.lookup(text).value == "lose") == ((target - total) % (step + 1) == 0)
            expected = "win" if total == target else \
                ("lose" if (target - 1 - total) % (step + 1) == 0 else "win")
            assert misere.lookup(text).value == expected


def test_1210_first_player_wins_in_seven(database):
    record = database("1210").lookup("(L 0)")
    assert (record.value, record.remoteness) == ("win", 7)  # 1, 4, 7, 10 against +1 replies


def test_northcott_example_game(database):
    db = database("northcott", rows=3, cols=6)
    steps = [("L row 1 forward 3", "(R 4L0R0 0L1R3 1L2R1)"),
             ("R row 2 forward 1", "(L 4L0R0 0L0R4 1L2R1)"),
             ("L row 3 forward 1", "(R 4L0R0 0L0R4 2L1R1)"),
             ("R row 3 forward 1", "(L 4L0R0 0L0R4 2L0R2)")]
    final = replay(db, "(L 1L3R0 0L1R3 1L2R1)", steps)
    # "L has no moves left (it cannot back up in the standard game). R wins."
    assert (final.value, final.remoteness) == ("lose", 0)
    with_backward = database("northcott", rows=3, cols=6, backward=True)
    assert with_backward.moves("(L 4L0R0 0L0R4 2L0R2)")  # backing up is legal there


def test_northcott_default_start_is_a_loss_for_L(database):
    assert database("northcott").lookup("(L 1L3R0 0L1R3 1L2R1)").value == "lose"  # Nim-sum 3^1^2 = 0


@pytest.mark.parametrize("rows, cols", [(3, 6), (2, 7), (4, 4)])
def test_northcott_is_nim_on_the_gaps(database, rows, cols):
    """Standard Northcott is Nim with heaps = gaps; misère Northcott is misère Nim."""
    standard = database("northcott", rows=rows, cols=cols)
    misere = database("northcott", rows=rows, cols=cols, misere=True)
    indices = legal_indices(standard)
    states = standard.decode(indices)
    gaps = states[:, 2::3]
    nim_sum = np.array([reduce(xor, row.tolist(), 0) for row in gaps])
    values, _ = standard.lookup_indices(indices)
    assert np.array_equal(values == 1, nim_sum != 0)
    all_small = (gaps <= 1).all(axis=1)
    odd_ones = gaps.sum(axis=1) % 2 == 1
    misere_win = np.where(all_small, ~odd_ones, nim_sum != 0)
    misere_values, _ = misere.lookup_indices(indices)
    assert np.array_equal(misere_values == 1, misere_win)


def test_northcott_backward_keeps_nim_values_without_draws(database):
    """Backing up is reversible (the winner answers by advancing the same distance) and
    a piece cannot back up forever, so the values stay Nim's and nothing is drawn."""
    forward = database("northcott", rows=3, cols=5)
    backward = database("northcott", rows=3, cols=5, backward=True)
    assert np.array_equal(forward.value_array(), backward.value_array())
    assert backward.counts()["draw"] == 0
    assert (backward.remoteness_array() >= forward.remoteness_array()).all()


def test_ttt_default_start(database):
    db = database("ttt")
    record = db.lookup("(x ---- x--- --o-)")
    assert (record.value, record.remoteness) == ("tie", 10)
    assert db.lookup("(x ---- x--- --o-)") == db.lookup("(x –––– x––– ––o–)")  # seed dashes


def test_ttt_seed_mid_game_board(database):
    """The seed's board 5 reads '(o –xx- xxoo ---o-)': its last row has five cells, a typo
    for '--o-' (the start's o stays put). The typo is reported, the fixed board is
    reachable from the start in five moves."""
    db = database("ttt")
    with pytest.raises(ValueError, match="row 3 .* has 5 cells"):
        db.lookup("(o –xx- xxoo ---o-)")
    target = db.lookup("(o –xx- xxoo --o-)").position
    frontier = {"(x ---- x--- --o-)"}
    for _ in range(5):
        frontier = {m.position for p in frontier for m in db.moves(p)}
    assert target in frontier


def test_ttt_3x3_with_diagonals_is_a_tie_in_nine(database):
    record = database("ttt", rows=3, cols=3, diagonal=True).lookup("(x --- --- ---)")
    assert (record.value, record.remoteness) == ("tie", 9)


def test_ttt_line_and_full_board(database):
    db = database("ttt", rows=3, cols=3, diagonal=True)
    # o to move, x just completed the top row: o has lost.
    record = db.lookup("(o xxx oo- ---)")
    assert (record.value, record.remoteness) == ("lose", 0)
    # x's last mark fills the board and completes a diagonal: the line counts, not a tie.
    record = db.lookup("(o xox oxo xxo)")
    assert (record.value, record.remoteness) == ("lose", 0)
    # full board, no line: a tie.
    record = db.lookup("(o xox xoo oxx)")
    assert (record.value, record.remoteness) == ("tie", 0)
    misere = database("ttt", rows=3, cols=3, diagonal=True, misere=True)
    assert misere.lookup("(o xxx oo- ---)").value == "win"


def test_ttt_run_longer_than_k_counts(database):
    db = database("ttt", rows=2, cols=5, k=3)
    moves = {m.move: m for m in db.moves("(x xx-xx oo-oo)")}
    # filling c2 makes a run of five, which contains a line of three: x wins by it
    assert (moves["c2"].position, moves["c2"].value, moves["c2"].remoteness) == \
        ("(o xxxxx oo-oo)", "win", 0)
    assert db.lookup("(o xxxxx oo-oo)").value == "lose"
    assert db.lookup("(x xx-xx oo-oo)").remoteness == 1


def test_ttt_illegal_positions_are_refused(database):
    db = database("ttt", rows=3, cols=3)
    with pytest.raises(ValueError, match="x already has a line"):
        db.lookup("(x xxx oo- o--)")


# -- Knight's Dance ---------------------------------------------------------------

KNIGHTS_DANCE_EXAMPLE = [  # seeds/000: White to e3, Black to c3, ... White wins on b1
    ("f5-e3", "(b 5 6 a1 b1 e3 b5)"), ("b5-c3", "(w 5 6 a1 b1 e3 c3)"),
    ("e3-c4", "(b 5 6 a1 b1 c4 c3)"), ("c3-b5", "(w 5 6 a1 b1 c4 b5)"),
    ("c4-d2", "(b 5 6 a1 b1 d2 b5)"), ("b5-d4", "(w 5 6 a1 b1 d2 d4)"),
    ("d2-b1", "(b 5 6 a1 b1 b1 d4)"),
]


def test_knightsdance_example_game(database):
    db = database("knightsdance")
    final = replay(db, "(w 5 6 a1 b1 f5 b5)", KNIGHTS_DANCE_EXAMPLE)
    assert (final.value, final.remoteness) == ("lose", 0)  # "White wins by capturing Black's king"
    assert database("knightsdance", misere=True).lookup(final.position).value == "win"


def test_knightsdance_example_is_not_playable_with_jump_block(database):
    """Under jump-block White's knight on c4 stands right in front of Black's c3-b5."""
    db = database("knightsdance", jump_block=True)
    replay(db, "(w 5 6 a1 b1 f5 b5)", KNIGHTS_DANCE_EXAMPLE[:3])
    assert "c3-b5" not in {m.move for m in db.moves("(b 5 6 a1 b1 c4 c3)")}


@pytest.mark.parametrize("position, blocked", [
    # The figure is lost; these boards match its captions. "White blocks Black's jumps
    # to a4 and c4": a white piece directly in front of Black's knight.
    ("(b 4 4 a1 d1 b3 b2)", {"b2-a4", "b2-c4"}),
    # "Black knight's jumps to a3 and b4 blocked by own king": a diagonal neighbour.
    ("(b 4 4 a1 b3 d4 c2)", {"c2-a3", "c2-b4"}),
    # "No jump blocks since two pieces not next to each other."
    ("(b 4 4 a1 d1 d4 b2)", set()),
])
def test_knightsdance_jump_block_illustration(database, position, blocked):
    free = {m.move for m in database("knightsdance", rows=4, cols=4).moves(position)}
    with_block = {m.move for m in database("knightsdance", rows=4, cols=4, jump_block=True).moves(position)}
    assert free - with_block == blocked
    assert with_block <= free


def test_knightsdance_has_draws(database):
    for options in ({"rows": 4, "cols": 4}, {"rows": 4, "cols": 4, "misere": True}):
        assert database("knightsdance", **options).counts()["draw"] > 0
    record = database("knightsdance", misere=True).lookup("(w 5 6 a1 b1 f5 b5)")
    assert (record.value, record.remoteness) == ("draw", None)


@pytest.mark.parametrize("position, message", [
    ("(w 5 6 a1 b1 a1 b5)", "white knight stands on its own king"),
    ("(w 5 6 a1 b1 f5 b1)", "black knight stands on its own king"),
    ("(w 5 6 a1 a1 f5 b5)", "both kings stand on a1"),
    ("(w 5 6 a1 b1 b1 d4)", "White already captured the black king"),
    ("(w 4 4 a1 b1 d4 b4)", "is a 4x4 position"),
    ("(w 5 6 a1 b1 g5 b5)", "off the 5x6 board"),
    ("(x 5 6 a1 b1 f5 b5)", "must be w or b"),
    ("(w 5 6 a1 b1 f5)", "is \\(T R C WK BK WN BN\\)"),
])
def test_knightsdance_bad_positions(database, position, message):
    with pytest.raises(ValueError, match=message):
        database("knightsdance").lookup(position)


# -- Surround ---------------------------------------------------------------------

def test_surround_example_game(database):
    """Positions 0 -> 5 -> 8 of the seed's example, then White cannot grow and loses."""
    db = database("surround")
    steps = [("down", "(b -o--- -w--b -----)"), ("down", "(w -o--- -w--x ----b)"),
             ("left", "(b -o--- wo--x ----b)"), ("left", "(w -o--- wo--x ---bx)"),
             ("down", "(b -o--- oo--x w--bx)")]  # position 5
    assert replay(db, "(w -w--- ----b -----)", steps).position == "(b -o--- oo--x w--bx)"
    steps = [("left", "(w -o--- oo--x w-bxx)"), ("right", "(b -o--- oo--x owbxx)"),
             ("up", "(w -o--- oob-x owxxx)")]  # position 8 (seed 000; 002 has a typo)
    final = replay(db, "(b -o--- oo--x w--bx)", steps)
    assert (final.value, final.remoteness) == ("lose", 0)  # "white has no room to grow and loses!"
    assert db.moves(final.position) == []


def test_surround_wormhole_example(database):
    """The seed's wormhole narrative, on a 4x4 board that matches it (the figure is lost)."""
    db = database("surround", rows=4, cols=4, wormholes=True)
    position = "(w x--w x-oo b--- ----)"
    moves = {m.move: m.position for m in db.moves(position)}
    # White: left or wormhole up; not wormhole right (the opponent), not down (itself).
    assert set(moves) == {"left", "up through the wormhole"}
    moves = {m.move: m.position for m in db.moves(moves["up through the wormhole"])}
    # Black: down, right or wormhole left; not up (itself).
    assert set(moves) == {"down", "right", "left through the wormhole"}
    moves = {m.move: m.position for m in db.moves(moves["left through the wormhole"])}
    # White again: left or wormhole right; not wormhole down (itself).
    assert set(moves) == {"left", "right through the wormhole"}


def test_surround_narrow_wormhole_board_counts_one_move_per_cell(database):
    db = database("surround", rows=2, cols=2, wormholes=True)
    # From a1's row: up (through the edge) and down reach the same cell, and so do
    # left (through the edge) and right: two moves, named by the direct step.
    assert sorted(m.move for m in db.moves("(w w- -b)")) == ["down", "right"]


def test_surround_keeps_the_colours_the_user_gave(database):
    db = database("surround")
    # Both colourings are worms that play can grow (the index stores neither).
    usual, swapped = "(b --oow --bx- -----)", "(b --xow --bo- -----)"
    assert db.positions([db.indices_of([swapped])[0]]) == [usual]  # the index's colouring
    a, b = db.lookup(usual), db.lookup(swapped)
    assert (a.position, b.position) == (usual, swapped)
    assert (a.value, a.remoteness) == (b.value, b.remoteness)  # colours never change play
    children = [m.position for m in db.moves(swapped)]
    assert children and all(c.split()[1] == "--xow" and c.split()[2][3] == "o" for c in children)
    assert all(c.count("x") == 2 for c in children)  # Black's old head became black body


@pytest.mark.parametrize("position, message", [
    ("(w ww--- ----b -----)", "2 white heads"),
    ("(w -w--- ---- -----)", "row 2 .* has 4 cells"),
    ("(w -w--- ----- -----)", "0 black heads"),
    ("(b -w--- ----b -----)", "must be White's turn"),
    ("(w -o--- -w--b -----)", "must be Black's turn"),
    ("(b -oo-- -w--b -----)", "alternate starting with White"),
    ("(w -w--- ----b ----z)", "cells are"),
])
def test_surround_bad_positions(database, position, message):
    with pytest.raises(ValueError, match=message):
        database("surround").lookup(position)


# -- Konane -----------------------------------------------------------------------

KONANE_EXAMPLE = [  # seeds/000 and 001 (captions reordered to the only legal order)
    ("b2 right to d2", '(b "" wbwb b--w w-wb)'),
    ("d1 left to b1", '(w "" wbwb b--w wb--)'),
    ("a1 right to c1", '(b "" wbwb b--w --w-)'),
    ("d3 down to d1", "(b d1 wbw- b--- --wb)"),       # board #4: Black goes again
    ("d1 left to b1", '(w "" wbw- b--- -b--)'),
    ("a3 down to a1", "(w a1 -bw- ---- wb--)"),       # White may go again...
    ("pass", '(b "" -bw- ---- wb--)'),                # ...and passes it up
    ("b3 right to d3", '(w "" ---b ---- wb--)'),
    ("a1 right to c1", '(b "" ---b ---- --w-)'),      # Black has no moves left
]


def test_konane_example_game(database):
    db = database("konane")
    moves = {m.move: m for m in db.moves('(b "" wbwb b--w --w-)')}
    assert moves["d3 down to d1"].moves_again  # the go-again turn keeps Black to move
    final = replay(db, '(w "" wbwb bwb- w-wb)', KONANE_EXAMPLE)
    assert (final.value, final.remoteness) == ("lose", 0)  # "Black has no moves left. White wins."


def _from_children(db, moves) -> tuple[str, int]:
    """The value RULES.md gives a position from the records of its children (go-again
    values not flipped); each move's value for its mover must agree with them."""
    mine = []
    for move in moves:
        child = db.lookup(move.position)
        mine.append((child.value if move.moves_again else FLIP[child.value], child.remoteness))
        assert mine[-1] == (move.value, move.remoteness), move
    for wanted, pick in (("win", min), ("tie", min)):
        found = [r for v, r in mine if v == wanted]
        if found:
            return wanted, 1 + pick(found)
    return "lose", 1 + max(r for _, r in mine)


@pytest.mark.parametrize("goagain_any", [False, True])
def test_konane_values_follow_from_their_moves_with_go_again(database, goagain_any):
    """Every third legal position that is a go-again turn or offers one."""
    db = database("konane", goagain_any=goagain_any)
    checked = 0
    for text in db.positions(legal_indices(db)[::3]):
        moves = db.moves(text)
        if moves and (any(m.moves_again for m in moves) or text.split()[1] != '""'):
            record = db.lookup(text)
            assert (record.value, record.remoteness) == _from_children(db, moves), text
            checked += 1
    assert checked > 100


def test_konane_goagain_any_changes_the_example(database):
    """With --goagain-any Black's d1-b1 already earns a go-again (d3 can still jump)."""
    db = database("konane", goagain_any=True)
    moves = {m.move: m for m in db.moves('(b "" wbwb b--w w-wb)')}
    assert moves["d1 left to b1"].moves_again
    assert moves["d1 left to b1"].position == "(b b1 wbwb b--w wb--)"
    assert "pass" in {m.move for m in db.moves("(b b1 wbwb b--w wb--)")}


@pytest.mark.parametrize("position, message", [
    ('(w "" bbwb bwb- w-wb)', "has b on a3, a white cell"),
    ('(w "" wbwb bwb- w-ww)', "has w on d1, a black cell"),
    ('(w "" wbwb bwb- w-w)', "row 3 .* has 3 cells"),
    ('(w d1 wbw- b--- --wb)', "holds no white piece"),
    ('(b c1 wbw- b--- --wb)', "holds no black piece"),
    ('(b d1 wbw- b--- ---b)', "can jump again, and it cannot"),
    ('(w "" wbwb bwb-)', "has 2 rows"),
    ('(w e9 wbwb bwb- w-wb)', "go-again cell .* must be"),
    ("(w wbwb bwb- w-wb)", "has 2 rows|lacks the go-again cell|has 4 cells"),
])
def test_konane_bad_positions(database, position, message):
    with pytest.raises(ValueError, match=message):
        database("konane").lookup(position)
