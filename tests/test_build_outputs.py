"""What a build writes, refuses and reports about its output file: only a regular
file in a place it may write (and at most one missing folder made), a bad --out
refused before anything is solved, a rebuild that never silently overwrites and says
what differs or what is left to do; progress off a terminal and with --json."""

from __future__ import annotations

import json
import os
import re
import stat
import time
from pathlib import Path

import pytest

from tiersolve.cli.build import build_main
from tiersolve.databases.format import PartialBuild
from tiersolve.databases.lifecycle import BuildRefused, check_output
from tiersolve.games import make_game
from tiersolve.solver import tiers

from conftest import command, one_line_error, tiersolve


@pytest.mark.skipif(not Path("/proc/self").exists() or not Path("/sys/kernel").exists(),
                    reason="needs Linux's /proc and /sys")
@pytest.mark.parametrize("out", ["/sys/x.h5", "/proc/foo.h5"])
def test_places_no_one_may_write_are_refused_in_one_line(out, capsys):
    code, _, err = command(["build", "1210", "--out", out], capsys)
    assert "cannot write to" in one_line_error(code, err, "tiersolve build")


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs Linux's /proc")
def test_a_place_that_takes_no_files_says_why(capsys):
    """/proc exists, as root sees too: it is creating a file in it that fails, with an
    errno (ENOENT) whose own words would say the folder is missing."""
    code, _, err = command(["build", "1210", "--out", "/proc/x.h5"], capsys)
    line = one_line_error(code, err, "tiersolve build")
    assert "cannot write to /proc: " in line and "no such file" not in line
    assert "files cannot be created" in line and "proc" in line.split("/proc: ")[1]


@pytest.mark.parametrize("work_dir, message", [
    ("/proc", "files cannot be created"), ("/proc/sub", "files cannot be created"),
    ("{tmp}/file", "is a file, not a folder"), ("{tmp}/file/sub", "is a file, not a folder"),
])
def test_a_work_dir_that_cannot_hold_the_tiers_is_one_line_and_loses_nothing(
        work_dir, message, tmp_path, capsys):
    """Refused before anything is solved or replaced (as root too: /proc and a file
    refuse root as anyone), with exit code 2, in the command and in the library."""
    if work_dir.startswith("/proc") and not Path("/proc/self").exists():
        pytest.skip("needs Linux's /proc")
    work_dir = work_dir.format(tmp=tmp_path)
    (tmp_path / "file").write_text("not a folder")
    out = tmp_path / "t.h5"
    assert build_main(["1210", "--quiet", "--out", str(out)]) == 0  # a database already there
    before = out.read_bytes()
    capsys.readouterr()
    code, stdout, err = command(["build", "1210", "--target", "7", "--overwrite", "--out",
                                 str(out), "--work-dir", work_dir], capsys)
    line = one_line_error(code, err, "tiersolve build")
    assert f"--work-dir {work_dir}" in line and message in line and stdout == ""
    assert out.read_bytes() == before and (tmp_path / "file").read_text() == "not a folder"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["file", "t.h5"]
    from tiersolve.databases import build_database

    with pytest.raises(BuildRefused, match=message):
        build_database(make_game("1210", target=7), out, overwrite=True, work_dir=work_dir,
                       progress=False)
    assert out.read_bytes() == before


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


@pytest.mark.parametrize("out", ["", "{tmp}", "{tmp}/locked/no", "{tmp}/busy.h5"])
def test_a_bad_out_fails_before_solving(tmp_path, capsys, out):
    (tmp_path / "locked").mkdir()
    os.chmod(tmp_path / "locked", stat.S_IRUSR | stat.S_IXUSR)
    lock = None
    if out.endswith("busy.h5"):  # another build holds the file's lock
        import fcntl
        lock = open(tmp_path / "busy.h5.lock", "a")
        fcntl.flock(lock, fcntl.LOCK_EX)
    began = time.perf_counter()
    code = build_main(["ttt", "--rows", "4", "--cols", "4", "--quiet",
                       "--out", out.format(tmp=tmp_path)])
    err = capsys.readouterr().err
    os.chmod(tmp_path / "locked", stat.S_IRWXU)
    if os.geteuid() == 0 and "locked" in out:
        pytest.skip("root may write anywhere")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert time.perf_counter() - began < 20  # 10 million positions were not solved first


def test_a_rebuild_never_silently_overwrites(tmp_path, capsys):
    out = tmp_path / "t.h5"
    argv = ["ttt", "--rows", "3", "--cols", "3", "--quiet", "--out", str(out)]
    assert build_main(argv) == 0
    before = out.stat().st_mtime_ns
    capsys.readouterr()
    assert build_main(argv) == 0
    assert "already holds ttt 3x3" in capsys.readouterr().out and out.stat().st_mtime_ns == before
    assert build_main(["ttt", "--rows", "3", "--cols", "3", "--diagonal", "--quiet",
                       "--out", str(out)]) == 2
    assert "already holds ttt 3x3, not ttt 3x3 (diagonal)" in capsys.readouterr().err
    assert build_main(argv + ["--overwrite"]) == 0 and out.stat().st_mtime_ns != before


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


def test_a_build_with_nothing_to_do_names_an_interrupted_rebuild(tmp_path, capsys):
    out = tmp_path / "1210.h5"
    argv = ["build", "1210", "--quiet", "--out", str(out)]
    assert command(argv, capsys)[0] == 0
    game = make_game("1210")
    kept = PartialBuild(out, game, tiers.records_type(game))  # as a stopped --overwrite leaves
    code, stdout, _ = command(argv, capsys)
    assert code == 0 and "nothing to do" in stdout
    assert f"{kept.directory} (" in stdout and "--overwrite resumes" in stdout


class SlowToStartCompile:
    """A stand-in for ``KernelCompile`` whose children take 0.2 s to start and compile
    for 0.1 s more, as a first build's do (seconds, not tenths)."""

    def __init__(self, game) -> None:
        self.began = time.perf_counter()
        time.sleep(0.2)

    def wait(self) -> float:
        time.sleep(0.1)
        return time.perf_counter() - self.began

    def cancel(self) -> None:
        pass


def test_a_builds_figures_add_up(tmp_path, monkeypatch):
    """The total is counted on the compile's clock: a first build printed '3.0 s
    (compile 3.1, ...)'. A build with nothing to do reports what it did: nothing."""
    from tiersolve.databases import build, build_database

    monkeypatch.setattr(build, "KernelCompile", SlowToStartCompile)
    out = tmp_path / "1210.h5"
    report = build_database(make_game("1210"), out, progress=False)
    assert report.compile_seconds >= 0.3
    parts = report.compile_seconds + report.solve_seconds + report.write_seconds
    assert report.total_seconds >= parts > 0
    assert f"{report.total_seconds:.1f} s (compile {report.compile_seconds:.1f}," in \
        report.summary_line()
    again = build_database(make_game("1210"), out, progress=False)
    assert again.skipped
    assert (again.compile_seconds, again.solve_seconds, again.write_seconds) == (0, 0, 0)
    assert 0 < again.total_seconds < 5


def test_progress_off_a_terminal_is_a_line_per_phase(tmp_path):
    done = tiersolve("build", "ttt", "--rows", "3", "--cols", "3", "--out", "t.h5", cwd=tmp_path)
    assert done.returncode == 0 and "\r" not in done.stderr
    assert re.search(r"^solving ttt: 6,046 positions, \d+\.\d s$", done.stderr, re.M)
    assert re.search(r"^writing t\.h5: 6,046 positions, \d+\.\d s$", done.stderr, re.M)


def test_json_keeps_stdout_for_the_report_and_progress_on_stderr(tmp_path):
    done = tiersolve("build", "ttt", "--rows", "3", "--cols", "3", "--json", "--out",
                     str(tmp_path / "t.h5"), cwd=tmp_path)
    assert done.returncode == 0 and json.loads(done.stdout)["positions"] == 6046
    assert "\r" not in done.stderr  # off a terminal: a line per phase, no bars
    assert re.search(r"^solving ttt: 6,046 positions, \d+\.\d s$", done.stderr, re.M)
    quiet = tiersolve("build", "ttt", "--rows", "3", "--cols", "3", "--json", "--quiet",
                      "--overwrite", "--out", str(tmp_path / "t.h5"), cwd=tmp_path)
    assert quiet.returncode == 0 and json.loads(quiet.stdout)["positions"] == 6046
    assert quiet.stderr == "", quiet.stderr
