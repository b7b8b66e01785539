"""Database files: the HDF5 format, the builder and the lookup library.

>>> from tiersolve.databases import build_database, open_database
>>> _ = build_database("northcott", "northcott_3x6.h5", rows=3, cols=6,
...                    progress=False)
>>> db = open_database("northcott_3x6.h5")
>>> db.lookup("(L 1L3R0 0L1R3 1L2R1)").value
'lose'
"""

from typing import Any

from tiersolve.errors import (ClosedDatabaseError, DamagedDatabaseError, DatabaseError,
                              DatabaseMismatchError, GameError, IllegalMoveError,
                              ImpossiblePositionError, IndexRangeError, MalformedPositionError,
                              MissingDatabaseError, OtherBoardError, PositionError, TiersolveError,
                              UnreachedPositionError)

__all__ = ["VALUES", "Database", "DatabaseInfo", "Move", "Record", "default_path",
           "open_database", "build_database", "TiersolveError", "GameError", "PositionError",
           "MalformedPositionError", "OtherBoardError", "ImpossiblePositionError",
           "IllegalMoveError", "UnreachedPositionError", "IndexRangeError", "DatabaseError",
           "MissingDatabaseError", "DamagedDatabaseError", "DatabaseMismatchError",
           "ClosedDatabaseError"]


#: Names this package takes from the lookup library (tiersolve.databases.reader), which
#: is imported on first use, so ``import tiersolve.databases`` stays light.
_READER_NAMES = ("VALUES", "Database", "DatabaseInfo", "Move", "Record", "default_path",
                 "open_database")


def __getattr__(name: str) -> Any:
    """The lookup library's names, imported from ``reader`` on first use."""
    if name in _READER_NAMES:
        from tiersolve.databases import reader

        return getattr(reader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_database(game, path=None, **kwargs):
    """Solve a game and write its database; ``game`` is a Game or a game name, whose
    options then come as keywords (see ``tiersolve.databases.build.build_database``).
    ``reachable=True`` solves and stores only the positions play reaches from the
    start, or from each of ``starts`` (``tiersolve.databases.reachable``).

    >>> report = build_database("1210", "1210.h5", progress=False)
    >>> report.start_value, report.start_remoteness
    ('win', 7)
    """
    from tiersolve.databases.build import build_database as build
    from tiersolve.databases.reader import make_game_or_fail

    settings = {"start", "starts", "threads", "progress", "force", "restart", "overwrite",
                "reachable", "workers", "scheduler", "work_dir"}
    if isinstance(game, str):
        options = {k: v for k, v in kwargs.items() if k not in settings}
        kwargs = {k: v for k, v in kwargs.items() if k in settings}
        game = make_game_or_fail(game, **options)
    if kwargs.pop("reachable", False):  # only what play reaches from the start(s)
        from tiersolve.databases.reachable import build_reachable

        starts = kwargs.pop("starts", None) or ([kwargs.pop("start")] if kwargs.get("start") else None)
        kept = {k: v for k, v in kwargs.items()
                if k in ("progress", "overwrite", "force", "restart", "threads")}
        return build_reachable(game, path, starts=starts, **kept)
    return build(game, path, **kwargs)
