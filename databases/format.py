"""The database file format (HDF5), version 1, and its writer.

One file per game, options and size. Layout (also in docs/FORMAT.md)::

    /value          uint8  [N]   value code per index: 0 illegal, 1 win, 2 lose, 3 tie, 4 draw
    /remoteness     uint8 or uint16 [N]   moves to the end; the dtype's maximum = none
    /tier_offsets   int64  [T+1] index where each tier starts (the last entry is N)
    /tier_keys      int64  [T, K] what identifies each tier (e.g. piece counts)

Both per-index datasets are chunked and gzip-compressed, so a lookup reads one chunk.
Root attributes name the format and version, the game and every option, the hash
scheme, counts per value, the start position with its value and remoteness, build
timings and the versions of the software that built it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import h5py
import numpy as np

from games.base import Game
from solver.bottom_up import remoteness_dtype
from solver.values import VALUE_NAMES

FORMAT_NAME = "gamesolver-database"
FORMAT_VERSION = 1
CHUNK_POSITIONS = 1 << 16
COMPRESSION = {"compression": "gzip", "compression_opts": 4, "shuffle": True}



def layout_attributes(game: Game) -> dict[str, Any]:
    """The attributes that must match between a file and the code reading it."""
    return {
        "game": game.name,
        "options": json.dumps(game.options, sort_keys=True),
        "hasher": json.dumps(game.hasher, sort_keys=True),
        "num_positions": game.size,
        "num_tiers": game.tiers.count,
    }


class DatabaseWriter:
    """Writes one database: create, ``write_tier`` as tiers are solved, ``finish``.

    The file is written under a temporary name and renamed by ``finish``, so an
    interrupted build never leaves a file that looks complete.
    """

    def __init__(self, path: str | os.PathLike, game: Game) -> None:
        self.path = Path(path)
        self.game = game
        self.partial = self.path.with_name(self.path.name + ".partial")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.file = h5py.File(self.partial, "w")
        size = game.size
        chunk = (max(1, min(CHUNK_POSITIONS, size)),)
        self.remoteness_dtype = remoteness_dtype(game)
        self.none_remoteness = int(np.iinfo(self.remoteness_dtype).max)
        self.values = self.file.create_dataset("value", shape=(size,), dtype=np.uint8,
                                               chunks=chunk, **COMPRESSION)
        self.remoteness = self.file.create_dataset("remoteness", shape=(size,),
                                                   dtype=self.remoteness_dtype, chunks=chunk,
                                                   **COMPRESSION)
        self.file.create_dataset("tier_offsets", data=game.tiers.offsets)
        keys = np.asarray(game.tiers.keys, dtype=np.int64).reshape(game.tiers.count, -1)
        self.file.create_dataset("tier_keys", data=keys)

    def write_tier(self, tier: int, values: np.ndarray, remoteness: np.ndarray) -> None:
        """Store one solved tier (remoteness uint8 or uint16, its dtype's maximum = none)."""
        start = int(self.game.tiers.offsets[tier])
        stop = start + len(values)
        self.values[start:stop] = values
        if remoteness.dtype != self.remoteness_dtype:
            none = remoteness == np.iinfo(remoteness.dtype).max
            if int(remoteness[~none].max(initial=0)) >= self.none_remoteness:
                raise OverflowError(f"remoteness beyond {self.none_remoteness - 1} in tier {tier}")
            remoteness = remoteness.astype(self.remoteness_dtype)
            remoteness[none] = self.none_remoteness
        self.remoteness[start:stop] = remoteness

    def finish(self, attributes: dict[str, Any]) -> Path:
        """Write the attributes, close, and move the file to its final name."""
        attrs = self.file.attrs
        attrs["format"] = FORMAT_NAME
        attrs["format_version"] = FORMAT_VERSION
        for key, value in layout_attributes(self.game).items():
            attrs[key] = value
        attrs["remoteness_none"] = self.none_remoteness
        attrs["value_codes"] = json.dumps({str(code): name for code, name in VALUE_NAMES.items()})
        for key, value in attributes.items():
            attrs[key] = value
        self.file.close()
        os.replace(self.partial, self.path)
        return self.path

    def abort(self) -> None:
        """Close and delete the partial file."""
        try:
            self.file.close()
        finally:
            self.partial.unlink(missing_ok=True)
