#!/usr/bin/env python3
"""Benchmark database builds: compile and solve time, positions per second, peak memory
and file size. Each case runs ``build_db.py`` in a fresh process.

    python scripts/bench.py                                  # the standard cases (~15 minutes)
    python scripts/bench.py "ttt --rows 4 --cols 4" --json   # chosen cases, JSON output
    python scripts/bench.py --cold                           # include numba compilation
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout too

from databases.build import human_bytes  # noqa: E402

STANDARD_CASES = [
    "ttt --rows 4 --cols 4",
    "northcott --rows 4 --cols 7 --backward",
    "knightsdance --rows 8 --cols 8",
    "surround --rows 4 --cols 5 --wormholes",
    "konane --rows 5 --cols 5",
    "konane --rows 5 --cols 5 --goagain-any",
    "domineering --rows 5 --cols 5",
    "domineering --rows 6 --cols 5",
    "clobber --rows 4 --cols 4",
    "clobber --rows 3 --cols 6",
    "breakthrough --rows 4 --cols 4",
    "breakthrough --rows 5 --cols 4",
    "knightthrough --rows 4 --cols 4",
    "knightthrough --rows 5 --cols 4",
]


def run_case(case: str, threads: int | None, cold: bool, workdir: Path) -> dict:
    """Build one case in a subprocess; returns its build report plus derived figures."""
    out = workdir / "bench.h5"
    command = [sys.executable, str(ROOT / "scripts" / "build_db.py"), *shlex.split(case),
               "--quiet", "--json", "--out", str(out)]
    if threads:
        command += ["--threads", str(threads)]
    env = dict(os.environ)
    if cold:  # an empty numba cache: compilation is measured too
        env["GAMESOLVER_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-cache-", dir=workdir)
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"bench.py: error: '{case}' failed: {done.stderr.strip().splitlines()[-1]}")
    report = json.loads(done.stdout)
    out.unlink(missing_ok=True)
    report["case"] = case
    report["positions_per_second"] = report["positions"] / max(report["solve_seconds"], 1e-9)
    report["file_bytes_per_position"] = report["file_bytes"] / report["positions"]
    return report


def table(reports: list[dict]) -> str:
    header = ("case", "positions", "compile s", "solve s", "write s", "total s", "pos/s",
              "peak RSS", "file", "B/pos", "start")
    rows = [header]
    for r in reports:
        start = r["start_value"] + ("" if r["start_remoteness"] is None else f" {r['start_remoteness']}")
        rows.append((r["case"], f"{r['positions']:,}", f"{r['compile_seconds']:.2f}",
                     f"{r['solve_seconds']:.2f}", f"{r['write_seconds']:.2f}", f"{r['total_seconds']:.2f}",
                     f"{r['positions_per_second']:,.0f}", human_bytes(r["peak_rss_bytes"]),
                     human_bytes(r["file_bytes"]), f"{r['file_bytes_per_position']:.3f}", start))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                       for i, (cell, w) in enumerate(zip(row, widths))) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="bench.py", description=__doc__.split("\n\n")[0],
        epilog="Standard cases: " + "; ".join(STANDARD_CASES))
    parser.add_argument("cases", nargs="*", metavar="CASE",
                        help='a game and its options as for build_db.py, quoted, e.g. "ttt --rows 4"')
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    parser.add_argument("--cold", action="store_true",
                        help="compile numba kernels from scratch (an empty cache) in every case")
    args = parser.parse_args()
    reports = []
    with tempfile.TemporaryDirectory(prefix="bench-") as workdir:
        for case in args.cases or STANDARD_CASES:
            reports.append(run_case(case, args.threads, args.cold, Path(workdir)))
            if not args.json:
                print(f"done: {case}", file=sys.stderr, flush=True)
    print(json.dumps(reports, indent=2) if args.json else table(reports))
    return 0


if __name__ == "__main__":
    sys.exit(main())
