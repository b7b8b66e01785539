"""Reference Dōbutsu shōgi (written from docs/RULES.md only; standard library only).

A board of 3 columns (a-c) and 4 rows (1-4, from the first player's side). The first
player's pieces are upper case, ``L G E C H`` (Lion, Giraffe, Elephant, Chick, Hen),
the second player's lower case; the first player moves first and forward for them is
towards row 4, for the second player towards row 1. A player's far row is row 4 for
the first player, row 1 for the second.

Option ``animals``: the kinds besides the Lions that take part, a subset of ``"GEC"``
(default all three), two pieces of each; the other kinds are left out.

Moves.  A piece moves one square (Lion: any direction; Giraffe: orthogonally;
Elephant: diagonally; Chick: straight forward; Hen: any direction but diagonally
backward) to an empty square or onto an opponent's piece, which it captures.  A
captured piece goes to the captor's hand, a Hen as a Chick; a captured Lion goes
nowhere (the game is over).  A Chick that moves onto the mover's far row becomes a
Hen.  A drop puts a piece of the mover's hand on any empty square (far row included,
where a Chick stays a Chick and cannot move).

End (``primitive``, for the player to move).  A Lion missing from the board: "lose"
(it is the mover's, in a valid position).  Else a Lion on its far row (the
opponent's Lion, in a valid position): "win" if some move of the player to move
captures it, else "lose".  Otherwise None: no other end, and no repetition rule (play
that goes on for ever is a draw for the solver).  Primitives have no moves.  A
player who cannot move (the other side's pieces all on the board, walling in their
Lion) does not lose: the position is a draw.  ``moves`` gives it one move that leaves
it as it is, with the same player to move, which the solver can never decide.

Valid positions (``parse`` refuses the others with ValueError): at most one Lion a
side and at least one on the board; each kind in play exactly two pieces, on the
board or in the hands (Chicks and Hens together); no Hen in a hand, no piece of a
kind not in play; a missing Lion belongs to the player to move; the player to move
has no Lion on their own far row.

State ``(turn, board, hands)``: ``turn`` 0 (first player) or 1 (second); ``board`` a
string of 12 cells, the rows from row 4 (top) down to row 1, each read a to c, so
cell ``3 * r + c`` is column ``c`` of the ``r``-th row from the top; ``hands`` a
tuple of six counts: the first player's Giraffes, Elephants, Chicks, then the second
player's.  Text ``(L gle -c- -C- ELG -)``: the Lion letter of the player to move,
the four rows from the top, and the hands (first player's upper case, then second's
lower case, each in the order G, E, C; ``-`` if both are empty).

Move names: ``b1-b2`` (a piece moves), ``G*b2`` (a drop, upper case whoever drops).
"""

try:
    from ._common import no_more_options, split_text
except ImportError:  # imported as a top-level module
    from _common import no_more_options, split_text

WIN = "win"
LOSE = "lose"
EMPTY = "-"
ROWS, COLS = 4, 3
KINDS = "GEC"  # the kinds that go to a hand, in the order of the notation
START = "gle-c--C-ELG"

# One-square steps as (forward, right), forward towards the mover's far row.
ALL_EIGHT = ((1, -1), (1, 0), (1, 1), (0, -1), (0, 1), (-1, -1), (-1, 0), (-1, 1))
STEPS = {
    "L": ALL_EIGHT,
    "G": ((1, 0), (0, -1), (0, 1), (-1, 0)),
    "E": ((1, -1), (1, 1), (-1, -1), (-1, 1)),
    "C": ((1, 0),),
    "H": ((1, -1), (1, 0), (1, 1), (0, -1), (0, 1), (-1, 0)),
}


def owner(piece):
    """0 for the first player's pieces (upper case), 1 for the second's, None for empty."""
    if piece == EMPTY:
        return None
    return 0 if piece.isupper() else 1


def far_row(player):
    """The row index (from the top) of ``player``'s far row."""
    return 0 if player == 0 else ROWS - 1


def square_name(i):
    return "abc"[i % COLS] + str(ROWS - i // COLS)


def targets(i, piece):
    """The cells a piece on cell ``i`` can step to (on the board)."""
    player = owner(piece)
    forward = -1 if player == 0 else 1  # rows are counted from the top
    r, c = divmod(i, COLS)
    out = []
    for f, side in STEPS[piece.upper()]:
        rr, cc = r + forward * f, c + side
        if 0 <= rr < ROWS and 0 <= cc < COLS:
            out.append(rr * COLS + cc)
    return out


class Game:
    name = "dshogi"

    def __init__(self, **options):
        options = dict(options)
        animals = options.pop("animals", KINDS)
        no_more_options(options, self.name)
        if not isinstance(animals, str) or set(animals) - set(KINDS) \
                or len(set(animals)) != len(animals):
            raise ValueError(f"option animals is a subset of GEC, got {animals!r}")
        self.animals = "".join(k for k in KINDS if k in animals)

    # ------------------------------------------------------------------ text
    def start(self):
        board = "".join(ch if ch.upper() in "L" + self.animals else EMPTY for ch in START)
        return (0, board, (0,) * 6)

    def parse(self, text):
        words = split_text(text)
        if len(words) != 2 + ROWS:
            raise ValueError(f"a Dōbutsu shōgi position is a turn, four rows and the hands: "
                             f"{text!r}")
        turn_word, rows, hand_word = words[0], words[1:1 + ROWS], words[-1]
        if turn_word not in ("L", "l"):
            raise ValueError(f"the turn is L or l: {text!r}")
        turn = 0 if turn_word == "L" else 1
        allowed = set(EMPTY + "Ll")
        for kind in self.animals:
            allowed |= {kind, kind.lower()}
        if "C" in self.animals:
            allowed |= {"H", "h"}
        for row in rows:
            if len(row) != COLS or set(row) - allowed:
                raise ValueError(f"bad row {row!r} in {text!r}")
        board = "".join(rows)
        hands = [0] * 6
        if hand_word != EMPTY:
            for ch in hand_word:
                if ch in "Hh":
                    raise ValueError(f"a Hen in hand (a captured Hen is a Chick): {text!r}")
                if ch.upper() not in self.animals:
                    raise ValueError(f"bad piece {ch!r} in the hands of {text!r}")
                hands[KINDS.index(ch.upper()) + (0 if ch.isupper() else 3)] += 1
        state = (turn, board, tuple(hands))
        reason = self.invalid_reason(state)
        if reason is not None:
            raise ValueError(f"{reason}: {text!r}")
        return state

    def format(self, state):
        turn, board, hands = state
        hand = "".join(KINDS[k] * hands[k] for k in range(3)) \
            + "".join(KINDS[k].lower() * hands[3 + k] for k in range(3))
        rows = [board[r * COLS:(r + 1) * COLS] for r in range(ROWS)]
        return "(" + " ".join(["Ll"[turn], *rows, hand or EMPTY]) + ")"

    def invalid_reason(self, state):
        """Why ``state`` is not a valid position (see the module's docstring), or None."""
        turn, board, hands = state
        lions = (board.count("L"), board.count("l"))
        if max(lions) > 1:
            return "a side has two Lions"
        if lions == (0, 0):
            return "no Lion on the board"
        for k, kind in enumerate(KINDS):
            count = board.upper().count(kind) + hands[k] + hands[3 + k]
            if kind == "C":
                count += board.upper().count("H")
            wanted = 2 if kind in self.animals else 0
            if count != wanted:
                return f"{count} pieces of kind {kind} (Chicks and Hens together), not {wanted}"
        if lions[1 - turn] == 0:
            return "the Lion of the player who just moved is missing"
        lion = "Ll"[turn]
        row = far_row(turn)
        if lion in board[row * COLS:(row + 1) * COLS]:
            return "the Lion of the player to move is on its far row"
        return None

    # ----------------------------------------------------------------- rules
    def _board_moves(self, state):
        """(name, child) of every move of a piece on the board."""
        turn, board, hands = state
        out = []
        for i, piece in enumerate(board):
            if owner(piece) != turn:
                continue
            for j in targets(i, piece):
                taken = board[j]
                if owner(taken) == turn:
                    continue
                moved = piece
                if piece.upper() == "C" and j // COLS == far_row(turn):
                    moved = "H" if turn == 0 else "h"
                cells = list(board)
                cells[i] = EMPTY
                cells[j] = moved
                new_hands = list(hands)
                if taken != EMPTY and taken.upper() != "L":
                    kind = "C" if taken.upper() == "H" else taken.upper()
                    new_hands[3 * turn + KINDS.index(kind)] += 1
                out.append((square_name(i) + "-" + square_name(j),
                            (1 - turn, "".join(cells), tuple(new_hands))))
        return out

    def _drops(self, state):
        """(name, child) of every drop."""
        turn, board, hands = state
        out = []
        for k, kind in enumerate(KINDS):
            if hands[3 * turn + k] == 0:
                continue
            piece = kind if turn == 0 else kind.lower()
            new_hands = list(hands)
            new_hands[3 * turn + k] -= 1
            for j, cell in enumerate(board):
                if cell == EMPTY:
                    out.append((kind + "*" + square_name(j),
                                (1 - turn, board[:j] + piece + board[j + 1:],
                                 tuple(new_hands))))
        return out

    def _captures_on(self, state, square):
        """Whether a move of the player to move lands on ``square`` (a capture there)."""
        turn, board, _ = state
        return any(owner(piece) == turn and square in targets(i, piece)
                   for i, piece in enumerate(board))

    def primitive(self, state):
        turn, board, hands = state
        if "L" not in board or "l" not in board:
            return LOSE
        for player, lion in ((0, "L"), (1, "l")):
            row = far_row(player)
            for square in range(row * COLS, (row + 1) * COLS):
                if board[square] == lion:
                    return WIN if self._captures_on(state, square) else LOSE
        return None

    def move_names_and_children(self, state):
        if self.primitive(state) is not None:
            return []
        return self._board_moves(state) + self._drops(state)

    def stuck(self, state):
        """Whether the player to move has no move in a position that is not finished."""
        return self.primitive(state) is None and not self.move_names_and_children(state)

    def moves(self, state):
        """Children, each with whether the same player moves again. A player who cannot
        move is given one move that leaves the position as it is, with them to move
        again: it can never be decided, so the solver calls the position a draw."""
        children = [(child, False) for _, child in self.move_names_and_children(state)]
        if not children and self.primitive(state) is None:
            return [(state, True)]
        return children

    def move_names(self, state):
        return [name for name, _ in self.move_names_and_children(state)]

    def play(self, state, move):
        """The child after the named move (``"b1-b2"``, ``"C*b4"``); ValueError if the
        move is not legal in ``state``."""
        wanted = move.strip()
        for name, child in self.move_names_and_children(state):
            if name.lower() == wanted.lower():
                return child
        raise ValueError(f"{move!r} is not a legal move in {self.format(state)}")
