"""Database files as untrusted input, and builds that end at the wrong moment.

* damaged copies (bit flips, zeroed bytes, truncations) of a database of each kind:
  every outcome is the right answer or one DatabaseError line; a watchdog fails on a
  hang (``-m slow`` runs many more copies);
* files crafted with h5py, each refused with one printable line;
* a build killed at each step of its final write, then run again;
* a reader looping on a database while it is rebuilt with --overwrite;
* a full disk while the tiers are kept and while the database is written;
* a build's peak memory, which is its own, not what the process held before.
"""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import h5py
import numpy as np
import pytest

from tiersolve.cli import main as tiersolve
from tiersolve.databases import build_database, open_database
from tiersolve.databases.chunks import COMPRESSION
from tiersolve.databases.format import CRASH_STEPS, CRASH_VARIABLE
from tiersolve.errors import DatabaseError

from crafting import read_metadata, replace_dataset, rewrite_metadata, write_raw_metadata

WORKER = Path(__file__).with_name("untrusted_worker.py")
#: Damaged copies of each database per run: in the default suite (at least the first,
#: and at most the second, as many as fit in FUZZ_SECONDS), and with -m slow.
COPIES, MAX_COPIES, SLOW_COPIES = 60, 600, 8000
#: Seconds the default suite's fuzz test goes on once it has checked COPIES of each.
FUZZ_SECONDS = 35
#: Seconds a damaged copy may take before the test calls it a hang.
HANG_SECONDS = 30


@pytest.fixture(scope="session")
def small_databases(database, tmp_path_factory) -> dict[str, Path]:
    """One small database of each kind: the full index (Tic-Tac-Toe 3x3), --symmetry
    (Domineering 3x3) and --reachable (1210)."""
    reachable = tmp_path_factory.mktemp("reachable") / "1210_reachable.h5"
    build_database("1210", reachable, reachable=True, progress=False)
    return {"full": database("ttt", rows=3, cols=3).path,
            "symmetry": database("domineering", rows=3, cols=3, symmetry=True).path,
            "reachable": reachable}


# -- damaged copies ---------------------------------------------------------------------
def damaged_copy(source: bytes, rng: random.Random) -> tuple[bytes, str]:
    """A copy of ``source`` with one kind of damage, and what was done."""
    data = bytearray(source)
    kind = rng.choice(("flip", "flip", "zero", "garble", "truncate"))
    if kind == "flip":
        spots = [rng.randrange(len(data) * 8) for _ in range(rng.randint(1, 3))]
        for bit in spots:
            data[bit // 8] ^= 1 << bit % 8
        return bytes(data), f"bits {spots} flipped"
    if kind == "truncate":
        size = rng.randrange(len(data))
        return bytes(data[:size]), f"cut to {size} bytes"
    start, length = rng.randrange(len(data)), rng.randint(1, 64)
    filler = bytes(length) if kind == "zero" else rng.randbytes(length)
    data[start:start + length] = filler[:len(data) - start]
    return bytes(data), f"bytes {start}..{start + length - 1} {'zeroed' if kind == 'zero' else 'garbled'}"


class Worker:
    """tests/untrusted_worker.py in its own process, killed if a file makes it hang."""

    def __init__(self, intact: list[Path]) -> None:
        self.process = subprocess.Popen([sys.executable, str(WORKER), *map(str, intact)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        assert self._line(600) == "ready"

    def _line(self, seconds: float) -> str | None:
        ready, _, _ = select.select([self.process.stdout], [], [], seconds)
        if not ready:
            return None
        return self.process.stdout.readline().strip()

    def check(self, number: int, path: Path) -> dict | None:
        """The worker's outcome for ``path``, or None if it hung (it is then killed)."""
        self.process.stdin.write(f"{number} {path}\n")
        line = self._line(HANG_SECONDS)
        if line is None:
            self.close()
            return None
        return json.loads(line) if line else {"outcome": "crash", "detail": "worker died"}

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def fuzz(databases: dict[str, Path], folder: Path, copies: int, seed: int,
         more: int = 0, seconds: float = 0.0) -> dict[str, int]:
    """Check ``copies`` damaged copies of each database, then up to ``more`` others
    while ``seconds`` have not passed (the copies are the same for a seed, whatever
    the time); returns how many outcomes of each kind there were, after asserting
    that none was a hang, a crash or wrong."""
    kinds = sorted(databases)
    worker = Worker([databases[kind] for kind in kinds])
    rng = random.Random(seed)
    tally: dict[str, int] = {}
    began = time.monotonic()
    try:
        for number in range(copies + more):
            if number >= copies and time.monotonic() - began > seconds:
                break
            for index, kind in enumerate(kinds):
                data, damage = damaged_copy(databases[kind].read_bytes(), rng)
                path = folder / f"{kind}-{number}.h5"
                path.write_bytes(data)
                outcome = worker.check(index, path)
                assert outcome is not None, f"hang on a {kind} database with {damage}"
                assert outcome["outcome"] in ("right", "refused"), \
                    f"{kind} database with {damage}: {outcome}"
                tally[outcome["outcome"]] = tally.get(outcome["outcome"], 0) + 1
                path.unlink()
    finally:
        worker.close()
    return tally


def test_damaged_copies_are_answered_right_or_refused(small_databases, tmp_path):
    tally = fuzz(small_databases, tmp_path, COPIES, seed=19, more=MAX_COPIES - COPIES,
                 seconds=FUZZ_SECONDS)
    assert tally.get("refused", 0) > COPIES  # most damage is found: the test has teeth


@pytest.mark.slow
def test_many_damaged_copies_are_answered_right_or_refused(small_databases, tmp_path):
    fuzz(small_databases, tmp_path, SLOW_COPIES, seed=1919)


# -- crafted files ------------------------------------------------------------------------
def per_index(data: np.ndarray, **layout) -> dict:
    """create_dataset arguments of a per-index dataset as the writer lays it out."""
    return {"data": data, "chunks": (min(1 << 16, data.size),), **COMPRESSION, **layout}


def value_code_at_start(code: int):
    def craft(path: Path, db) -> None:
        values = db.value_array()
        values[db.index(db.start)] = code
        replace_dataset(path, "value", **per_index(values, fillvalue=255))
    return craft


def remoteness_as(dtype, change):
    def craft(path: Path, db) -> None:
        remoteness = db.remoteness_array()
        at = db.index(db.start)
        stored = np.where(remoteness < 0, db.attributes["remoteness_none"], remoteness).astype(dtype)
        stored[at] = change(stored[at])
        replace_dataset(path, "remoteness", **per_index(stored))
    return craft


def metadata(**changes):
    return lambda path, db: rewrite_metadata(path, **changes)


def without(*names):
    return lambda path, db: rewrite_metadata(path, remove=names)


def nested_options(path: Path, db) -> None:
    raw = json.dumps(read_metadata(path))
    deep = "[" * 100_000 + "]" * 100_000
    write_raw_metadata(path, raw.replace('"options": "', f'"options": {json.dumps(deep)}, "x": "', 1)
                       .encode())


def edited_bytes(old: bytes, new: bytes):
    """The file's bytes edited in place (the checksum left as it was)."""
    def craft(path: Path, db) -> None:
        data = path.read_bytes()
        assert data.count(old) == 1
        path.write_bytes(data.replace(old, new))
    return craft


def value_as(**create):
    def craft(path: Path, db) -> None:
        replace_dataset(path, "value", **create)
    return craft


def value_as_group(path: Path, db) -> None:
    with h5py.File(path, "r+") as file:
        del file["value"]
        file.create_group("value")


def value_stored_outside(path: Path, db) -> None:
    outside = path.with_name("outside.bin")
    outside.write_bytes(b"SECRET" * 4096)
    replace_dataset(path, "value", shape=(db.size,), dtype=np.uint8,
                    external=[(str(outside), 0, db.size)])


def value_linked_outside(path: Path, db) -> None:
    outside = path.with_name("outside.h5")
    with h5py.File(outside, "w") as other:
        other["value"] = np.ones(db.size, np.uint8)
    with h5py.File(path, "r+") as file:
        del file["value"]
        file["value"] = h5py.ExternalLink(str(outside), "/value")


def value_unwritten(path: Path, db) -> None:
    replace_dataset(path, "value", shape=(db.size,), dtype=np.uint8, fillvalue=1,
                    **{k: v for k, v in per_index(np.zeros(db.size, np.uint8)).items()
                       if k != "data"})


def value_chunk_of(elements: int):
    def craft(path: Path, db) -> None:
        replace_dataset(path, "value", shape=(db.size,), maxshape=(None,), dtype=np.uint8,
                        chunks=(elements,), fletcher32=True)
    return craft


def fence_of(entries: int):
    def craft(path: Path, db) -> None:
        replace_dataset(path, "index_fence", shape=(entries,), dtype=np.int64,
                        chunks=(1 << 20,), fletcher32=True)
    return craft


def fence_moved(path: Path, db) -> None:
    with h5py.File(path, "r+") as file:
        fence = file["index_fence"][()] + 1
    replace_dataset(path, "index_fence", data=fence, chunks=fence.shape, fletcher32=True)


def tier_keys_changed(path: Path, db) -> None:
    with h5py.File(path, "r+") as file:
        keys = file["tier_keys"][()]
    keys[1, 0] += 1
    replace_dataset(path, "tier_keys", data=keys, chunks=keys.shape, fletcher32=True)


def another_start(path: Path, db) -> None:
    """The start text moved to a legal position of another value (checksum recomputed)."""
    for move in db.moves(db.start):
        if (move.value, move.remoteness) != (db.lookup(db.start).value,
                                             db.lookup(db.start).remoteness):
            rewrite_metadata(path, start_position=move.position)
            return
    raise AssertionError("no position of another value")


ESCAPE = "\x1b[2J\x1b[31mred\nline"
CRAFTED = {
    # metadata of the wrong type or out of range
    "format_version 'two'": ("full", metadata(format_version="two")),
    "format_version [2, 2]": ("full", metadata(format_version=[2, 2])),
    "options not an object": ("full", metadata(options="[1, 2]")),
    "options with a key 'name'": ("full", metadata(options=json.dumps({"name": "chess"}))),
    "options nested 100,000 deep": ("full", nested_options),
    "options not JSON": ("full", metadata(options="{")),
    "num_positions an array": ("full", metadata(num_positions=[6046])),
    "remoteness_none 'abc'": ("full", metadata(remoteness_none="abc")),
    "count_win 'many'": ("full", metadata(count_win="many")),
    "count_win -5": ("full", metadata(count_win=-5)),
    "start_value not a value": ("full", metadata(start_value="maybe")),
    "start_position missing": ("full", without("start_position")),
    "reachable_from missing": ("reachable", without("reachable_from")),
    "reachable_from not JSON": ("reachable", metadata(reachable_from="[(L 0)")),
    "description with escapes": ("full", metadata(description=ESCAPE)),
    "unknown game with escapes": ("full", metadata(game="evil" + ESCAPE)),
    "metadata not JSON": ("full", lambda path, db: write_raw_metadata(path, b"\x00{\x1b")),
    "metadata of 2 MB": ("full", lambda path, db: write_raw_metadata(path, b" " * (2 << 20))),
    "misere edited in place": ("full", edited_bytes(b'\\"misere\\": false', b'\\"misere\\": true ')),
    "misere over other data": ("symmetry", metadata(options=json.dumps(
        {"cols": 3, "misere": True, "rows": 3, "symmetry": True}, sort_keys=True))),
    "start text edited": ("full", another_start),
    "tier_keys changed": ("full", tier_keys_changed),
    # value and remoteness data
    "value code 9": ("full", value_code_at_start(9)),
    "value code 255": ("full", value_code_at_start(255)),
    "remoteness 2**40": ("full", remoteness_as(np.uint64, lambda r: 1 << 40)),
    "negative remoteness": ("full", remoteness_as(np.int16, lambda r: -3)),
    "remoteness beyond its maximum": ("full", remoteness_as(np.uint8, lambda r: 200)),
    "fillvalue 1, no chunk written": ("full", value_unwritten),
    "value as strings": ("full", value_as(data=np.array([b"1"] * 6046))),
    "value contiguous": ("full", value_as(data=np.ones(6046, np.uint8))),
    "value a group": ("full", value_as_group),
    "value in external storage": ("full", value_stored_outside),
    "value an external link": ("full", value_linked_outside),
    "value chunk of 2**30": ("full", value_chunk_of(1 << 30)),
    "index fence of 2**32": ("reachable", fence_of(1 << 32)),
    "index fence moved": ("reachable", fence_moved),
}


@pytest.mark.parametrize("case", sorted(CRAFTED))
def test_crafted_files_are_refused_in_one_line(case, small_databases, tmp_path, capsys):
    kind, craft = CRAFTED[case]
    path = tmp_path / "crafted.h5"
    shutil.copy(small_databases[kind], path)
    with open_database(small_databases[kind]) as intact:
        craft(path, intact)
    cache = Path(os.environ.get("TIERSOLVE_CACHE_DIR", tmp_path))
    cached = set(cache.rglob("*")) if cache.exists() else set()
    tracemalloc.start()
    began = time.perf_counter()
    try:
        with pytest.raises(DatabaseError) as refused:
            with open_database(path) as db:
                db.info()
                db.lookup(db.start)
                db.tier_counts()
                db.value_array()
                db.remoteness_array()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(refused.value)
    assert str(path) in message and message.isprintable() and "SECRET" not in message
    # making a misère game compiles its kernels once (minutes on a busy machine)
    assert time.perf_counter() - began < (900 if "misere" in case else 20) and peak < 64 << 20
    # the intact file's answer first: with an empty kernel cache its lookup compiles
    # and says so, which is not the commands' output
    with open_database(small_databases[kind]) as intact:
        start, answer = intact.start, intact.lookup(intact.start)
    capsys.readouterr()
    assert tiersolve(["info", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err[:-1].isprintable(), err
    assert "compiling" not in err
    code = tiersolve(["query", str(path), start])  # may be right: the start is not all
    out, err = capsys.readouterr()
    if code == 0:
        assert out.startswith(str(answer)) and not err, (out, err)
    else:
        assert code == 2 and err.count("\n") == 1 and err[:-1].isprintable(), err
    if cache.exists():
        assert not [entry for entry in set(cache.rglob("*")) - cached if "evil" in entry.name]


def test_older_files_are_refused_with_a_rebuild_message(small_databases, tmp_path, capsys):
    """A version 2 file (its metadata in attributes, strings in the unchecked global
    heap) is refused by its format_version attribute alone."""
    path = tmp_path / "old.h5"
    with h5py.File(path, "w") as old:
        old.attrs["format"] = "tiersolve-database"  # a variable-length string: never read
        old.attrs["format_version"] = 2
        old["value"] = np.zeros(3, np.uint8)
    with pytest.raises(DatabaseError, match="format version 2.*rebuild"):
        open_database(path)


def test_a_pipe_is_refused_not_waited_on(tmp_path):
    pipe = tmp_path / "pipe.h5"
    os.mkfifo(pipe)
    with pytest.raises(DatabaseError, match="not a regular file"):
        open_database(pipe)  # HDF5 would wait for a writer for ever


# -- a build killed at each step of its final write -----------------------------------------
def build_command(path: Path, reachable: bool) -> list[str]:
    return ["build", "1210", "--out", str(path), "--quiet", *(["--reachable"] if reachable else [])]


def assert_only_a_correct_database(path: Path, reference: Path) -> None:
    """``path`` is complete and answers as ``reference``, and nothing lies beside it."""
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    with open_database(path) as db, open_database(reference) as expected:
        assert (db.value_array() == expected.value_array()).all()
        assert (db.remoteness_array() == expected.remoteness_array()).all()
        assert db.info().start_value == expected.info().start_value == "win"
        assert db.lookup(db.start) == expected.lookup(expected.start)


#: (kind, step) of each kill: every step of a full build, two of a --reachable one.
KILLS = [("full", step) for step in CRASH_STEPS] + [("reachable", "before-rename"),
                                                    ("reachable", "after-rename")]


def test_a_build_killed_in_its_final_write_is_completed_by_the_next(tmp_path):
    """Builds killed at each step of the final write (all at once, each in its own
    process), then each run again: a complete, correct file, and nothing beside it."""
    references = {}
    for kind in ("full", "reachable"):
        references[kind] = tmp_path / f"reference-{kind}" / "1210.h5"
        build_database("1210", references[kind], reachable=kind == "reachable", progress=False)
    builds = {}
    for kind, step in KILLS:
        path = tmp_path / f"{kind}-{step}" / "1210.h5"
        path.parent.mkdir()
        builds[kind, step] = subprocess.Popen(
            [sys.executable, "-m", "tiersolve", *build_command(path, kind == "reachable")],
            env={**os.environ, CRASH_VARIABLE: step}, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)
    for (kind, step), build in builds.items():
        out, _ = build.communicate(timeout=900)
        assert build.returncode == 86, (kind, step, out)
    for kind, step in KILLS:
        path = tmp_path / f"{kind}-{step}" / "1210.h5"
        assert path.exists() == (step in ("renaming", "after-rename")), (kind, step)
        assert len(list(path.parent.iterdir())) > 1  # something was left to tidy
        assert tiersolve(build_command(path, kind == "reachable")) == 0
        assert_only_a_correct_database(path, references[kind])


# -- a reader while the database is rebuilt -------------------------------------------------
READER = """
import sys
from pathlib import Path
from tiersolve.databases import open_database
from tiersolve.errors import TiersolveError
path, stop, expected = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
while not stop.exists():
    try:
        with open_database(path) as db:
            record = db.lookup("(L 0)")
            info = db.info()
        right = f"{record.value} {record.remoteness}" == expected and info.start_value == "win"
        print("right" if right else f"wrong: {record} {info.start_value}", flush=True)
    except TiersolveError as error:
        print("refused:", error, flush=True)
"""


def test_a_reader_sees_the_old_or_the_new_file_and_never_stops_a_rebuild(tmp_path):
    """Rebuilds with --overwrite while another process opens and queries the file in a
    loop, answering between each two rebuilds: every rebuild succeeds, every answer
    is right (with HDF5's file locking, rebuilds would fail: "unable to lock file")."""
    path = tmp_path / "1210.h5"
    build_database("1210", path, progress=False)
    stop = tmp_path / "stop"
    reader = subprocess.Popen([sys.executable, "-c", READER, str(path), str(stop), "win 7"],
                              stdout=subprocess.PIPE, text=True)
    answers = []

    def next_answer() -> None:
        assert select.select([reader.stdout], [], [], 600)[0], "the reader stopped answering"
        answers.append(reader.stdout.readline().strip())

    try:
        next_answer()
        for _ in range(4):
            report = build_database("1210", path, progress=False, overwrite=True)
            assert (report.start_value, report.start_remoteness) == ("win", 7)
            next_answer()
    finally:
        stop.touch()
        out, _ = reader.communicate(timeout=120)
    answers += out.split("\n")[:-1]
    assert len(answers) >= 5 and set(answers) == {"right"}, answers
    stop.unlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


# -- a full disk ---------------------------------------------------------------------------
def disk_full(*args, **kwargs):
    """What h5py raises when the disk fills up under HDF5."""
    raise OSError("Can't write data (file write failed: time = now, filename = 'x', "
                  "errno = 28, error message = 'No space left on device')")


@pytest.mark.parametrize("where", ["tier files", "final write", "reachable tier files",
                                   "reachable final write"])
def test_a_full_disk_is_one_line_and_loses_nothing(where, tmp_path, monkeypatch, capsys):
    import tiersolve.databases.format as file_format
    import tiersolve.solver.reachable as reachable_solver

    path = tmp_path / "db" / "1210.h5"
    path.parent.mkdir()
    reachable = where.startswith("reachable")
    build_database("1210", path, reachable=reachable, progress=False)  # an older database
    before = path.read_bytes()
    reference = tmp_path / "reference.h5"
    reference.write_bytes(before)
    if where == "tier files":
        monkeypatch.setattr(file_format.PartialBuild, "_keep", disk_full)
    elif where == "reachable tier files":
        def short_write(*args, **kwargs):
            raise OSError("34 requested and 12 written")
        monkeypatch.setattr(reachable_solver.np, "save", short_write)
    else:
        monkeypatch.setattr(file_format.ChunkWriter, "write", disk_full)
    capsys.readouterr()
    assert tiersolve(build_command(path, reachable) + ["--overwrite", "--restart"]) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "the disk is full" in err and "needs up to" in err, err
    assert (str(path.parent) in err) and (("--work-dir" in err) != reachable)
    assert path.read_bytes() == before  # the older database is untouched
    assert not list(path.parent.glob("*.tmp")) and not list(path.parent.glob("*.lock"))
    monkeypatch.undo()
    assert tiersolve(build_command(path, reachable) + ["--overwrite"]) == 0  # resumes
    assert_only_a_correct_database(path, reference)


TMPFS_BUILD = """
mount -t tmpfs -o size=16k tmpfs "$1" && "$2" -m tiersolve build ttt --rows 3 --cols 3 \
    --out "$1/t.h5" --quiet; echo "tier files: $?"; ls -A "$1"; umount "$1"
mount -t tmpfs -o size=4k tmpfs "$1" && "$2" -m tiersolve build ttt --rows 3 --cols 3 \
    --out "$1/t.h5" --quiet --work-dir "$3"; echo "final write: $?"; ls -A "$1"
"""


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"),
                    reason="mounting a small tmpfs needs root (the test above simulates it)")
def test_a_full_tmpfs_is_one_line(tmp_path):
    """A real full disk: a 16 KB tmpfs for the tier files, a 4 KB one for the database
    (its tiers elsewhere, with --work-dir), mounted in a mount namespace of their own."""
    small, work = tmp_path / "small", tmp_path / "work"
    small.mkdir(), work.mkdir()
    run = subprocess.run(["unshare", "-m", "sh", "-c", TMPFS_BUILD, "sh", str(small),
                          sys.executable, str(work)], capture_output=True, text=True, timeout=600)
    if "mount" in run.stderr and "permission denied" in run.stderr.lower():
        pytest.skip("this container may not mount a tmpfs")
    errors = [line for line in run.stderr.splitlines() if line.startswith("tiersolve build:")]
    shown = [line for line in run.stdout.splitlines() if not line.startswith("ttt 3x3:")]  # plans
    assert shown == ["tier files: 2", "t.h5.partial", "final write: 2"], run.stdout
    assert len(errors) == 2 and all("the disk is full" in line and "--work-dir" in line
                                    for line in errors), run.stderr
    assert "keeping a solved tier failed" in errors[0] and "writing" in errors[1]
    assert sorted(p.name for p in work.iterdir()) == ["t.h5.partial"]  # kept for the rerun


# -- a build's own peak memory -------------------------------------------------------------
def test_a_build_reports_its_own_peak_memory_not_the_process_s(tmp_path):
    from tiersolve.databases.build import resident_bytes

    before = np.ones(512 << 20, np.uint8)  # half a GB, touched, then given back
    del before
    resident = resident_bytes()
    report = build_database("1210", tmp_path / "1210.h5", progress=False)
    assert resident // 2 < report.peak_rss_bytes < resident + (128 << 20)


@pytest.mark.slow
def test_the_memory_plan_holds_with_an_empty_kernel_cache(tmp_path):
    """Breakthrough 4x4 planned 198 MB and peaked at 720 MB when its kernels compiled
    inside the build; they now compile in child processes (KernelCompile)."""
    result = subprocess.run(
        [sys.executable, "-m", "tiersolve", "build", "breakthrough", "--rows", "4", "--cols", "4",
         "--out", str(tmp_path / "b.h5"), "--json"],
        env={**os.environ, "TIERSOLVE_CACHE_DIR": str(tmp_path / "empty-cache")},
        capture_output=True, text=True, timeout=3600)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert 0.7 <= report["peak_rss_bytes"] / report["planned_peak_bytes"] <= 1.3, report
