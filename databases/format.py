"""The database file format (HDF5), version 3, its writer, and partial builds.

One file per game, options and size. Layout (also in docs/FORMAT.md)::

    /value          uint8  [N]   value code per index: 0 illegal, 1 win, 2 lose, 3 tie, 4 draw,
                                 5 non-canonical
    /remoteness     uint8 or uint16 [N]   moves to the end; the dtype's maximum = none
    /tier_offsets   int64  [T+1] index where each tier starts (the last entry is N)
    /tier_keys      int64  [T, K] what identifies each tier (e.g. piece counts)
    /metadata       uint8  [B]   the file's metadata, one JSON object (databases/metadata.py)

Every dataset is chunked and carries HDF5's fletcher32 checksum on every chunk
(the per-index ones are gzip-compressed too), and the file's structure is written
with checksums (HDF5 1.10 object headers); nothing a reader uses lives in a part
of the file without a checksum, so a damaged file is detected, never read wrongly.

**Partial builds.** While a game is solved, each solved tier is kept at once as its
own small HDF5 file in ``<file>.partial/`` (written under a temporary name, synced
and renamed, so a file there is always complete). A build that was interrupted
resumes from those tiers; at the end they are merged into the database file, which
also appears under its final name only when complete. A cluster build may keep a
large tier as *pieces* (``piece-TTTTTT-LO-HI.h5``, local indices LO..HI-1): the tier
counts as solved once its pieces cover it, and reads as if it were one file.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import h5py
import numpy as np

from tiersolve.databases.chunks import (
    CHUNK_POSITIONS, COMPRESSION, DEFLATE_LEVEL, SCRATCH_LEVEL, ChunkWriter, chunked_layout,
)
from tiersolve.databases.metadata import encode_metadata
from tiersolve.games.base import Game
from tiersolve.jit import source_fingerprint
from tiersolve.solver.records import record_none, split_records
from tiersolve.values import VALUE_NAMES

FORMAT_NAME = "tiersolve-database"
#: What the ``format`` of a readable file may say. Files that say
#: ``gamesolver-database`` (the project's former name) are all of format version 2 or
#: older, which a reader refuses with "rebuild it".
FORMAT_NAMES_READ = (FORMAT_NAME,)
FORMAT_VERSION = 3
#: Versions a reader recognises only to say that the file must be rebuilt.
OLDER_VERSIONS = (1, 2)
PARTIAL_FORMAT = "tiersolve-partial-build"
#: The folder a build keeps its solved tiers in: ``<database>.partial/``.
PARTIAL_SUFFIX = ".partial"
#: Positions converted at a time when tiers are merged into the database file.
MERGE_BLOCK = 1 << 22
#: Object headers with checksums (HDF5 1.10 and later can read the files).
LIBVER = ("v110", "latest")
#: The fill value of a database's ``value`` dataset: not a value code, so a chunk the
#: file lacks (which HDF5 would read as the fill value) is refused, never answered.
VALUE_FILL = 255
#: The fill value of ``indices`` (a --reachable file): not an index, for the same reason.
INDEX_FILL = -1
#: The marker a build leaves in its work folder once the database file is complete:
#: it holds the file's ``build_id``, so a later run knows the folder is finished with.
MERGED_MARKER = "merged"
#: Test-only fault injection: the step of the final write at which a build ends its
#: process at once (os._exit), as a kill would (tests/test_untrusted_files.py).
CRASH_VARIABLE = "TIERSOLVE_CRASH_AT"
CRASH_STEPS = ("writing", "before-rename", "renaming", "after-rename")


class PartialBuildMismatch(ValueError):
    """A partial build on disk belongs to another game, other options or other code."""


def layout_attributes(game: Game) -> dict[str, Any]:
    """The attributes that must match between a file and the code reading it."""
    return {
        "game": game.name,
        "options": json.dumps(game.options, sort_keys=True),
        "hasher": json.dumps(game.hasher, sort_keys=True),
        "num_positions": game.size,
        "num_tiers": game.tiers.count,
    }


def crash_point(step: str) -> None:
    """End the process at once if ``$TIERSOLVE_CRASH_AT`` names ``step`` (tests only)."""
    if os.environ.get(CRASH_VARIABLE) == step:
        os._exit(86)


def _sync_and_rename(temporary: Path, final: Path, before_rename: Callable[[], None] | None = None
                     ) -> None:
    """Make a written file durable, then give it its final name (``before_rename``
    runs between the two)."""
    with open(temporary, "rb") as handle:
        os.fsync(handle.fileno())
    if before_rename is not None:
        before_rename()
    os.replace(temporary, final)
    if before_rename is not None:
        crash_point("renaming")
    try:
        directory = os.open(final.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


class PartialBuild:
    """The solved tiers of a build in progress: ``<database>.partial/``.

    ``manifest.json`` says which game, options and source version the tiers belong
    to; each ``tier-NNNNNN.h5`` holds one solved tier's records with their counts.

    Raises PartialBuildMismatch if the folder holds another build (unless ``restart``,
    which discards it)."""

    def __init__(self, database: Path, game: Game, records_type: np.dtype,
                 restart: bool = False) -> None:
        self.directory = database.with_name(database.name + PARTIAL_SUFFIX)
        self.game = game
        self.records_type = np.dtype(records_type)
        self.manifest = {"format": PARTIAL_FORMAT, "database_format_version": FORMAT_VERSION,
                         **layout_attributes(game), "source_fingerprint": source_fingerprint(),
                         "records": self.records_type.name}
        if restart:
            self.discard()
        manifest = self.directory / "manifest.json"
        if self.directory.exists():
            try:
                found = json.loads(manifest.read_text())
            except (OSError, ValueError):
                found = None
            if found != self.manifest:
                raise PartialBuildMismatch(self._mismatch(found))
        else:
            self.directory.mkdir(parents=True)
            temporary = manifest.with_suffix(".tmp")
            temporary.write_text(json.dumps(self.manifest, indent=2))
            _sync_and_rename(temporary, manifest)

    def _mismatch(self, found: dict | None) -> str:
        what = "an unreadable partial build"
        if isinstance(found, dict):
            if found.get("game") != self.manifest["game"]:
                what = f"a partial build of another game ({found.get('game')})"
            elif found.get("options") != self.manifest["options"]:
                what = f"a partial build with other options ({found.get('options')})"
            else:
                what = "a partial build made by another version of the solver"
        return (f"{self.directory} holds {what}; run again with --restart to discard it, "
                "or choose another --out")

    def _tier_path(self, tier: int) -> Path:
        return self.directory / f"tier-{tier:06d}.h5"

    def _piece_path(self, tier: int, lo: int, hi: int) -> Path:
        return self.directory / f"piece-{tier:06d}-{lo:012d}-{hi:012d}.h5"

    @staticmethod
    def _summary(path: Path, tier: int, size: int) -> tuple[np.ndarray, int]:
        """(counts, largest remoteness) of a complete kept file of ``size`` records;
        OSError if it is not one."""
        try:
            with h5py.File(path, "r") as kept:
                attrs = kept.attrs
                if not attrs.get("complete") or int(attrs["tier"]) != tier or \
                        kept["records"].shape != (size,):
                    raise OSError("incomplete")
                return np.asarray(attrs["counts"], dtype=np.int64), int(attrs["max_remoteness"])
        except (KeyError, ValueError, IndexError) as error:
            raise OSError(str(error)) from None

    def done(self) -> dict[int, tuple[np.ndarray, int]]:
        """Tiers solved and kept so far: tier -> (counts per value, largest remoteness).
        A file that cannot be read is removed (that tier or piece is solved again)."""
        found = {}
        for path in sorted(self.directory.glob("tier-*.h5")):
            tier = int(path.stem.split("-")[1])
            try:
                found[tier] = self._summary(path, tier, int(self.game.tier_sizes[tier]))
            except OSError:
                path.unlink(missing_ok=True)
        for leftover in self.directory.glob("*.tmp"):
            leftover.unlink(missing_ok=True)
        for tier in sorted(self._piece_tiers() - set(found)):
            pieces = self.pieces(tier)
            if _tiles(sorted(pieces), int(self.game.tier_sizes[tier])):
                found[tier] = (sum(counts for counts, _ in pieces.values()),
                               max(longest for _, longest in pieces.values()))
        return found

    def _piece_tiers(self) -> set[int]:
        return {int(path.stem.split("-")[1]) for path in self.directory.glob("piece-*.h5")}

    def pieces(self, tier: int) -> dict[tuple[int, int], tuple[np.ndarray, int]]:
        """The kept pieces of ``tier``: (lo, hi) -> (counts, largest remoteness). A
        piece file that cannot be read is removed."""
        found = {}
        for path in sorted(self.directory.glob(f"piece-{tier:06d}-*.h5")):
            lo, hi = (int(part) for part in path.stem.split("-")[2:])
            try:
                found[lo, hi] = self._summary(path, tier, hi - lo)
            except OSError:
                path.unlink(missing_ok=True)
        return found

    def _keep(self, path: Path, tier: int, records: np.ndarray, counts: np.ndarray,
              longest: int) -> None:
        temporary = path.with_suffix(".tmp")
        with h5py.File(temporary, "w", libver=LIBVER) as kept:
            _write_chunked(kept, "records", records, SCRATCH_LEVEL)
            kept.attrs["tier"] = tier
            kept.attrs["counts"] = counts
            kept.attrs["max_remoteness"] = longest
            kept.attrs["complete"] = 1
        _sync_and_rename(temporary, path)

    def save(self, tier: int, records: np.ndarray, counts: np.ndarray, longest: int) -> None:
        """Keep one solved tier (durably, before its name says it is complete); any
        pieces of it kept before are removed."""
        self._keep(self._tier_path(tier), tier, records, counts, longest)
        for path in self.directory.glob(f"piece-{tier:06d}-*.h5"):
            path.unlink(missing_ok=True)

    def save_piece(self, tier: int, lo: int, records: np.ndarray, counts: np.ndarray,
                   longest: int) -> None:
        """Keep local indices ``lo..lo+len(records)-1`` of ``tier`` (as ``save``)."""
        self._keep(self._piece_path(tier, lo, lo + len(records)), tier, records, counts, longest)

    def _files(self, tier: int) -> list[tuple[int, Path]]:
        """(first local index, file) of a kept tier: its own file, or its pieces."""
        whole = self._tier_path(tier)
        if whole.exists():
            return [(0, whole)]
        return [(lo, self._piece_path(tier, lo, hi)) for lo, hi in sorted(self.pieces(tier))]

    def load(self, tier: int) -> np.ndarray:
        """The records of a kept tier."""
        records = np.empty(int(self.game.tier_sizes[tier]), self.records_type)
        for lo, path in self._files(tier):
            with h5py.File(path, "r") as kept:
                part = kept["records"]
                if part.shape[0]:
                    part.read_direct(records, dest_sel=np.s_[lo:lo + part.shape[0]])
        return records

    def load_range(self, tier: int, lo: int, hi: int) -> np.ndarray:
        """The records of local indices lo..hi-1 of a kept tier (of its file or the
        pieces that hold them)."""
        records = np.empty(hi - lo, self.records_type)
        files = self._files(tier)
        ends = [start for start, _ in files[1:]] + [int(self.game.tier_sizes[tier])]
        for (first, path), end in zip(files, ends):
            a, b = max(lo, first), min(hi, end)
            if a < b:
                with h5py.File(path, "r") as kept:
                    kept["records"].read_direct(records, source_sel=np.s_[a - first:b - first],
                                                dest_sel=np.s_[a - lo:b - lo])
        return records

    def blocks(self, tier: int) -> Iterator[tuple[int, np.ndarray]]:
        """(offset, records) of a kept tier, a block at a time."""
        for first, path in self._files(tier):
            with h5py.File(path, "r") as kept:
                records = kept["records"]
                for lo in range(0, records.shape[0], MERGE_BLOCK):
                    yield first + lo, records[lo:lo + MERGE_BLOCK]

    def discard(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


def _tiles(ranges: list[tuple[int, int]], size: int) -> bool:
    """Whether the sorted [lo, hi) ranges cover 0..size-1 exactly, end to end."""
    end = 0
    for lo, hi in ranges:
        if lo != end:
            return False
        end = hi
    return end == size


def provenance_attributes() -> dict[str, Any]:
    """When and with which versions a database was built (attributes of every file)."""
    import platform
    from datetime import datetime, timezone

    import numba

    from tiersolve import __version__

    return {"created_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "source_fingerprint": source_fingerprint(), "package_version": __version__,
            "numba_version": numba.__version__, "numpy_version": np.__version__,
            "h5py_version": h5py.__version__, "python_version": platform.python_version()}


def checked_small_dataset(group: h5py.Group, name: str, data: np.ndarray) -> h5py.Dataset:
    """``group[name] = data`` in one chunk under the fletcher32 checksum (an empty
    array, which HDF5 cannot chunk, holds no byte to check)."""
    data = np.asarray(data)
    if not data.size:
        return group.create_dataset(name, data=data)
    return group.create_dataset(name, data=data, chunks=data.shape, fletcher32=True)


def write_metadata(out: h5py.File, game: Game, remoteness_none: int,
                   attributes: dict[str, Any]) -> None:
    """What every database file holds besides its values: the tier layout
    (``tier_offsets``, ``tier_keys``) and the ``metadata`` dataset: the format and
    layout, the remoteness sentinel, the value names, and ``attributes``. Only
    ``format`` and ``format_version`` are root attributes too, for other tools."""
    checked_small_dataset(out, "tier_offsets", np.asarray(game.tiers.offsets, dtype=np.int64))
    keys = np.asarray(game.tiers.keys, dtype=np.int64).reshape(game.tiers.count, -1)
    checked_small_dataset(out, "tier_keys", keys)
    metadata = {"format": FORMAT_NAME, "format_version": FORMAT_VERSION,
                **layout_attributes(game), "remoteness_none": remoteness_none,
                "value_codes": json.dumps({str(code): name for code, name in VALUE_NAMES.items()}),
                **attributes}
    raw = np.frombuffer(encode_metadata(_plain_values(metadata)), dtype=np.uint8)
    checked_small_dataset(out, "metadata", raw)
    # fixed-length, so that they live in the (checksummed) object header
    out.attrs["format"] = np.bytes_(FORMAT_NAME)
    out.attrs["format_version"] = np.int64(FORMAT_VERSION)


def _plain_values(metadata: dict[str, Any]) -> dict[str, Any]:
    """``metadata`` with numpy scalars as Python numbers (JSON takes only those)."""
    return {key: value.item() if isinstance(value, np.generic) else value
            for key, value in metadata.items()}


@contextmanager
def new_database(path: Path, game: Game, max_remoteness: int, attributes: dict[str, Any],
                 work_folder: Path | None = None) -> Iterator[tuple[h5py.File, np.dtype]]:
    """A database file being written: yields (the open file, the remoteness dtype its
    largest remoteness needs) for the caller's datasets, then writes the layout and
    the metadata (``write_metadata``) from ``attributes``, which the caller may
    complete inside the block (the start's value, read from what it wrote). The file
    is written under a temporary name, synced, and renamed only when complete; it is
    removed if anything fails. ``work_folder`` (the build's kept tiers) then gets a
    marker naming the file's ``build_id``, so that a run after a kill between the
    rename and the folder's removal knows the folder is finished with."""
    remoteness_type = np.dtype(np.uint8 if max_remoteness < 255 else np.uint16)
    temporary = path.with_name(path.name + ".tmp")
    attributes.setdefault("build_id", uuid.uuid4().hex)

    def mark_merged() -> None:
        crash_point("before-rename")
        if work_folder is not None and work_folder.is_dir():
            (work_folder / MERGED_MARKER).write_text(attributes["build_id"])

    try:
        with h5py.File(temporary, "w", libver=LIBVER) as out:
            yield out, remoteness_type
            crash_point("writing")
            write_metadata(out, game, int(np.iinfo(remoteness_type).max), attributes)
        _sync_and_rename(temporary, path, mark_merged)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def start_result(values: h5py.Dataset, remoteness: h5py.Dataset, row: int | None,
                 none: int) -> tuple[str, int | None]:
    """The value name and remoteness (None: none) at ``row`` of a database being
    written; ("draw", None) if the file does not hold that row."""
    if row is None:
        return "draw", None
    value, distance = int(values[row]), int(remoteness[row])
    return VALUE_NAMES[value], None if distance == none else distance


def write_database(path: Path, game: Game, partial: PartialBuild, max_remoteness: int,
                   attributes: dict[str, Any], step: Callable[[int], None] | None = None,
                   start_index: int | None = None) -> Path:
    """Merge the kept tiers into the database file at ``path`` (written under a
    temporary name and renamed when complete); ``step(n)`` reports progress.
    ``attributes`` gets ``start_value`` and ``start_remoteness`` of ``start_index``,
    read back from the file before it is closed."""
    size = game.size
    with new_database(path, game, max_remoteness, attributes, partial.directory) as \
            (out, remoteness_type):
        values = out.create_dataset("value", shape=(size,), dtype=np.uint8,
                                    fillvalue=VALUE_FILL, **chunked_layout(size))
        remoteness = out.create_dataset("remoteness", shape=(size,), dtype=remoteness_type,
                                        **chunked_layout(size))
        if size:
            with ChunkWriter(values) as value_out, ChunkWriter(remoteness) as remoteness_out:
                written = 0
                for tier in range(game.tiers.count):
                    for lo, records in partial.blocks(tier):
                        if int(game.tiers.offsets[tier]) + lo != written:
                            raise ValueError(f"the kept tiers of {path.name} do not cover "
                                             f"index {written}")
                        tier_values, tier_remoteness = split_records(records, remoteness_type)
                        value_out.write(tier_values)
                        remoteness_out.write(tier_remoteness)
                        written += len(records)
                        if step is not None:
                            step(len(records))
        value, distance = start_result(values, remoteness, start_index,
                                       int(np.iinfo(remoteness_type).max))
        attributes["start_value"] = value
        attributes["start_remoteness"] = -1 if distance is None else distance
    return path


def _write_chunked(group: h5py.Group, name: str, data: np.ndarray,
                   level: int = DEFLATE_LEVEL) -> h5py.Dataset:
    """``group[name] = data``, compressed as every per-index dataset (deflate at
    ``level``), on every core."""
    dataset = group.create_dataset(name, shape=data.shape, dtype=data.dtype,
                                   **chunked_layout(data.size, level))
    if data.size:
        with ChunkWriter(dataset) as out:
            out.write(data)
    return dataset


__all__ = ["CHUNK_POSITIONS", "COMPRESSION", "FORMAT_NAME", "FORMAT_NAMES_READ", "FORMAT_VERSION",
           "PARTIAL_SUFFIX", "PartialBuild",
           "PartialBuildMismatch", "layout_attributes", "new_database", "provenance_attributes",
           "record_none", "start_result", "write_metadata", "write_database"]
