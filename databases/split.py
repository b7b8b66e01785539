"""A LOOPY tier solved in parts across the workers of a Dask cluster.

The rounds are ``solver.loopy_parts``'s; this module places the parts on workers and
keeps them safe:

* **Dask actors hold the parts.** One ``ClusterPartHost`` actor a worker holds that
  worker's parts (their work arrays never leave it). The client calls the hosts'
  methods for each step of a round (start, generate, apply, save, ...); a host takes
  the updates meant for its parts from the other hosts with an actor call of its own
  (``take``, a coroutine: it runs on the other worker's event loop, so two hosts that
  take from each other never wait for each other's actor thread). The arrays travel
  worker to worker over Dask's connections, never through the client.
* **Checkpoints.** After the start every host writes its parts' arrays whole into
  the build's work folder (a snapshot: ``loopy-TTTTTT/snapshot-RRRRRR/part-KKK.npz``);
  after each round it appends to each part's log there (``part-KKK.log``, synced)
  what the round changed: the move counter, value and remoteness of each position
  an update reached (``LoopyPart.log_round``). Then the client writes ``state.json``
  naming the round and its snapshot, in the background while the next round runs: a
  round is complete once it is named there. A
  new snapshot is written when the logs since the last one outgrow it
  (``LOG_SHARE``), and the one before is then removed. To resume, each part loads the
  snapshot, writes back the logged rounds up to the one named, and redoes what the
  rounds did beyond their logs (``loopy_parts._resume_rounds``).
* **Faults.** If a host cannot be reached (its worker died, was killed for memory, or
  its machine went), the client lets go of every host, makes new ones on the workers
  there are now (a nanny restarts a dead worker; a cluster may add others), loads the
  last complete round and goes on: the rounds are deterministic, so the tier ends
  with the same arrays. A build that stops resumes a split tier the same way.
* **Results.** Each host keeps its parts' records as pieces of the tier
  (``piece-TTTTTT-LO-HI.h5``), as IMMEDIATE tiers in pieces are kept, so the final
  merge reads them in order.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
import uuid
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from tiersolve.databases.lifecycle import resident_bytes
from tiersolve.databases.on_workers import ClusterError, open_partial, task_game, worker_threads
from tiersolve.solver import loopy, loopy_parts, tiers
from tiersolve.solver.common import ContractFailure, SolverError
from tiersolve.solver.loopy_parts import PartHost, RoundState, RoundStats, SplitStats

#: How many times a split tier starts again from its last complete round after a
#: host was lost, before the build stops.
MAX_RESTARTS = 5
#: Seconds between two readings of a host's resident memory.
MEMORY_SAMPLE_SECONDS = 0.02
#: Seconds to wait for a worker to appear when none is left.
WORKER_WAIT_SECONDS = 60
#: A new snapshot of the parts is written (instead of a round's log) once the logs
#: since the last snapshot hold more than this share of its bytes: a restart then
#: reads at most this much more than the snapshot. (Every round is kept, in the log;
#: whole writes after every round cost LOA 5x5's largest tier 145 s of its 317: 53
#: rounds of 600 MB.)
LOG_SHARE = 1.0
#: What a worker process holds before any tier: Python, numpy, numba with a game's
#: kernels, Dask (measured: 394 MB for Lines of Action 5x5's kernels).
WORKER_BASELINE_BYTES = 400 << 20
#: The least child records a worker reads at once when the child tiers do not fit
#: beside its parts (``child_window_bytes``).
MIN_WINDOW_BYTES = 64 << 20


def split_folder(partial_directory: Path, tier: int) -> Path:
    """Where a split tier keeps its rounds: ``loopy-TTTTTT`` in the partial build."""
    return Path(partial_directory) / f"loopy-{tier:06d}"


def _snapshot_folder(folder: Path, round_number: int) -> Path:
    return folder / f"snapshot-{round_number:06d}"


def _sample_memory(host: Callable[[], Any], stop: threading.Event) -> None:
    """Keep a host's ``peak``: the worker's largest resident memory seen."""
    while not stop.wait(MEMORY_SAMPLE_SECONDS):
        alive = host()
        if alive is None:
            return
        alive.peak = max(alive.peak, resident_bytes())
        del alive


class ClusterPartHost(PartHost):
    """A Dask actor: the parts of a split tier that one worker holds (``PartHost``),
    reading the tiers it needs from the partial build and keeping its records
    there, with a thread that samples the worker's resident memory."""

    def __init__(self, game_name: str, options_json: str, partial_directory: str, tier: int,
                 ranges: list[tuple[int, int]], mine: list[int], threads: int | None) -> None:
        game = task_game(game_name, options_json)
        self.partial = open_partial(Path(partial_directory), game)
        tiers.warm_up(game)
        super().__init__(game, tier, ranges, mine, threads or worker_threads())
        self.peers: list[Any] = []
        self.addresses: list[str] = []
        self.peak = resident_bytes()
        self._sampling = threading.Event()
        # The thread holds the host weakly: a host Dask drops without closing it (made
        # again after its worker died, then let go) is freed, and its thread ends.
        threading.Thread(target=_sample_memory, args=(weakref.ref(self), self._sampling),
                         daemon=True).start()

    def where(self) -> tuple[str, str]:
        """(this worker's address, its machine's name)."""
        from distributed import get_worker

        return get_worker().address, socket.gethostname()

    def join(self, host: int, owners: dict[int, int], peers: list[tuple[str, str]]) -> None:
        """This host's index, every part's host, and every host's (address, actor key)."""
        from distributed import Actor

        self.connect(host, owners)
        self.addresses = [address for address, _ in peers]
        self.peers = [None if h == host else Actor(type(self), address, key)
                      for h, (address, key) in enumerate(peers)]

    def start_from_children(self, window_bytes: int | None) -> dict[int, int]:
        """Phase 1 of every part, reading the child tiers from the partial build: whole,
        or (``window_bytes``) a window of that many bytes of records at a time."""
        dtype = tiers.records_type(self.game)
        if window_bytes is not None:
            windows = loopy_parts.child_windows(self.game, self.tier,
                                                max(1, window_bytes // dtype.itemsize))
            return self.start_in_windows(windows, self.partial.load_range, dtype)
        reads = {kid: np.ascontiguousarray(self.partial.load(kid), dtype=dtype)
                 for kid in tiers.tiers_read(self.game, self.tier)}
        try:
            return self.start(reads, dtype)
        finally:
            del reads

    async def take_remote(self, owners: list[int]) -> dict[tuple[int, int], np.ndarray]:
        """``take`` for another host (a coroutine: it runs on this worker's event loop,
        not on its actor thread, which may be busy)."""
        return self.take(owners)

    def pull(self) -> dict[tuple[int, int], np.ndarray]:
        """The updates for this host's parts: its own, and each other host's."""
        mine = list(self.parts)
        incoming = self.take(mine)
        calls = [peer.take_remote(mine) for peer in self.peers if peer is not None]
        for call in calls:
            incoming.update(call.result())
        return incoming

    def save_snapshot(self, folder: str) -> int:
        """Write the parts whole into ``folder``; returns the bytes of their arrays."""
        self.save(Path(folder))
        return sum(part.nbytes for part in self.parts.values())

    def load_round(self, folder: str, state: dict[str, Any]) -> None:
        self.load(Path(folder), RoundState(**state))

    def finish_and_keep(self) -> dict[int, tuple[np.ndarray, int]]:
        """Finish every part and keep its records as a piece of the tier; returns
        each part's (counts per value, largest remoteness)."""
        dtype = tiers.records_type(self.game)
        kept = {}
        for k, (records, counts, longest) in self.finish(dtype).items():
            self.partial.save_piece(self.tier, self.ranges[k][0], records, counts, longest)
            kept[k] = (counts, longest)
        return kept

    def memory(self) -> tuple[int, int]:
        """(the worker's peak resident bytes while this host lived, its parts' bytes)."""
        return self.peak, sum(part.nbytes for part in self.parts.values())

    def logging_seconds(self) -> float:
        """The seconds this host spent writing the rounds' logs."""
        return self.log_seconds

    def close(self) -> None:
        self._sampling.set()
        self.peers = []
        super().close()


class _DaskHosts:
    """The hosts of one attempt at a split tier, as ``loopy_parts.Hosts``."""

    def __init__(self, client: Any, task: Any, tier: int, ranges: list[tuple[int, int]]) -> None:
        workers = _wait_for_workers(client)
        count = min(len(workers), len(ranges))
        self.part_host = {k: k % count for k in range(len(ranges))}
        run = uuid.uuid4().hex[:8]
        self.client = client
        self.futures = [
            client.submit(ClusterPartHost, task.game, task.options_json, task.partial_directory,
                          tier, ranges, [k for k in range(len(ranges)) if k % count == h],
                          task.threads, actor=True, workers=[workers[h]], allow_other_workers=True,
                          key=f"loopy-parts-{tier}-{h}-{run}", pure=False)
            for h in range(count)]
        self.actors: list[Any] = []
        try:
            self.actors = [future.result() for future in self.futures]
            self.addresses = [address for address, _ in self.call("where")]
            peers = [(address, actor.key) for address, actor in zip(self.addresses, self.actors)]
            self.gather([actor.join(h, self.part_host, peers)
                         for h, actor in enumerate(self.actors)])
        except BaseException:
            self.close()
            raise

    def call(self, name: str, *args: Any) -> list[Any]:
        return self.gather([getattr(actor, name)(*args) for actor in self.actors])

    @staticmethod
    def gather(calls: list[Any]) -> list[Any]:
        """The results of actor calls; the first error is raised once every call ended
        (so no call of this attempt still runs when the next begins)."""
        results, error = [], None
        for call in calls:
            try:
                results.append(call.result())
            except BaseException as failed:  # re-raised below
                error = error or failed
        if error is not None:
            raise error
        return results

    def close(self) -> None:
        """Let go of the hosts (each frees its arrays; a lost one is simply dropped)."""
        for actor in self.actors:
            try:
                actor.close().result(timeout=30)
            except Exception:  # a host that was lost has nothing to free
                pass
        self.client.cancel(self.futures, force=True)


def _wait_for_workers(client: Any) -> list[str]:
    """The workers' addresses, waiting for one if there is none."""
    deadline = time.monotonic() + WORKER_WAIT_SECONDS
    while True:
        workers = sorted(client.scheduler_info().get("workers", {}))
        if workers:
            return workers
        if time.monotonic() > deadline:
            raise ClusterError("no Dask worker is left to solve a split tier")
        time.sleep(0.5)


@dataclass
class SplitReport:
    """A split tier's summary: as a task's, with its rounds (those run again after a
    restart included) and its hosts' memory."""

    tier: int
    parts: list[tuple[int, int]]
    counts: np.ndarray
    max_remoteness: int
    seconds: float
    start_seconds: float
    stats: SplitStats
    peak_bytes: dict[str, int] = field(default_factory=dict)   # worker -> peak resident
    part_bytes: dict[str, int] = field(default_factory=dict)   # worker -> its parts' arrays
    restarts: int = 0
    checkpoints: int = 0     # rounds kept (each logged, or a snapshot)
    snapshots: int = 0       # of which the parts were written whole
    checkpoint_seconds: float = 0.0  # every checkpoint, the start's snapshot included
    log_bytes: int = 0       # the rounds' logs, in all
    log_seconds: float = 0.0  # writing them, on the slowest host (inside the rounds' time)
    resumed_round: int = 0   # the round the last attempt began from (1: after the start)
    window_bytes: int | None = None  # child records read at once in the start (None: whole)

    def as_dict(self) -> dict[str, Any]:
        return {"tier": self.tier, "parts": [list(r) for r in self.parts],
                "counts": self.counts.tolist(), "max_remoteness": self.max_remoteness,
                "seconds": self.seconds, "start_seconds": self.start_seconds,
                "restarts": self.restarts, "checkpoints": self.checkpoints,
                "snapshots": self.snapshots, "checkpoint_seconds": self.checkpoint_seconds,
                "log_bytes": self.log_bytes, "log_seconds": self.log_seconds,
                "resumed_round": self.resumed_round,
                "window_bytes": self.window_bytes,
                "peak_bytes": self.peak_bytes,
                "part_bytes": self.part_bytes,
                "rounds": [r.as_dict() for r in self.stats.rounds]}


def _read_state(folder: Path, ranges: list[tuple[int, int]]) -> tuple[RoundState, int]:
    """The last complete round kept in ``folder`` and the round of its snapshot (a
    fresh start if there is none, or it was cut otherwise)."""
    try:
        kept = json.loads((folder / "state.json").read_text())
    except (OSError, ValueError):
        return RoundState(), 0
    if [tuple(r) for r in kept.get("parts", [])] != ranges or "snapshot" not in kept:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True, exist_ok=True)
        return RoundState(), 0
    return RoundState(kept["phase"], kept["tie"], kept["level"], kept["round"]), kept["snapshot"]


def _logged_bytes(snapshot: Path) -> int:
    """The bytes of the parts' logs in a snapshot's folder (the work folder is shared
    by the client and the workers)."""
    return sum(path.stat().st_size for path in snapshot.glob("*.log"))


def _write_state(folder: Path, state: RoundState, snapshot: int,
                 ranges: list[tuple[int, int]]) -> None:
    temporary = folder / "state.json.tmp"
    with open(temporary, "w") as handle:
        json.dump({**state.as_dict(), "snapshot": snapshot, "parts": [list(r) for r in ranges]},
                  handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, folder / "state.json")
    for old in folder.glob("snapshot-*"):
        if old.name < _snapshot_folder(folder, snapshot).name:
            shutil.rmtree(old, ignore_errors=True)


#: Errors of an actor call that mean its host was lost (its worker died or left).
def _host_lost(error: BaseException) -> bool:
    from distributed.client import FutureCancelledError

    if isinstance(error, (SolverError, ContractFailure)):
        return False
    return isinstance(error, (OSError, TimeoutError, FutureCancelledError)) or \
        "lost" in str(error) or type(error).__name__ in ("KilledWorker", "CancelledError")


def solve_split_tier(client: Any, game: Any, partial: Any, task: Any, tier: int, parts: int,
                     on_round: Callable[[RoundStats], None] | None = None,
                     on_attempt: Callable[[int], None] | None = None,
                     worker_memory: int | None = None) -> SplitReport:
    """Solve the LOOPY ``tier`` in ``parts`` parts on the cluster of ``client``, its
    records kept as pieces in ``partial``; returns its report. Resumes from the last
    complete round kept in the work folder; starts again from it when a host is lost
    (at most MAX_RESTARTS times). The parts read the child tiers in windows if they
    do not fit whole beside them in ``worker_memory`` (``child_window_bytes``).
    ``on_round`` sees each round's figures, ``on_attempt`` the number of each attempt
    (0 first)."""
    began = time.perf_counter()
    ranges = loopy_parts.part_ranges(int(game.tier_sizes[tier]), parts)
    folder = split_folder(partial.directory, tier)
    folder.mkdir(parents=True, exist_ok=True)
    stats = SplitStats()
    report = SplitReport(tier, ranges, np.zeros(0), 0, 0.0, 0.0, stats)
    for attempt in range(MAX_RESTARTS + 1):
        if on_attempt is not None:
            on_attempt(attempt)
        state, snapshot = _read_state(folder, ranges)
        report.resumed_round = state.round
        hosts = None
        kept = {"snapshot": snapshot, "bytes": 0, "logged": 0}
        # state.json is written in the background (in order, one at a time), while
        # the next round runs: the round is complete once it is written
        writer, writes = ThreadPoolExecutor(max_workers=1), []
        try:
            hosts = _DaskHosts(client, task, tier, ranges)

            def name_round(reached: RoundState, snapshot_round: int) -> None:
                if any(w.done() and w.exception() is not None for w in writes):
                    return  # a round after one that was not kept is not named either
                _write_state(folder, reached, snapshot_round, ranges)

            def written() -> None:
                """Raise the first error of the states written so far (KeyboardInterrupt
                included)."""
                for w in writes:
                    if w.done() and w.exception() is not None:
                        raise w.exception()

            def log_to(round_number: int) -> tuple[str, int] | None:
                """Where the hosts log a round as they apply its last updates: in the
                snapshot's folder, unless the logs outgrew it (LOG_SHARE: then a new
                snapshot keeps the round)."""
                if kept["logged"] > LOG_SHARE * kept["bytes"]:
                    return None
                return str(_snapshot_folder(folder, kept["snapshot"])), round_number

            def checkpoint(reached: RoundState, always: bool = False) -> None:
                """Keep the round: its log is written (``log_to``), or a snapshot now
                (always: after the start); then ``state.json`` names it."""
                writing = time.perf_counter()
                written()
                if always or kept["logged"] > LOG_SHARE * kept["bytes"]:
                    for w in writes:  # the states before name the snapshot before
                        w.exception()
                    written()
                    kept["bytes"] = sum(hosts.call(
                        "save_snapshot", str(_snapshot_folder(folder, reached.round))))
                    kept["snapshot"], kept["logged"] = reached.round, 0
                    report.snapshots += 1
                else:
                    logged = _logged_bytes(_snapshot_folder(folder, kept["snapshot"]))
                    report.log_bytes += logged - kept["logged"]
                    kept["logged"] = logged
                writes.append(writer.submit(name_round, RoundState(**reached.as_dict()),
                                            kept["snapshot"]))
                report.checkpoints += 1
                report.checkpoint_seconds += time.perf_counter() - writing

            if state.phase == "start":
                starting = time.perf_counter()
                report.window_bytes = child_window_bytes(
                    game, tier, len(ranges), len(hosts.actors), task.threads or 1, worker_memory)
                levels = hosts.call("start_from_children", report.window_bytes)
                report.start_seconds = time.perf_counter() - starting
                state = RoundState("levels", 0, min(min(r.values()) for r in levels), 1)
                checkpoint(state, always=True)
            else:
                hosts.call("load_round", str(_snapshot_folder(folder, snapshot)), state.as_dict())
                kept["logged"] = _logged_bytes(_snapshot_folder(folder, snapshot))
                kept["bytes"] = sum(path.stat().st_size
                                    for path in _snapshot_folder(folder, snapshot).glob("*.npz"))
            loopy_parts.solve_rounds(hosts, tier, state, checkpoint, stats, on_round, log_to)
            writer.shutdown(wait=True)
            written()
            for (_, own), address in zip(hosts.call("memory"), hosts.addresses):
                report.part_bytes[address] = own
            report.log_seconds = max(hosts.call("logging_seconds"))
            finished = {k: v for host in hosts.call("finish_and_keep") for k, v in host.items()}
            for (peak, _), address in zip(hosts.call("memory"), hosts.addresses):
                report.peak_bytes[address] = peak
            report.counts = sum(counts for counts, _ in finished.values())
            report.max_remoteness = max(longest for _, longest in finished.values())
            report.restarts = attempt
            report.seconds = time.perf_counter() - began
            shutil.rmtree(folder, ignore_errors=True)
            return report
        except ContractFailure as error:
            raise SolverError(tiers.describe_failure(game, tier, error.failure)) from None
        except BaseException as error:
            if isinstance(error, (KeyboardInterrupt, SolverError)) or not _host_lost(error):
                raise
            last = error
        finally:
            writer.shutdown(wait=True)  # every state named before the next attempt reads it
            if hosts is not None:
                hosts.close()
    raise ClusterError(f"{game.name}: split tier {tier} lost a host {MAX_RESTARTS + 1} times "
                       f"(last: {last}); its rounds so far are kept")


def child_window_bytes(game: Any, tier: int, parts: int, workers: int, threads: int,
                       limit: int | None) -> int | None:
    """How many bytes of child records a worker of a split tier reads at once: None
    (the child tiers whole) if they fit beside its parts within ``limit`` (or there is
    no limit), else what the parts leave of it, at least MIN_WINDOW_BYTES."""
    if not limit:
        return None
    fixed = split_worker_bytes(game, tier, parts, workers, threads, window_bytes=0)
    reads = sum(int(game.tier_sizes[t]) for t in tiers.tiers_read(game, tier)) * \
        tiers.records_type(game).itemsize
    if fixed + reads <= limit:
        return None
    return max(MIN_WINDOW_BYTES, limit - fixed)


def split_worker_bytes(game: Any, tier: int, parts: int, workers: int, threads: int,
                       window_bytes: int | None = None) -> int:
    """The memory one worker needs for ``tier`` in ``parts`` parts spread over
    ``workers`` workers: the worker process itself, its parts' arrays, and the
    larger of their update buffers and (while the parts start) the tiers they read,
    or ``window_bytes`` of them at a time."""
    size = int(game.tier_sizes[tier])
    ranges = loopy_parts.part_ranges(size, parts)
    hosts = max(1, min(workers, len(ranges)))
    record_bytes = tiers.records_type(game).itemsize
    reads = sum(int(game.tier_sizes[t]) for t in tiers.tiers_read(game, tier)) * record_bytes
    if window_bytes is not None:
        reads = min(reads, window_bytes)
    most = 0
    for h in range(hosts):
        mine = [ranges[k] for k in range(len(ranges)) if k % hosts == h]
        arrays = sum((hi - lo) * loopy.bytes_per_position(game) for lo, hi in mine)
        buffers = max(loopy_parts.part_work_bytes(game, size, hi - lo, threads)
                      - (hi - lo) * loopy.bytes_per_position(game) for lo, hi in mine)
        most = max(most, arrays + max(buffers, reads))
    return most + WORKER_BASELINE_BYTES
