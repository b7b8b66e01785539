#!/usr/bin/env python3
"""Look up a position in a database: value, remoteness and every move, best first.

    python scripts/query.py db/northcott_3x6.h5 "(L 1L3R0 0L1R3 1L2R1)"
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout too

from tiersolve.startup import tune_command_line_process  # noqa: E402

if __name__ == "__main__":
    tune_command_line_process()  # before numba loads: docs/PROFILE.md

from tiersolve.databases.cli import query_main, run  # noqa: E402

if __name__ == "__main__":
    sys.exit(run(query_main))
