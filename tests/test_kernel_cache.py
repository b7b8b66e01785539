"""The numba kernel cache ($TIERSOLVE_CACHE_DIR): on an empty cache the first lookup
says once that it compiles the game's kernels (also after a build, which compiles the
solver's kernels, not the lookups'); kernel caches left unused for a month are
pruned."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

from conftest import tiersolve


def test_the_first_compile_is_announced_once(tmp_path):
    """Also after a build on the same empty cache: a build compiles the solver's
    kernels, not the lookups'."""
    env = {"TIERSOLVE_CACHE_DIR": str(tmp_path / "cache")}
    assert tiersolve("build", "1210", "--quiet", "--out", "t.h5", cwd=tmp_path,
                     env=env).returncode == 0
    first = tiersolve("query", "t.h5", "(L 0)", cwd=tmp_path, env=env)
    second = tiersolve("query", "t.h5", "(L 0)", cwd=tmp_path, env=env)
    assert first.returncode == second.returncode == 0 and first.stdout == second.stdout
    assert "compiling the 1210 kernels" in first.stderr
    assert second.stderr == ""


def test_a_build_announces_its_compile_in_one_line_even_when_quiet(tmp_path):
    """On an empty cache the wait is explained, once, with its length; on a warm one
    a quiet build prints nothing on stderr."""
    env = {"TIERSOLVE_CACHE_DIR": str(tmp_path / "cache")}
    first = tiersolve("build", "1210", "--quiet", "--out", "a.h5", cwd=tmp_path, env=env)
    second = tiersolve("build", "1210", "--quiet", "--out", "b.h5", cwd=tmp_path, env=env)
    assert first.returncode == second.returncode == 0
    lines = first.stderr.splitlines()
    assert len(lines) == 1, first.stderr
    assert re.fullmatch(r"1210: compiling its kernels, once for this version of tiersolve"
                        r"\.\.\. \d+\.\d s", lines[0]), lines[0]
    assert second.stderr == ""


def test_stale_kernel_caches_are_pruned(tmp_path):
    root = tmp_path / "cache"
    old, recent = root / "numba-0000000000000000", root / "numba-1111111111111111"
    old.mkdir(parents=True)
    recent.mkdir()
    month_ago = time.time() - 30 * 86400
    os.utime(old, (month_ago, month_ago))
    done = tiersolve("--version", cwd=tmp_path, env={"TIERSOLVE_CACHE_DIR": str(root)})
    assert done.returncode == 0
    subprocess.run([sys.executable, "-c", "import tiersolve.jit"], check=True,
                   env={**os.environ, "TIERSOLVE_CACHE_DIR": str(root)})
    names = sorted(p.name for p in root.iterdir() if p.name.startswith("numba-"))
    assert old.name not in names and recent.name in names and len(names) == 2
