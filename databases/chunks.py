"""Compressed datasets written on every core.

h5py compresses a dataset's chunks one after the other, under its global lock, so a
database's write ran on one core however many the machine has. ``ChunkWriter`` runs
HDF5's filter pipeline for our datasets itself (``COMPRESSION``: shuffle,
deflate, fletcher32, in that order) on a pool of threads, as ``zlib`` lets go of
the interpreter while it compresses, and hands each finished chunk to HDF5 with
``write_direct_chunk``. The file is the one h5py would write: any HDF5 reader
decompresses the chunks and checks their checksums.

    >>> import h5py, numpy as np, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "example.h5")
    >>> data = np.arange(200_000, dtype=np.uint16) % 300
    >>> with h5py.File(path, "w") as f:
    ...     with ChunkWriter(f.create_dataset("d", shape=data.shape, dtype=data.dtype,
    ...                                       **chunked_layout(data.size))) as out:
    ...         out.write(data[:70_000])
    ...         out.write(data[70_000:])
    >>> with h5py.File(path) as f:
    ...     bool((f["d"][:] == data).all())
    True
"""

from __future__ import annotations

import os
import zlib
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any

import h5py
import numpy as np

#: Positions in a chunk of a per-index dataset.
CHUNK_POSITIONS = 1 << 16
#: deflate's level of a database's datasets.
DEFLATE_LEVEL = 4
#: h5py's dataset options of the filters ``ChunkWriter`` applies itself.
COMPRESSION = {"compression": "gzip", "compression_opts": DEFLATE_LEVEL, "shuffle": True,
               "fletcher32": True}
_FLETCHER_MODULUS = 0xFFFF


#: deflate's level for files a build keeps only until it ends (its solved tiers). On
#: Konane 5x5's values and remoteness it compressed 1.65-1.7 times as fast as
#: DEFLATE_LEVEL, into 8-26% more bytes.
SCRATCH_LEVEL = 1


def chunked_layout(size: int, level: int = DEFLATE_LEVEL) -> dict[str, Any]:
    """Dataset options for ``size`` positions (HDF5 cannot chunk an empty dataset)."""
    if not size:
        return {}
    return {"chunks": (min(CHUNK_POSITIONS, size),), **COMPRESSION, "compression_opts": level}


def fletcher32(data: bytes) -> int:
    """HDF5's Fletcher-32 checksum of ``data`` (``H5_checksum_fletcher32``).

    HDF5 sums big-endian 16-bit words (an odd last byte is the high byte of one more
    word) and folds both sums back into 16 bits now and then, which keeps each
    congruent to the plain sum modulo 65535 and makes it 0 only when it is exactly 0;
    so the plain sums, taken modulo 65535 into 1..65535 unless zero, are the same.

    >>> hex(fletcher32(b"abcde"))
    '0x4ff029c7'
    """
    raw = np.frombuffer(data, np.uint8)
    if raw.size % 2:
        raw = np.append(raw, np.uint8(0))
    words = (raw[0::2].astype(np.int64) << 8) | raw[1::2]
    first = int(words.sum())
    second = int(np.dot(words, np.arange(words.size, 0, -1, dtype=np.int64)))

    def folded(total: int) -> int:
        return 0 if total == 0 else (total - 1) % _FLETCHER_MODULUS + 1

    return (folded(second) << 16) | folded(first)


def encode_chunk(chunk: np.ndarray, level: int = DEFLATE_LEVEL) -> bytes:
    """One whole chunk through the filters: bytes shuffled (all first bytes of the
    elements, then all second bytes...), deflated, then its checksum appended (little-endian)."""
    raw = chunk.view(np.uint8)
    if chunk.itemsize > 1:
        raw = raw.reshape(-1, chunk.itemsize).T
    body = zlib.compress(np.ascontiguousarray(raw), level)
    return body + fletcher32(body).to_bytes(4, "little")


_pools: dict[int, ThreadPoolExecutor] = {}


def _pool(threads: int) -> ThreadPoolExecutor:
    """One pool of compressing threads for every writer of a process, so a build
    that keeps hundreds of tiers does not start threads for each."""
    if threads not in _pools:
        _pools[threads] = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="deflate")
    return _pools[threads]


class ChunkWriter:
    """Writes ``dataset`` (1-D, chunked with ``chunked_layout``) from its first element
    to its last, from blocks of any length, compressing its chunks on ``threads``.

    At most two chunks a thread are held compressed or being compressed at once.
    Use as a context manager; leaving it writes the last (partial) chunk; leaving it
    on an exception drops what is pending."""

    def __init__(self, dataset: h5py.Dataset, threads: int | None = None) -> None:
        if dataset.chunks is None or len(dataset.shape) != 1 or dataset.compression != "gzip" \
                or not dataset.shuffle or not dataset.fletcher32:
            raise ValueError("ChunkWriter writes one-dimensional datasets laid out by chunked_layout")
        self.level = int(dataset.compression_opts)
        self.dataset = dataset
        self.chunk = dataset.chunks[0]
        self.threads = threads or os.cpu_count() or 1
        self._pool = _pool(self.threads)
        self._pending: deque[tuple[int, Future]] = deque()
        self._buffer = np.zeros(self.chunk, dataset.dtype)
        self._filled = 0
        self._written = 0  # elements handed to the pool: the next chunk's offset

    def write(self, block: np.ndarray) -> None:
        """Append ``block`` (its dtype converted to the dataset's if needed)."""
        block = np.asarray(block, self.dataset.dtype)
        if self._written + self._filled + block.size > self.dataset.shape[0]:
            raise ValueError(f"{self.dataset.name}: more than its {self.dataset.shape[0]} elements written")
        start = 0
        if self._filled:
            take = min(self.chunk - self._filled, block.size)
            self._buffer[self._filled:self._filled + take] = block[:take]
            self._filled += take
            start = take
            if self._filled == self.chunk:
                self._submit(self._buffer.copy())
                self._filled = 0
        whole = start + (block.size - start) // self.chunk * self.chunk
        for lo in range(start, whole, self.chunk):
            self._submit(block[lo:lo + self.chunk])
        rest = block.size - whole
        if rest:
            self._buffer[:rest] = block[whole:]
            self._filled = rest

    def _submit(self, chunk: np.ndarray) -> None:
        while len(self._pending) >= 2 * self.threads:
            self._write_oldest()
        self._pending.append((self._written, self._pool.submit(encode_chunk, chunk, self.level)))
        self._written += self.chunk

    def _write_oldest(self) -> None:
        offset, future = self._pending.popleft()
        self.dataset.id.write_direct_chunk((offset,), future.result())

    def close(self) -> None:
        """Write the last, partial chunk (padded with zeros, as HDF5 stores it) and
        everything pending."""
        if self._filled:
            self._buffer[self._filled:] = 0
            self._submit(self._buffer.copy())
            self._filled = 0
        while self._pending:
            self._write_oldest()

    def __enter__(self) -> "ChunkWriter":
        return self

    def __exit__(self, kind, error, traceback) -> None:
        if kind is None:
            self.close()
        else:
            for _, future in self._pending:
                future.cancel()
            wait([future for _, future in self._pending])
            self._pending.clear()
