"""The lookup library: open a database file and ask about positions.

>>> from databases import open_database                       # doctest: +SKIP
>>> db = open_database("db/northcott_3x6.h5")                  # doctest: +SKIP
>>> db.lookup("(L 1L3R0 0L1R3 1L2R1)")                         # doctest: +SKIP
Record(position='(L 1L3R0 0L1R3 1L2R1)', value='lose', remoteness=6)
>>> [m.move for m in db.moves("(L 1L3R0 0L1R3 1L2R1)")][:2]    # doctest: +SKIP
['L row 1 forward 1', 'L row 1 forward 2']
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import h5py
import numpy as np

from games import make_game
from games.base import Game
from solver.values import DRAW, ILLEGAL, LOSE, TIE, VALUE_NAMES, WIN, flipped
from databases.format import FORMAT_NAME, FORMAT_VERSION, layout_attributes

#: Value names by code (index = code stored in the ``value`` dataset).
VALUES = tuple(VALUE_NAMES[code] for code in range(len(VALUE_NAMES)))


class DamagedDatabaseError(ValueError):
    """A database file whose data or checksums do not read back (damaged on disk)."""


@dataclass(frozen=True)
class Record:
    """A position's value (for the player to move) and remoteness (None for a draw)."""

    position: str
    value: str
    remoteness: int | None


@dataclass(frozen=True)
class Move:
    """A legal move, the position it leads to, and that position's value and remoteness
    from the point of view of the player to move there."""

    move: str
    position: str
    value: str
    remoteness: int | None
    same_mover: bool = False


def default_directory() -> Path:
    """Where databases go by default: ``$GAMESOLVER_DB_DIR``, else ``./db``."""
    return Path(os.environ.get("GAMESOLVER_DB_DIR", "db"))


def default_path(game: Game) -> Path:
    """The default file of a game instance, e.g. ``db/northcott_3x6_backward.h5``."""
    return default_directory() / f"{game.label()}.h5"


def open_database(path_or_game: str | os.PathLike, **options: Any) -> "Database":
    """Open a database file by path, or by game name and options (default folder).

    >>> db = open_database("northcott", rows=3, cols=6)   # db/northcott_3x6.h5  # doctest: +SKIP
    """
    path = Path(path_or_game)
    if not options and (path.suffix in (".h5", ".hdf5") or path.exists()):
        return Database(path)
    game = make_game(str(path_or_game), **options)
    candidate = default_path(game)
    if not candidate.exists():
        raise FileNotFoundError(f"no database for {game.describe()} at {candidate}; build it "
                                f"with: python scripts/build_db.py {game.name} ...")
    return Database(candidate)


class Database:
    """An open database file. Use :func:`open_database`."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise FileNotFoundError(f"no such database file: {self.path}")
        try:
            self._file = h5py.File(self.path, "r", rdcc_nbytes=32 << 20)
        except OSError:
            raise DamagedDatabaseError(f"{self.path} is not a readable database file (damaged, "
                                       "or not HDF5); rebuild it") from None
        attrs = self._file.attrs
        if attrs.get("format") != FORMAT_NAME:
            self.close()
            raise ValueError(f"{self.path} is not a {FORMAT_NAME} file (format attribute "
                             f"{attrs.get('format')!r})")
        version = int(attrs.get("format_version", -1))
        if version != FORMAT_VERSION:
            self.close()
            raise ValueError(f"{self.path} has format version {version}; this software reads "
                             f"version {FORMAT_VERSION} only: rebuild the database")
        try:
            self.game = make_game(str(attrs["game"]), **json.loads(attrs["options"]))
        except (KeyError, ValueError) as error:
            self.close()
            raise ValueError(f"{self.path}: cannot rebuild its game ({error})") from None
        for key, value in layout_attributes(self.game).items():
            if _plain(attrs.get(key)) != value:
                self.close()
                raise ValueError(f"{self.path} was built with a different index layout "
                                 f"({key}: file {attrs.get(key)!r}, this software {value!r}); "
                                 "rebuild the database")
        if not np.array_equal(self._file["tier_offsets"][()], self.game.tiers.offsets):
            self.close()
            raise ValueError(f"{self.path}: tier offsets differ from this software's; rebuild")
        self._values = self._file["value"]
        self._remoteness = self._file["remoteness"]
        self.none_remoteness = int(attrs["remoteness_none"])

    # -- context manager and housekeeping ---------------------------------------------
    def __enter__(self) -> "Database":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if getattr(self, "_file", None) is not None:
            self._file.close()

    def __repr__(self) -> str:
        return f"<Database {self.game.describe()} at {str(self.path)!r}>"

    @property
    def attributes(self) -> dict[str, Any]:
        """Every root attribute of the file (format, options, counts, build info...)."""
        return {key: _plain(value) for key, value in self._file.attrs.items()}

    @property
    def size(self) -> int:
        """Number of indices (legal and illegal) in the file."""
        return self.game.size

    @property
    def start(self) -> str:
        """The start position recorded when the database was built."""
        return str(self._file.attrs["start_position"])

    # -- single positions -------------------------------------------------------------
    def index(self, position: str) -> int:
        """The index of a position text; ValueError if malformed or of another game/size."""
        return self.game.index(self.game.parse(position))

    def _results(self, states: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Value codes and remoteness (-1 = none) of state vectors; finished games the
        index leaves out are answered from the rules (remoteness 0)."""
        states = np.array(states, dtype=np.int64).reshape(-1, self.game.state_size)
        codes = self.game.terminal_many(states).astype(np.uint8)
        distances = np.zeros(len(states), dtype=np.int32)
        stored = codes == 0
        if stored.any():
            codes[stored], distances[stored] = self.lookup_indices(self.game.encode_many(states[stored]))
        return codes, distances

    def lookup(self, position: str) -> Record:
        """Value and remoteness of a position text.

        Raises ValueError for a malformed position, one of another size, or one that
        cannot arise in play."""
        state = self.game.parse(position)
        (code,), (distance,) = self._results([state])
        if code == ILLEGAL:
            raise ValueError(f"{position!r} is not a legal {self.game.title} position: "
                             f"{self.game.explain_illegal(state)}")
        return Record(self.game.format(state), VALUES[code], None if distance < 0 else int(distance))

    def lookup_many(self, positions: Iterable[str]) -> tuple[np.ndarray, np.ndarray]:
        """Value codes (uint8; names in ``VALUES``, 0 = illegal) and remoteness (int32,
        -1 = none) of many position texts; ValueError if one is malformed."""
        return self._results([self.game.parse(text) for text in positions])

    def moves(self, position: str) -> list[Move]:
        """Every legal move from a position with the value of the position it leads to
        (from the view of the player who moves there), best move first."""
        self.lookup(position)  # validates the position
        state = self.game.parse(position)
        children = self.game.children(state)
        codes, distances = self._results([child.state for child in children])
        result = [Move(child.move, self.game.format(child.state), VALUES[int(code)],
                       None if distance < 0 else int(distance), child.same_mover)
                  for child, code, distance in zip(children, codes, distances)]
        order = sorted(range(len(result)), key=lambda i: _preference(result[i]))
        return [result[i] for i in order]

    # -- bulk access: numpy in, numpy out ----------------------------------------------
    def counts(self) -> dict[str, int]:
        """How many positions have each value: {"win": .., "lose": .., "tie": .., "draw": ..}."""
        return {name: int(self._file.attrs[f"count_{name}"]) for name in ("win", "lose", "tie", "draw")}

    def _read(self, dataset, key) -> np.ndarray:
        """``dataset[key]``, or DamagedDatabaseError if a checksum or the data fails."""
        try:
            return dataset[key]
        except OSError:
            raise DamagedDatabaseError(f"{self.path} is damaged: the {dataset.name.lstrip('/')} "
                                       "data fails its checksum; rebuild the database") from None

    def value_array(self, start: int = 0, stop: int | None = None) -> np.ndarray:
        """Value codes (uint8; names in ``VALUES``) of indices start..stop-1."""
        return self._read(self._values, slice(start, stop))

    def remoteness_array(self, start: int = 0, stop: int | None = None) -> np.ndarray:
        """Remoteness of indices start..stop-1 as int32, -1 where there is none."""
        raw = self._read(self._remoteness, slice(start, stop)).astype(np.int32)
        raw[raw == self.none_remoteness] = -1
        return raw

    def lookup_indices(self, indices: Iterable[int]) -> tuple[np.ndarray, np.ndarray]:
        """Value codes (uint8) and remoteness (int32, -1 = none) of many indices.

        Reads each chunk that holds a requested index once."""
        indices = np.asarray(indices, dtype=np.int64)
        if indices.size and (indices.min() < 0 or indices.max() >= self.size):
            raise IndexError(f"indices must lie in 0..{self.size - 1}")
        values = np.zeros(indices.shape, dtype=np.uint8)
        remoteness = np.zeros(indices.shape, dtype=np.int32)
        chunk = self._values.chunks[0]
        order = np.argsort(indices, kind="stable")
        sorted_indices = indices[order]
        blocks = sorted_indices // chunk
        bounds = np.flatnonzero(np.diff(blocks)) + 1
        for part in np.split(np.arange(len(sorted_indices)), bounds):
            if part.size == 0:
                continue
            block = int(blocks[part[0]])
            lo, hi = block * chunk, min((block + 1) * chunk, self.size)
            inside = sorted_indices[part] - lo
            values[order[part]] = self._read(self._values, slice(lo, hi))[inside]
            remoteness[order[part]] = self._read(self._remoteness, slice(lo, hi))[inside]
        remoteness[remoteness == self.none_remoteness] = -1
        return values, remoteness

    def decode(self, indices: Iterable[int]) -> np.ndarray:
        """State vectors of many indices (one row each; layout in ``game.state_fields``)."""
        return self.game.decode_many(np.asarray(indices, dtype=np.int64))

    def positions(self, indices: Iterable[int]) -> list[str]:
        """Position texts of many indices."""
        return [self.game.format(state) for state in self.decode(indices)]

    def indices_of(self, positions: Iterable[str]) -> np.ndarray:
        """Indices of many position texts (ValueError for a finished game the index
        leaves out; ``lookup_many`` answers those)."""
        states = np.array([self.game.parse(text) for text in positions], dtype=np.int64)
        states = states.reshape(-1, self.game.state_size)
        finished = np.flatnonzero(self.game.terminal_many(states))
        if finished.size:
            self.game.locate(states[finished[0]])  # raises: the index leaves finished games out
        return self.game.encode_many(states)


def _plain(value: Any) -> Any:
    """A numpy scalar from an HDF5 attribute as the Python value."""
    return value.item() if isinstance(value, np.generic) else value


def _preference(move: Move) -> tuple[int, int]:
    """Sort key: best move for the player who makes it first."""
    code = VALUES.index(move.value)
    mine = code if move.same_mover else flipped(code)
    distance = move.remoteness if move.remoteness is not None else 0
    if mine == WIN:
        return (0, distance)
    if mine == TIE:
        return (1, distance)
    if mine == DRAW:
        return (2, 0)
    if mine == LOSE:
        return (3, -distance)
    return (4, 0)
