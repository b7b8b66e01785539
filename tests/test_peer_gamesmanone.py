"""scripts/peer_gamesmanone.py's conversions between our notation and GamesmanOne's
(docs/PEER.md), checked without GamesmanOne: positions and move names both ways for
Quixo, Teeko, Dobutsu shogi, Gobblet Gobblers, Kaooa, All Queens Chess, Neutron, Fair
Shares and Varied Pairs and Tic-Tac-Toe, the twins our indexes store under one index,
and the sizes of GamesmanOne's indexes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load_script():
    spec = importlib.util.spec_from_file_location(
        "peer_gamesmanone", ROOT / "scripts" / "peer_gamesmanone.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("peer_gamesmanone", module)
    spec.loader.exec_module(module)
    return module


peer = _load_script()


# -- Quixo and Teeko (the formats the comparisons of docs/PEER.md used) --------------

def test_quixo_positions_and_moves():
    notation = peer.QuixoNotation(3)
    assert notation.to_peer("(o x-- --- ---)") == "2_X--------"
    assert notation.from_peer("2_X--------") == "(o x-- --- ---)"
    assert notation.move_to_peer("a3-c3") == "1 R"
    assert notation.move_from_peer("1 R") == "a3-c3"
    assert notation.move_from_peer("5 U") == "b2-b3"
    assert notation.swap_colours("(o x-- --- ---)") == "(x o-- --- ---)"


def test_teeko_moves_are_zero_based_cells():
    notation = peer.TeekoNotation()
    assert notation.move_to_peer("c3") == "12"
    assert notation.move_to_peer("c3-d4") == "12 8"
    assert notation.move_from_peer("12 8") == "c3-d4"


def test_allqueens_positions_and_moves():
    """GamesmanOne's generic hash board (row 1 at the top) and moves (``1a2b``)."""
    notation = peer.AllQueensNotation()
    start = "(w wbwbw ----- b---w ----- bwbwb)"
    assert notation.to_peer(start) == "1_WBWBW-----B---W-----BWBWB"
    assert notation.from_peer("1_WBWBW-----B---W-----BWBWB") == start
    assert notation.from_peer("2_WBWBW-----B---W-----BWBWB") == "(b" + start[2:]
    assert notation.move_to_peer("a5-a4") == "1a2a"
    assert notation.move_from_peer("1a2a") == "a5-a4"
    assert notation.move_from_peer("5e1a") == "e1-a5"
    assert notation.swap_colours(start) == "(b bwbwb ----- w---b ----- wbwbw)"
    with pytest.raises(ValueError):
        notation.from_peer("1_WBWBW")


# -- Dobutsu shogi --------------------------------------------------------------------

START = "(L gle -c- -C- ELG -)"


def test_dshogi_start_is_gamesmanones_start():
    notation = peer.DshogiNotation()
    assert notation.to_peer(START) == "1_gle-c--C-ELG_000_000"
    assert notation.from_peer("1_gle-c--C-ELG_000_000") == START


@pytest.mark.parametrize("ours, theirs", [
    ("(l gle -c- -C- ELG -)", "2_gle-c--C-ELG_000_000"),
    ("(l glH --- --- ELG Ec)", "2_glH------ELG_010_001"),  # RULES.md's promotion example
    ("(l gle --- --L E-G CC)", "2_gle-----LE-G_002_000"),  # a captured Hen, a Chick
    ("(L g-e -c- -C- ElG -)", "1_g-e-c--C-ElG_000_000"),   # a Lion taken
    ("(L g-e l-- --- -L- GEcc)", "1_g-el------L-_110_002"),
    ("(l --- -l- -L- --- GGEEcc)", "2_----l--L----_220_002"),
])
def test_dshogi_positions_both_ways(ours, theirs):
    notation = peer.DshogiNotation()
    assert notation.to_peer(ours) == theirs
    assert notation.from_peer(theirs) == ours


def test_dshogi_squares_rows_counted_from_the_top():
    notation = peer.DshogiNotation()
    # GamesmanOne's cells are row-major from the top left; its A1 is our a4.
    assert [notation.cell_to_square(k) for k in (0, 2, 9, 11)] == ["a4", "c4", "a1", "c1"]
    assert [notation.cell_to_peer(k) for k in (0, 2, 9, 11)] == ["A1", "C1", "A4", "C4"]
    for cell in range(12):
        assert notation.square_to_cell(notation.cell_to_square(cell)) == cell
        assert notation.peer_to_cell(notation.cell_to_peer(cell)) == cell


@pytest.mark.parametrize("ours, theirs, position", [
    ("b2-b3", "B3 B2", START),            # the first player's Chick takes the Chick
    ("b1-a2", "B4 A3", START),
    ("b4-b3", "B1 B2", "(l gle -c- -C- ELG -)"),
    ("G*b2", "G B3", START),              # upper case on the first player's turn
    ("G*b2", "g B3", "(l gle -c- -C- ELG -)"),  # lower case on the second's
    ("C*a4", "c A1", "(l g-e l-- --- ELG Cc)"),
])
def test_dshogi_moves_both_ways(ours, theirs, position):
    notation = peer.DshogiNotation()
    assert notation.move_to_peer(ours, position) == theirs
    assert notation.move_from_peer(theirs) == ours


def test_dshogi_twin_turns_the_board_and_exchanges_the_players():
    notation = peer.DshogiNotation()
    # The start seen by the second player is the start with the second to move.
    assert notation.swap_colours(START) == "(l gle -c- -C- ELG -)"
    text = "(L g-e l-- -H- ELG Gcc)"
    twin = notation.swap_colours(text)
    assert twin == "(l gle -h- --L E-G CCg)"
    assert notation.swap_colours(twin) == text


@pytest.mark.parametrize("bad", [
    "(L gle -c- -C- ELG)",          # no hands
    "(X gle -c- -C- ELG -)",        # turn
    "(L gle -c- -C- EL -)",         # a short row
    "(L gle -c- -C- ELG cG)",       # hands out of order
    "(L gle -c- -C- ELG GGG)",      # three in a hand
    "(L gle -x- -C- ELG -)",        # no such piece
])
def test_dshogi_bad_positions_are_refused(bad):
    with pytest.raises(ValueError):
        peer.DshogiNotation().to_peer(bad)


@pytest.mark.parametrize("bad", ["1_gle-c--C-ELG_000", "3_gle-c--C-ELG_000_000",
                                 "1_gle-c--C-ELX_000_000", "1_gle-c--C-ELG_300_000"])
def test_dshogi_bad_peer_positions_are_refused(bad):
    with pytest.raises(ValueError):
        peer.DshogiNotation().from_peer(bad)


def test_dshogi_peer_index_size():
    # GamesmanOne's generic hash for dshogi: both turns of every legal piece count.
    assert peer.dshogi_peer_positions() == 4_234_908_456
    assert peer.make_case("dshogi").peer_positions() == 4_234_908_456


# -- Gobblet Gobblers -----------------------------------------------------------------

GSTART = "(x ---/---/--- ---/---/--- ---/---/---)"


def test_gobblet_start_and_boards_by_size():
    notation = peer.GobbletNotation()
    assert notation.to_peer(GSTART) == "1_" + "-" * 27
    # a small x on a3, a medium x on b2, a large o on c3, o-x-o stacked on c1
    text = "(o x--/---/--o ---/-x-/--- ---/---/oxo)"
    formal = "2_X-------O" + "----X---X" + "--O-----O"
    assert notation.to_peer(text) == formal
    assert notation.from_peer(formal) == text


@pytest.mark.parametrize("ours, theirs", [
    ("S*b2", "A_S_4"), ("M*a3", "A_M_0"), ("L*c1", "A_L_8"),
    ("a1-b2", "M_6_4"), ("c3-a3", "M_2_0"),
])
def test_gobblet_moves_both_ways(ours, theirs):
    notation = peer.GobbletNotation()
    assert notation.move_to_peer(ours) == theirs
    assert notation.move_from_peer(theirs) == ours


def test_gobblet_twin_exchanges_colours():
    notation = peer.GobbletNotation()
    text = "(x x-o/---/--- ---/-x-/--- ---/---/oxo)"
    assert notation.swap_colours(text) == "(o o-x/---/--- ---/-o-/--- ---/---/xox)"
    assert notation.swap_colours(notation.swap_colours(text)) == text


@pytest.mark.parametrize("bad", [
    "(x ---/---/--- ---/---/---)",             # two rows
    "(x ---/---/--- ---/---/--- ---/---/--x-)",  # four characters
    "(y ---/---/--- ---/---/--- ---/---/---)",  # turn
    "(x ---/---/--- ---/---/--- ---/---/--a)",  # symbol
])
def test_gobblet_bad_positions_are_refused(bad):
    with pytest.raises(ValueError):
        peer.GobbletNotation().to_peer(bad)


def test_gobblet_case_and_index_size():
    case = peer.make_case("gobblet")
    assert case.peer_game == "gobbletg" and not case.solvable
    # 729 tiers; the one with every piece on the board holds 2 * 756^3 positions.
    assert case.peer_positions() == 5_762_947_934
    assert 2 * 756 ** 3 == 864_162_432


def test_helper_keys_are_left_out_when_compared_with_query():
    answer = {"position": "1_x", "moves": [], "primitive": "win", "legal": True}
    assert peer.query_part(answer) == {"position": "1_x", "moves": []}


def test_stuck_position_is_a_draw_on_both_sides():
    assert peer.stuck_draw("draw", {"primitive": "undecided", "moves": []})
    assert not peer.stuck_draw("draw", {"primitive": "undecided", "moves": [{"move": "x"}]})
    assert not peer.stuck_draw("lose", {"primitive": "undecided", "moves": []})


# -- Neutron: the start, the start's board reached later, moves read at the position --

def test_neutron_positions_and_moves():
    notation = peer.NeutronNotation()
    start = "(x ooooo ----- --n-- ----- xxxxx)"
    assert notation.to_peer(start) == "I"
    assert notation.from_peer("I") == start
    later = "(x again ooooo ----- --n-- ----- xxxxx)"
    assert notation.to_peer(later) == "1_OOOOO-------N-------XXXXX"
    assert notation.from_peer("1_OOOOO-------N-------XXXXX") == later
    assert notation.swap_colours(later) == "(o ooooo ----- --n-- ----- xxxxx)"
    assert notation.move_to_peer("a1-a4", start) == "a1 U"
    assert notation.move_from_peer_at("a1 U", start) == "a1-a4"
    position = "(o ooooo ----x --n-- ----- xxxx-)"
    assert notation.move_to_peer("c3-c4,a5-e1", position) == "N U a5 DR"
    assert notation.move_from_peer_at("N U a5 DR", position) == "c3-c4,a5-e1"
    assert notation.move_to_peer("c3-e1", position) == "N DR"
    assert notation.move_from_peer_at("N DR", position) == "c3-e1"


# -- Fair Shares and Varied Pairs (asked by hash: our index is GamesmanOne's hash) -----

def test_fsvp_positions_moves_and_variants():
    notation = peer.FsvpNotation(10)
    assert notation.to_peer("(6 3 1)") == "{ 6, 3, 1, }"
    assert notation.from_peer("{ 6, 3, 1, }") == "(6 3 1)"
    assert notation.peer_query("(10)") == "0" and notation.peer_query("(9 1)") == "1"
    assert notation.move_to_peer("6/3") == "s 6 3" and notation.move_to_peer("6+3") == "c 6 3"
    assert notation.move_from_peer("s 10 5") == "10/5"
    assert notation.move_from_peer("c 6 1") == "6+1"
    with pytest.raises(ValueError):
        notation.from_peer("1_XO")
    case = peer.make_case("fsvp", 100)
    assert (case.variant, case.peer_positions(), case.by_hash) == (15, 190_569_292, True)
    assert peer.make_case("fsvp").variant == 6  # GamesmanOne's default, n = 10
    with pytest.raises(peer.Failure):
        peer.make_case("fsvp", 13)


def test_digest_mix_is_splitmix64():
    import numpy as np

    # splitmix64's first output from seed 0, and the finalizer of 1
    mixed = peer.mix64(np.array([0, 1], np.uint64))
    assert int(mixed[0]) == 0xE220A8397B1DCDAF
    assert int(mixed[1]) == 0x910A2DEC89025CC1


# -- Tic-Tac-Toe: GamesmanOne's mttt and mtttier (3x3 with diagonals) ------------------

@pytest.mark.parametrize("ours, theirs", [
    ("(x --- --- ---)", "---------"),
    ("(o --- -x- ---)", "----x----"),
    ("(x x-- -o- ---)", "x---o----"),
    ("(o -oo xx- xxo)", "-ooxx-xxo"),
    ("(o xox oxx oxo)", "xoxoxxoxo"),  # full: a tie
])
def test_ttt_positions_both_ways(ours, theirs):
    notation = peer.TttNotation()
    assert notation.to_peer(ours) == theirs
    assert notation.from_peer(theirs) == ours  # the turn follows from the counts
    assert notation.swap_colours(ours) == ours


@pytest.mark.parametrize("ours, theirs", [("a3", "0"), ("b3", "1"), ("b2", "4"),
                                          ("a1", "6"), ("c1", "8")])
def test_ttt_moves_are_zero_based_cells(ours, theirs):
    notation = peer.TttNotation()
    assert notation.move_to_peer(ours) == theirs
    assert notation.move_from_peer(theirs) == ours


@pytest.mark.parametrize("bad", ["1_---------", "xx-------", "X--------", "--------"])
def test_ttt_bad_peer_positions_are_refused(bad):
    with pytest.raises(ValueError):
        peer.TttNotation().from_peer(bad)


def test_ttt_cases_and_mtttier_answers_cleaned():
    plain, tier = peer.CASES["ttt"](), peer.CASES["ttt-tier"]()
    assert (plain.peer_game, tier.peer_game) == ("mttt", "mtttier")
    assert plain.ours == tier.ours == ("--rows", "3", "--cols", "3", "--diagonal")
    assert not plain.query_cli and tier.query_cli
    assert plain.peer_positions() == 19_683 and tier.peer_positions() == 6_046
    with pytest.raises(peer.Failure):
        peer.make_case("quixo", 3, peer_game="mtttier")
    # mtttier prints its 9-character boards without their end: the rest is cut off.
    answer = {"position": "x--------\x01", "moves": [{"position": "xo-------\x05\x7f"}]}
    cleaned = peer.TttNotation().clean_peer_answer(answer)
    assert cleaned["position"] == "x--------"
    assert cleaned["moves"][0]["position"] == "xo-------"


def test_random_index_positions_are_distinct_and_stop_when_the_index_runs_out():
    """Asked for more random positions than the index holds, rules-only sampling gives
    each legal position once (it used to count repeated draws towards the number)."""
    from tiersolve.games import make_game

    case = peer.make_case("fsvp", 4)
    game = make_game(case.game, **dict(case.options))
    texts, tried = peer.random_index_positions(game, case.notation, 10_000, seed=3)
    assert len(texts) == len(set(texts)) and 0 < len(texts) <= game.size
    assert tried < 1_000  # it stops once every index was drawn, not after 200 x 10,000
