"""Plain-Python reference implementation of Gates (written from RULES.md only;
standard library only).

Points 1-18 (0-17 here), rows of 3, 4, 4, 4, 3. Each side: gates (G/g), triangles
(A/a), trapezoids (Z/z); triangles and trapezoids are spikes. Options ``gates``,
``triangles``, ``trapezoids`` (pieces a side) and ``points`` (only points 1..N).

Placing: white first, a turn places any piece still off the board (either colour) on
an empty point; the last placing (black's) is followed in the same turn by a move of a
black spike. Moving: a triangle goes to a neighbour, or to a point two steps away
with at least one of the points between empty; a trapezoid to a neighbour; the
destination empty or an own gate (scores: the spike leaves, the gate is open), or,
for a trapezoid only, an opponent's spike, which is put on a point empty before the
move or on the trapezoid's old point. After a score, the opponent first moves the
open gate to an empty point or leaves it, then moves a spike. Scoring the last spike
wins (the opponent to move has lost); no move loses.

State ``(turn, board, hand)``: turn "w"/"b", board a string of the points (GgAaZzOo-),
hand the pieces still to place in the order GgAaZz, or "-".
"""

try:
    from ._common import int_option, no_more_options, split_text
except ImportError:  # imported as a top-level module
    from _common import int_option, no_more_options, split_text

LOSE = "lose"
ROWS = (3, 4, 4, 4, 3)
KINDS = "GgAaZz"

# "1 touches 2, 4, 5; 2: 1, 3, 5, 6; ..." (RULES.md), 1-based
NEIGHBOURS_TEXT = """1: 2, 4, 5; 2: 1, 3, 5, 6; 3: 2, 6, 7; 4: 1, 5, 8, 9; 5: 1, 2, 4, 6,
9; 6: 2, 3, 5, 7, 10; 7: 3, 6, 10, 11; 8: 4, 9, 12; 9: 4, 5, 8, 12, 13; 10: 6, 7, 11,
14, 15; 11: 7, 10, 15; 12: 8, 9, 13, 16; 13: 9, 12, 14, 16, 17; 14: 10, 13, 15, 17,
18; 15: 10, 11, 14, 18; 16: 12, 13, 17; 17: 13, 14, 16, 18; 18: 14, 15, 17"""

TWO_STEPS_TEXT = """1: 3 (2), 6 (2 or 5), 8 (4), 9 (4 or 5);
  2: 4 (1 or 5), 7 (3 or 6), 9 (5), 10 (6); 3: 1 (2), 5 (2 or 6), 10 (6 or 7),
  11 (7); 4: 2 (1 or 5), 6 (5), 12 (8 or 9), 13 (9); 5: 3 (2 or 6), 7 (6), 8 (4 or
  9), 10 (6), 12 (9), 13 (9); 6: 1 (2 or 5), 4 (5), 9 (5), 11 (7 or 10), 14 (10),
  15 (10); 7: 2 (3 or 6), 5 (6), 14 (10), 15 (10 or 11); 8: 1 (4), 5 (4 or 9), 13
  (9 or 12), 16 (12); 9: 1 (4 or 5), 2 (5), 6 (5), 14 (13), 16 (12 or 13), 17 (13);
  10: 2 (6), 3 (6 or 7), 5 (6), 13 (14), 17 (14), 18 (14 or 15); 11: 3 (7), 6 (7 or
  10), 14 (10 or 15), 18 (15); 12: 4 (8 or 9), 5 (9), 14 (13), 17 (13 or 16); 13: 4
  (9), 5 (9), 8 (9 or 12), 10 (14), 15 (14), 18 (14 or 17); 14: 6 (10), 7 (10 or
  11), 9 (13), 12 (13), 16 (13 or 17); 15: 6 (10), 7 (10 or 11), 13 (14), 17 (14 or
  18); 16: 8 (12), 9 (12 or 13), 14 (13 or 17), 18 (17); 17: 9 (13), 10 (14), 12 (13
  or 16), 15 (14 or 18); 18: 10 (14 or 15), 11 (15), 13 (14 or 17), 16 (17)"""


def _parse_tables():
    text = " ".join(NEIGHBOURS_TEXT.split())
    neighbours = {}
    for entry in text.split(";"):
        point, rest = entry.split(":")
        neighbours[int(point) - 1] = [int(q) - 1 for q in rest.split(",")]
    text = " ".join(TWO_STEPS_TEXT.split())
    two = {}
    for entry in text.split(";"):
        point, rest = entry.split(":")
        found = []
        for item in rest.split(")"):
            item = item.strip().lstrip(",").strip()
            if not item:
                continue
            target, between = item.split("(")
            found.append((int(target) - 1, [int(b) - 1 for b in between.split("or")]))
        two[int(point) - 1] = found
    return neighbours, two


def side_of(ch):
    return "w" if ch.isupper() else "b"


class Game:
    name = "gates"

    def __init__(self, **options):
        options = dict(options)
        self.gates = int_option(options, "gates", 2, 1)
        self.triangles = int_option(options, "triangles", 2, 0)
        self.trapezoids = int_option(options, "trapezoids", 2, 0)
        self.points = int_option(options, "points", 18, 6)
        no_more_options(options, self.name)
        self.set = {"G": self.gates, "g": self.gates, "A": self.triangles,
                    "a": self.triangles, "Z": self.trapezoids, "z": self.trapezoids}
        n, two = _parse_tables()
        self.neighbours = {p: [q for q in n[p] if q < self.points] for p in range(self.points)}
        self.two = {}
        for p in range(self.points):
            self.two[p] = []
            for q, between in two[p]:
                between = [b for b in between if b < self.points]
                if q < self.points and between:
                    self.two[p].append((q, between))

    # ------------------------------------------------------------------ text
    def start(self):
        return ("w", "-" * self.points, "".join(k * self.set[k] for k in KINDS))

    def _rows(self, board):
        out, at = [], 0
        for length in ROWS:
            if at >= len(board):
                break
            out.append(board[at:at + length])
            at += length
        return out

    def format(self, state):
        turn, board, hand = state
        return f"({turn} {' '.join(self._rows(board))} {hand})"

    def parse(self, text):
        words = split_text(text)
        turn, rows, hand = words[0], words[1:-1], words[-1]
        board = "".join(rows)
        if turn not in ("w", "b") or len(board) != self.points or set(board) - set("GgAaZzOo-"):
            raise ValueError(f"bad position {text!r}")
        if [len(r) for r in rows] != [len(r) for r in self._rows(board)]:
            raise ValueError(f"bad rows {text!r}")
        if hand != "-" and (set(hand) - set(KINDS)
                            or hand != "".join(k * hand.count(k) for k in KINDS)):
            raise ValueError(f"bad hand {text!r}")
        state = (turn, board, hand)
        reason = self.invalid_reason(state)
        if reason:
            raise ValueError(f"{reason}: {text!r}")
        return state

    # ----------------------------------------------------------------- rules
    def spikes(self, board, side):
        letters = "AZ" if side == "w" else "az"
        return sum(board.count(ch) for ch in letters)

    def invalid_reason(self, state):
        turn, board, hand = state
        plain = board.replace("O", "G").replace("o", "g")
        opened = [p for p, ch in enumerate(board) if ch in "Oo"]
        if len(opened) > 1:
            return "two open gates"
        for k in KINDS:
            held = 0 if hand == "-" else hand.count(k)
            if hand != "-" and plain.count(k) + held != self.set[k]:
                return "wrong count"
            if hand == "-" and plain.count(k) > self.set[k]:
                return "too many"
            if hand == "-" and k in "Gg" and plain.count(k) != self.set[k]:
                return "gate off the board"
        if hand != "-":
            if opened:
                return "open gate while placing"
            placed = sum(ch != "-" for ch in board)
            if (placed % 2 == 0) != (turn == "w"):
                return "wrong turn while placing"
            return None
        full = self.triangles + self.trapezoids
        if opened:
            owner = side_of(board[opened[0]])
            other = "b" if owner == "w" else "w"
            if turn == owner:
                return "open gate of the player to move"
            if self.spikes(board, owner) == full:
                return "open gate of a side that scored nothing"
            if self.spikes(board, other) == 0:
                return "game already over"
            return None
        if self.spikes(board, "w") == 0 or self.spikes(board, "b") == 0:
            return "game already over"
        return None

    def primitive(self, state):
        turn, board, hand = state
        if hand == "-":
            opened = [p for p, ch in enumerate(board) if ch in "Oo"]
            if opened and self.spikes(board, side_of(board[opened[0]])) == 0:
                return LOSE
        if not self.named_moves(state):
            return LOSE
        return None

    def spike_moves(self, board, side):
        """(name, board after) for each move of one of ``side``'s spikes."""
        out = []
        gate = "G" if side == "w" else "g"
        triangle, trapezoid = ("A", "Z") if side == "w" else ("a", "z")
        enemy = ("a", "z") if side == "w" else ("A", "Z")
        empties = [p for p in range(self.points) if board[p] == "-"]
        for p in range(self.points):
            piece = board[p]
            if piece == triangle:
                targets = [q for q in self.neighbours[p]]
                targets += [q for q, between in self.two[p]
                            if any(board[b] == "-" for b in between)]
            elif piece == trapezoid:
                targets = list(self.neighbours[p])
            else:
                continue
            for q in targets:
                cells = list(board)
                if board[q] == "-":
                    cells[p], cells[q] = "-", piece
                    out.append((f"{p + 1}-{q + 1}", "".join(cells)))
                elif board[q] == gate:
                    cells[p], cells[q] = "-", "O" if side == "w" else "o"
                    out.append((f"{p + 1}-{q + 1}", "".join(cells)))
                elif piece == trapezoid and board[q] in enemy:
                    for t in empties + [p]:
                        cells = list(board)
                        taken = board[q]
                        cells[p], cells[q] = "-", piece
                        cells[t] = taken
                        out.append((f"{p + 1}-{q + 1}/{t + 1}", "".join(cells)))
        return out

    def named_moves(self, state):
        turn, board, hand = state
        other = "b" if turn == "w" else "w"
        out = []
        if hand != "-":
            for p in range(self.points):
                if board[p] != "-":
                    continue
                for k in dict.fromkeys(hand):
                    cells = list(board)
                    cells[p] = k
                    rest = hand.replace(k, "", 1)
                    if rest:
                        out.append((f"{k}{p + 1}", (other, "".join(cells), rest)))
                    else:
                        for name, after in self.spike_moves("".join(cells), turn):
                            out.append((f"{k}{p + 1},{name}", (other, after, "-")))
            return out
        opened = [p for p, ch in enumerate(board) if ch in "Oo"]
        if opened:
            g = opened[0]
            gate = "G" if board[g] == "O" else "g"
            for to in range(self.points):
                if to != g and board[to] != "-":
                    continue
                cells = list(board)
                cells[g] = "-"
                cells[to] = gate
                for name, after in self.spike_moves("".join(cells), turn):
                    out.append((f"{g + 1}>{to + 1},{name}", (other, after, "-")))
            return out
        for name, after in self.spike_moves(board, turn):
            out.append((name, (other, after, "-")))
        return out

    def moves(self, state):
        if self.primitive(state) is not None:
            return []
        return [(child, False) for _, child in self.named_moves(state)]

    def move_names(self, state):
        if self.primitive(state) is not None:
            return []
        return [name for name, _ in self.named_moves(state)]
