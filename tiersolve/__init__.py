"""tiersolve: strongly solve small two-player abstract games, tier by tier, into HDF5
databases, and look positions up in them.

The repository keeps its folders at the top level (``games/``, ``hashers/``,
``solver/``, ``databases/``); installed, they are the subpackages ``tiersolve.games``,
``tiersolve.hashers``, ``tiersolve.solver`` and ``tiersolve.databases``, so they never
clash with the PyPI projects called ``databases`` or ``solver``.

>>> from tiersolve.databases import open_database
>>> from tiersolve.games import make_game
>>> make_game("northcott", rows=3, cols=6).describe()
'northcott 3x6'
"""

from __future__ import annotations

import os as _os

_HERE = _os.path.dirname(_os.path.abspath(__file__))
_CHECKOUT = _os.path.dirname(_HERE)
# In a checkout that is not installed (or installed in editable mode), the subpackages
# are this folder's siblings; an installed wheel has them inside this folder instead.
if (not _os.path.isdir(_os.path.join(_HERE, "games"))
        and _os.path.isfile(_os.path.join(_CHECKOUT, "games", "__init__.py"))
        and _os.path.isfile(_os.path.join(_CHECKOUT, "pyproject.toml"))):
    __path__.append(_CHECKOUT)  # type: ignore[name-defined]  # noqa: F821

__version__ = "0.2.0"
