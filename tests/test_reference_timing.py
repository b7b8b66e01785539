"""Mid-sized reference solves from the default starts: properties of the results."""

import pytest

from reference import make_game, solve_all


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
