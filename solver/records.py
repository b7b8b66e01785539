"""Packed records: how the solvers hold a solved position (the value codes are
``tiersolve.values``).

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

from tiersolve.jit import jit
from tiersolve.values import LOSE, VALUE_BITS, VALUE_MASK  # noqa: F401 (LOSE: the doctest)


def record_dtype(remoteness_bound: int | None) -> np.dtype:
    """uint8 records when the game bounds every remoteness by 30, else uint16."""
    if remoteness_bound is not None and remoteness_bound < record_none(np.dtype(np.uint8)):
        return np.dtype(np.uint8)
    return np.dtype(np.uint16)


def record_none(dtype: np.dtype) -> int:
    """The remoteness field meaning "none" in records of ``dtype`` (31 or 8191)."""
    return int(np.iinfo(dtype).max) >> VALUE_BITS


@jit(forceinline=True)
def pack_record(value, remoteness):
    """One record from a value code and a remoteness (already clipped to the dtype)."""
    return (remoteness << VALUE_BITS) | value


@jit(forceinline=True)
def unpack_value(record):
    return record & VALUE_MASK


@jit(forceinline=True)
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
