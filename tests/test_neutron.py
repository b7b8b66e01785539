"""Neutron (games/neutron.py): the start's moves, the ends of docs/RULES.md, the
notation and what it refuses, the index's twins (the board turned round with the
colours exchanged, the mirror image). The game tester and the reference cross-check run on
the 3x3 board in the cross-game tests."""

from __future__ import annotations

import pytest

from tiersolve.errors import ImpossiblePositionError, OtherBoardError
from tiersolve.games import make_game
from tiersolve.values import LOSE, UNDECIDED, WIN


@pytest.fixture(scope="module")
def game():
    return make_game("neutron")


def test_start_slides_a_piece_only(game):
    start = game.start()
    assert game.format(start) == "(x ooooo ----- --n-- ----- xxxxx)"
    moves = [child.move for child in game.children(start)]
    assert moves == ["a1-a4", "a1-b2", "b1-a2", "b1-b4", "b1-e4", "c1-a3", "c1-c2", "c1-e3",
                     "d1-a4", "d1-d4", "d1-e2", "e1-d2", "e1-e4"]
    assert game.locate(start) == (0, 0)


def test_a_turn_is_the_neutron_then_a_piece(game):
    state = game.parse("(o ooooo ----x --n-- ----- xxxx-)")
    names = [child.move for child in game.children(state)]
    assert len(names) == 69
    assert names[:3] == ["c3-b4,a5-a2", "c3-b4,b5-a4", "c3-b4,b5-e2"]
    assert "c3-c4,a5-e1" in names  # a5 slides through c3, which the neutron left
    assert [name for name in names if "," not in name] == ["c3-e1"]  # onto x's home row


def test_the_neutron_on_a_home_row_ends_the_game(game):
    state = game.parse("(o o-ooo ---o- -n--- ----x x-xxx)")
    ends = {child.move: child.state for child in game.children(state) if "," not in child.move}
    assert list(ends) == ["b3-b5", "b3-b1"]
    assert game.format(ends["b3-b1"]) == "(x o-ooo ---o- ----- ----x xnxxx)"
    assert game.primitive_value(ends["b3-b1"]) == WIN   # on x's home row, x to move
    assert game.primitive_value(ends["b3-b5"]) == LOSE  # on o's home row
    assert game.primitive_value(game.parse("(o onooo ---o- ----- ----x x-xxx)")) == WIN


def test_a_player_without_a_move_loses(game):
    walled = game.parse("(x ---ox o--xo xo--- nx--- ox---)")
    assert game.primitive_value(walled) == LOSE
    small = make_game("neutron", rows=3, cols=3)
    assert small.primitive_value(small.parse("(x xx- nx- ooo)")) == LOSE
    assert small.primitive_value(small.start()) == UNDECIDED


def test_again_marks_the_start_board_reached_later(game):
    later = game.parse("(x again ooooo ----- --n-- ----- xxxxx)")
    assert game.format(later) == "(x again ooooo ----- --n-- ----- xxxxx)"
    assert game.locate(later)[0] == 1
    assert all("," in child.move for child in game.children(later))
    # o to move on the start's board is the same position seen from o's side
    assert game.locate(game.parse("(o ooooo ----- --n-- ----- xxxxx)")) == game.locate(later)


@pytest.mark.parametrize("text, error", [
    ("(x ooooo ----- ----- ----- xxxxx)", ImpossiblePositionError),
    ("(x oooo- ----- --n-- ----- xxxxx)", ImpossiblePositionError),
    ("(x oooon ----- --n-- ----- xxxx-)", ImpossiblePositionError),
    ("(x again ooooo ----- --n-- ----- xxxx-)", ValueError),
    ("(X ooooo ----- --n-- ----- xxxxx)", ValueError),
    ("(x ooooo ----- --n-- xxxxx)", OtherBoardError),
    ("(x ooooo ----- --n-- ----- xxxxz)", ValueError),
])
def test_bad_positions_are_refused(game, text, error):
    with pytest.raises(error):
        game.parse(text)


def test_even_boards_are_refused():
    from tiersolve.errors import GameError
    with pytest.raises(GameError, match="odd"):
        make_game("neutron", rows=4, cols=5)


def test_twins_share_an_index(game):
    text = "(x o-o-o -o--- -xn-o --x-- x-x-x)"
    turned = "(o o-o-o --o-- x-no- ---x- x-x-x)"  # turned 180 degrees, colours exchanged
    mirrored = "(x o-o-o ---o- o-nx- --x-- x-x-x)"
    index = game.index(game.parse(text))
    assert game.index(game.parse(turned)) == index
    assert game.index(game.parse(mirrored)) == index
    assert game.tiers.sizes == [1, 7413547680]
