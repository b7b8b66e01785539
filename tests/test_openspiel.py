"""tiersolve.openspiel and ``tiersolve evaluate`` (docs/OPENSPIEL.md).

The cross-check: random playouts in OpenSpiel's own move generator, on small boards of
each game both have, agree at every state with tiersolve's database: the same moves
(as many, to the same positions), and the stored value and remoteness are what
OpenSpiel's moves give from the database's values of the children (OpenSpiel's own
verdict where a move ends the game). So tiersolve's rules are checked against an
implementation no one here wrote. Then the mapping both ways, the bot, the judge, the
command and its one-line refusals, and the package without OpenSpiel."""

from __future__ import annotations

import importlib
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

if os.environ.get("CI"):  # CI installs the extra openspiel: there these tests must run
    import pyspiel
else:
    pyspiel = pytest.importorskip("pyspiel")

from tiersolve.databases import build_database, open_database  # noqa: E402
from tiersolve.errors import DatabaseMismatchError, GameError, PositionError  # noqa: E402
from tiersolve.openspiel import (  # noqa: E402
    Evaluation, NotInOpenSpielError, RemotenessRow, TablebaseBot, UnsupportedGameError, evaluate,
    load_game, match_game, position_of, state_of,
)
from tiersolve.openspiel import lines  # noqa: E402

from conftest import command, one_line_error  # noqa: E402

FLIP = {"win": "lose", "lose": "win", "tie": "tie", "draw": "draw"}

#: OpenSpiel game -> random playouts of the cross-check. Boards that are not square
#: catch rows and columns swapped; 6 rows give Breakthrough OpenSpiel's two-row start,
#: 3x3 Clobber a board where the first player has one stone more.
CROSSCHECK = {
    "breakthrough(rows=4,columns=3)": 40,
    "breakthrough(rows=6,columns=2)": 25,
    "clobber(rows=3,columns=3)": 60,
    "clobber(rows=2,columns=4)": 60,
    "tic_tac_toe": 50,
    "mnk(m=4,n=3,k=3)": 40,
}


def db_of(database, game_string: str):
    """The session's database of an OpenSpiel game (built once)."""
    game = match_game(game_string).game
    return database(game.name, **game.options)


def expected_from_children(children: list[tuple[str, int | None]]) -> tuple[str, int | None]:
    """A position's value and remoteness from its moves' (value for the mover,
    remoteness after the move), by docs/RULES.md's rules."""
    for wanted in ("win", "tie"):
        found = [distance for value, distance in children if value == wanted]
        if found:
            return wanted, 1 + min(found)
    if any(value == "draw" for value, _ in children):
        return "draw", None
    return "lose", 1 + max(distance for _, distance in children)


def disagreements(state, db) -> list[str]:
    """What OpenSpiel's state and the database disagree on (nothing, one hopes)."""
    text = position_of(state)
    record = db.lookup(text)
    ours = db.moves(text)
    problems = []
    if state.is_terminal():
        returns = state.returns()
        expected = ("tie", 0) if returns[0] == returns[1] else ("lose", 0)
        if (record.value, record.remoteness) != expected or ours:
            problems.append(f"{text}: OpenSpiel's game is over ({returns}), the database has "
                            f"{record.value} {record.remoteness} and {len(ours)} moves")
        return problems
    mover = state.current_player()
    actions = state.legal_actions()
    positions, children = [], []
    for action in actions:
        child = state.child(action)
        positions.append(position_of(child))
        if child.is_terminal():  # OpenSpiel's verdict on the move
            returns = child.returns()
            children.append(("tie" if returns[mover] == returns[1 - mover]
                             else "win" if returns[mover] > returns[1 - mover] else "lose", 0))
        else:
            there = db.lookup(positions[-1])
            children.append((FLIP[there.value], there.remoteness))
    if len(actions) != len(ours):
        problems.append(f"{text}: OpenSpiel has {len(actions)} moves, tiersolve {len(ours)}")
    if sorted(positions) != sorted(move.position for move in ours):
        problems.append(f"{text}: the moves lead to other positions")
    if expected_from_children(children) != (record.value, record.remoteness):
        problems.append(f"{text}: stored {record.value} {record.remoteness}, OpenSpiel's moves "
                        f"give {expected_from_children(children)}")
    return problems


@pytest.mark.parametrize("game_string", CROSSCHECK)
def test_random_playouts_in_openspiel_agree_with_the_database_at_every_state(game_string, database):
    db = db_of(database, game_string)
    game = load_game(game_string)
    chooser = random.Random(game_string)
    checked, problems = 0, []
    for _ in range(CROSSCHECK[game_string]):
        state = game.new_initial_state()
        while True:
            problems += disagreements(state, db)
            checked += 1
            if state.is_terminal():
                break
            state.apply_action(chooser.choice(state.legal_actions()))
    print(f"{game_string}: {checked} states checked, {len(problems)} disagreements")
    assert checked >= 200, checked
    assert problems == [], f"{checked} states checked:\n" + "\n".join(problems[:20])


def test_the_starts_map_as_the_rules_say():
    """OpenSpiel's Breakthrough: Black at the top moves first (tiersolve's White at the
    bottom), one row each below 6 rows; its Clobber: o on a1 first (tiersolve's b);
    mnk: m columns, n rows, x first."""
    cases = {"breakthrough(rows=5,columns=4)": "(w bbbb ---- ---- ---- wwww)",
             "breakthrough(rows=6,columns=2)": "(w bb bb -- -- ww ww)",
             "clobber(rows=3,columns=3)": "(b bwb wbw bwb)",
             "clobber(rows=2,columns=3)": "(b wbw bwb)",
             "mnk(m=4,n=2,k=2)": "(x ---- ----)"}
    for game_string, expected in cases.items():
        game = load_game(game_string)
        assert position_of(game.new_initial_state()) == expected
        assert match_game(game_string).start == expected
    # one move each: OpenSpiel's Black's a4-a3 is tiersolve's White's a1-a2 (4 rows)
    state = load_game("breakthrough(rows=4,columns=3)").new_initial_state()
    state.apply_action(next(action for action in state.legal_actions()
                            if state.action_to_string(action) == "a4a3"))
    assert position_of(state) == "(b bbb --- w-- -ww)"
    state = load_game("mnk(m=4,n=3,k=3)").new_initial_state()
    state.apply_action(1)  # x(0,1): top row, second column
    assert position_of(state) == "(o -x-- ---- ----)"


def test_game_strings_map_to_databases_and_back():
    match = match_game("breakthrough(rows=5,columns=4)")
    assert (match.game.name, match.game.options["rows"], match.game.options["cols"]) == \
        ("breakthrough", 5, 4)
    assert str(match.path) == "db/breakthrough_5x4.h5"
    assert match.build_command() == "tiersolve build breakthrough --rows 5"
    assert match.build_command(reachable=True) == (
        'tiersolve build breakthrough --rows 5 --reachable --start "(w bbbb ---- ---- ---- wwww)"')
    assert match_game("tic_tac_toe").game.options == {"rows": 3, "cols": 3, "k": 3,
                                                       "diagonal": True, "misere": False}
    # back: a tiersolve game to OpenSpiel's, and the same match
    from tiersolve.games import make_game

    assert match_game(make_game("ttt", rows=3, cols=4, k=3, diagonal=True)).openspiel == \
        "mnk(k=3,m=4,n=3)"
    assert match_game(make_game("clobber", rows=2, cols=5, symmetry=True)).openspiel == \
        "clobber(columns=5,rows=2)"
    assert match.fits(make_game("breakthrough", rows=5, cols=4, symmetry=True))
    assert not match.fits(make_game("breakthrough", rows=4, cols=5))


@pytest.mark.parametrize("game, words", [
    ("go", "OpenSpiel's go has no tiersolve game with the same rules"),
    ("breakthrough", "a 8x8 board has 64 cells; at most 63"),
    ("breakthrough(rows=3,columns=4)", "must be at least 4, got 3"),
    ("breakthrough(rows=4,columns=1)", "needs at least 2 columns"),
    ("mnk", "15x15 board has 225 cells"),
    ("mnk(m=3,n=3,k=4)", "is longer than the 3x3 board"),
    ("clobber(rows=4,colums=4)", "has no parameter 'colums' (its parameters: rows, columns)"),
    ("clobber(rows=four)", "rows must be a whole number, got 'four'"),
    ("mnk(m=3", "is not an OpenSpiel game string"),
])
def test_games_and_parameters_tiersolve_cannot_serve_are_refused_in_one_line(game, words):
    with pytest.raises(UnsupportedGameError) as refused:
        load_game(game)
    assert words in str(refused.value) and "\n" not in str(refused.value)
    assert isinstance(refused.value, GameError)


def test_tiersolve_games_openspiel_lacks_are_refused():
    from tiersolve.games import make_game

    for name, options, words in [("ttt", {"rows": 3, "cols": 3}, "counts diagonal lines"),
                                 ("clobber", {"misere": True}, "has no misère"),
                                 ("northcott", {}, "has no OpenSpiel game")]:
        with pytest.raises(UnsupportedGameError, match=words):
            match_game(make_game(name, **options))


def test_states_come_back_from_positions(database):
    """Clobber from its board, m,n,k and Breakthrough by playing: each position of a
    random playout becomes a state whose picture is OpenSpiel's own."""
    chooser = random.Random(7)
    for game_string in ("clobber(rows=3,columns=3)", "mnk(m=4,n=3,k=3)",
                        "breakthrough(rows=4,columns=3)"):
        game = load_game(game_string)
        for _ in range(8):
            state = game.new_initial_state()
            while True:
                again = state_of(game_string, position_of(state))
                assert str(again) == str(state)
                assert again.current_player() == state.current_player()
                assert sorted(again.legal_actions()) == sorted(state.legal_actions())
                if state.is_terminal():
                    break
                state.apply_action(chooser.choice(state.legal_actions()))
    # positions no one played, drawn from the databases: every one comes back, but
    # finished m,n,k games whose winner's lines share no mark (no single move made them)
    refused = 0
    for game_string in ("clobber(rows=3,columns=3)", "mnk(m=4,n=3,k=3)"):
        db = db_of(database, game_string)
        legal = np.flatnonzero(np.isin(db.value_array(), (1, 2, 3)))[::37]
        for text in db.positions(legal):
            try:
                assert position_of(state_of(game_string, text)) == text
            except NotInOpenSpielError as error:
                assert "could not have made together" in str(error)
                assert game_string.startswith("mnk") and db.lookup(text).remoteness == 0
                refused += 1
    assert refused < 20


def test_positions_openspiel_cannot_set_up_are_refused():
    # two lines of x that share no cell: no single move made them
    with pytest.raises(NotInOpenSpielError, match="lines that one mark could not have made"):
        state_of("mnk(m=4,n=3,k=3)", "(o o-oo xxxo oxxx)")
    # tiersolve's two-row start: OpenSpiel starts 4 rows with one row each
    with pytest.raises(NotInOpenSpielError, match="no line of play from OpenSpiel's start"):
        state_of("breakthrough(rows=4,columns=3)", "(w bbb bbb www www)")
    with pytest.raises(PositionError):
        state_of("tic_tac_toe", "(x xxx oo- ---)")  # illegal: x already won
    with pytest.raises(PositionError):
        state_of("tic_tac_toe", "(x --- ---)")      # another board


def test_breakthrough_lines_through_a_database_of_what_openspiel_reaches(tmp_path, database):
    """A --reachable database from OpenSpiel's start: every position it holds has a
    line of play, found by un-moves; the bounded search finds the same positions, and
    the counting test for many positions at once lets every one of them through."""
    match = match_game("breakthrough(rows=4,columns=3)")
    path = tmp_path / "reachable.h5"
    build_database(match.game, path, reachable=True, start=match.start, progress=False)
    with open_database(path) as reachable:
        indices = reachable.stored_indices()
        assert lines.plausible(reachable.decode(indices), 4, 3).all()
        chosen = random.Random(3).sample(list(indices), 40)
        for text in reachable.positions(chosen):
            state = state_of("breakthrough(rows=4,columns=3)", text, reachable)
            assert position_of(state) == text
            assert position_of(state_of("breakthrough(rows=4,columns=3)", text)) == text
        with pytest.raises(NotInOpenSpielError, match="no line of play"):
            state_of("breakthrough(rows=4,columns=3)", "(w bbb b-- w-- www)", reachable)
    # the full database: the counting test turns away most positions OpenSpiel cannot reach
    full = db_of(database, "breakthrough(rows=4,columns=3)")
    passed = lines.plausible(full.decode(np.flatnonzero(full.value_array())), 4, 3)
    assert len(indices) <= passed.sum() < 0.3 * passed.size


def test_the_tablebase_bot_plays_perfectly(database):
    db = db_of(database, "tic_tac_toe")
    game = load_game("tic_tac_toe")
    for seed in range(3):  # perfect play against itself: a tie in 9
        bots = [TablebaseBot(game, db, seed=seed), TablebaseBot(game, db, seed=seed + 10)]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        assert returns == [0.0, 0.0]
    # Breakthrough 4x3 from OpenSpiel's start: a win in 9 for the first player, whatever
    # the other does
    db = db_of(database, "breakthrough(rows=4,columns=3)")
    game = load_game("breakthrough(rows=4,columns=3)")
    assert db.lookup(match_game(game).start).value == "win"
    distance = db.lookup(match_game(game).start).remoteness
    for seed in range(10):
        state = game.new_initial_state()
        bots = [TablebaseBot(game, db, seed=seed), pyspiel.make_uniform_random_bot(1, seed)]
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        assert state.returns()[0] == 1.0 and len(state.history()) <= distance


def test_the_policy_is_spread_over_the_best_moves(database):
    db = db_of(database, "tic_tac_toe")
    bot = TablebaseBot("tic_tac_toe", db, seed=0)
    state = load_game("tic_tac_toe").new_initial_state()  # every first move ties
    policy, action = bot.step_with_policy(state)
    assert [a for a, _ in policy] == state.legal_actions()
    assert all(p == pytest.approx(1 / 9) for _, p in policy) and action in state.legal_actions()
    state = state_of("tic_tac_toe", "(x xo- -o- --x)")  # x must block b1 (o's column)
    policy, action = bot.step_with_policy(state)
    best = bot.best_actions(state)
    assert sum(p for _, p in policy) == pytest.approx(1.0)
    assert {a for a, p in policy if p > 0} == set(best) and action in best
    chosen = next(value for value in bot.action_values(state) if value.action == action)
    assert chosen.value != "lose"
    with pytest.raises(DatabaseMismatchError, match="not clobber"):
        TablebaseBot("clobber(rows=3,columns=3)", db)


class SlowWinner:
    """Perfect but for one thing: of winning moves, the slowest."""

    def __init__(self, tablebase: TablebaseBot) -> None:
        self.tablebase = tablebase

    def step(self, state):
        choices = self.tablebase.action_values(state)
        wins = [c for c in choices if c.value == "win"]
        return max(wins, key=lambda c: c.remoteness).action if wins else choices[0].action


def test_the_judge_counts_blunders_and_inaccuracies(database):
    db = db_of(database, "mnk(m=4,n=3,k=3)")
    perfect = evaluate(db, lambda game, player, seed: TablebaseBot(game, db, seed=seed),
                       games=16, seed=2)
    assert perfect.moves + perfect.lost_moves > 30
    assert perfect.blunders == perfect.inaccuracies == 0 and perfect.moves > 10
    assert perfect.kept() == (16, 16) and (perfect.from_start, perfect.random_starts) == (8, 8)
    slow = evaluate(db, lambda game, player, seed: SlowWinner(TablebaseBot(game, db)), games=16,
                    seed=2)
    assert slow.blunders == 0 and slow.inaccuracies > 0 and slow.kept() == (16, 16)
    foolish = evaluate(db, "random", games=30, seed=2)
    assert foolish.blunders > 0 and foolish.kept()[0] < 30
    assert foolish.blunders == sum(record.blunders for record in foolish.games)
    assert foolish.moves == sum(row.moves for row in foolish.rows)
    assert all(not record.kept for record in foolish.games if record.blunders)
    # every game from the start begins at OpenSpiel's start; the agent takes each side
    starts = [record for record in foolish.games if record.from_start]
    assert {record.start for record in starts} == {"(x ---- ---- ----)"}
    assert [record.agent_player for record in starts[:4]] == [0, 1, 0, 1]


def test_evaluate_draws_breakthrough_positions_openspiel_can_reach(database):
    """From the full database: positions that pass the counting test, set up by the
    bounded search (the others drawn again)."""
    db = db_of(database, "breakthrough(rows=4,columns=3)")
    report = evaluate(db, "mcts:20", games=8, from_start=0, seed=5)
    assert len({record.start for record in report.games}) > 4
    assert report.moves + report.lost_moves >= 8


def test_the_command_reports_a_table_json_and_a_plot(database, capsys, tmp_path):
    db = db_of(database, "tic_tac_toe")
    code, out, err = command(["evaluate", str(db.path), "--agent", "random", "--agent", "mcts:20",
                              "--games", "12", "--plot", str(tmp_path / "b.png")], capsys)
    assert code == 0, err
    assert "agent random on mnk(k=3,m=3,n=3)" in out and "blunders" in out
    assert "remoteness  moves  blunders" in out and "value kept" in out
    assert (tmp_path / "b.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, out, err = command(["evaluate", str(db.path), "--agent", "mcts:20", "--games", "6",
                              "--json", "--game", "tic_tac_toe"], capsys)
    assert code == 0 and err.startswith("mcts:20: 6 games, ") and err.count("\n") == 1
    # progress stays on stderr with --json (a line off a terminal); --quiet silences it
    code, quiet_out, quiet_err = command(["evaluate", str(db.path), "--agent", "mcts:20",
                                          "--games", "6", "--json", "--quiet"], capsys)
    assert code == 0 and quiet_err == "" and json.loads(quiet_out)["evaluations"]
    (found,) = json.loads(out)["evaluations"]
    assert found["games"] == 6 and found["from_start"] == 3 and len(found["results"]) == 6
    assert found["moves"] == sum(row["moves"] for row in found["by_remoteness"])


def test_a_users_own_bot_by_module_and_callable(database, capsys, tmp_path, monkeypatch):
    """``--agent module:callable``: the module found from the current folder, the
    callable called with (game, player, seed) for each game."""
    (tmp_path / "my_agents_for_tiersolve.py").write_text(
        "import pyspiel\n"
        "made = []\n"
        "def first_legal(game, player, seed):\n"
        "    made.append((player, seed))\n"
        "    return pyspiel.make_uniform_random_bot(player, seed)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    db = db_of(database, "tic_tac_toe")
    code, out, err = command(["evaluate", str(db.path), "--agent",
                              "my_agents_for_tiersolve:first_legal", "--games", "6", "--json"],
                             capsys)
    assert code == 0, err
    assert json.loads(out)["evaluations"][0]["agent"] == "my_agents_for_tiersolve:first_legal"
    made = sys.modules.pop("my_agents_for_tiersolve").made
    assert len(made) == 6 and [player for player, _ in made[:3]] == [0, 1, 0]  # from the start
    assert len({seed for _, seed in made}) == 6


def test_one_run_says_one_time_on_stdout_and_stderr(database, capsys, monkeypatch):
    """The report and the progress line count the same clock, from the positions
    sampled to the last game: sampling Breakthrough's positions took 4 of a run's 5 s,
    which the progress line left out."""
    evaluating = importlib.import_module("tiersolve.openspiel.evaluate")

    def slow_to_sample(*args, **kwargs):
        import time

        time.sleep(0.3)
        return sample(*args, **kwargs)

    sample = evaluating._random_starts
    monkeypatch.setattr(evaluating, "_random_starts", slow_to_sample)
    db = db_of(database, "tic_tac_toe")
    code, out, err = command(["evaluate", str(db.path), "--agent", "random", "--games", "4"],
                             capsys)
    assert code == 0, err
    reported = float(re.search(r"seed 0, (\d+\.\d) s$", out.splitlines()[0])[1])
    assert err.splitlines()[-1] == f"random: 4 games, {reported:.1f} s" and reported >= 0.3


def test_the_positions_openspiel_cannot_set_up_are_said_to_be_sampled_again():
    """'Drawn' is a value here; the positions are sampled."""
    report = Evaluation("random", "breakthrough(columns=3,rows=4)", "x.h5", 0, [],
                        [RemotenessRow(1, 2, 1, 2, 0)], 0, 2, skipped_starts=22)
    text = report.text()
    assert "(22 positions sampled could not be set up in OpenSpiel, and others were sampled " \
           "instead)" in text and "drawn again" not in text


def test_the_plot_draws_what_was_measured_and_shows_where_it_is_thin():
    """A point for each remoteness with moves, none joined to the next by a line (which
    would run through remoteness 3 and 5, where nothing was measured); a point of
    fewer than 10 moves is drawn hollow, not left out, and each point's moves show
    below, on a log scale."""
    pytest.importorskip("matplotlib")
    from matplotlib.colors import to_hex

    from tiersolve.openspiel import blunder_rate_figure

    rows = [RemotenessRow(1, 40, 0, 40, 0), RemotenessRow(2, 30, 6, 0, 0),
            RemotenessRow(6, 50, 25, 50, 1), RemotenessRow(7, 3, 1, 3, 0),
            RemotenessRow(None, 20, 2, 0, 0)]
    report = Evaluation("mcts:5", "breakthrough(columns=4,rows=5)", "x.h5", 0, [], rows, 1, 1)
    rates, counts = blunder_rate_figure([report]).axes
    assert all(line.get_linestyle() == "None" for line in rates.lines)  # no lines
    drawn = [line for line in rates.lines if line.get_marker() == "o"]  # (not the caps)
    points = {(float(x), round(float(y), 6), to_hex(line.get_markerfacecolor()))
              for line in drawn for x, y in zip(line.get_xdata(), line.get_ydata())}
    assert points == {(1.0, 0.0, "#1f77b4"), (2.0, 20.0, "#1f77b4"), (6.0, 50.0, "#1f77b4"),
                      (7.0, round(100 / 3, 6), "#ffffff")}  # the thin one hollow
    assert counts.get_yscale() == "log"
    heights = sorted(float(y) for line in counts.lines for y in line.get_ydata())
    assert [3.0, 30.0, 40.0, 50.0] == [h for h in heights if h != 10]  # 10: the thin line


def test_the_plot_draws_rates_of_zero_and_one(tmp_path):
    """Rates at either end of their interval (a rate of 0 is its own lower bound)."""
    pytest.importorskip("matplotlib")
    from tiersolve.openspiel import plot_blunder_rates
    from tiersolve.openspiel.evaluate import wilson

    # 11 moves: the interval's lower end of a rate of 0 comes out a hair above 0
    rows = [RemotenessRow(1, 11, 0, 11, 0), RemotenessRow(3, 30, 30, 30, 0),
            RemotenessRow(5, 50, 7, 50, 1), RemotenessRow(7, 3, 1, 3, 0)]
    report = Evaluation("mcts:5", "breakthrough(columns=4,rows=5)", "x.h5", 0, [], rows, 1, 1)
    path = plot_blunder_rates([report], tmp_path / "plots" / "rates.png")
    assert path.read_bytes()[:4] == b"\x89PNG"
    low, high = wilson(0, 400)
    assert low == 0.0 and 0 < high < 0.01
    assert wilson(30, 30)[1] == 1.0 and report.blunder_rate == 38 / 94


def test_bad_input_is_one_line_and_exit_code_2(database, capsys, tmp_path):
    db = db_of(database, "tic_tac_toe")
    file = str(db.path)
    prog = "tiersolve evaluate"
    cases = [
        (["--agent", "alphazero"], "unknown agent 'alphazero': use random, mcts:SIMULATIONS or "
                                   "module:callable"),
        (["--agent", "mcts:0"], "SIMULATIONS must be a whole number of at least 1"),
        (["--agent", "no_such_module_here:make"], "cannot import no_such_module_here"),
        (["--agent", "random", "--game", "breakthrough(rows=4,columns=3)"], "not breakthrough"),
        (["--agent", "random", "--game", "mnk(m=4,n=3,k=3)"], "holds ttt 3x3 (diagonal), not mnk"),
        (["--agent", "random", "--game", "go"], "OpenSpiel's go has no tiersolve game"),
        (["--agent", "random", "--games", "4", "--from-start", "5"], "more than --games"),
    ]
    for extra, words in cases:
        code, _, err = command(["evaluate", file, *extra], capsys)
        assert words in one_line_error(code, err, prog), err
    # a database OpenSpiel has no game for: Tic-Tac-Toe without diagonal lines
    plain = database("ttt", rows=3, cols=3)
    capsys.readouterr()  # what its build said
    code, _, err = command(["evaluate", str(plain.path), "--agent", "random"], capsys)
    assert "ttt 3x3 has no OpenSpiel game with the same rules: OpenSpiel's mnk counts diagonal" \
        in one_line_error(code, err, prog)
    # a --reachable file without OpenSpiel's start, where games from the start begin
    path = tmp_path / "later.h5"
    build_database(match_game("tic_tac_toe").game, path, reachable=True, start="(o x-- --- ---)",
                   progress=False)
    capsys.readouterr()
    code, _, err = command(["evaluate", str(path), "--agent", "random", "--games", "4"], capsys)
    line = one_line_error(code, err, prog)
    assert "does not hold OpenSpiel's start (x --- --- ---)" in line
    # from its own positions the same file serves: play from them stays inside it
    code, out, err = command(["evaluate", str(path), "--agent", "random", "--games", "4",
                              "--from-start", "0"], capsys)
    assert code == 0 and "4 games (0 from the start, 4 from random positions)" in out


def test_the_openspiel_pages_examples_run_as_printed(tmp_path, monkeypatch, capsys):
    """docs/OPENSPIEL.md: its Python examples (a doctest, which builds the database)
    and then its console example, whose output must be what the page shows."""
    import doctest
    import shlex

    from test_readme_commands import matches

    from conftest import console_examples

    page = Path(__file__).resolve().parent.parent / "docs" / "OPENSPIEL.md"
    monkeypatch.chdir(tmp_path)
    result = doctest.testfile(str(page), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 10 and result.failed == 0
    capsys.readouterr()
    examples = console_examples(page)
    assert examples
    for line, expected in examples:
        code, out, err = command(shlex.split(line)[1:], capsys)
        assert code == 0, err
        assert matches(expected, out), f"$ {line}\n" + out


def test_without_openspiel_the_rest_works_and_the_extra_is_named(tmp_path):
    """pyspiel hidden: tiersolve.openspiel says in one line how to install the extra;
    tiersolve evaluate says the same in its one-line error, its --help still works,
    and the rest of the package never needed it."""
    code = """if True:
        import sys
        sys.modules["pyspiel"] = None  # as if open_spiel were not installed
        import tiersolve.cli, tiersolve.databases.reader, tiersolve.cli.evaluate
        try:
            import tiersolve.openspiel
        except ImportError as error:
            print(error)
        from tiersolve.cli import main
        print("exit", main(["evaluate", "x.h5", "--agent", "random"]))
        print("loaded", sorted(name for name in sys.modules if name.startswith("open_spiel")))
        try:
            main(["evaluate", "--help"])
        except SystemExit as stop:
            print("help", stop.code)
    """
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    needs = ("tiersolve.openspiel needs OpenSpiel: pip install 'tiersolve[openspiel]' "
             "(in a checkout: pip install -e '.[openspiel]')")
    lines_out = done.stdout.splitlines()
    assert lines_out[0] == needs and "exit 2" in lines_out and "loaded []" in lines_out
    assert "help 0" in lines_out
    assert done.stderr.strip() == f"tiersolve evaluate: error: {needs}"
