"""``python -m tiersolve``: the same as the ``tiersolve`` command."""

import sys

from tiersolve.cli import main

sys.exit(main())
