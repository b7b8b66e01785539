"""The two numba solvers against each other and against the reference solver on random
move graphs: with and without cycles, ties, passes and same-player-moves-again moves."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import numpy as np
import pytest

from games import make_game
from reference.solve import solve as reference_solve
from solver.bottom_up import solve_bottom_up
from solver.common import SolverError
from solver.jit import jit
from solver.retrograde import solve_retrograde
from solver.values import DRAW, ILLEGAL, LOSE, TIE, UNDECIDED, WIN

NAMES = {WIN: "win", LOSE: "lose", TIE: "tie", DRAW: "draw"}


@jit(cache=False)
def graph_expand(data, tier, local, out, state, child, moves):
    """A game given as explicit arrays: edge lists, same-mover flags, primitive codes.
    A negative target is a move to an unindexed finished game with value -target."""
    starts, targets, same_mover, primitives = data
    if primitives[local] != UNDECIDED:
        return -np.int64(primitives[local])
    count = 0
    for edge in range(starts[local], starts[local + 1]):
        out[count, 0] = 0 if targets[edge] >= 0 else -1
        out[count, 1] = targets[edge] if targets[edge] >= 0 else -targets[edge]
        out[count, 2] = same_mover[edge]
        out[count, 3] = edge
        count += 1
    return count


# The compiled solver kernels embed graph_expand; name them after this file's
# contents so that an edited test never loads a stale kernel from the cache.
_LABEL = "graphtest_" + hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]


class GraphGame:
    """A random move graph in the solver's contract and in the reference's."""

    name = "graph"
    state_size = 1
    kernel_label = _LABEL

    def __init__(self, seed: int, size: int, acyclic: bool, same_mover_share: float,
                 terminal_share: float = 0.0):
        rng = random.Random(seed)
        self.edges: list[list[tuple[int, int]]] = []
        self.primitives = np.full(size, UNDECIDED, dtype=np.int64)
        for node in range(size):
            later = range(node + 1, size) if acyclic else range(size)
            count = 0 if (not later or rng.random() < 0.2) else rng.randint(1, 4)
            targets = [-rng.choice([WIN, LOSE, LOSE, TIE]) if rng.random() < terminal_share
                       else rng.choice(later) for _ in range(count)]
            self.edges.append([(t, int(rng.random() < same_mover_share)) for t in targets])
            if not targets:
                self.primitives[node] = rng.choice([WIN, LOSE, LOSE, TIE])
        if not acyclic:  # a few illegal nodes that nothing points to
            pointed = {t for edges in self.edges for t, _ in edges if t >= 0}
            for node in range(size):
                if node not in pointed and rng.random() < 0.3:
                    self.primitives[node] = ILLEGAL
                    self.edges[node] = []
        flat = [edge for edges in self.edges for edge in edges]
        starts = np.zeros(size + 1, dtype=np.int64)
        starts[1:] = np.cumsum([len(edges) for edges in self.edges])
        self.data = (starts, np.array([t for t, _ in flat] or [0], dtype=np.int64),
                     np.array([s for _, s in flat] or [0], dtype=np.int64), self.primitives)
        self.max_moves = max(4, max(len(edges) for edges in self.edges))
        self.tier_sizes = np.array([size], dtype=np.int64)
        self.expand = graph_expand

    def tier_children(self, tier):
        return {0}

    # the reference solver's protocol; a terminal child is the state ("end", value code)
    def moves(self, node):
        return [(t if t >= 0 else ("end", -t), bool(s)) for t, s in self.edges[node]]

    def primitive(self, node):
        if isinstance(node, tuple):
            return NAMES[node[1]]
        code = int(self.primitives[node])
        return NAMES.get(code) if code != UNDECIDED else None


def _solved(solver, game, threads=2):
    arrays = {}

    def sink(tier, values, remoteness):
        arrays[tier] = (values.copy(), remoteness.copy())

    stats = solver(game, threads=threads, progress=False, sink=sink)
    return arrays[0][0], arrays[0][1], stats


def _as_reference(values, remoteness):
    none = np.iinfo(remoteness.dtype).max
    return {node: (NAMES[v], None if r == none else int(r))
            for node, (v, r) in enumerate(zip(values.tolist(), remoteness.tolist())) if v != ILLEGAL}


def _indexed(reference: dict) -> dict:
    """The reference's results without the terminal pseudo-states."""
    return {state: result for state, result in reference.items() if not isinstance(state, tuple)}


@pytest.mark.parametrize("seed", range(12))
def test_random_acyclic_graphs(seed):
    game = GraphGame(seed, size=300, acyclic=True, same_mover_share=0.3 if seed % 2 else 0.0,
                     terminal_share=0.2 if seed % 3 else 0.0)
    values, remoteness, _ = _solved(solve_bottom_up, game)
    expected = _indexed(reference_solve(game, range(300)))
    assert _as_reference(values, remoteness) == expected
    retro_values, retro_remoteness, _ = _solved(solve_retrograde, game)
    assert np.array_equal(values, retro_values) and np.array_equal(remoteness, retro_remoteness)


@pytest.mark.parametrize("seed", range(12))
def test_random_graphs_with_cycles(seed):
    game = GraphGame(100 + seed, size=300, acyclic=False,
                     same_mover_share=0.3 if seed % 2 else 0.0,
                     terminal_share=0.2 if seed % 3 else 0.0)
    values, remoteness, stats = _solved(solve_retrograde, game)
    legal = [n for n in range(300) if game.primitives[n] != ILLEGAL]
    assert _as_reference(values, remoteness) == _indexed(reference_solve(game, legal))
    assert stats.counts[ILLEGAL] == 300 - len(legal)


def test_random_graphs_cover_every_value():
    seen = set()
    for seed in range(12):
        values, _, _ = _solved(solve_retrograde, GraphGame(100 + seed, 300, False, 0.3, 0.2))
        seen |= set(values.tolist())
    assert {WIN, LOSE, TIE, DRAW, ILLEGAL} <= seen


def test_bottom_up_refuses_a_cycle_it_cannot_order():
    game = GraphGame(7, size=50, acyclic=False, same_mover_share=0.0)
    with pytest.raises(SolverError):
        _solved(solve_bottom_up, game)


@pytest.mark.parametrize("name, options", [
    ("1210", {"target": 30, "max_step": 4}),
    ("ttt", {"rows": 3, "cols": 3, "diagonal": True}),
    ("northcott", {"rows": 3, "cols": 5, "misere": True}),
])
def test_both_solvers_agree_on_acyclic_games(name, options):
    game = make_game(name, **options)
    store = {}
    for solver in (solve_bottom_up, solve_retrograde):
        arrays = []
        solver(game, threads=2, progress=False, sink=lambda t, v, r: arrays.append((t, v.copy(), r.copy())))
        arrays.sort(key=lambda item: item[0])
        remoteness = np.concatenate([r for _, _, r in arrays]).astype(np.int64)
        remoteness[remoteness == np.iinfo(arrays[0][2].dtype).max] = -1  # uint8 or uint16 "none"
        store[solver] = (np.concatenate([v for _, v, _ in arrays]), remoteness)
    (v1, r1), (v2, r2) = store.values()
    assert np.array_equal(v1, v2) and np.array_equal(r1, r2)


def test_results_do_not_depend_on_the_number_of_threads():
    game = make_game("ttt", rows=3, cols=4)
    results = []
    for threads in (1, 2, 3):
        arrays = {}
        stats = solve_bottom_up(game, threads=threads, progress=False,
                                sink=lambda t, v, r: arrays.__setitem__(t, (v.copy(), r.copy())))
        results.append((stats.counts.tolist(), arrays))
    for counts, arrays in results[1:]:
        assert counts == results[0][0]
        for tier, (values, remoteness) in arrays.items():
            assert np.array_equal(values, results[0][1][tier][0])
            assert np.array_equal(remoteness, results[0][1][tier][1])


def test_bottom_up_keeps_only_the_tiers_it_needs():
    """Tic-Tac-Toe's tiers form a chain: at most two tiers are in memory at once."""
    game = make_game("ttt", rows=3, cols=4)
    stats = solve_bottom_up(game, threads=2, progress=False)
    sizes = game.tier_sizes
    two_largest = np.sort(sizes[:-1] + sizes[1:])[-1]
    assert stats.peak_bytes <= 3 * (two_largest + max(sizes)) and stats.peak_bytes < 3 * sizes.sum()
