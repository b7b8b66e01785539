#!/usr/bin/env python3
"""What a large database holds, for the landmark table (docs/BENCHMARKS.md): its
positions and values, the start's value and every move from it, the longest
remoteness with one position that has it, and the file's size.

    python scripts/landmark_report.py db/loa_5x5_symmetry.h5
    python scripts/landmark_report.py db/a.h5 --compare db/b.h5 --samples 1000000

``--compare`` draws random legal positions of the first database and looks each up
in both (for instance a build with and one without ``--symmetry``): every value and
remoteness must agree. The files are read a block at a time, so a database of
billions of positions needs no more memory than a block.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from _installed import require_tiersolve

require_tiersolve("landmark_report.py")

import numpy as np  # noqa: E402

from tiersolve.databases import open_database  # noqa: E402

#: Indices read at a time.
BLOCK = 1 << 26
#: Value codes of win and lose (the values that have a remoteness and a longest one).
WIN, LOSE = 1, 2


def longest(db) -> tuple[int, int]:
    """(the largest remoteness, the first index that has it)."""
    best, where = -1, -1
    for start in range(0, db.size, BLOCK):
        remoteness = db.remoteness_array(start, min(start + BLOCK, db.size))
        top = int(remoteness.max(initial=-1))
        if top > best:
            best, where = top, start + int(np.argmax(remoteness))
    return best, where


def report(path: str) -> dict:
    db = open_database(path)
    best, where = longest(db)
    start = db.lookup(db.start)
    return {
        "file": str(path), "game": db.game.describe(), "positions": db.size,
        "counts": db.counts(), "start": db.start, "start_value": start.value,
        "start_remoteness": start.remoteness,
        "start_moves": [(m.move, m.value, m.remoteness) for m in db.moves(db.start)],
        "longest_remoteness": best,
        "longest_position": db.positions(np.array([where]))[0] if where >= 0 else None,
        "longest_value": db.lookup(db.positions(np.array([where]))[0]).value if where >= 0 else None,
        "file_bytes": Path(path).stat().st_size,
    }


def compare(first: str, second: str, samples: int, seed: int = 1) -> dict:
    """Random legal positions of ``first`` looked up in both databases."""
    a, b = open_database(first), open_database(second)
    rng = np.random.default_rng(seed)
    checked = differ = 0
    while checked < samples:
        indices = np.unique(rng.integers(0, a.size, size=min(samples, 1 << 20)))
        values, remoteness = a.lookup_indices(indices)
        legal = (values != 0) & (values != 5)  # not illegal, not a mirror image's index
        indices, values, remoteness = indices[legal], values[legal], remoteness[legal]
        indices, values, remoteness = (x[:samples - checked] for x in (indices, values, remoteness))
        states = a.decode(indices)
        other_values, other_remoteness = b.lookup_indices(b.game.encode_many(states))
        differ += int(np.count_nonzero((values != other_values) | (remoteness != other_remoteness)))
        checked += len(indices)
    return {"first": first, "second": second, "positions_compared": checked, "differences": differ}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False,
                                     description=__doc__.split("\n\n")[0],
                                     epilog="example: python scripts/landmark_report.py "
                                            "db/northcott_3x6.h5")
    parser.add_argument("database", help="a database file")
    parser.add_argument("--compare", metavar="OTHER", help="a database of the same game to compare with")
    parser.add_argument("--samples", type=int, default=1_000_000, help="positions to compare")
    args = parser.parse_args(argv)
    if args.compare:
        result = compare(args.database, args.compare, args.samples)
    else:
        result = report(args.database)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
