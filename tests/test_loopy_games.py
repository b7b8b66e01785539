"""Lines of Action and Surakarta: rules checked against the independent reference move
by move, the Surakarta circuits against the layout RULES.md describes, endgame-table
options, and known values."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tiersolve.games import make_game
from tiersolve.games.surakarta import circuits
from tiersolve.games.tester import check_expansions

from reference import make_game as reference_game


def children_texts(game, text):
    return sorted(game.format(child.state) for child in game.children(game.parse(text)))


def reference_children(name, options, text):
    game = reference_game(name, **options)
    return sorted(game.format(child) for child, _ in game.moves(game.parse(text)))


def random_positions(game, count, seed):
    """Texts of random legal, canonical positions of a game's index space."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.state_at(rng.randrange(game.size))
        text = game.format(state)
        try:
            game.parse(text)
        except ValueError:
            continue
        found.append(text)
    return found


@pytest.mark.parametrize("name, options", [
    ("loa", {"rows": 8, "cols": 8, "max_pieces": 4}),
    ("loa", {"rows": 5, "cols": 6}),
    ("surakarta", {"size": 6}),
    ("surakarta", {"size": 5}),
    ("surakarta", {"size": 8, "max_pieces": 4}),  # 32 places a circuit: loop masks use bit 63
])
def test_moves_agree_with_the_reference_on_random_positions(name, options):
    """Move generation on boards too big to solve whole, position by position."""
    game = make_game(name, **options)
    rules = {k: v for k, v in options.items() if k not in ("max_pieces", "symmetry")}
    checked = 0
    for text in random_positions(game, 300, seed=11):
        if game.primitive_value(game.parse(text)) != 255:  # finished: no moves on either side
            continue
        assert children_texts(game, text) == reference_children(name, rules, text), text
        checked += 1
    assert checked > 100


def test_loa_8x8_is_indexed_as_endgame_tables():
    with pytest.raises(ValueError, match=r"too many to index .*; build an endgame table with max_pieces=K"):
        make_game("loa", rows=8, cols=8)
    game = make_game("loa", rows=8, cols=8, max_pieces=4)
    state = game.parse("(b -b------ -------b ---w---- -------- b--w---- -------- -------- ----w--b)")
    assert len(game.children(state)) == len(reference_children(
        "loa", {"rows": 8, "cols": 8}, game.format(state))) > 0


def loa_parents_by_brute_force(game, rules, text):
    """The texts of the unfinished positions from which one of the reference's moves
    reaches ``text``: every board with one piece of the player who just moved
    elsewhere, or the same board (a pass), with that player to move."""
    state = game.parse(text)
    mover = 1 - int(state[0])
    pieces = [c for c in range(1, state.size) if state[c] == 1 + mover]
    empty = [c for c in range(1, state.size) if state[c] == 0]
    found = set()
    for cell in pieces:
        for elsewhere in [cell, *empty]:
            parent = state.copy()
            parent[0] = mover
            parent[cell], parent[elsewhere] = 0, 1 + mover
            parent_text = game.format(parent)
            if game.primitive_value(parent) == 255 and \
                    text in reference_children("loa", rules, parent_text):
                found.add(parent_text)
    return found


@pytest.mark.parametrize("rows, cols", [(8, 8), (6, 7), (5, 5)])
def test_loa_unmoves_match_the_reference_on_lines_with_many(rows, cols):
    """The un-moves are read a line at a time from tables, up to 5 along a line of 8
    cells (the hand-made boards have 4 or 5 on their second row when it is that long).
    Their parents, and those of random positions, must be exactly the boards from
    which the reference's moves lead here."""
    game = make_game("loa", rows=rows, cols=cols, max_pieces=4)
    rules = {"rows": rows, "cols": cols}
    texts = []
    for row_cells in ("bbb-----", "-bbb----", "b-b-b---", "bb--b---", "b-bb----", "-b-b-b--"):
        cells = ["-"] * (rows * cols)
        cells[cols:2 * cols] = list(row_cells[:cols].ljust(cols, "-"))
        cells[0], cells[-1] = "w", "w"   # White, to move, in two groups
        texts.append("(w " + " ".join("".join(cells[r * cols:(r + 1) * cols])
                                       for r in range(rows)) + ")")
    texts += [text for text in random_positions(game, 20, seed=5) if text.startswith("(w")]
    out = np.zeros(game.max_parents, np.int64)
    state, other = np.zeros(game.state_size, np.int64), np.zeros(game.state_size, np.int64)
    for text in texts:
        tier, local = game.locate(game.parse(text))
        count = game.parents(game.data, tier, local, out, state, other)
        given = {game.position_text(tier, int(code) >> 1) for code in out[:count]}
        given = {t for t in given if game.primitive_value(game.parse(t)) == 255}
        assert given == loa_parents_by_brute_force(game, rules, text), text


def test_loa_a_side_that_cannot_move_passes():
    """Black's corner pieces are walled in (the reference's hand-worked example)."""
    game = make_game("loa", rows=5, cols=5)
    position = "(b bw--- ww--- ----- ---ww ---wb)"
    (only,) = game.children(game.parse(position))
    assert (only.move, game.format(only.state)) == ("pass", "(w bw--- ww--- ----- ---ww ---wb)")
    assert len(game.children(only.state)) > 1  # White has moves of its own


def test_loa_endgame_tables_and_option_forms():
    assert make_game("loa", rows=4, cols=4, max_pieces=4).options["max_pieces"] == 0  # the full game
    assert make_game("loa", rows=4, cols=4, max_pieces=9).label() == "loa_4x4"
    endgame = make_game("loa", rows=8, cols=8, max_pieces=3, symmetry=True)
    # the standard start with its first three pieces of each side, in text order
    assert endgame.default_start() == ("(b -bbb---- w------w w------- -------- -------- -------- "
                                       "-------- --------)")
    assert 4.0e8 < endgame.size < 4.5e8  # "about 4e8" with the dense symmetric index
    with pytest.raises(ValueError, match="more than this database's max_pieces=3"):
        endgame.parse("(b -bbbb--- w------- w------- w------- -------- -------- -------- --------)")
    with pytest.raises(ValueError, match="no side ever loses its last piece"):
        make_game("loa").parse("(b -bb- ---- ---- -bb-)")
    with pytest.raises(ValueError, match="^cols must be at most 8, got 9"):  # a move is a byte
        make_game("loa", rows=3, cols=9, max_pieces=1)


def test_surakarta_8x8_solver_moves_agree_with_the_rules_on_random_positions():
    """The largest board (its circuits' loop masks reach bit 63, which once stopped the
    game from being made at all): the solver's expand and expand_leaving agree with
    the five functions, position by position."""
    game = make_game("surakarta", size=8, max_pieces=4)
    rng = random.Random(8)
    for _ in range(300):
        tier, local = game.tiers.locate(rng.randrange(game.size))
        check_expansions(game, tier, local)  # raises ContractError, naming the position


def test_surakarta_circuits_follow_the_rules():
    """For k = 1, 2, ... with k < n-1-k, lines k and n-1-k form a circuit; at each corner
    a loop joins the row and the column at distance k from that corner's edges."""
    six = circuits(6)
    assert [lines for lines, _, _ in six] == [(1, 4), (2, 3)]
    assert [lines for lines, _, _ in circuits(4)] == [(1, 2)]
    assert [lines for lines, _, _ in circuits(5)] == [(1, 3)]
    for (k, m), points, loops in six:
        assert len(points) == 24 and len(set(points)) == 20  # the four crossings twice
        joins = {corner: (points[at], points[(at + 1) % 24])
                 for corner, at in zip(("top-right", "bottom-right", "bottom-left", "top-left"), loops)}
        assert joins == {"top-right": ((k, 5), (0, m)), "bottom-right": ((5, m), (m, 5)),
                         "bottom-left": ((m, 0), (5, k)), "top-left": ((0, k), (k, 0))}
    inner = six[0][1]
    assert inner[:6] == [(1, c) for c in range(6)]          # row 1 left to right
    assert inner[6:12] == [(r, 4) for r in range(6)]        # column 4 downwards
    reference = reference_game("surakarta", size=6).circuits()
    assert [list(c.points) for c in reference] == [points for _, points, _ in six]


def test_surakarta_captures_go_through_a_loop():
    game = make_game("surakarta", size=6)
    # Black on b5 (row 1, column 1) travels left along row 1, round the top-left loop
    # into column 1 going down, and meets White on b1 (row 5): a capture.
    position = "(b ------ -b---- ------ ------ ------ -w----)"
    assert [m.move for m in game.children(game.parse(position)) if "x" in m.move] == ["b5xb1"]
    # White on d5, on the same row: met at once going right (no loop yet, so no
    # capture that way), but reached the other way round the whole circuit.
    position = "(b ------ -b-w-- ------ ------ ------ ------)"
    assert [m.move for m in game.children(game.parse(position)) if "x" in m.move] == ["b5xd5"]
    # b5 also lies on column 1; with black on b6 and b4 that way is shut in both
    # directions, and leftwards the top-left loop leads to b6: d5 cannot be taken.
    game = make_game("surakarta", size=6, max_pieces=4)
    position = "(b -b---- -b-w-- -b---- ------ ------ ------)"
    assert not [m.move for m in game.children(game.parse(position)) if m.move.startswith("b5x")]


def test_surakarta_defaults_and_endgames():
    assert make_game("surakarta").describe() == "surakarta 6x6"
    assert make_game("surakarta", max_pieces=3).label() == "surakarta_6x6"
    assert make_game("surakarta", size=4).piece_limit == 8
    assert make_game("surakarta", size=4).default_start() == "(b bbbb bbbb wwww wwww)"
    full_board = make_game("surakarta", size=4)
    assert full_board.primitive_value(full_board.start()) == 2  # Black cannot move: lost
    with pytest.raises(ValueError, match="holds 1..3 a side"):
        make_game("surakarta").parse("(b bbbb-- ------ ------ ------ www--- ------)")
    with pytest.raises(ValueError, match="took the last opposing piece"):
        make_game("surakarta").parse("(b b----- ------ ------ ------ ------ ------)")


def test_a_finished_surakarta_game_is_answered_by_the_rules(database):
    db = database("surakarta", size=4, max_pieces=2)
    assert (db.lookup("(w b--- ---- ---- ----)").value, db.lookup("(w b--- ---- ---- ----)").remoteness) \
        == ("lose", 0)
    assert np.all(db.value_array() != 0)
