"""Value codes and their names, without numba: what games, solvers and the lookup
library all mean by a value (``tiersolve.solver.records`` packs a code and a remoteness
into the solvers' records).

Values are from the point of view of the player to move (docs/RULES.md). They are
uint8 codes; the same codes appear in database files.

>>> VALUE_NAMES[WIN], VALUE_CODES["draw"] == DRAW
('win', True)
"""

from __future__ import annotations

ILLEGAL = 0  # the index is not a legal position (never reached by play)
WIN = 1
LOSE = 2
TIE = 3
DRAW = 4
NONCANONICAL = 5  # with --symmetry: the value is stored under the class's canonical index
UNDECIDED = 255  # not primitive / not solved yet (never written to a file)

#: Remoteness is kept as uint16 while a loopy tier is solved; this marks "no
#: remoteness" (draws and illegal indices) there. Files use the maximum of their dtype.
NO_REMOTENESS = 0xFFFF

VALUE_NAMES = {ILLEGAL: "illegal", WIN: "win", LOSE: "lose", TIE: "tie", DRAW: "draw",
               NONCANONICAL: "noncanonical"}
VALUE_CODES = {name: code for code, name in VALUE_NAMES.items()}

#: Bits of a record that hold the value code.
VALUE_BITS = 3
VALUE_MASK = (1 << VALUE_BITS) - 1


def flipped(code: int) -> int:
    """The value seen by the other player: WIN <-> LOSE, everything else unchanged.

    >>> flipped(WIN) == LOSE
    True
    """
    if code == WIN:
        return LOSE
    if code == LOSE:
        return WIN
    return code
