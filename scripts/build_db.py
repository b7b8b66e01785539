#!/usr/bin/env python3
"""Strongly solve a game and write its HDF5 database.

    python scripts/build_db.py northcott --rows 3 --cols 6
    python scripts/build_db.py --help
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout too

from databases.cli import build_main  # noqa: E402

if __name__ == "__main__":
    sys.exit(build_main())
