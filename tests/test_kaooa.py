"""Kaooa (games/kaooa.py, GamesmanOne's mkaooa): the plain-Python reference
(tests/reference/kaooa.py) against docs/RULES.md's examples; every index's moves,
children and verdicts against the reference, one move deep; the symmetric index;
positions refused; the pentagram drawn; and peer_gamesmanone.py's notation for it.
The values of every position are compared with the reference by
tests/test_crosscheck.py (its ``reference_boards``; the whole game under -m slow),
and with GamesmanOne's by ``peer_gamesmanone.py agree --game kaooa --all-positions``
(docs/BENCHMARKS.md)."""

from __future__ import annotations

from xml.dom.minidom import parseString

import numpy as np
import pytest

from conftest import every_index_moves_as_the_reference
from reference.kaooa import Game as Reference
from tiersolve.errors import ImpossiblePositionError, OtherBoardError
from tiersolve.games import make_game
from tiersolve.games.kaooa import LINES, symmetries
from tiersolve.values import ILLEGAL, LOSE, NONCANONICAL

def test_reference_start_first_moves_and_the_rules_examples():
    ref = Reference()
    start = ref.start()
    assert ref.format(start) == "(c ----- ----- 6)"
    assert ref.move_names(start) == [str(p) for p in range(10)]
    assert ref.move_names(ref.parse("(v c---- vc--- 4)")) == ["5-1", "5-9", "5x2"]
    for lost in ("(c ----c cc-v- 0)", "(v v---- cc-cc 0)", "(v ccc-c vc--c 0)"):
        assert ref.primitive(ref.parse(lost)) == "lose"
    for refused in ("(c c---- ----- 5)", "(v c---- v---- 5)", "(v ----- ----- 6)",
                    "(c ----- v---- 4)", "(v ----c cc-v- 0)", "(c v---- cc-cc 0)"):
        with pytest.raises(ValueError):
            ref.parse(refused)


def test_the_lines_are_the_pentagrams():
    assert LINES == ((0, 5, 6, 2), (1, 6, 7, 3), (2, 7, 8, 4), (3, 8, 9, 0), (4, 9, 5, 1))
    groups = symmetries()
    assert len({tuple(g) for g in groups}) == 10 and groups[0] == list(range(10))
    lines = {frozenset(line) for line in LINES}
    for image in groups:  # each symmetry maps lines to lines, keeping their order
        for line in LINES:
            moved = tuple(image[p] for p in line)
            assert frozenset(moved) in lines
            assert moved in LINES or moved[::-1] in LINES


@pytest.mark.parametrize("options", [{"crows": 3, "captures": 2},
                                     pytest.param({}, marks=pytest.mark.slow)])
def test_every_index_moves_as_the_reference_does(options):
    """Every legal index: the same move names leading to the same positions, and the
    same verdict (finished or not) as the reference; every illegal index is one the
    reference refuses."""
    game, ref = make_game("kaooa", **options), Reference(**options)
    assert every_index_moves_as_the_reference(game, ref) > 1000


def test_the_symmetric_index_stores_one_position_a_class():
    plain = make_game("kaooa", crows=3, captures=2)
    sym = make_game("kaooa", crows=3, captures=2, symmetry=True)
    classes = {}
    for index in range(plain.size):
        state = plain.state_at(index)
        if plain.primitive_value(state) == ILLEGAL:
            continue
        classes.setdefault(sym.index(state), []).append(index)
    stored = [i for i in range(sym.size)
              if sym.primitive_value(sym.state_at(i)) != ILLEGAL
              and sym.index(sym.state_at(i)) == i]
    assert sorted(classes) == stored
    assert max(len(members) for members in classes.values()) == 10
    # an index that is not its class's representative decodes to a position stored elsewhere
    other = next(i for i in range(sym.size) if sym.index(sym.state_at(i)) != i)
    assert sym.expand is not None and NONCANONICAL > 0 and other not in classes


@pytest.mark.parametrize("text, error, words", [
    ("(c ----- ---- 6)", OtherBoardError, "five points"),
    ("(x ----- ----- 6)", ValueError, "is c .crows. or v"),
    ("(c ----- ----- 7)", ValueError, "0 to 6"),
    ("(c ---C- ----- 6)", ValueError, "holds c .a crow."),
    ("(c ----- -----)", ValueError, "four words"),
    ("(v vv--- ----- 4)", ImpossiblePositionError, "2 vultures"),
    ("(v ccc-- v---- 4)", ImpossiblePositionError, "only 2 placed"),
    ("(v ----- ----- 6)", ImpossiblePositionError, "crows move first"),
    ("(c c---- ----- 5)", ImpossiblePositionError, "placed on its first turn"),
    ("(c ----- v---- 4)", ImpossiblePositionError, "1 move since"),
    ("(v ----c cc-v- 0)", ImpossiblePositionError, "game ends"),
])
def test_bad_positions_are_refused_saying_why(text, error, words):
    with pytest.raises(error, match=words):
        make_game("kaooa").parse(text)


def test_a_shut_in_vulture_with_the_crows_to_move_is_illegal():
    game = make_game("kaooa")
    state = game.parse("(c v---- cc-cc 0)")
    assert game.primitive_value(state) == ILLEGAL
    assert "shut in" in game.explain_illegal(state)
    assert game.primitive_value(game.parse("(v v---- cc-cc 0)")) == LOSE


def test_options_that_make_no_game_are_refused():
    with pytest.raises(ValueError, match="too many for --crows 4: .* at most 3"):
        make_game("kaooa", crows=4, captures=4)


def test_the_pentagram_is_drawn():
    from tiersolve.games.board import board_lines, board_svg

    game = make_game("kaooa")
    position = "(v c---- vc--- 4)"
    assert board_lines(game, position) == [
        "    (an empty point shows its name)", "          c", "    ", "    4   9   v   1",
        "        8   c", "          7", "      3       2"]
    svg = board_svg(game, position)
    parseString(svg)
    assert svg.count('rx="14"') == 10  # a round spot a point, no squares
    assert svg.count('class="board-path"') == 5
    assert svg.count('class="point-name"') == 10 and ">g</text>" not in svg  # no coordinates
    assert svg.index('class="board-path"') < svg.index('rx="14"')  # the lines under the spots
    sketch = game.move_sketch(game.parse(position), "5x2")
    assert sketch.kind == "move" and sketch.cells == ((2, 4), (5, 5))


def test_gamesmanone_notation():
    from test_peer_gamesmanone import peer
    notation = peer.make_case("kaooa").notation
    assert peer.make_case("kaooa").peer_game == "mkaooa"
    assert notation.to_peer("(c ----- ----- 6)") == "1_----------0"
    assert notation.to_peer("(v c---- vc--- 4)") == "2_C----VC---2"
    assert notation.from_peer("2_C----VC---2") == "(v c---- vc--- 4)"
    assert notation.move_to_peer("3") == "3" and notation.move_to_peer("5x2") == "5 -> 2"
    assert notation.move_from_peer("5 -> 2") == "5x2"
    assert notation.move_from_peer("5 -> 1") == "5-1"
    game = make_game("kaooa")
    for text in peer.KAOOA_CORNERS:  # legal, and unchanged by the round trip
        game.parse(text)
        assert notation.from_peer(notation.to_peer(text)) == text
    assert np.all(np.diff(sorted(notation.jumps())) != 0) and len(notation.jumps()) == 20
