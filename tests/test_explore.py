"""The exploring API: move values from the chooser's view, perfect-play choices,
``after``, ``principal_variation``, ``get``, ``info``, the error hierarchy (a
library user's mistakes are TiersolveErrors), and the drawings Jupyter shows."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ElementTree

import numpy as np
import pytest

from tiersolve.databases import (
    VALUES, ClosedDatabaseError, DamagedDatabaseError, DatabaseMismatchError, GameError,
    IllegalMoveError, ImpossiblePositionError, IndexRangeError, MalformedPositionError,
    MissingDatabaseError, OtherBoardError, PositionError, TiersolveError, build_database,
    open_database,
)
from tiersolve.games import make_game
from tiersolve.games.surround import BLACK_BODY, WHITE_BODY
from tiersolve.values import LOSE

from conftest import legal_indices

FLIP = {"win": "lose", "lose": "win", "tie": "tie", "draw": "draw"}


def reference_choice(moves) -> set[str]:
    """The moves perfect play may choose, from the values alone (RULES.md): the
    fastest win, else the fastest tie, else a draw, else the slowest loss."""
    for value, pick in (("win", min), ("tie", min), ("draw", min), ("lose", max)):
        of_value = [m for m in moves if m.value == value]
        if of_value:
            if value == "draw":
                return {m.move for m in of_value}
            best = pick(m.remoteness for m in of_value)
            return {m.move for m in of_value if m.remoteness == best}
    return set()


@pytest.mark.parametrize("name, options", [
    ("ttt", {"rows": 3, "cols": 3}),
    ("konane", {"rows": 3, "cols": 4}),          # go-again moves keep the mover
    ("northcott", {"rows": 2, "cols": 4, "backward": True}),  # loopy
    ("knightsdance", {"rows": 3, "cols": 4}),                 # draws
])
def test_move_values_are_the_choosers_and_explain_the_position(database, name, options):
    """For every legal position: each move's value is the mover's (the child's,
    flipped unless the mover moves again), the best move's value is the position's,
    and the remoteness is one more than the best move's."""
    db = database(name, **options)
    indices = legal_indices(db)
    rng = np.random.default_rng(7)
    for index in rng.choice(indices, size=min(400, indices.size), replace=False):
        position = db.positions([index])[0]
        record = db.lookup(position)
        moves = db.moves(position)
        if not moves:
            continue
        for move in moves:
            child = db.lookup(move.position)
            expected = child.value if move.moves_again else FLIP[child.value]
            assert (move.value, move.remoteness) == (expected, child.remoteness), (position, move)
        best = db.best_move(position)
        assert best.move in reference_choice(moves), (position, moves)
        assert best.value == record.value
        if record.remoteness is not None:
            assert record.remoteness == best.remoteness + 1


def test_best_move_on_known_positions(database):
    db = database("ttt", rows=3, cols=3)
    assert db.best_move("(x xx- oo- ---)").move == "c3"  # completes the line at once
    assert db.best_move("(o xx- oo- --x)").move == "c2"  # wins at once rather than block
    assert db.best_move("(o xx- oo- --x)").remoteness == 0
    game = database("1210")
    assert game.best_move("(L 0)").move == "+1"  # to 1: then 4, 7, 10 (sums 1 mod 3)
    assert game.best_move("(L 10)") is None


def test_the_slowest_loss_is_chosen(database):
    db = database("konane", rows=3, cols=4)
    values = db.value_array()
    found = 0
    for index in np.flatnonzero(values == LOSE)[:1000]:
        position = db.positions([index])[0]
        moves = db.moves(position)
        if len({m.remoteness for m in moves}) > 1:
            assert db.best_move(position).remoteness == max(m.remoteness for m in moves)
            found += 1
    assert found > 10


def test_random_choice_among_equals_is_seeded(database):
    db = database("ttt", rows=3, cols=3)
    equal = db.best_moves(db.start)
    assert len(equal) > 1  # every first move ties
    first = [db.best_move(db.start, random.Random(5)).move for _ in range(3)]
    again = [db.best_move(db.start, random.Random(5)).move for _ in range(3)]
    assert first == again
    picks = {db.best_move(db.start, random.Random(seed)).move for seed in range(40)}
    assert len(picks) > 1 and picks <= {m.move for m in equal}


def test_after_and_principal_variation(database):
    db = database("ttt", rows=3, cols=3)
    assert db.after("(x --- --- ---)", "b2") == "(o --- -x- ---)"
    assert db.after("(x --- --- ---)", " B2 ") == "(o --- -x- ---)"
    with pytest.raises(IllegalMoveError, match="'z9' is not a legal move .* legal moves: a1, a2"):
        db.after("(x --- --- ---)", "z9")
    line = db.principal_variation(db.start)
    start = db.lookup(db.start)
    assert len(line) == start.remoteness == 9
    assert db.moves(line[-1].position) == []
    position = db.start
    for move in line:
        assert db.after(position, move.move) == move.position
        position = move.position


def test_principal_variation_of_a_draw_stops_at_a_repetition(database):
    db = database("knightsdance", rows=3, cols=4)
    values = db.value_array()
    draw = db.positions([int(np.flatnonzero(values == VALUES.index("draw"))[0])])[0]
    line = db.principal_variation(draw)
    assert all(m.value == "draw" for m in line)
    positions = [draw] + [m.position for m in line]
    assert positions[-1] in positions[:-1]  # it ends where play would repeat
    assert len(set(positions)) == len(positions) - 1


def test_get_does_not_raise(database):
    db = database("ttt", rows=3, cols=3)
    assert db.get("(x --- --- ---)").value == "tie"
    assert db.get("(x --- ---)") is None
    assert db.get("(o --- --- ---)", default="?") == "?"
    assert db.get(42) is None


def test_info_adds_up_with_symmetry(database):
    db = database("domineering", rows=3, cols=4, symmetry=True)
    info = db.info()
    counts = db.counts()
    assert sum(counts.values()) == db.size == info.positions
    assert counts["noncanonical"] > 0
    values = db.value_array()
    assert counts == {name: int((values == code).sum()) for code, name in enumerate(VALUES)}
    assert info.start == db.start and info.start_value == db.lookup(db.start).value
    assert info.max_remoteness == int(db.remoteness_array().max())
    assert info.file_bytes == db.path.stat().st_size and info.solver == "bottom-up"
    text = info.text()
    assert "noncanonical" in text and f"{db.size:,} indices" in text


def test_summary_line_adds_up_with_symmetry(tmp_path):
    report = build_database(make_game("domineering", rows=3, cols=4, symmetry=True),
                            tmp_path / "d.h5", progress=False)
    line = report.summary_line()
    parts = {name: report.counts[name] for name in VALUES[1:]}
    assert sum(parts.values()) + report.counts["illegal"] == report.positions
    for name, count in parts.items():
        if count and name != "noncanonical":
            assert f"{name} {count:,}" in line
    assert f"noncanonical {report.counts['noncanonical']:,}" in line


def test_jupyter_renders_boards_and_tables(database):
    db = database("ttt", rows=3, cols=3)
    svg = db.lookup("(o x-- -o- --x)")._repr_svg_()
    root = ElementTree.fromstring(svg)  # well-formed
    tag = "{http://www.w3.org/2000/svg}"
    assert len(root.findall(f"{tag}rect")) == 9
    marks = [text.text for text in root.findall(f"{tag}text") if text.text in ("x", "o")]
    assert sorted(marks) == ["o", "x", "x"]  # drawn as the notation writes them
    assert "for the player to move" in svg
    move_svg = db.moves("(x --- --- ---)")[0]._repr_svg_()
    assert [text.text for text in ElementTree.fromstring(move_svg).findall(f"{tag}text")
            if text.text in ("x", "o")] == ["x"]
    html = db._repr_html_()
    assert html.startswith("<table>") and "ttt 3x3" in html and "2,043" in html
    board = db.board("(o x-- -o- --x)").splitlines()
    assert board == ["    a b c", " 3  x . .", " 2  . o .", " 1  . . x"]


def test_boards_of_every_game_draw(database):
    """Every game's start draws, as text and as SVG (a game without a board as text):
    a header, a line a row, and a hand line above and below for a game with pieces
    in hand."""
    from tiersolve.games import GAMES
    from tiersolve.games.base import Game
    from tiersolve.games.board import board_lines, board_svg

    for name in GAMES:
        game = make_game(name)
        start = game.default_start()
        lines = board_lines(game, start)
        grid = game.grid(game.parse(start))
        if grid is None:
            assert lines == [start]
        else:
            hands = 2 if type(game).pieces_in_hand is not Game.pieces_in_hand else 0
            assert len(lines) == len(grid) + 1 + hands
            if hands:
                assert "hand:" in lines[0] and "hand:" in lines[-1]
            assert all(len(row) == len(grid[0]) for row in grid)
        ElementTree.fromstring(board_svg(game, start, "caption"))


@pytest.mark.parametrize("position, error", [
    ("(x --- ---)", OtherBoardError),
    ("(x ---- ---- ----)", OtherBoardError),
    ("(x --- --- ---) extra", MalformedPositionError),
    ("(X --- --- ---)", MalformedPositionError),
    ("x --- --- ---", MalformedPositionError),
    (42, MalformedPositionError),
    ("(x xxx ooo ---)", PositionError),
])
def test_position_errors_form_a_hierarchy(database, position, error):
    db = database("ttt", rows=3, cols=3)
    with pytest.raises(error) as raised:
        db.lookup(position)
    assert isinstance(raised.value, (ValueError, TiersolveError, PositionError))
    assert "\n" not in str(raised.value)


def test_file_errors_form_a_hierarchy(database, tmp_path):
    with pytest.raises(MissingDatabaseError) as missing:
        open_database(tmp_path / "none.h5")
    assert isinstance(missing.value, FileNotFoundError) and isinstance(missing.value, ValueError)
    (tmp_path / "junk.h5").write_bytes(b"not hdf5")
    with pytest.raises(DamagedDatabaseError):
        open_database(tmp_path / "junk.h5")
    db = database("ttt", rows=3, cols=3)
    with pytest.raises(DatabaseMismatchError):
        from tiersolve.databases.reader import Database
        Database(db.path, expect=make_game("ttt", rows=3, cols=3, diagonal=True))
    closed = open_database(db.path)
    closed.close()
    for use in (lambda: closed.lookup("(x --- --- ---)"), closed.counts, closed.value_array,
                lambda: closed.lookup_indices([0])):
        with pytest.raises(ClosedDatabaseError, match="is closed"):
            use()
    assert "closed" in repr(closed)


def test_surround_refuses_a_body_cell_off_its_worm(database):
    db = database("surround", rows=3, cols=4)
    with pytest.raises(ImpossiblePositionError, match="do not form a path ending at the head"):
        db.lookup("(b -w-- o--b ----)")
    assert db.lookup("(b ow-- ---b ----)").value in ("win", "lose")
    # every position play reaches is accepted: walk a few games from the start
    rng = random.Random(3)
    for _ in range(20):
        position = db.start
        while db.moves(position):
            position = rng.choice(db.moves(position)).position
            db.lookup(position)


@pytest.mark.parametrize("options", [
    pytest.param({"rows": 3, "cols": 4}, marks=pytest.mark.slow),  # a minute of Python
    {"rows": 3, "cols": 3, "wormholes": True},
])
def test_surround_positions_printed_from_the_index_can_be_looked_up(database, options):
    """The index stores no body colours; printing an index colours the bodies as play
    could have grown them, so the text is accepted back, unless no colouring can be
    grown (checked by trying every colouring)."""
    from itertools import combinations

    db = database("surround", **options)
    game = db.game
    indices = legal_indices(db)
    for index, text in zip(indices, db.positions(indices)):
        state = game.parse(text)
        if game.unreachable_reason(state) is None:
            assert db.index(text) == index
            continue
        cells = np.flatnonzero(np.isin(state[1:], [WHITE_BODY, BLACK_BODY])).tolist()
        for white in combinations(cells, (len(cells) + 1) // 2):
            trial = state.copy()
            for cell in cells:
                trial[1 + cell] = WHITE_BODY if cell in white else BLACK_BODY
            assert game.unreachable_reason(trial) is not None, (text, game.format(trial))


def test_domineering_move_names_run_from_the_square_nearer_a1():
    game = make_game("domineering", rows=3, cols=3)
    vertical = [c.move for c in game.children(game.start())]
    assert "a1-a2" in vertical and "a2-a3" in vertical
    state = game.parse("(h #-- #-- ---)")
    horizontal = [c.move for c in game.children(state)]
    assert "b3-c3" in horizontal and "a1-b1" in horizontal
    for name in vertical + horizontal:
        first, second = name.split("-")
        assert (first[0], int(first[1:])) < (second[0], int(second[1:]))


def test_boards_show_marks_by_their_letter_and_the_whole_caption():
    from tiersolve.games.board import board_svg

    game = make_game("ttt")
    caption = "lose in 4 for the player to move"
    root = ElementTree.fromstring(board_svg(game, "(x ---- x--- --o-)", caption))
    width = float(root.get("width"))
    assert width >= 7 * len(caption)  # 14 px sans-serif: about 7 px a character at least
    texts = [element.text for element in root.iter() if element.tag.endswith("text")]
    assert sorted(t for t in texts if t in ("x", "o")) == ["o", "x"] and caption in texts


def test_a_game_that_colours_its_marks_draws_them_as_discs(monkeypatch):
    from tiersolve.games.board import board_svg

    game = make_game("ttt")
    monkeypatch.setattr(type(game), "piece_colours", {"x": "#bf3f1f"})
    root = ElementTree.fromstring(board_svg(game, "(x ---- x--- --o-)"))
    discs = [e.get("fill") for e in root.iter() if e.tag.endswith("circle")]
    texts = [e.text for e in root.iter() if e.tag.endswith("text")]
    assert discs == ["#bf3f1f"] and "o" in texts  # x coloured as asked, o still its letter


def test_library_mistakes_are_tiersolve_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(MissingDatabaseError, match="no game is called 'chess'"):
        open_database("chess")
    with pytest.raises(GameError, match="has no option rowz "):
        open_database("ttt", rowz=3)
    with pytest.raises(GameError, match="unknown game"):
        build_database("chess", progress=False)
    build_database(make_game("ttt"), tmp_path / "t.h5", progress=False)
    with open_database(tmp_path / "t.h5") as db:
        with pytest.raises(IndexRangeError, match="outside this database") as outside:
            db.lookup_indices([10**9])
        assert isinstance(outside.value, IndexError) and isinstance(outside.value, TiersolveError)
        with pytest.raises(ImpossiblePositionError, match="12 x and 0 o"):
            db.lookup("(x xxxx xxxx xxxx)")
