"""Plain-Python reference implementation of Teeko (written from RULES.md only;
standard library only).

Board ``N`` x ``N`` (option ``size``, default 5, 3 to 5), empty at the start;
players black ``b`` and white ``w``, four markers each; black moves first.
Option ``advanced`` (default False).

Moves.  While the player to move has fewer than four markers on the board, a move
drops one of theirs on an empty cell (named by the cell, ``c3``).  Otherwise
(four each on the board) a move takes one of the mover's markers one step in any
of the eight directions to an empty cell (named ``c3-d4``).  Move order (``moves``
and ``move_names`` are aligned): drops by target cell in row-major order from the
top left; steps by source cell in row-major order, then the directions
N, NE, E, SE, S, SW, W, NW.

Patterns (a player wins with all four markers on one): every line of four
consecutive cells that fits on the board along a row, a column or either diagonal
direction; every 2x2 square; with ``advanced``, the four corners of every larger
square with sides along the board (3x3 up to NxN) that fits.  On 5x5: 28 lines,
16 squares, 14 advanced corner sets.

``primitive(state)``, for the player to move: the opponent's four markers form a
pattern -> "lose"; else no legal move -> "lose"; else None.  Primitives have no
moves.  Play can go on for ever, so the solver may find draws.

Valid positions (RULES.md, Teeko "Notation"): at most four markers a side; with
``b`` to move the counts (black, white) are (k, k), with ``w`` to move (k+1, k),
k = 0..3, and (4, 4) with either to move; the player to move has no pattern.
``invalid_reason(state)`` says why a state is not valid (None if it is),
``valid(state)`` is its boolean, and ``parse`` raises ValueError for an invalid
position.  ``primitive`` and ``moves`` assume a valid state; every child of a
valid non-primitive state is valid.

State ``(turn, board)``: ``turn`` is "b" or "w", ``board`` a string of N*N cells
"b"/"w"/"-" in row-major order, top row first.  Text ``(b --- --- ---)``: the
turn, then the rows from the top.
"""

try:
    from ._common import bool_option, cell_name, int_option, no_more_options, split_board
except ImportError:  # imported as a top-level module
    from _common import bool_option, cell_name, int_option, no_more_options, split_board

LOSE = "lose"
EMPTY = "-"
OTHER = {"b": "w", "w": "b"}
MARKERS = 4
MIN_SIZE, MAX_SIZE = 3, 5
# (row step, column step), rows counted from the top: N, NE, E, SE, S, SW, W, NW.
DIRECTIONS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


class Game:
    name = "teeko"

    def __init__(self, **options):
        options = dict(options)
        self.size = int_option(options, "size", 5, MIN_SIZE)
        if self.size > MAX_SIZE:
            raise ValueError(f"option size must be at most {MAX_SIZE}, got {self.size}")
        self.advanced = bool_option(options, "advanced", False)
        no_more_options(options, self.name)
        N = self.size

        patterns = set()
        # lines of four: rows, columns, both diagonal directions
        for r in range(N):
            for c in range(N):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + t * dr, c + t * dc) for t in range(4)]
                    if all(0 <= rr < N and 0 <= cc < N for rr, cc in cells):
                        patterns.add(frozenset(rr * N + cc for rr, cc in cells))
        # squares: side d = 1 gives the 2x2 squares; d >= 2 (advanced) the corners
        # of the (d+1)x(d+1) squares
        sides = range(1, N) if self.advanced else range(1, 2)
        for d in sides:
            for r in range(N - d):
                for c in range(N - d):
                    patterns.add(frozenset((r * N + c, r * N + c + d,
                                            (r + d) * N + c, (r + d) * N + c + d)))
        self.patterns = sorted(sorted(p) for p in patterns)

        # neighbours of every cell in the eight directions, in DIRECTIONS order
        self.neighbours = []
        for r in range(N):
            for c in range(N):
                near = []
                for dr, dc in DIRECTIONS:
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < N and 0 <= cc < N:
                        near.append(rr * N + cc)
                self.neighbours.append(near)

    # ------------------------------------------------------------------ text
    def start(self):
        return ("b", EMPTY * (self.size * self.size))

    def parse(self, text):
        N = self.size
        turn, rows = split_board(text, N, N)
        if turn not in OTHER:
            raise ValueError(f"turn must be b or w: {text!r}")
        board = "".join(rows)
        for ch in board:
            if ch not in "bw-":
                raise ValueError(f"bad cell {ch!r} in {text!r}")
        state = (turn, board)
        reason = self.invalid_reason(state)
        if reason is not None:
            raise ValueError(f"{reason}: {text!r}")
        return state

    def format(self, state):
        turn, board = state
        N = self.size
        return "(" + turn + " " + " ".join(board[r * N:(r + 1) * N] for r in range(N)) + ")"

    # ----------------------------------------------------------------- rules
    def has_pattern(self, board, colour):
        for pattern in self.patterns:
            if all(board[i] == colour for i in pattern):
                return True
        return False

    def invalid_reason(self, state):
        """Why ``state`` is not a valid Teeko position, or None if it is."""
        turn, board = state
        blacks, whites = board.count("b"), board.count("w")
        if blacks > MARKERS or whites > MARKERS:
            return f"more than {MARKERS} markers a side ({blacks} black, {whites} white)"
        if (blacks, whites) != (MARKERS, MARKERS):
            if turn == "b" and blacks != whites:
                return f"black to move needs as many black as white markers " \
                       f"({blacks} black, {whites} white)"
            if turn == "w" and blacks != whites + 1:
                return f"white to move needs one black marker more than white " \
                       f"({blacks} black, {whites} white)"
        if self.has_pattern(board, turn):
            return "the player to move has a pattern (the game ended before)"
        return None

    def valid(self, state):
        return self.invalid_reason(state) is None

    def _legal(self, state):
        """(name, child) of every legal move, in move order (no end check)."""
        turn, board = state
        nxt = OTHER[turn]
        out = []
        if board.count(turn) < MARKERS:  # drop
            for i, ch in enumerate(board):
                if ch == EMPTY:
                    out.append((self._name(i), (nxt, board[:i] + turn + board[i + 1:])))
            return out
        for i, ch in enumerate(board):  # step
            if ch != turn:
                continue
            for j in self.neighbours[i]:
                if board[j] == EMPTY:
                    cells = list(board)
                    cells[i] = EMPTY
                    cells[j] = turn
                    out.append((self._name(i) + "-" + self._name(j), (nxt, "".join(cells))))
        return out

    def _name(self, i):
        return cell_name(i // self.size, i % self.size, self.size)

    def _can_move(self, state):
        """Whether the player to move has a legal move (as ``_legal`` is not empty)."""
        turn, board = state
        if board.count(turn) < MARKERS:
            return EMPTY in board
        return any(board[j] == EMPTY
                   for i, ch in enumerate(board) if ch == turn
                   for j in self.neighbours[i])

    def primitive(self, state):
        turn, board = state
        if self.has_pattern(board, OTHER[turn]):
            return LOSE
        if not self._can_move(state):
            return LOSE
        return None

    def moves(self, state):
        if self.primitive(state) is not None:
            return []
        return [(child, False) for _, child in self._legal(state)]

    def move_names(self, state):
        if self.primitive(state) is not None:
            return []
        return [name for name, _ in self._legal(state)]

    def play(self, state, move):
        """The child after the named move (``"c3"`` or ``"c3-d4"``, any case);
        ValueError if the move is not legal in ``state``."""
        wanted = move.strip().lower()
        for name, child in self.move_names_and_children(state):
            if name == wanted:
                return child
        raise ValueError(f"{move!r} is not a legal move in {self.format(state)}")

    def move_names_and_children(self, state):
        if self.primitive(state) is not None:
            return []
        return self._legal(state)
