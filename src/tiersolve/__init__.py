"""tiersolve: strongly solve small two-player abstract games, tier by tier, into HDF5
databases, and look positions up in them.

The package reads as layers, each using only those before it:

* ``tiersolve.games``: the rules, one module a game (``games/`` in the repository);
* ``tiersolve.hashers``: perfect hashes from positions to indices (``hashers/``);
* ``tiersolve.solver``: the numba kernels and tier drivers, in this process or on a
  Dask cluster (``solver/``);
* ``tiersolve.databases``: the HDF5 format, its writer and builder, and the lookup
  library (``databases/``);
* the commands and what they show, in this folder (``src/tiersolve/``): ``cli`` (the
  ``tiersolve`` command), ``play``, ``bench``, ``board`` (boards drawn for the
  terminal and Jupyter) and ``history`` (Pousse's repetition rule over a database).

The repository keeps the library's folders at its top level; ``pyproject.toml`` maps
them into this package, so installed they never clash with the PyPI projects called
``databases`` or ``solver``.

>>> from tiersolve.databases import open_database
>>> from tiersolve.games import make_game
>>> make_game("northcott", rows=3, cols=6).describe()
'northcott 3x6'
"""

from __future__ import annotations

__version__ = "0.2.0"
