"""Knightthrough: Breakthrough (``games/breakthrough.py``) where every piece moves as a
chess knight that gains one or two rows towards the opponent, onto an empty cell or
capturing an opponent piece there.

Rules: docs/RULES.md, section "Knightthrough".

Same notation, start, index and options as Breakthrough: every knight move gains a
row, so a non-capturing move stays in its tier and leads to a higher index.
"""

from __future__ import annotations

from tiersolve.games.breakthrough import CAPTURE, QUIET, Breakthrough


class Knightthrough(Breakthrough):
    name = "knightthrough"
    title = "Knightthrough"
    STEP_PATTERN = ((1, -2, QUIET | CAPTURE), (1, 2, QUIET | CAPTURE),
                    (2, -1, QUIET | CAPTURE), (2, 1, QUIET | CAPTURE))


GAME = Knightthrough
