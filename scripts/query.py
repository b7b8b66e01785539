#!/usr/bin/env python3
"""Look up a position in a database: value, remoteness and every move, best first
(the same as ``tiersolve query``).

    python scripts/query.py db/northcott_3x6.h5 "(L 1L3R0 0L1R3 1L2R1)"
    python scripts/query.py --help
"""

import sys

from _installed import require_tiersolve

if __name__ == "__main__":
    require_tiersolve("query.py")
    from tiersolve.cli.startup import tune_command_line_process

    tune_command_line_process()  # before numba loads: docs/PROFILE.md
    from tiersolve.cli import run_command

    sys.exit(run_command("query", sys.argv[1:], "query.py"))
