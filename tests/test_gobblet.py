"""Gobblet Gobblers: the examples of docs/RULES.md, random positions of the whole game
against the reference rules, the values of smaller sets of pieces checked position by
position against the reference rules' moves, positions no game reaches, and (slow)
the whole game."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from reference import make_game as reference_game
from tiersolve.databases import build_database, open_database
from tiersolve.games import make_game
from tiersolve.games.tester import check_expansions
from tiersolve.values import UNDECIDED, VALUE_NAMES

from conftest import command, legal_indices, one_line_error
from test_quixo_teeko import random_positions

START = "(x ---/---/--- ---/---/--- ---/---/---)"


def children(game, text: str) -> dict[str, str]:
    return {child.move: game.format(child.state) for child in game.children(game.parse(text))}


def primitive(game, text: str) -> str | None:
    value = game.primitive_value(game.parse(text))
    return None if value == UNDECIDED else VALUE_NAMES[value]


def test_the_rules_examples():
    """docs/RULES.md: only a larger piece covers; lifting a piece that uncovers the
    other colour's line loses unless it lands on that line; with both colours in line
    the player to move wins."""
    game = make_game("gobblet")
    placed = children(game, "(o ---/---/--- ---/-x-/--- ---/---/---)")
    assert placed["L*b2"] == "(x ---/---/--- ---/-xo/--- ---/---/---)"
    assert "S*b2" not in placed and "M*b2" not in placed and "b2-a1" not in placed
    assert len(placed) == 3 * 8 + 1  # small and medium on the 8 empty squares, large on 9
    lifting = children(game, "(x o-x/-o-/-o- ---/---/--- x--/---/---)")
    assert lifting["a3-b2"] == "(o o--/-o-/-o- ---/--x/--- x--/---/---)"
    assert primitive(game, lifting["a3-b2"]) == "win"
    assert lifting["a3-b3"] == "(o o--/-ox/-o- ---/---/--- x--/---/---)"
    assert primitive(game, lifting["a3-b3"]) is None
    assert primitive(game, "(x o--/o--/-o- ---/---/--- x--/x--/-x-)") == "win"
    assert primitive(game, "(o o--/o--/-o- ---/---/--- x--/x--/-x-)") == "win"
    assert primitive(game, "(o o--/---/--- ---/---/--- x--/x--/-x-)") == "lose"


def test_random_positions_move_as_the_reference_rules():
    """The whole game: the same moves, by name, to the same positions, and the same
    finished games, from positions of random games."""
    game, reference = make_game("gobblet"), reference_game("gobblet")
    for text in random_positions("gobblet", {}, 400, seed=3):
        state, expected = game.parse(text), reference.parse(text)
        theirs = {name: reference.format(child)
                  for name, child in reference.move_names_and_children(expected)}
        assert children(game, text) == theirs, text
        assert primitive(game, text) == reference.primitive(expected), text
        assert game.unreachable_reason(state) is None, text


def test_expand_agrees_with_the_composition_on_the_whole_game():
    """The game tester's check of one index (expand against the five functions, and
    expand_leaving against expand), on random indices of every tier of the whole game,
    too large to check whole."""
    game = make_game("gobblet")
    rng = np.random.default_rng(2)
    for tier, size in enumerate(game.tier_sizes):
        for local in rng.choice(int(size), size=min(int(size), 30), replace=False):
            check_expansions(game, tier, int(local))




def rules_value(reference, state, db) -> tuple[str, int | None]:
    """A position's value by the reference rules, one move deep: its children's values
    read from the database (a win if some child loses, soonest; a loss if every
    child wins, latest; else a draw)."""
    ended = reference.primitive(state)
    if ended is not None:
        return ended, 0
    kids = [reference.format(child) for child, _ in reference.moves(state)]
    codes, distances = db.lookup_many(kids)
    results = [(VALUE_NAMES[int(code)], int(distance)) for code, distance in zip(codes, distances)]
    losing = [distance for value, distance in results if value == "lose"]
    if losing:
        return "win", 1 + min(losing)
    if all(value == "win" for value, _ in results):
        return "lose", 1 + max(distance for _, distance in results)
    return "draw", None


@pytest.fixture(scope="module")
def small_databases(tmp_path_factory):
    """The two smallest sets of pieces that can make a line: one piece of each size,
    and two of the small and medium sizes."""
    folder = tmp_path_factory.mktemp("gobblet")
    for name, options in (("k1", {"pieces": 1}), ("n2", {"sizes": 2})):
        build_database("gobblet", folder / f"{name}.h5", progress=False, **options)
    return folder


@pytest.mark.parametrize("name, options, start", [
    ("k1", {"pieces": 1}, "draw"), ("n2", {"sizes": 2}, "draw"),
])
def test_small_sets_agree_with_the_reference_rules_everywhere_they_look(small_databases, name,
                                                                       options, start):
    """Every value is what the reference rules make of its children's values, on 600
    random positions each: a database that agrees with itself so everywhere, its
    finished games as the rules say, holds the solution (a remoteness can only count
    down to a finished game). tests/test_crosscheck.py solves one piece a size whole
    with the reference under -m slow."""
    reference = reference_game("gobblet", **options)
    with open_database(small_databases / f"{name}.h5") as db:
        assert db.lookup(db.start).value == start
        picks = np.random.default_rng(5).choice(legal_indices(db), size=600, replace=False)
        texts = db.positions(picks)
        codes, distances = db.lookup_indices(picks)
        for text, code, distance in zip(texts, codes, distances):
            mine = (VALUE_NAMES[int(code)], None if distance < 0 else int(distance))
            assert mine == rules_value(reference, reference.parse(text), db), text


@pytest.mark.parametrize("argv, message", [
    (["(x x--/---/--- ---/---/--- ---/---/---)"], "1 x and 0 o pieces on the board it cannot be x's"),
    (["(o ---/---/--- ---/---/--- ---/---/---)"], "0 x and 0 o pieces on the board it cannot be o's"),
    (["(o x--/-x-/--- ---/---/--- ---/---/---)"], "2 x and 0 o pieces on the board it cannot be o's"),
    (["(x o--/-o-/--- ---/---/--- ---/---/---)"], "0 x and 2 o pieces on the board it cannot be x's"),
    (["(x x--/x--/--- ---/---/--- ---/---/---)"], "2 small pieces of x; each player has 1"),
    (["(x --/--/-- --/--/-- --/--/--)"], "has 2 sizes, but this gobblet (pieces 1) game has 3"),
    (["(x ---/---/--- ---/---/---)"], "has 2 rows"),
    (["(x ---/--- ---/---/--- ---/---/---)"], "has 2 cells"),
    (["(x -X-/---/--- ---/---/--- ---/---/---)"], "a size is 'x', 'o' or '-'"),
    (["(X ---/---/--- ---/---/--- ---/---/---)"], "lower case"),
    ([START, "--move", "b2-b3"], "b2-b3"),
])
def test_bad_positions_are_refused_in_one_line(small_databases, capsys, argv, message):
    """Wrong sizes and symbols, impossible counts, and positions no game reaches: one
    line, exit 2."""
    code, _, err = command(["query", str(small_databases / "k1.h5"), *argv], capsys)
    assert message in one_line_error(code, err, "tiersolve query")


def test_the_page_shows_stacks_and_reserves_and_places_and_moves(small_databases, tmp_path):
    """In a browser: both reserves beside the board; a stack shows its top piece and,
    as rings, the pieces under it, and names them all when the pointer is over it;
    the mover's reserve piece is ringed, clicking it shows its placements coloured by
    value, and clicking one plays it; then a piece on the board moves the same way."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    from test_serve_http import COLOURS, Server, _browser

    (tmp_path / "db").mkdir()
    shutil.copy(small_databases / "k1.h5", tmp_path / "db" / "gobblet_k1.h5")
    position = "(x x-o/---/--- ---/---/--- ---/---/---)"  # a large o covers a small x on a3
    with open_database(small_databases / "k1.h5") as db:
        choices = {m.move: m for m in db.moves(position)}
    running = Server(tmp_path / "db", tmp_path)
    driver = _browser(tmp_path)
    wait = WebDriverWait(driver, 60)

    def status() -> str:
        return driver.find_element(By.ID, "status").text

    def shown() -> dict[str, str]:
        return {m.get_attribute("data-move"): m.find_element(By.TAG_NAME, "circle")
                .get_attribute("fill")
                for m in driver.find_elements(By.CSS_SELECTOR, "#board .move-marker")
                if m.is_displayed()}

    try:
        driver.get(f"{running.url}/?db=gobblet_k1&position={position}")
        wait.until(lambda d: status().startswith(position))
        reserves = {(h.get_attribute("data-side"), h.text) for h in
                    driver.find_elements(By.CSS_SELECTOR, "#board .in-hand")}
        assert reserves == {("0", "M"), ("0", "L"), ("1", "s"), ("1", "m")}
        stack = driver.find_element(By.CSS_SELECTOR, '#board .stack[data-square="a3"]')
        assert stack.find_element(By.TAG_NAME, "title").get_attribute("textContent") == \
            "a3: large o, small x (top first)"
        assert len(stack.find_elements(By.CSS_SELECTOR, ".covered")) == 1
        driver.find_element(By.CSS_SELECTOR, '#board .source[data-square="c0"]').click()
        wait.until(lambda d: shown())
        large = {name: COLOURS[m.value] for name, m in choices.items() if name.startswith("L*")}
        assert shown() == large and len(large) == 8  # not onto the large o
        played = next(iter(large))
        driver.find_element(By.CSS_SELECTOR,
                            f'#board .move-marker[data-move="{played}"] circle').click()
        wait.until(lambda d: status().startswith(choices[played].position))
        assert {h.text for h in driver.find_elements(By.CSS_SELECTOR, "#board .in-hand")} == \
            {"M", "s", "m"}
        driver.find_element(By.CSS_SELECTOR, '#board .source[data-square="a3"]').click()
        wait.until(lambda d: shown())
        assert all(name.startswith("a3-") for name in shown())
    finally:
        driver.quit()
        running.process.terminate()
        running.process.wait(timeout=30)


@pytest.mark.slow
def test_the_whole_game(tmp_path):
    """Every position of Gobblet Gobblers (8 minutes of CPU: docs/BENCHMARKS.md): the
    first player wins in 13, and the values agree with the reference rules one move
    deep on 1,000 random positions."""
    report = build_database("gobblet", tmp_path / "gobblet.h5", progress=False)
    assert report.positions == 360_357_104
    assert (report.start_value, report.start_remoteness) == ("win", 13)
    reference = reference_game("gobblet")
    with open_database(tmp_path / "gobblet.h5") as db:
        picks = np.random.default_rng(11).choice(db.game.size, size=1000, replace=False)
        for text, code, distance in zip(db.positions(picks), *db.lookup_indices(picks)):
            mine = (VALUE_NAMES[int(code)], None if distance < 0 else int(distance))
            assert mine == rules_value(reference, reference.parse(text), db), text
