"""The numba kernel cache ($TIERSOLVE_CACHE_DIR): on an empty cache the first lookup
says once that it compiles the game's kernels (also after a build, which compiles the
solver's kernels, not the lookups'); kernel caches left unused for a month are
pruned; helpers are kept as LLVM IR, in memory and in the cache, and inlined from
there into new kernels, and compiled without reference counts for kernels without
them; builds compile in forked or started child processes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import time

import pytest
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


HELPERS = """
from tiersolve.jit import jit


@jit(forceinline=True)
def triple(x):
    return 3 * x


@jit
def first(x):
    return triple(x) + 1


@jit
def second(x):
    return triple(x) + 2
"""


def run_python(code: str, cwd, cache) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "TIERSOLVE_CACHE_DIR": str(cache),
                                            "PYTHONPATH": str(cwd)})
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_a_helper_is_kept_as_ir_and_inlined_from_the_cache_into_a_new_kernel(tmp_path):
    """A ``jit(forceinline=True)`` helper gets no machine code of its own; a kernel
    compiled in a later process inlines the helper's IR from the disk cache; Python
    calls the helper through its twin."""
    (tmp_path / "helpers_module.py").write_text(HELPERS)
    cache = tmp_path / "cache"
    ir_only = "next(iter(m.triple.overloads.values())).library._ir_only"
    assert run_python("import helpers_module as m; from tiersolve.jit import HELPERS_AS_IR; "
                      f"print(m.first(4), HELPERS_AS_IR, {ir_only})", tmp_path, cache) \
        == ["13", "True", "True"]
    assert run_python("import helpers_module as m; print(m.second(4), "
                      f"sum(m.triple.stats.cache_hits.values()), {ir_only}, m.triple(5))",
                      tmp_path, cache) == ["14", "1", "True", "15"]


@pytest.mark.parametrize("threaded", [False, True], ids=["forked", "started"])
def test_the_kernels_compile_in_forked_or_started_children(tmp_path, threaded):
    """A process that runs one thread forks its compiling children; one with other
    threads (a notebook's) starts them afresh. Either way every child succeeds: the
    cache is marked as holding the game's kernels as soon as they end."""
    code = textwrap.dedent(f"""
        import subprocess, threading, time
        if {threaded}:
            threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
        from tiersolve.databases import build
        from tiersolve.games import make_game
        game = make_game("northcott", rows=3, cols=6)
        compiling = build.KernelCompile(game)
        started = [isinstance(child, subprocess.Popen) for child in compiling.children]
        compiling.wait()
        print(len(started), set(started) == {{{threaded}}}, build._kernels_marker(game).exists())
    """)
    assert run_python(code, tmp_path, tmp_path / "cache") == ["2", "True", "True"]


COUNTED_CALLERS = """
from tiersolve.games.ttt import _outcome
from tiersolve.jit import jit


@jit
def counted(data, xs, os_, turn):
    params, lines = data
    return _outcome(params, lines, xs, os_, turn, False)


@jit(_nrt=False)
def uncounted(data, masks, os_, turn):
    params, lines = data
    total = 0
    for xs in range(masks):
        total += _outcome(params, lines, xs, os_, turn, False)
    return total
"""


def test_a_kernel_without_refcounts_inlines_helpers_without_them_whoever_compiled_them_first(
        tmp_path):
    """Tic-Tac-Toe's ``_outcome`` first compiled for a caller that counts references
    (as the check of a build's start position does), then inlined into a loop that
    does not: the loop must still count none (numba keeps one compiled version a
    signature, and its reference counts, atomic operations on shared counters, made
    Tic-Tac-Toe 4x4's kernel a third slower)."""
    (tmp_path / "counted_module.py").write_text(COUNTED_CALLERS)
    calls = ("[f.inspect_llvm(f.signatures[0]).count(f'call void @NRT_{op}ref') "
             "for f in (m.counted, m.uncounted) for op in ('inc', 'dec')]")
    found = run_python("import counted_module as m; from tiersolve.games import make_game; "
                       "data = make_game('ttt', rows=3, cols=3).data; "
                       "print(sum(m.counted(data, xs, 7, 0) for xs in range(512)), "
                       f"m.uncounted(data, 512, 7, 0), *{calls})", tmp_path, tmp_path / "cache")
    assert found[0] == found[1]  # the same outcomes either way
    assert int(found[2]) > 0  # the caller that counts references does count them
    assert found[4:] == ["0", "0"]
