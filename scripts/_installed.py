"""What each script does first: find the installed tiersolve, or say in one line how
to install it.

The scripts run the installed package (the README's set-up installs this checkout in
editable mode); they do not put the checkout on ``sys.path``, which would mix its
files with another install's. When the tiersolve found is another checkout's, a note
says so, since edits here would then not run.
"""

import sys
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent


def require_tiersolve(script: str) -> None:
    """Exit with code 2 and one line if tiersolve is not importable; note on stderr
    when it comes from another checkout than this script's."""
    try:
        import tiersolve
    except ImportError:
        print(f"{script}: error: tiersolve is not installed; in {CHECKOUT} run: "
              "pip install -e .", file=sys.stderr)
        raise SystemExit(2) from None
    # An editable install imports tiersolve from its checkout (src/tiersolve, or
    # tiersolve/ in older versions); a plain install from site-packages.
    package = Path(tiersolve.__file__).resolve().parent
    roots = [folder for folder in package.parents[:2] if (folder / "pyproject.toml").is_file()]
    if roots and roots[0] != CHECKOUT:
        root = roots[0]
        print(f"{script}: note: running the tiersolve installed from {root}, not this "
              f"checkout's; pip install -e {CHECKOUT} runs this one", file=sys.stderr)
