#!/usr/bin/env python3
"""Loopy tiers solved in parts on a local Dask cluster, measured (docs/CLUSTER.md).

    python scripts/bench_split.py identical            # every case, 2 and 4 workers, K = 2, 3, 4
    python scripts/bench_split.py identical "quixo --size 4" --workers 2 --parts 2
    python scripts/bench_split.py tier "loa --rows 5 --cols 5 --max-pieces 4"   # largest tier: whole vs 2 parts
    python scripts/bench_split.py memory "loa --rows 5 --cols 5 --max-pieces 4" --worker-memory 1GiB

``identical`` builds each case in this process and then on a local cluster of N
workers with every loopy tier in K parts, and checks that the value and remoteness
arrays are identical; it prints one JSON line a build with the figures of the split
tier of the most positions (rounds, exchanges, parents sent, bytes between workers,
each worker's peak memory, seconds of rounds and of checkpoints).

``tier`` solves the game's largest loopy tier alone, alternately whole (in this
process, reading and keeping tiers as a cluster task does) and in K parts on N
workers, and prints the seconds of each.

``memory`` builds on N workers whose Dask memory limit is ``--worker-memory``: a
loopy tier that needs more is split, and each worker's peak resident memory is
printed against the limit.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import tempfile
import time
from pathlib import Path

from _installed import require_tiersolve

#: The five games of issue 42 at the sizes it names.
CASES = [
    "quixo --size 4",
    "knightsdance --rows 5 --cols 5",
    "pousse --size 4",
    "surakarta --size 6 --max-pieces 3",
    "loa --rows 5 --cols 5 --max-pieces 4",
]


def _game(case: str):
    from tiersolve.cli.build import build_parser
    from tiersolve.cli.common import game_from_args

    argv = shlex.split(case)
    return game_from_args(build_parser(only=argv[0]).parse_args(argv))


def _arrays(path: Path):
    from tiersolve.databases import open_database

    with open_database(path) as db:
        return db.value_array(), db.remoteness_array()


def _largest_split(report) -> dict:
    return max(report.split_tiers, key=lambda s: s["parts"][-1][1])


def _summary(split: dict) -> dict:
    rounds = split["rounds"]
    return {
        "tier": split["tier"], "positions": split["parts"][-1][1], "parts": len(split["parts"]),
        "seconds": round(split["seconds"], 2), "start_seconds": round(split["start_seconds"], 2),
        "rounds": len(rounds), "exchanges": sum(r["exchanges"] for r in rounds),
        "parents_sent": sum(r["updates"] for r in rounds),
        "parents_between_parts": sum(r["between_parts"] for r in rounds),
        "bytes_between_workers": sum(r["bytes_between_hosts"] for r in rounds),
        "most_bytes_in_a_round": max((r["bytes_between_hosts"] for r in rounds), default=0),
        "round_seconds": round(sum(r["seconds"] for r in rounds), 2),
        "checkpoint_seconds": round(sum(r["checkpoint_seconds"] for r in rounds), 2),
        "checkpoints": split["checkpoints"], "restarts": split["restarts"],
        "snapshots": split.get("snapshots"), "log_mib": round(split.get("log_bytes", 0) / 2**20, 1),
        "all_checkpoint_seconds": round(split.get("checkpoint_seconds", 0.0), 2),
        "log_seconds": round(split.get("log_seconds", 0.0), 2),
        "peak_mib": sorted(v >> 20 for v in split["peak_bytes"].values()),
        "part_mib": sorted(v >> 20 for v in split["part_bytes"].values()),
    }


def identical(cases: list[str], workers: list[int], parts: list[int], threads: int) -> None:
    import distributed
    from tiersolve.databases.build import build_database
    import numpy as np

    folder = Path(tempfile.mkdtemp(prefix="bench-split-"))
    references = {}
    for case in cases:
        game = _game(case)
        references[case] = folder / f"{game.label()}-in-process.h5"
        began = time.perf_counter()
        build_database(game, references[case], progress=False, threads=threads)
        print(json.dumps({"case": case, "in_process_seconds": round(time.perf_counter() - began, 2)}),
              flush=True)
    for count in workers:
        with distributed.LocalCluster(n_workers=count, threads_per_worker=1, processes=True,
                                      dashboard_address=":0") as cluster:
            for case in cases:
                game = _game(case)
                expected = _arrays(references[case])
                for k in parts:
                    out = folder / f"{game.label()}-{count}-{k}.h5"
                    began = time.perf_counter()
                    report = build_database(game, out, progress=False, loopy_parts=k,
                                            scheduler=cluster.scheduler_address)
                    seconds = time.perf_counter() - began
                    values, remoteness = _arrays(out)
                    same = bool(np.array_equal(values, expected[0])
                                and np.array_equal(remoteness, expected[1]))
                    print(json.dumps({"case": case, "workers": count, "K": k, "identical": same,
                                      "seconds": round(seconds, 2),
                                      "split_tiers": len(report.split_tiers),
                                      "largest": _summary(_largest_split(report))}), flush=True)
                    out.unlink()


def tier(case: str, workers: int, parts: int, threads: int, repeats: int) -> None:
    """The game's largest loopy tier alone: whole in this process, then in parts."""
    import distributed
    from tiersolve.contract import TierType
    from tiersolve.databases.cluster import TierTask
    from tiersolve.databases.format import PartialBuild
    from tiersolve.databases.split import solve_split_tier
    from tiersolve.solver import tiers

    game = _game(case)
    largest = max((t for t in range(len(game.tier_sizes))
                   if tiers.tier_type(game, t) == TierType.LOOPY),
                  key=lambda t: int(game.tier_sizes[t]))
    folder = Path(tempfile.mkdtemp(prefix="bench-split-tier-"))
    partial = PartialBuild(folder / "db.h5", game, tiers.records_type(game))
    below, reading = set(), list(tiers.tiers_read(game, largest))
    while reading:  # every tier the largest reads, directly or not
        kid = reading.pop()
        if kid not in below:
            below.add(kid)
            reading.extend(tiers.tiers_read(game, kid))
    tiers.solve(game, threads=threads, progress=False, sink=partial.save, only=below,
                load=partial.load)
    task = TierTask(game.name, json.dumps(game.options, sort_keys=True),
                    str(partial.directory.resolve()), threads)
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        solve_split_tier(client, game, partial, task, largest, parts)  # workers load kernels
        for _ in range(repeats):
            began = time.perf_counter()
            tiers.solve(game, threads=threads, progress=False, only={largest},
                        load=partial.load, sink=partial.save, announce=False)
            whole = time.perf_counter() - began
            report = solve_split_tier(client, game, partial, task, largest, parts)
            print(json.dumps({"case": case, "tier": largest, "positions": int(game.tier_sizes[largest]),
                              "whole_seconds": round(whole, 2), "workers": workers, "K": parts,
                              "split_seconds": round(report.seconds, 2),
                              "ratio": round(report.seconds / whole, 2),
                              "largest": _summary(report.as_dict())}), flush=True)


def memory(case: str, workers: int, worker_memory: int) -> None:
    from tiersolve.databases.build import build_database

    game = _game(case)
    out = Path(tempfile.mkdtemp(prefix="bench-split-memory-")) / "db.h5"
    report = build_database(game, out, progress=False, workers=workers,
                            worker_memory=worker_memory)
    for split in report.split_tiers:
        print(json.dumps({"case": case, "worker_memory": worker_memory, "workers": workers,
                          "under_limit": max(split["peak_bytes"].values()) < worker_memory,
                          **_summary(split)}), flush=True)
    print(json.dumps({"case": case, "split_tiers": len(report.split_tiers),
                      "seconds": round(report.total_seconds, 2)}), flush=True)


def main(argv: list[str]) -> int:
    from tiersolve.cli.common import byte_size

    parser = argparse.ArgumentParser(prog="bench_split.py", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["identical", "tier", "memory"])
    parser.add_argument("cases", nargs="*", help=f"game and options (default: {'; '.join(CASES)})")
    parser.add_argument("--workers", type=int, nargs="+", default=None)
    parser.add_argument("--parts", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--threads", type=int, default=2, help="threads in this process")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--worker-memory", type=byte_size, default=1 << 30)
    args = parser.parse_args(argv)
    cases = args.cases or CASES
    if args.what == "identical":
        identical(cases, args.workers or [2, 4], args.parts, args.threads)
    elif args.what == "tier":
        for case in cases:
            tier(case, (args.workers or [2])[0], args.parts[0], args.threads, args.repeats)
    else:
        for case in cases:
            memory(case, (args.workers or [2])[0], args.worker_memory)
    return 0


if __name__ == "__main__":
    require_tiersolve("bench_split.py")
    sys.exit(main(sys.argv[1:]))
