"""Generic brute-force strong solver (plain Python, written from RULES.md only).

A game object provides ``moves(state) -> list[(child, same_mover)]`` and
``primitive(state) -> "win" | "lose" | "tie" | None``.  Values are from the
point of view of the player to move (RULES.md "Values and remoteness"):

* primitive: its value, remoteness 0;
* a child's WIN/LOSE is flipped for the parent's mover, except along a
  ``same_mover`` move (Konane go-again), where it is taken as it stands;
* WIN  = some good child, remoteness 1 + min over the good children;
* LOSE = every child bad, remoteness 1 + max over the children;
* TIE  = not WIN/LOSE and some TIE child, remoteness 1 + min over TIE children;
* DRAW = the rest (only with cycles), remoteness ``None``.

The algorithm works for cyclic and acyclic move graphs alike:

1. enumerate every reachable state iteratively (no recursion), numbering them;
2. build reverse edges (one per move, duplicates kept);
3. retrograde WIN/LOSE pass, level by level (level r holds exactly the states
   of remoteness r), with a per-state counter of children not yet known bad;
   this is the least fixed point, so a WIN is forceable in finitely many moves;
4. TIE pass: breadth-first backwards from the TIE primitives through the states
   still undecided;
5. everything left is DRAW.
"""

WIN = "win"
LOSE = "lose"
TIE = "tie"
DRAW = "draw"

_CODE = {WIN: 1, LOSE: 2, TIE: 3}
_NAME = {1: WIN, 2: LOSE, 3: TIE, 4: DRAW}


def explore(game, start_states):
    """Enumerate the reachable states.

    Returns ``(states, prim, children)``: ``states[i]`` the i-th state,
    ``prim[i]`` its primitive code (0 if not primitive) and ``children[i]`` a
    list of encoded edges ``2 * child_index + same_mover`` (``None`` for
    primitives).
    """
    moves = game.moves
    primitive = game.primitive
    index = {}
    states = []
    for s in start_states:
        if s not in index:
            index[s] = len(states)
            states.append(s)
    prim = []
    children = []
    prim_append = prim.append
    children_append = children.append
    states_append = states.append
    index_get = index.get
    code = _CODE
    i = 0
    while i < len(states):
        s = states[i]
        p = primitive(s)
        if p is not None:
            c = code.get(p)
            if c is None:
                raise ValueError(f"bad primitive value {p!r} for {s!r}")
            prim_append(c)
            children_append(None)
        else:
            ms = moves(s)
            if not ms:
                raise ValueError(f"non-primitive state without moves: {s!r}")
            edges = []
            for child, same in ms:
                j = index_get(child)
                if j is None:
                    j = len(states)
                    index[child] = j
                    states_append(child)
                edges.append(2 * j + 1 if same else 2 * j)
            prim_append(0)
            children_append(edges)
        i += 1
    return states, prim, children


def solve_indexed(prim, children, consume=False):
    """Solve an explored graph; returns ``(value_codes, remoteness)`` lists.

    Codes: 1 WIN, 2 LOSE, 3 TIE, 4 DRAW; remoteness ``None`` for DRAW.
    With ``consume=True`` the entries of ``children`` are dropped once read
    (saves memory on big graphs).
    """
    n = len(prim)
    val = bytearray(prim)
    rem = [None] * n
    count = [0] * n
    parents = [[] for _ in range(n)]
    for i in range(n):
        edges = children[i]
        if edges is None:
            rem[i] = 0
            continue
        count[i] = len(edges)
        tag = 2 * i
        for e in edges:
            parents[e >> 1].append(tag | (e & 1))
        if consume:
            children[i] = None

    # WIN/LOSE retrograde pass, one remoteness level at a time.
    frontier = [i for i in range(n) if val[i] == 1 or val[i] == 2]
    r = 0
    while frontier:
        r += 1
        nxt = []
        for c in frontier:
            vc = val[c]
            for e in parents[c]:
                p = e >> 1
                if val[p]:
                    continue
                # child's value as seen by the parent's mover
                if e & 1:
                    good = vc == 1
                else:
                    good = vc == 2
                if good:
                    val[p] = 1
                    rem[p] = r
                    nxt.append(p)
                else:
                    k = count[p] - 1
                    count[p] = k
                    if k == 0:
                        val[p] = 2
                        rem[p] = r
                        nxt.append(p)
        frontier = nxt

    # TIE pass: backwards from the TIE primitives through undecided states.
    frontier = [i for i in range(n) if prim[i] == 3]
    r = 0
    while frontier:
        r += 1
        nxt = []
        for c in frontier:
            for e in parents[c]:
                p = e >> 1
                if not val[p]:
                    val[p] = 3
                    rem[p] = r
                    nxt.append(p)
        frontier = nxt

    for i in range(n):
        if not val[i]:
            val[i] = 4
    return val, rem


def solve(game, start_states):
    """Solve every state reachable from ``start_states`` (starts included).

    Returns ``{state: (value, remoteness)}``, value in "win", "lose", "tie",
    "draw" and remoteness an int (``None`` for "draw").
    """
    states, prim, children = explore(game, start_states)
    val, rem = solve_indexed(prim, children, consume=True)
    del children
    name = _NAME
    return {s: (name[val[i]], rem[i]) for i, s in enumerate(states)}


_FLIP = {WIN: LOSE, LOSE: WIN}


def check_solution(game, result, finished_have_no_moves=True):
    """Assert that every solved ``{state: (value, remoteness)}`` satisfies the equations
    above given its children's values (the test of a solve, independent of how it was
    computed); also that a finished position lists no moves, unless the game's
    ``moves`` does not look at whether the game is over."""
    for state, (value, remoteness) in result.items():
        where = game.format(state)
        finished = game.primitive(state)
        if finished is not None:
            assert (value, remoteness) == (finished, 0), where
            assert not finished_have_no_moves or game.moves(state) == [], where
            continue
        kids = game.moves(state)
        assert kids, where
        seen = []
        for child, same in kids:
            child_value, child_remoteness = result[child]
            seen.append((child_value if same else _FLIP.get(child_value, child_value),
                         child_remoteness))
        good = [r for v, r in seen if v == WIN]
        ties = [r for v, r in seen if v == TIE]
        if good:
            assert (value, remoteness) == (WIN, 1 + min(good)), where
        elif all(v == LOSE for v, _ in seen):
            assert (value, remoteness) == (LOSE, 1 + max(r for _, r in seen)), where
        elif ties:
            assert (value, remoteness) == (TIE, 1 + min(ties)), where
        else:
            assert (value, remoteness) == (DRAW, None), where
            assert any(v == DRAW for v, _ in seen), where
