"""Pousse: the position game's rules move by move, and the history-aware layer
(databases/history.py) against a brute-force search of the real game (who repeats a
board loses), with the history in the state; play's move list, hint and computer
under that rule, and the history report's wording."""

from __future__ import annotations

import io
import itertools
import re

import pytest

from tiersolve.databases.history import ENDS, REPEATS, analyse
from tiersolve.games import make_game

from reference.pousse import Game as Reference
from reference.pousse import real_move_results

START = {2: "(x -- --)", 3: "(x --- --- ---)"}


def children(game, text):
    return {kid.move: game.format(kid.state) for kid in game.children(game.parse(text))}


@pytest.mark.parametrize("position, move, after", [
    ("(x ---- ---- ---- ----)", "L 1", "(o x--- ---- ---- ----)"),      # into an empty line
    ("(o x-x- ---- ---- ----)", "L 1", "(x oxx- ---- ---- ----)"),      # up to the first empty square
    ("(o x-x- ---- ---- ----)", "R 1", "(x x-xo ---- ---- ----)"),      # entry square empty
    ("(x oxox ---- ---- ----)", "L 1", "(o xoxo ---- ---- ----)"),      # a full line: the last falls off
    ("(x oxox ---- ---- ----)", "R 1", "(o xoxx ---- ---- ----)"),      # ... from the other end
    ("(o o--- x--- o--- x---)", "T 1", "(x o--- o--- x--- o---)"),      # a full column from the top
    ("(o o--- x--- o--- x---)", "B 1", "(x x--- o--- x--- o---)"),      # ... and from the bottom
    ("(x xxxx oooo ---- ----)", "L 1", "(o xxxx oooo ---- ----)"),      # gives back the same board
])
def test_pushing(position, move, after):
    game = make_game("pousse")
    assert children(game, position)[move] == after
    reference = Reference(size=4)
    names = reference.move_names(reference.parse(position))
    kids = [reference.format(child) for child, _ in reference.moves(reference.parse(position))]
    assert dict(zip(names, kids))[move] == after


def test_straights_made_by_one_push():
    """A push can make straights of both colours at once: the counts decide, whoever
    moved; and a push can complete the opponent's straight only, which wins for them."""
    game = make_game("pousse", size=3)
    # x pushes column 3 down: row 1 becomes x's, row 2 o's: one each, the game goes on
    assert children(game, "(x xxo oo- ---)")["T 3"] == "(o xxx ooo ---)"
    assert game.primitive_value(game.parse("(o xxx ooo ---)")) == 255  # undecided
    # o pushes column 3 down: rows 1 and 3 o's, row 2 x's: o (who moved) has won
    assert children(game, "(o oox xxo oo-)")["T 3"] == "(x ooo xxx ooo)"
    assert game.primitive_value(game.parse("(x ooo xxx ooo)")) == 2   # lost for x, to move
    # x's push completes o's row 2 only: o wins, although x moved
    assert children(game, "(x --o oo- ---)")["T 3"] == "(o --x ooo ---)"
    assert game.primitive_value(game.parse("(o --x ooo ---)")) == 1   # won for o, to move
    # rows and columns count, diagonals do not
    assert game.primitive_value(game.parse("(x x-- -x- --x)")) == 255


def test_moves_are_named_as_in_the_seed(database):
    db = database("pousse", size=2)
    assert [m.move for m in db.moves("(x -- --)")] and \
        sorted(m.move for m in db.moves("(x -- --)")) == sorted(
            f"{side} {i}" for side in "LRTB" for i in (1, 2))


def _reference_line(moves, size):
    reference = Reference(size=size)
    state = reference.start()
    boards = [state[1]]
    for name in moves:
        state = reference.play(state, reference.move_index(name))
        boards.append(state[1])
    return reference, state, boards


def _histories(size, longest):
    """Every line of moves from the start that neither ends the game nor repeats a board."""
    game = make_game("pousse", size=size)
    names = [f"{side} {i}" for side in "LRTB" for i in range(1, size + 1)]
    for length in range(longest + 1):
        for line in itertools.product(names, repeat=length):
            state = game.parse(START[size])
            seen = {game.board_key(state)}
            good = True
            for name in line:
                if game.primitive_value(state) != 255:
                    good = False
                    break
                state = {kid.move: kid for kid in game.children(state)}[name].state
                if game.board_key(state) in seen:
                    good = False
                    break
                seen.add(game.board_key(state))
            if good and game.primitive_value(state) == 255:
                yield list(line)


def test_every_short_history_on_2x2_matches_a_brute_force_search(database):
    db = database("pousse", size=2)
    checked = proven = 0
    for line in _histories(2, 4):
        report = analyse(db, START[2], line)
        reference, state, boards = _reference_line(line, 2)
        truth = {name: value for name, value, _ in real_move_results(state, boards[:-1], game=reference)}
        for verdict in report.moves:
            checked += 1
            if verdict.proven:
                proven += 1
                assert verdict.value == truth[verdict.move], (line, verdict)
        assert report.finished
        real_best = "win" if "win" in truth.values() else "lose"
        if report.proven:
            assert report.value == real_best, line
    assert checked > 3000 and proven == checked  # on 2x2 every verdict is proven


@pytest.mark.parametrize("line, move", [
    (["B 2", "B 3", "L 3", "T 1", "B 1", "R 3"], "L 3"),
    (["T 3", "R 1", "L 1", "B 1", "L 3", "R 1"], "L 1"),
    (["T 1", "R 2", "L 1", "T 3", "R 1", "L 1", "B 1", "R 2", "L 1"], "L 1"),
])
def test_a_position_game_win_that_repetition_spoils_is_no_proven_win(database, line, move):
    """The position game calls the move a win; its winning line needs a board that the
    history (or the line itself) already holds, so under the real rule it loses. The
    layer must not call it a proven win (here it proves the loss)."""
    db = database("pousse", size=3)
    report = analyse(db, START[3], line)
    verdict = {v.move: v for v in report.moves}[move]
    assert verdict.game_value == "lose"  # a win for the mover in the position game
    assert not (verdict.proven and verdict.value == "win")
    reference, state, boards = _reference_line(line, 3)
    truth = {name: value for name, value, _ in real_move_results(state, boards[:-1], game=reference)}
    assert truth[move] == "lose"
    assert verdict.proven and verdict.value == "lose"


def test_a_forced_repetition_turns_a_draw_into_a_proven_loss(database):
    """After L 2, R 2, L 2, R 2 on 3x3 the position game says DRAW; under the real rule
    x's only non-losing continuation would repeat a board, so x has lost."""
    db = database("pousse", size=3)
    report = analyse(db, START[3], ["L 2", "R 2", "L 2", "R 2"])
    assert report.position == "(x --- xoo ---)"
    assert db.lookup(report.position).value == "draw"
    assert (report.value, report.proven) == ("lose", True)
    repeats = [v.move for v in report.moves if v.reason == REPEATS]
    assert repeats == ["L 2"]
    assert all(v.proven and v.value == "lose" for v in report.moves)
    reference, state, boards = _reference_line(["L 2", "R 2", "L 2", "R 2"], 3)
    assert {value for _, value, _ in real_move_results(state, boards[:-1], game=reference)} == {"lose"}


def test_the_search_is_bounded_and_says_so(database):
    db = database("pousse", size=3)
    report = analyse(db, START[3], [], node_limit=5)
    assert not report.finished
    assert not any(v.proven for v in report.moves if v.reason not in (REPEATS, ENDS))
    assert "stopped at its limit" in report.text()


def test_bad_histories_are_refused(database):
    db = database("pousse", size=2)
    with pytest.raises(ValueError, match="is not a move"):
        analyse(db, START[2], ["Q 1"])
    with pytest.raises(ValueError, match="the game is over after move 3"):
        analyse(db, START[2], ["L 1", "R 1", "L 1", "L 1"])
    with pytest.raises(ValueError, match="move 5, 'L 2', repeats a board of the history"):
        analyse(database("pousse", size=3), START[3], ["L 2", "R 2", "L 2", "R 2", "L 2"])
    other = database("ttt", rows=3, cols=3)
    with pytest.raises(ValueError, match="no repetition rule"):
        analyse(other, "(x --- --- ---)", [])


def test_query_answers_with_the_history(database):
    import json
    import subprocess
    import sys
    from pathlib import Path

    db = database("pousse", size=3)
    query = [sys.executable, str(Path(__file__).resolve().parent.parent / "scripts" / "query.py"),
             str(db.path), START[3], "--history", "L 2", "R 2", "L 2", "R 2"]
    done = subprocess.run(query, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("(x --- xoo ---)  lose (proven)")
    assert any(line.split()[:2] == ["L", "2"] and "loses at once (repetition)" in line for line in lines)
    report = json.loads(subprocess.run(query + ["--json"], capture_output=True, text=True).stdout)
    assert report["value"] == "lose" and report["proven"] and len(report["history"]) == 5
    bad = subprocess.run(query[:-4] + ["Q 9"], capture_output=True, text=True)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_pousse_play_shows_and_hints_the_values_under_the_repetition_rule(database):
    """After L 2, R 2, L 2, R 2 from the empty 3x3 board, L 2 repeats a board: play's
    list, its hint and the move itself say it loses (the position game says draw)."""
    from tiersolve.cli.play import play_main

    db = database("pousse", size=3)
    out = io.StringIO()
    code = play_main(["pousse", "--size", "3", "--db", str(db.path), "--computer", "none"],
                     stdin=io.StringIO("L 2\nR 2\nL 2\nR 2\nhint\nL 2\n"), stdout=out)
    text = out.getvalue()
    last_list = text[text.rindex("moves, best first"):text.index("hint:")].splitlines()[1:-1]
    assert last_list[-1].split() == ["L", "2", "lose", "(repeats", "a", "board)"]
    assert all("lose" in line for line in last_list)  # proven: every move loses
    hint = re.search(r"hint: (\w \d) \((.*)\)", text)
    assert hint.group(1) != "L 2" and hint.group(2) == "lose, proven"
    assert "you play L 2: lose, repeats a board" in text
    assert code == 0 and "repeated an earlier board" in text.split("game over: ")[-1]


def test_the_computer_never_repeats_a_board_while_it_has_another_move(database):
    from tiersolve.cli.play import play_main

    db = database("pousse", size=3)
    out = io.StringIO()
    play_main(["pousse", "--size", "3", "--db", str(db.path), "--seed", "2"],
              stdin=io.StringIO("L 2\nL 2\nL 2\nhint\nL 2\n"), stdout=out)
    text = out.getvalue()
    assert "(computer) plays" in text
    assert not re.search(r"\(computer\) plays .*repeats a board", text)


def test_the_history_report_reads_as_english(database):
    from tiersolve.databases.history import analyse

    db = database("pousse", size=3)
    first = analyse(db, "(x --- --- ---)", ["L 2"]).text().splitlines()[0]
    assert "after 1 move of history" in first
    assert "((" not in first and "))" not in first and first.count("(") == first.count(")")
    assert "after 2 moves of history" in analyse(db, "(x --- --- ---)", ["L 2", "R 2"]).text()
