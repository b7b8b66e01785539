"""Helpers that craft database files with h5py, as someone else's tool would: the
metadata rewritten (under a fresh, valid checksum) and datasets replaced."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import h5py
import numpy as np

from tiersolve.databases.format import checked_small_dataset


def read_metadata(path: Path) -> dict[str, Any]:
    """The metadata object of a database file, read with plain h5py."""
    with h5py.File(path, "r") as file:
        return json.loads(file["metadata"][()].tobytes())


def write_raw_metadata(path: Path, raw: bytes) -> None:
    """Replace the file's metadata by ``raw`` (a valid checksum over any bytes)."""
    with h5py.File(path, "r+") as file:
        del file["metadata"]
        checked_small_dataset(file, "metadata", np.frombuffer(raw, np.uint8))


def rewrite_metadata(path: Path, remove: tuple[str, ...] = (), **changes: Any) -> None:
    """Change (or ``remove``) fields of the file's metadata."""
    metadata = read_metadata(path)
    metadata.update(changes)
    for name in remove:
        metadata.pop(name, None)
    write_raw_metadata(path, json.dumps(metadata).encode())


def replace_dataset(path: Path, name: str, **create: Any) -> None:
    """Replace the dataset ``name`` by ``create_dataset(name, **create)``."""
    with h5py.File(path, "r+") as file:
        del file[name]
        file.create_dataset(name, **create)
