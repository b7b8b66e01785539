"""Database files: the HDF5 format, the builder and the lookup library.

>>> from tiersolve.databases import build_database, open_database
>>> _ = build_database("northcott", "/tmp/doctest_northcott_3x6.h5", rows=3, cols=6,
...                    progress=False)
>>> db = open_database("/tmp/doctest_northcott_3x6.h5")
>>> db.lookup("(L 1L3R0 0L1R3 1L2R1)").value
'lose'
"""

from tiersolve.databases.reader import (VALUES, Database, DatabaseInfo, Move, Record, default_path,
                                        open_database)
from tiersolve.errors import (ClosedDatabaseError, DamagedDatabaseError, DatabaseError,
                              DatabaseMismatchError, IllegalMoveError, ImpossiblePositionError,
                              MalformedPositionError, MissingDatabaseError, OtherBoardError,
                              PositionError, TiersolveError)

__all__ = ["VALUES", "Database", "DatabaseInfo", "Move", "Record", "default_path",
           "open_database", "build_database", "TiersolveError", "PositionError",
           "MalformedPositionError", "OtherBoardError", "ImpossiblePositionError",
           "IllegalMoveError", "DatabaseError", "MissingDatabaseError", "DamagedDatabaseError",
           "DatabaseMismatchError", "ClosedDatabaseError"]


def build_database(game, path=None, **kwargs):
    """Solve a game and write its database; ``game`` is a Game or a game name, whose
    options then come as keywords (see ``tiersolve.databases.build.build_database``).

    >>> report = build_database("1210", "/tmp/doctest_1210.h5", progress=False)
    >>> report.start_value, report.start_remoteness
    ('win', 7)
    """
    from tiersolve.databases.build import build_database as build
    from tiersolve.games import make_game

    if isinstance(game, str):
        settings = {"start", "threads", "progress", "force", "restart", "overwrite"}
        options = {k: v for k, v in kwargs.items() if k not in settings}
        kwargs = {k: v for k, v in kwargs.items() if k in settings}
        game = make_game(game, **options)
    return build(game, path, **kwargs)
