"""All Queens Chess (GamesmanOne's mallqueenschess): the 5x5 board's rules against the
reference rules on random positions (the whole game is too large for the reference
solver), the index on every position of 4x4, and bad input refused in one line
(GamesmanOne's notation: tests/test_peer_gamesmanone.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from reference import make_game as reference_game
from tiersolve.games import make_game
from tiersolve.values import ILLEGAL, LOSE, UNDECIDED

from conftest import command, one_line_error


def random_texts(size, count, seed):
    """Positions of random games by our rules (each a random number of plies in)."""
    game = make_game("allqueens", size=size)
    rng = random.Random(seed)
    texts = []
    while len(texts) < count:
        state = game.start()
        for _ in range(rng.randrange(60)):
            children = game.children(state)
            if not children:
                break
            state = rng.choice(children).state
        texts.append(game.format(state))
    return texts


def test_start_and_first_moves():
    game = make_game("allqueens")
    assert game.default_start() == "(w wbwbw ----- b---w ----- bwbwb)"
    moves = [child.move for child in game.children(game.start())]
    assert len(moves) == 34 and moves[:3] == ["a5-a4", "a5-b4", "a5-c3"]
    assert game.size == 609_791_700  # the mover's view, up to the square's 8 symmetries


def test_moves_as_the_reference_rules():
    """Random 5x5 positions, move by move (3x3 is compared whole, value by value, by
    tests/test_crosscheck.py; 4x4 too under -m slow)."""
    size = 5
    ours, theirs = make_game("allqueens", size=size), reference_game("allqueens", size=size)
    for text in random_texts(size, 60, seed=size):
        state, mine = ours.parse(text), theirs.parse(text)
        children = {child.move: ours.format(child.state) for child in ours.children(state)}
        expected = {name: theirs.format(theirs.play(mine, name))
                    for name in theirs.move_names(mine)}
        assert children == expected, text
        value = ours.primitive_value(state)
        assert (value == LOSE) == (theirs.primitive(mine) == "lose"), text


def test_lines_end_the_game():
    """RULES.md's examples: the other's line is a loss for the player to move; the
    mover's own line is a position no game reaches."""
    game = make_game("allqueens")
    for text in ("(b bw-b- --w-b b--w- -b--w w-b-w)", "(w bbbb- -w--w --w-- w-b-w -b-w-)",
                 "(b wb--b -w-b- b-w-- -b-w- b--ww)"):
        assert game.primitive_value(game.parse(text)) == LOSE
        assert len(game.moves_of(game.parse(text))) == 0
    assert game.primitive_value(game.parse("(w wwww- b---b ----w --bb- bw--b)")) == ILLEGAL
    # Three in a row is not a line on 5x5; on 3x3 it is.
    assert game.primitive_value(game.parse("(b www-- ----b b-b-w -b-b- w-b-w)")) == UNDECIDED
    small = make_game("allqueens", size=3)
    assert small.primitive_value(small.parse("(b www --- bbb)")) == ILLEGAL
    assert small.primitive_value(small.parse("(b www -b- b-b)")) == LOSE


def test_the_colours_exchanged_share_an_index():
    game = make_game("allqueens")
    text = "(w wbwbw ----- b---w ----- bwbwb)"
    swapped = "(b bwbwb ----- w---b ----- wbwbw)"
    assert game.index(game.parse(text)) == game.index(game.parse(swapped))
    mirrored = "(w wbwbw ----- w---b ----- bwbwb)"  # left-right mirror of the start
    assert game.index(game.parse(mirrored)) == game.index(game.parse(text))


def classes(size, queens):
    """Burnside's count of the boards of ``queens`` white and black queens on size x
    size up to the square's 8 symmetries: the average over the symmetries of the
    boards each keeps (a kept board colours each cycle of cells alike)."""
    cells = size * size
    turns = [lambda r, c: (r, c), lambda r, c: (c, size - 1 - r),
             lambda r, c: (size - 1 - r, size - 1 - c), lambda r, c: (size - 1 - c, r)]
    group = [[f(*g(*divmod(i, size))) for i in range(cells)]
             for f in (lambda r, c: (r, c), lambda r, c: (r, size - 1 - c)) for g in turns]
    total = 0
    for image in group:
        image = [r * size + c for r, c in image]
        seen, lengths = set(), []
        for start in range(cells):
            if start not in seen:
                length, cell = 0, start
                while cell not in seen:
                    seen.add(cell)
                    cell, length = image[cell], length + 1
                lengths.append(length)
        ways = {(0, 0): 1}  # (white, black) cells coloured so far -> ways
        for length in lengths:
            grown = {}
            for (w, b), n in ways.items():
                for dw, db in ((0, 0), (length, 0), (0, length)):
                    key = (w + dw, b + db)
                    if key[0] <= queens and key[1] <= queens:
                        grown[key] = grown.get(key, 0) + n
            ways = grown
        total += ways.get((queens, queens), 0)
    return total // len(group)


def test_every_4x4_class_has_one_index():
    """decode then encode gives back exactly one index of each class of boards (the
    others are images of stored ones, and encode to those), on all 124,740 indices."""
    game = make_game("allqueens", size=4)
    indices = np.arange(game.size)
    again = game.encode_many(game.decode_many(indices))
    stored = again == indices
    assert stored.sum() == classes(4, 4) == 113_028
    assert np.all(stored[again])  # the others encode to stored indices
    assert classes(5, 6) == 581_555_800 + 19_131_560  # 5x5: the built file's counts


#: Bad texts for the 3x3 database, and what the one-line error says.
BAD_TEXTS = (
    ("(w wbx --- bwb)", "cells are"),
    ("(w wbw --- bw-)", "3 white and 2 black queens"),
    ("(x wbw --- bwb)", "must be w or b"),
    ("(w wbwbw ----- b---w ----- bwbwb)", "has 5 rows"),
    ("(w www --- bbb)", "already has a line"),
    ("(W wbw --- bwb)", "lower case"),
)


def test_bad_positions_are_refused_in_one_line(database, capsys):
    """Wrong sizes, symbols, counts, and positions no game reaches: one line, exit 2
    (looked up in the 3x3 database that tests/test_crosscheck.py compares, built once;
    one test, so that one worker builds it)."""
    db = database("allqueens", size=3)
    assert db.lookup(db.start).value == "draw"
    command(["query", str(db.path), db.start], capsys)  # compiles what query needs
    for text, message in BAD_TEXTS:
        code, _, err = command(["query", str(db.path), text], capsys)
        assert message in one_line_error(code, err, "tiersolve query"), text


def test_bad_options_and_5x5_texts():
    with pytest.raises(Exception, match="size must be at most 5"):
        make_game("allqueens", size=6)
    game = make_game("allqueens")
    for text, message in (("(w wbwbw ----- b---w ----- bwbw-)", "6 white and 5 black"),
                          ("(w wbwbw ----- b---w ----- bwbwbb)", "has 6 cells"),
                          ("(w wbwbw ----- b---w -----)", "4 rows")):
        with pytest.raises(ValueError, match=message):
            game.parse(text)
