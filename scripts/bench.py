#!/usr/bin/env python3
"""Benchmark database builds (the same as ``tiersolve bench``).

    python scripts/bench.py "ttt --rows 3 --cols 3"           # chosen cases
    python scripts/bench.py --help                            # the sets of cases
"""

import sys

from _installed import require_tiersolve

if __name__ == "__main__":
    require_tiersolve("bench.py")
    from tiersolve.cli import run_command

    sys.exit(run_command("bench", sys.argv[1:], "bench.py"))
