"""Databases of what play reaches (``build --reachable``): every game's reachable
positions have exactly the values of its full-index database, from its start and from
several other starts; lookups outside the set say so; the command line, and what a
reachable build reports (its solver, threads and compile time)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tiersolve.cli.build import build_main
from tiersolve.databases import UnreachedPositionError, build_database, open_database
from tiersolve.games import make_game
from tiersolve.solver import reachable, sorted_sets
from tiersolve.solver.common import SolverError
from tiersolve.solver.reachable import find_reachable, has_loopy_tiers, solve_reachable

from conftest import legal_indices, tiersolve
from test_conformance import CASES
from test_crosscheck import crosscheck


def other_starts(full, game, count: int, seed: int) -> list[str]:
    """Up to ``count`` legal positions of the full database, not finished games."""
    legal = legal_indices(full)
    moving = legal[full.lookup_indices(legal)[1] > 0]
    chosen = np.random.default_rng(seed).choice(moving, min(count, moving.size), replace=False)
    texts = full.positions(np.sort(chosen))
    return [t for t in texts if game.unreachable_reason(game.parse(t)) is None]


#: Games whose reachable builds every test run checks, one of each kind: plain
#: bottom-up, go-again moves, symmetry, positions left out of the index, loopy tiers.
#: Each game compiles its own reachable kernels (about half a minute), so the other
#: games are checked under ``-m slow``.
EVERY_RUN = {"ttt", "konane", "clobber", "breakthrough", "pousse"}


def by_kind(cases):
    """``cases`` as pytest parameters, those of games outside EVERY_RUN marked slow."""
    return [pytest.param(name, options, id=f"{name}-{options}",
                         marks=() if name in EVERY_RUN else pytest.mark.slow)
            for name, options in cases]


@pytest.mark.parametrize("name, options", by_kind(CASES))
def test_reachable_positions_have_the_full_databases_values(database, tmp_path, name, options):
    full = database(name, **options)
    game = make_game(name, **options)
    starts = [game.default_start()] + other_starts(full, game, 6, seed=len(name))
    report = build_database(game, tmp_path / "r.h5", reachable=True, starts=starts, progress=False)
    with open_database(tmp_path / "r.h5") as reached:
        stored = reached.stored_indices()
        assert reached.reachable_from == [game.format(game.parse(s)) for s in starts]
        assert report.positions == stored.size == len(reached.value_array())
        assert np.all(np.diff(stored) > 0)
        values, remoteness = full.lookup_indices(stored)
        assert np.array_equal(reached.value_array(), values)
        assert np.array_equal(reached.remoteness_array(), remoteness)
        assert not np.isin(values, [0, 5]).any()  # every stored position is legal and canonical
        # closed under moves: each stored position's children are stored (or finished games)
        for state in reached.decode(stored[:: max(1, stored.size // 50)]):
            for child in game.children(state):
                if game.terminal_value(child.state) is None:
                    assert game.index(child.state) in stored
        keys, counts = reached.tier_counts()
        assert counts.sum() == stored.size and report.counts["win"] == counts[:, 1].sum()


ACYCLIC = [(name, options) for name, options in CASES
           if not has_loopy_tiers(make_game(name, **options))]


@pytest.mark.parametrize("name, options", by_kind(ACYCLIC))
def test_bottom_up_and_graph_solutions_agree(database, name, options):
    """Games without loopy tiers are solved bottom-up by default; the graph solver,
    which loopy games use, must give the same arrays."""
    full = database(name, **options)
    game = make_game(name, **options)
    starts = [game.default_start()] + other_starts(full, game, 6, seed=1)
    indices = [game.index(game.parse(text)) for text in starts]
    graph = solve_reachable(game, indices, method="graph")
    bottom_up = solve_reachable(game, indices, method="bottom-up")
    for name_ in ("indices", "value", "remoteness"):
        assert np.array_equal(getattr(graph, name_), getattr(bottom_up, name_))


def test_the_search_finds_exactly_what_play_reaches():
    """Breadth first over the game's own moves, compared with a plain walk of
    ``Game.children``."""
    game = make_game("surround", rows=3, cols=4)
    seen, frontier = {game.index(game.start())}, [game.start()]
    while frontier:
        state = frontier.pop()
        for child in game.children(state):
            if game.terminal_value(child.state) is None and game.index(child.state) not in seen:
                seen.add(game.index(child.state))
                frontier.append(child.state)
    found = find_reachable(game, np.array([game.index(game.start())]))
    assert found.tolist() == sorted(seen)


def test_surround_reachable_agrees_with_the_reference(tmp_path):
    """The plain-Python reference plays Surround with body colours; every position it
    reaches from the start is answered, by text, with its value and remoteness."""
    build_database("surround", tmp_path / "s.h5", rows=3, cols=5, reachable=True, progress=False)
    with open_database(tmp_path / "s.h5") as db:
        start = db.start
        assert crosscheck(db, "surround", {"rows": 3, "cols": 5}, [start]) >= db.info().positions


def test_positions_outside_the_set_say_so(tmp_path):
    build_database("ttt", tmp_path / "t.h5", rows=3, cols=3, reachable=True,
                   starts=["(o x-- --- ---)"], progress=False)
    with open_database(tmp_path / "t.h5") as db:
        assert db.lookup("(x xo- --- ---)").value in ("win", "tie", "lose")
        with pytest.raises(UnreachedPositionError, match="not reachable from this database's "
                                                         r"starts \(\(o x-- --- ---\)\)"):
            db.lookup("(o -x- --- ---)")
        assert db.get("(o -x- --- ---)") is None
        with pytest.raises(UnreachedPositionError):
            db.lookup_indices([db.index("(o -x- --- ---)")])
        assert "those reachable from (o x-- --- ---)" in db.info().text()


def test_command_line(tmp_path, capsys):
    out = str(tmp_path / "k.h5")
    argv = ["konane", "--rows", "4", "--cols", "4", "--reachable", "--quiet", "--out", out]
    assert build_main(argv + ["--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["positions"] > 0 and report["description"] == "konane 4x4 (reachable)"
    assert build_main(argv) == 0
    assert "nothing to do" in capsys.readouterr().out
    assert build_main(argv + ["--start", '(b "" bwbw -bwb -wbw w-wb)']) == 2  # other starts
    assert "already holds the positions reachable from" in capsys.readouterr().err
    assert build_main(argv + ["--plan"]) == 2
    assert build_main(["ttt", "--start", "(x --- --- ---)", "--start", "(o x-- --- ---)",
                       "--rows", "3", "--cols", "3", "--out", str(tmp_path / "t.h5")]) == 2
    assert "--start is given once" in capsys.readouterr().err
    assert build_main(["ttt", "--rows", "3", "--cols", "3", "--reachable", "--quiet",
                       "--start", "(x xxx ooo ---)", "--out", str(tmp_path / "t.h5")]) == 2
    assert "is not a legal position" in capsys.readouterr().err


def test_a_full_build_does_not_take_a_reachable_file_for_itself(tmp_path, capsys):
    out = str(tmp_path / "t.h5")
    argv = ["ttt", "--rows", "3", "--cols", "3", "--quiet", "--out", out]
    assert build_main(argv + ["--reachable"]) == 0
    assert build_main(argv) == 2  # same game and start, but only what play reaches
    assert "already holds only the positions reachable from (x --- --- ---), not every" \
        in capsys.readouterr().err


def test_sorted_unique_by_radix_sort():
    """Large arrays take the radix sort, small ones numpy's; both give np.unique."""
    rng = np.random.default_rng(7)
    for size, high in ((0, 1), (1, 5), (1000, 50), (70_000, 2**38), (300_000, 1000),
                       (200_000, 2**62)):
        values = rng.integers(0, high, size)
        assert np.array_equal(sorted_sets.sorted_unique(values), np.unique(values))


@pytest.mark.parametrize("merge_at", [1, 3, 100_000])
def test_pending_children_switch_to_a_bitmap(monkeypatch, merge_at):
    """A tier's waiting children merge as they grow and become a bitmap once that is
    smaller; the positions come out sorted and distinct either way."""
    monkeypatch.setattr(reachable, "MERGE_AT", merge_at)
    rng = np.random.default_rng(merge_at)
    pending, everything = reachable._Pending(size=5000, bitmap_limit=1 << 20), []
    for _ in range(40):
        block = np.unique(rng.integers(0, 5000, 300))
        pending.add(block)
        everything.append(block)
    assert (pending.bits is not None) == (merge_at < 100_000)  # merged, then a bitmap
    assert np.array_equal(pending.result(), np.unique(np.concatenate(everything)))


@pytest.mark.parametrize("name, options", [("konane", {"rows": 4, "cols": 4}),
                                           ("breakthrough", {"rows": 4, "cols": 3}),
                                           ("clobber", {"rows": 3, "cols": 4, "symmetry": True})])
def test_tiers_on_disk_and_as_bitmaps_give_the_same_solution(monkeypatch, tmp_path, name, options):
    """Tiers kept in files, and children deduplicated in bitmaps (forced by merging
    at once), give the arrays of the in-memory search; the graph solver agrees."""
    game = make_game(name, **options)
    start = [game.index(game.start())]
    in_memory = solve_reachable(game, start)
    monkeypatch.setattr(reachable, "MERGE_AT", 1)
    tiered = solve_reachable(game, start, store=reachable.TierStore(tmp_path / "tiers"))
    assert sorted(p.name for p in (tmp_path / "tiers").iterdir())[0].endswith(".npy")
    on_disk = tiered.whole()
    graph = solve_reachable(game, start, method="graph")
    for name_ in ("indices", "value", "remoteness"):
        assert np.array_equal(getattr(in_memory, name_), getattr(on_disk, name_))
        assert np.array_equal(getattr(graph, name_), getattr(on_disk, name_))
    assert tiered.size == in_memory.indices.size > 100
    sliced = [np.concatenate(column) for column in zip(*tiered.parts(rows=7))]  # as written
    assert all(np.array_equal(a, getattr(on_disk, n))
               for a, n in zip(sliced, ("indices", "value", "remoteness")))


def test_child_lookups_through_the_bucket_directory():
    """``_find`` answers every stored value with its row and every other one with -1,
    for sets much sparser and much denser than their tier."""
    rng = np.random.default_rng(3)
    for size, count in ((1, 1), (2, 1), (1000, 1000), (1 << 20, 17), (12345, 3000)):
        positions = np.unique(rng.integers(0, size, count))
        directory, shift = reachable._directory(positions, size)
        probes = np.unique(np.concatenate([positions, rng.integers(0, size, 200), [0, size - 1]]))
        rows = [reachable._find(positions.ctypes.data, directory.ctypes.data, shift, int(p))
                for p in probes]
        expected = [int(np.searchsorted(positions, p)) if p in set(positions.tolist()) else -1
                    for p in probes]
        assert rows == expected


def test_a_stopped_reachable_build_resumes_from_its_tiers(monkeypatch, tmp_path, capsys):
    """Stopped (as by Ctrl-C) after its search and two solved tiers, the build keeps
    them in <out>.tiers/; the same command finishes from there and writes the file a
    build from nothing writes. Another start is refused until --restart."""
    argv = ["konane", "--rows", "4", "--cols", "4", "--reachable", "--quiet"]
    assert build_main(argv + ["--out", str(tmp_path / "fresh.h5")]) == 0
    out = tmp_path / "k.h5"
    real_put, solved = reachable.TierStore.put, []

    def stop_after_two(self, kind, tier, array):
        if kind == "records" and len(solved) == 2:
            raise KeyboardInterrupt
        real_put(self, kind, tier, array)
        solved.extend([tier] if kind == "records" else [])

    monkeypatch.setattr(reachable.TierStore, "put", stop_after_two)
    assert build_main(argv + ["--out", str(out)]) == 130
    assert "resume from the tiers it finished" in capsys.readouterr().err
    kept = out.with_name("k.h5.tiers")
    assert sorted(p.name for p in kept.glob("records-*")) == [f"records-{t:06d}.npy" for t in sorted(solved)]
    monkeypatch.setattr(reachable.TierStore, "put", real_put)
    other = argv + ["--out", str(out), "--start", '(b "" bwbw -bwb -wbw w-wb)']
    assert build_main(other) == 2 and "--restart" in capsys.readouterr().err
    assert build_main(argv + ["--out", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["resumed_tiers"] == 2 and not kept.exists()
    with open_database(out) as resumed, open_database(tmp_path / "fresh.h5") as fresh:
        for name_ in ("stored_indices", "value_array", "remoteness_array"):
            assert np.array_equal(getattr(resumed, name_)(), getattr(fresh, name_)())


def test_waiting_children_spill_to_bucket_files(monkeypatch, tmp_path):
    """Where no bitmap is affordable, a tier's waiting children go to bucket files on
    disk; they come back sorted and distinct, and the files and folder are removed."""
    monkeypatch.setattr(reachable, "MERGE_AT", 1)
    monkeypatch.setattr(reachable, "SPILL_AT", 10)
    monkeypatch.setattr(reachable, "SPILL_BUCKETS", 7)
    rng = np.random.default_rng(5)
    pending, everything = reachable._Pending(100_000, bitmap_limit=0, spill=tmp_path / "w"), []
    for _ in range(30):
        block = np.unique(rng.integers(0, 100_000, 500))
        pending.add(block)
        everything.append(block)
    assert pending.bounds is not None and len(list((tmp_path / "w").iterdir())) == 7
    assert np.array_equal(pending.result(), np.unique(np.concatenate(everything)))
    assert not (tmp_path / "w").exists()  # the bucket files and their folder
    # and a whole search that spills gives the in-memory solution
    game = make_game("konane", rows=4, cols=4)
    start = [game.index(game.start())]
    monkeypatch.setattr(reachable, "SPILL_AT", 2)
    monkeypatch.setattr(reachable, "BITMAP_LIMIT", 0)
    real_append, appended = reachable._Pending._append, []
    monkeypatch.setattr(reachable._Pending, "_append",
                        lambda self, part: appended.append(part.size) or real_append(self, part))
    spilled = solve_reachable(game, start, store=reachable.TierStore(tmp_path / "t")).whole()
    assert sum(appended) > 1000 and not list((tmp_path / "t").glob("waiting-*"))
    monkeypatch.setattr(reachable, "SPILL_AT", 1 << 40)
    plain = solve_reachable(game, start)
    assert all(np.array_equal(getattr(spilled, n), getattr(plain, n))
               for n in ("indices", "value", "remoteness"))


def test_a_write_short_of_disk_frees_each_tier_as_it_goes(monkeypatch, tmp_path):
    """With less disk free than the file may need, the tiers' files go as the file
    takes them; the file is the same."""
    from tiersolve.databases import reachable as reachable_db

    build_database("konane", tmp_path / "a.h5", rows=4, cols=4, reachable=True, progress=False)
    dropped = []
    real_drop = reachable.TierStore.drop
    monkeypatch.setattr(reachable.TierStore, "drop",
                        lambda self, kind, tier: dropped.append(kind) or real_drop(self, kind, tier))
    monkeypatch.setattr(reachable_db, "WRITTEN_BYTES", 1 << 50)
    build_database("konane", tmp_path / "b.h5", rows=4, cols=4, reachable=True, progress=False)
    assert dropped.count("records") == dropped.count("positions") > 5
    with open_database(tmp_path / "a.h5") as a, open_database(tmp_path / "b.h5") as b:
        for name_ in ("stored_indices", "value_array", "remoteness_array"):
            assert np.array_equal(getattr(a, name_)(), getattr(b, name_)())


def test_lookups_read_the_fence_and_one_chunk(tmp_path):
    """A reachable file of several chunks answers through its index fence (the first
    index of each chunk) exactly as from the whole index: every stored index, the
    indices between them (not reachable), and the rows of its tiers."""
    build_database("clobber", tmp_path / "k.h5", rows=4, cols=4, reachable=True, progress=False)
    with open_database(tmp_path / "k.h5") as fenced, open_database(tmp_path / "k.h5") as whole:
        stored = whole.stored_indices()  # this one reads all of its index
        assert stored.size > 3 * 65536 and fenced._stored_cache is None
        values, remoteness = fenced.lookup_indices(stored[::-7])
        assert fenced._stored_cache is None  # only the fence and the chunks were read
        assert np.array_equal(values, whole.value_array()[::-7])
        assert np.array_equal(remoteness, whole.remoteness_array()[::-7])
        gaps = np.setdiff1d(np.arange(max(stored[0] - 3, 0), stored[-1] + 3, 997), stored)
        rows, found = fenced._locate(gaps)
        assert not found.any() and np.array_equal(rows, np.searchsorted(stored, gaps))
        with pytest.raises(UnreachedPositionError):
            fenced.lookup_indices(gaps[:1])
        for a, b in zip(fenced.tier_counts(), whole.tier_counts()):
            assert np.array_equal(a, b)


def test_a_child_missing_from_its_tier_is_named():
    """The solve checks every move against the stored tiers: a position the search
    lost is reported with the index that reaches it, never given a value."""
    game = make_game("konane", rows=3, cols=4)
    store = reachable.TierStore()
    counts = reachable.search_tiers(game, np.array([game.index(game.start())]), store)
    tier = max(t for t, n in counts.items() if n > 1 and t != max(counts))
    lost = int(store.get("positions", tier)[0])
    store.put("positions", tier, store.get("positions", tier)[1:])
    counts[tier] -= 1
    with pytest.raises(SolverError, match=r"reached by play has a move to a position the search "
                                          rf"did not find \(index {lost + game.tiers.offsets[tier]}\)"):
        reachable.solve_tiers(game, counts, store)


def test_a_finished_game_without_a_value_is_named():
    """A move to an unindexed finished game must carry WIN, LOSE, TIE or DRAW (a
    child's score is read from a table by that code): Breakthrough whose finished
    games carry 9 is refused with the index that has the move."""
    from test_conformance import valueless_breakthrough

    game = valueless_breakthrough(rows=4, cols=2)
    store = reachable.TierStore()
    counts = reachable.search_tiers(game, np.array([game.index(game.start())]), store)
    with pytest.raises(SolverError, match=r"reached by play has a move to a finished game that is "
                                          r"not indexed, whose value code 9 is not WIN, LOSE, TIE"):
        reachable.solve_tiers(game, counts, store)


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
