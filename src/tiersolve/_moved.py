"""Modules that moved, and what their old names do: import the new module, with a
DeprecationWarning that names it.

The commands (``cli``, ``play``, ``bench``), board drawing and the Pousse history
search moved out of ``tiersolve.databases`` to the package's root, and the Dask
cluster driver to ``tiersolve.solver`` (issue 20). Each old module is a two-line
file that calls :func:`alias_moved_module`, which puts the new module in its place in
``sys.modules``: ``tiersolve.databases.cli`` *is* ``tiersolve.cli``, so code that
patches or reads its attributes keeps working.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from types import ModuleType

#: Old module name -> where it lives now.
MOVED_MODULES = {
    "tiersolve.databases.cli": "tiersolve.cli",
    "tiersolve.databases.play": "tiersolve.play",
    "tiersolve.databases.bench": "tiersolve.bench",
    "tiersolve.databases.board": "tiersolve.board",
    "tiersolve.databases.history": "tiersolve.history",
    "tiersolve.databases.cluster": "tiersolve.solver.cluster",
}


def alias_moved_module(old: str) -> ModuleType:
    """Called by the module ``old`` as it is imported: warn, and make ``old`` the
    module it moved to (the warning points at the line that imported ``old``)."""
    new = MOVED_MODULES[old]
    # stacklevel 3: past this function and the old module, to the importing line
    # (Python skips the import machinery's own frames).
    warnings.warn(f"{old} has moved to {new}; import it from there (the old name will be "
                  "removed)", DeprecationWarning, stacklevel=3)
    module = importlib.import_module(new)
    sys.modules[old] = module
    return module
