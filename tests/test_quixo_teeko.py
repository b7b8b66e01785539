"""Quixo and Teeko, GamesmanOne's games: the published values from our own databases,
the positions no game reaches, and random positions of the full-size boards (too large
for the reference solver) against the reference rules, move by move."""

from __future__ import annotations

import itertools
import random

import pytest

from reference import make_game as reference_game
from tiersolve.databases import build_database, open_database
from tiersolve.games import make_game
from tiersolve.values import UNDECIDED, VALUE_NAMES

from conftest import command, one_line_error


@pytest.mark.parametrize("size, remoteness", [(3, 7), (4, 21)])
def test_quixo_first_player_wins(tmp_path, size, remoteness):
    """Published: the first player wins 3x3 Quixo in 7 and 4x4 Quixo in 21 (as
    GamesmanOne finds), and 4x4 has draws."""
    report = build_database("quixo", tmp_path / "q.h5", size=size, progress=False)
    assert (report.start_value, report.start_remoteness) == ("win", remoteness)
    assert (report.counts["draw"] > 0) == (size == 4)


@pytest.mark.slow
def test_teeko_is_a_draw(tmp_path):
    """Published (Steele, 1998): Teeko is a draw, and so is every first drop."""
    report = build_database("teeko", tmp_path / "t.h5", progress=False)
    assert report.start_value == "draw"
    db = open_database(tmp_path / "t.h5")
    assert {move.value for move in db.moves("(b ----- ----- ----- ----- -----)")} == {"draw"}


def test_teeko_small_boards_are_draws(tmp_path):
    report = build_database("teeko", tmp_path / "t.h5", size=4, progress=False)
    assert report.start_value == "draw"


def test_quixo_unreachable_positions_are_those_of_the_rules():
    """Every 3x3 position, either player to move: the game refuses exactly the
    positions that the reference rules call unreachable, and the solver's index
    calls the others legal."""
    game, reference = make_game("quixo", size=3), reference_game("quixo", size=3)
    refused = 0
    for turn, cells in itertools.product("xo", itertools.product("-xo", repeat=9)):
        board = "".join(cells)
        text = f"({turn} {board[:3]} {board[3:6]} {board[6:]})"
        unreachable = game.unreachable_reason(game.parse(text)) is not None
        assert unreachable == reference.unreachable(reference.parse(text)), text
        refused += unreachable
    assert 0 < refused < 2 * 3 ** 9


def random_positions(name, options, count, seed):
    """``count`` positions of random games on the full board (each a random number of
    plies from the start, by the reference rules)."""
    reference = reference_game(name, **options)
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = reference.start()
        for _ in range(rng.randrange(60)):
            moves = reference.moves(state)
            if not moves:
                break
            state = rng.choice(moves)[0]
        positions.append(reference.format(state))
    return positions


@pytest.mark.parametrize("name, options", [
    ("quixo", {"size": 5}), ("quixo", {"size": 4}), ("teeko", {}), ("teeko", {"advanced": True}),
])
def test_full_boards_move_as_the_reference_rules(name, options):
    """Random positions of the full-size boards: the same moves, by name, to the same
    positions, and the same finished games."""
    game, reference = make_game(name, **options), reference_game(name, **options)
    for text in random_positions(name, options, 300, seed=len(name) + len(options)):
        state, expected = game.parse(text), reference.parse(text)
        ours = {child.move: game.format(child.state) for child in game.children(state)}
        theirs = dict(zip(reference.move_names(expected),
                          (reference.format(child) for child, _ in reference.moves(expected))))
        assert ours == theirs, text
        value = game.primitive_value(state)
        assert (None if value == UNDECIDED else VALUE_NAMES[value]) == \
            reference.primitive(expected), text


@pytest.fixture(scope="module")
def small_databases(tmp_path_factory):
    """Quixo 3x3 and Teeko 4x4 databases."""
    folder = tmp_path_factory.mktemp("small")
    build_database("quixo", folder / "q3.h5", size=3, progress=False)
    build_database("teeko", folder / "t4.h5", size=4, progress=False)
    for name in ("q3", "t4"):  # compile the lookups here, not under the first test
        with open_database(folder / f"{name}.h5") as db:
            db.lookup(db.game.default_start())
    return folder


@pytest.mark.parametrize("database, argv, message", [
    ("q3", ["(x x-- -o- ---)"], "cube of o is on the outer ring"),
    ("q3", ["(o --- --- ---)"], "x moves first"),
    ("q3", ["(x ---- ---- ---- ----)"], "has 4 rows"),
    ("q3", ["(x --- --- ---)", "--move", "b2-b3"], "b2-b3"),
    ("t4", ["(b bbbb b--- ---- ----)"], "each player has 4"),
    ("t4", ["(w bbb- www- ---- ----)"], "black's turn, not white's"),
    ("t4", ["(b bbbb www- ---- ----)"], "white's turn, not black's"),
    ("t4", ["(b bb-- ---- ---- ----)"], "black has as many as white or one more"),
    ("t4", ["(b bbbb www- ---- ---w)"], "already has four"),
])
def test_bad_positions_are_refused_in_one_line(small_databases, capsys, database, argv, message):
    """Wrong sizes, counts, turns, and positions no game reaches: one line, exit 2."""
    code, _, err = command(["query", str(small_databases / f"{database}.h5"), *argv], capsys)
    assert message in one_line_error(code, err, "tiersolve query")
