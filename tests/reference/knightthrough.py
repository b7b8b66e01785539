"""Plain-Python reference implementation of Knightthrough (written from RULES.md only).

As Breakthrough (same board, texts, start, turn order and winning rows: white
moves up towards the top row, black down towards the bottom row; white moves
first), but every piece moves as a chess knight that gains 1 or 2 rows towards
the opponent: (+1 row, +-2 columns) or (+2 rows, +-1 column) in its forward
direction.  It may land on an empty cell or capture an opponent piece there,
never on its own piece.  Reaching the opponent's home row wins (the position
after that move is primitive, a LOSE for the player to move); a player with no
legal move (including no pieces) loses.

State: ``(turn, black_mask, white_mask)`` as in breakthrough.py.
"""

try:
    from .breakthrough import Game as _BreakthroughGame
except ImportError:  # imported as a top-level module
    from breakthrough import Game as _BreakthroughGame


class Game(_BreakthroughGame):
    name = "knightthrough"

    def _steps(self, dr):
        # every knight move forward may land on an empty cell or capture
        return [(dr, -2, True), (dr, 2, True), (2 * dr, -1, True), (2 * dr, 1, True)]
