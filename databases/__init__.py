"""Database files: the HDF5 format, the builder and the lookup library.

>>> from databases import open_database                       # doctest: +SKIP
>>> db = open_database("db/northcott_3x6.h5")                  # doctest: +SKIP
>>> db.lookup("(L 1L3R0 0L1R3 1L2R1)").value                   # doctest: +SKIP
'lose'
"""

from databases.reader import VALUES, Database, Move, Record, default_path, open_database

__all__ = ["VALUES", "Database", "Move", "Record", "default_path", "open_database",
           "build_database"]


def build_database(*args, **kwargs):
    """Solve a game and write its database (see ``databases.build.build_database``)."""
    from databases.build import build_database as build

    return build(*args, **kwargs)
