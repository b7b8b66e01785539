"""Fair Shares and Varied Pairs: heaps of tokens that always add up to n; a move
splits one heap into equal heaps, or unites two heaps of different sizes; a player
left with only heaps of one token cannot move and loses.

Rules: docs/RULES.md, section "Fair Shares and Varied Pairs" (GamesmanOne's ``fsvp``,
to compare values).

Position ``(6 3 1)``: the heaps, largest first (a multiset: the order means nothing).
The game is impartial: both players have the same moves, so a position has no turn.
Moves are named ``6/3`` (split the heap of 6 into heaps of 3) and ``6+3`` (unite the
heaps of 6 and 3).

State vector: ``[0, c1, c2, ..., cn]``: ``c_s`` heaps of s tokens. Index
(``hashers/partitions.py``): the partitions of n in reverse lexicographic order, rank
0 the single heap ``(n)``, the last all ones; GamesmanOne's index is the same order,
so the two number every position alike. Splits raise the number of heaps and unions
lower it, and they undo each other (``(4)``, ``(2 2)``, ``(2 1 1)``, ``(3 1)``, ``(4)``),
so every position lies in one LOOPY tier, solved with un-moves.

>>> from tiersolve.games import make_game
>>> game = make_game("fsvp", size=6)
>>> [child.move for child in game.children(game.parse("(3 2 1)"))]
['2/1', '3/1', '3+2', '3+1', '2+1']
"""

from __future__ import annotations

import re
from html import escape
from typing import NamedTuple

import numpy as np

from tiersolve.contract import CHILD_INDEX, CHILD_MOVE, CHILD_SAME_MOVER, CHILD_TIER, TierType
from tiersolve.errors import ImpossiblePositionError, OtherBoardError
from tiersolve.games.base import Game, GameFunctions, GameSpec, Option
from tiersolve.hashers.partitions import (
    max_distinct_parts, partition_table, rank_changed, unrank_partition,
)
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit
from tiersolve.values import LOSE, UNDECIDED

#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "fsvp"

#: GamesmanOne's sizes (its option ``size``); any total from 2 to 100 is accepted.
PEER_SIZES = (4, 5, 6, 7, 8, 9, 10, 11, 12, 20, 50, 60, 70, 80, 90, 100)
MIN_SIZE, MAX_SIZE = 2, 100
TOTAL = 0  # the field of ``params``
SPLIT = 1  # a move's code: (x << 8 | y) << 1 | SPLIT for "x/y", | 0 for "x+y"


class FsvpData(NamedTuple):
    """What the kernels read (``Game.data``)."""

    params: np.ndarray  # [n]
    table: np.ndarray   # partitions of s into parts of at most m (hashers.partitions)
    divisors: np.ndarray  # divisors[x, :]: the proper divisors of x, then 0s


def move_code(split: bool, x: int, y: int) -> int:
    return ((x << 8) | y) << 1 | int(split)


def divisor_table(n: int) -> np.ndarray:
    """Row x: the divisors y of x with y < x (y <= x / 2), increasing, then zeros."""
    width = max(1, max((sum(1 for y in range(1, x) if x % y == 0) for x in range(1, n + 1)),
                       default=1)) + 1
    table = np.zeros((n + 1, width), dtype=np.int64)
    for x in range(2, n + 1):
        found = [y for y in range(1, x // 2 + 1) if x % y == 0]
        table[x, :len(found)] = found
    return table


# -- the five functions over the counts ------------------------------------------------
@jit
def decode(data, tier, local, state):
    n = data.params[TOTAL]
    for s in range(n + 1):
        state[s] = 0
    left = n
    part = n
    rank = local
    table = data.table
    while left > 0:  # as hashers.partitions.unrank_partition, into counts
        if part > left:
            part = left
        while rank >= table[left - part, part]:
            rank -= table[left - part, part]
            part -= 1
        state[part] += 1
        left -= part


@jit
def encode(data, state):
    n = data.params[TOTAL]
    table = data.table
    rank = np.int64(0)
    left = n
    bound = n
    for a in range(n, 0, -1):
        if state[a] > 0:
            rank += table[left, min(bound, left)] - table[left, a]
            left -= a * state[a]
            bound = a
    return 0, rank


@jit
def generate_moves(data, state, moves):
    """Splits first (by heap size, smallest first; each by divisor, smallest first),
    then unions (larger heap first, by size decreasing), as GamesmanOne lists them."""
    n = data.params[TOTAL]
    count = 0
    for x in range(1, n + 1):
        if state[x] == 0:
            continue
        d = 0
        while d < data.divisors.shape[1] and data.divisors[x, d] != 0:
            moves[count] = (((x << 8) | data.divisors[x, d]) << 1) | SPLIT
            count += 1
            d += 1
    for x in range(n, 0, -1):
        if state[x] == 0:
            continue
        for y in range(x - 1, 0, -1):
            if state[y] > 0:
                moves[count] = ((x << 8) | y) << 1
                count += 1
    return count


@jit
def do_move(data, state, move, child):
    n = data.params[TOTAL]
    for s in range(n + 1):
        child[s] = state[s]
    x = (move >> 9) & 255
    y = (move >> 1) & 255
    child[x] -= 1
    if move & SPLIT:
        child[y] += x // y
    else:
        child[y] -= 1
        child[x + y] += 1
    return 0


@jit
def primitive(data, state, count):
    if count == 0:  # only heaps of one token: the player to move loses
        return LOSE
    return UNDECIDED


# -- fast paths: straight from an index to its children and parents --------------------
@jit(forceinline=True)
def _parts(data, local, sizes, counts):
    return unrank_partition(data.table, data.params[TOTAL], local, sizes, counts)


@jit
def expand(data, tier, local, out, state, child, moves):
    n = data.params[TOTAL]
    table = data.table
    sizes, counts = state, child  # scratch: at most n distinct parts
    k = _parts(data, local, sizes, counts)
    if k == 1 and sizes[0] == 1:
        return -np.int64(LOSE)
    count = 0
    for i in range(k - 1, -1, -1):  # splits: by heap size increasing
        x = sizes[i]
        d = 0
        while d < data.divisors.shape[1] and data.divisors[x, d] != 0:
            y = data.divisors[x, d]
            out[count, CHILD_TIER] = 0
            out[count, CHILD_INDEX] = rank_changed(table, n, sizes, counts, k, x, 1, 0, 0,
                                                   y, x // y, 0, 0)
            out[count, CHILD_SAME_MOVER] = 0
            out[count, CHILD_MOVE] = (((x << 8) | y) << 1) | SPLIT
            count += 1
            d += 1
    for i in range(k):  # unions: larger heap first
        x = sizes[i]
        for j in range(i + 1, k):
            y = sizes[j]
            out[count, CHILD_TIER] = 0
            out[count, CHILD_INDEX] = rank_changed(table, n, sizes, counts, k, x, 1, y, 1,
                                                   x + y, 1, 0, 0)
            out[count, CHILD_SAME_MOVER] = 0
            out[count, CHILD_MOVE] = ((x << 8) | y) << 1
            count += 1
    return count


@jit
def expand_leaving(data, tier, local, out, state, child, moves):
    """Every move stays in the one tier, and no two lead to the same position: the
    moves are only counted."""
    sizes, counts = state, child
    k = _parts(data, local, sizes, counts)
    if k == 1 and sizes[0] == 1:
        return -np.int64(LOSE), np.int64(-1)
    count = k * (k - 1) // 2
    for i in range(k):
        x = sizes[i]
        d = 0
        while d < data.divisors.shape[1] and data.divisors[x, d] != 0:
            count += 1
            d += 1
    return np.int64(0), np.int64(count)


@jit
def parents(data, tier, local, out, state, other):
    """Un-splits (m >= 2 heaps of y were one heap of m*y) and un-unions (a heap of z
    was two heaps y < z - y); no parent comes twice."""
    n = data.params[TOTAL]
    table = data.table
    sizes, counts = state, other
    k = _parts(data, local, sizes, counts)
    count = 0
    for i in range(k):
        y = sizes[i]
        for m in range(2, counts[i] + 1):
            if m * y > n:
                break
            out[count] = rank_changed(table, n, sizes, counts, k, y, m, 0, 0, m * y, 1,
                                      0, 0) << 1
            count += 1
        z = sizes[i]
        for y in range(1, (z - 1) // 2 + 1):
            out[count] = rank_changed(table, n, sizes, counts, k, z, 1, 0, 0, z - y, 1,
                                      y, 1) << 1
            count += 1
    return count


def most_moves(n: int) -> int:
    """A bound on the moves of a partition of n: every split of its distinct parts (at
    most ``max_distinct_parts``, each with the most proper divisors of any size up to
    n), and every pair of them."""
    k = max_distinct_parts(n)
    divisors = max(sum(1 for y in range(1, x) if x % y == 0) for x in range(1, n + 1))
    return max(1, k * divisors + k * (k - 1) // 2)


def most_parents(n: int) -> int:
    """A bound on the parents: un-splits of c equal heaps give at most c - 1 each, so
    at most n in all; un-unions at most (z - 1) // 2 per distinct heap z, at most n / 2."""
    return n + n // 2 + 1


POSITION = re.compile(r"\(\s*(\d+(?:\s+\d+)*)\s*\)")


class Fsvp(Game):
    name = NAME
    title = "Fair Shares and Varied Pairs"
    options_spec = (
        Option("size", int, 10, "the number of tokens, n (GamesmanOne's sizes: "
               + ", ".join(map(str, PEER_SIZES)) + ")", MIN_SIZE, MAX_SIZE),
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive,
                              expand=expand, parents=parents, expand_leaving=expand_leaving)
    state_fields = "0, then the number of heaps of each size 1..n"
    piece_noun = "heap"
    tester_boards = ({"size": 2}, {"size": 5}, {"size": 8}, {"size": 12})
    reference_boards = ({"size": 4}, {"size": 7}, {"size": 10}, {"size": 12})
    slow_reference_boards = ({"size": 20},)

    def build(self) -> GameSpec:
        n = self.options["size"]
        table = partition_table(n)
        return GameSpec(
            tiers=TierLayout(keys=[()], sizes=[int(table[n, n])]),
            data=FsvpData(params=np.array([n], np.int64), table=table,
                          divisors=divisor_table(n)),
            state_size=n + 1, max_moves=most_moves(n), loopy=True, remoteness_bound=None,
            hasher={"name": "partitions", "order": "reverse lexicographic", "total": n},
            max_parents=most_parents(n), parents_are_distinct=True)

    def tier_children(self, tier: int) -> set[int]:
        return {0}

    def tier_type(self, tier: int) -> TierType:
        return TierType.LOOPY

    def _size_text(self) -> str | None:
        return str(self.options["size"])

    def board_shape(self) -> tuple[int, int]:
        raise KeyError("size")  # no board: the heaps are drawn by picture_svg

    def grid(self, state: np.ndarray) -> list[str] | None:
        return None

    def turn_text(self, position: str) -> str | None:
        return None  # impartial: a position does not say whose turn it is

    def default_start(self) -> str:
        # GamesmanOne's start: one heap of n when n is even, (n-1 1) when n is odd.
        n = self.options["size"]
        return f"({n})" if n % 2 == 0 else f"({n - 1} 1)"

    def heaps(self, state: np.ndarray) -> list[int]:
        """The heap sizes, largest first."""
        return [size for size in range(len(state) - 1, 0, -1) for _ in range(int(state[size]))]

    def parse(self, text: str) -> np.ndarray:
        n = self.options["size"]
        words = self.split_position(text)
        for word in words:
            if not word.isdigit() or not word.isascii():
                raise ValueError(f"the heaps of {text!r} are whole numbers of tokens, got "
                                 f"{word!r}")
        heaps = [int(word) for word in words]
        if 0 in heaps:
            raise ImpossiblePositionError(f"{text!r} has a heap of 0 tokens; every heap has "
                                          "at least one")
        if sum(heaps) != n:
            raise OtherBoardError(f"the heaps of {text!r} hold {sum(heaps)} tokens, but this "
                                  f"{self.describe()} game has {n}")
        state = np.zeros(n + 1, dtype=np.int64)
        for heap in heaps:
            state[heap] += 1
        return state

    def format(self, state: np.ndarray) -> str:
        return "(" + " ".join(map(str, self.heaps(state))) + ")"

    def move_name(self, state: np.ndarray, move: int) -> str:
        x, y = (move >> 9) & 255, (move >> 1) & 255
        return f"{x}/{y}" if move & SPLIT else f"{x}+{y}"

    def picture_svg(self, state: np.ndarray, caption: str = "") -> str:
        """A picture of the heaps: a column of tokens each, largest first, with its
        size under it (the ``tiersolve serve`` page and the notebook draw it)."""
        heaps = self.heaps(state)
        n = self.options["size"]
        token = 12 if n <= 12 else (6 if n <= 50 else 3)
        step = 22 if n <= 12 else 16
        tallest = max(heaps)
        top = 8
        height = top + tallest * token + 24 + (20 if caption else 0)
        width = max(16 + step * len(heaps), 8 + 8 * len(caption))
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                 'font-family="sans-serif">']
        base = top + tallest * token
        for i, heap in enumerate(heaps):
            x = 8 + step * i + step / 2
            parts.append(f'<g class="heap" data-heap="{heap}">')
            for t in range(heap):
                cy = base - t * token - token / 2
                parts.append(f'<circle cx="{x:g}" cy="{cy:g}" r="{token * 0.42:.1f}" '
                             'fill="#c8902e" stroke="#6b4a12" stroke-width="0.8"/>')
            parts.append(f'<text x="{x:g}" y="{base + 16}" font-size="12" '
                         f'text-anchor="middle">{heap}</text></g>')
        if caption:
            parts.append(f'<text x="4" y="{base + 38}" font-size="14">{escape(caption)}</text>')
        parts.append("</svg>")
        return "".join(parts)


GAME = Fsvp
