"""Value codes and remoteness sentinels shared by games, solvers and databases.

Values are from the point of view of the player to move (see RULES.md).
They are stored as uint8 codes; the same codes appear in database files.
"""

ILLEGAL = 0  # the index is not a legal position (never reached by play)
WIN = 1
LOSE = 2
TIE = 3
DRAW = 4
NONCANONICAL = 5  # with --symmetry: the value is stored under the class's canonical index
UNDECIDED = 255  # not primitive / not solved yet (never written to a file)

#: Remoteness is kept as uint16 while solving; this marks "no remoteness"
#: (draws and illegal indices). Files use the maximum of their dtype.
NO_REMOTENESS = 0xFFFF

VALUE_NAMES = {ILLEGAL: "illegal", WIN: "win", LOSE: "lose", TIE: "tie", DRAW: "draw",
               NONCANONICAL: "noncanonical"}
VALUE_CODES = {name: code for code, name in VALUE_NAMES.items()}


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
