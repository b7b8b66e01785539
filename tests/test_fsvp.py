"""Fair Shares and Varied Pairs (``games/fsvp.py``): GamesmanOne's start and sizes, the
moves in GamesmanOne's order, bad input refused in one line, and values known from
GamesmanOne's database (scripts/peer_gamesmanone.py agree compares every position)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tiersolve.errors import GameError, PositionError
from tiersolve.games import make_game


def test_start_is_gamesmanones():
    assert make_game("fsvp").default_start() == "(10)"
    assert make_game("fsvp", size=11).default_start() == "(10 1)"
    assert make_game("fsvp", size=100).size == 190_569_292


def test_moves_in_gamesmanones_order():
    game = make_game("fsvp", size=10)
    children = [(c.move, game.format(c.state)) for c in game.children(game.parse("(6 3 1)"))]
    assert children == [("3/1", "(6 1 1 1 1)"), ("6/1", "(3 1 1 1 1 1 1 1)"),
                        ("6/2", "(3 2 2 2 1)"), ("6/3", "(3 3 3 1)"), ("6+3", "(9 1)"),
                        ("6+1", "(7 3)"), ("3+1", "(6 4)")]
    assert game.children(game.parse("(1 1 1 1 1 1 1 1 1 1)")) == []
    assert [c.move for c in game.children(game.parse("(5 5)"))] == ["5/1"]


def test_index_is_reverse_lexicographic():
    game = make_game("fsvp", size=6)
    texts = [game.position_text(0, i) for i in range(game.size)]
    assert texts[:4] == ["(6)", "(5 1)", "(4 2)", "(4 1 1)"]
    assert texts[-1] == "(1 1 1 1 1 1)"
    assert game.index(game.parse("(1 4 1)")) == 3  # any order is the same position


@pytest.mark.parametrize("text, message", [
    ("(6 3)", "hold 9 tokens"), ("(10 0)", "heap of 0"), ("(5 x 5)", "whole numbers"),
    ("6 3 1", "missing parentheses"), ("()", "empty position"), ("(5 -5 10)", "whole numbers"),
])
def test_bad_positions_are_refused(text, message):
    with pytest.raises(PositionError if "tokens" in message or "0" in message else ValueError,
                       match=message):
        make_game("fsvp").parse(text)


@pytest.mark.parametrize("size", [1, 101])
def test_sizes_outside_the_range_are_refused(size):
    with pytest.raises(GameError, match="size must be"):
        make_game("fsvp", size=size)


def test_values_agree_with_gamesmanone(database):
    """Values GamesmanOne's database gives (variant 6, n = 10; variant 7, n = 11)."""
    db = database("fsvp", size=10)
    assert (db.lookup("(10)").value, db.lookup("(10)").remoteness) == ("win", 1)
    counts = db.counts()
    assert (counts["win"], counts["lose"], counts["draw"]) == (30, 12, 0)
    assert [str(move) for move in db.moves("(10)")] == [
        "10/1: win in 0", "10/5: win in 2", "10/2: lose in 13"]
    db11 = database("fsvp", size=11)
    assert (db11.counts()["draw"], db11.counts()["lose"]) == (45, 1)


def test_bad_input_is_one_line_with_exit_code_2(tmp_path):
    command = [sys.executable, "-m", "tiersolve", "build", "fsvp", "--size", "3000",
               "--out", str(tmp_path / "x.h5")]
    run = subprocess.run(command, capture_output=True, text=True)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1, run.stderr


def test_picture_draws_every_heap():
    game = make_game("fsvp", size=10)
    svg = game.picture_svg(game.parse("(6 3 1)"), "caption")
    assert svg.count('class="heap"') == 3 and svg.count("<circle") == 10
