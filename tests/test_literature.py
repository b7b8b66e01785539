"""Published results for the games of seeds/003 (Domineering, Clobber)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("rows, cols, first_player", [
    (1, 1, "lose"),   # Vertical has no move at all
    (2, 1, "win"),    # one vertical domino fits, nothing else
    (1, 2, "lose"),   # only a horizontal domino fits
    (2, 2, "win"),    # first player wins (Lachmann, Moore & Rapaport 2000)
    (4, 4, "win"),    # first player wins (Breuker, Uiterwijk & van den Herik 2000)
    (5, 5, "lose"),   # second player wins (Breuker, Uiterwijk & van den Herik 2000)
])
def test_domineering_published_results(database, rows, cols, first_player):
    db = database("domineering", rows=rows, cols=cols)
    assert db.lookup(db.start).value == first_player


def test_domineering_2x2_every_first_move_wins():
    """On 2x2, after either vertical domino each row keeps a single empty cell, so
    Horizontal cannot move: every child of the start is a primitive loss."""
    from tiersolve.games import make_game

    game = make_game("domineering", rows=2, cols=2)
    children = game.children(game.start())
    assert len(children) == 2
    assert all(game.primitive_value(child.state) == 2 for child in children)  # LOSE


@pytest.mark.parametrize("length", range(2, 15, 2))
def test_linear_clobber_even_rows(database, length):
    """Every even-length alternating row is a first-player win except length 6
    (conjectured by Albert, Grossman, Nowakowski & Wolfe 2004; proved in
    arXiv:2509.08985)."""
    db = database("clobber", rows=1, cols=length)
    expected = "lose" if length == 6 else "win"
    assert db.lookup(db.start).value == expected
    # the same holds with the board standing up: a column is the same graph
    column = database("clobber", rows=length, cols=1)
    assert column.lookup(column.start).value == expected
