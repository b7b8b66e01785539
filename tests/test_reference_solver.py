"""Self-checks of the reference solver (tests/reference/solve.py).

Hand-made toy graphs pin down the value rules of RULES.md, and two solvers
written differently (a forward level-by-level scan without counters or reverse
edges, and a memoised evaluation of the definitions for acyclic games) must
agree with it on real games.
"""

import pytest

from reference import make_game, solve
from reference.solve import explore


class ToyGame:
    """A game given as an explicit graph.

    ``graph[s]`` is either a primitive value string or a list of children;
    a child written ``("same", t)`` is a same-mover move to ``t``.
    """

    def __init__(self, graph):
        self.graph = graph

    def primitive(self, s):
        g = self.graph[s]
        return g if isinstance(g, str) else None

    def moves(self, s):
        out = []
        for c in self.graph[s]:
            if isinstance(c, tuple):
                out.append((c[1], True))
            else:
                out.append((c, False))
        return out


def toy(graph, starts=None):
    return solve(ToyGame(graph), starts or list(graph))


def test_primitives():
    r = toy({"w": "win", "l": "lose", "t": "tie"})
    assert r == {"w": ("win", 0), "l": ("lose", 0), "t": ("tie", 0)}


def test_win_takes_min_and_lose_takes_max():
    g = {
        "L0": "lose",
        "W1": ["L0"],
        "L2": ["W1"],
        "W3": ["L2"],
        "A": ["W1", "W3"],  # every child bad: LOSE, 1 + max = 4
        "B": ["L2", "L0", "W1"],  # good children L2, L0: WIN, 1 + min = 1
        "C": ["W3", "L2"],  # WIN 3
    }
    r = toy(g)
    assert r["A"] == ("lose", 4)
    assert r["B"] == ("win", 1)
    assert r["C"] == ("win", 3)


def test_same_mover_children_are_not_flipped():
    g = {
        "W0": "win",
        "L0": "lose",
        "S": [("same", "W0")],  # child is a win for the same mover: WIN 1
        "T": [("same", "L0")],  # LOSE 1
        "U": [("same", "L0"), "L0"],  # the flipped one is good: WIN 1
        "V": [("same", "T"), "W0"],  # T is LOSE for the same mover, W0 bad: LOSE 2
    }
    r = toy(g)
    assert r["S"] == ("win", 1)
    assert r["T"] == ("lose", 1)
    assert r["U"] == ("win", 1)
    assert r["V"] == ("lose", 2)


def test_duplicate_moves_count_once_per_move():
    g = {"W0": "win", "X": ["W0", "W0"], "Y": ["X", "X", "W0"]}
    r = toy(g)
    assert r["X"] == ("lose", 1)
    assert r["Y"] == ("win", 2)


def test_ties_and_draws():
    g = {
        "T0": "tie",
        "W0": "win",
        "A": ["B"],
        "B": ["A", "T0"],  # cycle with a tie exit: TIE
        "C": ["D"],
        "D": ["C"],  # pure cycle: DRAW
        "E": ["C", "T0"],  # DRAW child and TIE child: TIE 1
        "F": ["C", "W0"],  # DRAW child and a bad child: DRAW
        "G": ["T0", "W0"],  # acyclic: TIE 1
        "H": ["G", "E", "A"],  # TIE, 1 + min over TIE children = 2
    }
    r = toy(g)
    assert r["B"] == ("tie", 1)
    assert r["A"] == ("tie", 2)
    assert r["C"] == ("draw", None)
    assert r["D"] == ("draw", None)
    assert r["E"] == ("tie", 1)
    assert r["F"] == ("draw", None)
    assert r["G"] == ("tie", 1)
    assert r["H"] == ("tie", 2)


def test_loopy_win_lose_is_least_fixed_point():
    g = {
        "L0": "lose",
        "G": ["H"],
        "H": ["G", "L0"],  # WIN 1 via L0
        "P": ["P", "L0"],  # self loop, but a win exists: WIN 1
        "Q": ["Q"],  # only a self loop: DRAW
        "R": ["S"],
        "S": ["R", "G"],  # R <-> S cycle, S can reach G (LOSE 2 for its mover)
    }
    r = toy(g)
    assert r["H"] == ("win", 1)
    assert r["G"] == ("lose", 2)
    assert r["P"] == ("win", 1)
    assert r["Q"] == ("draw", None)
    assert r["S"] == ("win", 3)
    assert r["R"] == ("lose", 4)


def test_only_reachable_states_are_solved():
    g = {"L0": "lose", "A": ["L0"], "B": ["A"]}
    assert set(toy(g, ["A"])) == {"A", "L0"}


def test_non_primitive_without_moves_raises():
    with pytest.raises(ValueError):
        toy({"A": []})


# --- independent solvers ---------------------------------------------------

FLIP = {"win": "lose", "lose": "win", "tie": "tie"}


def level_scan_solve(game, starts):
    """Forward scan, one remoteness level at a time (no counters, no reverse
    edges).  A state is decided at level r only from children decided at
    levels < r, so remoteness is exact."""
    states, seen = list(starts), set(starts)
    i = 0
    while i < len(states):
        s = states[i]
        i += 1
        if game.primitive(s) is None:
            for c, _ in game.moves(s):
                if c not in seen:
                    seen.add(c)
                    states.append(c)
    res = {}
    kids = {}
    for s in states:
        p = game.primitive(s)
        if p is not None:
            res[s] = (p, 0)
        else:
            kids[s] = game.moves(s)
    undecided = [s for s in states if s not in res]

    def seen_value(c, same):
        v, r = res[c]
        return (v if same else FLIP[v]), r

    level = 0
    while True:
        level += 1
        new = {}
        for s in undecided:
            vals = [seen_value(c, same) if c in res and res[c][0] != "tie" else None
                    for c, same in kids[s]]
            if any(v is not None and v[0] == "win" and v[1] == level - 1 for v in vals):
                new[s] = ("win", level)
            elif all(v is not None and v[0] == "lose" for v in vals):
                new[s] = ("lose", level)
        if not new:  # the decided set is unchanged, so no later level adds anything
            break
        res.update(new)
        undecided = [s for s in undecided if s not in new]
    level = 0
    while True:
        level += 1
        new = {}
        for s in undecided:
            if any(c in res and res[c] == ("tie", level - 1) for c, _ in kids[s]):
                new[s] = ("tie", level)
        if not new:
            break
        res.update(new)
        undecided = [s for s in undecided if s not in new]
    for s in undecided:
        res[s] = ("draw", None)
    return res


def memo_solve_acyclic(game, starts):
    """The definitions of RULES.md evaluated directly (iterative post-order
    DFS); raises on a cycle."""
    res = {}
    on_path = set()
    for start in starts:
        stack = [(start, False)]
        while stack:
            s, expanded = stack.pop()
            if s in res:
                continue
            p = game.primitive(s)
            if p is not None:
                res[s] = (p, 0)
                continue
            ms = game.moves(s)
            if not expanded:
                if s in on_path:
                    raise AssertionError("cycle")
                on_path.add(s)
                stack.append((s, True))
                for c, _ in ms:
                    if c not in res:
                        if c in on_path:
                            raise AssertionError("cycle")
                        stack.append((c, False))
                continue
            on_path.discard(s)
            seen = [((res[c][0] if same else FLIP[res[c][0]]), res[c][1]) for c, same in ms]
            good = [r for v, r in seen if v == "win"]
            ties = [r for v, r in seen if v == "tie"]
            if good:
                res[s] = ("win", 1 + min(good))
            elif all(v == "lose" for v, _ in seen):
                res[s] = ("lose", 1 + max(r for _, r in seen))
            else:
                res[s] = ("tie", 1 + min(ties))
    return res


CASES = [
    ("1210", {}),
    ("1210", {"target": 13, "max_step": 3, "misere": True}),
    ("ttt", {}),
    ("ttt", {"rows": 3, "cols": 3, "diagonal": True, "misere": True}),
    ("northcott", {"rows": 2, "cols": 5}),
    ("northcott", {"rows": 2, "cols": 5, "backward": True}),
    ("northcott", {"rows": 2, "cols": 4, "backward": True, "misere": True}),
    ("knightsdance", {"rows": 3, "cols": 4}),
    ("knightsdance", {"rows": 4, "cols": 4, "jump_block": True, "misere": True}),
    ("surround", {"rows": 3, "cols": 4}),
    ("surround", {"rows": 3, "cols": 3, "wormholes": True, "misere": True}),
    ("konane", {}),
    ("konane", {"rows": 4, "cols": 4, "misere": True}),
    ("konane", {"rows": 4, "cols": 4, "goagain_any": True}),
    ("konane", {"rows": 3, "cols": 5, "goagain_any": True, "misere": True}),
]


@pytest.mark.parametrize("name,options", CASES)
def test_level_scan_agrees(name, options):
    game = make_game(name, **options)
    starts = [game.start()]
    assert solve(game, starts) == level_scan_solve(game, starts)


ACYCLIC = [(n, o) for n, o in CASES if n != "knightsdance" and not o.get("backward")]


@pytest.mark.parametrize("name,options", ACYCLIC)
def test_definitions_agree_on_acyclic_games(name, options):
    game = make_game(name, **options)
    starts = [game.start()]
    assert solve(game, starts) == memo_solve_acyclic(game, starts)


@pytest.mark.parametrize("name,options", CASES)
def test_text_round_trip(name, options):
    game = make_game(name, **options)
    states, _, _ = explore(game, [game.start()])
    for s in states:
        t = game.format(s)
        assert game.parse(t) == s
        assert game.format(game.parse(t)) == t
