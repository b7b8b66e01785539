"""The command lines: the scripts build and query; a user's mistakes (unknown games
and files, bad sizes, malformed positions, counts and limits below their least, bad
bench cases) are one line with exit code 2; --plan, with and without --json; help
pages keep examples and games on their own lines and use one name for the project;
a command whose reader went away ends quietly."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import h5py
import pytest

from tiersolve.cli.build import build_main
from tiersolve.cli.query import query_main
from tiersolve.databases import (
    DamagedDatabaseError, DatabaseMismatchError, build_database, open_database,
)
from tiersolve.games import GAMES, game_class, make_game

from conftest import command, one_line_error, tiersolve

ROOT = Path(__file__).resolve().parent.parent


def run_script(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / args[0]), *args[1:]],
                          cwd=cwd, capture_output=True, text=True, timeout=600)


def test_build_then_query_from_the_command_line(tmp_path):
    built = run_script("build_db.py", "northcott", "--rows", "3", "--cols", "6", "--quiet",
                       cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "db" / "northcott_3x6.h5").exists()
    summary = built.stdout.strip().splitlines()
    assert "6,750 positions" in summary[0] and "about" in summary[0]  # the plan line
    assert "lose in 6" in summary[-1] and "win 5,312" in summary[-1]
    queried = run_script("query.py", "db/northcott_3x6.h5", "(L 1L3R0 0L1R3 1L2R1)", "--json",
                         cwd=tmp_path)
    assert queried.returncode == 0, queried.stderr
    answer = json.loads(queried.stdout)
    assert (answer["value"], answer["remoteness"]) == ("lose", 6)
    assert len(answer["moves"]) == 6
    assert all(m["value"] == "lose" for m in answer["moves"])  # for L, who makes them
    text = run_script("query.py", "db/northcott_3x6.h5", "(R 4L0R0 0L1R3 1L2R1)", cwd=tmp_path)
    assert text.returncode == 0
    assert text.stdout.splitlines()[0].startswith("(R 4L0R0 0L1R3 1L2R1)  win in 3")


def test_options_and_default_file_name(tmp_path, capsys):
    out = tmp_path / "custom.h5"
    assert build_main(["ttt", "--rows", "2", "--cols", "3", "--k", "2", "--diagonal", "--misere",
                       "--quiet", "--out", str(out)]) == 0
    assert out.exists()
    capsys.readouterr()
    assert build_main(["1210", "--target", "7", "--max-step", "3", "--quiet", "--json",
                       "--out", str(tmp_path / "o.h5")]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["options"] == {"target": 7, "max_step": 3, "misere": False}
    assert (report["start_value"], report["start_remoteness"]) == ("win", 3)


def test_plan_only(tmp_path, capsys):
    assert build_main(["ttt", "--rows", "4", "--cols", "4", "--plan",
                       "--out", str(tmp_path / "x.h5")]) == 0
    assert "10,165,779 positions in 17 tiers" in capsys.readouterr().out
    assert not (tmp_path / "x.h5").exists()


def exit_code(main, argv) -> int:
    """What a command line returns, whether it returns or argparse exits."""
    try:
        return main(argv)
    except SystemExit as stop:
        return stop.code


@pytest.mark.parametrize("argv, message", [
    (["chess"], "invalid choice: 'chess'"),
    (["ttt", "--rows", "0"], "--rows must be at least 1"),
    (["ttt", "--rows", "three"], "invalid int value: 'three'"),
    (["ttt", "--k", "9"], "no line could ever be made"),
    (["northcott", "--diagonal"], "unrecognized arguments: --diagonal"),
    (["northcott", "--threads", "0"], "argument --threads: must be at least 1, got 0"),
    (["northcott", "--start", "(L 1L3R0)"], "has 1 row,"),
    ([], "the following arguments are required: GAME"),
])
def test_build_errors_are_one_line_with_exit_code_2(argv, message, capsys, tmp_path):
    extra = ["--quiet", "--out", str(tmp_path / "x.h5")] if argv and argv[0] != "chess" else []
    assert exit_code(build_main, argv + extra) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err and "Traceback" not in err
    assert not (tmp_path / "x.h5").exists()


def test_build_refuses_huge_spaces_without_force(capsys, tmp_path):
    assert exit_code(build_main, ["northcott", "--rows", "6", "--cols", "12", "--backward",
                                  "--out", str(tmp_path / "x.h5")]) == 2
    assert "use --force" in capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    (["missing.h5", "(L 0)"], "no such database file"),
    (["DB", "(L 1)"], "has 1 row,"),  # a 1210 position given to a Northcott database
    (["DB", "(L 1L3R0 0L1R3 1L2R1"], "missing parentheses"),
])
def test_query_errors_are_one_line_with_exit_code_2(database, args, message, capsys):
    path = str(database("northcott").path)
    capsys.readouterr()  # the build's own lines (its compile, on a cold kernel cache)
    assert exit_code(query_main, [path if a == "DB" else a for a in args]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


def test_help_documents_every_option(capsys):
    assert exit_code(build_main, ["--help"]) == 0
    top = capsys.readouterr().out
    for flag in ("--target", "--max-step", "--rows", "--cols", "--k", "--diagonal", "--misere",
                 "--backward"):
        assert flag in top
    assert exit_code(build_main, ["ttt", "--help"]) == 0
    ttt = capsys.readouterr().out
    for flag in ("--rows", "--cols", "--k", "--diagonal", "--misere", "--out", "--start",
                 "--threads", "--force", "--plan", "--quiet", "--json"):
        assert flag in ttt


def test_profile_loopy_times_the_unmoves_and_refuses_a_game_without_loopy_tiers(tmp_path):
    """scripts/profile_loopy.py --unmoves times a game's un-move generator over its
    largest loopy tier; a game without one is a one-line error, exit 2."""
    timed = run_script("profile_loopy.py", "northcott", "--backward", "--unmoves", cwd=tmp_path)
    assert timed.returncode == 0, timed.stderr
    line = timed.stdout.strip()
    assert line.startswith("northcott 3x6 (backward): tier 0 (6,750 positions), un-moves on 1 thread")
    assert float(line.split(": ")[2].split(" parents")[0]) > 1  # every position has parents
    refused = run_script("profile_loopy.py", "ttt", cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines()[-1] == \
        "profile_loopy.py: error: ttt 3x4 has no loopy tier to profile"


@pytest.fixture
def ttt_folder(tmp_path, monkeypatch):
    """A folder with db/ttt_3x4.h5 (the default options) as its current directory."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TIERSOLVE_DB_DIR", raising=False)
    build_database(make_game("ttt"), tmp_path / "db" / "ttt_3x4.h5", progress=False)
    return tmp_path


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
    capsys.readouterr()  # the build's own lines (its compile, on a cold kernel cache)
    code, _, err = command([path if word == "DB" else word for word in argv], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err


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


@pytest.mark.parametrize("case, message", [
    ("chess", "'chess' is not a game"),
    ("ttt --rows 0", "--rows must be at least 1, got 0"),
    ("ttt --bogus", "unrecognized arguments: --bogus"),
    ("ttt --rows 3 --out x.h5", "bench cannot honour --out"),
    ("ttt --rows 3 --quiet", "bench cannot honour --quiet"),
    ("ttt --threads=1", "bench cannot honour --threads (give bench --threads)"),
])
def test_a_bad_bench_case_is_a_one_line_error_before_anything_runs(case, message, capsys):
    code, out, err = command(["bench", "ttt --rows 3 --cols 3", case], capsys)
    assert message in one_line_error(code, err, "tiersolve bench") and out == ""


@pytest.mark.parametrize("argv, typed, meant", [
    (["build", "ttt", "--row", "3", "--plan"], "--row 3", "--rows"),
    (["build", "ttt", "--rows=3", "--col=3", "--plan"], "--col=3", "--cols"),
    (["query", "x.h5", "(x --- --- ---)", "--hist"], "--hist", "--history"),
    (["info", "x.h5", "--js"], "--js", "--json"),
    (["play", "ttt", "--comp", "none", "--db", "x.h5"], "--comp none", "--computer"),
    (["bench", "--thread", "1", "--plan", "ttt"], "--thread", "--threads"),
    (["bench", "--plan", "ttt --row 3"], "--row 3", None),
    (["serve", "--che", "--dir", "no/such/folder"], "--che", "--check"),
    (["evaluate", "x.h5", "--agent", "random", "--from", "1"], "--from 1", "--from-start"),
])
def test_an_abbreviated_option_is_refused_not_read_as_another(argv, typed, meant, capsys):
    """argparse reads a prefix of an option as that option: a typo (--row for --rows)
    would silently become another option. Every command refuses it instead."""
    code, out, err = command(argv, capsys)
    line = one_line_error(code, err, f"tiersolve {argv[0]}")
    assert f"unrecognized arguments: {typed}" in line and out == ""
    if meant:
        assert line.endswith(f"did you mean {meant}? (see --help)")
    code, out, err = command(["--vers"], capsys)  # the command's own options too
    assert code == 2 and "tiersolve " not in out


def test_plan_json_prints_json(capsys):
    assert build_main(["ttt", "--rows", "4", "--cols", "4", "--plan", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["positions"] == 10_165_779 and plan["planned_peak_bytes"] > 0


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
    with h5py.File(older, "w") as file:  # (format version 2: now refused)
        file.attrs["format"] = "gamesolver-database"
        file.attrs["format_version"] = 2
    with pytest.raises(DatabaseMismatchError, match="format version 2; .*rebuild the database"):
        open_database(older)


def shell(line: str, cwd: Path) -> subprocess.CompletedProcess:
    """``LINE`` (a pipeline) run by the shell in CWD, its output captured."""
    return subprocess.run(line, cwd=cwd, capture_output=True, text=True, timeout=600,
                          shell=True)


def test_a_closed_pipe_ends_quietly(tmp_path):
    script = f"{sys.executable} {ROOT / 'scripts' / 'build_db.py'}"
    built = shell(f"{script} ttt --rows 3 --cols 3 --out other.h5 | head -c 1", cwd=tmp_path)
    assert "Traceback" not in built.stderr and "BrokenPipe" not in built.stderr
    assert tiersolve("build", "ttt", "--rows", "3", "--cols", "3", cwd=tmp_path).returncode == 0
    query = f"{sys.executable} {ROOT / 'scripts' / 'query.py'} db/ttt_3x3.h5 '(x --- --- ---)'"
    queried = shell(f"{query} | head -1", cwd=tmp_path)
    assert queried.stdout.startswith("(x --- --- ---)  tie in 9")
    assert "Traceback" not in queried.stderr and "BrokenPipe" not in queried.stderr
    info = shell(f"{sys.executable} -m tiersolve info db/ttt_3x3.h5 | head -1", cwd=tmp_path)
    assert "Traceback" not in info.stderr


@pytest.mark.parametrize("argv", [["query", "DB", "(L 0)"],
                                  ["build", "1210", "--quiet", "--out", "b.h5"]])
def test_a_command_whose_reader_went_away_ends_quietly_with_exit_code_0(argv, tmp_path):
    build_database(make_game("1210"), tmp_path / "q.h5", progress=False)
    with open_database(tmp_path / "q.h5") as db:  # its lookup kernels compiled and kept,
        db.lookup("(L 0)")  # so the command has no compile line to print
    argv = [str(tmp_path / "q.h5") if word == "DB" else word for word in argv]
    process = subprocess.Popen([sys.executable, "-m", "tiersolve", *argv], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # gone before the command writes its first line
    _, err = process.communicate(timeout=600)
    assert process.returncode == 0 and err == b""
    if argv[0] == "build":  # a build is not cut short: its database is written
        with open_database(tmp_path / "b.h5") as db:
            assert db.lookup("(L 0)").value == "win"
