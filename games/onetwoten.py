"""1, 2, ..., 10: players take turns adding 1 or 2 to a sum; who reaches 10 wins.

Rules: docs/RULES.md, section "1,2,...,10".

Position ``(T S)``: ``T`` is ``L`` or ``R`` (whose turn), ``S`` the sum so far.
Options generalise the target and the largest step. State vector: ``[turn, sum]``
(turn 0 = L). Index: ``2 * sum + turn`` in a single tier; every move raises the sum,
so moves lead to higher indices.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tiersolve.games.base import MISERE, Game, GameFunctions, GameSpec, Option
from tiersolve.jit import jit
from tiersolve.values import LOSE, UNDECIDED, WIN

TARGET, MAX_STEP, IS_MISERE = 0, 1, 2
TURNS = "LR"


class OneTwoTenData(NamedTuple):
    """What the kernels read (``Game.data``)."""

    params: np.ndarray  # [target, max step, misere]


@jit
def decode(data, tier, local, state):
    state[0] = local & 1
    state[1] = local >> 1


@jit
def encode(data, state):
    return 0, 2 * state[1] + state[0]


@jit
def generate_moves(data, state, moves):
    params = data.params
    count = 0
    for step in range(1, params[MAX_STEP] + 1):
        if state[1] + step > params[TARGET]:
            break
        moves[count] = step
        count += 1
    return count


@jit
def do_move(data, state, move, child):
    child[0] = 1 - state[0]
    child[1] = state[1] + move
    return 0


@jit
def primitive(data, state, move_count):
    params = data.params
    if state[1] == params[TARGET]:  # the opponent just reached the target
        return WIN if params[IS_MISERE] else LOSE
    return UNDECIDED


#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "1210"


class OneTwoTen(Game):
    name = NAME
    title = "1,2,...,10"
    options_spec = (
        Option("target", int, 10, "the sum to reach", 1, 100_000),
        Option("max_step", int, 2, "largest amount a move may add", 1, 1000),
        MISERE,
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive)
    state_fields = "turn (0 = L, 1 = R), sum"

    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = (
        {"target": 7, "max_step": 3},
    )
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = (
        {"target": 10, "max_step": 2}, {"target": 10, "max_step": 2, "misere": True},
        {"target": 13, "max_step": 3}, {"target": 13, "max_step": 3, "misere": True},
    )

    def build(self) -> GameSpec:
        from tiersolve.hashers.tiers import TierLayout

        target = self.options["target"]
        tiers = TierLayout(keys=[()], sizes=[2 * (target + 1)])
        data = OneTwoTenData(
            params=np.array([target, self.options["max_step"], self.options["misere"]], dtype=np.int64))
        return GameSpec(
            tiers=tiers, data=data, state_size=2, max_moves=self.options["max_step"],
            loopy=False, remoteness_bound=target,
            hasher={"name": "mixed-radix", "digits": ["sum", "turn"], "radices": [target + 1, 2]})

    def tier_children(self, tier: int) -> set[int]:
        return {0}

    def default_start(self) -> str:
        return "(L 0)"

    def parse(self, text: str) -> np.ndarray:
        words = self.split_position(text, "(L 0)")
        if len(words) != 2:
            raise ValueError(f"a {self.title} position is (T S), e.g. (L 0); got {text!r}")
        turn, total = words
        if turn not in TURNS or len(turn) != 1:
            raise ValueError(f"the turn in {text!r} must be L or R, got {turn!r}")
        if total.lstrip("-").isdigit() and total.startswith("-"):
            raise ValueError(f"the sum in {text!r} must be 0 to {self.options['target']}, got {total}")
        if not total.isdigit():
            raise ValueError(f"the sum in {text!r} must be a whole number, got {total!r}")
        if int(total) > self.options["target"]:
            raise ValueError(f"the sum {total} in {text!r} is past the target "
                                 f"{self.options['target']}")
        return np.array([TURNS.index(turn), int(total)], dtype=np.int64)

    def format(self, state: np.ndarray) -> str:
        return f"({TURNS[state[0]]} {state[1]})"

    def move_name(self, state: np.ndarray, move: int) -> str:
        return f"+{move}"


GAME = OneTwoTen
