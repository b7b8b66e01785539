"""Knightthrough: Breakthrough (``games/breakthrough.py``) where every piece moves as a
chess knight that gains one or two rows towards the opponent, onto an empty cell or
capturing an opponent piece there.

Rules: docs/RULES.md, section "Knightthrough".

Same notation, start, index and options as Breakthrough: every knight move gains a
row, so a non-capturing move stays in its tier and leads to a higher index.
"""

from __future__ import annotations

from tiersolve.games.breakthrough import CAPTURE, QUIET, Breakthrough

#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "knightthrough"


class Knightthrough(Breakthrough):
    name = NAME
    title = "Knightthrough"
    STEP_PATTERN = ((1, -2, QUIET | CAPTURE), (1, 2, QUIET | CAPTURE),
                    (2, -1, QUIET | CAPTURE), (2, 1, QUIET | CAPTURE))
    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = (
        {"rows": 5, "cols": 2},
    )
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = (
        {"rows": 4, "cols": 3}, {"rows": 4, "cols": 3, "symmetry": True},
    )
    #: The same, minutes each: pytest -m slow.
    slow_reference_boards = (
        {"rows": 4, "cols": 4}, {"rows": 5, "cols": 3, "symmetry": True},
    )


GAME = Knightthrough
