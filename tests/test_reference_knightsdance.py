"""The reference Knight's Dance solved over every placement (4x4 and 5x5, all
four jump_block/misere combinations).  These are the largest reference solves;
each must stay well within ~20 s."""


import pytest

from reference import make_game, solve_all
from reference.solve import check_solution as _check_solution

COMBOS = [(jb, m) for jb in (False, True) for m in (False, True)]


def check_solution(game, result):
    """The generic check on a text-keyed result; Knight's Dance has no ties."""
    _check_solution(game, {game.parse(text): value for text, value in result.items()},
                    finished_have_no_moves=False)
    assert all(v != "tie" for v, _ in result.values())


def placement_count(n):
    quiet = 2 * n * (n - 1) * (n - 2) * (n - 3)
    captures = 4 * n * (n - 1) * (n - 2)
    return quiet + captures




@pytest.mark.parametrize("jump_block,misere", COMBOS)
def test_knightsdance_4x4_all_placements(jump_block, misere):
    options = {"rows": 4, "cols": 4, "jump_block": jump_block, "misere": misere}
    game = make_game("knightsdance", **options)
    texts = [game.format(s) for s in game.all_placements()]
    result = solve_all("knightsdance", options, texts)
    assert len(result) == len(texts) == placement_count(16)
    assert any(v == "draw" for v, _ in result.values())
    check_solution(game, result)


