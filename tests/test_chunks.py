"""databases/chunks.py: the chunks it compresses on threads are the bytes h5py writes
for the same data and filters, whole files read back through HDF5 (which checks every
chunk's checksum), and a damaged chunk is detected."""

from __future__ import annotations

import h5py
import numpy as np
import pytest

from tiersolve.databases.chunks import ChunkWriter, chunked_layout, fletcher32


def _reference_fletcher32(data: bytes) -> int:
    """HDF5's H5_checksum_fletcher32 step by step: big-endian words, sums folded into
    16 bits after every 360 words and at the end."""
    sum1 = sum2 = 0
    words = len(data) // 2
    i = 0
    while words:
        block = min(words, 360)
        words -= block
        for _ in range(block):
            sum1 += (data[i] << 8) | data[i + 1]
            sum2 += sum1
            i += 2
        sum1 = (sum1 & 0xFFFF) + (sum1 >> 16)
        sum2 = (sum2 & 0xFFFF) + (sum2 >> 16)
    if len(data) % 2:
        sum1 += data[i] << 8
        sum2 += sum1
        sum1 = (sum1 & 0xFFFF) + (sum1 >> 16)
        sum2 = (sum2 & 0xFFFF) + (sum2 >> 16)
    sum1 = (sum1 & 0xFFFF) + (sum1 >> 16)
    sum2 = (sum2 & 0xFFFF) + (sum2 >> 16)
    return (sum2 << 16) | sum1


@pytest.mark.parametrize("length", [0, 1, 2, 3, 719, 720, 721, 5001])
@pytest.mark.parametrize("fill", ["random", "ones", "zeros"])
def test_fletcher32_is_hdf5s(length, fill):
    data = {"random": np.random.default_rng(length).integers(0, 256, length, np.uint8).tobytes(),
            "ones": b"\xff" * length, "zeros": bytes(length)}[fill]
    assert fletcher32(data) == _reference_fletcher32(data)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.int64])
@pytest.mark.parametrize("size", [1000, 1 << 16, 300_001])
def test_chunks_are_the_bytes_h5py_writes(tmp_path, dtype, size):
    """Blocks of awkward lengths (across chunk boundaries, a partial last chunk)."""
    data = np.random.default_rng(size).integers(0, 40, size).astype(dtype)
    data[size // 3:size // 2] = 7  # a long run, as solved tiers have
    path = tmp_path / "chunks.h5"
    with h5py.File(path, "w") as f:
        f.create_dataset("h5py", data=data, **chunked_layout(size))
        ours = f.create_dataset("ours", shape=data.shape, dtype=data.dtype, **chunked_layout(size))
        with ChunkWriter(ours, threads=2) as out:
            for lo in range(0, size, 70_001):
                out.write(data[lo:lo + 70_001])
    with h5py.File(path) as f:
        assert np.array_equal(f["ours"][:], data)
        chunk = f["ours"].chunks[0]
        for offset in range(0, size, chunk):
            assert f["ours"].id.read_direct_chunk((offset,)) == f["h5py"].id.read_direct_chunk((offset,))


def test_a_damaged_chunk_is_detected(tmp_path):
    data = np.arange(100_000, dtype=np.uint16) % 500
    path = tmp_path / "damaged.h5"
    with h5py.File(path, "w") as f:
        with ChunkWriter(f.create_dataset("d", shape=data.shape, dtype=data.dtype,
                                          **chunked_layout(data.size))) as out:
            out.write(data)
        offset = f["d"].id.get_chunk_info(0).byte_offset
    raw = bytearray(path.read_bytes())
    raw[offset + 40] ^= 0x10
    path.write_bytes(bytes(raw))
    with h5py.File(path) as f:
        with pytest.raises(OSError):
            f["d"][:]


def test_writing_past_the_end_is_refused(tmp_path):
    with h5py.File(tmp_path / "short.h5", "w") as f:
        dataset = f.create_dataset("d", shape=(10,), dtype=np.uint8, **chunked_layout(10))
        with pytest.raises(ValueError, match="more than its 10 elements"):
            with ChunkWriter(dataset) as out:
                out.write(np.zeros(11, np.uint8))


def test_a_dataset_with_other_filters_is_refused(tmp_path):
    with h5py.File(tmp_path / "plain.h5", "w") as f:
        dataset = f.create_dataset("d", shape=(10,), dtype=np.uint8, chunks=(5,), compression="gzip")
        with pytest.raises(ValueError, match="laid out by chunked_layout"):
            ChunkWriter(dataset)


def test_the_level_is_the_datasets(tmp_path):
    """A scratch file's chunks are deflated at its own level, as h5py would."""
    data = np.random.default_rng(1).integers(0, 9, 100_000).astype(np.uint8)
    with h5py.File(tmp_path / "levels.h5", "w") as f:
        f.create_dataset("h5py", data=data, **chunked_layout(data.size, 1))
        with ChunkWriter(f.create_dataset("ours", shape=data.shape, dtype=data.dtype,
                                          **chunked_layout(data.size, 1))) as out:
            out.write(data)
        assert f["ours"].compression_opts == 1
        assert f["ours"].id.read_direct_chunk((0,)) == f["h5py"].id.read_direct_chunk((0,))
