"""Plain-Python reference implementation of Pousse (written from RULES.md and the
seed text only; standard library only).

Board ``N`` x ``N`` (option ``size``, default 4, minimum 1), empty at the start,
``x`` moves first.  There is no misere variant (the seed lists none).

Moves, in this order (``moves`` and ``move_names`` are aligned)::

    L 1 .. L N, R 1 .. R N, T a .. T n, B a .. B n

``L i`` / ``R i`` insert a marker of the mover's colour from the left / right of
row ``i``, ``T c`` / ``B c`` from the top / bottom of column ``c``.  Rows are
numbered from 1 at the bottom, columns lettered from ``a`` at the left, as
chess squares are (``L 1`` enters at a1, ``B c`` at c1).  Take the line's
cells in order starting at the entry square and going away from it.  If the
entry square is occupied, every marker from the entry square up to (not
including) the first empty square moves one square further along; markers
beyond that empty square stay where they are.  If the line has no empty square, every marker moves one further and
the last marker of the line is pushed off the board.  All 4N insertions are
always legal, even one that leaves the board unchanged (e.g. ``x`` from the
left into a full row of ``x``).  Note the number of markers on the board never
goes down: an insertion into a line with an empty square adds one, into a full
line keeps the count.

A straight is a row or a column (never a diagonal) holding N markers of one
colour.  A board with more straights of one colour than of the other ends the
game and that colour wins, whoever made the move.  Equal numbers (zero or not)
do not end the game.

Part 1, the position game (what the database solves): state = board and turn;
a repeated board is *not* punished, so endless play is a DRAW for the solver.
``primitive(state)`` is "win" when the player to move owns more straights,
"lose" when the opponent does, otherwise None; primitives have no moves.

Part 2, the real game with history (``real_value``): the game also ends when an
insertion repeats a previous configuration of the board, and the player who
inserted the marker loses.  Decisions (documented, see ``real_value``):

* a configuration is the board only (the seed: "configuration of the board"):
  the turn is not part of it, so repeating a board that occurred with the
  other player to move also loses;
* the previous configurations include the start board and the current board
  (so a move that leaves the board unchanged always loses);
* when a new board both repeats a configuration and has dominant straights,
  the repetition is checked first (the seed's order) and the mover loses.
  From a legal history this cannot happen: every earlier board of a real game
  was non-terminal, so it had equal straights and differs from any dominant
  board.  It only matters for hand-made histories; ``repetition_first=False``
  checks dominance first instead.

State ``(turn, board)``: ``turn`` in "x"/"o", ``board`` a string of N*N cells
"x"/"o"/"-" in row-major order, the top row (row N) first.  Text
``(x ---- ---- ---- ----)``: turn, then the rows top to bottom.
"""

import math

try:
    from ._common import int_option, no_more_options, split_board
except ImportError:  # imported as a top-level module
    from _common import int_option, no_more_options, split_board

WIN = "win"
LOSE = "lose"
EMPTY = "-"
OTHER = {"x": "o", "o": "x"}
SIDES = "LRTB"
COLUMNS = "abcdefghijklmnopqrstuvwxyz"


class Game:
    name = "pousse"

    def __init__(self, **options):
        options = dict(options)
        self.size = int_option(options, "size", 4, 1)
        misere = options.pop("misere", False)
        if misere is not False:
            raise ValueError("pousse has no misere variant")
        no_more_options(options, self.name)
        N = self.size
        # lines[k]: cell indices of move k's line, from the entry square on.
        # Row i (from the bottom) is board row N - i of the string (top row first).
        lines = []
        for i in range(1, N + 1):  # L i: row i from the left
            lines.append(tuple((N - i) * N + c for c in range(N)))
        for i in range(1, N + 1):  # R i: row i from the right
            lines.append(tuple((N - i) * N + c for c in reversed(range(N))))
        for c in range(N):  # T c: column c from the top
            lines.append(tuple(r * N + c for r in range(N)))
        for c in range(N):  # B c: column c from the bottom
            lines.append(tuple(r * N + c for r in reversed(range(N))))
        self.lines = tuple(lines)
        self.names = (tuple(f"{side} {i}" for side in "LR" for i in range(1, N + 1))
                      + tuple(f"{side} {COLUMNS[c]}" for side in "TB" for c in range(N)))
        self.rows_idx = tuple(tuple(r * N + c for c in range(N)) for r in range(N))
        self.cols_idx = tuple(tuple(r * N + c for r in range(N)) for c in range(N))
        self._dom_cache = {}

    # ------------------------------------------------------------------ text
    def start(self):
        return ("x", EMPTY * (self.size * self.size))

    def parse(self, text):
        N = self.size
        turn, rows = split_board(text, N, N)
        turn = turn.lower()
        if turn not in OTHER:
            raise ValueError(f"turn must be x or o: {text!r}")
        board = "".join(rows).lower()
        for ch in board:
            if ch not in "xo-":
                raise ValueError(f"bad cell {ch!r} in {text!r}")
        return (turn, board)

    def format(self, state):
        turn, board = state
        N = self.size
        return "(" + turn + " " + " ".join(board[r * N:(r + 1) * N] for r in range(N)) + ")"

    def board_from_rows(self, rows):
        """``["x--", ...]`` or ``"x-- ..."`` (rows top to bottom) -> board string."""
        if isinstance(rows, str):
            rows = rows.split()
        N = self.size
        if len(rows) != N or any(len(r) != N for r in rows):
            raise ValueError(f"need {N} rows of {N} cells: {rows!r}")
        board = "".join(rows).lower()
        if any(ch not in "xo-" for ch in board):
            raise ValueError(f"bad cells in {rows!r}")
        return board

    def board_rows(self, board):
        N = self.size
        return [board[r * N:(r + 1) * N] for r in range(N)]

    # ----------------------------------------------------------------- moves
    def move_index(self, move):
        """Move number 0..4N-1 from ``"L 1"``, ``"l1"``, ``"T a"``, ``"tA"``,
        ``("L", 1)``, ``("T", "a")`` or an int."""
        N = self.size
        if isinstance(move, int) and not isinstance(move, bool):
            if not 0 <= move < 4 * N:
                raise ValueError(f"move number {move} out of range")
            return move
        if isinstance(move, tuple) and len(move) == 2:
            side, line = move
        elif isinstance(move, str):
            s = move.replace(" ", "")
            if len(s) < 2:
                raise ValueError(f"bad move {move!r}")
            side, line = s[0], s[1:]
        else:
            raise ValueError(f"bad move {move!r}")
        side = str(side).upper()
        if side in ("L", "R"):
            if isinstance(line, str) and line.isdigit():
                line = int(line)
            if isinstance(line, int) and not isinstance(line, bool) and 1 <= line <= N:
                return SIDES.index(side) * N + (line - 1)
        elif side in ("T", "B"):
            if isinstance(line, str) and len(line) == 1 and line.lower() in COLUMNS[:N]:
                return SIDES.index(side) * N + COLUMNS.index(line.lower())
        raise ValueError(f"bad move {move!r} for size {N}")

    def insert(self, board, move, colour):
        """The board after inserting a ``colour`` marker by ``move``.

        ``board`` is a board string (or a ``(turn, board)`` state; the result
        is always a board string); ``move`` anything ``move_index`` accepts.
        """
        if isinstance(board, tuple):
            board = board[1]
        if colour not in OTHER:
            raise ValueError(f"colour must be x or o, got {colour!r}")
        return self._insert(board, self.lines[self.move_index(move)], colour)

    @staticmethod
    def _insert(board, line, colour):
        cells = list(board)
        values = [cells[i] for i in line]
        # first empty square of the line; with none the last marker falls off
        k = values.index(EMPTY) if EMPTY in values else len(values) - 1
        cells[line[0]] = colour
        for j in range(1, k + 1):
            cells[line[j]] = values[j - 1]
        return "".join(cells)

    def move_names(self, state):
        if self.primitive(state) is not None:
            return []
        return list(self.names)

    def moves(self, state):
        if self.primitive(state) is not None:
            return []
        turn, board = state
        nxt = OTHER[turn]
        ins = self._insert
        return [((nxt, ins(board, line, turn)), False) for line in self.lines]

    def play(self, state, move):
        """The child of ``state`` after the named move (no primitive check)."""
        turn, board = state
        return (OTHER[turn], self.insert(board, move, turn))

    # ---------------------------------------------------------------- scoring
    def straights(self, board):
        """``(x straights, o straights)``: full rows plus full columns."""
        x = o = 0
        for group in (self.rows_idx, self.cols_idx):
            for line in group:
                first = board[line[0]]
                if first == EMPTY:
                    continue
                if all(board[i] == first for i in line):
                    if first == "x":
                        x += 1
                    else:
                        o += 1
        return x, o

    def dominant(self, board):
        """"x" or "o" if that colour has more straights, else None."""
        d = self._dom_cache.get(board, 0)
        if d == 0:
            x, o = self.straights(board)
            d = "x" if x > o else "o" if o > x else None
            if len(self._dom_cache) < 2_000_000:
                self._dom_cache[board] = d
        return d

    def primitive(self, state):
        turn, board = state
        d = self.dominant(board)
        if d is None:
            return None
        return WIN if d == turn else LOSE

    # ------------------------------------------------------------ real game
    def real_value(self, state, history=(), **options):
        """``real_value(state, history, game=self, **options)``."""
        return real_value(state, history, game=self, **options)


def _markers(board):
    return len(board) - board.count(EMPTY)


MINIMAX = "minimax"
DEEPENING = "deepening"
VALUE_ONLY = "value"


def real_value(state, history=(), game=None, method=MINIMAX, repetition_first=True,
               prune=True, max_nodes=None, stats=None):
    """Exact ``(value, remoteness)`` of ``state`` in the real game (with history).

    ``state`` is ``(turn, board)``; ``history`` an iterable of the boards that
    occurred earlier in the game (board strings or ``(turn, board)`` states).
    The current board is added in any case.  The start board belongs in a
    real game's history but can never recur anyway (every board after an
    insertion holds a marker).  The value is "win"/"lose" for the player to
    move.  There are no draws: each move either ends the game or makes a
    board not seen before, and there are finitely many boards.

    Terminal rules, applied to the board ``nb`` made by a move of ``turn``:

    * ``nb`` already occurred (board only, the turn is ignored): the mover
      loses.  This is checked first unless ``repetition_first=False``, which
      only makes a difference for hand-made histories that hold a dominant
      board (see the module docstring);
    * ``nb`` has more straights of one colour: that colour wins.

    If the current board itself has dominant straights the game is already
    over: value by dominance, remoteness 0 (as ``Game.primitive``), whatever
    the history.

    Remoteness the usual way: a move that ends the game leads to a terminal
    position of remoteness 0; WIN = 1 + min over the winning moves, LOSE =
    1 + max over all moves.

    Methods (all exact):

    * ``"minimax"``: full search of every move, memoised on ``(board, turn,
      visited boards)``; gives the remoteness by the definition above.
      Instant for N = 2; for N = 3 it runs out of memory from early
      positions.
    * ``"deepening"``: iterative deepening on "the mover can force a win
      within d plies" / "the mover loses within d plies whatever it does"
      (d = 1, 2, ...), each with short-circuit evaluation.  The first d
      that settles one of them is the remoteness (a WIN's remoteness is the
      least d within which the win can be forced, a LOSE's the least d within
      which the loss is certain; by induction on d these are the 1 + min /
      1 + max above).  Solves N = 3 from the start in well under a second.
    * ``"value"``: value only, stopping at the first winning move; returns
      ``(value, None)`` (still ``(value, 0)`` if the game is already over).

    With ``prune=True`` the visited set keeps only the boards with at least as
    many markers as the current board: the marker count never decreases, so
    the others can never recur (exact).  ``prune=False`` keeps the whole set
    (slower; for cross-checking the pruning).  ``max_nodes``: raise
    ``RuntimeError`` once more than that many memo entries exist (a guard
    against running out of memory).  ``stats``, if a dict, receives the
    number of memo entries under "nodes".
    """
    if method not in (MINIMAX, DEEPENING, VALUE_ONLY):
        raise ValueError(f"unknown method {method!r}")
    turn, board = state
    if game is None:
        n = math.isqrt(len(board))
        if n * n != len(board) or n < 1:
            raise ValueError(f"board of length {len(board)} is not square")
        game = Game(size=n)
    if len(board) != game.size ** 2 or turn not in OTHER:
        raise ValueError(f"bad state {state!r}")
    d = game.dominant(board)
    if d is not None:
        return (WIN if d == turn else LOSE), 0

    visited = {h[1] if isinstance(h, tuple) else h for h in history}
    for b in visited:
        if not isinstance(b, str) or len(b) != len(board):
            raise ValueError(f"bad history board {b!r}")
    visited.add(board)
    if prune:
        count = _markers(board)
        visited = {b for b in visited if _markers(b) >= count}
    visited = frozenset(visited)

    lines = game.lines
    ins = game._insert
    dominant = game.dominant
    memo = {}

    def children(board, turn, visited):
        """Per move (in move order): ``(True, good)`` if it ends the game
        (``good``: the mover wins), else ``(False, (new board, new visited))``."""
        out = []
        own = _markers(board)
        for line in lines:
            nb = ins(board, line, turn)
            repeated = nb in visited
            d = dominant(nb)
            if repeated and (repetition_first or d is None):
                out.append((True, False))
            elif d is not None:
                out.append((True, d == turn))
            else:
                c = _markers(nb)
                if prune and c > own:
                    nv = frozenset([b for b in visited if _markers(b) >= c] + [nb])
                else:
                    nv = visited | {nb}
                out.append((False, (nb, nv)))
        return out

    def remember(key, result):
        memo[key] = result
        if max_nodes is not None and len(memo) > max_nodes:
            raise RuntimeError(f"real_value: more than {max_nodes} memo entries")
        return result

    def minimax(board, turn, visited):
        # board is in visited and not dominant; returns (value, remoteness)
        key = (board, turn, visited)
        got = memo.get(key)
        if got is not None:
            return got
        nxt = OTHER[turn]
        best_win = None  # min remoteness over the winning moves
        worst = 0        # max child remoteness over the losing moves
        for ended, info in children(board, turn, visited):
            if ended:
                good, r = info, 0
            else:
                cv, r = minimax(info[0], nxt, info[1])
                good = cv == LOSE
            if good:
                if best_win is None or r < best_win:
                    best_win = r
            elif r > worst:
                worst = r
        if best_win is not None:
            return remember(key, (WIN, 1 + best_win))
        return remember(key, (LOSE, 1 + worst))

    def value_only(board, turn, visited):
        key = (board, turn, visited)
        got = memo.get(key)
        if got is not None:
            return got
        nxt = OTHER[turn]
        kids = children(board, turn, visited)
        if any(ended and info for ended, info in kids):
            return remember(key, WIN)
        for ended, info in kids:
            if not ended and value_only(info[0], nxt, info[1]) == LOSE:
                return remember(key, WIN)
        return remember(key, LOSE)

    # Deepening.  can_win(p, d): the mover can force a win within d plies;
    # must_lose(p, d): whatever the mover does it loses within d plies.
    # Both are monotone in d, so memo[(p, kind)] = [largest d known false,
    # smallest d known true].
    def bounded(board, turn, visited, d, kind):
        if d <= 0:
            return False  # a non-terminal position is not over within 0 plies
        key = (board, turn, visited, kind)
        known = memo.get(key)
        if known is None:
            known = [0, None]
            remember(key, known)
        if d <= known[0]:
            return False
        if known[1] is not None and d >= known[1]:
            return True
        nxt = OTHER[turn]
        kids = children(board, turn, visited)
        if kind:  # can_win
            result = any(ended and info for ended, info in kids) or any(
                not ended and bounded(info[0], nxt, info[1], d - 1, False)
                for ended, info in kids)
        else:     # must_lose
            result = all(
                (not info) if ended else bounded(info[0], nxt, info[1], d - 1, True)
                for ended, info in kids)
        if result:
            known[1] = d
        else:
            known[0] = d
        return result

    try:
        if method == MINIMAX:
            return minimax(board, turn, visited)
        if method == VALUE_ONLY:
            return value_only(board, turn, visited), None
        d = 1
        while True:  # terminates: the real game is finite
            if bounded(board, turn, visited, d, True):
                return WIN, d
            if bounded(board, turn, visited, d, False):
                return LOSE, d
            d += 1
    finally:
        if stats is not None:
            stats["nodes"] = len(memo)


def real_move_results(state, history=(), game=None, method=DEEPENING, **options):
    """Per move (in move order): ``(name, value, remoteness)`` in the real game,
    value from the view of the player making the move at ``state``.

    A move that ends the game gives ``("lose", 0)`` (repetition) or the
    dominance result with remoteness 0; otherwise the child's ``real_value``
    (history plus the child's board) flipped, with the child's remoteness.
    ``state`` must not be over already.
    """
    turn, board = state
    if game is None:
        game = Game(size=math.isqrt(len(board)))
    if game.primitive(state) is not None:
        raise ValueError(f"the game is over at {state!r}")
    repetition_first = options.get("repetition_first", True)
    seen = {h[1] if isinstance(h, tuple) else h for h in history}
    seen.add(board)
    flip = {WIN: LOSE, LOSE: WIN}
    out = []
    for name, (child, _) in zip(game.names, game.moves(state)):
        nb = child[1]
        d = game.dominant(nb)
        if nb in seen and (repetition_first or d is None):
            out.append((name, LOSE, 0))
        elif d is not None:
            out.append((name, WIN if d == turn else LOSE, 0))
        else:
            v, r = real_value(child, seen | {nb}, game=game, method=method, **options)
            out.append((name, flip[v], r))
    return out
