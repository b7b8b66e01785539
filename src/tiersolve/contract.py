"""The words a game and a solver share: the layout of an expanded move, the tier
types, and the failure codes that name a broken contract.

A game's ``expand`` fills one row of an int64 ``out`` array per move, in the columns
below; the solvers read them. What each game function must do is documented in one
place, ``tiersolve.games.base``; this module holds only the constants both sides
use, so that a game never imports a solver.

>>> TierType.LOOPY.name, CHILD_INDEX, TERMINAL
('LOOPY', 1, -1)
>>> FAILURES[CHILD_ILLEGAL]
'a move leads to an index the game marks illegal'
"""

from __future__ import annotations

from enum import IntEnum

#: Columns of the ``out`` array that ``expand`` fills, one row per move: the child's
#: tier and local index, 1 if the same player moves again, and the move's code.
CHILD_TIER, CHILD_INDEX, CHILD_SAME_MOVER, CHILD_MOVE = 0, 1, 2, 3
#: Child tier of a move to a finished game that is not indexed; its CHILD_INDEX
#: column holds the finished game's value code for the player to move there.
TERMINAL = -1


class TierType(IntEnum):
    """How a tier is solved (GamesmanOne's tier types).

    IMMEDIATE: every move leaves the tier (for tiers already solved); solved in
      chunks in any order.
    SWEEP: moves may stay in the tier, and then lead to a higher local index; the
      tier is swept from its highest index down (or, if the game has
      ``sweep_level``, level by level from the highest, each level on every thread).
    LOOPY: moves inside the tier may form cycles; retrograde analysis inside the
      tier (``tiersolve.solver.loopy``).
    """

    IMMEDIATE = 0
    SWEEP = 1
    LOOPY = 2


# Contract failures. A kernel reports the first it meets as one row of four int64
# (kind, local index, child tier, child local); the solver driver turns the row into
# a message naming the position and move (``tiersolve.solver.tiers.describe_failure``).
CHILD_TIER_NOT_SOLVED = 1     # a move leads to a tier that is neither this one nor solved
CHILD_OUT_OF_RANGE = 2        # a move leads to an index beyond its tier's size
CHILD_ILLEGAL = 3             # a move leads to an index the game marks illegal
CHILD_NONCANONICAL = 4        # a move leads to an index that is not its class's representative
CHILD_NOT_YET_SOLVED = 5      # a sweep tier's move leads to a lower index of the same tier
REMOTENESS_OVERFLOW = 6       # a remoteness beyond what the records can hold
PARENT_OUT_OF_RANGE = 7       # the un-move generator gave an index beyond the tier's size
TOO_MANY_MOVES = 8            # more distinct moves than the move counters can hold
LEVEL_OUT_OF_RANGE = 9        # sweep_level gave a level outside 0..sweep_levels-1
LEVEL_NOT_HIGHER = 10         # a leveled sweep's move inside the tier does not raise the level
UNMOVES_DISAGREE = 11         # moves and un-moves into a tier's undecided positions differ
TERMINAL_NOT_A_VALUE = 12     # a move to a finished game not indexed gives no value code
POSITION_ILLEGAL = 13         # play reaches an index the game marks illegal (--reachable)
CHILD_NOT_FOUND = 14          # a move leads to a position the reachable search did not find

#: Each failure code in a few words (messages add the position and move).
FAILURES = {
    CHILD_TIER_NOT_SOLVED: "a move leads to a tier that is not solved before this one",
    CHILD_OUT_OF_RANGE: "a move leads to an index beyond its tier's size",
    CHILD_ILLEGAL: "a move leads to an index the game marks illegal",
    CHILD_NONCANONICAL: "a move leads to an index that is not its symmetry class's representative",
    CHILD_NOT_YET_SOLVED: "a move inside a sweep tier leads to a position not solved before it",
    REMOTENESS_OVERFLOW: "a remoteness beyond what the records hold",
    PARENT_OUT_OF_RANGE: "the un-move generator gives an index beyond the tier's size",
    TOO_MANY_MOVES: "more distinct moves inside a tier than the move counters hold",
    LEVEL_OUT_OF_RANGE: "sweep_level gives a level outside 0..sweep_levels-1",
    LEVEL_NOT_HIGHER: "a move inside a leveled sweep tier does not raise the level",
    UNMOVES_DISAGREE: "the moves and un-moves of a loopy tier disagree",
    TERMINAL_NOT_A_VALUE: "a move to a finished game that is not indexed gives no value code",
    POSITION_ILLEGAL: "play reaches an index the game marks illegal",
    CHILD_NOT_FOUND: "a move leads to a position the search of reachable positions did not find",
}

#: Columns of a kernel's failure row.
FAIL_KIND, FAIL_LOCAL, FAIL_CHILD_TIER, FAIL_CHILD_LOCAL = 0, 1, 2, 3
