#!/usr/bin/env python3
"""Strongly solve a game and write its HDF5 database (the same as ``tiersolve build``).

    python scripts/build_db.py northcott --rows 3 --cols 6
    python scripts/build_db.py --help
"""

import sys

from _installed import require_tiersolve

if __name__ == "__main__":
    require_tiersolve("build_db.py")
    from tiersolve.cli.startup import tune_command_line_process

    tune_command_line_process()  # before numba loads: docs/PROFILE.md
    from tiersolve.cli import run_command

    sys.exit(run_command("build", sys.argv[1:], "build_db.py"))
