"""A newcomer's second pass (issue 20): its twenty rough edges and the README's claims
that were false, one test each; every one failed before its fix. The README's
commands and every --help example are run by tests/test_readme_commands.py, which
also checks that the first lookup after a build says it compiles (as does
test_rough_edges.py's test 11)."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import h5py
import numpy as np
import pytest

from tiersolve.cli import main
from tiersolve.databases import (
    DamagedDatabaseError,
    DatabaseMismatchError,
    GameError,
    ImpossiblePositionError,
    IndexRangeError,
    MissingDatabaseError,
    TiersolveError,
    UnreachedPositionError,
    build_database,
    open_database,
)
from tiersolve.databases.format import PartialBuild
from tiersolve.databases.lifecycle import BuildRefused, check_output
from tiersolve.games import GAMES, game_class, make_game
from tiersolve.solver import tiers

ROOT = Path(__file__).resolve().parent.parent


def command(argv: list[str], capsys) -> tuple[int, str, str]:
    """``tiersolve ARGV`` in this process: (exit code, stdout, stderr)."""
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def tiersolve(*args: str, cwd: Path, env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tiersolve", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600, env={**os.environ, **(env or {})}, **kwargs)


def one_line_error(code: int, err: str, prog: str) -> str:
    """The error line of a user's mistake: exit code 2, one line, no traceback."""
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, (code, err)
    assert lines[0].startswith(f"{prog}: error: "), lines[0]
    return lines[0]


@pytest.fixture
def ttt_folder(tmp_path, monkeypatch):
    """A folder with db/ttt_3x4.h5 (the default options) as its current directory."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TIERSOLVE_DB_DIR", raising=False)
    build_database(make_game("ttt"), tmp_path / "db" / "ttt_3x4.h5", progress=False)
    return tmp_path


# 1 ---------------------------------------------------------------------------------
def test_a_file_that_is_not_there_is_one_line(ttt_folder, capsys):
    _, _, err = command(["info", "foo"], capsys)
    assert "no such database file: foo" in one_line_error(2, err, "tiersolve info")
    code, _, err = command(["info", "ttt_3x4"], capsys)
    assert "(did you mean db/ttt_3x4.h5?)" in one_line_error(code, err, "tiersolve info")
    code, _, err = command(["query", "chess", "(x ---- ---- ----)"], capsys)
    assert "no game is called 'chess'" in one_line_error(code, err, "tiersolve query")
    code, _, err = command(["query", "(x ---- x--- --o-)", "db/ttt_3x4.h5"], capsys)
    assert "the file comes first" in one_line_error(code, err, "tiersolve query")


def test_a_game_name_opens_its_default_file_unless_a_file_has_that_name(ttt_folder, capsys):
    code, out, _ = command(["query", "ttt", "(x ---- x--- --o-)"], capsys)  # db/ttt_3x4.h5
    assert code == 0 and out.startswith("(x ---- x--- --o-)  tie in 10")
    build_database(make_game("1210"), ttt_folder / "ttt", progress=False)  # a file named ttt
    code, out, _ = command(["info", "ttt"], capsys)
    assert code == 0 and out.startswith("game            1210")
    assert "game's name" in command(["query", "--help"], capsys)[1]


# 2 ---------------------------------------------------------------------------------
@pytest.mark.skipif(not Path("/proc/self").exists() or not Path("/sys/kernel").exists(),
                    reason="needs Linux's /proc and /sys")
@pytest.mark.parametrize("out", ["/sys/x.h5", "/proc/foo.h5"])
def test_places_no_one_may_write_are_refused_in_one_line(out, capsys):
    code, _, err = command(["build", "1210", "--out", out], capsys)
    assert "cannot write to" in one_line_error(code, err, "tiersolve build")


# 3 ---------------------------------------------------------------------------------
def test_only_a_regular_file_is_written_and_one_missing_folder_made(tmp_path, capsys):
    with pytest.raises(BuildRefused, match="is not a regular file"):
        check_output(Path("/dev/null"))  # as root, --overwrite would have replaced it
    fifo = tmp_path / "pipe.h5"
    os.mkfifo(fifo)
    code, _, err = command(["build", "1210", "--overwrite", "--out", str(fifo)], capsys)
    assert "is not a regular file" in one_line_error(code, err, "tiersolve build")
    assert fifo.is_fifo()
    deep = tmp_path / "a" / "b" / "x.h5"
    code, _, err = command(["build", "1210", "--out", str(deep)], capsys)
    assert "mkdir -p" in one_line_error(code, err, "tiersolve build")
    assert not (tmp_path / "a").exists()
    code, _, _ = command(["build", "1210", "--quiet", "--out", str(tmp_path / "a" / "x.h5")], capsys)
    assert code == 0 and (tmp_path / "a" / "x.h5").is_file()


# 4 ---------------------------------------------------------------------------------
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
    assert code == 0 and "repeated an earlier board" in text.splitlines()[-1]


def test_the_computer_never_repeats_a_board_while_it_has_another_move(database):
    from tiersolve.cli.play import play_main

    db = database("pousse", size=3)
    out = io.StringIO()
    play_main(["pousse", "--size", "3", "--db", str(db.path), "--seed", "2"],
              stdin=io.StringIO("L 2\nL 2\nL 2\nhint\nL 2\n"), stdout=out)
    text = out.getvalue()
    assert "(computer) plays" in text
    assert not re.search(r"\(computer\) plays .*repeats a board", text)


# 5 ---------------------------------------------------------------------------------
def readme_recipe() -> str:
    text = (ROOT / "README.md").read_text()
    blocks = [block for block in re.findall(r"```python\n(.*?)```", text, flags=re.S)
              if "slow_wins" in block]
    assert len(blocks) == 1, "the README's numpy recipe"
    return blocks[0]


@pytest.mark.parametrize("reachable", [False, True])
def test_the_readme_numpy_recipe_gives_positions_in_the_file(tmp_path, reachable):
    game = make_game("northcott", rows=3, cols=6)
    path = tmp_path / "n.h5"
    build_database(game, path, progress=False, reachable=reachable,
                   start="(L 0L4R0 0L4R0 0L4R0)" if reachable else None)  # a win in 9
    with open_database(path) as db:
        names = {"db": db}
        exec(readme_recipe(), names)  # noqa: S102 (the README's own code)
        slow_wins = names["slow_wins"]
        assert slow_wins.size > 0
        values, remoteness = db.lookup_indices(slow_wins)  # every one is in the file
        assert set(values.tolist()) == {1} and remoteness.min() >= 7
        for text in db.positions(slow_wins[:20]):
            record = db.lookup(text)
            assert record.value == "win" and record.remoteness >= 7
        assert len(db.stored_indices()) == len(db.value_array()) == len(db.remoteness_array())
        if reachable:  # a number that is not one of its indices is refused, never decoded
            missing = np.setdiff1d(np.arange(db.size), db.stored_indices())[0]
            with pytest.raises(UnreachedPositionError, match="stored_indices"):
                db.positions([missing])
            lo, hi = int(db.stored_indices()[3]), int(db.stored_indices()[10]) + 1
            assert db.stored_indices(lo, hi).tolist() == db.stored_indices()[3:11].tolist()
            assert np.array_equal(db.value_array(lo, hi), db.value_array()[3:11])


# 6 ---------------------------------------------------------------------------------
def test_one_name_everywhere(tmp_path, capsys):
    pages = [["--help"], ["build", "--help"], ["query", "--help"], ["info", "--help"],
             ["play", "--help"], ["bench", "--help"]]
    pages += [["build", name, "--help"] for name in GAMES]
    for page in pages:
        code, out, _ = command(page, capsys)
        assert code == 0 and "gamesolver" not in out.lower(), page
    assert "$TIERSOLVE_DB_DIR" in command(["build", "ttt", "--help"], capsys)[1]
    foreign = tmp_path / "foreign.h5"
    with h5py.File(foreign, "w") as file:
        file["x"] = [1, 2]
    with pytest.raises(DamagedDatabaseError, match="is not a tiersolve database file"):
        open_database(foreign)
    older = tmp_path / "older.h5"  # written before the format took the project's name
    with h5py.File(older, "w") as file:  # (format version 2: refused since issue 19)
        file.attrs["format"] = "gamesolver-database"
        file.attrs["format_version"] = 2
    with pytest.raises(DatabaseMismatchError, match="format version 2; .*rebuild the database"):
        open_database(older)


# 8 ---------------------------------------------------------------------------------
def test_help_pages_keep_examples_and_games_on_their_own_lines(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    play = command(["play", "--help"], capsys)[1]
    assert re.search(r"^  tiersolve play ttt --rows 3 --cols 3 --build$", play, re.M)
    bench = command(["bench", "--help"], capsys)[1]
    assert "``" not in bench and re.search(r'^  tiersolve bench "ttt --rows 3 --cols 3"$',
                                           bench, re.M)
    build = command(["build", "--help"], capsys)[1]
    for name in GAMES:  # each game on one line: its name, its title, its options
        assert re.search(rf"^  {name} +{re.escape(game_class(name).title)}: --", build, re.M), name


# 9 ---------------------------------------------------------------------------------
def test_boards_show_marks_by_their_letter_and_the_whole_caption():
    from tiersolve.games.board import board_svg

    game = make_game("ttt")
    caption = "lose in 4 for the player to move"
    root = ElementTree.fromstring(board_svg(game, "(x ---- x--- --o-)", caption))
    width = float(root.get("width"))
    assert width >= 7 * len(caption)  # 14 px sans-serif: about 7 px a character at least
    texts = [element.text for element in root.iter() if element.tag.endswith("text")]
    assert sorted(t for t in texts if t in ("x", "o")) == ["o", "x"] and caption in texts


# 10 --------------------------------------------------------------------------------
def test_an_empty_no_color_leaves_colour_on(monkeypatch):
    from tiersolve.cli.play import use_colour

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("NO_COLOR", "")
    assert use_colour(Terminal())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(Terminal())


# 11 --------------------------------------------------------------------------------
def test_progress_off_a_terminal_is_a_line_per_phase(tmp_path):
    done = tiersolve("build", "ttt", "--rows", "3", "--cols", "3", "--out", "t.h5", cwd=tmp_path)
    assert done.returncode == 0 and "\r" not in done.stderr
    assert re.search(r"^solving ttt: 6,046 positions, \d+\.\d s$", done.stderr, re.M)
    assert re.search(r"^writing t\.h5: 6,046 positions, \d+\.\d s$", done.stderr, re.M)


# 12 --------------------------------------------------------------------------------
def test_a_build_with_nothing_to_do_names_an_interrupted_rebuild(tmp_path, capsys):
    out = tmp_path / "1210.h5"
    argv = ["build", "1210", "--quiet", "--out", str(out)]
    assert command(argv, capsys)[0] == 0
    game = make_game("1210")
    kept = PartialBuild(out, game, tiers.records_type(game))  # as a stopped --overwrite leaves
    code, stdout, _ = command(argv, capsys)
    assert code == 0 and "nothing to do" in stdout
    assert f"{kept.directory} (" in stdout and "--overwrite resumes" in stdout


# 13 --------------------------------------------------------------------------------
def test_a_refused_rebuild_says_what_differs(tmp_path, capsys):
    out = str(tmp_path / "t.h5")
    assert command(["build", "ttt", "--rows", "3", "--cols", "3", "--quiet", "--out", out],
                   capsys)[0] == 0
    code, _, err = command(["build", "ttt", "--rows", "3", "--cols", "3", "--quiet", "--out", out,
                            "--start", "(o x-- --- ---)"], capsys)
    assert "with the start (x --- --- ---), not (o x-- --- ---)" in one_line_error(
        code, err, "tiersolve build")
    code, _, err = command(["build", "ttt", "--rows", "3", "--cols", "3", "--quiet", "--out", out,
                            "--reachable"], capsys)
    assert "every position, not only those reachable from" in one_line_error(
        code, err, "tiersolve build")


# 14 --------------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["play", "ttt", "--max-moves", "-1"],
    ["query", "x.h5", "(x --- --- ---)", "--history", "--time-limit", "-1"],
    ["query", "x.h5", "(x --- --- ---)", "--history", "--time-limit", "0"],
    ["query", "x.h5", "(x --- --- ---)", "--history", "--time-limit", "nan"],
    ["query", "x.h5", "(x --- --- ---)", "--history", "--node-limit", "0"],
    ["bench", "--threads", "0", "ttt"],
])
def test_counts_and_limits_below_their_least_are_refused(argv, capsys):
    code, _, err = command(argv, capsys)
    assert "must be" in one_line_error(code, err, f"tiersolve {argv[0]}" +
                                       (" ttt" if argv[0] == "play" else ""))


# 15 --------------------------------------------------------------------------------
@pytest.mark.parametrize("case, message", [
    ("chess", "'chess' is not a game"),
    ("ttt --rows 0", "--rows must be at least 1, got 0"),
    ("ttt --bogus", "unrecognized arguments: --bogus"),
])
def test_a_bad_bench_case_is_a_one_line_error_before_anything_runs(case, message, capsys):
    code, out, err = command(["bench", "ttt --rows 3 --cols 3", case], capsys)
    assert message in one_line_error(code, err, "tiersolve bench") and out == ""


# 16 --------------------------------------------------------------------------------
def test_play_with_a_file_of_another_game_says_what_to_do(database, capsys):
    path = str(database("northcott", rows=3, cols=6).path)
    code, _, err = command(["play", "ttt", "--db", path], capsys)
    line = one_line_error(code, err, "tiersolve play")
    assert "holds northcott 3x6, not ttt 3x4" in line and "pass its path" not in line
    assert f"'tiersolve play northcott --db {path}'" in line


# 17 --------------------------------------------------------------------------------
def test_the_history_report_reads_as_english(database):
    from tiersolve.databases.history import analyse

    db = database("pousse", size=3)
    first = analyse(db, "(x --- --- ---)", ["L 2"]).text().splitlines()[0]
    assert "after 1 move of history" in first
    assert "((" not in first and "))" not in first and first.count("(") == first.count(")")
    assert "after 2 moves of history" in analyse(db, "(x --- --- ---)", ["L 2", "R 2"]).text()


# 18 --------------------------------------------------------------------------------
def test_a_local_cluster_keeps_dask_quiet_as_it_shuts_down(monkeypatch):
    distributed = pytest.importorskip("distributed")
    from tiersolve.databases import cluster

    made = {}

    class Recorded(Exception):
        pass

    def local_cluster(**options):
        made.update(options)
        raise Recorded

    monkeypatch.setattr(distributed, "LocalCluster", local_cluster)
    with pytest.raises(Recorded):
        with cluster.connect(workers=2):
            pass
    # a worker's heartbeat meeting the closed scheduler logs at ERROR, with a traceback
    assert made["silence_logs"] >= logging.CRITICAL


# 19 --------------------------------------------------------------------------------
def test_library_mistakes_are_tiersolve_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(MissingDatabaseError, match="no game is called 'chess'"):
        open_database("chess")
    with pytest.raises(GameError, match="has no option --rowz"):
        open_database("ttt", rowz=3)
    with pytest.raises(GameError, match="unknown game"):
        build_database("chess", progress=False)
    build_database(make_game("ttt"), tmp_path / "t.h5", progress=False)
    with open_database(tmp_path / "t.h5") as db:
        with pytest.raises(IndexRangeError, match="outside this database") as outside:
            db.lookup_indices([10**9])
        assert isinstance(outside.value, IndexError) and isinstance(outside.value, TiersolveError)
        with pytest.raises(ImpossiblePositionError, match="12 x and 0 o"):
            db.lookup("(x xxxx xxxx xxxx)")


# 20 --------------------------------------------------------------------------------
def test_a_reachable_build_reports_its_solver_threads_and_compile_time(tmp_path):
    cache = tmp_path / "cache"  # an empty kernel cache: this build compiles
    done = tiersolve("build", "1210", "--reachable", "--json", "--threads", "2", "--out", "r.h5",
                     cwd=tmp_path, env={"TIERSOLVE_CACHE_DIR": str(cache)})
    report = json.loads(done.stdout)
    assert report["solver"] == "reachable bottom-up (tier by tier)" and report["threads"] == 2
    assert report["compile_seconds"] > 0.5 > report["solve_seconds"]
    info = tiersolve("info", "r.h5", cwd=tmp_path, env={"TIERSOLVE_CACHE_DIR": str(cache)})
    assert "reachable bottom-up (tier by tier) solver, 2 threads" in info.stdout
    loopy = build_database("knightsdance", tmp_path / "k.h5", rows=3, cols=3, progress=False,
                           reachable=True)
    assert loopy.solver == "reachable retrograde (move graph)" and loopy.threads == 1


# README claims ---------------------------------------------------------------------
def test_play_with_piped_moves_and_no_database_prints_the_command_that_builds_it(tmp_path):
    done = tiersolve("play", "domineering", "--rows", "3", "--cols", "4", cwd=tmp_path,
                     input="a1-a2\nhint\n")
    assert done.returncode == 2 and "..." not in done.stderr and "[y/N]" not in done.stdout
    assert "build it with: tiersolve build domineering --rows 3 --cols 4 " in done.stderr
    assert not (tmp_path / "db").exists()


USER_MISTAKES = [
    ["build", "chess"], ["build", "ttt", "--rows", "0"], ["build", "ttt", "--rows", "30"],
    ["build", "ttt", "--start", "(x ---"], ["info", "foo"], ["info", "ttt_3x4"],
    ["query", "chess", "(x --- --- ---)"], ["query", "DB", "(x ---"],
    ["query", "DB", "(x xxx xxx xxx)"], ["query", "DB", "(L 0)"],
    ["play", "chess"], ["play", "ttt", "--rows", "0"],
    ["play", "ttt", "--rows", "3", "--cols", "3", "--db", "DB", "--start", "(x ---"],
    ["bench", "chess"], ["bench", "ttt --rows 0"], ["frobnicate"],
]


@pytest.mark.parametrize("argv", USER_MISTAKES, ids=" ".join)
def test_unknown_games_bad_sizes_and_malformed_positions_are_one_line(argv, database, capsys,
                                                                      monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    path = str(database("ttt", rows=3, cols=3).path)
    code, _, err = command([path if word == "DB" else word for word in argv], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err


# the exit code of a command whose reader went away (docs/DECISIONS.md) ----------------
@pytest.mark.parametrize("argv", [["query", "DB", "(L 0)"],
                                  ["build", "1210", "--quiet", "--out", "b.h5"]])
def test_a_command_whose_reader_went_away_ends_quietly_with_exit_code_0(argv, tmp_path):
    build_database(make_game("1210"), tmp_path / "q.h5", progress=False)
    argv = [str(tmp_path / "q.h5") if word == "DB" else word for word in argv]
    process = subprocess.Popen([sys.executable, "-m", "tiersolve", *argv], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # gone before the command writes its first line
    _, err = process.communicate(timeout=600)
    assert process.returncode == 0 and err == b""
    if argv[0] == "build":  # a build is not cut short: its database is written
        with open_database(tmp_path / "b.h5") as db:
            assert db.lookup("(L 0)").value == "win"
