"""Mixed radix: a bijection between digit vectors ``0 <= d[i] < radix[i]`` and
``0..prod(radix)-1``, the first digit most significant.

Used for positions made of independent parts: Northcott's rows, the squares of
Knight's Dance's pieces, a turn bit.

>>> import numpy as np
>>> radices = np.array([3, 4, 2])
>>> rank_digits(np.array([2, 1, 1]), radices)
19
>>> out = np.zeros(3, np.int64); unrank_digits(19, radices, out); out.tolist()
[2, 1, 1]
"""

from __future__ import annotations

import numpy as np

from tiersolve.jit import jit


def digits_count(radices) -> int:
    """How many digit vectors there are (the product of the radices, as a Python int)."""
    total = 1
    for radix in radices:
        total *= int(radix)
    return total


@jit(forceinline=True)
def rank_digits(digits: np.ndarray, radices: np.ndarray) -> int:
    """The index of a digit vector."""
    index = 0
    for i in range(radices.shape[0]):
        index = index * radices[i] + digits[i]
    return index


@jit(forceinline=True)
def unrank_digits(index: int, radices: np.ndarray, out: np.ndarray) -> None:
    """Write the digit vector of ``index`` into ``out``."""
    for i in range(radices.shape[0] - 1, -1, -1):
        out[i] = index % radices[i]
        index //= radices[i]
