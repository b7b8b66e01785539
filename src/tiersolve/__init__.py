"""tiersolve: strongly solve small two-player abstract games, tier by tier, into HDF5
databases, and look positions up in them.

The package reads as layers, each importing only those below it
(docs/ARCHITECTURE.md draws them):

1. the bottom, this package's own modules: ``jit`` (numba with a disk cache, kernel
   templates), ``values`` (value codes), ``contract`` (what a game and a solver
   exchange), ``bits`` (bit-board helpers) and ``errors``;
2. ``tiersolve.hashers``: perfect hashes from positions to indices;
3. ``tiersolve.games``: the rules, one module a game, and the game contract;
4. ``tiersolve.solver``: the numba kernels and the tier driver;
5. ``tiersolve.databases``: the HDF5 format, the builders, the lookup library and
   the Dask driver;
6. ``tiersolve.openspiel``: OpenSpiel's games as positions, a tablebase bot and
   agents judged (the extra ``openspiel``; nothing below imports it);
7. ``tiersolve.cli``: the ``tiersolve`` command and its subcommands.

>>> from tiersolve.databases import open_database
>>> from tiersolve.games import make_game
>>> make_game("northcott", rows=3, cols=6).describe()
'northcott 3x6'
"""

__version__ = "0.3.0"
