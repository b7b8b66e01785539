"""Resumable builds: every solved tier is kept as soon as it is solved; a build that is
killed (SIGKILL, SIGTERM) and run again finishes with exactly the arrays of an
uninterrupted build; partial builds of something else are refused; damaged files
give one clear error, never a wrong answer."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import h5py
import numpy as np
import pytest

from tiersolve.databases import open_database
from tiersolve.databases.build import build_database
from tiersolve.errors import DamagedDatabaseError
from tiersolve.games import make_game

ROOT = Path(__file__).resolve().parent.parent
BUILD = [sys.executable, str(ROOT / "scripts" / "build_db.py")]
#: Sixteen loopy tiers that take a few seconds on one thread.
CASE = ["loa", "--rows", "4", "--cols", "4", "--threads", "1"]


def arrays(path):
    with open_database(path) as db:
        return db.value_array(), db.remoteness_array(), db.counts(), db.attributes["count_illegal"]


def same_database(first, second) -> None:
    (v1, r1, c1, i1), (v2, r2, c2, i2) = arrays(first), arrays(second)
    assert np.array_equal(v1, v2) and np.array_equal(r1, r2)
    assert c1 == c2 and i1 == i2


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    path = tmp_path_factory.mktemp("whole") / "loa.h5"
    build_database(make_game("loa", rows=4, cols=4), path, progress=False, threads=1)
    return path


def start_and_stop(out: Path, how: int) -> subprocess.Popen:
    """Start a build, wait until it has kept two tiers, then send it ``how``."""
    process = subprocess.Popen([*BUILD, *CASE, "--out", str(out)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    partial = out.with_name(out.name + ".partial")
    deadline = time.monotonic() + 120
    while len(list(partial.glob("tier-*.h5"))) < 2:
        assert process.poll() is None, f"the build ended before it could be interrupted: {process.communicate()}"
        assert time.monotonic() < deadline, "no tier was kept within two minutes"
        time.sleep(0.02)
    process.send_signal(how)
    process.wait(timeout=60)
    return process


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT],
                         ids=["SIGKILL", "SIGTERM", "SIGINT"])
def test_an_interrupted_build_resumes_to_the_same_result(tmp_path, uninterrupted, how):
    out = tmp_path / "loa.h5"
    process = start_and_stop(out, how)
    if how == signal.SIGKILL:
        assert process.returncode == -signal.SIGKILL
    else:
        assert process.returncode == 130
        assert "interrupted; the tiers solved so far are kept" in process.stderr.read()
    assert not out.exists()
    kept = len(list(out.with_name(out.name + ".partial").glob("tier-*.h5")))
    assert kept >= 2
    again = subprocess.run([*BUILD, *CASE, "--out", str(out)], capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert f"resumed {kept} of 16 tiers" in again.stdout
    assert not out.with_name(out.name + ".partial").exists()
    same_database(out, uninterrupted)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the lost one
def test_an_interrupt_lost_in_a_finaliser_still_stops_the_build(tmp_path, lose_an_interrupt):
    """A SIGINT whose KeyboardInterrupt was lost still stops the build at its next
    batch, with its tiers kept."""
    from tiersolve.solver.interrupts import stopping_on_signals

    out = tmp_path / "loa.h5"
    with stopping_on_signals():
        lose_an_interrupt()
        with pytest.raises(KeyboardInterrupt):
            build_database(make_game("loa", rows=4, cols=4), out, progress=False, threads=1)
    assert not out.exists()
    assert out.with_name(out.name + ".partial").is_dir()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the lost one
@pytest.mark.parametrize("name, options", [("clobber", {"rows": 3, "cols": 4}),  # tier by tier
                                           ("loa", {"rows": 4, "cols": 4})])     # as a graph
def test_a_lost_interrupt_stops_a_reachable_build_too(tmp_path, lose_an_interrupt, name, options):
    from tiersolve.databases.reachable import build_reachable
    from tiersolve.solver.interrupts import stopping_on_signals

    out = tmp_path / "reachable.h5"
    with stopping_on_signals():
        lose_an_interrupt()
        with pytest.raises(KeyboardInterrupt):
            build_reachable(make_game(name, **options), out, progress=False, threads=1)
    assert not out.exists()


def test_restart_discards_the_kept_tiers(tmp_path, uninterrupted):
    out = tmp_path / "loa.h5"
    start_and_stop(out, signal.SIGKILL)
    again = subprocess.run([*BUILD, *CASE, "--out", str(out), "--restart"], capture_output=True,
                           text=True)
    assert again.returncode == 0, again.stderr
    assert "resumed" not in again.stdout
    same_database(out, uninterrupted)


@pytest.mark.parametrize("change, message", [
    ({"game": "ttt"}, "a partial build of another game"),
    ({"options": json.dumps({"rows": 3})}, "a partial build with other options"),
    ({"source_fingerprint": "0123456789abcdef"}, "made by another version of the solver"),
])
def test_a_partial_build_of_something_else_is_refused(tmp_path, change, message):
    from tiersolve.databases.format import PartialBuild

    out = tmp_path / "n.h5"
    game = make_game("northcott", rows=2, cols=4)
    manifest = PartialBuild(out, game, np.dtype(np.uint8)).manifest
    (out.with_name("n.h5.partial") / "manifest.json").write_text(json.dumps({**manifest, **change}))
    done = subprocess.run([*BUILD, "northcott", "--rows", "2", "--cols", "4", "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "--restart" in lines[0]
    assert not out.exists()


def test_an_unreadable_kept_tier_is_solved_again(tmp_path, uninterrupted):
    out = tmp_path / "loa.h5"
    start_and_stop(out, signal.SIGKILL)
    partial = out.with_name(out.name + ".partial")
    victim = sorted(partial.glob("tier-*.h5"))[0]
    victim.write_bytes(victim.read_bytes()[:100])  # a torn file
    again = subprocess.run([*BUILD, *CASE, "--out", str(out)], capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    same_database(out, uninterrupted)


def _damage(path: Path, dataset: str) -> None:
    """Flip bytes in the middle of a dataset's first stored chunk."""
    with h5py.File(path, "r") as f:
        offset = f[dataset].id.get_chunk_info(0).byte_offset
        size = f[dataset].id.get_chunk_info(0).size
    with open(path, "r+b") as raw:
        raw.seek(offset + size // 2)
        chunk = bytearray(raw.read(8))
        raw.seek(offset + size // 2)
        raw.write(bytes(b ^ 0x5A for b in chunk))


@pytest.mark.parametrize("dataset", ["value", "remoteness"])
def test_a_damaged_database_gives_one_clear_error(tmp_path, dataset):
    out = tmp_path / "n.h5"
    build_database(make_game("northcott", rows=3, cols=6), out, progress=False)
    _damage(out, dataset)
    with open_database(out) as db:
        with pytest.raises(DamagedDatabaseError, match=f"damaged: the {dataset} data fails its "
                                                       "checksum"):
            db.lookup("(L 1L3R0 0L1R3 1L2R1)")
        with pytest.raises(DamagedDatabaseError):
            db.value_array() if dataset == "value" else db.remoteness_array()
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "query.py"), str(out),
                           "(L 1L3R0 0L1R3 1L2R1)"], capture_output=True, text=True)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "checksum" in done.stderr


def test_kept_tiers_and_the_database_carry_checksums(tmp_path):
    from tiersolve.databases.format import PartialBuild

    out = tmp_path / "k.h5"
    game = make_game("knightsdance", rows=3, cols=3)
    build_database(game, out, progress=False)
    with h5py.File(out) as f:
        assert f["value"].fletcher32 and f["remoteness"].fletcher32
    partial = PartialBuild(out, game, np.dtype(np.uint16))
    partial.save(0, np.arange(int(game.tier_sizes[0]), dtype=np.uint16), np.zeros(6, np.int64), 0)
    with h5py.File(partial.directory / "tier-000000.h5") as f:
        assert f["records"].fletcher32 and f.attrs["complete"] == 1
    assert list(partial.done()) == [0]
    partial.discard()
    assert os.path.exists(out)


@pytest.mark.parametrize("pieces, whole", [(((0, 5000), (5000, 12870)), True),
                                           (((0, 5000), (6000, 12870)), False)],
                         ids=["covering", "with-a-gap"])
def test_a_tier_kept_in_pieces_resumes_in_process(tmp_path, pieces, whole):
    """A cluster build may keep a large tier as pieces: pieces that cover their tier
    make it solved, and read as the tier; a tier with a gap is solved again whole,
    and its pieces go."""
    from tiersolve.databases.format import PartialBuild
    from tiersolve.solver import tiers

    game = make_game("domineering", rows=4, cols=4)  # tier 4: C(16, 8) = 12,870 boards
    reference = tmp_path / "reference.h5"
    build_database(game, reference, progress=False, threads=1)
    out = tmp_path / "resumed.h5"
    kept = PartialBuild(out, game, tiers.records_type(game))
    tiers.solve(game, threads=1, progress=False, sink=kept.save, only=range(5, 9))
    for lo, hi in pieces:
        kept.save_piece(4, lo, *tiers.solve_piece(game, 4, lo, hi, load=kept.load))
    assert (4 in kept.done()) == whole
    report = build_database(game, out, progress=False, threads=1)
    assert report.resumed_tiers == (5 if whole else 4)
    same_database(out, reference)
