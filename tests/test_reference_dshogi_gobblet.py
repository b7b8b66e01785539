"""Self-checks of the plain-Python reference Dōbutsu shōgi and Gobblet Gobblers
(tests/reference/dshogi.py, tests/reference/gobblet.py) against hand-made positions:
each test would fail on one misread rule of docs/RULES.md (the end at the far row,
promotion, drops, captured Hens, a player who cannot move; what may cover what, a
lift that uncovers a line, both colours in line). Solves are of small piece sets,
checked position by position against the RULES.md equations, and exact searches of a
few plies where a whole solve is too large. With GamesmanOne's batch query helper at
hand (``GAMESMANONE_BATCHQUERY``), the rules are also compared with GamesmanOne's own,
position by position: legality, the primitive verdict and the children."""

import itertools
import json
import os
import random
import re
import subprocess
from pathlib import Path

import pytest

from reference.dshogi import Game as Shogi
from reference.dshogi import targets
from reference.gobblet import Game as Gobblet
from reference.solve import check_solution, solve

RULES = Path(__file__).resolve().parent.parent / "docs" / "RULES.md"


def bounded(game, state, depth):
    """The exact (value, remoteness) of ``state`` if it is a WIN or LOSE in at most
    ``depth`` plies, else None (no move here lets the same player move again)."""
    finished = game.primitive(state)
    if finished is not None:
        return finished, 0
    if depth == 0:
        return None
    seen = [bounded(game, child, depth - 1) for child in
            {child for child, _ in game.moves(state)}]
    wins = [v[1] for v in seen if v and v[0] == "lose"]
    if wins:
        return "win", 1 + min(wins)
    if all(v and v[0] == "win" for v in seen):
        return "lose", 1 + max(v[1] for v in seen)
    return None


def after(game, text, move):
    """The text of the position after ``move`` in the position ``text``."""
    return game.format(game.play(game.parse(text), move))


def section(name):
    text = RULES.read_text(encoding="utf-8")
    start = text.index(f"(`{name}`)\n")
    end = text.find("\n## ", start)
    return text[start:end if end >= 0 else len(text)]


def spans(name):
    """(refused, options, position) of every position written in the game's section,
    options given as ``--flag value`` before it (letters too: ``--animals C``)."""
    found = []
    for span in re.findall(r"`([^`\n]+)`", section(name)):
        match = re.fullmatch(r"(refused: )?((?:--[a-z]+ \w+ )*)(\(.*\))", span)
        if match:
            words = match[2].split()
            options = {flag[2:]: int(value) if value.isdigit() else value
                       for flag, value in zip(words[::2], words[1::2])}
            found.append((bool(match[1]), options, match[3]))
    return found


# ================================================================ Dōbutsu shōgi
def test_shogi_start_text_and_first_moves():
    game = Shogi()
    start = game.start()
    assert game.format(start) == "(L gle -c- -C- ELG -)"
    assert game.parse("(L gle -c- -C- ELG -)") == start
    assert game.move_names(start) == ["b2-b3", "b1-a2", "b1-c2", "c1-c2"]
    assert game.format(Shogi(animals="C").start()) == "(L -l- -c- -C- -L- -)"
    assert game.format(Shogi(animals="EG").start()) == "(L gle --- --- ELG -)"
    assert game.format(Shogi(animals="").start()) == "(L -l- --- --- -L- -)"
    for text in ["(l gle -c- -C- ELG -)", "(L gle --- -C- -L- GEc)",
                 "(l -l- --- -C- -L- GGEEc)", "(L --- --l --- L-- GGEECC)"]:
        assert game.format(game.parse(text)) == text
    assert game.format(game.parse("(L gle --- -C- -L- cEG)")) == "(L gle --- -C- -L- GEc)"


@pytest.mark.parametrize("options, text, why", [
    ({}, "(L gle --- -C- ELG h)", "Hen in hand"),
    ({}, "(L gle --- -C- ELG H)", "Hen in hand"),
    ({}, "(L gle -c- -C- ELG c)", "3 pieces of kind C"),
    ({}, "(L gle -c- -h- ELG C)", "3 pieces of kind C"),
    ({}, "(L gle --- -C- ELG -)", "1 pieces of kind C"),
    ({}, "(L gLe -c- -C- ELG -)", "two Lions"),
    ({}, "(L g-e -c- -C- E-G -)", "no Lion"),
    ({}, "(l g-e -c- -C- ElG -)", "player who just moved"),
    ({}, "(L -Ll --- g-e E-G Cc)", "far row"),
    ({}, "(l gle --- ELG -l- Cc)", "two Lions"),
    ({}, "(l g-e --- --- lL- EGCc)", "far row"),
    ({"animals": "C"}, "(L -l- -c- -C- EL- -)", "bad row"),
    ({"animals": "C"}, "(L -l- -c- --- -L- G)", "bad piece"),
    ({}, "(L gle -c- -C- ELG)", "turn, four rows and the hands"),
    ({}, "(x gle -c- -C- ELG -)", "turn is L or l"),
    ({}, "(L gle -c- -C- ELGG -)", "bad row"),
])
def test_shogi_refuses(options, text, why):
    with pytest.raises(ValueError, match=why):
        Shogi(**options).parse(text)


def test_shogi_options():
    assert Shogi().animals == "GEC"
    assert Shogi(animals="CG").animals == "GC"
    for bad in ({"animals": "X"}, {"animals": "CC"}, {"animals": 3}, {"rows": 4}):
        with pytest.raises(ValueError):
            Shogi(**bad)


def steps(game, text, square):
    """The squares the piece on ``square`` can step to, as move names' targets."""
    return sorted(name[3:] for name in game.move_names(game.parse(text))
                  if name.startswith(square + "-"))


def test_shogi_how_each_piece_moves():
    game = Shogi()
    # each piece on b2 (or b3 for the second player) of an otherwise quiet board
    assert steps(game, "(L --l --- -G- L-- EECCg)", "b2") == ["a2", "b1", "b3", "c2"]
    assert steps(game, "(L --l --- -E- -L- GGCCe)", "b2") == ["a1", "a3", "c1", "c3"]
    assert steps(game, "(L --l --- -C- L-- GGEEc)", "b2") == ["b3"]
    assert steps(game, "(L --l --- -H- L-- GGEEc)", "b2") == \
        ["a2", "a3", "b1", "b3", "c2", "c3"]  # not a1, c1: diagonally backward
    assert steps(game, "(L --l --- -L- --- GGEECC)", "b2") == \
        ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"]
    # the second player's forward is down
    assert steps(game, "(l --l -c- --- L-- GGEEc)", "b3") == ["b2"]
    assert steps(game, "(l --l -h- --- L-- GGEEc)", "b3") == \
        ["a2", "a3", "b2", "b4", "c2", "c3"]  # not a4, c4
    # onto the opponent's piece it captures; never onto one's own
    assert steps(game, "(L --l -g- -CG L-- EEc)", "b2") == ["b3"]
    assert steps(game, "(L --l -G- -CE L-- Egc)", "b2") == []


def test_shogi_promotion():
    game = Shogi()
    # the rules' example: a Chick takes the Elephant on the far row and is promoted
    assert after(game, "(L gle --C --- ELG c)", "c3-c4") == "(l glH --- --- ELG Ec)"
    # promoted without a capture too, and only there
    assert after(game, "(L ge- -lC --- ELG c)", "c3-c4") == "(l geH -l- --- ELG c)"
    assert after(game, "(L gle --- -C- ELG c)", "b2-b3") == "(l gle -C- --- ELG c)"
    # the second player's Chick is promoted on row 1, by a capture too
    assert after(game, "(l gle --- --c EL- GC)", "c2-c1") == "(L gle --- --- ELh GC)"
    assert after(game, "(l gle --- --c ELG C)", "c2-c1") == "(L gle --- --- ELh Cg)"
    # a Hen stays a Hen when it moves
    assert after(game, "(L gHe -l- --- EL- Gc)", "b4-b3") == "(l g-e -H- --- EL- Gc)"


def test_shogi_drops_anywhere_far_row_included_without_promotion():
    game = Shogi()
    # the rules' example: a Chick dropped on the far row stays a Chick and is stuck
    child = game.parse(after(game, "(L g-e l-- --- ELG Cc)", "C*b4"))
    assert game.format(child) == "(l gCe l-- --- ELG c)"
    assert not [m for m in game.move_names((0,) + child[1:]) if m.startswith("b4-")]
    # every empty square, for every kind in the hand, one drop each
    state = game.parse("(L g-e l-- --- ELG Cc)")
    drops = [m for m in game.move_names(state) if "*" in m]
    assert sorted(drops) == sorted("C*" + sq for sq in ["b4", "b3", "c3", "a2", "b2", "c2"])
    state = game.parse("(L -l- --- -L- --- GGEECC)")
    assert len([m for m in game.move_names(state) if "*" in m]) == 3 * 10
    # the second player drops with upper case names, and only their own hand
    state = game.parse("(l -l- --- -L- --- GGEEcc)")
    assert sorted({m[0] for m in game.move_names(state) if "*" in m}) == ["C"]
    assert after(game, "(l -l- --- -L- --- GGEEcc)", "C*a1") == "(L -l- --- -L- c-- GGEEc)"


def test_shogi_captures_go_to_the_hand_a_hen_as_a_chick():
    game = Shogi()
    assert after(game, "(L gle --- -Lh E-G C)", "b2-c2") == "(l gle --- --L E-G CC)"
    assert after(game, "(l g-e -l- -H- ELG c)", "b3-b2") == "(L g-e --- -l- ELG cc)"
    assert after(game, "(L gle -c- -C- ELG -)", "b2-b3") == "(l gle -C- --- ELG C)"
    # a captured Lion goes to no hand, and the game is over
    child = game.play(game.parse("(l g-e -c- lC- ELG -)"), "a2-b1")
    assert game.format(child) == "(L g-e -c- -C- ElG -)"
    assert game.primitive(child) == "lose" and game.moves(child) == []
    # a Chick that takes the Lion on the far row is promoted all the same
    assert after(game, "(l g-e l-- -c- ELG C)", "b2-b1") == "(L g-e l-- --- EhG C)"


def test_shogi_the_end_at_the_far_row():
    game = Shogi()
    # the rules' examples: attacked, a WIN in 0 for the player to move; safe, a LOSE
    assert game.primitive(game.parse("(l -lL --- g-e E-G Cc)")) == "win"
    assert game.primitive(game.parse("(l --L --- gle E-G Cc)")) == "lose"
    # only a capture counts, by any piece: a Hen takes straight back, not diagonally
    assert game.primitive(game.parse("(l -L- -h- l-- E-G GEC)")) == "win"
    assert game.primitive(game.parse("(l L-- -h- l-- E-G GEC)")) == "lose"
    assert game.primitive(game.parse("(l L-- c-- l-- E-G GEC)")) == "lose"  # forward is down
    assert game.primitive(game.parse("(l L-- e-- --l --- GGECC)")) == "lose"
    assert game.primitive(game.parse("(l -L- e-- --l --- GGECC)")) == "win"
    # a drop can never capture: a full hand does not help
    assert game.primitive(game.parse("(l --L --- l-- --- ggeecc)")) == "lose"
    # the second player's Lion on row 1, the first player to move
    assert game.primitive(game.parse("(L g-e --- -L- -lG ECc)")) == "win"
    assert game.primitive(game.parse("(L g-e L-G --- -l- ECc)")) == "lose"
    # a missing Lion is checked first: lost, though the winner's Lion stands on its far row
    assert game.primitive(game.parse("(L g-e -c- -C- ElG -)")) == "lose"
    # a Lion elsewhere ends nothing
    assert game.primitive(game.parse("(L gle -c- -C- ELG -)")) is None
    assert game.primitive(game.parse("(l -l- -L- --- --- GGEECC)")) is None


def test_shogi_reaching_the_far_row_wins_in_one_where_it_is_safe():
    game = Shogi()
    state = game.parse("(L -l- --- -L- --- GGEECC)")
    # onto b4 takes the Lion; a4 and c4 are next to it; from b2 no other square of row 4
    values = {name: bounded(game, child, 0)
              for name, child in game.move_names_and_children(state)}
    assert values["b2-b3"] is None  # not the far row: play goes on
    state = game.parse("(L --l L-- --- --- GGEECC)")
    values = {name: bounded(game, child, 0)
              for name, child in game.move_names_and_children(state)}
    assert values["a3-a4"] == ("lose", 0)  # safe: the opponent has lost
    assert values["a3-b4"] == ("win", 0)   # next to the Lion: taken at once
    assert bounded(game, state, 1) == ("win", 1)
    # a Lion's step onto an attacked square elsewhere is legal too
    assert "a3-b3" in game.move_names(game.parse("(L --- L-- -l- --- GGEECC)"))


def test_shogi_lions_only_by_hand():
    """Lions alone: the first player wins in 5 (b1-b2; the second's Lion must keep off
    row 3 and goes to a4 or c4; c3 or a3 away from it; then the free corner of row 4)."""
    game = Shogi(animals="")
    result = solve(game, [game.start()])
    check_solution(game, result)
    assert result[game.start()] == ("win", 5)
    assert bounded(game, game.start(), 5) == ("win", 5)
    assert bounded(game, game.start(), 4) is None


def stuck_positions(game):
    """Every valid position, by a search over the arrangements of the mover's pieces,
    where the player to move has no move though the game is not over (the first
    player's, then the same turned round for the second)."""
    found = set()
    kinds = "GECH"
    for lion in range(12):
        others = [s for s in range(12) if s != lion]
        for n in range(7):
            for squares in itertools.combinations(others, n):
                own = set(squares) | {lion}
                if not set(targets(lion, "L")) <= own:
                    continue
                options = [[k for k in kinds if set(targets(s, k)) <= own] for s in squares]
                for combo in itertools.product(*options):
                    counts = [combo.count("G"), combo.count("E"),
                              combo.count("C") + combo.count("H")]
                    if max(counts) > 2:
                        continue
                    cells = ["-"] * 12
                    cells[lion] = "L"
                    for s, k in zip(squares, combo):
                        cells[s] = k
                    for where in range(12):  # the other Lion, the rest in its hand
                        if cells[where] == "-":
                            board = cells[:where] + ["l"] + cells[where + 1:]
                            hands = (0, 0, 0, *(2 - c for c in counts))
                            state = (0, "".join(board), hands)
                            if game.invalid_reason(state) is None and game.stuck(state):
                                found.add(state)
    turned = set()
    for turn, board, hands in found:
        rotated = "".join(c.swapcase() for c in reversed(board))
        turned.add((1 - turn, rotated, hands[3:] + hands[:3]))
    return found | turned


def test_shogi_a_player_who_cannot_move_draws():
    game = Shogi()
    stuck = stuck_positions(game)
    # the first player's Lion walled in on a3 or c3, the other Lion out of reach
    # (not on row 1, where it would have won); and the same for the second player
    assert sorted(map(game.format, stuck)) == [
        "(L -EG EGL lCC --- -)", "(L GE- LGE CCl --- -)", "(L GEl LGE CC- --- -)",
        "(L lEG EGL -CC --- -)", "(l --- -cc egl Leg -)", "(l --- Lcc egl -eg -)",
        "(l --- cc- lge geL -)", "(l --- ccL lge ge- -)"]
    for state in stuck:
        assert game.primitive(state) is None and game.move_names(state) == []
        assert game.moves(state) == [(state, True)]
        result = solve(game, [state])
        assert result[state] == ("draw", None)
    # no position leads to one: the lone Lion came from a square next to it, and
    # those are the other side's, or its own far row (where it would have won)
    for turn, board, hands in stuck:
        lion = board.index("lL"[turn])
        for square in targets(lion, "lL"[turn]):
            if board[square] == "-":
                assert square // 3 == (3 if turn == 0 else 0)
            else:
                assert board[square].isupper() == (turn == 0)
    # with fewer kinds of piece no one is ever stuck
    for animals in ("GE", "GC", "EC"):
        assert not stuck_positions(Shogi(animals=animals))


@pytest.mark.parametrize("animals, positions, start", [
    ("G", 49440, ("draw", None)),
    ("E", 49424, ("draw", None)),
    pytest.param("C", 177490, ("win", 15), marks=pytest.mark.slow),  # 20 s
])
def test_shogi_small_sets_solve_consistently(animals, positions, start):
    game = Shogi(animals=animals)
    result = solve(game, [game.start()])
    check_solution(game, result)
    assert len(result) == positions and result[game.start()] == start
    for state in result:  # every position reached is valid, and its text reads back
        assert game.invalid_reason(state) is None
        assert game.parse(game.format(state)) == state


def test_shogi_rules_examples():
    for refused, options, text in spans("dshogi"):
        game = Shogi(**options)
        if refused:
            with pytest.raises(ValueError):
                game.parse(text)
        else:
            game.parse(text)
    assert ("--animals C" in section("dshogi")
            and (False, {"animals": "C"}, "(L -l- -c- -C- -L- -)") in spans("dshogi"))
    game = Shogi()
    assert after(game, "(L gle --C --- ELG c)", "c3-c4") == "(l glH --- --- ELG Ec)"
    assert after(game, "(L gle --- -Lh E-G C)", "b2-c2") == "(l gle --- --L E-G CC)"
    assert after(game, "(L g-e l-- --- ELG Cc)", "C*b4") == "(l gCe l-- --- ELG c)"
    assert game.primitive(game.parse("(L GE- LGE CCl --- -)")) is None


# ============================================================== Gobblet Gobblers
def test_gobblet_start_and_text():
    game = Gobblet()
    start = game.start()
    assert game.format(start) == "(x ---/---/--- ---/---/--- ---/---/---)"
    assert game.parse("(x ---/---/--- ---/---/--- ---/---/---)") == start
    names = game.move_names(start)
    assert len(names) == 27 and names[0] == "S*a3" and names[-1] == "L*c1"
    small = Gobblet(sizes=2, pieces=1)
    assert small.format(small.start()) == "(x --/--/-- --/--/-- --/--/--)"
    assert len(small.move_names(small.start())) == 18
    text = "(o x-o/-x-/--- ---/o--/-xo ---/---/xo-)"
    assert game.format(game.parse(text)) == text


@pytest.mark.parametrize("options, text", [
    ({}, "(x x--/x--/x-- ---/---/--- ---/---/---)"),       # three small x
    ({"pieces": 1}, "(x x--/x--/--- ---/---/--- ---/---/---)"),
    ({}, "(x --/--/-- --/--/-- --/--/--)"),                # a square of two sizes
    ({}, "(x ---/---/--- ---/---/---)"),                   # two rows
    ({}, "(x ---/---/---/--- ---/---/--- ---/---/---)"),   # four squares
    ({}, "(X ---/---/--- ---/---/--- ---/---/---)"),       # upper case
    ({}, "(x -a-/---/--- ---/---/--- ---/---/---)"),
])
def test_gobblet_refuses(options, text):
    with pytest.raises(ValueError):
        Gobblet(**options).parse(text)


def test_gobblet_options():
    assert (Gobblet().sizes, Gobblet().pieces) == (3, 2)
    for bad in ({"sizes": 0}, {"sizes": 4}, {"pieces": 3}, {"pieces": 0}, {"size": 3}):
        with pytest.raises(ValueError):
            Gobblet(**bad)


def test_gobblet_what_may_cover_what():
    game = Gobblet()
    # the rules' example: only a larger piece covers, of either colour
    state = game.parse("(o ---/---/--- ---/-x-/--- ---/---/---)")
    assert [m for m in game.move_names(state) if m.endswith("b2")] == ["L*b2"]
    assert after(game, "(o ---/---/--- ---/-x-/--- ---/---/---)", "L*b2") == \
        "(x ---/---/--- ---/-xo/--- ---/---/---)"
    # one's own pieces too; never a piece of the same size
    state = game.parse("(x ---/---/--- ---/-x-/--- ---/---/---)")
    assert [m for m in game.move_names(state) if m.endswith("b2")] == ["L*b2"]
    # a piece on the board moves onto an empty square or a smaller top only
    state = game.parse("(x ---/---/--- x--/-o-/--o ---/-x-/---)")
    assert sorted(m[3:] for m in game.move_names(state) if m.startswith("b1-")) == \
        ["a1", "a2", "a3", "b3", "c1", "c3"]  # a2 has a small piece; not b2, c2
    assert sorted(m[3:] for m in game.move_names(state) if m.startswith("a2-")) == \
        ["a1", "a3", "b3", "c1", "c3"]
    # a covered piece cannot move, nor can the opponent's; lifting shows what is under
    state = game.parse("(x x-o/---/--- ---/---/--- ---/---/---)")
    assert not [m for m in game.move_names(state) if m.startswith("a3-")]
    assert after(game, "(o x-o/---/--- ---/---/--- ---/---/---)", "a3-c1") == \
        "(x x--/---/--- ---/---/--- ---/---/--o)"
    # a large piece can go on any stack without a large piece
    state = game.parse("(x xoo/-x-/o-- ---/--x/--- ---/---/---)")
    assert sorted(m[3:] for m in game.move_names(state) if m.startswith("b2-")) == \
        ["a1", "a2", "b1", "b3", "c1", "c2", "c3"]


def test_gobblet_reserves():
    game = Gobblet()
    # two of each size: once both small x are down, no small placement
    state = game.parse("(x x--/x--/--- ---/---/--- ---/---/---)")
    assert not [m for m in game.move_names(state) if m.startswith("S*")]
    assert len([m for m in game.move_names(state) if m.startswith("M*")]) == 9
    # covered pieces are still on the board, not in the reserve
    state = game.parse("(x x-o/---/--- ---/---/--- ---/---/x--)")
    assert not [m for m in game.move_names(state) if m.startswith("S*")]
    one = Gobblet(pieces=1)
    state = one.parse("(x x--/---/--- ---/---/--- ---/---/---)")
    assert {m[0] for m in one.move_names(state) if "*" in m} == {"M", "L"}


def test_gobblet_lines():
    game = Gobblet()
    # only the pieces that show count
    assert game.primitive(game.parse("(o xo-/x--/-x- ---/---/--- ---/---/---)")) is None
    assert game.primitive(game.parse("(o x--/-x-/x-o ---/---/--- ---/---/---)")) is None
    assert game.primitive(game.parse("(o x--/-x-/--x ---/---/--- ---/---/---)")) == "lose"
    assert game.primitive(game.parse("(x x--/-x-/--x ---/---/--- ---/---/---)")) == "win"
    # columns and both diagonals
    assert game.primitive(game.parse("(o x--/---/--- x--/---/--- -x-/---/---)")) == "lose"
    assert game.primitive(game.parse("(x ---/---/--o ---/-o-/--- -o-/---/---)")) == "lose"
    # both colours in line: the player to move wins, whoever made it
    both = "o--/o--/-o- ---/---/--- x--/x--/-x-"
    assert game.primitive(game.parse(f"(x {both})")) == "win"
    assert game.primitive(game.parse(f"(o {both})")) == "win"
    assert game.moves(game.parse(f"(o {both})")) == []


def test_gobblet_a_lift_that_uncovers_a_line():
    game = Gobblet()
    text = "(x o-x/-o-/-o- ---/---/--- x--/---/---)"
    state = game.parse(text)
    kids = dict(game.move_names_and_children(state))
    # lifting the large x off a3 shows o's row: o, to move, has won
    assert game.format(kids["a3-b2"]) == "(o o--/-o-/-o- ---/--x/--- x--/---/---)"
    assert game.primitive(kids["a3-b2"]) == "win"
    # unless it lands on that row, on one of its pieces
    assert game.format(kids["a3-b3"]) == "(o o--/-ox/-o- ---/---/--- x--/---/---)"
    assert game.primitive(kids["a3-b3"]) is None
    assert game.primitive(kids["a3-c3"]) is None
    for name, child in kids.items():
        if name.startswith("a3-") and name[3:] not in ("b3", "c3"):
            assert game.primitive(child) == "win", name
    # a lift that uncovers the other's line while completing one's own still loses
    child = game.play(game.parse("(x o-x/-o-/-o- ---/x--/x-- ---/---/---)"), "a3-a2")
    assert game.format(child) == "(o o--/-o-/-o- --x/x--/x-- ---/---/---)"
    assert game.has_line(child[1], "x") and game.has_line(child[1], "o")
    assert game.primitive(child) == "win"  # for o
    # and a lift that uncovers the other's line, made by the other, loses for them
    state = game.parse("(o x-o/x--/-x- ---/---/--- ---/---/---)")
    assert game.primitive(state) is None  # the large o shows on a3
    child = game.play(state, "a3-b2")
    assert game.format(child) == "(x x--/x--/-x- ---/--o/--- ---/---/---)"
    assert game.primitive(child) == "win"  # x to move, with its own line


def test_gobblet_values_a_few_plies_deep():
    game = Gobblet()
    # x wins at once by covering the small o on c3 with a medium piece
    state = game.parse("(x x--/x--/o-- ---/---/--- ---/---/---)")
    assert bounded(game, state, 1) == ("win", 1)
    assert bounded(game, game.parse("(o x--/x--/o-- ---/---/--- ---/---/---)"), 1) is None
    # x threatens a3 (column a), c2 (row 2) and c3 (the diagonal); whatever o covers,
    # one threat is left (b2 is in two lines, a2 in two, a1 in two): lost in 2
    state = game.parse("(o ---/---/--- x--/x--/--- -x-/---/o--)")
    assert bounded(game, state, 1) is None
    assert bounded(game, state, 2) == ("lose", 2)
    # the same, x to move: it wins in 1
    assert bounded(game, game.parse("(x ---/---/--- x--/x--/--- -x-/---/o--)"), 1) == ("win", 1)


def test_gobblet_a_player_always_has_a_move():
    for options in ({}, {"sizes": 2}, {"sizes": 2, "pieces": 1}, {"pieces": 1}):
        game = Gobblet(**options)
        rng = random.Random(5)
        for _ in range(2000):
            state = game.start()
            for _ in range(rng.randrange(30)):
                kids = game.moves(state)
                if not kids:
                    break
                state = rng.choice(kids)[0]
            assert game.primitive(state) is not None or game.moves(state), game.format(state)


@pytest.mark.parametrize("options, positions", [
    ({"sizes": 1, "pieces": 1}, 1 + 9 + 72 + 72),  # counted by hand
    ({"sizes": 1, "pieces": 2}, 2674),
    ({"sizes": 2, "pieces": 1}, 16021),
])
def test_gobblet_without_three_pieces_no_one_wins(options, positions):
    """With two pieces or fewer a player no line can be made: every position is a
    draw (and the positions reached, every arrangement with the right counts)."""
    game = Gobblet(**options)
    result = solve(game, [game.start()])
    check_solution(game, result)
    assert len(result) == positions
    assert {value for value, _ in result.values()} == {"draw"}


def test_gobblet_rules_examples():
    for refused, options, text in spans("gobblet"):
        game = Gobblet(**options)
        if refused:
            with pytest.raises(ValueError):
                game.parse(text)
        else:
            game.parse(text)
    assert (False, {"sizes": 2, "pieces": 1}, "(x --/--/-- --/--/-- --/--/--)") in \
        spans("gobblet")


# ================================================= against GamesmanOne, if at hand
#: GamesmanOne's batch query helper (``scripts/peer_gamesmanone.py`` compiles it next to
#: ``bin/gamesman``, docs/PEER.md); without it these tests are skipped.
PEER_HELPER = os.environ.get("GAMESMANONE_BATCHQUERY")


def peer_rules(game_name, formals, tmp_path):
    """GamesmanOne's answers (legal, primitive verdict, moves) for formal positions."""
    run = subprocess.run([PEER_HELPER, "data", game_name, "0", "rules"], cwd=tmp_path,
                         input="".join(f + "\n" for f in formals), capture_output=True,
                         text=True, timeout=600)
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(answers) == len(formals), run.stderr[-300:]
    return answers


def disagreements(game, states, formal, answers):
    """Positions where the reference and GamesmanOne differ on legality, on the
    primitive verdict or on the set of children."""
    wrong = []
    for state, answer in zip(states, answers):
        valid = getattr(game, "invalid_reason", lambda s: None)(state) is None
        mine = game.primitive(state) if valid else None
        kids = {formal(child) for _, child in game.move_names_and_children(state)} \
            if valid and mine is None else set()
        theirs = ({m["position"] for m in answer["moves"]}
                  if valid and mine is None else set())
        if (valid != answer["legal"] or (valid and (mine or "undecided") != answer["primitive"])
                or kids != theirs):
            wrong.append(game.format(state))
    return wrong


def random_play(game, rng, games, longest):
    """Every position of ``games`` random games from the start."""
    seen = set()
    for _ in range(games):
        state = game.start()
        for _ in range(rng.randrange(1, longest)):
            seen.add(state)
            kids = game.moves(state)
            if game.primitive(state) is not None:
                break
            state = rng.choice(kids)[0]
        seen.add(state)
    return seen


@pytest.mark.skipif(not PEER_HELPER, reason="GAMESMANONE_BATCHQUERY is not set")
def test_shogi_rules_agree_with_gamesmanone(tmp_path):
    game, rng = Shogi(), random.Random(11)

    def formal(state):
        turn, board, hands = state
        return f"{turn + 1}_{board}_{''.join(map(str, hands[:3]))}_" \
               f"{''.join(map(str, hands[3:]))}"

    states = random_play(game, rng, 100, 80)
    while len(states) < 3000:  # random arrangements, valid or not (the Lions' rules)
        cells, hands = ["-"] * 12, [0] * 6
        lions = rng.sample(range(12), 2)
        cells[lions[0]] = "L"
        cells[lions[1]] = "l" if rng.random() > 0.05 else "-"
        for kind in "GGEECC":
            side = rng.randrange(2)
            if rng.random() < 0.4:
                hands[3 * side + "GEC".index(kind)] += 1
            else:
                piece = "H" if kind == "C" and rng.random() < 0.3 else kind
                square = rng.choice([i for i, c in enumerate(cells) if c == "-"])
                cells[square] = piece if side == 0 else piece.lower()
        states.add((rng.randrange(2), "".join(cells), tuple(hands)))
    states = sorted(states | stuck_positions(game))
    answers = peer_rules("dshogi", [formal(s) for s in states], tmp_path)
    assert disagreements(game, states, formal, answers) == []


@pytest.mark.skipif(not PEER_HELPER, reason="GAMESMANONE_BATCHQUERY is not set")
def test_gobblet_rules_agree_with_gamesmanone(tmp_path):
    game, rng = Gobblet(), random.Random(12)

    def formal(state):
        turn, board = state
        layers = ("".join(cell[size] for cell in board).upper() for size in range(3))
        return f"{'xo'.index(turn) + 1}_{''.join(layers)}"

    states = random_play(game, rng, 100, 40)
    while len(states) < 3000:  # random stacks, either player to move
        cells = [["-"] * 3 for _ in range(9)]
        for size, colour in itertools.product(range(3), "xo"):
            for _ in range(rng.randrange(3)):
                cells[rng.choice([i for i in range(9) if cells[i][size] == "-"])][size] = colour
        states.add((rng.choice("xo"), tuple("".join(c) for c in cells)))
    states = sorted(states)
    answers = peer_rules("gobbletg", [formal(s) for s in states], tmp_path)
    assert disagreements(game, states, formal, answers) == []
