"""A database file as untrusted input: every byte used is under a checksum HDF5
verifies, or is checked against such bytes or against the installed code, and
anything out of place is one DamagedDatabaseError (or DatabaseMismatchError) line,
never a traceback, a hang or a wrong answer (docs/FORMAT.md, "What is checksummed,
and what the reader verifies").

``CheckedFile`` opens a file and checks its structure, metadata and index layout;
every later read of its data goes through it. ``check_start`` checks what a file
says of its start against its data and the rules. The lookup library
(``tiersolve.databases.reader``) uses both; it never reads the file itself.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ContextManager

import numpy as np

from tiersolve.databases.metadata import described, shown
from tiersolve.errors import (
    ClosedDatabaseError, DamagedDatabaseError, DatabaseMismatchError, PositionError,
    TiersolveError,
)
from tiersolve.games import GAMES, make_game
from tiersolve.values import DRAW, LOSE, NONCANONICAL, TIE, VALUE_NAMES, WIN

if TYPE_CHECKING:
    from tiersolve.games.base import Game


class CheckedFile:
    """An open database file whose structure, metadata and layout passed the checks:
    ``game``, ``metadata`` (checked), ``starts`` (of a ``--reachable`` file, else None),
    the per-index datasets ``values``, ``remoteness`` and ``stored`` (a ``--reachable``
    file's indices, else None), ``fence``, ``none_remoteness``, ``max_remoteness``.
    The file is opened without HDF5's file locking: a database is never changed once
    it has its name (a rebuild replaces it by a rename), so a reader has nothing to
    lock out, and must not stop a rebuild (docs/DECISIONS.md).

    ``watch(game name)``: a context in which the game is made (the lookup library
    says there when that compiles kernels)."""

    def __init__(self, path: Path, expect: Game | None = None,
                 watch: Callable[[str], ContextManager] | None = None) -> None:
        self.path = path
        self._file = None
        if self.path.is_dir():
            raise DamagedDatabaseError(f"{self.path} is a folder, not a database file")
        if not self.path.is_file():  # a pipe would make the open wait for a writer
            raise DamagedDatabaseError(f"{self.path} is not a regular file (a device, pipe or "
                                       "socket), not a database file")
        import h5py

        try:
            self._file = h5py.File(self.path, "r", rdcc_nbytes=32 << 20, locking=False)
        except Exception:
            raise DamagedDatabaseError(f"{self.path} is not a readable database file (damaged, "
                                       "or not HDF5); rebuild it") from None
        try:
            with self.damage_checked():
                self._open(expect, watch or (lambda name: contextlib.nullcontext()))
        except Exception:
            self.close()
            raise

    @contextlib.contextmanager
    def damage_checked(self):
        """Turns any error of HDF5 (or of the checks on what it read) inside the block
        into one DamagedDatabaseError line naming the file."""
        try:
            yield
        except TiersolveError:
            raise
        except Exception as error:
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise DamagedDatabaseError(f"{self.path} is damaged ({shown(reason, 120)}); "
                                       "rebuild it") from None

    def damaged(self, what: str) -> DamagedDatabaseError:
        return _damaged(self.path, what)

    def _open(self, expect: Game | None, watch: Callable[[str], ContextManager]) -> None:
        from tiersolve.databases.format import (
            FORMAT_NAMES_READ, FORMAT_VERSION, OLDER_VERSIONS, layout_attributes,
        )
        from tiersolve.databases.metadata import check_metadata, parse_metadata

        links = self._hard_links()
        if "metadata" not in links:
            version = self._old_version()
            if version in OLDER_VERSIONS:
                raise DatabaseMismatchError(
                    f"{self.path} has format version {version}; this software reads version "
                    f"{FORMAT_VERSION} only, whose every byte is checksummed: rebuild the database")
            raise DamagedDatabaseError(f"{self.path} is not a tiersolve database file (an HDF5 "
                                       "file without tiersolve's metadata)")
        raw = self._small_dataset("metadata", np.uint8, 1)
        metadata = parse_metadata(raw.tobytes(), self.path)
        if metadata.get("format") not in FORMAT_NAMES_READ:
            raise DamagedDatabaseError(f"{self.path} is not a tiersolve database file (an HDF5 "
                                       f"file whose format is {described(metadata.get('format'))})")
        version = metadata.get("format_version")
        if version != FORMAT_VERSION or isinstance(version, bool):
            raise DatabaseMismatchError(f"{self.path} has format version {described(version)}; "
                                        f"this software reads version {FORMAT_VERSION} only: "
                                        "rebuild the database")
        reachable = "indices" in links
        for name in ("value", "remoteness", "tier_offsets", "tier_keys",
                     *(("indices", "index_fence") if reachable else ())):
            if name not in links:
                raise self.damaged(f"it lacks {name}")
        rows = self._dataset_rows("indices" if reachable else "value")
        metadata = check_metadata(metadata, self.path, rows)
        if reachable != ("reachable_from" in metadata):
            raise self.damaged("its reachable_from and its indices disagree")
        parsed = metadata.pop("parsed")
        self.metadata = metadata
        self.starts: list[str] | None = parsed.get("reachable_from")
        name = metadata["game"]
        if name not in GAMES:
            raise DatabaseMismatchError(f"{self.path} holds a game this software does not know "
                                        f"({shown(name)}); the games are {', '.join(GAMES)}")
        try:
            with watch(name):
                self.game = make_game(name, **parsed["options"])
        except TiersolveError as error:
            raise DatabaseMismatchError(f"{self.path}: cannot make its game "
                                        f"({shown(str(error), 120)})") from None
        if expect is not None and (expect.name, expect.options) != (self.game.name, self.game.options):
            raise DatabaseMismatchError(f"{self.path} holds {self.game.describe()}, not "
                                        f"{expect.describe()}")
        for key, value in layout_attributes(self.game).items():
            held = metadata[key]
            if key in ("options", "hasher"):
                held = json.dumps(parsed[key], sort_keys=True)
            if held != value:
                raise DatabaseMismatchError(
                    f"{self.path} was built with a different index layout ({key}: file "
                    f"{shown(str(held))}, this software {shown(str(value))}); rebuild the database")
        tiers = self.game.tiers
        offsets = self._small_dataset("tier_offsets", np.int64, tiers.count + 1)
        if not np.array_equal(offsets, tiers.offsets):
            raise DatabaseMismatchError(f"{self.path}: tier offsets differ from this software's; "
                                        "rebuild")
        keys = np.asarray(tiers.keys, dtype=np.int64).reshape(tiers.count, -1)
        held_keys = self._small_dataset("tier_keys", np.int64, keys.size, ndim=2)
        if held_keys.shape != keys.shape or not np.array_equal(held_keys, keys):
            raise DatabaseMismatchError(f"{self.path}: tier keys differ from this software's; "
                                        "rebuild")
        if rows > self.game.size:
            raise self.damaged(f"it holds {rows:,} positions of a game of {self.game.size:,}")
        none = metadata["remoteness_none"]
        self.values = self._per_index_dataset("value", np.uint8, rows)
        self.remoteness = self._per_index_dataset(
            "remoteness", np.uint8 if none == 255 else np.uint16, rows)
        # A --reachable database stores some positions: their sorted indices, row for row.
        self.stored = self._per_index_dataset("indices", np.int64, rows) if reachable else None
        self.fence: np.ndarray | None = None
        self._sound_blocks: set[int] = set()  # chunks of indices checked so far
        if reachable:
            chunk = self.stored.chunks[0] if rows else 1
            self.fence = self._small_dataset("index_fence", np.int64, -(-rows // chunk))
            if self.fence.size and (self.fence[0] < 0 or self.fence[-1] >= self.game.size
                                    or np.any(np.diff(self.fence) <= 0)):
                raise self.damaged("its index_fence is not increasing indices of the game")
        self.none_remoteness = none
        self.max_remoteness = metadata["max_remoteness"]

    # -- the checks of what the file holds ----------------------------------------------
    def _hard_links(self) -> set[str]:
        """The names at the file's root; DamagedDatabaseError for a soft or external
        link (a database never refers to another file, nor to itself)."""
        import h5py

        names = set()
        for name in self._file:
            if not isinstance(self._file.get(name, getlink=True), h5py.HardLink):
                raise self.damaged(f"{shown(name)} is a link, which a database never holds")
            names.add(name)
        return names

    def _old_version(self) -> int | None:
        """The ``format_version`` root attribute of a file without metadata (an older
        one), if it is a whole number; only its type is read before its value."""
        attrs = self._file.attrs
        if "format_version" not in attrs:
            return None
        attribute = attrs.get_id("format_version")
        if attribute.shape not in ((), (1,)) or attribute.dtype.kind not in "iu":
            return None
        return int(np.asarray(attrs["format_version"]).reshape(-1)[0])

    def _checked_layout(self, name: str, dtype: Any, shape: tuple[int, ...],
                        chunks: tuple[int, ...] | None, filters: tuple[int, ...]):
        """The dataset ``name`` if it is what a database holds there: a dataset of
        ``dtype`` and ``shape``, chunked as ``chunks`` with exactly ``filters`` (so
        fletcher32 checks every chunk, and HDF5 loads no filter plugin), and without
        external storage; DamagedDatabaseError else."""
        import h5py
        from h5py import h5d

        dataset = self._file[name]
        if not isinstance(dataset, h5py.Dataset):
            raise self.damaged(f"its {name} is not a dataset")
        if dataset.dtype != np.dtype(dtype) or dataset.shape != shape:
            raise self.damaged(f"its {name} holds {dataset.dtype} {dataset.shape}, not "
                                f"{np.dtype(dtype)} {shape}")
        plist = dataset.id.get_create_plist()
        if plist.get_external_count():
            raise self.damaged(f"its {name} is stored in another file")
        if chunks is None:  # an empty dataset: nothing to read, nothing to check
            return dataset
        if plist.get_layout() != h5d.CHUNKED or dataset.chunks != chunks:
            raise self.damaged(f"its {name} is not stored in chunks of {chunks}")
        held = tuple(plist.get_filter(i)[0] for i in range(plist.get_nfilters()))
        if held != filters:
            raise self.damaged(f"its {name} does not have the filters a database's have")
        expected = int(np.prod([-(-size // step) for size, step in zip(shape, chunks)]))
        if dataset.id.get_num_chunks() != expected:
            raise self.damaged(f"its {name} lacks some of its chunks")
        return dataset

    def _small_dataset(self, name: str, dtype: Any, size: int, ndim: int = 1) -> np.ndarray:
        """A one-chunk dataset under fletcher32 (metadata, tier layout, index fence),
        read; ``size`` is the number of entries it must hold (for ``metadata``,
        at most)."""
        from h5py import h5z

        from tiersolve.databases.metadata import METADATA_LIMIT

        dataset = self._file[name]
        shape = getattr(dataset, "shape", None)
        if shape is None or len(shape) != ndim or \
                (name == "metadata" and not 0 < shape[0] <= METADATA_LIMIT) or \
                (name != "metadata" and int(np.prod(shape)) != size):
            raise self.damaged(f"its {name} has the wrong shape")
        empty = int(np.prod(shape)) == 0
        dataset = self._checked_layout(name, dtype, shape, None if empty else shape,
                                       (h5z.FILTER_FLETCHER32,))
        return self.read(dataset, ())

    def _dataset_rows(self, name: str) -> int:
        """The number of rows of the per-index dataset ``name`` (checked against the
        game's size once the game is known)."""
        shape = getattr(self._file[name], "shape", None)
        if shape is None or len(shape) != 1:
            raise self.damaged(f"its {name} is not a list of positions")
        return int(shape[0])

    def _per_index_dataset(self, name: str, dtype: Any, rows: int):
        from h5py import h5z

        from tiersolve.databases.chunks import CHUNK_POSITIONS

        chunks = (min(CHUNK_POSITIONS, rows),) if rows else None
        return self._checked_layout(name, dtype, (rows,), chunks,
                                    (h5z.FILTER_SHUFFLE, h5z.FILTER_DEFLATE,
                                     h5z.FILTER_FLETCHER32))

    def checked_values(self, values: np.ndarray) -> np.ndarray:
        """``values`` read from the file, if each is a value code."""
        if values.size and values.max() > NONCANONICAL:
            raise self.damaged(f"its value data holds the code {int(values.max())}, which is "
                                "not a value")
        return values

    def checked_remoteness(self, values: np.ndarray, remoteness: np.ndarray) -> np.ndarray:
        """``remoteness`` read from the file, row for row with ``values``: at most
        max_remoteness for a win, loss or tie, 'none' for a draw (illegal and
        noncanonical indices hold either)."""
        ends = (values == WIN) | (values == LOSE) | (values == TIE)
        if np.any((remoteness > self.max_remoteness) & (ends | (remoteness != self.none_remoteness)))\
                or np.any((values == DRAW) & (remoteness != self.none_remoteness)):
            raise self.damaged("its remoteness data disagrees with its values")
        return remoteness

    def read(self, dataset, key) -> np.ndarray:
        """``dataset[key]``, or DamagedDatabaseError if a checksum or the data fails."""
        if self._file is None:
            raise ClosedDatabaseError(f"the database {self.path} is closed")
        try:
            return dataset[key]
        except Exception:
            raise DamagedDatabaseError(f"{self.path} is damaged: the {dataset.name.lstrip('/')} "
                                       "data fails its checksum; rebuild the database") from None

    def checked_indices_chunk(self, block: int, held: np.ndarray) -> np.ndarray:
        """Chunk ``block`` of a --reachable file's ``indices``, if its indices increase,
        lie in the index space and agree with the (checksummed) index fence: its first
        is the fence's entry and its last below the next one; DamagedDatabaseError else."""
        if block in self._sound_blocks:  # checked before: the file never changes
            return held
        fence = self.fence
        if not held.size or held[0] != fence[block] or np.any(np.diff(held) <= 0) or \
                (block + 1 < fence.size and held[-1] >= fence[block + 1]) or \
                held[-1] >= self.game.size:
            raise self.damaged("its indices disagree with its index_fence")
        self._sound_blocks.add(block)
        return held

    @property
    def closed(self) -> bool:
        return self._file is None

    def close(self) -> None:
        """Close the file (a damaged file was refused already; closing never fails)."""
        if self._file is not None:
            try:
                self._file.close()
            except Exception:  # noqa: BLE001
                pass
            self._file = None


def _damaged(path: Path, what: str) -> DamagedDatabaseError:
    return DamagedDatabaseError(f"{path} is damaged: {what}; rebuild it")


def check_start(db) -> None:
    """Check the start value and remoteness ``db``'s metadata records against its value
    data (which carries checksums), and the end of the best line from the start
    against the rules; DamagedDatabaseError if they differ."""
    recorded = (db.attributes["start_value"], db.attributes["start_remoteness"])
    try:
        record = db.lookup(db.start)
    except PositionError as error:
        raise _damaged(db.path, f"its start position is not one it can answer "
                               f"({shown(str(error), 120)})") from None
    found = (record.value, -1 if record.remoteness is None else record.remoteness)
    if found != recorded:
        raise _damaged(db.path, f"it records the start as {recorded[0]} in {recorded[1]}, but "
                               f"its data says {found[0]} in {found[1]}")
    _check_rules_at_the_end(db)


def _check_rules_at_the_end(db) -> None:
    """Follow the best line from the start (at most its remoteness, in moves) to
    the end of the game, where the value follows from the rules of the game the
    file names: a file whose data belongs to another variant (normal play data
    labelled misère) disagrees there; DamagedDatabaseError then."""
    distance = db.attributes["start_remoteness"]
    if distance < 0:
        return
    position = db.start
    for _ in range(distance):
        move = db.best_move(position)
        if move is None:
            break
        position = move.position
    state = db.game.parse(position)
    if db.game.children(state):
        return
    rule = db.game.primitive_value(state)
    stored = db.lookup(position).value
    if rule in (WIN, LOSE, TIE) and VALUE_NAMES[rule] != stored:
        raise _damaged(db.path, f"its data says {stored} where the rules of "
                               f"{db.game.describe()} say {VALUE_NAMES[rule]} (at "
                               f"{shown(position)}, the end of the best line from its start)")
