"""Winkers: on a hexagon of 19 points, each player places neutral checkers on empty
points, or covers a checker (their own or the other's) with a wink of their colour;
three winks of one colour in a row win.

Rules: docs/RULES.md, section "Winkers" (GamesmanOne's ``winkers``).

Points are numbered 1-19 row by row from the top (rows of 3, 4, 5, 4 and 3 points;
``--size 2``: a hexagon of 7 points in rows of 2, 3 and 2). Position
``(x --- ---- ----- ---- ---)``: the player to move (``x`` or ``o``), then the rows
from the top, each point ``-`` (empty), ``c`` (a neutral checker), ``x`` or ``o`` (a
wink). A move is named by its point (``7``): a checker if the point is empty, a
wink if it holds a checker.

State vector: ``[turn, x, o, c]``: turn 0 for ``x``, then the masks of the points
holding x's winks, o's winks and uncovered checkers (bit p: point p + 1). How many
checkers each side has placed follows from the board: the moves made are the winks
plus the checkers on the board, ``x`` made the odd-numbered ones, and each side's
checkers are its moves less its winks.

Index: a tier per (x's winks, o's winks, checkers on the board, winks included):
every move adds one of these, so the tiers are IMMEDIATE. In a tier, the occupied
points' subset rank, times the rank of x's winks among them, times the rank of o's
among the rest. ``--symmetry`` stores one position of each class under the
hexagon's 12 symmetries (the smallest index of the class); ``--from-move K`` keeps
only the tiers after K moves or more: an endgame table, the tiers solved first.
"""

from __future__ import annotations

import re
from functools import lru_cache
from math import comb
from typing import NamedTuple

import numpy as np

from tiersolve.bits import deposit_bits, extract_bits, lowest_bit, popcount
from tiersolve.errors import ImpossiblePositionError, OtherBoardError
from tiersolve.games.base import PLACE, Game, GameFunctions, GameSpec, MoveSketch, Option, add_move
from tiersolve.hashers.combinations import rank_subset, unrank_subset
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit
from tiersolve.values import ILLEGAL, LOSE, NONCANONICAL, TIE, UNDECIDED, WIN

#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "winkers"

X_TURN, O_TURN = 0, 1
(CELLS_FIELD, NEUTRALS_FIELD, WINKS_FIELD, SYMMETRY_FIELD, FROM_FIELD) = range(5)
#: Symmetry images are looked up in two halves of a mask: the low HALF points, the rest.
HALF = 10


@lru_cache(maxsize=None)
def hexagon(side: int) -> list[tuple[int, int]]:
    """The points of a hexagon of ``side`` points a side, as axial (q, r), row r
    from the top, q from the left within a row: the points' order."""
    s = side - 1
    return [(q, r) for r in range(-s, s + 1) for q in range(max(-s, -s - r), min(s, s - r) + 1)]


@lru_cache(maxsize=None)
def row_lengths(side: int) -> list[int]:
    """The number of points of each row, top down (3, 4, 5, 4, 3 for side 3)."""
    s = side - 1
    return [2 * s + 1 - abs(r) for r in range(-s, s + 1)]


@lru_cache(maxsize=None)
def lines(side: int) -> list[tuple[int, int, int]]:
    """Every three points in a row along the hexagon's three directions."""
    points = hexagon(side)
    where = {p: i for i, p in enumerate(points)}
    found = []
    for dq, dr in ((1, 0), (0, 1), (-1, 1)):
        for q, r in points:
            trio = [(q + k * dq, r + k * dr) for k in range(3)]
            if all(p in where for p in trio):
                found.append(tuple(where[p] for p in trio))
    return found


@lru_cache(maxsize=None)
def full_lines(side: int) -> list[list[int]]:
    """The hexagon's straight lines of two or more points (for the drawing)."""
    points = hexagon(side)
    where = {p: i for i, p in enumerate(points)}
    found = []
    for dq, dr in ((1, 0), (0, 1), (-1, 1)):
        for q, r in points:
            if (q - dq, r - dr) in where:
                continue  # not the first point of its line
            line, k = [], 0
            while (q + k * dq, r + k * dr) in where:
                line.append(where[(q + k * dq, r + k * dr)])
                k += 1
            if len(line) > 1:
                found.append(line)
    return found


def symmetries(side: int) -> list[list[int]]:
    """The hexagon's 12 symmetries as point permutations (image of point p at p), the
    identity first: six turns by 60 degrees, each with and without a mirror."""
    points = hexagon(side)
    where = {p: i for i, p in enumerate(points)}

    def turn(q, r):  # cube (x, y, z) = (q, -q-r, r) -> (-z, -x, -y)
        return -r, q + r

    found = []
    for mirror in (False, True):
        for k in range(6):
            image = []
            for q, r in points:
                if mirror:
                    q, r = r, q
                for _ in range(k):
                    q, r = turn(q, r)
                image.append(where[(q, r)])
            found.append(image)
    return found


class WinkersData(NamedTuple):
    """``params``: [points, neutrals a side, winks a side, symmetry, from-move];
    ``tier_of[x winks, o winks, checkers on the board]``: the tier (-1: none);
    ``tier_key[t]``: that triple of tier t; ``binomial[n, k]``: C(n, k);
    ``line_masks``: every three in a row, a mask each; ``low_images[s, m]``,
    ``high_images[s, m]``: the image under symmetry s of the points of mask m among
    the first HALF points, and of mask m among the rest (shifted down by HALF)."""

    params: np.ndarray
    tier_of: np.ndarray
    tier_key: np.ndarray
    binomial: np.ndarray
    line_masks: np.ndarray
    low_images: np.ndarray
    high_images: np.ndarray


@jit(forceinline=True)
def _has_line(data, mask):
    for k in range(data.line_masks.shape[0]):
        line = data.line_masks[k]
        if mask & line == line:
            return True
    return False


@jit(forceinline=True)
def _image(data, s, mask):
    return data.low_images[s, mask & ((1 << HALF) - 1)] | data.high_images[s, mask >> HALF]


@jit
def decode(data, tier, local, state):
    wx, wo, n = data.tier_key[tier, 0], data.tier_key[tier, 1], data.tier_key[tier, 2]
    cells = data.params[CELLS_FIELD]
    winks = wx + wo
    per_occupied = data.binomial[n, winks] * data.binomial[winks, wx]
    occupied = unrank_subset(local // per_occupied, n, cells)
    rest = local % per_occupied
    xo = deposit_bits(unrank_subset(rest // data.binomial[winks, wx], winks, n), occupied)
    x = deposit_bits(unrank_subset(rest % data.binomial[winks, wx], wx, winks), xo)
    state[0] = (winks + n) & 1
    state[1] = x
    state[2] = xo & ~x
    state[3] = occupied & ~xo


@jit(forceinline=True)
def _encode_masks(data, x, o, occupied):
    """(tier, local) of the board of x's winks ``x``, o's ``o``, the points ``occupied``."""
    wx, wo = popcount(x), popcount(o)
    xo = x | o
    n = popcount(occupied)
    tier = data.tier_of[wx, wo, n]
    # The index orders boards by (occupied, winks among them, x among the winks), each
    # a colex rank, and colex order is the order of the masks as numbers: the class's
    # smallest index is the image with the smallest masks, ranked once.
    best_occupied, best_winks, best_x = occupied, extract_bits(xo, occupied), extract_bits(x, xo)
    if data.params[SYMMETRY_FIELD]:
        for s in range(1, data.low_images.shape[0]):
            image = _image(data, s, occupied)
            if image > best_occupied:
                continue
            image_xo = _image(data, s, xo)
            winks = extract_bits(image_xo, image)
            if image == best_occupied and winks > best_winks:
                continue
            x_in = extract_bits(_image(data, s, x), image_xo)
            if image == best_occupied and winks == best_winks and x_in >= best_x:
                continue
            best_occupied, best_winks, best_x = image, winks, x_in
    local = rank_subset(best_occupied) * data.binomial[n, wx + wo] + rank_subset(best_winks)
    return tier, local * data.binomial[wx + wo, wx] + rank_subset(best_x)


@jit
def encode(data, state):
    return _encode_masks(data, state[1], state[2], state[1] | state[2] | state[3])


@jit(forceinline=True)
def _placed(turn, x, o, c):
    """(winks, checkers) the player to move has placed so far."""
    moves = popcount(x) + popcount(o) + popcount(x | o | c)
    mine = (moves + 1) // 2 if turn == X_TURN else moves // 2
    winks = popcount(x) if turn == X_TURN else popcount(o)
    return winks, mine - winks


@jit
def generate_moves(data, state, moves):
    turn, x, o, c = state[0], state[1], state[2], state[3]
    winks, neutrals = _placed(turn, x, o, c)
    allowed = 0
    if neutrals < data.params[NEUTRALS_FIELD]:
        allowed |= ((np.int64(1) << data.params[CELLS_FIELD]) - 1) & ~(x | o | c)
    if winks < data.params[WINKS_FIELD]:
        allowed |= c
    count = 0
    while allowed:
        moves[count] = lowest_bit(allowed)
        allowed &= allowed - 1
        count += 1
    return count


@jit
def do_move(data, state, move, child):
    turn, x, o, c = state[0], state[1], state[2], state[3]
    bit = np.int64(1) << move
    child[0] = 1 - turn
    child[1], child[2], child[3] = x, o, c
    if c & bit:  # a wink on a checker
        child[3] = c & ~bit
        if turn == X_TURN:
            child[1] = x | bit
        else:
            child[2] = o | bit
    else:
        child[3] = c | bit
    return 0


@jit(forceinline=True)
def _verdict(data, turn, x, o, count):
    mine, theirs = (x, o) if turn == X_TURN else (o, x)
    if _has_line(data, mine):
        return ILLEGAL  # the game ended when that line was made
    if _has_line(data, theirs):
        return LOSE
    if popcount(x | o) == data.params[CELLS_FIELD]:
        return TIE
    if count == 0:
        return WIN  # GamesmanOne's rule: a player who cannot move wins
    return UNDECIDED


@jit
def primitive(data, state, count):
    return _verdict(data, state[0], state[1], state[2], count)


@jit
def expand(data, tier, local, out, state, child, moves):
    """The composition of the five functions, at once; under ``--symmetry`` an index
    whose occupied points have a smaller image is known NONCANONICAL before the rest
    of it is decoded (most are)."""
    wx, wo, n = data.tier_key[tier, 0], data.tier_key[tier, 1], data.tier_key[tier, 2]
    winks = wx + wo
    per_occupied = data.binomial[n, winks] * data.binomial[winks, wx]
    occupied = unrank_subset(local // per_occupied, n, data.params[CELLS_FIELD])
    symmetric = data.params[SYMMETRY_FIELD]
    if symmetric:
        for s in range(1, data.low_images.shape[0]):
            if _image(data, s, occupied) < occupied:
                return -np.int64(NONCANONICAL)
    rest = local % per_occupied
    xo = deposit_bits(unrank_subset(rest // data.binomial[winks, wx], winks, n), occupied)
    x = deposit_bits(unrank_subset(rest % data.binomial[winks, wx], wx, winks), xo)
    o = xo & ~x
    c = occupied & ~xo
    if symmetric and _encode_masks(data, x, o, occupied)[1] != local:
        return -np.int64(NONCANONICAL)
    turn = (winks + n) & 1
    made = (winks + n + 1) // 2 if turn == X_TURN else (winks + n) // 2
    mine = wx if turn == X_TURN else wo
    allowed = 0
    if made - mine < data.params[NEUTRALS_FIELD]:
        allowed |= ((np.int64(1) << data.params[CELLS_FIELD]) - 1) & ~occupied
    if mine < data.params[WINKS_FIELD]:
        allowed |= c
    code = _verdict(data, turn, x, o, popcount(allowed))
    if code != UNDECIDED:
        return -np.int64(code)
    count = 0
    while allowed:
        point = lowest_bit(allowed)
        allowed &= allowed - 1
        bit = np.int64(1) << point
        if c & bit:
            child_tier, child_local = _encode_masks(data, x | bit if turn == X_TURN else x,
                                                    o if turn == X_TURN else o | bit, occupied)
        else:
            child_tier, child_local = _encode_masks(data, x, o, occupied | bit)
        count = add_move(out, count, child_tier, child_local, point)
    return count


MOVE_NAME = re.compile(r"[1-9][0-9]?")


class Winkers(Game):
    name = NAME
    title = "Winkers"
    options_spec = (
        Option("size", int, 3, "points on a side of the hexagon: 3 is the game (19 points), "
               "2 a hexagon of 7 for tests", 2, 3),
        Option("neutrals", int, 10, "neutral checkers each player has", 1, 10),
        Option("winks", int, 10, "winks each player has", 1, 10),
        Option("from_move", int, 0, "solve only the positions after K moves or more (an "
               "endgame table: the tiers solved first); 0: the whole game", 0, 38),
        Option("symmetry", bool, False,
               "store one position of each class under the hexagon's 12 symmetries"),
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive, expand=expand)
    state_fields = ("turn (0 = x), the masks of x's winks, o's winks and uncovered "
                    "checkers (bit p: point p + 1)")
    board_of_points = True
    piece_colours = {"x": "#bf3f1f", "o": "#2f5fbf", "c": "#d8d0b8"}

    tester_boards = ({"size": 2, "neutrals": 2, "winks": 2},
                     {"size": 2, "neutrals": 3, "winks": 3, "symmetry": True},
                     {"size": 2, "neutrals": 4, "winks": 4, "from_move": 11})
    reference_boards = ({"size": 2, "neutrals": 3, "winks": 3, "symmetry": True},
                        {"size": 2, "neutrals": 4, "winks": 4, "from_move": 11})
    #: The same, half a minute each: pytest -m slow.
    slow_reference_boards = ({"size": 2, "neutrals": 3, "winks": 3},
                             {"size": 2, "neutrals": 4, "winks": 3, "symmetry": True},
                             {"size": 2, "neutrals": 4, "winks": 4})

    @property
    def measured_rate(self) -> tuple[int, str]:
        """Indices solved a second on one core, and where (``tiersolve build --plan``
        gives the time of a build at this rate; docs/BENCHMARKS.md, Winkers)."""
        if self.options["symmetry"]:
            return (11_260_000, "winkers --neutrals 4 --winks 4 --symmetry: 249,627,435 "
                                "indices in 22.2 CPU s, one thread, on a loaded machine")
        return (5_570_000, "winkers --neutrals 4 --winks 4: 249,627,435 indices in 44.8 CPU s, "
                           "one thread, on a loaded machine")

    # -- the index ----------------------------------------------------------------------
    def counts(self) -> list[tuple[int, int, int]]:
        """Every (x winks, o winks, checkers on the board) that play reaches, from
        ``--from-move`` on, in the order of the moves made."""
        cells = len(hexagon(self.options["size"]))
        neutrals, winks = self.options["neutrals"], self.options["winks"]
        found = []
        for n in range(min(cells, 2 * neutrals) + 1):
            for wx in range(min(winks, n) + 1):
                for wo in range(min(winks, n - wx) + 1):
                    moves = wx + wo + n
                    x_neutrals, o_neutrals = (moves + 1) // 2 - wx, moves // 2 - wo
                    if not (0 <= x_neutrals <= neutrals and 0 <= o_neutrals <= neutrals):
                        continue
                    if moves and not x_neutrals:
                        continue  # x's first move is a checker: the board is empty
                    if moves >= self.options["from_move"]:
                        found.append((wx, wo, n))
        return sorted(found, key=lambda key: (key[0] + key[1] + key[2], key))

    def build(self) -> GameSpec:
        side = self.options["size"]
        points = hexagon(side)
        cells = len(points)
        keys = self.counts()
        if not keys:
            raise ValueError(f"{self.describe()}: no position is reached after "
                             f"{self.options['from_move']} moves; --from-move is too large")
        winks = self.options["winks"]
        tier_of = np.full((winks + 1, winks + 1, cells + 1), -1, np.int64)
        for t, key in enumerate(keys):
            tier_of[key] = t
        self._tier_of = {key: t for t, key in enumerate(keys)}
        sizes = [comb(cells, n) * comb(n, wx + wo) * comb(wx + wo, wx) for wx, wo, n in keys]
        binomial = np.array([[comb(n, k) for k in range(cells + 1)] for n in range(cells + 1)],
                            np.int64)
        group = symmetries(side)
        low = np.zeros((len(group), 1 << HALF), np.int64)
        high = np.zeros((len(group), 1 << max(cells - HALF, 0)), np.int64)
        for s, image in enumerate(group):
            for mask in range(1 << HALF):
                low[s, mask] = sum(1 << image[p] for p in range(min(HALF, cells)) if mask >> p & 1)
            for mask in range(high.shape[1]):
                high[s, mask] = sum(1 << image[HALF + p] for p in range(cells - HALF)
                                    if mask >> p & 1)
        line_masks = np.array([sum(1 << p for p in trio) for trio in lines(side)], np.int64)
        symmetric = self.options["symmetry"]
        data = WinkersData(
            np.array([cells, self.options["neutrals"], winks, symmetric,
                      self.options["from_move"]], np.int64),
            tier_of, np.array(keys, np.int64), binomial, line_masks, low, high)
        self._start = self._endgame_start(keys, cells)
        return GameSpec(
            tiers=TierLayout(keys=keys, sizes=sizes), data=data, state_size=4,
            max_moves=cells, loopy=False,
            remoteness_bound=2 * (self.options["neutrals"] + winks),
            hasher={"name": "winkers", "tiers": "(x winks, o winks, checkers on the board)",
                    "in a tier": "occupied points' subset rank, winks' rank among them, "
                                 "x's rank among the winks",
                    "symmetries": len(group) if symmetric else 1})

    def tier_children(self, tier: int) -> set[int]:
        wx, wo, n = self.tiers.keys[tier]
        wink = (wx + 1, wo, n) if (wx + wo + n) % 2 == X_TURN else (wx, wo + 1, n)
        return {self._tier_of[key] for key in (wink, (wx, wo, n + 1)) if key in self._tier_of}

    # -- text -----------------------------------------------------------------------------
    def _endgame_start(self, keys, cells) -> str:
        """The start: the empty board; with ``--from-move K``, the position after K
        moves that each place a checker on the first empty point, or once a side has
        none left, a wink on the first checker where it makes no line."""
        rows = row_lengths(self.options["size"])
        board = ["-"] * cells
        neutrals = self.options["neutrals"]
        line_list = lines(self.options["size"])
        placed = {"x": [0, 0], "o": [0, 0]}  # checkers, winks
        for move in range(self.options["from_move"]):
            side = "xo"[move % 2]
            done = False
            if placed[side][0] < neutrals and "-" in board:
                board[board.index("-")] = "c"
                placed[side][0] += 1
                done = True
            elif placed[side][1] < self.options["winks"]:
                for p in range(cells):
                    if board[p] != "c":
                        continue
                    board[p] = side
                    if not any(all(board[q] == side for q in trio) for trio in line_list):
                        placed[side][1] += 1
                        done = True
                        break
                    board[p] = "c"
            if not done:
                raise ValueError(f"{self.describe()}: no start after {move} moves places "
                                 f"more without ending the game; --from-move is too large")
        words, at = [], 0
        for length in rows:
            words.append("".join(board[at:at + length]))
            at += length
        turn = "xo"[self.options["from_move"] % 2]
        return f"({turn} {' '.join(words)})"

    def default_start(self) -> str:
        self.tiers  # builds the spec, which finds the start
        return self._start

    def parse(self, text: str) -> np.ndarray:
        example = self.default_start()
        words = self.split_position(text, example)
        rows = row_lengths(self.options["size"])
        if len(words) != 1 + len(rows):
            kind = OtherBoardError if len(words) in (4, 6) else ValueError
            raise kind(f"a {self.describe()} position is the player to move and "
                             f"{len(rows)} rows, like {example}; got {text!r}")
        turn, *board_rows = words
        if turn not in ("x", "o"):
            raise ValueError(f"the player to move in {text!r} is x or o, not {turn!r}")
        if [len(row) for row in board_rows] != rows:
            raise OtherBoardError(f"{text!r}: the rows of this hexagon have "
                                  f"{', '.join(map(str, rows))} points")
        board = "".join(board_rows)
        if set(board) - set("-cxo"):
            raise ValueError(f"{text!r}: a point holds - (empty), c (a checker), x or o "
                             f"(a wink); got {''.join(sorted(set(board) - set('-cxo')))!r}")
        state = np.array([0 if turn == "x" else 1,
                          sum(1 << p for p, ch in enumerate(board) if ch == "x"),
                          sum(1 << p for p, ch in enumerate(board) if ch == "o"),
                          sum(1 << p for p, ch in enumerate(board) if ch == "c")], np.int64)
        reason = self._impossible(board, turn)
        if reason:
            raise ImpossiblePositionError(f"{text!r}: {reason}")
        return state

    def _impossible(self, board: str, turn: str) -> str | None:
        """Why no game reaches a board with this player to move, or None."""
        wx, wo = board.count("x"), board.count("o")
        n = len(board) - board.count("-")
        moves = wx + wo + n
        if turn != "xo"[moves % 2]:
            return (f"{moves} moves have been made ({wx + wo} winks and {n} checkers), so "
                    f"{'xo'[moves % 2]} is to move")
        winks, neutrals = self.options["winks"], self.options["neutrals"]
        if max(wx, wo) > winks:
            return f"a side has {max(wx, wo)} winks; each has {winks}"
        for side, made, wink_count in (("x", (moves + 1) // 2, wx), ("o", moves // 2, wo)):
            if made - wink_count > neutrals:
                return (f"{side} has made {made} moves with {wink_count} winks, so "
                        f"{made - wink_count} checkers; each side has {neutrals}")
        if moves and (moves + 1) // 2 == wx:
            return "x's first move is a checker (the board is empty): x has placed none"
        if moves < self.options["from_move"]:
            raise ValueError(f"{self.format_board_text(board, turn)} is {moves} moves into "
                             f"the game; this endgame table (--from-move "
                             f"{self.options['from_move']}) starts after "
                             f"{self.options['from_move']}")
        if any(all(board[q] == turn for q in trio) for trio in lines(self.options["size"])):
            return (f"{turn} is to move with three winks in a row: the game ended when they "
                    f"were placed")
        return None

    def explain_illegal(self, state: np.ndarray) -> str:
        return self._impossible(self._board(state), "xo"[int(state[0])]) or \
            "no sequence of legal moves leads to it"

    def _board(self, state: np.ndarray) -> str:
        cells = len(hexagon(self.options["size"]))
        x, o, c = int(state[1]), int(state[2]), int(state[3])
        return "".join("x" if x >> p & 1 else "o" if o >> p & 1 else "c" if c >> p & 1 else "-"
                       for p in range(cells))

    def format_board_text(self, board: str, turn: str) -> str:
        words, at = [], 0
        for length in row_lengths(self.options["size"]):
            words.append(board[at:at + length])
            at += length
        return f"({turn} {' '.join(words)})"

    def format(self, state: np.ndarray) -> str:
        return self.format_board_text(self._board(state), "xo"[int(state[0])])

    def move_name(self, state: np.ndarray, move: int) -> str:
        return str(int(move) + 1)

    def _size_text(self) -> str | None:
        return f"hex{self.options['size']}"

    # -- drawing: the hexagon -------------------------------------------------------------
    def _point_cells(self) -> list[tuple[int, int]]:
        side = self.options["size"]
        return [(r + side - 1, 2 * q + r + 2 * (side - 1)) for q, r in hexagon(side)]

    def board_shape(self) -> tuple[int, int]:
        side = self.options["size"]
        return 2 * side - 1, 4 * side - 3

    def grid(self, state: np.ndarray) -> list[str]:
        """The points where they are drawn, ``' '`` where no point is.

        >>> from tiersolve.games import make_game
        >>> game = make_game("winkers", size=2)
        >>> game.grid(game.parse("(o c- -x- --)"))
        [' c -  ', '- x -', ' - -  ']
        """
        rows, cols = self.board_shape()
        cells = [[" "] * cols for _ in range(rows)]
        for (row, col), ch in zip(self._point_cells(), self._board(state)):
            cells[row][col] = ch
        return ["".join(row) for row in cells]

    def board_paths(self) -> list[list[tuple[float, float]]]:
        """The hexagon's straight lines through its points."""
        where = self._point_cells()
        return [[(float(where[p][0]), float(where[p][1])) for p in (line[0], line[-1])]
                for line in full_lines(self.options["size"])]

    def point_names(self) -> dict[tuple[int, int], str]:
        """Each point's number (1 up), by the cell where it is drawn."""
        return {cell: str(p + 1) for p, cell in enumerate(self._point_cells())}

    def move_sketch(self, state: np.ndarray, name: str) -> MoveSketch | None:
        """A checker or a wink placed on its point.

        >>> from tiersolve.games import make_game
        >>> game = make_game("winkers")
        >>> game.move_sketch(game.start(), "1")
        MoveSketch(kind='place', cells=((0, 2),), path=(), side='')
        """
        if not MOVE_NAME.fullmatch(name) or not 1 <= int(name) <= len(self._point_cells()):
            return None
        return MoveSketch(PLACE, (self._point_cells()[int(name) - 1],))


GAME = Winkers
