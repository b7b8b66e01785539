"""Lines of play to a Breakthrough board, for OpenSpiel, which sets up a Breakthrough
state only by playing moves from its start (``state_of`` needs one).

Boards here are in OpenSpiel's orientation: a tuple of ``rows * cols`` cells, row 0
(printed at the top) first, ``b`` Black (player 0, home row 0, moving to higher
rows), ``w`` White (player 1, home row ``rows - 1``), ``.`` empty. Two ways to a line:

* ``backward_line``: un-moves from the target, keeping only boards a database of
  the positions reachable from OpenSpiel's start holds; exact and quick, as every
  board it keeps is reachable.
* ``forward_line``: a depth-first search from the start, pruned by what each side
  must still do (every target piece needs a piece behind it, within its reach, and
  both sides move in turn), up to a number of boards.

>>> start = tuple("bbb" + "..." + "..." + "www")
>>> target = tuple("b.b" + ".b." + "..." + "www")           # Black played b4-b3
>>> line = forward_line(4, 3, start, target, 1)
>>> line == [target]
True
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

Board = tuple[str, ...]

#: Row and column steps of Black's three moves, then White's.
STEPS = ((1, -1), (1, 0), (1, 1), (-1, -1), (-1, 0), (-1, 1))


class SearchLimit(Exception):
    """The forward search looked at its limit of boards without finding a line."""


def home_rows(rows: int) -> int:
    """Rows of pieces each side starts with in OpenSpiel: two from 6 rows on, else one."""
    return 2 if rows >= 6 else 1


def start_board(rows: int, cols: int) -> Board:
    """OpenSpiel's start: Black on the top rows, White on the bottom rows."""
    home = home_rows(rows)
    return tuple("b" if r < home else "w" if r >= rows - home else "."
                 for r in range(rows) for c in range(cols))


def children(board: Board, player: int, rows: int, cols: int) -> list[tuple[Board, bool]]:
    """(board after the move, whether the move reached the far row) of every move of
    ``player`` (0 Black, 1 White): straight ahead onto an empty cell, diagonally ahead
    onto an empty cell or an opponent's piece."""
    me, other = "bw"[player], "wb"[player]
    far = rows - 1 if player == 0 else 0
    found = []
    for cell, piece in enumerate(board):
        if piece != me:
            continue
        r, c = divmod(cell, cols)
        for dr, dc in STEPS[3 * player:3 * player + 3]:
            r2, c2 = r + dr, c + dc
            if 0 <= r2 < rows and 0 <= c2 < cols:
                there = board[r2 * cols + c2]
                if there == "." or (dc and there == other):
                    child = list(board)
                    child[cell], child[r2 * cols + c2] = ".", me
                    found.append((tuple(child), r2 == far))
    return found


def parents(board: Board, player: int, rows: int, cols: int) -> list[Board]:
    """Every board with ``1 - player`` to move from which one move of theirs gives
    ``board`` (``player`` to move): a piece of theirs stepped back, and after a
    diagonal step, or not, a piece of ``player`` put back where it stands. A parent
    may be a finished game; the caller decides."""
    mover = 1 - player
    me, other = "bw"[mover], "wb"[mover]
    found = []
    for cell, piece in enumerate(board):
        if piece != me:
            continue
        r, c = divmod(cell, cols)
        for dr, dc in STEPS[3 * mover:3 * mover + 3]:
            r0, c0 = r - dr, c - dc
            if 0 <= r0 < rows and 0 <= c0 < cols and board[r0 * cols + c0] == ".":
                for captured in ((".", other) if dc else (".",)):
                    parent = list(board)
                    parent[r0 * cols + c0], parent[cell] = me, captured
                    found.append(tuple(parent))
    return found


def backward_line(rows: int, cols: int, start: Board, target: Board, player: int,
                  held: Callable[[list[tuple[Board, int]]], list[bool]]) -> list[Board] | None:
    """The boards from ``start`` (Black to move) to ``target`` (``player`` to move),
    start excluded; ``held`` says which (board, player to move) a database of the
    positions reachable from ``start`` holds (unfinished ones only). None if there is
    no such line (the target is not held)."""
    line = [target]
    seen = set()

    def back(board: Board, to_move: int) -> bool:
        if board == start and to_move == 0:
            return True
        if (board, to_move) in seen:
            return False
        seen.add((board, to_move))
        candidates = parents(board, to_move, rows, cols)
        for parent, keep in zip(candidates, held([(p, 1 - to_move) for p in candidates])):
            if keep:
                line.append(parent)
                if back(parent, 1 - to_move):
                    return True
                line.pop()
        return False

    if not back(target, player):
        return None
    return line[::-1][1:]


def _side_bounds(current: list[tuple[int, int]], wanted: list[tuple[int, int]], forward: int,
                 far: int) -> tuple[int, int, int] | None:
    """(fewest, most, spare): the moves a side still makes to turn its pieces
    ``current`` into ``wanted`` (None if it cannot: a wanted piece with no piece of its
    own behind it, within reach), and how many of its pieces must be captured."""
    spare = len(current) - len(wanted)
    if spare < 0:
        return None
    advance = [[(tr - pr) * forward if (tr - pr) * forward >= abs(tc - pc) else -1
                for pr, pc in current] for tr, tc in wanted]
    # Sums over one-to-one assignments of wanted pieces to current pieces, by the set
    # of current pieces used (a side has at most 2 * cols pieces: small sets).
    low, high = {0: 0}, {0: 0}
    for row in advance:
        next_low: dict[int, int] = {}
        next_high: dict[int, int] = {}
        for used, total in low.items():
            most = high[used]
            for j, steps in enumerate(row):
                if steps >= 0 and not used >> j & 1:
                    key = used | 1 << j
                    next_low[key] = min(next_low.get(key, total + steps), total + steps)
                    next_high[key] = max(next_high.get(key, most + steps), most + steps)
        low, high = next_low, next_high
        if not low:
            return None
    if spare:  # a piece to be captured may first walk up to the row before the far one
        room = [max(0, (far - pr) * forward - 1) for pr, _ in current]
        most = max(high[used] + sum(room[j] for j in range(len(current)) if not used >> j & 1)
                   for used in high)
    else:
        most = max(high.values())
    return min(low.values()), most, spare


def _pieces(board: Board, colour: str, cols: int) -> list[tuple[int, int]]:
    return [divmod(cell, cols) for cell, piece in enumerate(board) if piece == colour]


def forward_line(rows: int, cols: int, start: Board, target: Board, player: int,
                 limit: int = 20_000) -> list[Board] | None:
    """The boards of a line of play from ``start`` (Black to move) to ``target``
    (``player`` to move), start excluded; None if there is none, SearchLimit after
    ``limit`` boards without an answer."""
    wanted = {colour: _pieces(target, colour, cols) for colour in "bw"}
    far = {"b": rows - 1, "w": 0}
    forward = {"b": 1, "w": -1}
    seen: set[tuple[Board, int]] = set()
    line: list[Board] = []
    looked = 0

    def promise(board: Board, to_move: int) -> tuple[int, int] | None:
        """None if the target cannot follow; else a sort key, the fewest moves first."""
        bounds = {}
        for colour in "bw":
            found = _side_bounds(_pieces(board, colour, cols), wanted[colour], forward[colour],
                                 far[colour])
            if found is None:
                return None
            bounds[colour] = found
        mover, waiting = "bw"[to_move], "wb"[to_move]
        extra = 0 if to_move == player else 1  # the mover makes one move more
        low_m, high_m, spare_m = bounds[mover]
        low_w, high_w, spare_w = bounds[waiting]
        low_w, low_m = max(low_w, spare_m), max(low_m, spare_w)  # captures are moves
        low = max(low_w, low_m - extra)
        return (low, low_m) if low <= min(high_w, high_m - extra) else None

    def search(board: Board, to_move: int, finished: bool) -> bool:
        nonlocal looked
        looked += 1
        if looked > limit:
            raise SearchLimit(f"no line found in {limit:,} boards")
        if board == target and to_move == player:
            return True
        if finished or (board, to_move) in seen:
            return False
        seen.add((board, to_move))
        ranked = []
        for child, arrived in children(board, to_move, rows, cols):
            key = promise(child, 1 - to_move)
            if key is not None:
                ranked.append((key, child, arrived))
        ranked.sort(key=lambda item: item[0])
        for _, child, arrived in ranked:
            line.append(child)
            if search(child, 1 - to_move, arrived):
                return True
            line.pop()
        return False

    return list(line) if search(start, 0, False) else None


def plausible(states: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Which of tiersolve's Breakthrough state vectors (turn 0 White, cells top row
    first: 1 White, 2 Black) can follow OpenSpiel's start as far as counting says: no
    side has more pieces than it starts with, and the moves each side has made (its
    pieces' advance, and what its captured pieces may have walked) fit the turn.

    A test for many positions at once; what passes still needs a line of play.
    tiersolve's White is OpenSpiel's Black: it moves first, up the board."""
    states = np.asarray(states, dtype=np.int64).reshape(-1, 1 + rows * cols)
    turn = states[:, 0]
    cells = states[:, 1:].reshape(-1, rows, cols)
    row = np.arange(rows)[None, :, None]
    white, black = cells == 1, cells == 2
    home = home_rows(rows)
    lost_white = home * cols - white.sum(axis=(1, 2))
    lost_black = home * cols - black.sum(axis=(1, 2))
    # A piece on row r came from one of the home rows: so many moves, at most one less.
    white_low = (np.maximum(0, rows - home - row) * white).sum(axis=(1, 2))
    white_high = ((rows - 1 - row) * white).sum(axis=(1, 2)) + lost_white * (rows - 2)
    black_low = (np.maximum(0, row - (home - 1)) * black).sum(axis=(1, 2))
    black_high = (row * black).sum(axis=(1, 2)) + lost_black * (rows - 2)
    white_low, black_low = np.maximum(white_low, lost_black), np.maximum(black_low, lost_white)
    # White moves first: with White to move both have moved as often, else White once more.
    low = np.maximum(white_low, black_low + turn)
    high = np.minimum(white_high, black_high + turn)
    return (lost_white >= 0) & (lost_black >= 0) & (low <= high)


def replay(state, boards: Sequence[Board], board_of: Callable[[object], Board]):
    """Apply to an OpenSpiel ``state`` (a copy) the moves that give ``boards`` one
    after the other; ValueError if a board does not follow."""
    state = state.clone()
    for board in boards:
        for action in state.legal_actions():
            child = state.child(action)
            if board_of(child) == board:
                state = child
                break
        else:
            raise ValueError("a board of the line does not follow the one before")
    return state
