"""The rough edges a new user hit (issue 9), one test each: every one failed before
its fix."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import h5py
import numpy as np
import pytest

from tiersolve.cli.build import build_main
from tiersolve.databases import (
    ClosedDatabaseError,
    DamagedDatabaseError,
    DatabaseMismatchError,
    open_database,
)
from tiersolve.databases.build import build_database, human_bytes, plural
from tiersolve.games import make_game

ROOT = Path(__file__).resolve().parent.parent


def command(*args: str, cwd: Path, env: dict | None = None, shell: bool = False):
    argv = " ".join(args) if shell else [sys.executable, "-m", "tiersolve", *args]
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=600,
                          env={**os.environ, **(env or {})}, shell=shell)


# 1 ---------------------------------------------------------------------------------
def test_opening_by_game_checks_the_game_and_every_option(tmp_path, monkeypatch):
    monkeypatch.setenv("TIERSOLVE_DB_DIR", str(tmp_path))
    build_database(make_game("ttt", rows=3, cols=3, diagonal=True), tmp_path / "ttt_3x3.h5",
                   progress=False)
    with pytest.raises(DatabaseMismatchError, match="holds ttt 3x3 \\(diagonal\\), not ttt 3x3"):
        open_database("ttt", rows=3, cols=3)
    build_database(make_game("northcott", rows=3, cols=6), tmp_path / "n.h5", progress=False)
    shutil.copy(tmp_path / "n.h5", tmp_path / "ttt_3x3.h5")
    with pytest.raises(DatabaseMismatchError, match="holds northcott 3x6"):
        open_database("ttt", rows=3, cols=3)
    shutil.copy(tmp_path / "n.h5", tmp_path / "northcott_3x6.h5")
    with open_database("northcott", rows=3, cols=6, misere=False) as db:  # defaults may be named
        assert db.game.describe() == "northcott 3x6"


# 2 ---------------------------------------------------------------------------------
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


# 3 ---------------------------------------------------------------------------------
def test_a_closed_pipe_ends_quietly(tmp_path):
    script = f"{sys.executable} {ROOT / 'scripts' / 'build_db.py'}"
    built = command(f"{script} ttt --rows 3 --cols 3 --out other.h5 | head -c 1", cwd=tmp_path,
                    shell=True)
    assert "Traceback" not in built.stderr and "BrokenPipe" not in built.stderr
    assert command("build", "ttt", "--rows", "3", "--cols", "3", cwd=tmp_path).returncode == 0
    query = f"{sys.executable} {ROOT / 'scripts' / 'query.py'} db/ttt_3x3.h5 '(x --- --- ---)'"
    queried = command(f"{query} | head -1", cwd=tmp_path, shell=True)
    assert queried.stdout.startswith("(x --- --- ---)  tie in 9")
    assert "Traceback" not in queried.stderr and "BrokenPipe" not in queried.stderr
    info = command(f"{sys.executable} -m tiersolve info db/ttt_3x3.h5 | head -1", cwd=tmp_path,
                   shell=True)
    assert "Traceback" not in info.stderr


# 4 ---------------------------------------------------------------------------------
def test_plan_json_prints_json(capsys):
    assert build_main(["ttt", "--rows", "4", "--cols", "4", "--plan", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["positions"] == 10_165_779 and plan["planned_peak_bytes"] > 0


# 5 ---------------------------------------------------------------------------------
def test_damaged_and_odd_files_say_what_is_wrong_in_one_line(tmp_path):
    path = tmp_path / "t.h5"
    build_database(make_game("ttt", rows=3, cols=3), path, progress=False)
    broken = tmp_path / "broken.h5"
    shutil.copy(path, broken)
    with h5py.File(broken, "r+") as file:
        del file["remoteness"]
    with pytest.raises(DamagedDatabaseError, match="lacks remoteness") as missing:
        open_database(broken)
    with pytest.raises(DamagedDatabaseError, match="is a folder, not a database file") as folder:
        open_database(tmp_path)
    db = open_database(path)
    db.close()
    with pytest.raises(ClosedDatabaseError, match="is closed") as closed:
        db.lookup("(x --- --- ---)")
    for error in (missing, folder, closed):
        assert "\n" not in str(error.value) and "identifier" not in str(error.value)


# 6 ---------------------------------------------------------------------------------
def test_lookup_indices_checks_its_input(tmp_path):
    path = tmp_path / "t.h5"
    build_database(make_game("ttt", rows=3, cols=3), path, progress=False)
    with open_database(path) as db:
        with pytest.raises(TypeError, match="whole numbers"):
            db.lookup_indices([1.5])
        value, remoteness = db.lookup_indices(3)
        values, remotenesses = db.lookup_indices([3])
        assert (value, remoteness) == (values[0], remotenesses[0]) and np.ndim(value) == 0
        with pytest.raises(IndexError, match="outside this database"):
            db.lookup_indices([db.size])
    with pytest.raises(TypeError, match="opens a file; the options rows"):
        open_database(path, rows=4)


# 7 ---------------------------------------------------------------------------------
def test_messages(tmp_path):
    assert plural(1, "position") == "1 position" and plural(2, "tier") == "2 tiers"
    assert human_bytes(26626771.3 * 2**30) == "25.4 PB" and human_bytes(3 * 2**40) == "3.0 TB"
    with pytest.raises(ValueError, match="must be 0 to 10, got -1"):
        make_game("1210").parse("(L -1)")
    ttt = make_game("ttt", rows=3, cols=3)
    with pytest.raises(ValueError, match="unexpected text 'extra' after the position"):
        ttt.parse("(x --- --- ---) extra")
    with pytest.raises(ValueError, match="lower case"):
        ttt.parse("(X --- --- ---)")
    with pytest.raises(ValueError, match="lower case"):
        ttt.parse("(x X-- --- ---)")
    with pytest.raises(ValueError, match="has 1 row, but"):
        ttt.parse("(x ---)")
    readme = (ROOT / "README.md").read_text()
    assert "26 columns" in readme and "62 for Domineering" in readme
    make_game("domineering", rows=2, cols=26)
    with pytest.raises(ValueError):
        make_game("domineering", rows=3, cols=21)  # 63 cells
    with pytest.raises(ValueError):
        make_game("ttt", rows=1, cols=27)


# 10 --------------------------------------------------------------------------------
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


# 11 --------------------------------------------------------------------------------
def test_the_first_compile_is_announced_once(tmp_path):
    """Also after a build on the same empty cache (issue 20): a build compiles the
    solver's kernels, not the lookups'."""
    env = {"TIERSOLVE_CACHE_DIR": str(tmp_path / "cache")}
    assert command("build", "1210", "--quiet", "--out", "t.h5", cwd=tmp_path, env=env).returncode == 0
    first = command("query", "t.h5", "(L 0)", cwd=tmp_path, env=env)
    second = command("query", "t.h5", "(L 0)", cwd=tmp_path, env=env)
    assert first.returncode == second.returncode == 0 and first.stdout == second.stdout
    assert "compiling the 1210 kernels" in first.stderr
    assert second.stderr == ""


# 12 --------------------------------------------------------------------------------
def test_json_draws_no_progress_bars(tmp_path):
    done = command("build", "ttt", "--rows", "3", "--cols", "3", "--json", "--out",
                   str(tmp_path / "t.h5"), cwd=tmp_path)
    assert done.returncode == 0 and json.loads(done.stdout)["positions"] == 6046
    assert done.stderr == ""


# 13 --------------------------------------------------------------------------------
def test_stale_kernel_caches_are_pruned(tmp_path):
    root = tmp_path / "cache"
    old, recent = root / "numba-0000000000000000", root / "numba-1111111111111111"
    old.mkdir(parents=True)
    recent.mkdir()
    month_ago = time.time() - 30 * 86400
    os.utime(old, (month_ago, month_ago))
    done = command("--version", cwd=tmp_path, env={"TIERSOLVE_CACHE_DIR": str(root)})
    assert done.returncode == 0
    subprocess.run([sys.executable, "-c", "import tiersolve.jit"], check=True,
                   env={**os.environ, "TIERSOLVE_CACHE_DIR": str(root)})
    names = sorted(p.name for p in root.iterdir() if p.name.startswith("numba-"))
    assert old.name not in names and recent.name in names and len(names) == 2
