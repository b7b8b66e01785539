"""The wording of messages: counts and sizes in words, what is wrong with a position
that does not parse, and the board sizes the README promises (26 columns, 62 cells
for Domineering)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tiersolve.databases.build import human_bytes, plural
from tiersolve.games import make_game

ROOT = Path(__file__).resolve().parent.parent


def test_messages(tmp_path):
    assert plural(1, "position") == "1 position" and plural(2, "tier") == "2 tiers"
    assert human_bytes(26626771.3 * 2**30) == "25.4 PB" and human_bytes(3 * 2**40) == "3.0 TB"
    with pytest.raises(ValueError, match="must be 0 to 10, got -1"):
        make_game("1210").parse("(L -1)")
    ttt = make_game("ttt", rows=3, cols=3)
    with pytest.raises(ValueError, match="unexpected text 'extra' after the position"):
        ttt.parse("(x --- --- ---) extra")
    with pytest.raises(ValueError, match="lower case"):
        ttt.parse("(X --- --- ---)")
    with pytest.raises(ValueError, match="lower case"):
        ttt.parse("(x X-- --- ---)")
    with pytest.raises(ValueError, match="has 1 row, but"):
        ttt.parse("(x ---)")
    readme = (ROOT / "README.md").read_text()
    assert "26 columns" in readme and "62 for Domineering" in readme
    make_game("domineering", rows=2, cols=26)
    with pytest.raises(ValueError):
        make_game("domineering", rows=3, cols=21)  # 63 cells
    with pytest.raises(ValueError):
        make_game("ttt", rows=1, cols=27)


def test_rows_are_limited_by_the_cells_and_columns_by_the_letters(capsys):
    """Columns are letters (a-z), rows numbers: a tall board is refused only for its
    cells, and the README says so."""
    from tiersolve.games.board import board_lines

    from conftest import command

    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "rows are numbered" in readme
    tall = make_game("domineering", rows=31, cols=2)  # 62 cells, 31 rows
    assert board_lines(tall, tall.default_start())[1].startswith(" 31  . .")
    assert tall.parse("(h " + " ".join(["--"] * 29 + ["#-", "#-"]) + ")")[0] == 1
    code, out, _ = command(["build", "domineering", "--rows", "31", "--cols", "2", "--plan"],
                           capsys)
    assert code == 0 and "domineering 31x2: 2,305,843,009,213,693,952 positions" in out
    with pytest.raises(ValueError, match="has 64 cells; at most 62") as refused:
        make_game("domineering", rows=32, cols=2)
    assert "at most 26" not in str(refused.value)
    code, _, err = command(["build", "ttt", "--rows", "30", "--cols", "2"], capsys)
    assert code == 2 and "at most 26" not in err and "too many to index" in err
    with pytest.raises(ValueError, match="cols must be at most 26"):
        make_game("ttt", rows=2, cols=27)
    make_game("knightsdance", rows=40, cols=3)  # squares, not a bit board: no cell limit


def test_python_errors_name_keywords_and_the_command_line_names_flags(tmp_path, capsys,
                                                                       monkeypatch):
    from tiersolve.databases import open_database

    from conftest import command, one_line_error

    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=r"^ttt has no option bogus \(options: rows, cols, k, "
                                         r"diagonal, misere\)$"):
        open_database("ttt", rows=3, cols=3, bogus=1)
    with pytest.raises(ValueError, match="^rows must be at least 1, got 0$"):
        make_game("ttt", rows=0)
    with pytest.raises(ValueError, match="^k=4 is longer than the 3x3 board"):
        make_game("ttt", rows=3, cols=3, k=4)
    with pytest.raises(ValueError, match="^misere is True or False, got 3$"):
        make_game("ttt", misere=3)
    with pytest.raises(ValueError, match="with max_pieces=K"):
        make_game("loa", rows=8, cols=8)
    code, _, err = command(["build", "ttt", "--rows", "0"], capsys)
    assert "--rows must be at least 1, got 0" in one_line_error(code, err, "tiersolve build")
    code, _, err = command(["play", "ttt", "--rows", "3", "--cols", "3", "--k", "4"], capsys)
    assert "--k 4 is longer" in one_line_error(code, err, "tiersolve play")
    code, _, err = command(["build", "loa", "--rows", "8", "--cols", "8", "--plan"], capsys)
    assert "with --max-pieces K" in one_line_error(code, err, "tiersolve build")


def test_labels_keep_an_option_apart_from_its_value():
    """What people read says ``target 11``; the file name keeps ``target11``."""
    from tiersolve.databases.naming import default_path

    assert make_game("1210", target=11).describe() == "1210 (target 11)"
    loa = make_game("loa", rows=5, cols=5, max_pieces=4, symmetry=True)
    assert loa.describe() == "loa 5x5 (max-pieces 4, symmetry)"
    assert make_game("northcott", backward=True, misere=True).describe() == \
        "northcott 3x6 (backward, misere)"
    assert default_path(make_game("1210", target=11)).name == "1210_target11.h5"
    assert default_path(loa).name == "loa_5x5_max-pieces4_symmetry.h5"
