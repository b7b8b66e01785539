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
