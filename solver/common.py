"""Pieces shared by the solvers: the per-game kernel contract, statistics, progress."""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Protocol

import numpy as np
from tqdm import tqdm

from solver.jit import jit
from solver.values import DRAW, LOSE, TIE, VALUE_NAMES, WIN

#: Columns of the ``out`` array that ``expand`` fills, one row per move.
CHILD_TIER, CHILD_INDEX, CHILD_SAME_MOVER, CHILD_MOVE = 0, 1, 2, 3
#: Child tier of a move to a finished game that is not indexed (see SolvableGame).
TERMINAL = -1

#: Called with (tier, values, remoteness) as soon as a tier is solved.
#: Remoteness arrays are uint8 or uint16; the dtype's maximum means "none".
TierSink = Callable[[int, np.ndarray, np.ndarray], None]


class SolvableGame(Protocol):
    """What a solver needs from a game (``games.base.Game`` provides it).

    ``expand(data, tier, local, out, state, child, moves) -> int`` is a numba function:
    ``> 0``: that many moves, one row of ``out`` each (child tier, child local index,
    1 if the same player moves again, move code); ``< 0``: a primitive position whose
    value code is the negation; ``0``: the index is not a legal position.

    A move to a finished game that the index space does not hold (a *terminal*
    child) has child tier ``TERMINAL`` (-1) and, in place of the local index, the
    child's value code for the player to move there; its remoteness is 0.
    ``state``, ``child`` and ``moves`` are scratch arrays of ``state_size``,
    ``state_size`` and ``max_moves`` int64.
    """

    name: str
    data: tuple
    state_size: int
    max_moves: int
    kernel_label: str
    expand: Callable

    @property
    def tier_sizes(self) -> np.ndarray: ...

    def tier_children(self, tier: int) -> set[int]: ...


class SolverError(RuntimeError):
    """The game broke the solver's contract (a bug in a game module)."""


@dataclass
class SolveStats:
    """What a solve did: value counts, remoteness range, compile time and memory."""

    counts: np.ndarray = field(default_factory=lambda: np.zeros(len(VALUE_NAMES), dtype=np.int64))
    max_remoteness: int = 0
    compile_seconds: float = 0.0
    peak_bytes: int = 0

    def add_tier(self, values: np.ndarray, remoteness: np.ndarray) -> None:
        self.counts += np.bincount(values, minlength=len(VALUE_NAMES))[:len(VALUE_NAMES)]
        decided = remoteness[remoteness != np.iinfo(remoteness.dtype).max]
        if decided.size:
            self.max_remoteness = max(self.max_remoteness, int(decided.max()))


def progress_bar(total: int, description: str, enabled: bool) -> tqdm:
    """A tqdm bar counting positions (silent when disabled)."""
    return tqdm(total=total, desc=description, unit="pos", unit_scale=True,
                disable=not enabled, dynamic_ncols=True, leave=False)


@contextmanager
def announced(message: str, enabled: bool):
    """Print ``message...`` before a phase without a progress count, and its duration after."""
    if enabled:
        print(f"{message}...", end="", file=sys.stderr, flush=True)
    start = time.perf_counter()
    yield
    if enabled:
        print(f" {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)


@jit(inline="always")
def scratch(state_size, max_moves):
    """Buffers for ``expand``: (out rows, state, child, moves)."""
    width = max(max_moves, 1)
    return (np.empty((width, 4), np.int64), np.empty(state_size, np.int64),
            np.empty(state_size, np.int64), np.empty(width, np.int64))


@jit(inline="always")
def as_seen_by_parent(value: int, same_mover: int) -> int:
    """A child's value for the parent's mover: flipped unless the same player moves again."""
    if same_mover != 0:
        return value
    if value == WIN:
        return LOSE
    if value == LOSE:
        return WIN
    return value


__all__ = [
    "CHILD_TIER", "CHILD_INDEX", "CHILD_SAME_MOVER", "CHILD_MOVE", "DRAW", "TERMINAL", "TIE",
    "SolvableGame", "SolveStats", "SolverError", "TierSink", "as_seen_by_parent",
    "progress_bar", "announced", "scratch",
]
