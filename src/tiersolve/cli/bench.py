"""Benchmark database builds: seconds, positions per second, planned and measured peak
memory per position, and file size per position. Each case is built in a fresh process
(``python -m tiersolve build ...``). Run as ``tiersolve bench`` or ``scripts/bench.py``:

    tiersolve bench                                  # the standard cases (minutes)
    tiersolve bench --large                          # the large builds (hours)
    tiersolve bench "ttt --rows 4 --cols 4" --json   # chosen cases, JSON output
    tiersolve bench --cold                           # include numba compilation
    tiersolve bench --speedup "loa --rows 5 --cols 5 --max-pieces 4"
                                       # 1 vs 2 threads on the case's largest tier
    tiersolve bench --speedup --tier 12 "domineering --rows 6 --cols 6 --symmetry"
                                       # 1 vs 2 threads on one tier, without the build
    tiersolve bench --acyclic                        # every acyclic game, positions/s
    tiersolve bench --loopy                          # the loopy games' targets, positions/s
    tiersolve bench --huge                           # the landmark databases (hours)
    tiersolve bench --plan "loa --rows 5 --cols 5"   # plans only: no build
    tiersolve bench --reachable                      # databases of what play reaches
    tiersolve bench --cluster                        # in-process against a local Dask cluster
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

from tiersolve.databases.naming import human_bytes
from tiersolve.games import GAMES

#: How each case is built: the package's own command, in a fresh interpreter.
BUILD_COMMAND = [sys.executable, "-m", "tiersolve", "build"]

#: Minutes in all on two cores.
STANDARD_CASES = [
    "ttt --rows 4 --cols 4",
    "northcott --rows 4 --cols 7 --backward",
    "knightsdance --rows 8 --cols 8",
    "surround --rows 4 --cols 5 --wormholes",
    "domineering --rows 5 --cols 5",
    "clobber --rows 4 --cols 4",
    "clobber --rows 3 --cols 6",
    "breakthrough --rows 5 --cols 4",
    "loa --rows 4 --cols 4",
    "loa --rows 4 --cols 4 --symmetry",
    "surakarta --size 5",
    "pousse --size 3",
    "pousse --size 4",
    "quixo --size 4",
]
#: The issues' large builds: up to twenty minutes each (``--large``).
LARGE_CASES = [
    "konane --rows 5 --cols 5",
    "domineering --rows 6 --cols 5",
    "knightthrough --rows 5 --cols 4",
    "loa --rows 5 --cols 5 --max-pieces 4",
    "loa --rows 5 --cols 5 --max-pieces 5 --symmetry",
    "loa --rows 8 --cols 8 --max-pieces 3 --symmetry",
    "surakarta --size 4",
    "surakarta --size 6 --max-pieces 3",
    "surakarta --size 6 --max-pieces 4 --symmetry",
    "teeko",
]
#: Databases of what play reaches from the start (``--reachable``), minutes each;
#: Konane 6x6 (billions of positions) is among the ``--huge`` builds.
REACHABLE_CASES = [
    "surround --rows 5 --cols 5 --reachable",
    "surround --rows 6 --cols 6 --reachable",
    "clobber --rows 4 --cols 5 --reachable",
]
#: Every game without loopy tiers at its benchmark size, for its positions per second
#: (``--acyclic``; 1,2,...,10 has 22 positions, too few to time).
ACYCLIC_CASES = [
    "ttt --rows 4 --cols 4",
    "northcott --rows 5 --cols 8",
    "surround --rows 4 --cols 5 --wormholes",
    "konane --rows 5 --cols 5",
    "domineering --rows 6 --cols 5",
    "clobber --rows 3 --cols 6",
    "breakthrough --rows 5 --cols 4",
    "knightthrough --rows 5 --cols 4",
]
#: The loopy games at the sizes whose solve speed is tracked (``--loopy``): Lines of
#: Action, Surakarta, Pousse, Knight's Dance, Quixo and Teeko, tiers with cycles.
LOOPY_CASES = [
    "loa --rows 5 --cols 5 --max-pieces 4",
    "loa --rows 5 --cols 5 --max-pieces 5 --symmetry",
    "surakarta --size 6 --max-pieces 3",
    "pousse --size 4",
    "knightsdance --rows 8 --cols 8",
    "quixo --size 4",
    "teeko",
]
#: Builds of many minutes to hours (``--huge``): every position of 6x6 Domineering
#: (16 GB at its peak), what play reaches from 6x6 Konane's start, and the landmark
#: loopy and Breakthrough databases (docs/BENCHMARKS.md gives each one's figures).
HUGE_CASES = [
    "domineering --rows 6 --cols 6 --symmetry",
    "konane --rows 6 --cols 6 --reachable",
    "loa --rows 5 --cols 5 --symmetry",
    "loa --rows 6 --cols 6 --max-pieces 4 --symmetry",
    "surakarta --size 5 --max-pieces 6 --symmetry",
    "surakarta --size 6 --max-pieces 4 --symmetry",
    "surakarta --size 6 --max-pieces 4",
    "breakthrough --rows 6 --cols 4",
    "breakthrough --rows 5 --cols 5 --symmetry",
]
#: Every game at a small size, for what a first build costs (``--cold`` without cases):
#: each is built with an empty kernel cache, so compiling is most of its time.
COLD_CASES = [
    "1210",
    "breakthrough --rows 4 --cols 4",
    "clobber --rows 4 --cols 4",
    "domineering --rows 4 --cols 4",
    "knightsdance --rows 4 --cols 4",
    "knightthrough --rows 4 --cols 4",
    "konane --rows 3 --cols 4",
    "loa --rows 4 --cols 4",
    "northcott --rows 3 --cols 6",
    "pousse --size 3",
    "quixo --size 3",
    "surakarta --size 4 --max-pieces 2",
    "surround --rows 3 --cols 4",
    "teeko --size 3",
    "ttt --rows 3 --cols 3",
]
#: Domineering in-process and on a local Dask cluster of 2 workers (``--cluster``).
CLUSTER_CASES = [f"domineering --rows {rows} --cols 5{symmetry}{workers}"
                 for rows in (5, 6) for symmetry in ("", " --symmetry")
                 for workers in ("", " --workers 2")]


class CaseFailed(Exception):
    """A case's build failed (a build error, not a mistake in the command line)."""


class _CaseError(Exception):
    """A case that is not a game and options ``build`` takes."""


class _CaseParser(argparse.ArgumentParser):
    """Parses a case as ``build`` would (no abbreviated options), raising its error
    instead of exiting."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _CaseError(message)


#: build's options that bench sets itself (it writes a scratch file and reads the JSON
#: report) or that would make the case build nothing to time.
_NOT_IN_A_CASE = {"--out": "bench writes each case to a scratch file and deletes it",
                  "--json": "bench reads each build's report itself; give bench --json",
                  "--quiet": "bench builds every case quietly",
                  "--plan": "give bench --plan",
                  "--overwrite": "bench builds every case from nothing",
                  "--restart": "bench builds every case from nothing",
                  "--threads": "give bench --threads"}


def case_error(case: str) -> str | None:
    """Why ``case`` is not a game and options ``build`` takes, or None.

    >>> case_error("ttt --rows 3 --out /tmp/x.h5")
    "case 'ttt --rows 3 --out /tmp/x.h5': bench cannot honour --out (bench writes each case to a scratch file and deletes it)"
    """
    from tiersolve.cli.build import build_parser
    from tiersolve.cli.common import game_from_args

    words = shlex.split(case)
    if not words or words[0] not in GAMES:
        game = repr(words[0]) if words else "nothing"
        return f"case {case!r}: {game} is not a game (games: {', '.join(GAMES)})"
    for word in words[1:]:
        flag = word.split("=", 1)[0]
        if flag in _NOT_IN_A_CASE:
            return f"case {case!r}: bench cannot honour {flag} ({_NOT_IN_A_CASE[flag]})"
    try:
        game_from_args(build_parser("build", only=words[0], parser_class=_CaseParser)
                       .parse_args(words))
    except (_CaseError, ValueError) as error:
        return f"case {case!r}: {error}"
    return None


def run_case(case: str, threads: int | None, cold: bool, workdir: Path) -> dict:
    """Build one case in a subprocess; returns its build report plus derived figures."""
    out = workdir / "bench.h5"
    words = shlex.split(case)
    command = [*BUILD_COMMAND, *words, "--quiet", "--json", "--restart", "--out", str(out)]
    if threads:
        command += ["--threads", str(threads)]
    env = dict(os.environ)
    if cold:  # an empty numba cache: compilation is measured too
        env["TIERSOLVE_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-cache-", dir=workdir)
    used = _children_cpu_seconds()
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - began
    cpu = _children_cpu_seconds() - used
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["no output"]
        raise CaseFailed(f"'{case}' failed: {lines[-1]}")
    report = json.loads(done.stdout)
    out.unlink(missing_ok=True)
    report["case"] = case
    # The whole command as a user waits for it: the interpreter starting, the kernels
    # compiling (in the build's child processes too), the solve and the file.
    report["wall_seconds"] = wall
    report["cpu_seconds"] = cpu
    positions = report["positions"]
    report["positions_per_second"] = positions / max(report["solve_seconds"], 1e-9)
    for key in ("file_bytes", "planned_peak_bytes", "peak_rss_bytes", "solver_peak_bytes"):
        report[key.replace("_bytes", "") + "_bytes_per_position"] = report[key] / positions
    return report


def _children_cpu_seconds() -> float:
    """User and system CPU seconds of this process's finished child processes (and
    theirs, once waited for)."""
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def tier_speedup(case: str, tier: int) -> tuple[dict, dict]:
    """Time one tier of a case alone with 1 and with 2 threads, in this process: the
    tiers it reads (and theirs) are solved first, untimed. For builds too long to
    run twice (``--speedup`` builds the whole case twice)."""
    from tiersolve.cli.build import build_parser
    from tiersolve.cli.common import game_from_args
    from tiersolve.solver import tiers

    game = game_from_args(build_parser().parse_args(shlex.split(case)))
    if not 0 <= tier < game.tiers.count:
        raise _CaseError(f"'{case}' has tiers 0..{game.tiers.count - 1}, not {tier}")
    below, frontier = set(), [tier]
    while frontier:  # every tier that tier's tiers read, however far down
        for kid in set(tiers.tiers_read(game, frontier.pop())) - below:
            below.add(kid)
            frontier.append(kid)
    kept: dict[int, tuple] = {}
    tiers.solve(game, progress=False, only=below,
                sink=lambda t, records, counts, longest: kept.update({t: (records, counts, longest)}))
    timed = []
    for threads in (1, 2):
        stats = tiers.solve(game, threads=threads, progress=False, only={tier},
                            done={t: (counts, longest) for t, (_, counts, longest) in kept.items()},
                            load=lambda t: kept[t][0])
        timed.append({"case": case, "threads": threads,
                      "largest_tier": f"{tier} ({int(game.tier_sizes[tier]):,} positions)",
                      "largest_tier_seconds": stats.tier_seconds[tier]})
    return timed[0], timed[1]


def plan_case(case: str) -> dict:
    """The plan of one case, without building it."""
    command = [*BUILD_COMMAND, *shlex.split(case), "--plan", "--json"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["no output"]
        raise CaseFailed(f"'{case}' failed: {lines[-1]}")
    return {"case": case, **json.loads(done.stdout)}


def render(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                       for i, (cell, w) in enumerate(zip(row, widths))) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def table(reports: list[dict]) -> str:
    rows = [("case", "positions", "solve s", "total s", "pos/s", "planned", "peak RSS",
             "plan/peak", "planned B/pos", "peak B/pos", "file B/pos", "start")]
    for r in reports:
        start = r["start_value"] + ("" if r["start_remoteness"] is None else f" {r['start_remoteness']}")
        rows.append((r["case"], f"{r['positions']:,}", f"{r['solve_seconds']:.1f}",
                     f"{r['total_seconds']:.1f}", f"{r['positions_per_second']:,.0f}",
                     human_bytes(r["planned_peak_bytes"]) if r["planned_peak_bytes"] else "-",
                     human_bytes(r["peak_rss_bytes"]),
                     f"{r['planned_peak_bytes'] / r['peak_rss_bytes']:.2f}"
                     if r["planned_peak_bytes"] else "-",
                     f"{r['planned_peak_bytes_per_position']:.2f}",
                     f"{r['peak_rss_bytes_per_position']:.2f}",
                     f"{r['file_bytes_per_position']:.3f}", start))
    return render(rows)


def cold_table(reports: list[dict]) -> str:
    """What each first build cost: the command's wall and CPU seconds, and the build's
    own compile and solve seconds."""
    rows = [("case", "wall s", "CPU s", "compile s", "solve s", "positions")]
    for r in reports:
        rows.append((r["case"], f"{r['wall_seconds']:.1f}", f"{r['cpu_seconds']:.1f}",
                     f"{r['compile_seconds']:.1f}", f"{r['solve_seconds']:.2f}",
                     f"{r['positions']:,}"))
    return render(rows)


def plan_table(plans: list[dict]) -> str:
    rows = [("case", "positions", "tiers", "solver", "planned memory", "planned B/pos")]
    for p in plans:
        rows.append((p["case"], f"{p['positions']:,}", f"{p['tiers']:,}", p["solver"],
                     human_bytes(p["planned_peak_bytes"]),
                     f"{p['planned_peak_bytes'] / p['positions']:.2f}"))
    return render(rows)


def speedup_table(pairs: list[tuple[dict, dict]]) -> str:
    rows = [("case", "largest tier", "1 thread s", "2 threads s", "speed-up")]
    for one, two in pairs:
        rows.append((one["case"], one["largest_tier"], f"{one['largest_tier_seconds']:.1f}",
                     f"{two['largest_tier_seconds']:.1f}",
                     f"{one['largest_tier_seconds'] / max(two['largest_tier_seconds'], 1e-9):.2f}x"))
    return render(rows)


#: The sets of cases, by the option that picks them (none: the standard ones).
CASE_SETS = {"large": LARGE_CASES, "reachable": REACHABLE_CASES, "cluster": CLUSTER_CASES,
             "acyclic": ACYCLIC_CASES, "loopy": LOOPY_CASES, "huge": HUGE_CASES}


def bench_parser(prog: str = "bench.py") -> argparse.ArgumentParser:
    from tiersolve.cli.common import OneLineParser, invocation, whole_number

    run = invocation(prog)
    parser = OneLineParser(
        prog=prog,
        description="Benchmark database builds: seconds, positions per second, planned and\n"
                    "measured peak memory per position, and file size per position. Each case\n"
                    "is built in a fresh process, as 'tiersolve build CASE' builds it.",
        epilog=f"examples:\n  {run} \"ttt --rows 3 --cols 3\"\n"
               f"  {run} --plan \"loa --rows 5 --cols 5\"\n"
               f"  {run} --cold 1210\n\n"
               "Without a CASE it runs a set of cases: the standard ones (minutes), the\n"
               "first build of every game with --cold, or the set an option above names.\n"
               "docs/BENCHMARKS.md holds the tables they made.")
    parser.add_argument("cases", nargs="*", metavar="CASE",
                        help='a game and its options as for build, quoted, e.g. "ttt --rows 4"')
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--threads", type=whole_number(1), default=None, metavar="N",
                        help="worker threads (default: all cores)")
    parser.add_argument("--cold", action="store_true",
                        help="compile numba kernels from scratch (an empty cache) in every case; "
                             "without cases, every game's first build at a small size: "
                             + "; ".join(COLD_CASES))
    parser.add_argument("--speedup", action="store_true",
                        help="build each case with 1 and with 2 threads and compare the time of "
                             "its largest tier")
    parser.add_argument("--plan", action="store_true", help="only print each case's plan")
    parser.add_argument("--large", action="store_true",
                        help="the large cases (up to twenty minutes each): " + "; ".join(LARGE_CASES))
    parser.add_argument("--reachable", action="store_true",
                        help="the --reachable cases (databases of what play reaches from the "
                             "start): " + "; ".join(REACHABLE_CASES))
    parser.add_argument("--cluster", action="store_true",
                        help="Domineering 5x5 and 6x5 in-process and on a local Dask cluster")
    parser.add_argument("--acyclic", action="store_true",
                        help="every game without loopy tiers at its benchmark size")
    parser.add_argument("--loopy", action="store_true",
                        help="the loopy games at their benchmark sizes: " + "; ".join(LOOPY_CASES))
    parser.add_argument("--huge", action="store_true",
                        help="the builds of hours: " + "; ".join(HUGE_CASES))
    parser.add_argument("--tier", type=whole_number(0), default=None, metavar="T",
                        help="with --speedup: time only tier T (the tiers it reads are solved "
                             "first, untimed), in this process")
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "bench.py") -> int:
    """Entry point of ``tiersolve bench`` and ``scripts/bench.py``."""
    from tiersolve.cli.common import fail

    parser = bench_parser(prog)
    args = parser.parse_args(argv)
    if args.tier is not None and not args.speedup:
        parser.error("--tier goes with --speedup")
    chosen = [name for name in CASE_SETS if getattr(args, name)]
    if chosen:
        default = CASE_SETS[chosen[0]]
    else:
        default = COLD_CASES if args.cold else STANDARD_CASES
    cases = args.cases or default
    errors = [error for error in map(case_error, cases) if error]
    if errors:  # a mistake in a case is found before anything runs
        return fail(parser.prog, errors[0])
    try:
        return _run(cases, args)
    except _CaseError as error:
        return fail(parser.prog, str(error))
    except CaseFailed as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 1


def _run(cases: list[str], args: argparse.Namespace) -> int:
    if args.plan:
        plans = [plan_case(case) for case in cases]
        print(json.dumps(plans, indent=2) if args.json else plan_table(plans))
        return 0
    reports = []
    with tempfile.TemporaryDirectory(prefix="bench-") as workdir:
        for case in cases:
            if args.tier is not None:
                reports.append(tier_speedup(case, args.tier))
            elif args.speedup:
                reports.append((run_case(case, 1, args.cold, Path(workdir)),
                                run_case(case, 2, args.cold, Path(workdir))))
            else:
                reports.append(run_case(case, args.threads, args.cold, Path(workdir)))
            if not args.json:
                print(f"done: {case}", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps(reports, indent=2))
    else:
        if args.speedup:
            print(speedup_table(reports))
        else:
            print(cold_table(reports) if args.cold else table(reports))
    return 0
