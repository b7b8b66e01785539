"""Bit-board helpers shared by the hash schemes, the games and the solvers (numba,
int64 masks), and ``sort_unique`` for the short buffers of moves and un-moves.

Boards are int64 bit masks (bit ``c`` = cell ``c``), so boards have at most 64 cells;
bit 63 is the sign bit, so masks move down with ``shift_down`` (a logical shift),
never with ``>>``, and a full board is ``full_mask(cells)``.
``extract_bits`` and ``deposit_bits`` are the PEXT/PDEP operations: the processor's own
instructions where they are fast (``tiersolve.jit.FAST_PEXT``), else done a byte at a
time with 64 KiB lookup tables, which numba freezes into the compiled code
(``extract_bits_by_bytes``, ``deposit_bits_by_bytes``); ``permute``
moves every cell of a mask by a permutation (a mirror, a reversal) the same way, with
tables made by ``permutation_tables``.

>>> tables = permutation_tables([[2, 1, 0]], 3)      # mirror a 3-cell row
>>> permute(0b001, tables, 0) == 0b100
True
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from tiersolve.jit import FAST_PEXT, jit

MAX_CELLS = 64


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


@intrinsic
def _ctlz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


@jit(forceinline=True)
def shift_down(mask: int, count: int) -> int:
    """``mask`` shifted down by ``count`` bits, zeros coming in at the top (also for
    masks with bit 63 set, where ``>>`` would copy the sign bit).

    >>> shift_down(-1, 60)
    15
    """
    return np.int64(np.uint64(mask) >> np.uint64(count))


@jit(forceinline=True)
def full_mask(cells: int) -> int:
    """The mask of cells 0..cells-1 (every bit for 64 cells)."""
    if cells >= 64:
        return np.int64(-1)
    return (np.int64(1) << cells) - 1


def as_mask(value: int) -> np.int64:
    """A Python int of up to 64 bits as the int64 mask with the same bits."""
    return np.uint64(value & ((1 << 64) - 1)).view(np.int64) if value >= 0 else np.int64(value)


@jit(forceinline=True)
def popcount(mask: int) -> int:
    """Number of set bits of an int64 mask."""
    return _ctpop(np.int64(mask))


@jit(forceinline=True)
def lowest_bit(mask: int) -> int:
    """Index of the lowest set bit (64 for an empty mask)."""
    return _cttz(np.int64(mask))


@jit(forceinline=True)
def highest_bit(mask: int) -> int:
    """Index of the highest set bit of a non-zero mask (63 for bit 63).

    >>> highest_bit(0b10110), highest_bit(-1)
    (4, 63)
    """
    return 63 - _ctlz(np.int64(mask))


def _byte_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(popcount of each byte, PEXT table [mask, source], PDEP table [mask, source]),
    computed with numpy bit planes (a few milliseconds at import; a Python loop over
    the 65,536 pairs took a tenth of a second).

    >>> popcounts, extract, deposit = _byte_tables()
    >>> int(popcounts[0b1011]), int(extract[0b1110, 0b1010]), int(deposit[0b1110, 5])
    (3, 5, 10)
    """
    byte_values = np.arange(256, dtype=np.int64)
    bits = (byte_values[:, None] >> np.arange(8)) & 1         # bits[b, p]: bit p of byte b
    popcounts = bits.sum(axis=1)
    ranks = np.cumsum(bits, axis=1) - bits                    # ranks[m, p]: set bits of m below p
    extract = np.zeros((256, 256), dtype=np.int64)
    deposit = np.zeros((256, 256), dtype=np.int64)
    for position in range(8):
        in_mask = bits[:, position, None]                     # rows: masks
        rank = ranks[:, position, None]
        extract |= (in_mask & bits[None, :, position]) << rank
        deposit |= (in_mask & (byte_values[None, :] >> rank) & 1) << position
    deposit[byte_values[None, :] >= (1 << popcounts)[:, None]] = 0   # more bits than the mask has
    return popcounts, extract, deposit


BYTE_POPCOUNT, BYTE_EXTRACT, BYTE_DEPOSIT = _byte_tables()


@jit
def extract_bits_by_bytes(source: int, mask: int) -> int:
    """PEXT with the byte tables: the bits of ``source`` at the set positions of
    ``mask``, packed to the bottom.

    >>> extract_bits_by_bytes(0b1010, 0b1110)  # bits 1, 2, 3 of source are 1, 0, 1
    5
    """
    result = 0
    shift = 0
    while mask != 0:
        mask_byte = mask & 255
        result |= BYTE_EXTRACT[mask_byte, source & 255] << shift
        shift += BYTE_POPCOUNT[mask_byte]
        mask = shift_down(mask, 8)
        source = shift_down(source, 8)
    return result


@jit
def deposit_bits_by_bytes(source: int, mask: int) -> int:
    """PDEP with the byte tables: the low bits of ``source`` spread onto the set
    positions of ``mask``.

    >>> deposit_bits_by_bytes(5, 0b1110)
    10
    """
    result = 0
    shift = 0
    while mask != 0:
        mask_byte = mask & 255
        width = BYTE_POPCOUNT[mask_byte]
        result |= BYTE_DEPOSIT[mask_byte, source & ((1 << width) - 1)] << shift
        source = shift_down(source, width)
        shift += 8
        mask = shift_down(mask, 8)
    return result


def _bmi2(name: str):
    """An intrinsic for BMI2's ``llvm.x86.bmi.<name>.64`` on two int64s."""

    def typer(typingctx, source, mask):
        def codegen(context, builder, signature, args):
            kind = ir.IntType(64)
            function = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(kind, [kind, kind]), f"llvm.x86.bmi.{name}.64")
            return builder.call(function, args)

        return types.int64(types.int64, types.int64), codegen

    typer.__name__ = f"_{name}"
    return intrinsic(typer)


if FAST_PEXT:
    _pext, _pdep = _bmi2("pext"), _bmi2("pdep")

    @jit(forceinline=True)
    def extract_bits(source: int, mask: int) -> int:
        """PEXT: the bits of ``source`` at the set positions of ``mask``, packed to the bottom.

        >>> extract_bits(0b1010, 0b1110)  # bits 1, 2, 3 of source are 1, 0, 1
        5
        """
        return _pext(np.int64(source), np.int64(mask))

    @jit(forceinline=True)
    def deposit_bits(source: int, mask: int) -> int:
        """PDEP: the low bits of ``source`` spread onto the set positions of ``mask``.

        >>> deposit_bits(5, 0b1110)
        10
        """
        return _pdep(np.int64(source), np.int64(mask))
else:
    extract_bits, deposit_bits = extract_bits_by_bytes, deposit_bits_by_bytes


def permutation_tables(permutations: Sequence[Sequence[int]], cells: int) -> np.ndarray:
    """Tables for ``permute``: ``permutations[s][c]`` is where cell ``c`` goes."""
    byte_positions = max(1, (cells + 7) // 8)
    tables = np.zeros((max(len(permutations), 1), byte_positions, 256), dtype=np.int64)
    for s, permutation in enumerate(permutations):
        if sorted(permutation) != list(range(cells)):
            raise ValueError(f"permutation {s} is not a permutation of {cells} cells")
        byte_values = np.arange(256, dtype=np.int64)
        for cell, image in enumerate(permutation):
            position, bit = divmod(cell, 8)
            tables[s, position] |= ((byte_values >> bit) & 1) << np.int64(image)
    return tables


@jit(forceinline=True)
def permute(mask: int, tables: np.ndarray, which: int) -> int:
    """The image of ``mask`` under permutation ``which``."""
    image = 0
    position = 0
    while mask != 0:
        image |= tables[which, position, mask & 255]
        mask = shift_down(mask, 8)
        position += 1
    return image


@jit(forceinline=True)
def copy_into(target, source):
    """``target[:] = source`` for 1-d arrays of one length, element by element.

    A slice would take a reference to a view, which ``expand`` and ``parents`` may not
    do (they run uncounted); and numba compiles an array's slice assignment with a
    formatted error message for shapes that differ, which costs seconds of compiling
    in every fresh process.

    >>> target = np.zeros(3, np.int64)
    >>> copy_into(target, np.array([4, 5, 6]))
    >>> target
    array([4, 5, 6])
    """
    for i in range(source.shape[0]):
        target[i] = source[i]


@jit(forceinline=True)
def sort_unique(buffer, count):
    """Sort buffer[:count] in place (insertion sort: it is short) and drop repeats;
    returns the number of distinct entries."""
    for i in range(1, count):
        item = buffer[i]
        j = i - 1
        while j >= 0 and buffer[j] > item:
            buffer[j + 1] = buffer[j]
            j -= 1
        buffer[j + 1] = item
    distinct = 0
    for i in range(count):
        if distinct == 0 or buffer[i] != buffer[distinct - 1]:
            buffer[distinct] = buffer[i]
            distinct += 1
    return distinct
