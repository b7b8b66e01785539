"""Tiers: a position space cut into numbered parts, each indexed 0..size-1 by its own
hash, laid end to end into one global index (the index of the database arrays).

A game's moves go from a tier to itself or to other tiers; the solver uses the
tier graph to solve tiers in dependency order and to keep only a few in memory.

>>> layout = TierLayout(keys=[(0,), (1,), (2,)], sizes=[1, 4, 6])
>>> layout.size, layout.global_index(2, 3), layout.locate(8)
(11, 8, (2, 3))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np


@dataclass(frozen=True)
class TierLayout:
    """Tier keys (what identifies a tier, e.g. piece counts) and sizes."""

    keys: Sequence[tuple[int, ...]]
    sizes: Sequence[int]
    offsets: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.keys) != len(self.sizes):
            raise ValueError("one size per tier key")
        total = sum(int(size) for size in self.sizes)
        if total >= 1 << 62:
            raise ValueError(f"{total:.2e} positions are too many to index (at most 4.6e18)")
        offsets = np.zeros(len(self.sizes) + 1, dtype=np.int64)
        offsets[1:] = np.cumsum(np.asarray(self.sizes, dtype=np.int64))
        object.__setattr__(self, "offsets", offsets)

    @property
    def count(self) -> int:
        """Number of tiers."""
        return len(self.sizes)

    @property
    def size(self) -> int:
        """Number of indices in all tiers together."""
        return int(self.offsets[-1])

    def global_index(self, tier: int, local: int) -> int:
        """The global index of ``local`` in ``tier``."""
        return int(self.offsets[tier]) + int(local)

    def locate(self, index: int) -> tuple[int, int]:
        """(tier, local index) of a global index."""
        if not 0 <= index < self.size:
            raise IndexError(f"index {index} outside 0..{self.size - 1}")
        tier = int(np.searchsorted(self.offsets, index, side="right")) - 1
        return tier, int(index - self.offsets[tier])

    def locate_many(self, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Vectorised ``locate``: arrays of tiers and local indices."""
        indices = np.asarray(indices, dtype=np.int64)
        if indices.size and (indices.min() < 0 or indices.max() >= self.size):
            raise IndexError(f"indices must lie in 0..{self.size - 1}")
        tiers = np.searchsorted(self.offsets, indices, side="right") - 1
        return tiers, indices - self.offsets[tiers]
