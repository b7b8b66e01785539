"""Pieces shared by the solvers: what they need from a game, how a child is read
and scored, statistics, contract failures and progress output.

The game side of the contract (which numba functions a game module writes, and how
``expand`` and ``parents`` are composed from them) is documented in one place:
``tiersolve.games.base``; the constants both sides use are in ``tiersolve.contract``.
This module states what the solvers themselves rely on.
"""

from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Protocol

import numpy as np
from tqdm import tqdm

from tiersolve.contract import (
    CHILD_ILLEGAL, CHILD_INDEX, CHILD_NONCANONICAL, CHILD_NOT_YET_SOLVED, CHILD_OUT_OF_RANGE,
    CHILD_SAME_MOVER, CHILD_TIER, CHILD_TIER_NOT_SOLVED, FAIL_CHILD_LOCAL, FAIL_CHILD_TIER,
    FAIL_KIND, FAIL_LOCAL, TERMINAL, TERMINAL_NOT_A_VALUE, TierType,
)
from tiersolve.jit import bound_later, inlined, jit, specialise
from tiersolve.solver.atomic import load_at
from tiersolve.solver.records import record_none, unpack_remoteness, unpack_value
from tiersolve.values import (
    DRAW, ILLEGAL, LOSE, NONCANONICAL, TIE, VALUE_BITS, VALUE_MASK, VALUE_NAMES, WIN,
)


class SolvableGame(Protocol):
    """What the solvers need from a game (``games.base.Game`` provides all of it;
    the meaning of ``expand`` and ``parents`` is documented in ``games/base.py``)."""

    name: str
    data: tuple
    state_size: int
    max_moves: int
    max_parents: int
    kernel_label: str
    remoteness_bound: int | None
    expand: Callable
    expand_counts_references: bool
    expand_leaving: Callable | None
    parents: Callable | None
    sweep_level: Callable | None
    sweep_levels: int

    @property
    def tier_sizes(self) -> np.ndarray: ...

    def tier_children(self, tier: int) -> set[int]: ...

    def tier_type(self, tier: int) -> TierType: ...


class SolverError(RuntimeError):
    """The game broke the solver's contract (a bug in a game module)."""


class ContractFailure(Exception):
    """A kernel met a contract failure; carries its failure array (the driver turns it
    into a SolverError naming the position)."""

    def __init__(self, failure: np.ndarray) -> None:
        super().__init__(failure)
        self.failure = failure


def no_failure() -> np.ndarray:
    """A fresh failure array for one kernel call (kind 0 = none)."""
    return np.zeros(4, dtype=np.int64)


@jit(forceinline=True)
def report_failure(failure, kind, local, child_tier, child_local):
    """Remember a contract failure; the lowest local index wins, so the report does
    not depend on how a tier was split between threads."""
    if failure[FAIL_KIND] == 0 or local < failure[FAIL_LOCAL]:
        failure[FAIL_KIND] = kind
        failure[FAIL_LOCAL] = local
        failure[FAIL_CHILD_TIER] = child_tier
        failure[FAIL_CHILD_LOCAL] = child_local


def first_failure(failures: list[np.ndarray]) -> np.ndarray | None:
    """The failure with the lowest local index among several kernel calls, or None."""
    found = [f for f in failures if f[FAIL_KIND] != 0]
    return min(found, key=lambda f: int(f[FAIL_LOCAL])) if found else None


@dataclass
class SolveStats:
    """What a solve did: value counts, remoteness range, compile time and memory."""

    counts: np.ndarray = field(default_factory=lambda: np.zeros(len(VALUE_NAMES), dtype=np.int64))
    max_remoteness: int = 0
    compile_seconds: float = 0.0
    peak_bytes: int = 0
    #: Seconds from the start of each tier solved here to its end (other tiers may
    #: have run at the same time).
    tier_seconds: dict[int, float] = field(default_factory=dict)
    #: The LOOPY tiers a cluster build solved in parts: each one's report, with its
    #: rounds, the parents its parts sent and its workers' memory (databases/split.py).
    split_tiers: list[dict] = field(default_factory=list)

    def add(self, counts: np.ndarray, max_remoteness: int) -> None:
        self.counts += counts
        self.max_remoteness = max(self.max_remoteness, int(max_remoteness))


def tier_summary(records: np.ndarray) -> tuple[np.ndarray, int]:
    """(count per value code, largest remoteness) of a solved tier's records."""
    counts = np.zeros(VALUE_MASK + 1, dtype=np.int64)
    longest = _summarise(records, record_none(records.dtype), counts)
    return counts[:len(VALUE_NAMES)], int(longest)


@jit
def _summarise(records, none, counts):
    """One pass, no temporary arrays: counts per value code; returns the largest
    remoteness."""
    longest = 0
    for record in records:
        counts[record & VALUE_MASK] += 1
        distance = record >> VALUE_BITS
        if distance != none and distance > longest:
            longest = distance
    return longest


def progress_bar(total: int | None, description: str, enabled: bool) -> tqdm | PhaseLine:
    """A tqdm bar counting positions on a terminal; where stderr is not one (a log
    file, a pipe) one line when the phase ends instead of a bar redrawn with
    carriage returns. Silent when disabled."""
    if enabled and not (hasattr(sys.stderr, "isatty") and sys.stderr.isatty()):
        return PhaseLine(description)
    return tqdm(total=total, desc=description, unit="pos", unit_scale=True,
                disable=not enabled, dynamic_ncols=True, leave=False)


class PhaseLine:
    """A progress bar's stand-in off a terminal: counts as tqdm does and prints
    ``description: N positions, S s`` once, when closed (a bar's passing status is
    dropped: a log keeps what is done, not what was under way)."""

    def __init__(self, description: str) -> None:
        self.description, self.n = description, 0
        self.began = time.perf_counter()
        self.closed = False

    def update(self, count: int = 1) -> None:
        self.n += count

    def set_postfix_str(self, text: str, refresh: bool = True) -> None:
        pass

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            print(f"{self.description}: {self.n:,} positions, "
                  f"{time.perf_counter() - self.began:.1f} s", file=sys.stderr, flush=True)

    def __enter__(self) -> PhaseLine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextmanager
def announced_if_slow(message: str, after: float = 1.0, began: float | None = None):
    """Print ``message...`` on stderr if the block still runs ``after`` seconds from
    ``began`` (default: now), then its duration on the same line; a quick block
    prints nothing. For waits a user would not understand otherwise (compiling),
    whether or not progress is shown."""
    began = time.perf_counter() if began is None else began
    lock = threading.Lock()
    state = {"done": False, "shown": False}

    def show() -> None:
        with lock:
            if not state["done"]:
                print(f"{message}...", end="", file=sys.stderr, flush=True)
                state["shown"] = True

    timer = threading.Timer(max(0.0, began + after - time.perf_counter()), show)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["done"] = True
            timer.cancel()
        if state["shown"]:
            print(f" {time.perf_counter() - began:.1f} s", file=sys.stderr, flush=True)


def expanding(template: Callable, game: SolvableGame) -> Callable:
    """``template`` compiled with the game's ``expand`` inlined as ``expand``, and
    without reference counting unless that ``expand`` needs it: inlined into a loop,
    ``expand`` would take and give back a reference to every array of the game's data
    at every position (two atomic operations an array, on counters the threads
    share). Such a loop allocates nothing: its caller passes its ``scratch``."""
    return specialise(template, game.kernel_label, refcounts=game.expand_counts_references,
                      expand=inlined(game.expand))


@jit(forceinline=True)
def scratch(state_size, max_moves):
    """Buffers for ``expand``: (out rows, state, child, moves)."""
    width = max(max_moves, 1)
    return (np.empty((width, 4), np.int64), np.empty(state_size, np.int64),
            np.empty(state_size, np.int64), np.empty(width, np.int64))


loop, = bound_later("loop")


def _with_scratch(state_size, max_moves, *arguments):
    """Template: ``loop`` (a template compiled by ``expanding``) with fresh buffers for
    ``expand`` as its first four arguments, then ``arguments``."""
    out, state, child, moves = scratch(state_size, max_moves)
    return loop(out, state, child, moves, *arguments)


def expanding_kernel(template: Callable, game: SolvableGame) -> Callable:
    """The kernel of a loop over positions: ``template``, whose first four arguments
    are ``expand``'s buffers (out, state, child, moves), compiled by ``expanding``,
    behind the one wrapper that allocates those buffers (with reference counting, as
    allocation needs). Call it as ``kernel(state_size, max_moves, *the template's
    other arguments)``."""
    return specialise(_with_scratch, game.kernel_label, loop=expanding(template, game))


@jit(forceinline=True)
def as_seen_by_parent(value: int, same_mover: int) -> int:
    """A child's value for the parent's mover: flipped unless the same player moves again."""
    if same_mover != 0:
        return value
    if value == WIN:
        return LOSE
    if value == LOSE:
        return WIN
    return value


#: ``child_score`` in four bands: a loss (the later, the larger), a draw, a tie and a
#: win (the sooner, the larger). Remoteness stays below the band's width.
_SCORE_BAND = 1 << 16
DRAW_SCORE, TIE_SCORE, WIN_SCORE = _SCORE_BAND, 2 * _SCORE_BAND, 3 * _SCORE_BAND
#: The score of no child at all: below every loss, so it concludes as a LOSE in 0.
NO_CHILD = -1


def _score_tables() -> tuple[np.ndarray, np.ndarray]:
    """(base, slope) by ``same_mover << 3 | value``: the score is base + slope *
    remoteness. Codes that are not a game value score as no child (the kernels report
    them: ``child_problem``)."""
    base = np.full(16, NO_CHILD, dtype=np.int64)
    slope = np.zeros(16, dtype=np.int64)
    for same_mover in (0, 1):
        for value in (WIN, LOSE, TIE, DRAW):
            seen = value if same_mover else {WIN: LOSE, LOSE: WIN}.get(value, value)
            row = same_mover << 3 | value
            base[row], slope[row] = {WIN: (WIN_SCORE + _SCORE_BAND - 1, -1),
                                     TIE: (TIE_SCORE + _SCORE_BAND - 1, -1),
                                     DRAW: (DRAW_SCORE, 0), LOSE: (0, 1)}[seen]
    return base, slope


_SCORE_BASE, _SCORE_SLOPE = _score_tables()


@jit(forceinline=True)
def child_score(value, distance, same_mover):
    """One number for a child (its value code, remoteness and whether the same player
    moves again), larger the better for the parent's mover in RULES.md's order, so
    that a position's best child is a ``max`` with no branch on the child's value
    (which no predictor guesses): ``score_outcome`` reads it back. Precondition:
    ``0 <= value <= 7`` (a record's value bits, or a TERMINAL code checked first).

    >>> scores = [child_score(LOSE, 1, 0), child_score(WIN, 3, 1), child_score(TIE, 0, 0),
    ...           child_score(DRAW, 0, 0), child_score(WIN, 9, 0), child_score(WIN, 2, 0)]
    >>> scores == sorted(scores, reverse=True)
    True
    >>> score_outcome(max(child_score(LOSE, 4, 0), child_score(DRAW, 0, 1)), 255)
    (1, 5)
    """
    row = ((same_mover != 0) << 3) | value
    return _SCORE_BASE[row] + _SCORE_SLOPE[row] * distance


@jit(forceinline=True)
def score_remoteness(score):
    """The remoteness of the child that gave ``score`` (-1 for ``NO_CHILD``). Not for
    a draw's score: a draw has no remoteness, and callers give it their ``none``."""
    if score >= TIE_SCORE:
        return (_SCORE_BAND - 1) - (score & (_SCORE_BAND - 1))
    return score


@jit(forceinline=True)
def score_outcome(score, none):
    """(value, remoteness) of a position whose best child scored ``score``, by RULES.md's
    order (``none``: a DRAW's remoteness)."""
    if score >= WIN_SCORE:
        return WIN, score_remoteness(score) + 1
    if score >= TIE_SCORE:
        return TIE, score_remoteness(score) + 1
    if score >= DRAW_SCORE:
        return DRAW, none
    return LOSE, score + 1


@jit(forceinline=True)
def child_problem(value: int) -> int:
    """The contract failure of a solved child's value code, or 0 if it may be read."""
    if value == ILLEGAL:
        return CHILD_ILLEGAL
    if value == NONCANONICAL:
        return CHILD_NONCANONICAL
    if value == WIN or value == LOSE or value == TIE or value == DRAW:
        return 0
    return CHILD_NOT_YET_SOLVED


@jit(forceinline=True)
def read_child(out, k, addresses, sizes, like):
    """(failure code or 0, score) of move ``k`` of an expanded position: every solver's
    reader of a child. A move to a finished game outside the index (``TERMINAL``)
    scores the value code it carries; any other child is read from its tier's records
    at ``addresses[tier]`` (0: the tier is not solved), an array of ``like``'s type
    of ``sizes[tier]`` entries. The score is ``child_score``'s, for the position's
    mover; a failure comes with ``NO_CHILD``."""
    child_tier = out[k, CHILD_TIER]
    index = out[k, CHILD_INDEX]
    if child_tier == TERMINAL:  # a finished game that is not indexed
        if child_problem(index) != 0:
            return np.int64(TERMINAL_NOT_A_VALUE), np.int64(NO_CHILD)
        return np.int64(0), child_score(index, np.int64(0), out[k, CHILD_SAME_MOVER])
    if addresses[child_tier] == 0:
        return np.int64(CHILD_TIER_NOT_SOLVED), np.int64(NO_CHILD)
    if index < 0 or index >= sizes[child_tier]:
        return np.int64(CHILD_OUT_OF_RANGE), np.int64(NO_CHILD)
    record = load_at(addresses[child_tier], index, like)
    value = unpack_value(record)
    problem = child_problem(value)
    if problem != 0:
        return np.int64(problem), np.int64(NO_CHILD)
    return np.int64(0), child_score(value, np.int64(unpack_remoteness(record)),
                                    out[k, CHILD_SAME_MOVER])


__all__ = [
    "SolvableGame", "SolveStats", "SolverError", "ContractFailure", "as_seen_by_parent",
    "child_problem", "child_score", "first_failure", "no_failure", "progress_bar", "score_outcome",
    "PhaseLine", "announced_if_slow", "expanding", "expanding_kernel", "read_child", "report_failure",
    "scratch", "tier_summary",
]
