"""Value codes, remoteness sentinels and packed records shared by games, solvers and
databases.

Values are from the point of view of the player to move (see RULES.md). They are
uint8 codes; the same codes appear in database files.

While solving, a solved position is held as one *record*: its value code in the low
three bits and its remoteness above them, ``record = remoteness << 3 | value``.
Records are uint8 when every remoteness of the game fits in five bits (at most 30),
else uint16 (at most 8190); all ones in the remoteness bits mean "no remoteness"
(draws, illegal and non-canonical indices).

>>> dtype = record_dtype(remoteness_bound=12)
>>> dtype, record_none(dtype)
(dtype('uint8'), 31)
>>> unpack_value(pack_record(LOSE, 7)), unpack_remoteness(pack_record(LOSE, 7))
(2, 7)
"""

from __future__ import annotations

import numpy as np

from tiersolve.solver.jit import jit

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


def record_dtype(remoteness_bound: int | None) -> np.dtype:
    """uint8 records when the game bounds every remoteness by 30, else uint16."""
    if remoteness_bound is not None and remoteness_bound < record_none(np.dtype(np.uint8)):
        return np.dtype(np.uint8)
    return np.dtype(np.uint16)


def record_none(dtype: np.dtype) -> int:
    """The remoteness field meaning "none" in records of ``dtype`` (31 or 8191)."""
    return int(np.iinfo(dtype).max) >> VALUE_BITS


@jit(inline="always")
def pack_record(value, remoteness):
    """One record from a value code and a remoteness (already clipped to the dtype)."""
    return (remoteness << VALUE_BITS) | value


@jit(inline="always")
def unpack_value(record):
    return record & VALUE_MASK


@jit(inline="always")
def unpack_remoteness(record):
    return record >> VALUE_BITS


def split_records(records: np.ndarray, remoteness_dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """(value codes, remoteness) of a record array, remoteness in ``remoteness_dtype``
    with that dtype's maximum for "none" (the layout of database files)."""
    none = record_none(records.dtype)
    values = (records & VALUE_MASK).astype(np.uint8)
    distance = records >> VALUE_BITS
    missing = distance == none
    remoteness = distance.astype(remoteness_dtype)
    remoteness[missing] = np.iinfo(remoteness_dtype).max
    return values, remoteness


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
