"""Every registered game passes the game tester (games/tester.py) on small boards of
every variant: hash and text round trips, the fast ``expand`` against the
composition, moves into declared tiers and legal positions, tier types, and the
un-move generator against forward moves on whole tiers. A game added to the
registry without cases here (and without reference rules) fails
``test_every_game_is_covered``."""

from __future__ import annotations

import pytest

from tiersolve.games import GAMES, make_game
from tiersolve.games.tester import ContractError, check_game

CASES = [
    ("1210", {"target": 7, "max_step": 3}),
    ("ttt", {"rows": 3, "cols": 3}),
    ("ttt", {"rows": 2, "cols": 4, "k": 2, "diagonal": True}),
    ("northcott", {"rows": 2, "cols": 4}),
    ("northcott", {"rows": 2, "cols": 5, "backward": True}),
    ("northcott", {"rows": 3, "cols": 4, "backward": True, "misere": True}),
    ("knightsdance", {"rows": 3, "cols": 3}),
    ("knightsdance", {"rows": 3, "cols": 4, "jump_block": True}),
    ("knightsdance", {"rows": 2, "cols": 4, "jump_block": True, "misere": True}),
    ("surround", {"rows": 2, "cols": 3}),
    ("surround", {"rows": 3, "cols": 3, "wormholes": True}),
    ("surround", {"rows": 2, "cols": 2, "wormholes": True}),
    ("konane", {"rows": 2, "cols": 3}),
    ("konane", {"rows": 3, "cols": 3, "goagain_any": True}),
    ("konane", {"rows": 3, "cols": 4, "symmetry": True}),
    ("konane", {"rows": 4, "cols": 4, "goagain_any": True, "symmetry": True}),
    ("domineering", {"rows": 3, "cols": 3}),
    ("domineering", {"rows": 3, "cols": 4, "symmetry": True}),
    ("clobber", {"rows": 2, "cols": 3}),
    ("clobber", {"rows": 3, "cols": 3, "misere": True, "symmetry": True}),
    ("breakthrough", {"rows": 4, "cols": 2}),
    ("breakthrough", {"rows": 4, "cols": 3, "symmetry": True}),
    ("knightthrough", {"rows": 5, "cols": 2}),
    ("loa", {"rows": 3, "cols": 3}),
    ("loa", {"rows": 3, "cols": 4, "symmetry": True}),
    ("loa", {"rows": 4, "cols": 3, "max_pieces": 2, "symmetry": True}),
    ("loa", {"rows": 4, "cols": 4, "max_pieces": 2}),
    ("surakarta", {"size": 4, "max_pieces": 2}),
    ("surakarta", {"size": 4, "max_pieces": 2, "symmetry": True}),
    ("surakarta", {"size": 6, "max_pieces": 1, "symmetry": True}),
    ("pousse", {"size": 1}),
    ("pousse", {"size": 2}),
    ("pousse", {"size": 3}),
]


def _id(case) -> str:
    return make_game(case[0], **case[1]).label()


@pytest.mark.parametrize("name, options", CASES, ids=[_id(c) for c in CASES])
def test_game_keeps_its_contract(name, options):
    summary = check_game(make_game(name, **options))
    assert summary.startswith(make_game(name, **options).describe())


def test_every_game_is_covered():
    """A game in the registry needs conformance cases here and reference rules in
    tests/reference (which the cross-check in test_crosscheck.py uses)."""
    from reference import MODULES
    from test_crosscheck import VARIANTS

    crosschecked = {case.values[0] if hasattr(case, "values") else case[0] for case in VARIANTS}
    for name in GAMES:
        assert name in {case[0] for case in CASES}, f"{name}: no conformance case"
        assert name in MODULES, f"{name}: no reference rules in tests/reference"
        assert name in crosschecked, f"{name}: no cross-check against the reference"


def test_the_tester_names_a_broken_un_move():
    """Knight's Dance with an un-move generator that forgets the first knight jump."""
    import numpy as np

    from tiersolve.games.base import GameFunctions
    from tiersolve.games.knightsdance import KnightsDance, parents as right
    from tiersolve.solver.jit import jit

    @jit(cache=False)
    def forgetful(data, tier, local, out, state, other):
        count = right(data, tier, local, out, state, other)
        return max(count - 1, 0)

    class Forgetful(KnightsDance):
        functions = GameFunctions(*KnightsDance.functions[:6], parents=forgetful)

    with pytest.raises(ContractError, match=r"the un-moves of \(. 3 3 .*\) are wrong: 1 missing"):
        check_game(Forgetful(rows=3, cols=3))
    assert np is not None


def test_the_tester_names_a_sweep_level_that_does_not_rise():
    """Northcott whose sweep_level ignores the last row: a move there keeps the level."""
    from tiersolve.games.base import GameFunctions
    from tiersolve.games.northcott import Northcott, sweep_level as right
    from tiersolve.solver.jit import jit

    @jit(cache=False)
    def blind(data, tier, local, state):
        return right(data, tier, (local >> 1) // 3 * 3 * 2, state)  # 3 row states of 3 cols

    class Blind(Northcott):
        functions = Northcott.functions._replace(sweep_level=blind)

    assert isinstance(Blind.functions, GameFunctions)
    with pytest.raises(ContractError, match=r"sweep tier 0: the move from \(L 0L1R0 0L1R0\) \(tier 0 "
                                            r"\(\), index 0\) \(sweep_level 0\) leads to \(R 0L1R0 "
                                            r"1L0R0\) \(tier 0 \(\), index 5\), whose level 0 is not higher"):
        check_game(Blind(rows=2, cols=3))


def valueless_breakthrough(rows: int, cols: int):
    """Breakthrough whose unindexed finished games carry code 9 instead of LOSE (a
    broken game for the checks that refuse it)."""
    from tiersolve.games.breakthrough import Breakthrough, terminal as right
    from tiersolve.solver.jit import jit

    @jit(cache=False)
    def valueless(data, state):
        return 9 if right(data, state) != 0 else 0

    class Valueless(Breakthrough):
        functions = Breakthrough.functions._replace(expand=None, terminal=valueless)

    return Valueless(rows=rows, cols=cols)


def test_the_tester_names_a_finished_game_without_a_value():
    """The solvers read a child's score from a table by its value code: a code that
    is not a value is refused."""
    with pytest.raises(ContractError, match=r"a move from .* leads to a finished game that is not "
                                            r"indexed, with value code 9: not WIN, LOSE, TIE or DRAW"):
        check_game(valueless_breakthrough(rows=4, cols=2))
