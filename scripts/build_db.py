#!/usr/bin/env python3
"""Strongly solve a game and write its HDF5 database.

    python scripts/build_db.py northcott --rows 3 --cols 6
    python scripts/build_db.py --help
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout too

from tiersolve.startup import tune_command_line_process  # noqa: E402

if __name__ == "__main__":
    tune_command_line_process()  # before numba loads: docs/PROFILE.md

from tiersolve.databases.cli import EXIT_INTERRUPTED, build_main, run  # noqa: E402

if __name__ == "__main__":
    code = run(build_main)
    if code == EXIT_INTERRUPTED:  # do not wait for solver threads still running a kernel
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)
