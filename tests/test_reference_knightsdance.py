"""The reference Knight's Dance solved over every placement (4x4 and 5x5, all
four jump_block/misere combinations).  These are the largest reference solves;
each must stay well within ~20 s."""


import pytest

from reference import make_game, solve_all

FLIP = {"win": "lose", "lose": "win"}
COMBOS = [(jb, m) for jb in (False, True) for m in (False, True)]


def placement_count(n):
    quiet = 2 * n * (n - 1) * (n - 2) * (n - 3)
    captures = 4 * n * (n - 1) * (n - 2)
    return quiet + captures


def check_locally(game, result):
    """Every value must satisfy the RULES.md equations given its children."""
    for text, (v, rem) in result.items():
        s = game.parse(text)
        p = game.primitive(s)
        if p is not None:
            assert (v, rem) == (p, 0), text
            continue
        seen = [result[game.format(c)] for c, _ in game.moves(s)]
        seen = [(FLIP.get(cv, cv), cr) for cv, cr in seen]
        good = [r for cv, r in seen if cv == "win"]
        if good:
            assert (v, rem) == ("win", 1 + min(good)), text
        elif all(cv == "lose" for cv, _ in seen):
            assert (v, rem) == ("lose", 1 + max(r for _, r in seen)), text
        else:
            assert (v, rem) == ("draw", None), text  # no ties in Knight's Dance


@pytest.mark.parametrize("jump_block,misere", COMBOS)
def test_knightsdance_4x4_all_placements(jump_block, misere):
    options = {"rows": 4, "cols": 4, "jump_block": jump_block, "misere": misere}
    game = make_game("knightsdance", **options)
    texts = [game.format(s) for s in game.all_placements()]
    result = solve_all("knightsdance", options, texts)
    assert len(result) == len(texts) == placement_count(16)
    assert any(v == "draw" for v, _ in result.values())
    check_locally(game, result)


