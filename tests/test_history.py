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
    ("(x ---- ---- ---- ----)", "L 4", "(o x--- ---- ---- ----)"),      # into an empty line
    ("(o x-x- ---- ---- ----)", "L 4", "(x oxx- ---- ---- ----)"),      # up to the first empty square
    ("(o x-x- ---- ---- ----)", "R 4", "(x x-xo ---- ---- ----)"),      # entry square empty
    ("(x oxox ---- ---- ----)", "L 4", "(o xoxo ---- ---- ----)"),      # a full line: the last falls off
    ("(x oxox ---- ---- ----)", "R 4", "(o xoxx ---- ---- ----)"),      # ... from the other end
    ("(o o--- x--- o--- x---)", "T a", "(x o--- o--- x--- o---)"),      # a full column from the top
    ("(o o--- x--- o--- x---)", "B a", "(x x--- o--- x--- o---)"),      # ... and from the bottom
    ("(x xxxx oooo ---- ----)", "L 4", "(o xxxx oooo ---- ----)"),      # gives back the same board
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
    # x pushes column c down: row 3 becomes x's, row 2 o's: one each, the game goes on
    assert children(game, "(x xxo oo- ---)")["T c"] == "(o xxx ooo ---)"
    assert game.primitive_value(game.parse("(o xxx ooo ---)")) == 255  # undecided
    # o pushes column c down: rows 3 and 1 o's, row 2 x's: o (who moved) has won
    assert children(game, "(o oox xxo oo-)")["T c"] == "(x ooo xxx ooo)"
    assert game.primitive_value(game.parse("(x ooo xxx ooo)")) == 2   # lost for x, to move
    # x's push completes o's row 2 only: o wins, although x moved
    assert children(game, "(x --o oo- ---)")["T c"] == "(o --x ooo ---)"
    assert game.primitive_value(game.parse("(o --x ooo ---)")) == 1   # won for o, to move
    # rows and columns count, diagonals do not
    assert game.primitive_value(game.parse("(x x-- -x- --x)")) == 255


def test_moves_name_rows_and_columns_as_the_board_labels_them(database, capsys):
    """Row 1 is the bottom one and column a the left one, in the names, the terminal and
    the page alike: 'L 1' drew its marker in the row labelled 3 on 3x3 when rows were
    numbered from the top."""
    from tiersolve.cli.play import play_main
    from tiersolve.cli.serve import Served, view_answer

    db = database("pousse", size=2)
    assert sorted(m.move for m in db.moves("(x -- --)")) == [
        "B a", "B b", "L 1", "L 2", "R 1", "R 2", "T a", "T b"]
    db = database("pousse", size=3)
    out = io.StringIO()
    assert play_main(["pousse", "--size", "3", "--db", str(db.path), "--computer", "none"],
                     stdin=io.StringIO("L 1\nT c\nquit\n"), stdout=out) == 0
    boards = out.getvalue().split("    a b c\n")
    assert boards[2].startswith(" 3  . . .\n 2  . . .\n 1  x . .\n")      # L 1: at a1
    assert boards[3].startswith(" 3  . . o\n 2  . . .\n 1  x . .\n")      # T c: at c3
    view = view_answer(Served("pousse_3x3", db, {"description": "pousse 3x3"}), None, [])
    shapes = {choice["move"]: choice["shape"] for choice in view["choices"]}
    assert shapes["L 1"] == {"kind": "push", "side": "L", "squares": ["a1", "b1", "c1"]}
    assert shapes["B c"] == {"kind": "push", "side": "B", "squares": ["c1", "c2", "c3"]}
    game = db.game
    for typed, name in (("l 1", "L 1"), (" t  C ", "T c")):  # as play and db.after read them
        assert db.after(db.start, typed) == db.after(db.start, name)
    for old in ("T 1", "B 3", "L 4", "L a"):  # columns are letters, rows numbers
        with pytest.raises(ValueError, match="row 1..3 .from the bottom., or T or B and a "
                                             "column a..c"):
            game.move_code(old)


def test_a_database_built_with_the_old_names_answers_in_the_new_ones(database):
    """tests/data/pousse_2x2_old_notation.h5 was built by tiersolve 0.3.0 (6fae05e), when
    rows were numbered from the top and columns by number. A file holds values by
    position, not by move, so it is read as it is: every move of every position is
    named as now, leads where the rules (tests/reference) say that move leads, and
    has the value a new build gives it."""
    from pathlib import Path

    from tiersolve.databases import open_database

    old = open_database(Path(__file__).parent / "data" / "pousse_2x2_old_notation.h5")
    new = database("pousse", size=2)
    reference = Reference(size=2)
    assert old.info().package_version == "0.3.0"
    values, remoteness = old.value_array(), old.remoteness_array()
    assert (values == new.value_array()).all() and (remoteness == new.remoteness_array()).all()
    legal = old.stored_indices()[(values >= 1) & (values <= 4)]
    for position in old.positions(legal):
        moves = old.moves(position)
        assert [str(m) for m in moves] == [str(m) for m in new.moves(position)]
        state = reference.parse(position)
        for move in moves:
            assert reference.format(reference.play(state, move.move)) == move.position


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
    names = [game.move_name(game.start(), move) for move in range(4 * size)]
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
    (["B b", "B c", "L 1", "T a", "B a", "R 1"], "L 1"),
    (["T c", "R 3", "L 3", "B a", "L 1", "R 3"], "L 3"),
    (["T a", "R 2", "L 3", "T c", "R 3", "L 3", "B a", "R 2", "L 3"], "L 3"),
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
        analyse(db, START[2], ["L 2", "R 2", "L 2", "L 2"])
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
    hint = re.search(r"hint: (\w \w) \((.*)\)", text)
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
