"""What a database file says about itself (format version 3), and the checks a
reader makes before it believes any of it.

A database's metadata is one JSON object stored as bytes in the dataset
``metadata`` (one chunk under HDF5's fletcher32 checksum, in a file whose object
headers carry checksums too), so no byte of it is read from an unchecked part of
the file, such as the global heap where HDF5 keeps variable-length strings
(docs/FORMAT.md). A file is untrusted input all the same: ``checked_metadata``
refuses, with one line, any field of the wrong type, range or shape, and any text
a terminal would interpret.

>>> check_metadata({**EXAMPLE, "count_win": -5}, "x.h5", rows=1)
Traceback (most recent call last):
...
tiersolve.errors.DamagedDatabaseError: x.h5 is damaged: its count_win is -5, not a count; rebuild it
"""

from __future__ import annotations

import json
import math
from typing import Any

from tiersolve.errors import DamagedDatabaseError
from tiersolve.values import VALUE_NAMES

#: The largest metadata a reader accepts (a real one is about 2 KB).
METADATA_LIMIT = 1 << 20
#: The longest text field a reader accepts.
TEXT_LIMIT = 4096
#: The value names a start may have (``start_value``).
START_VALUES = ("win", "lose", "tie", "draw")
#: Fields every file has, by kind: text, whole numbers >= 0, seconds.
TEXT_FIELDS = ("format", "game", "options", "hasher", "value_codes", "title", "description", "state_fields", "solver",
               "start_position", "start_value", "created_utc", "source_fingerprint",
               "package_version", "numba_version", "numpy_version", "h5py_version",
               "python_version", "build_id")
COUNT_FIELDS = ("num_positions", "num_tiers", "max_remoteness", "threads", "resumed_tiers",
                *(f"count_{name}" for name in VALUE_NAMES.values()))
SECONDS_FIELDS = ("compile_seconds", "solve_seconds", "write_seconds", "build_seconds")

#: A valid metadata object (for the doctest above and the tests).
EXAMPLE: dict[str, Any] = {
    **{name: "x" for name in TEXT_FIELDS}, **{name: 0 for name in COUNT_FIELDS},
    **{name: 0.0 for name in SECONDS_FIELDS}, "format_version": 3, "start_value": "win",
    "start_remoteness": 0, "remoteness_none": 255, "options": "{}", "hasher": "{}",
    "value_codes": json.dumps({str(code): name for code, name in VALUE_NAMES.items()}),
    "count_win": 1,
}


def encode_metadata(metadata: dict[str, Any]) -> bytes:
    """The bytes stored in the ``metadata`` dataset: ASCII JSON, keys sorted."""
    return json.dumps(metadata, sort_keys=True, ensure_ascii=True, allow_nan=False).encode("ascii")


def shown(text: str, limit: int = 60) -> str:
    """``text`` safe to print in a message: escaped (no control characters reach the
    terminal) and shortened to about ``limit`` characters."""
    quoted = ascii(text)
    return quoted if len(quoted) <= limit else quoted[:limit] + "...'"


def _damaged(path: object, what: str) -> DamagedDatabaseError:
    return DamagedDatabaseError(f"{path} is damaged: {what}; rebuild it")


def parsed_json(text: str, path: object, what: str) -> Any:
    """``json.loads(text)``, or DamagedDatabaseError naming ``what`` (also for JSON
    nested too deep to parse, or NaN and infinities, which JSON does not have)."""
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise _damaged(path, f"its {what} is not JSON") from None


def parse_metadata(raw: bytes, path: object) -> dict[str, Any]:
    """The JSON object in the bytes of a ``metadata`` dataset (at most
    ``METADATA_LIMIT`` of them); DamagedDatabaseError if it is not one."""
    if len(raw) > METADATA_LIMIT:
        raise _damaged(path, f"its metadata takes {len(raw):,} bytes (at most {METADATA_LIMIT:,})")
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        raise _damaged(path, "its metadata is not ASCII JSON") from None
    metadata = parsed_json(text, path, "metadata")
    if not isinstance(metadata, dict):
        raise _damaged(path, "its metadata is not a JSON object")
    return metadata


def check_metadata(metadata: dict[str, Any], path: object, rows: int) -> dict[str, Any]:
    """``metadata`` after checking every field a reader uses; DamagedDatabaseError
    (one line, naming ``path``) for anything out of place. ``rows``: how many
    positions the file's value dataset holds (the counts must add up to it). The
    JSON texts (``options``, ``hasher``, ``reachable_from``) come back parsed in
    ``metadata["parsed"]``."""
    def damaged(what: str) -> DamagedDatabaseError:
        return _damaged(path, what)

    for name in TEXT_FIELDS:
        value = metadata.get(name)
        if not isinstance(value, str) or len(value) > TEXT_LIMIT or not value.isprintable():
            raise damaged(f"its {name} is {described(value)}, not a line of text")
    for name in COUNT_FIELDS:
        value = metadata.get(name)
        if not _whole(value) or value < 0:
            raise damaged(f"its {name} is {described(value)}, not a count")
    for name in SECONDS_FIELDS:
        value = metadata.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                not math.isfinite(value) or value < 0:
            raise damaged(f"its {name} is {described(value)}, not a duration")
    parsed = {name: parsed_json(metadata[name], path, name)
              for name in ("options", "hasher", "value_codes")}
    for name, value in parsed.items():
        if not isinstance(value, dict):
            raise damaged(f"its {name} is not a JSON object")
    if parsed["value_codes"] != {str(code): name for code, name in VALUE_NAMES.items()}:
        raise damaged("its value codes are not tiersolve's")
    none = metadata.get("remoteness_none")
    if not _whole(none) or none not in (255, 65535):
        raise damaged(f"its remoteness_none is {described(none)}, not 255 or 65535")
    if metadata["max_remoteness"] >= none:
        raise damaged(f"its max_remoteness {metadata['max_remoteness']} is not below {none}")
    remoteness = metadata.get("start_remoteness")
    if not _whole(remoteness) or not -1 <= remoteness <= metadata["max_remoteness"]:
        raise damaged(f"its start_remoteness is {described(remoteness)}")
    if metadata["start_value"] not in START_VALUES:
        raise damaged(f"its start_value is {described(metadata['start_value'])}, not a value")
    if (remoteness < 0) != (metadata["start_value"] == "draw"):
        raise damaged("its start_value and start_remoteness disagree")
    total = sum(metadata[f"count_{name}"] for name in VALUE_NAMES.values())
    if total != rows:
        raise damaged(f"its counts add up to {total:,}, not to the {rows:,} positions it holds")
    if "reachable_from" in metadata:
        text = metadata["reachable_from"]
        starts = parsed_json(text, path, "reachable_from") if isinstance(text, str) else None
        if not isinstance(starts, list) or not starts or len(starts) > max(rows, 1) or \
                not all(isinstance(s, str) and len(s) <= TEXT_LIMIT and s.isprintable()
                        for s in starts) or starts[0] != metadata["start_position"]:
            raise damaged("its reachable_from is not a list of its start positions")
        parsed["reachable_from"] = starts
    return {**metadata, "parsed": parsed}


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def described(value: Any) -> str:
    """A field's value in a message: short, escaped."""
    if value is None:
        return "missing"
    return shown(value) if isinstance(value, str) else shown(json.dumps(value)[:80]).strip("'")


__all__ = ["METADATA_LIMIT", "check_metadata", "described", "encode_metadata", "parse_metadata",
           "parsed_json", "shown"]
