"""Database files: the HDF5 format, the builders and the lookup library.

The library's surface, as python-chess's Syzygy probing: ``open_database`` and the
``Database`` it gives (``lookup`` raises, ``get`` does not), ``build_database``, and
one hierarchy of errors under ``TiersolveError``.

>>> from tiersolve.databases import build_database, open_database
>>> _ = build_database("northcott", "northcott_3x6.h5", rows=3, cols=6,
...                    progress=False)
>>> db = open_database("northcott_3x6.h5")
>>> db.lookup("(L 1L3R0 0L1R3 1L2R1)").value
'lose'
"""

from __future__ import annotations

import inspect
from typing import Any

from tiersolve.errors import (
    ClosedDatabaseError, DamagedDatabaseError, DatabaseError, DatabaseMismatchError, GameError,
    IllegalMoveError, ImpossiblePositionError, IndexRangeError, MalformedPositionError,
    MissingDatabaseError, OtherBoardError, PositionError, TiersolveError, UnreachedPositionError,
)

__all__ = ["VALUES", "Database", "DatabaseInfo", "Move", "Record", "default_path",
           "open_database", "build_database", "TiersolveError", "GameError", "PositionError",
           "MalformedPositionError", "OtherBoardError", "ImpossiblePositionError",
           "IllegalMoveError", "UnreachedPositionError", "IndexRangeError", "DatabaseError",
           "MissingDatabaseError", "DamagedDatabaseError", "DatabaseMismatchError",
           "ClosedDatabaseError"]


#: Names this package takes from the lookup library (tiersolve.databases.reader), which
#: is imported on first use, so ``import tiersolve.databases`` stays light.
_READER_NAMES = ("VALUES", "Database", "DatabaseInfo", "Move", "Record", "open_database")


def __getattr__(name: str) -> Any:
    """The lookup library's names, imported on first use."""
    if name in _READER_NAMES:
        from tiersolve.databases import reader

        return getattr(reader, name)
    if name == "default_path":
        from tiersolve.databases.naming import default_path

        return default_path
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_database(game, path=None, *, reachable: bool = False, **keywords):
    """Solve a game and write its database; returns the build's report.

    ``game`` is a Game, or a game's name whose options then come as keywords; the
    other keywords are those of the builder: ``tiersolve.databases.build.build_database``
    (``start``, ``threads``, ``progress``, ``overwrite``, ``workers``...), or with
    ``reachable=True``, which stores only the positions play reaches from the start
    (or from each of ``starts``), ``tiersolve.databases.reachable.build_reachable``.

    >>> report = build_database("1210", "1210.h5", progress=False)
    >>> report.start_value, report.start_remoteness
    ('win', 7)
    >>> build_database("1210", "1210.h5", workers=2, reachable=True)
    Traceback (most recent call last):
    ...
    TypeError: build_database(reachable=True) takes no workers
    """
    from tiersolve.databases.build import build_database as build_all
    from tiersolve.databases.reachable import build_reachable

    def settings(builder) -> set[str]:
        return {name for name, parameter in inspect.signature(builder).parameters.items()
                if parameter.kind == inspect.Parameter.KEYWORD_ONLY}

    builder = build_reachable if reachable else build_all
    if reachable and "start" in keywords:  # one start, as a full build takes it
        start = keywords.pop("start")
        keywords.setdefault("starts", None if start is None else [start])
    if isinstance(game, str):  # the keywords no builder takes are the game's options
        from tiersolve.games import make_game

        either = settings(build_all) | settings(build_reachable)
        game = make_game(game, **{k: v for k, v in keywords.items() if k not in either})
        keywords = {k: v for k, v in keywords.items() if k in either}
    unknown = sorted(set(keywords) - settings(builder))
    if unknown:
        raise TypeError(f"build_database(reachable={reachable}) takes no {', '.join(unknown)}")
    return builder(game, path, **keywords)
