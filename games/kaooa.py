"""Kaooa: crows against a vulture on the ten points of a pentagram. The crows are
placed one a turn, then step along the lines; the vulture steps, or jumps a crow
along a line and takes it. Three crows taken: the vulture wins; the vulture shut
in: the crows win.

Rules: docs/RULES.md, section "Kaooa" (GamesmanOne's ``mkaooa``).

Points: 0-4 the star's tips clockwise from the top, 5-9 the inner points, point
5 + k between tips k and k + 1. The five lines are ``k, 5+k, 5+(k+1)%5, (k+2)%5``;
two points next to each other on a line are neighbours, and a jump goes over the
next point of a line to the one after it.

Position ``(c ----- ----- 6)``: the player to move (``c`` the crows, ``v`` the
vulture), the tips 0-4, the inner points 5-9 (``c``, ``v`` or ``-``), and the
crows still in hand. A placing is named by its point (``3``), a step by its two
points (``0-5``), a jump by its two points with ``x`` (``0x6``).

State vector: ``[turn, crows, vulture, placed]``: turn 0 for the crows, the mask
of the points holding crows, the vulture's point (-1 before it is placed), and the
crows placed so far (those taken included).

Index: a tier per (crows placed, crows taken, turn) while crows are placed
(IMMEDIATE tiers: a placing raises the crows placed, the vulture's move gives the
crows the move), and per (all placed, taken) for both turns once they step (LOOPY,
solved with un-moves); a jump raises the crows taken. In a tier: the crows' set
ranked among the subsets of its size, times the vulture's rank among the points
the crows leave free (tiers before the vulture is placed: the crows' set alone),
times two for the turn in the stepping tiers. ``--symmetry`` stores one position of
each class under the pentagram's 10 symmetries.
"""

from __future__ import annotations

import re
from math import comb
from typing import NamedTuple

import numpy as np

from tiersolve.bits import copy_into, lowest_bit, popcount
from tiersolve.contract import TierType
from tiersolve.errors import ImpossiblePositionError, OtherBoardError
from tiersolve.games.base import MOVE, PLACE, Game, GameFunctions, GameSpec, MoveSketch, Option
from tiersolve.hashers.combinations import rank_subset, unrank_subset
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit
from tiersolve.values import ILLEGAL, LOSE, UNDECIDED

#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "kaooa"

POINTS = 10
ALL = (1 << POINTS) - 1
CROWS, VULTURE = 0, 1  # turns
#: The turn field of a tier key for the stepping tiers, which hold both turns.
BOTH = 2
#: A step's or jump's move code: (from + 1) * STEP + to; a placing's is its point.
STEP = 16
CROWS_FIELD, CAPTURES_FIELD, SYMMETRY_FIELD = 0, 1, 2  # the fields of ``params``

LINES = tuple((k, 5 + k, 5 + (k + 1) % 5, (k + 2) % 5) for k in range(5))


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(neighbours, beyond, over): the mask of each point's neighbours, the mask of
    the points a jump from it lands on, and over[a, b] the point a jump from a to b
    goes over (-1 if none)."""
    neighbours = np.zeros(POINTS, np.int64)
    beyond = np.zeros(POINTS, np.int64)
    over = np.full((POINTS, POINTS), -1, np.int64)
    for line in LINES:
        for way in (line, line[::-1]):
            for i in range(3):
                neighbours[way[i]] |= 1 << way[i + 1]
            for i in range(2):
                beyond[way[i]] |= 1 << way[i + 2]
                over[way[i], way[i + 2]] = way[i + 1]
    return neighbours, beyond, over


def symmetries() -> list[list[int]]:
    """The pentagram's 10 symmetries as point permutations (image of point p at p),
    the identity first: the five turns, each with and without the mirror in the line
    through the top tip."""
    found = []
    for mirror in (False, True):
        for turn in range(5):
            image = []
            for p in range(POINTS):
                k = p % 5
                if mirror:
                    k = (-k) % 5 if p < 5 else (-k - 1) % 5
                image.append((k + turn) % 5 + (5 if p >= 5 else 0))
            found.append(image)
    return found


class KaooaData(NamedTuple):
    """``params``: [crows, captures to win, symmetry]; ``tier_of[placed, taken,
    turn]``: the tier (-1: none; turn BOTH for the stepping tiers); ``tier_key[t]``:
    (placed, taken, turn) of tier t; ``neighbours``, ``beyond``, ``over``: the lines
    (``_tables``); ``images[s, mask]``: the mask of points ``mask`` under symmetry s;
    ``point_image[s, p]``: the image of point p."""

    params: np.ndarray
    tier_of: np.ndarray
    tier_key: np.ndarray
    neighbours: np.ndarray
    beyond: np.ndarray
    over: np.ndarray
    images: np.ndarray
    point_image: np.ndarray


@jit(forceinline=True)
def _vulture_rank(crows, vulture):
    """The vulture's rank among the points free of crows."""
    return popcount(~crows & ((np.int64(1) << vulture) - 1))


@jit(forceinline=True)
def _half(k):
    """Positions of one turn in a tier with k crows on the board and the vulture."""
    count = 1
    for i in range(k):  # C(10, k)
        count = count * (POINTS - i) // (i + 1)
    return count * (POINTS - k)


@jit(forceinline=True)
def _local(crows, vulture, turn, kind):
    """The index inside a tier of ``kind`` (the key's turn field) of one image."""
    if vulture < 0:
        return rank_subset(crows)
    free = POINTS - popcount(crows)
    local = rank_subset(crows) * free + _vulture_rank(crows, vulture)
    if kind == BOTH:
        local += turn * _half(popcount(crows))
    return local


@jit(forceinline=True)
def _locate(data, turn, crows, vulture, placed):
    """(tier, local) of a position, its class's stored index under ``--symmetry``."""
    taken = placed - popcount(crows)
    stepping = placed == data.params[CROWS_FIELD] and taken < data.params[CAPTURES_FIELD]
    kind = BOTH if stepping else turn
    tier = data.tier_of[placed, taken, kind]
    best = _local(crows, vulture, turn, kind)
    if data.params[SYMMETRY_FIELD]:
        for s in range(1, data.images.shape[0]):
            image = data.images[s, crows]
            moved = vulture if vulture < 0 else data.point_image[s, vulture]
            local = _local(image, moved, turn, kind)
            if local < best:
                best = local
    return tier, best


@jit
def decode(data, tier, local, state):
    placed, taken, kind = data.tier_key[tier, 0], data.tier_key[tier, 1], data.tier_key[tier, 2]
    k = placed - taken
    turn = kind
    if placed == 0 or (placed == 1 and kind == VULTURE):  # before the vulture is placed
        state[0], state[1], state[2], state[3] = turn, unrank_subset(local, k, POINTS), -1, placed
        return
    if kind == BOTH:
        half = _half(k)
        turn = local // half
        local -= turn * half
    free = POINTS - k
    crows = unrank_subset(local // free, k, POINTS)
    rest = local % free
    vulture = 0
    for p in range(POINTS):
        if not (crows >> p) & 1:
            if rest == 0:
                vulture = p
                break
            rest -= 1
    state[0], state[1], state[2], state[3] = turn, crows, vulture, placed


@jit
def encode(data, state):
    return _locate(data, state[0], state[1], state[2], state[3])


@jit(forceinline=True)
def _empty(crows, vulture):
    taken = crows if vulture < 0 else crows | (np.int64(1) << vulture)
    return ALL & ~taken


@jit
def generate_moves(data, state, moves):
    turn, crows, vulture, placed = state[0], state[1], state[2], state[3]
    empty = _empty(crows, vulture)
    count = 0
    if (turn == CROWS and placed < data.params[CROWS_FIELD]) or (turn == VULTURE and vulture < 0):
        rest = empty  # place a crow, or the vulture, on any empty point
        while rest:
            moves[count] = lowest_bit(rest)
            rest &= rest - 1
            count += 1
        return count
    if turn == CROWS:
        pieces = crows
        while pieces:
            p = lowest_bit(pieces)
            pieces &= pieces - 1
            targets = data.neighbours[p] & empty
            while targets:
                moves[count] = (p + 1) * STEP + lowest_bit(targets)
                targets &= targets - 1
                count += 1
        return count
    targets = data.neighbours[vulture] & empty
    landings = data.beyond[vulture] & empty
    while landings:
        q = lowest_bit(landings)
        landings &= landings - 1
        if (crows >> data.over[vulture, q]) & 1:
            targets |= np.int64(1) << q
    while targets:
        moves[count] = (vulture + 1) * STEP + lowest_bit(targets)
        targets &= targets - 1
        count += 1
    return count


@jit
def do_move(data, state, move, child):
    copy_into(child, state)
    turn, to = state[0], move % STEP
    child[0] = 1 - turn
    if move < STEP:
        if turn == CROWS:
            child[1] = state[1] | (np.int64(1) << to)
            child[3] = state[3] + 1
        else:
            child[2] = to
        return 0
    source = move // STEP - 1
    if turn == CROWS:
        child[1] = state[1] ^ (np.int64(1) << source) ^ (np.int64(1) << to)
        return 0
    child[2] = to
    jumped = data.over[source, to]
    if jumped >= 0:
        child[1] = state[1] & ~(np.int64(1) << jumped)
    return 0


@jit(forceinline=True)
def shut_in(data, crows, vulture):
    """Whether the vulture has no move: every neighbour and every point a jump would
    land on is taken (GamesmanOne's test, whoever is to move)."""
    return vulture >= 0 and ((data.neighbours[vulture] | data.beyond[vulture])
                             & _empty(crows, vulture)) == 0


@jit
def primitive(data, state, count):
    turn, crows, vulture, placed = state[0], state[1], state[2], state[3]
    if placed - popcount(crows) >= data.params[CAPTURES_FIELD]:
        return LOSE if turn == CROWS else ILLEGAL
    if shut_in(data, crows, vulture):
        return LOSE if turn == VULTURE else ILLEGAL
    if count == 0:
        return LOSE  # (the crows always have a move: never)
    return UNDECIDED


@jit
def parents(data, tier, local, out, state, other):
    """Un-moves in a stepping tier: the crow or the vulture that just moved steps
    back to an empty neighbour (a jump changes the tier, a placing too)."""
    decode(data, tier, local, state)
    turn, crows, vulture, placed = state[0], state[1], state[2], state[3]
    empty = _empty(crows, vulture)
    count = 0
    if turn == VULTURE:  # a crow stepped
        pieces = crows
        while pieces:
            p = lowest_bit(pieces)
            pieces &= pieces - 1
            sources = data.neighbours[p] & empty
            while sources:
                q = lowest_bit(sources)
                sources &= sources - 1
                before = crows ^ (np.int64(1) << p) ^ (np.int64(1) << q)
                out[count] = _locate(data, CROWS, before, vulture, placed)[1] << 1
                count += 1
        return count
    sources = data.neighbours[vulture] & empty
    while sources:
        q = lowest_bit(sources)
        sources &= sources - 1
        out[count] = _locate(data, VULTURE, crows, q, placed)[1] << 1
        count += 1
    return count


#: Where each point is drawn: (row, column) of a 6 x 7 grid.
POINT_CELLS = ((0, 3), (2, 6), (5, 5), (5, 1), (2, 0), (2, 4), (3, 4), (4, 3), (3, 2), (2, 2))
GRID_ROWS, GRID_COLS = 6, 7
MOVE_NAME = re.compile(r"(\d)(?:([-x])(\d))?")


class Kaooa(Game):
    name = NAME
    title = "Kaooa"
    options_spec = (
        Option("crows", int, 6, "crows the crows' side places", 2, 7),
        Option("captures", int, 3, "crows the vulture must take to win", 1, 6),
        Option("symmetry", bool, False,
               "store one position of each class under the pentagram's 10 symmetries"),
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive,
                              parents=parents)
    state_fields = ("turn (0 = crows), the crows' points as a mask, the vulture's point "
                    "(-1: not placed), crows placed")
    board_of_points = True
    piece_colours = {"c": "#222222", "v": "#bf3f1f"}

    tester_boards = ({"crows": 3, "captures": 1}, {"crows": 3, "captures": 2, "symmetry": True})
    reference_boards = ({"crows": 3, "captures": 2},)
    #: The whole game (half a minute of the plain-Python solver), and a symmetric index.
    slow_reference_boards = ({}, {"crows": 4, "captures": 2, "symmetry": True})

    def build(self) -> GameSpec:
        crows, captures = self.options["crows"], self.options["captures"]
        if captures >= crows:
            raise ValueError(f"--captures {captures} is too many for --crows {crows}: the "
                             f"vulture must win before the crows run out, so at most {crows - 1}")
        keys, sizes = [], []
        for placed in range(crows):
            for turn in (CROWS, VULTURE):
                if turn == CROWS:
                    most = 0 if placed == 0 else min(captures, placed - 1)
                else:
                    most = -1 if placed == 0 else 0 if placed == 1 else min(captures - 1, placed - 2)
                for taken in range(most + 1):
                    k = placed - taken
                    absent = placed == 0 or (placed == 1 and turn == VULTURE)
                    keys.append((placed, taken, turn))
                    sizes.append(comb(POINTS, k) if absent else comb(POINTS, k) * (POINTS - k))
        for taken in range(captures):
            k = crows - taken
            keys.append((crows, taken, BOTH))
            sizes.append(2 * comb(POINTS, k) * (POINTS - k))
        keys.append((crows, captures, CROWS))
        sizes.append(comb(POINTS, crows - captures) * (POINTS - crows + captures))
        tier_of = np.full((crows + 1, captures + 1, 3), -1, np.int64)
        for t, key in enumerate(keys):
            tier_of[key] = t
        self._tier_of = {key: t for t, key in enumerate(keys)}
        groups = symmetries()
        images = np.zeros((len(groups), 1 << POINTS), np.int64)
        for s, image in enumerate(groups):
            for mask in range(1 << POINTS):
                images[s, mask] = sum(1 << image[p] for p in range(POINTS) if mask >> p & 1)
        neighbours, beyond, over = _tables()
        symmetric = self.options["symmetry"]
        data = KaooaData(np.array([crows, captures, symmetric], np.int64), tier_of,
                         np.array(keys, np.int64), neighbours, beyond, over, images,
                         np.array(groups, np.int64))
        return GameSpec(
            tiers=TierLayout(keys=keys, sizes=sizes), data=data, state_size=4,
            max_moves=max(POINTS, 4 * crows), loopy=True, remoteness_bound=None,
            max_parents=4 * crows, parents_are_distinct=not symmetric,
            hasher={"name": "kaooa", "tiers": "(crows placed, crows taken, turn or both)",
                    "in a tier": "crows' subset rank, vulture's rank among the free points, "
                                 "turn", "symmetries": len(groups) if symmetric else 1})

    def tier_children(self, tier: int) -> set[int]:
        placed, taken, turn = self.tiers.keys[tier]
        crows, captures = self.options["crows"], self.options["captures"]
        if taken >= captures:
            return set()
        if turn == BOTH:  # steps stay; a jump takes a crow
            after = [(crows, taken + 1, BOTH), (crows, taken + 1, CROWS)]
            return {tier, next(self._tier_of[key] for key in after if key in self._tier_of)}
        if turn == CROWS:  # a crow placed
            after = (placed + 1, taken, VULTURE) if placed + 1 < crows else (crows, taken, BOTH)
            return {self._tier_of[after]}
        # the vulture placed, stepping, or jumping (once it is on the board)
        return {self._tier_of[key] for key in ((placed, taken, CROWS), (placed, taken + 1, CROWS))
                if key in self._tier_of and (placed > 1 or key[1] == taken)}

    def tier_type(self, tier: int) -> TierType:
        return TierType.LOOPY if self.tiers.keys[tier][2] == BOTH else TierType.IMMEDIATE

    def default_start(self) -> str:
        return f"(c ----- ----- {self.options['crows']})"

    def parse(self, text: str) -> np.ndarray:
        example = self.default_start()
        words = self.split_position(text, example)
        if len(words) != 4:
            raise ValueError(f"a Kaooa position is four words: the player to move, the five "
                             f"tips, the five inner points and the crows in hand, like "
                             f"{example}; got {text!r}")
        turn, tips, inner, hand = words
        if turn not in ("c", "v"):
            raise ValueError(f"the player to move in {text!r} is c (crows) or v (vulture), "
                             f"not {turn!r}")
        for name, word in (("tips", tips), ("inner points", inner)):
            if len(word) != 5:
                raise OtherBoardError(f"{text!r}: the {name} are five points, not {len(word)}")
            if set(word) - set("cv-"):
                raise ValueError(f"{text!r}: a point holds c (a crow), v (the vulture) or -; "
                                 f"the {name} are {word!r}")
        board = tips + inner
        crows = self.options["crows"]
        if not hand.isdigit() or int(hand) > crows:
            raise ValueError(f"{text!r}: the last word is the crows still in hand, 0 to "
                             f"{crows}; got {hand!r}")
        if board.count("v") > 1:
            raise ImpossiblePositionError(f"{text!r} has {board.count('v')} vultures; there is one")
        placed = crows - int(hand)
        on_board = board.count("c")
        if on_board > placed:
            raise ImpossiblePositionError(
                f"{text!r} has {on_board} crows on the board but only {placed} placed "
                f"({hand} of {crows} in hand)")
        state = np.array([0 if turn == "c" else 1, sum(1 << p for p, ch in enumerate(board) if ch == "c"),
                          board.find("v"), placed], np.int64)
        reason = self._impossible(state)
        if reason:
            raise ImpossiblePositionError(f"{text!r}: {reason}")
        return state

    def _impossible(self, state: np.ndarray) -> str | None:
        """Why no game reaches a position of these counts, or None."""
        turn, crows_mask, vulture, placed = (int(v) for v in state)
        crows, captures = self.options["crows"], self.options["captures"]
        taken = placed - bin(crows_mask).count("1")
        if taken > captures or (taken == captures and turn == VULTURE):
            return (f"the vulture has taken {taken} crows, and the game ends when it has "
                    f"taken {captures}")
        if placed < crows:  # crows are still being placed: the turns are counted
            vulture_turns = placed if turn == CROWS else placed - 1
            if vulture_turns < 0:
                return "the crows move first: before any crow is placed it is the crows' turn"
            if (vulture >= 0) != (vulture_turns >= 1):
                return ("the vulture is placed on its first turn" if vulture < 0 else
                        "the vulture is placed on its first turn, after the first crow")
            moves = max(0, vulture_turns - 1)
            if taken > moves:
                return (f"{taken} crows taken, but the vulture has had {moves} "
                        f"move{'' if moves == 1 else 's'} since it was placed")
        elif vulture < 0:
            return "the vulture is placed on its first turn, after the first crow"
        return None

    def explain_illegal(self, state: np.ndarray) -> str:
        return self._impossible(state) or (
            "the vulture is shut in with the crows to move: its own move never leaves it so")

    def format(self, state: np.ndarray) -> str:
        turn, crows, vulture, placed = (int(v) for v in state)
        board = "".join("v" if p == vulture else "c" if crows >> p & 1 else "-"
                        for p in range(POINTS))
        return f"({'cv'[turn]} {board[:5]} {board[5:]} {self.options['crows'] - placed})"

    def move_name(self, state: np.ndarray, move: int) -> str:
        to = move % STEP
        if move < STEP:
            return str(to)
        source = move // STEP - 1
        jump = state[0] == VULTURE and self.data.over[source, to] >= 0
        return f"{source}{'x' if jump else '-'}{to}"

    # -- drawing: the pentagram on a 6 x 7 grid ------------------------------------------
    def board_shape(self) -> tuple[int, int]:
        return GRID_ROWS, GRID_COLS

    def grid(self, state: np.ndarray) -> list[str]:
        """The points where they are drawn, ``' '`` where no point is.

        >>> from tiersolve.games import make_game
        >>> game = make_game("kaooa")
        >>> game.grid(game.parse("(v c---- v-c-- 4)"))
        ['   c   ', '       ', '- - v -', '  - -  ', '   c   ', ' -   - ']
        """
        cells = [[" "] * GRID_COLS for _ in range(GRID_ROWS)]
        text = self.format(state)[3:14].replace(" ", "")
        for p, (row, col) in enumerate(POINT_CELLS):
            cells[row][col] = text[p]
        return ["".join(row) for row in cells]

    def board_paths(self) -> list[list[tuple[float, float]]]:
        """The five lines of the pentagram, each through its four points."""
        return [[tuple(float(x) for x in POINT_CELLS[p]) for p in line] for line in LINES]

    def point_names(self) -> dict[tuple[int, int], str]:
        """Each point's number, by the cell where it is drawn."""
        return {cell: str(p) for p, cell in enumerate(POINT_CELLS)}

    def move_sketch(self, state: np.ndarray, name: str) -> MoveSketch | None:
        """A placing on its point, a step or a jump from point to point.

        >>> from tiersolve.games import make_game
        >>> game = make_game("kaooa")
        >>> game.move_sketch(game.start(), "3")
        MoveSketch(kind='place', cells=((5, 1),), path=(), side='')
        """
        match = MOVE_NAME.fullmatch(name)
        if not match:
            return None
        if match.group(3) is None:
            return MoveSketch(PLACE, (POINT_CELLS[int(match.group(1))],))
        return MoveSketch(MOVE, (POINT_CELLS[int(match.group(1))], POINT_CELLS[int(match.group(3))]))


GAME = Kaooa
