"""``tiersolve build`` (and ``scripts/build_db.py``): solve a game and write its
database, in this process, on a Dask cluster, or only what play reaches.

>>> build_main(["1210", "--plan", "--json"])  # doctest: +ELLIPSIS
{
  "game": "1210",
...
0
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from tiersolve.cli.common import (
    EXIT_INTERRUPTED, OneLineParser, add_game_options, byte_size, fail, game_from_args,
    games_list, invocation, print_or_discard, whole_number,
)
from tiersolve.games import GAMES, game_class
from tiersolve.solver.interrupts import stopping_on_signals


def _games_epilog(prog: str) -> str:
    run = invocation(prog)
    return (f"games and their options (defaults):\n{games_list(True)}\n\n"
            f"Run '{run} GAME --help' for what each option means.\n\n"
            f"examples:\n  {run} northcott --rows 3 --cols 6\n"
            f"  {run} loa --rows 5 --cols 5 --max-pieces 4 --plan")


def build_parser(prog: str = "build_db.py", only: str | None = None,
                 parser_class: type[argparse.ArgumentParser] = OneLineParser
                 ) -> argparse.ArgumentParser:
    """The build command's parser; ``only`` (a game name) registers just that game,
    so a build imports no other game's module (start-up: docs/PROFILE.md)."""
    parser = parser_class(
        prog=prog,
        description="Strongly solve a game (every position's value and remoteness) and write\n"
                    "the results to an HDF5 database.",
        epilog=None if only else _games_epilog(prog))
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True,
                                  parser_class=parser_class, help="one of the games below")
    for name in [only] if only in GAMES else GAMES:
        cls = game_class(name)
        # no help=: the games are listed once, with their options, in the epilog
        sub = games.add_parser(name, description=f"Solve {cls.title}.",
                               epilog=f"example: {invocation(prog)} {name} --plan")
        add_game_options(sub, cls)
        run = sub.add_argument_group("build options")
        run.add_argument("--out", metavar="FILE.h5",
                         help="where to write the database (default: db/<game>_<size>_<flags>.h5, "
                              "or $TIERSOLVE_DB_DIR instead of db/)")
        run.add_argument("--start", metavar="POSITION", action="append",
                         help="the start position reported in the summary and stored in the file "
                              "(default: the game's standard start); with --reachable, may be "
                              "given several times")
        run.add_argument("--reachable", action="store_true",
                         help="solve and store only the positions play reaches from the start "
                              "(or from every --start): a small file for a huge index space")
        run.add_argument("--threads", type=whole_number(1), default=None, metavar="N",
                         help="worker threads (default: all cores)")
        add_cluster_options(run)
        run.add_argument("--force", action="store_true",
                         help="build even if the memory estimate exceeds the available memory")
        run.add_argument("--restart", action="store_true",
                         help="discard the tiers an interrupted build of this file kept "
                              "(by default a build resumes from them)")
        run.add_argument("--overwrite", action="store_true",
                         help="rebuild even if the database file already exists (by default an "
                              "identical database is kept, and any other file is refused)")
        run.add_argument("--plan", action="store_true",
                         help="only print the number of positions and the memory needed")
        run.add_argument("--quiet", action="store_true", help="no progress bars")
        run.add_argument("--json", action="store_true",
                         help="print the build report (or, with --plan, the plan) as JSON "
                              "on standard output instead of text (progress stays on standard "
                              "error: add --quiet for none)")
    return parser


def _build_reachable(prog: str, game, args: argparse.Namespace) -> int:
    """``build --reachable``: search, solve and store what play reaches."""
    from tiersolve.databases.reachable import build_reachable

    if args.plan:
        return fail(prog, "--plan does not apply to --reachable: the reachable positions are "
                          "only known by searching them")
    try:
        with stopping_on_signals():  # SIGTERM as Ctrl-C; neither is lost (solver.interrupts)
            report = build_reachable(game, args.out, starts=args.start,
                                     progress=not args.quiet, force=args.force,
                                     overwrite=args.overwrite, restart=args.restart,
                                     threads=args.threads)
    except ValueError as error:  # BuildRefused, a bad start
        return fail(prog, str(error))
    except KeyboardInterrupt:
        from tiersolve.solver.reachable import has_loopy_tiers

        kept = "" if has_loopy_tiers(game) else \
            "; run the same command again to resume from the tiers it finished (--restart to start over)"
        print(f"\n{prog}: interrupted{kept}", file=sys.stderr, flush=True)
        return EXIT_INTERRUPTED
    print(report.to_json() if args.json else report.summary_line())
    return 0


def add_cluster_options(group: argparse._ArgumentGroup) -> None:
    """``--workers``, ``--scheduler`` and ``--work-dir`` (docs/CLUSTER.md)."""
    group.add_argument("--workers", type=whole_number(1), default=None, metavar="N",
                       help="solve the tiers as Dask tasks on N worker processes of this machine "
                            "(needs the cluster extra; see docs/CLUSTER.md)")
    group.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                       help="solve the tiers as tasks on the existing Dask cluster of this "
                            "scheduler (the work dir must be on a filesystem every worker shares)")
    group.add_argument("--work-dir", metavar="DIR",
                       help="keep the solved tiers in DIR/<file>.partial/ instead of next to "
                            "the database file")
    group.add_argument("--worker-memory", type=byte_size, metavar="SIZE",
                       help="the memory a worker may use (e.g. 20GiB; with --workers, each "
                            "worker's Dask memory limit; default: the workers' own limit): a "
                            "loopy tier that needs more is solved in parts across the workers")
    group.add_argument("--loopy-parts", type=whole_number(2), metavar="K",
                       help="solve every loopy tier on the cluster in K parts, whatever its size "
                            "(for tests and measurements)")


def _cluster_usage_error(args: argparse.Namespace) -> str | None:
    """Why the cluster options cannot be used as given, or None."""
    if args.reachable and (args.workers, args.scheduler, args.work_dir) != (None, None, None):
        return "--workers, --scheduler and --work-dir do not apply to --reachable"
    if args.workers is None and args.scheduler is None:
        if args.worker_memory is not None or args.loopy_parts is not None:
            return "--worker-memory and --loopy-parts need --workers N or --scheduler ADDRESS"
        return None
    from tiersolve.databases.cluster import ClusterError, check_cluster_options

    try:
        check_cluster_options(args.workers, args.scheduler)
    except ClusterError as error:
        return str(error)
    return None


def build_main(argv: Sequence[str] | None = None, prog: str = "build_db.py") -> int:
    """Entry point of ``scripts/build_db.py`` and ``tiersolve build``."""
    from tiersolve.databases.build import build_database, plan, plan_report
    from tiersolve.databases.format import PartialBuildMismatch
    from tiersolve.databases.lifecycle import BuildRefused

    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(prog, only=argv[0] if argv and argv[0] in GAMES else None)
    args = parser.parse_args(argv)
    try:
        game = game_from_args(args)
    except ValueError as error:
        return fail(parser.prog, str(error))
    cluster_error = _cluster_usage_error(args)
    if cluster_error is not None:
        return fail(parser.prog, cluster_error)
    if not args.plan:  # an output that cannot be written is refused before anything else
        from pathlib import Path

        from tiersolve.databases.build import default_output
        from tiersolve.databases.lifecycle import check_output, check_work_dir

        try:
            check_output(default_output(game, args.out, args.reachable))
            if args.work_dir is not None:
                check_work_dir(Path(args.work_dir))
        except BuildRefused as error:
            return fail(parser.prog, str(error))
    if args.reachable:
        return _build_reachable(parser.prog, game, args)
    if args.start and len(args.start) > 1:
        return fail(parser.prog, "--start is given once, unless with --reachable")
    args.start = args.start[0] if args.start else None
    split = None
    if args.plan and (args.workers is not None or args.scheduler is not None):
        from tiersolve.databases.cluster import ClusterError, split_plan

        try:
            split = split_plan(game, workers=args.workers, scheduler=args.scheduler,
                               worker_memory=args.worker_memory, parts=args.loopy_parts,
                               threads=args.threads)
        except ClusterError as error:
            return fail(parser.prog, str(error))
    if args.plan and args.json:
        print(json.dumps({**plan_report(game, args.threads),
                          **({"split_tiers": split} if split is not None else {})}, indent=2))
        return 0
    if not args.json:
        print_or_discard(plan(game, args.threads))  # the build goes on if the reader went
        if split is not None:
            from tiersolve.databases.cluster import split_plan_lines

            for line in split_plan_lines(split):
                print_or_discard(line)
    if args.plan:
        return 0
    try:
        with stopping_on_signals():  # SIGTERM as Ctrl-C; neither is lost (solver.interrupts)
            report = build_database(game, args.out, start=args.start, threads=args.threads,
                                    progress=not args.quiet, force=args.force,
                                    restart=args.restart, overwrite=args.overwrite,
                                    workers=args.workers, scheduler=args.scheduler,
                                    work_dir=args.work_dir, worker_memory=args.worker_memory,
                                    loopy_parts=args.loopy_parts)
    except (BuildRefused, PartialBuildMismatch) as error:
        return fail(parser.prog, str(error))
    except ValueError as error:
        return fail(parser.prog, str(error))
    except KeyboardInterrupt:
        print(f"\n{parser.prog}: interrupted; the tiers solved so far are kept: run the same "
              "command again to resume (--restart to start over)", file=sys.stderr, flush=True)
        return EXIT_INTERRUPTED
    print(report.to_json() if args.json else report.summary_line())
    return 0
