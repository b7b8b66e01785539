"""The seed texts' example games replayed through the game code and the lookup library,
and known results of the literature (seeds/000: 1,2,...,10, Tic-Tac-Toe, Northcott)."""

from __future__ import annotations

from functools import reduce
from operator import xor

import numpy as np
import pytest

from conftest import legal_indices


def replay(db, start: str, moves_and_positions: list[tuple[str, str]]):
    """Play named moves from ``start``; each must be legal and reach the given text.
    Every position on the way must be consistent with its moves' values."""
    position = start
    for move, expected in moves_and_positions:
        options = {m.move: m for m in db.moves(position)}
        assert move in options, f"{move!r} is not legal in {position}; legal: {sorted(options)}"
        assert options[move].position == expected
        record = db.lookup(expected)
        assert (record.value, record.remoteness) == (options[move].value, options[move].remoteness)
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
    # filling c2 makes a run of five, which contains a line of three
    assert (moves["c2"].position, moves["c2"].value, moves["c2"].remoteness) == \
        ("(o xxxxx oo-oo)", "lose", 0)
    assert db.lookup("(x xx-xx oo-oo)").remoteness == 1


def test_ttt_illegal_positions_are_refused(database):
    db = database("ttt", rows=3, cols=3)
    with pytest.raises(ValueError, match="x already has a line"):
        db.lookup("(x xxx oo- o--)")
