"""The tier solver on random move graphs, against the plain-Python reference solver:
tiers with and without cycles, moves between tiers, ties, draws, passes, illegal
nodes, terminal moves and same-player-moves-again moves; both ways of solving a
loopy tier (un-moves and value iteration); threads; and the contract checks."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import numpy as np
import pytest

from tiersolve.contract import TierType
from tiersolve.games import GAMES, game_class, make_game
from tiersolve.jit import jit
from tiersolve.solver import loopy, tiers
from tiersolve.solver.common import SolverError
from tiersolve.solver.records import record_none
from tiersolve.solver.tiers import solve
from tiersolve.values import (
    DRAW,
    ILLEGAL,
    LOSE,
    NONCANONICAL,
    TIE,
    UNDECIDED,
    VALUE_BITS,
    VALUE_MASK,
    WIN,
)

from reference.solve import solve as reference_solve

NAMES = {WIN: "win", LOSE: "lose", TIE: "tie", DRAW: "draw"}


@jit(cache=False)
def graph_expand(data, tier, local, out, state, child, moves):
    """A game given as explicit arrays: edge lists, same-mover flags, primitive codes.
    Targets are global node numbers; a negative target is a move to an unindexed
    finished game with value -target."""
    offsets, starts, targets, same_mover, primitives, node_tier, _, _, _ = data
    node = offsets[tier] + local
    if primitives[node] != UNDECIDED:
        return -np.int64(primitives[node])
    count = 0
    for edge in range(starts[node], starts[node + 1]):
        target = targets[edge]
        if target >= 0:
            out[count, 0] = node_tier[target]
            out[count, 1] = target - offsets[node_tier[target]]
        else:
            out[count, 0] = -1
            out[count, 1] = -target
        out[count, 2] = same_mover[edge]
        out[count, 3] = edge
        count += 1
    return count


@jit(cache=False)
def graph_parents(data, tier, local, out, state, other):
    """In-tier reverse edges: ``(parent local << 1) | same_mover``."""
    offsets, _, _, _, _, _, parent_starts, parent_list, _ = data
    node = offsets[tier] + local
    count = 0
    for k in range(parent_starts[node], parent_starts[node + 1]):
        out[count] = parent_list[k]
        count += 1
    return count


@jit(cache=False)
def graph_sweep_level(data, tier, local, state):
    """The node's level (``GraphGame.levels``)."""
    return data[8][data[0][tier] + local]


# The compiled solver kernels embed these functions; name them after this file's
# contents so that an edited test never loads a stale kernel from the cache.
_LABEL = "graphtest_" + hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]


class GraphGame:
    """A move graph in tiers, in the solver's contract and in the reference's.

    ``edges[node]`` lists (target node, same_mover); a negative target is a move to
    a finished game that is not indexed, with value code -target. Tiers in
    ``loopy_tiers`` are LOOPY, the others SWEEP (their moves inside the tier must go
    to higher nodes). With ``leveled``, SWEEP tiers have a ``sweep_level``: a node's
    longest path inside its tier, or ``levels`` if set."""

    name = "graph"
    state_size = 1
    remoteness_bound = None
    leveled = False
    levels: np.ndarray | None = None

    def __init__(self, sizes, edges, primitives, loopy_tiers=(), use_parents=True):
        self.tier_sizes = np.array(sizes, dtype=np.int64)
        self.loopy_tiers = set(loopy_tiers)
        self.edges = edges
        self.primitives = np.array(primitives, dtype=np.int64)
        self.use_parents = use_parents
        self.declared: dict[int, set[int]] = {}
        self.rebuild()

    @classmethod
    def random(cls, seed, sizes, loopy=(), same_mover_share=0.0, terminal_share=0.0,
               use_parents=True, illegal_share=0.3):
        """Tier t's nodes move inside tier t (to any node if t is loopy, else only to
        higher ones) or to nodes of lower tiers. ``loopy``: True for every tier, or a set."""
        rng = random.Random(seed)
        loopy = set(range(len(sizes))) if loopy is True else set(loopy or ())
        offsets = np.concatenate([[0], np.cumsum(sizes)])
        total = int(offsets[-1])
        edges, primitives = [], [UNDECIDED] * total
        for node in range(total):
            tier = int(np.searchsorted(offsets, node, side="right")) - 1
            inside = range(int(offsets[tier]), int(offsets[tier + 1])) if tier in loopy \
                else range(node + 1, int(offsets[tier + 1]))
            below = range(0, int(offsets[tier]))
            targets = []
            for _ in range(0 if rng.random() < 0.15 else rng.randint(1, 4)):
                roll = rng.random()
                if roll < terminal_share:
                    targets.append(-rng.choice([WIN, LOSE, LOSE, TIE]))
                elif (roll < 0.7 or not below) and inside:
                    targets.append(rng.choice(inside))
                elif below:
                    targets.append(rng.choice(below))
            edges.append([(t, int(rng.random() < same_mover_share)) for t in targets])
            if not targets:
                primitives[node] = rng.choice([WIN, LOSE, LOSE, TIE])
        pointed = {t for node_edges in edges for t, _ in node_edges if t >= 0}
        for node in range(total):  # a few illegal nodes that nothing points to
            if node not in pointed and rng.random() < illegal_share:
                primitives[node] = ILLEGAL
                edges[node] = []
        return cls(sizes, edges, primitives, loopy, use_parents)

    def rebuild(self):
        """The numba data from ``edges`` and ``primitives``."""
        sizes = self.tier_sizes
        offsets = np.zeros(len(sizes) + 1, dtype=np.int64)
        offsets[1:] = np.cumsum(sizes)
        total = int(offsets[-1])
        node_tier = np.repeat(np.arange(len(sizes)), sizes).astype(np.int64)
        flat = [edge for node_edges in self.edges for edge in node_edges]
        starts = np.zeros(total + 1, dtype=np.int64)
        starts[1:] = np.cumsum([len(node_edges) for node_edges in self.edges])
        reverse: list[list[int]] = [[] for _ in range(total)]
        for node, node_edges in enumerate(self.edges):
            for target, same in node_edges:
                if target >= 0 and node_tier[target] == node_tier[node]:
                    reverse[target].append(((node - int(offsets[node_tier[node]])) << 1) | same)
        parent_starts = np.zeros(total + 1, dtype=np.int64)
        parent_starts[1:] = np.cumsum([len(r) for r in reverse])
        levels = self.levels
        if levels is None:  # longest path inside the tier: in-tier moves go to higher nodes
            levels = np.zeros(total, dtype=np.int64)
            for node, node_edges in enumerate(self.edges):
                for target, _ in node_edges:
                    if target >= 0 and node_tier[target] == node_tier[node]:
                        levels[target] = max(levels[target], levels[node] + 1)
        self.data = (offsets, starts, np.array([t for t, _ in flat] or [0], dtype=np.int64),
                     np.array([s for _, s in flat] or [0], dtype=np.int64), self.primitives,
                     node_tier, parent_starts,
                     np.array([p for r in reverse for p in r] or [0], dtype=np.int64), levels)
        self.sweep_level = graph_sweep_level if self.leveled else None
        self.sweep_levels = int(levels.max(initial=0)) + 1 if self.leveled else 0
        self.max_moves = max(4, max(len(node_edges) for node_edges in self.edges))
        self.max_parents = max(1, max(len(r) for r in reverse))
        self.expand = graph_expand
        self.expand_counts_references = False  # graph_expand allocates nothing
        self.parents = graph_parents if self.use_parents else None
        self.kernel_label = _LABEL + ("_parents" if self.use_parents else "_iterate")

    def tier_children(self, tier):
        return self.declared.get(tier, set(range(tier + 1)))

    def tier_type(self, tier):
        return TierType.LOOPY if tier in self.loopy_tiers else TierType.SWEEP

    def position_text(self, tier, local):
        return f"<node {int(self.data[0][tier]) + local}>"

    # the reference solver's protocol; a terminal child is the state ("end", value code)
    def moves(self, node):
        return [(t if t >= 0 else ("end", -t), bool(s)) for t, s in self.edges[node]]

    def primitive(self, node):
        if isinstance(node, tuple):
            return NAMES[node[1]]
        code = int(self.primitives[node])
        return NAMES.get(code) if code != UNDECIDED else None


def solved(game, threads=2) -> tuple[np.ndarray, np.ndarray, object]:
    """(value codes, remoteness with -1 for none, stats) of every node."""
    arrays = {}
    stats = solve(game, threads=threads, progress=False,
                  sink=lambda tier, records, counts, longest: arrays.__setitem__(tier, records.copy()))
    records = np.concatenate([arrays[t] for t in range(len(game.tier_sizes))])
    values = (records & VALUE_MASK).astype(np.int64)
    remoteness = (records >> VALUE_BITS).astype(np.int64)
    remoteness[remoteness == record_none(records.dtype)] = -1
    return values, remoteness, stats


def as_reference(values, remoteness):
    return {node: (NAMES[v], None if r < 0 else int(r))
            for node, (v, r) in enumerate(zip(values.tolist(), remoteness.tolist())) if v != ILLEGAL}


def reference(game):
    legal = [n for n in range(len(game.primitives)) if game.primitives[n] != ILLEGAL]
    return {s: r for s, r in reference_solve(game, legal).items() if not isinstance(s, tuple)}


def tiny_rounds(monkeypatch):
    """Update buffers with room for one position's parents, and buckets of one block:
    every level of a loopy tier takes a round per position it spreads."""
    monkeypatch.setattr(loopy, "chunk_count", lambda game, size: max(game.max_parents, 1) + 1)
    monkeypatch.setattr(loopy, "CHUNK", 2)
    monkeypatch.setattr(loopy, "MIN_BUCKET_BITS", 6)


def variety(seed):
    return {"same_mover_share": 0.3 if seed % 2 else 0.0, "terminal_share": 0.2 if seed % 3 else 0.0}


@pytest.mark.parametrize("seed", range(10))
def test_random_acyclic_tiers(seed):
    game = GraphGame.random(seed, [60, 120, 90, 30], **variety(seed))
    values, remoteness, _ = solved(game)
    assert as_reference(values, remoteness) == reference(game)


@pytest.mark.parametrize("use_parents", [True, False], ids=["unmoves", "iteration"])
@pytest.mark.parametrize("seed", range(10))
def test_random_loopy_tiers(monkeypatch, seed, use_parents):
    if seed % 2:  # room for one position's parents: a round ends after every position
        tiny_rounds(monkeypatch)
    game = GraphGame.random(100 + seed, [80, 150, 120], loopy=True, use_parents=use_parents,
                            **variety(seed))
    values, remoteness, stats = solved(game)
    assert as_reference(values, remoteness) == reference(game)
    assert stats.counts[ILLEGAL] == int((game.primitives == ILLEGAL).sum())


@pytest.mark.parametrize("seed", range(4))
def test_a_game_mixing_tier_types_against_the_reference(seed):
    game = GraphGame.random(300 + seed, [40, 90, 60, 80], loopy={1, 3}, **variety(seed + 1))
    values, remoteness, _ = solved(game)
    assert as_reference(values, remoteness) == reference(game)


@pytest.mark.parametrize("seed", range(6))
def test_an_acyclic_graph_solved_as_loopy_tiers_gives_the_same_result(seed):
    sweep = GraphGame.random(seed, [50, 100, 70], **variety(seed))
    as_loopy = GraphGame.random(seed, [50, 100, 70], **variety(seed))
    as_loopy.loopy_tiers = {0, 1, 2}
    first, second = solved(sweep), solved(as_loopy)
    assert np.array_equal(first[0], second[0]) and np.array_equal(first[1], second[1])


def test_random_graphs_cover_every_value():
    seen = set()
    for seed in range(10):
        values, _, _ = solved(GraphGame.random(100 + seed, [80, 150, 120], True, **variety(seed)))
        seen |= set(values.tolist())
    assert {WIN, LOSE, TIE, DRAW, ILLEGAL} <= seen


@pytest.mark.parametrize("use_parents", [True, False], ids=["unmoves", "iteration"])
def test_loopy_results_do_not_depend_on_the_number_of_threads(monkeypatch, use_parents):
    monkeypatch.setattr(tiers, "LOOPY_CHUNK", 16)  # many chunks per phase, shared by threads
    tiny_rounds(monkeypatch)  # and rounds that end at other places with 1 and 2 threads
    for seed in range(4):
        game = GraphGame.random(200 + seed, [300, 600], loopy=True, use_parents=use_parents,
                                **variety(seed))
        one, two = solved(game, threads=1), solved(game, threads=2)
        assert np.array_equal(one[0], two[0]) and np.array_equal(one[1], two[1])


def chain(loopy: bool) -> GraphGame:
    """Tier 0: ten lost positions; tier 1: a chain 10 -> 11 -> ... -> 19 -> a finished
    game lost for the player to move there."""
    edges = [[] for _ in range(10)] + [[(node + 1, 0)] for node in range(10, 19)] + [[(-LOSE, 0)]]
    return GraphGame([10, 10], edges, [LOSE] * 10 + [UNDECIDED] * 10, {1} if loopy else ())


@pytest.mark.parametrize("loopy", [False, True], ids=["sweep", "loopy"])
def test_a_move_into_an_illegal_position_of_a_solved_tier_is_refused(loopy):
    assert solved(chain(loopy))[0].tolist() == [LOSE] * 10 + [LOSE, WIN] * 5  # unbroken: fine
    game = chain(loopy)
    game.primitives[3] = ILLEGAL
    game.edges[15].append((3, 0))
    game.rebuild()
    with pytest.raises(SolverError, match=r"<node 15> \(index 5 of tier 1\) leads to <node 3> "
                                          r"\(index 3 of tier 0\), which the game marks illegal"):
        solved(game)


@pytest.mark.parametrize("code", [9, NONCANONICAL])
@pytest.mark.parametrize("loopy", [False, True], ids=["sweep", "loopy"])
def test_a_move_to_an_unindexed_finished_game_without_a_value_is_refused(loopy, code):
    """A finished game that is not indexed must come with WIN, LOSE, TIE or DRAW: a
    child's score is read from a table by its code, which would read past it."""
    game = chain(loopy)
    game.edges[15].append((-code, 0))
    game.rebuild()
    with pytest.raises(SolverError, match=r"<node 15> \(index 5 of tier 1\) leads to a finished "
                                          rf"game that is not indexed, whose value code {code} is "
                                          r"not WIN, LOSE, TIE or DRAW"):
        solved(game)


@pytest.mark.parametrize("use_parents", [True, False], ids=["unmoves", "iteration"])
@pytest.mark.parametrize("other_move", [False, True], ids=["only-move", "beside-another-move"])
def test_a_move_into_an_illegal_position_of_the_same_loopy_tier_is_refused(use_parents, other_move):
    """Node 15's move to the illegal node 12 could change its value; it is refused
    whether or not node 15 has another move."""
    game = chain(True)
    game.use_parents = use_parents
    game.primitives[12] = ILLEGAL
    game.edges[12] = []
    game.edges[11] = [(13, 0)]
    game.edges[15] = [(12, 0)] + ([(16, 0)] if other_move else [])
    game.rebuild()
    with pytest.raises(SolverError, match=r"<node 15> \(index 5 of tier 1\) leads to <node 12> "
                                          r"\(index 2 of tier 1\), which the game marks illegal"):
        solved(game)


def test_a_draw_found_when_its_tier_starts_is_counted_as_a_draw():
    """Node 2's only move leaves its tier for a draw (nodes 0 and 1 move to each
    other), so it is a draw from the start and never spread; node 3 moves to it. The
    final count of moves into undecided positions includes node 2's parents."""
    game = GraphGame([2, 2], [[(1, 0)], [(0, 0)], [(0, 0)], [(2, 0)]], [UNDECIDED] * 4, {0, 1})
    assert solved(game)[0].tolist() == [DRAW] * 4


def test_un_moves_that_miss_a_parent_of_a_draw_are_refused():
    """Nodes 0 and 1 move to each other (draws) and node 2 moves to node 1 (a draw);
    the un-moves of node 1 leave node 2 out. Drawn positions' moves are counted from
    both ends after the levels, and the counts differ."""
    game = GraphGame([3], [[(1, 0)], [(0, 0)], [(1, 0)]], [UNDECIDED] * 3, {0})
    assert solved(game)[0].tolist() == [DRAW, DRAW, DRAW]  # unbroken: fine
    parent_starts, parent_list = game.data[6].copy(), game.data[7].copy()
    assert parent_list[parent_starts[1]:parent_starts[2]].tolist() == [0 << 1, 2 << 1]
    parent_list[parent_starts[1] + 1] = 0 << 1  # node 2's un-move gives node 0 again
    game.data = (*game.data[:7], parent_list, game.data[8])
    with pytest.raises(SolverError, match=r"tier 0 left undecided and the un-moves from them "
                                          r"differ by 1: the un-move generator misses or adds"):
        solved(game)


@pytest.mark.parametrize("loopy", [False, True], ids=["sweep", "loopy"])
def test_a_move_into_a_tier_that_is_not_declared_is_refused(loopy):
    game = chain(loopy)
    game.edges[15].append((4, 0))
    game.rebuild()
    game.declared = {1: {1}}
    with pytest.raises(SolverError, match=r"<node 15> \(index 5 of tier 1\) leads to tier 0, "
                                          r"which is not solved before tier 1"):
        solved(game)


def test_a_sweep_tier_moving_down_is_refused():
    game = chain(False)
    game.edges[15].append((12, 0))
    game.rebuild()
    with pytest.raises(SolverError, match=r"<node 15> .*stays in its sweep tier and leads to "
                                          r"index 2 of tier 1"):
        solved(game)


@pytest.mark.parametrize("seed", range(6))
def test_leveled_sweeps_give_the_plain_sweep_and_the_reference_result(monkeypatch, seed):
    """SWEEP tiers solved level by level on 2 threads (every tier, however small, in
    chunks of 16) against the same graph swept by one thread, and the reference."""
    monkeypatch.setattr(tiers, "LEVELED_SWEEP_MIN", 0)
    monkeypatch.setattr(tiers, "CHUNK", 16)
    game = GraphGame.random(300 + seed, [200, 400, 300], **variety(seed))
    plain = solved(game, threads=2)
    game.leveled = True
    game.rebuild()
    assert game.sweep_levels > 3
    assert tiers.leveled(game, 1, threads=2) and not tiers.leveled(game, 1, threads=1)
    stepped = solved(game, threads=2)
    assert np.array_equal(plain[0], stepped[0]) and np.array_equal(plain[1], stepped[1])
    assert as_reference(stepped[0], stepped[1]) == reference(game)


def leveled_chain(levels) -> GraphGame:
    game = chain(False)
    game.leveled = True
    game.levels = np.array(levels, dtype=np.int64)
    game.rebuild()
    return game


def test_a_sweep_level_that_does_not_rise_is_refused(monkeypatch):
    """Nodes 14 and 17 move to nodes on their own level; levels are solved from the
    highest down, so node 17 is named (the lowest such node of its level)."""
    monkeypatch.setattr(tiers, "LEVELED_SWEEP_MIN", 0)
    monkeypatch.setattr(tiers, "CHUNK", 2)
    game = leveled_chain([0] * 10 + [0, 1, 2, 3, 4, 4, 6, 7, 7, 9])
    with pytest.raises(SolverError, match=r"<node 17> \(index 7 of tier 1\) stays in its sweep "
                                          r"tier and leads to index 8 of tier 1, whose sweep_level "
                                          r"is not higher"):
        solved(game)
    assert solved(game, threads=1)[0][10] == LOSE  # one thread sweeps by index, no levels


def test_a_sweep_level_outside_the_declared_levels_is_refused(monkeypatch):
    monkeypatch.setattr(tiers, "LEVELED_SWEEP_MIN", 0)
    game = leveled_chain([0] * 10 + list(range(10)))
    game.sweep_levels = 8
    with pytest.raises(SolverError, match=r"sweep_level gives <node 18> \(index 8 of tier 1\) "
                                          r"level 8, outside 0..7"):
        solved(game)


LEVELED_CASES = [
    ("northcott", {"rows": 4, "cols": 6}),
    ("northcott", {"rows": 3, "cols": 7, "misere": True}),
]


@pytest.mark.parametrize("name, options", LEVELED_CASES)
def test_games_swept_by_levels_match_one_thread(monkeypatch, name, options):
    """Every SWEEP tier, however small, level by level on two threads, against the
    same game swept index by index on one."""
    monkeypatch.setattr(tiers, "LEVELED_SWEEP_MIN", 0)
    game = make_game(name, **options)
    assert game.sweep_levels > 1
    one, two = solved(game, threads=1), solved(game, threads=2)
    assert np.array_equal(one[0], two[0]) and np.array_equal(one[1], two[1])
    swept = [t for t in range(game.tiers.count) if tiers.tier_type(game, t) == TierType.SWEEP]
    assert swept and all(tiers.leveled(game, t, threads=2) for t in swept)


def test_every_game_with_sweep_levels_is_swept_by_levels_here():
    """A game that gains a ``sweep_level`` gets a case above."""
    leveled = {name for name in GAMES if game_class(name).functions.sweep_level is not None}
    assert leveled == {name for name, _ in LEVELED_CASES}


def test_a_cycle_between_tiers_is_refused():
    game = chain(True)
    game.declared = {0: {0, 1}}
    with pytest.raises(SolverError, match="cycle"):
        solved(game)


@pytest.mark.parametrize("name, options", [
    ("1210", {"target": 30, "max_step": 4}),
    ("ttt", {"rows": 3, "cols": 3, "diagonal": True}),
    ("northcott", {"rows": 3, "cols": 5, "misere": True}),
])
def test_acyclic_games_solved_as_loopy_give_the_same_result(name, options):
    game = make_game(name, **options)
    plain = solved(game)
    as_loopy = make_game(name, **options)
    as_loopy.tier_type = lambda tier: TierType.LOOPY
    looped = solved(as_loopy)
    assert np.array_equal(plain[0], looped[0]) and np.array_equal(plain[1], looped[1])


def test_results_do_not_depend_on_the_number_of_threads():
    game = make_game("ttt", rows=3, cols=4)
    results = [solved(game, threads=threads) for threads in (1, 2, 3)]
    for values, remoteness, stats in results[1:]:
        assert np.array_equal(values, results[0][0]) and np.array_equal(remoteness, results[0][1])
        assert stats.counts.tolist() == results[0][2].counts.tolist()


def test_only_the_tiers_needed_stay_in_memory():
    """Tic-Tac-Toe's tiers form a chain: at most two tiers are in memory at once."""
    game = make_game("ttt", rows=3, cols=4)
    stats = solve(game, threads=2, progress=False)
    sizes = game.tier_sizes
    record_bytes = tiers.records_type(game).itemsize
    assert stats.peak_bytes <= record_bytes * int((sizes[:-1] + sizes[1:]).max())
    assert stats.peak_bytes == tiers.estimate_peak_bytes(game, 2)


def test_loopy_memory_is_four_bytes_a_position_plus_records():
    """Value, remoteness and move counter, plus the frontier's blocks and the update
    buffers (at least 16 MB a thread, at most an eighth of a byte a position a thread
    above that): under 4.3 bytes a position for a tier of a billion."""
    game = make_game("knightsdance", rows=8, cols=8)
    assert loopy.bytes_per_position(game) == 4
    assert tiers.estimate_peak_bytes(game, 2) == loopy.work_bytes(game, game.size, 2)
    buckets = -(-game.size >> loopy.bucket_bits(game.size))
    chunks = loopy.MIN_UPDATE_BYTES // (4 * loopy.CHUNK)
    buffers = 2 * (loopy.MIN_UPDATE_BYTES + 8 * chunks + 3 * 8 * buckets)
    assert loopy.work_bytes(game, game.size, 2) == 4 * game.size + game.size // 32 + buffers
    assert 4 * 10**9 < loopy.work_bytes(game, 10**9, 2) < 4.3 * 10**9
    assert loopy.update_type(10**9).itemsize == 4 and loopy.update_type(1 << 31).itemsize == 8


@pytest.mark.parametrize("use_parents", [True, False], ids=["unmoves", "iteration"])
@pytest.mark.parametrize("leveled", [False, True], ids=["sweep", "leveled"])
def test_the_compile_jobs_compile_every_kernel_a_solve_runs(use_parents, leveled):
    """Builds compile their kernels as ``compile_jobs`` in child processes, then only
    load them: a kernel that no job compiles would be compiled inside the solve."""
    from numba.core import event

    game = GraphGame.random(11, [40, 90, 60, 80], loopy={1, 3}, use_parents=use_parents)
    game.leveled = leveled
    game.rebuild()
    jobs = tiers.compile_jobs(game)
    assert len(jobs) == len(set(jobs)) and ("bottom-up:levels" in jobs) == leveled
    for job in jobs:
        tiers.warm_up(game, job)
    compiled = []

    class Recorder(event.Listener):
        def on_start(self, found):
            compiled.append(found.data["dispatcher"].py_func.__qualname__)

        def on_end(self, found):
            pass

    with event.install_listener("numba:compile", Recorder()):
        values, remoteness, _ = solved(game)
    assert compiled == []
    assert as_reference(values, remoteness) == reference(game)
