"""Every registered game passes the game tester (games/tester.py) on the small boards
it declares (``tester_boards``): hash and text round trips, the fast ``expand``
against the composition, moves into declared tiers and legal positions, tier types,
and the un-move generator against forward moves on whole tiers. The tester itself
names what a broken game breaks."""

from __future__ import annotations

import pytest

from tiersolve.games import GAMES, game_class, make_game
from tiersolve.games.tester import ContractError, check_game

CASES = [(name, options) for name in GAMES for options in game_class(name).tester_boards]


def _id(case) -> str:
    return make_game(case[0], **case[1]).label()


@pytest.mark.parametrize("name, options", CASES, ids=[_id(c) for c in CASES])
def test_game_keeps_its_contract(name, options):
    summary = check_game(make_game(name, **options))
    assert summary.startswith(make_game(name, **options).describe())


def test_the_tester_names_a_broken_un_move():
    """Knight's Dance with an un-move generator that forgets the first knight jump."""
    import numpy as np

    from tiersolve.games.base import GameFunctions
    from tiersolve.games.knightsdance import KnightsDance
    from tiersolve.games.knightsdance import parents as right
    from tiersolve.jit import jit

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
    from tiersolve.games.northcott import Northcott
    from tiersolve.games.northcott import sweep_level as right
    from tiersolve.jit import jit

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
    from tiersolve.games.breakthrough import Breakthrough
    from tiersolve.games.breakthrough import terminal as right
    from tiersolve.jit import jit

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
