"""Gates (games/gates.py, GamesmanOne's gates): the plain-Python reference
(tests/reference/gates.py) against docs/RULES.md's examples; every index's moves,
children and verdicts against the reference, one move deep; positions refused; the
board drawn; and peer_gamesmanone.py's notation for it. The values of every position
of small sets are compared with the reference by tests/test_crosscheck.py (its
``reference_boards``), and with GamesmanOne's by ``peer_gamesmanone.py agree --game
gates`` (docs/BENCHMARKS.md)."""

from __future__ import annotations

from xml.dom.minidom import parseString

import pytest

from conftest import every_index_moves_as_the_reference
from reference.gates import Game as Reference
from tiersolve.errors import ImpossiblePositionError, OtherBoardError
from tiersolve.games import make_game
from tiersolve.games.gates import ADJACENT, TWO_AWAY
from tiersolve.values import ILLEGAL

SMALL = {"gates": 1, "triangles": 1, "trapezoids": 0, "points": 6}


def test_reference_start_and_the_rules_examples():
    ref = Reference()
    start = ref.start()
    assert ref.format(start) == "(w --- ---- ---- ---- --- GGggAAaaZZzz)"
    assert len(ref.move_names(start)) == 18 * 6
    assert ref.primitive(ref.parse("(b GOg -a-- g--- ---- -zz -)")) == "lose"
    for refused in ("(w GAg -z-- ---- ---- zZ- -)", "(b --- ---- ---- ---- --- GGggAAaaZZzz)",
                    "(w OAg -z-- g--- ---- zGZ -)"):
        with pytest.raises(ValueError):
            ref.parse(refused)
    # a trapezoid takes: the spike it lands on goes to any empty point, or back
    names = ref.move_names(ref.parse("(w GAg -z-- g--- Z--- zG- -)"))
    assert "12-9" in names and "12-16/1" not in names and {"12-16/13", "12-16/12"} <= set(names)


def test_the_tables_are_symmetric():
    for p, near in enumerate(ADJACENT):
        for q in near:
            assert p in ADJACENT[q]
    for p, far in enumerate(TWO_AWAY):
        for q, b0, b1 in far:
            back = [row for row in TWO_AWAY[q] if row[0] == p]
            assert back and {back[0][1], back[0][2]} == {b0, b1}
            assert b0 in ADJACENT[p] and b0 in ADJACENT[q] and b1 in ADJACENT[q]


@pytest.mark.parametrize("options", [{**SMALL, "triangles": 0, "trapezoids": 1},
                                     pytest.param(SMALL, marks=pytest.mark.slow),
                                     pytest.param({**SMALL, "points": 7}, marks=pytest.mark.slow),
                                     pytest.param({"gates": 2, "triangles": 1, "trapezoids": 1,
                                                   "points": 8}, marks=pytest.mark.slow)])
def test_every_index_moves_as_the_reference_does(options):
    game, ref = make_game("gates", **options), Reference(**options)
    assert every_index_moves_as_the_reference(game, ref) > 500


@pytest.mark.parametrize("text, error, words", [
    ("(w --- ---- ---- ---- -- GGggAAaaZZzz)", OtherBoardError, "rows of 3, 4, 4, 4, 3"),
    ("(x --- ---- ---- ---- --- GGggAAaaZZzz)", ValueError, "is w .white. or b"),
    ("(w --X ---- ---- ---- --- GGggAAaaZZzz)", ValueError, "a point holds"),
    ("(w --- ---- ---- ---- --- GGggAAaaZZzq)", ValueError, "pieces still to place"),
    ("(w --- ---- ---- ---- --- GGggAAaaZZz)", ImpossiblePositionError, "the set has 2"),
    ("(b --- ---- ---- ---- --- GGggAAaaZZzz)", ImpossiblePositionError, "white's turn"),
    ("(w GAg -z-- ---- ---- zZ- -)", ImpossiblePositionError, "every gate"),
    ("(w OAg -z-- g--- ---- zGZ -)", ImpossiblePositionError, "so black moves"),
    ("(b OAg -z-- g--Z A--- zGZ -)", ImpossiblePositionError, "scored nothing"),
    ("(w Oog -z-- G--- ---- zAZ -)", ImpossiblePositionError, "2 open gates"),
    ("(w GAg ---- g--- ---- -GZ -)", ImpossiblePositionError, "game is over"),
])
def test_bad_positions_are_refused_saying_why(text, error, words):
    with pytest.raises(error, match=words):
        make_game("gates").parse(text)


def test_options_that_make_no_game_are_refused():
    with pytest.raises(ValueError, match="no spike"):
        make_game("gates", triangles=0, trapezoids=0)
    with pytest.raises(ValueError, match="do not fit"):
        make_game("gates", points=6, gates=2)


def test_the_board_is_drawn():
    from tiersolve.games.board import board_svg

    game = make_game("gates")
    position = "(w GAg -z-- g--- ---- zGZ -)"
    assert game.grid(game.parse(position)) == [
        "  G A g  ", " - z - - ", "g -   - -", " - - - - ", "  z G Z  "]
    svg = board_svg(game, position)
    parseString(svg)
    assert svg.count('class="board-path"') == sum(len(n) for n in ADJACENT) // 2
    assert svg.count('class="point-name"') == 18
    sketch = game.move_sketch(game.parse(position), "2-6")
    assert sketch.kind == "move" and sketch.cells == ((0, 4), (1, 5))


def test_gamesmanone_notation():
    from test_peer_gamesmanone import peer
    case = peer.make_case("gates")
    notation = case.notation
    assert notation.to_peer("(w --- ---- ---- ---- --- GGggAAaaZZzz)") == "1_p_" + "-" * 18
    assert notation.from_peer("2_m_GOg-a--g--------zz") == "(b GOg -a-- g--- ---- -zz -)"
    for name, theirs in (("A5", "p A 5"), ("3-4", "m 3 4"), ("9-13/1", "m 9 13 t 1"),
                         ("5>9,3-4", "g 5 9 m 3 4"), ("z12,13-17/13", "p z 12 m 13 17 t 13")):
        assert notation.move_to_peer(name) == theirs
        assert notation.move_from_peer(theirs) == name
    game = make_game("gates")
    for text in case.corners:  # legal, and unchanged by the round trip
        game.parse(text)
        assert notation.from_peer(notation.to_peer(text)) == text


def test_the_symmetric_index_stores_one_position_a_class():
    """Every image of a position under the hexagon's twelve symmetries has one index,
    whose state hashes back to it; the symmetries keep the board's lines."""
    import random

    from tiersolve.games.gates import MASKS, OPEN, SYMMETRIES

    for image in SYMMETRIES:
        for p in range(18):
            assert sorted(image[q] for q in ADJACENT[p]) == sorted(ADJACENT[image[p]])
            assert sorted((image[q], frozenset((image[a], image[b])))
                          for q, a, b in TWO_AWAY[p]) == \
                sorted((q, frozenset((a, b))) for q, a, b in TWO_AWAY[image[p]])
    plain = make_game("gates", triangles=1, trapezoids=1)
    sym = make_game("gates", triangles=1, trapezoids=1, symmetry=True)
    rng = random.Random(1)
    checked = 0
    while checked < 300:
        state = plain.state_at(rng.randrange(plain.size))
        if plain.primitive_value(state) == ILLEGAL:
            continue
        index = sym.index(state)
        for image in SYMMETRIES:
            other = state.copy()
            for k in range(6):
                mask = int(state[MASKS + k])
                other[MASKS + k] = sum(1 << image[p] for p in range(18) if mask >> p & 1)
            if state[OPEN] >= 0:
                other[OPEN] = image[int(state[OPEN])]
            assert sym.index(other) == index
        assert sym.index(sym.state_at(index)) == index
        checked += 1
    with pytest.raises(ValueError, match="whole board"):
        make_game("gates", points=17, symmetry=True)
