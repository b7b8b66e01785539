"""Winkers (games/winkers.py, GamesmanOne's winkers): the hexagon's lines and
symmetries against GamesmanOne's tables; the whole game's index against its count;
docs/RULES.md's examples in both implementations; every index's moves and verdicts
against the reference (tests/reference/winkers.py) on a small game; the symmetric
index's values and the endgame table's are compared with the reference by
tests/test_crosscheck.py; here, positions refused; the hexagon drawn. Every position's
value is compared with the reference by tests/test_crosscheck.py (its
``reference_boards``), and with GamesmanOne's by ``peer_gamesmanone.py agree --game
winkers`` (docs/BENCHMARKS.md)."""

from __future__ import annotations

from xml.dom.minidom import parseString

import pytest

from reference.winkers import Game as Reference
from tiersolve.errors import ImpossiblePositionError, OtherBoardError
from tiersolve.games import make_game
from tiersolve.games.winkers import lines, symmetries
from tiersolve.values import ILLEGAL, LOSE, TIE, UNDECIDED, WIN

#: GamesmanOne's three-in-a-rows (src/games/winkers/winkers.c, 0-based points).
PEER_LINES = (
    (0, 1, 2), (3, 4, 5), (4, 5, 6), (7, 8, 9), (8, 9, 10), (9, 10, 11), (12, 13, 14),
    (13, 14, 15), (16, 17, 18), (2, 6, 11), (1, 5, 10), (5, 10, 15), (0, 4, 9), (4, 9, 14),
    (9, 14, 18), (3, 8, 13), (8, 13, 17), (7, 12, 16), (0, 3, 7), (1, 4, 8), (4, 8, 12),
    (2, 5, 9), (5, 9, 13), (9, 13, 16), (6, 10, 14), (10, 14, 17), (11, 15, 18))
#: Two of its symmetries (a turn by 60 degrees and a mirror): the group they make is
#: its twelve.
PEER_TURN = (7, 3, 0, 12, 8, 4, 1, 16, 13, 9, 5, 2, 17, 14, 10, 6, 18, 15, 11)
PEER_MIRROR = (2, 1, 0, 6, 5, 4, 3, 11, 10, 9, 8, 7, 15, 14, 13, 12, 18, 17, 16)


def test_the_lines_and_symmetries_are_gamesmanones():
    assert {frozenset(line) for line in lines(3)} == {frozenset(line) for line in PEER_LINES}
    assert len(lines(3)) == 27 and len(lines(2)) == 3
    group = {tuple(range(19))}
    while True:
        grown = group | {tuple(a[b[p]] for p in range(19)) for a in group
                         for b in (PEER_TURN, PEER_MIRROR)}
        if grown == group:
            break
        group = grown
    assert {tuple(image) for image in symmetries(3)} == group and len(group) == 12
    assert len({tuple(image) for image in symmetries(2)}) == 12


def test_the_whole_game_is_gamesmanones_index():
    """GamesmanOne: 'all 915 tiers ... of total size 255779610746 (positions)'."""
    game = make_game("winkers")
    assert game.tiers.count == 915 and game.size == 255_779_610_746
    assert game.default_start() == "(x --- ---- ----- ---- ---)"
    assert [child.move for child in game.children(game.start())] == [str(p) for p in range(1, 20)]


def test_the_rules_examples_in_both():
    for options, text, value, ref_value in (
            ({}, "(o xxx cccc c---- ---- ---)", LOSE, "lose"),
            ({"size": 2, "neutrals": 1, "winks": 1}, "(x o- --- --)", WIN, "win"),
            ({"size": 2, "neutrals": 4, "winks": 4}, "(x xo oxo xo)", TIE, "tie"),
            ({}, "(o xc- ---- ----- ---- ---)", UNDECIDED, None)):
        game, ref = make_game("winkers", **options), Reference(**options)
        assert game.primitive_value(game.parse(text)) == value, text
        assert ref.primitive(ref.parse(text)) == ref_value, text
    for options, text in (({}, "(o --- ---- ----- ---- ---)"), ({"neutrals": 1}, "(o ccc ---- ----- ---- ---)"),
                          ({}, "(x x-- ---- ----- ---- ---)"), ({}, "(x xxx cccc cc--- ---- ---)")):
        with pytest.raises(ImpossiblePositionError):
            make_game("winkers", **options).parse(text)
        with pytest.raises(ValueError):
            Reference(**options).parse(text)


def test_every_index_moves_as_the_reference_does():
    """Every index of a small game: illegal exactly where the reference refuses it;
    else the same verdict and the same moves to the same positions."""
    options = {"size": 2, "neutrals": 3, "winks": 3, "from_move": 9}
    game, ref = make_game("winkers", **options), Reference(**options)
    names = {None: UNDECIDED, "win": WIN, "lose": LOSE, "tie": TIE}
    for index in range(game.size):
        state = game.state_at(index)
        text = game.format(state)
        verdict = game.primitive_value(state)
        if verdict == ILLEGAL:
            assert not ref.valid((text[1], "".join(text[3:-1].split()))), text
            continue
        theirs = ref.parse(text)
        assert names[ref.primitive(theirs)] == verdict, text
        if verdict == UNDECIDED:
            ours = sorted(game.format(child.state) for child in game.children(state))
            assert ours == sorted(ref.format(child) for child, _ in ref.moves(theirs)), text


@pytest.mark.parametrize("options, text, error, words", [
    ({}, "(x -- --- --)", OtherBoardError, "5 rows"),
    ({}, "(x --- ---- ---- ---- ---)", OtherBoardError, "3, 4, 5, 4, 3"),
    ({}, "(c --- ---- ----- ---- ---)", ValueError, "is x or o"),
    ({}, "(x --- ---- --C-- ---- ---)", ValueError, "a point holds"),
    ({}, "(x --- ---- -----)", ValueError, "the player to move and 5 rows"),
    ({}, "(x c-- ---- ----- ---- ---)", ImpossiblePositionError, "o is to move"),
    ({"winks": 1}, "(o xxc cc-- ----- ---- ---)", ImpossiblePositionError, "2 winks; each has 1"),
    ({"from_move": 4}, "(o c-- ---- ----- ---- ---)", ValueError, "endgame table"),
])
def test_bad_positions_are_refused_saying_why(options, text, error, words):
    with pytest.raises(error, match=words):
        make_game("winkers", **options).parse(text)


def test_the_endgame_start_and_too_late_a_start():
    game = make_game("winkers", from_move=20)
    assert game.default_start() == "(x occ cccc ccccc cccc ccc)"
    assert game.primitive_value(game.start()) == UNDECIDED
    with pytest.raises(ValueError, match="too large"):
        make_game("winkers", size=2, neutrals=1, winks=1, from_move=9).tiers


def test_the_hexagon_is_drawn():
    from tiersolve.games.board import board_svg

    game = make_game("winkers")
    position = "(o xc- ---- ----- ---- ---)"
    assert game.grid(game.parse(position))[:2] == ["  x c -  ", " - - - - "]
    svg = board_svg(game, position)
    parseString(svg)
    assert svg.count('rx="14"') == 19  # a round spot a point
    assert svg.count('class="board-path"') == 15  # five rows, five lines slanting each way
    assert svg.count('class="point-name"') == 19


def test_the_peer_scripts_notation():
    from test_peer_gamesmanone import peer

    case = peer.make_case("winkers")
    notation = case.notation
    assert case.peer_positions() == 255_779_610_746 and not case.solvable
    assert notation.to_peer("(x --- ---- ----- ---- ---)") == "-------------------_10_10"
    assert notation.to_peer("(o xc- ---- ----- ---- ---)") == "XC-----------------_9_9"
    assert notation.from_peer("XC-----------------_9_9") == "(o xc- ---- ----- ---- ---)"
    with pytest.raises(ValueError, match="do not follow"):
        notation.from_peer("XC-----------------_9_8")
    assert notation.move_to_peer("7") == "6" and notation.move_from_peer("18") == "19"
    assert notation.tier_key("7X_8O_10CX_9CO") == (7, 8, 19)
