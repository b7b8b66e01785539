#!/usr/bin/env python3
"""Benchmark database builds (the same as ``tiersolve bench``).

    python scripts/bench.py                                  # the standard cases (minutes)
    python scripts/bench.py "ttt --rows 4 --cols 4" --json   # chosen cases, JSON output
    python scripts/bench.py --help
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout too

from tiersolve.databases.bench import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
