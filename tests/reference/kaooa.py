"""Plain-Python reference implementation of Kaooa (written from RULES.md only;
standard library only).

Ten points: tips 0-4 clockwise from the top, inner points 5-9, point 5 + k between
tips k and k + 1. Five lines of four points each: 0-5-6-2, 1-6-7-3, 2-7-8-4, 3-8-9-0,
4-9-5-1. Neighbours: points next to each other on a line. Options ``crows`` (N,
default 6), ``captures`` (K, default 3, 1 to N - 1), ``symmetry`` (storage only:
ignored by the rules).

Crows move first. While crows are in hand, a crows' turn places one on an empty
point (``3``). The vulture's first turn places it on an empty point. Afterwards the
vulture steps to an empty neighbour (``7-2``) or jumps along a line over a
neighbouring crow onto the empty point just beyond, taking that crow (``7x4``);
it does so while crows are still being placed too. Once all crows are placed, a
crows' turn steps one crow to an empty neighbour.

End (for the player to move): K crows taken with the crows to move: "lose". The
vulture to move with no move (every neighbour taken and every landing point of a
jump taken): "lose". Otherwise play goes on (draws by endless play).

Valid positions: one vulture at most, crows on the board at most those placed
(N - hand), crows taken (placed - on board) at most K, and exactly K only with the
crows to move. While crows are in hand, the vulture has had ``placed`` turns with
the crows to move, ``placed - 1`` with the vulture to move; that number must be at
least 0; the vulture is on the board exactly when it is at least 1; crows taken are
at most that number minus 1 (its first turn places it). Once all crows are placed,
the vulture is on the board. The vulture shut in with the crows to move is refused.

State ``(turn, board, hand)``: turn "c" or "v", board a string of the ten points
"c"/"v"/"-", hand an int. Text ``(c ----- ----- 6)``.
"""

try:
    from ._common import bool_option, int_option, no_more_options, split_text
except ImportError:  # imported as a top-level module
    from _common import bool_option, int_option, no_more_options, split_text

LOSE = "lose"
LINES = ((0, 5, 6, 2), (1, 6, 7, 3), (2, 7, 8, 4), (3, 8, 9, 0), (4, 9, 5, 1))


class Game:
    name = "kaooa"

    def __init__(self, **options):
        options = dict(options)
        self.crows = int_option(options, "crows", 6, 2)
        self.captures = int_option(options, "captures", 3, 1)
        bool_option(options, "symmetry", False)
        no_more_options(options, self.name)
        if self.crows > 7 or self.captures > self.crows - 1:
            raise ValueError("crows 2 to 7, captures 1 to crows - 1")
        self.neighbours = {p: set() for p in range(10)}
        self.jumps = {p: [] for p in range(10)}  # (over, landing)
        for line in LINES:
            for way in (line, line[::-1]):
                for i in range(3):
                    self.neighbours[way[i]].add(way[i + 1])
                for i in range(2):
                    self.jumps[way[i]].append((way[i + 1], way[i + 2]))

    # ------------------------------------------------------------------ text
    def start(self):
        return ("c", "-" * 10, self.crows)

    def parse(self, text):
        words = split_text(text)
        if len(words) != 4:
            raise ValueError(f"four words expected: {text!r}")
        turn, tips, inner, hand = words
        if turn not in ("c", "v") or len(tips) != 5 or len(inner) != 5:
            raise ValueError(f"bad position {text!r}")
        board = tips + inner
        if set(board) - set("cv-") or not hand.isdigit():
            raise ValueError(f"bad position {text!r}")
        state = (turn, board, int(hand))
        reason = self.invalid_reason(state)
        if reason:
            raise ValueError(f"{reason}: {text!r}")
        return state

    def format(self, state):
        turn, board, hand = state
        return f"({turn} {board[:5]} {board[5:]} {hand})"

    # ----------------------------------------------------------------- rules
    def taken(self, state):
        _, board, hand = state
        return self.crows - hand - board.count("c")

    def invalid_reason(self, state):
        turn, board, hand = state
        if hand > self.crows:
            return "more crows in hand than there are"
        if board.count("v") > 1:
            return "two vultures"
        placed = self.crows - hand
        if board.count("c") > placed:
            return "more crows on the board than placed"
        taken = self.taken(state)
        if taken > self.captures or (taken == self.captures and turn == "v"):
            return "game already over"
        has_vulture = "v" in board
        if hand > 0:
            turns = placed if turn == "c" else placed - 1
            if turns < 0:
                return "the vulture cannot move before the crows"
            if has_vulture != (turns >= 1):
                return "vulture placed at the wrong time"
            if taken > max(0, turns - 1):
                return "too many crows taken"
        elif not has_vulture:
            return "no vulture"
        if turn == "c" and has_vulture and self._shut_in(board):
            return "vulture shut in with the crows to move"
        return None

    def _shut_in(self, board):
        v = board.index("v")
        if any(board[q] == "-" for q in self.neighbours[v]):
            return False
        return all(board[land] != "-" for _, land in self.jumps[v])

    def primitive(self, state):
        turn, board, _ = state
        if self.taken(state) >= self.captures:
            return LOSE
        if turn == "v" and "v" in board and self._shut_in(board):
            return LOSE
        return None

    def named_moves(self, state):
        turn, board, hand = state
        out = []

        def put(cells, point, piece):
            cells[point] = piece

        if turn == "c":
            if hand > 0:
                for p in range(10):
                    if board[p] == "-":
                        cells = list(board)
                        put(cells, p, "c")
                        out.append((str(p), ("v", "".join(cells), hand - 1)))
            else:
                for p in range(10):
                    if board[p] != "c":
                        continue
                    for q in sorted(self.neighbours[p]):
                        if board[q] == "-":
                            cells = list(board)
                            cells[p], cells[q] = "-", "c"
                            out.append((f"{p}-{q}", ("v", "".join(cells), hand)))
            return out
        if "v" not in board:
            for p in range(10):
                if board[p] == "-":
                    cells = list(board)
                    put(cells, p, "v")
                    out.append((str(p), ("c", "".join(cells), hand)))
            return out
        v = board.index("v")
        for q in sorted(self.neighbours[v]):
            if board[q] == "-":
                cells = list(board)
                cells[v], cells[q] = "-", "v"
                out.append((f"{v}-{q}", ("c", "".join(cells), hand)))
        for over, land in self.jumps[v]:
            if board[over] == "c" and board[land] == "-":
                cells = list(board)
                cells[v], cells[over], cells[land] = "-", "-", "v"
                out.append((f"{v}x{land}", ("c", "".join(cells), hand)))
        return out

    def moves(self, state):
        if self.primitive(state) is not None:
            return []
        return [(child, False) for _, child in self.named_moves(state)]

    def move_names(self, state):
        if self.primitive(state) is not None:
            return []
        return [name for name, _ in self.named_moves(state)]
