"""The errors a user of tiersolve can meet, all under ``ValueError``.

Catch ``TiersolveError`` for all of them, or a branch for one kind::

    TiersolveError(ValueError)
    ├── GameError                     an unknown game, or options it does not take
    ├── PositionError                 a position text or move that cannot be answered
    │   ├── MalformedPositionError    not in the game's notation
    │   │   └── OtherBoardError       a position of another board size or game
    │   ├── ImpossiblePositionError   well formed, but no play reaches it
    │   ├── UnreachedPositionError    legal, but not in a --reachable database
    │   ├── IllegalMoveError          not the name of a legal move there
    │   └── IndexRangeError           an index outside the index space (also an IndexError)
    └── DatabaseError                 a database file that cannot be used
        ├── MissingDatabaseError      no such file (also a FileNotFoundError)
        ├── DamagedDatabaseError      not a database, or its data fails its checksums
        ├── DatabaseMismatchError     of another game, options or index layout
        └── ClosedDatabaseError       used after ``close()``

>>> issubclass(OtherBoardError, ValueError), issubclass(MissingDatabaseError, FileNotFoundError)
(True, True)
>>> issubclass(IndexRangeError, IndexError), issubclass(GameError, TiersolveError)
(True, True)
"""

from __future__ import annotations


class TiersolveError(ValueError):
    """Every error of tiersolve that comes from what a user asked for."""


class GameError(TiersolveError):
    """An unknown game name, or options the game does not have or cannot take (a board
    too large, a line longer than the board)."""


class PositionError(TiersolveError):
    """A position (or a move from it) that cannot be answered."""


class MalformedPositionError(PositionError):
    """Text that is not a position in the game's notation."""


class OtherBoardError(MalformedPositionError):
    """A position of another board size or another game than the database's."""


class ImpossiblePositionError(PositionError):
    """A well-formed position that no sequence of legal moves reaches."""


class UnreachedPositionError(PositionError):
    """A legal position that a ``--reachable`` database does not hold: play from its
    starts never reaches it."""


class IllegalMoveError(PositionError):
    """A move name that is not one of the legal moves of the position."""


class IndexRangeError(PositionError, IndexError):
    """An index outside the database's index space, 0 to its size - 1."""


class DatabaseError(TiersolveError):
    """A database file that cannot be used."""


class MissingDatabaseError(DatabaseError, FileNotFoundError):
    """No database file where one was asked for."""


class DamagedDatabaseError(DatabaseError):
    """A file that is not a readable database, or whose data fails its checksums."""


class DatabaseMismatchError(DatabaseError):
    """A database of another game, other options, or another index layout."""


class ClosedDatabaseError(DatabaseError):
    """A database used after it was closed."""


__all__ = ["TiersolveError", "GameError", "PositionError", "MalformedPositionError",
           "OtherBoardError", "ImpossiblePositionError", "UnreachedPositionError",
           "IllegalMoveError", "IndexRangeError", "DatabaseError", "MissingDatabaseError",
           "DamagedDatabaseError", "DatabaseMismatchError", "ClosedDatabaseError"]
