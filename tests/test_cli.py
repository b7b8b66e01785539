"""The command lines: the README's commands work, errors are one line with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tiersolve.cli.build import build_main
from tiersolve.cli.query import query_main

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
