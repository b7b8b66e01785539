"""Dōbutsu shōgi: the full game's moves against the reference rules on random
positions, finished games and refused positions, the solver's values on a larger
variant against the rules, the page's hands and drops in a browser, and (slow) the
whole game: the second player wins (Tanaka, 2009)."""

from __future__ import annotations

import random
import shutil

import numpy as np
import pytest

from reference import make_game as reference_game
from tiersolve.databases import build_database, open_database
from tiersolve.games import make_game
from tiersolve.values import UNDECIDED, VALUE_NAMES

from conftest import FLIP, command, one_line_error


def random_positions(count: int, seed: int) -> list[str]:
    """Positions of random games of the full game (by the reference rules, each a
    random number of plies from the start), and positions at random indices."""
    reference, game = reference_game("dshogi"), make_game("dshogi")
    rng = random.Random(seed)
    positions = []
    while len(positions) < count // 2:
        state = reference.start()
        for _ in range(rng.randrange(80)):
            moves = reference.moves(state)
            if not moves or moves[0][1]:  # finished, or walled in
                break
            state = rng.choice(moves)[0]
        positions.append(reference.format(state))
    for index in np.random.default_rng(seed).integers(0, game.size, count - len(positions)):
        positions.append(game.format(game.state_at(int(index))))
    return positions


def test_the_full_game_moves_as_the_reference_rules():
    """The same moves, by name, to the same positions, and the same finished games;
    each child hashes to an index that holds it (or is a finished game)."""
    game, reference = make_game("dshogi"), reference_game("dshogi")
    for text in random_positions(600, seed=40):
        state, expected = game.parse(text), reference.parse(text)
        ours = {child.move: game.format(child.state) for child in game.children(state)}
        theirs = dict(zip(reference.move_names(expected),
                          (reference.format(child) for _, child in
                           reference.move_names_and_children(expected))))
        assert ours == theirs, text
        value = game.primitive_value(state)
        finished = reference.primitive(expected)
        if finished is None and not theirs:
            finished = "draw"  # walled in
        assert (None if value == UNDECIDED else VALUE_NAMES[value]) == finished, text
        for child in game.children(state):  # stored as its player sees it, or mirrored
            if game.terminal_value(child.state) is None:
                seen = as_first_player(game.format(child.state))
                assert game.format(game.state_at(game.index(child.state))) in \
                    (seen, mirrored(seen)), text


def as_first_player(text: str) -> str:
    """The position as the player to move sees it, written as the first player's: the
    board turned round and the sides' letters exchanged when the second is to move."""
    turn, *rows, hands = text.strip("()").split()
    if turn == "L":
        return text
    board = "".join(rows)[::-1].swapcase()
    mine = "".join(c.upper() for c in hands if c.islower())
    theirs = "".join(c.lower() for c in hands if c.isupper())
    return "(L " + " ".join(board[i:i + 3] for i in range(0, 12, 3)) + \
        f" {mine + theirs or '-'})"


def mirrored(text: str) -> str:
    """The left-right mirror image of a position."""
    turn, *rows, hands = text.strip("()").split()
    return f"({turn} {' '.join(row[::-1] for row in rows)} {hands})"


@pytest.mark.parametrize("position, value", [
    ("(L g-e -c- -C- ElG -)", "lose"),     # the second player's Lion took the first's
    ("(l -lL --- g-e E-G Cc)", "win"),     # a Lion on the far row that can be taken
    ("(l --L --- gle E-G Cc)", "lose"),    # one that cannot
    ("(L GE- LGE CCl --- -)", "draw"),     # walled in: no move, not lost
])
def test_finished_games(position, value):
    game = make_game("dshogi")
    state = game.parse(position)
    assert VALUE_NAMES[game.primitive_value(state)] == value
    assert game.children(state) == []


@pytest.fixture(scope="module")
def chicks(database):
    """The database of Lions and Chicks."""
    return database("dshogi", animals="C")


def test_finished_games_are_looked_up_from_the_rules(chicks):
    """The index leaves finished games out; lookups answer them from the rules."""
    for position, value in [("(l -lL --- c-- -C- -)", "win"), ("(l l-L --- c-- -C- -)", "lose"),
                            ("(L -l- -c- -C- --- -)", "lose")]:
        record = chicks.lookup(position)
        assert (record.value, record.remoteness) == (value, 0), position
    # taking the Lion wins, and so does reaching the far row where it cannot be taken;
    # reaching it where it can loses (a move's remoteness is its position's: 0)
    moves = {move.move: (move.value, move.remoteness)
             for move in chicks.moves("(L --l -L- --- c-C -)")}
    assert (moves["b3-c4"], moves["b3-a4"], moves["b3-b4"]) == (("win", 0), ("win", 0),
                                                                 ("lose", 0))
    assert (chicks.lookup("(L --l -L- --- c-C -)").value,
            chicks.lookup("(L --l -L- --- c-C -)").remoteness) == ("win", 1)


@pytest.mark.parametrize("argv, message", [
    (["(L -l- -c- -C- -L-)"], "four rows of three cells and the hands"),
    (["(x -l- -c- -C- -L- -)"], "L (the first player) or l (the second)"),
    (["(L -l- -x- -C- -L- -)"], "has 'x'"),
    (["(L -l- -c- -C- -L- h)"], "a captured Hen goes to the hand as a Chick"),
    (["(L -l- -c- -C- -L- c)"], "has 3 Chicks and Hens; the game has two"),
    (["(L -l- -c- -C- LL- -)"], "2 Lions of the first player"),
    (["(L -l- -c- -C- -Lg -)"], "has 1 Giraffe; this dshogi (animals C) game has none"),
    (["(l -l- -c- -C- --- -)"], "the game ended at the capture"),
    (["(L -L- -c- -C- l-- -)"], "is on the far row"),
    (["(L -l- -c- -C- -L- -)", "--move", "C*b1"], "C*b1"),   # a drop on a piece
    (["(L -l- -c- -C- -L- -)", "--move", "b1-b3"], "b1-b3"),  # not a Lion's step
])
def test_bad_positions_and_moves_are_refused_in_one_line(chicks, capsys, argv, message):
    """Wrong sizes and symbols, impossible counts, positions no game reaches, and a
    drop where no piece may go: one line, exit 2."""
    code, _, err = command(["query", str(chicks.path), *argv], capsys)
    assert message in one_line_error(code, err, "tiersolve query")


def test_a_larger_variant_keeps_the_rules_equations(tmp_path):
    """Lions, Giraffes and Elephants (1.4 M indices): at random positions, each value
    and remoteness follows from the children's, with the moves of the reference
    rules and the finished games they reach."""
    report = build_database("dshogi", tmp_path / "ge.h5", animals="GE", progress=False)
    assert report.counts["illegal"] == 0 and report.counts["draw"] > 0
    reference = reference_game("dshogi", animals="GE")
    with open_database(tmp_path / "ge.h5") as db:
        game = db.game
        rng = np.random.default_rng(1)
        checked = 0
        while checked < 300:
            index = int(rng.integers(0, game.size))
            text = game.format(game.state_at(index))
            record = db.lookup(text)
            if db.value_array()[index] == 5:  # stored at its mirror image
                continue
            state = reference.parse(text)
            seen = [(FLIP[child.value], child.remoteness) for child in
                    (db.lookup(reference.format(after)) for _, after in
                     reference.move_names_and_children(state))]
            wins = [r for v, r in seen if v == "win"]
            if not seen:  # walled in
                expected = ("draw", None)
            elif wins:
                expected = ("win", 1 + min(wins))
            elif all(v == "lose" for v, _ in seen):
                expected = ("lose", 1 + max(r for _, r in seen))
            else:
                expected = ("draw", None)
            assert (record.value, record.remoteness) == expected, text
            checked += 1


def test_the_page_shows_the_hands_and_drops_from_them(chicks, tmp_path):
    """In a browser: both hands beside the board; the mover's hand piece is ringed,
    and clicking it shows its drops, coloured by value; clicking one plays it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    from test_serve_http import COLOURS, Server, _browser

    (tmp_path / "db").mkdir()
    shutil.copy(chicks.path, tmp_path / "db" / "dshogi_chicks.h5")
    position = "(L -l- c-- --- -L- C)"   # each side holds or has one Chick
    drops = {m.move: m for m in chicks.moves(position) if "*" in m.move}
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
        driver.get(f"{running.url}/?db=dshogi_chicks&position={position}")
        wait.until(lambda d: status().startswith(position))
        hands = {(h.get_attribute("data-side"), h.text) for h in
                 driver.find_elements(By.CSS_SELECTOR, "#board .in-hand")}
        assert hands == {("0", "C")}
        ring = driver.find_element(By.CSS_SELECTOR, '#board .source[data-square="c0"]')
        ring.click()
        wait.until(lambda d: shown())
        assert shown() == {name: COLOURS[m.value] for name, m in drops.items()}
        best = next(iter(drops.values()))
        driver.find_element(By.CSS_SELECTOR,
                            f'#board .move-marker[data-move="{best.move}"] circle').click()
        wait.until(lambda d: status().startswith(best.position))
        assert not driver.find_elements(By.CSS_SELECTOR, "#board .in-hand")
    finally:
        driver.quit()
        running.process.terminate()
        running.process.wait(timeout=30)


@pytest.mark.slow
def test_the_second_player_wins(tmp_path):
    """Tanaka (2009): the start is a win for the second player, in 78 plies; the whole
    game, every position (10 minutes of CPU: docs/BENCHMARKS.md)."""
    report = build_database("dshogi", tmp_path / "dshogi.h5", progress=False)
    assert (report.start_value, report.start_remoteness) == ("lose", 78)
    assert report.positions == 487_007_307 and report.counts["illegal"] == 0
