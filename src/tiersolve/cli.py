"""The ``tiersolve`` command and its subcommands ``build``, ``query`` and ``info``
(``play``, ``bench`` and ``serve`` have modules of their own), and what they share: one-line
errors with exit code 2, the game options as command-line flags, and ``run``.

Each subcommand is also a script (``scripts/build_db.py`` is ``tiersolve build``);
``tiersolve COMMAND --help`` tells its options, with examples that run as printed.

>>> main(["info", "no/such/file.h5"])
2
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict
from typing import Callable, Sequence

from tiersolve.games import GAMES, game_class, make_game
from tiersolve.games.base import Option
from tiersolve.solver.interrupts import stopping_on_signals

EXIT_USAGE = 2


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are a single line, and whose description and
    epilog are printed as written (examples stay one to a line)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see --help)\n")


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Option help in a column wide enough for every game's name and option."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=32)


def fail(prog: str, message: str) -> int:
    """Print ``prog: error: message`` on stderr; returns the exit code of a user error."""
    print(f"{prog}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def whole_number(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum``.

    >>> whole_number(1)("3")
    3
    """
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    parse.__name__ = "whole number"
    return parse


def seconds(text: str) -> float:
    """An argparse type: a number of seconds above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:  # NaN fails too
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, got {text}")
    return value


def _option_help(option: Option) -> str:
    if option.kind is bool:
        return option.help
    return f"{option.help} (default {option.default})"


#: The scripts that are the same programs as commands (``scripts/<file>``).
SCRIPTS = {"build": "build_db.py", "query": "query.py", "bench": "bench.py"}


def _invocation(prog: str, command: str | None = None) -> str:
    """How a user runs ``prog`` (``python scripts/build_db.py`` or ``tiersolve build``),
    or with ``command``, how the same user runs that other command."""
    script = prog.endswith(".py")
    if command is None:
        return f"python scripts/{prog}" if script else prog
    if script and command in SCRIPTS:
        return f"python scripts/{SCRIPTS[command]}"
    return f"tiersolve {command}"


def games_list(with_options: bool) -> str:
    """Every game, its title and (``with_options``) its options with their defaults,
    one game a line."""
    width = max(map(len, GAMES))
    lines = []
    for name in GAMES:
        cls = game_class(name)
        flags = ", ".join(o.flag if o.kind is bool else f"{o.flag} {o.default}"
                          for o in cls.options_spec)
        lines.append(f"  {name:<{width}}  {cls.title}" + (f": {flags}" if with_options else ""))
    return "\n".join(lines)


def _games_epilog(prog: str) -> str:
    run = _invocation(prog)
    return (f"games and their options (defaults):\n{games_list(True)}\n\n"
            f"Run '{run} GAME --help' for what each option means.\n\n"
            f"examples:\n  {run} northcott --rows 3 --cols 6\n"
            f"  {run} loa --rows 5 --cols 5 --max-pieces 4 --plan")


def add_game_options(parser: argparse.ArgumentParser, cls) -> None:
    """The options of a game class (``--rows N``, ``--misere`` ...) as an argument group."""
    rules = parser.add_argument_group(f"{cls.name} options")
    for option in cls.options_spec:
        if option.kind is bool:
            rules.add_argument(option.flag, dest=option.name, action="store_true",
                               help=_option_help(option))
        else:
            rules.add_argument(option.flag, dest=option.name, type=int, default=option.default,
                               metavar="N", help=_option_help(option))


def game_from_args(args: argparse.Namespace):
    """The Game the parsed ``GAME --option ...`` arguments describe (a ValueError, one
    line, if the options do not make a game)."""
    cls = game_class(args.game)
    return make_game(args.game, **{o.name: getattr(args, o.name) for o in cls.options_spec})


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
                               epilog=f"example: {_invocation(prog)} {name} --plan")
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
                              "instead of text; implies --quiet")
    return parser


def _build_reachable(prog: str, game, args: argparse.Namespace) -> int:
    """``build --reachable``: search, solve and store what play reaches."""
    from tiersolve.databases.build import BuildRefused
    from tiersolve.databases.reachable import build_reachable

    if args.plan:
        return fail(prog, "--plan does not apply to --reachable: the reachable positions are "
                          "only known by searching them")
    try:
        with stopping_on_signals():  # SIGTERM as Ctrl-C; neither is lost (solver.interrupts)
            report = build_reachable(game, args.out, starts=args.start,
                                     progress=not (args.quiet or args.json), force=args.force,
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


#: Exit code of an interrupted build (as shells report SIGINT).
EXIT_INTERRUPTED = 130


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


def _cluster_usage_error(args: argparse.Namespace) -> str | None:
    """Why the cluster options cannot be used as given, or None."""
    if args.reachable and (args.workers, args.scheduler, args.work_dir) != (None, None, None):
        return "--workers, --scheduler and --work-dir do not apply to --reachable"
    if args.workers is None and args.scheduler is None:
        return None
    from tiersolve.solver.cluster import ClusterError, check_cluster_options

    try:
        check_cluster_options(args.workers, args.scheduler)
    except ClusterError as error:
        return str(error)
    return None


def build_main(argv: Sequence[str] | None = None, prog: str = "build_db.py") -> int:
    """Entry point of ``scripts/build_db.py`` and ``tiersolve build``."""
    from tiersolve.databases.build import BuildRefused, build_database, plan, plan_report
    from tiersolve.databases.format import PartialBuildMismatch

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
        from tiersolve.databases.build import check_output, default_output

        try:
            check_output(default_output(game, args.out, args.reachable))
        except BuildRefused as error:
            return fail(parser.prog, str(error))
    if args.reachable:
        return _build_reachable(parser.prog, game, args)
    if args.start and len(args.start) > 1:
        return fail(parser.prog, "--start is given once, unless with --reachable")
    args.start = args.start[0] if args.start else None
    if args.plan and args.json:
        print(json.dumps(plan_report(game, args.threads), indent=2))
        return 0
    if not args.json:
        print_or_discard(plan(game, args.threads))  # the build goes on if the reader went
    if args.plan:
        return 0
    try:
        with stopping_on_signals():  # SIGTERM as Ctrl-C; neither is lost (solver.interrupts)
            report = build_database(game, args.out, start=args.start, threads=args.threads,
                                    progress=not (args.quiet or args.json), force=args.force,
                                    restart=args.restart, overwrite=args.overwrite,
                                    workers=args.workers, scheduler=args.scheduler,
                                    work_dir=args.work_dir)
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


#: What FILE may be, for query and info.
FILE_HELP = ("a database file; or a game's name, for the file 'build GAME' writes at the "
             "game's default options (ttt: db/ttt_3x4.h5, or in $TIERSOLVE_DB_DIR); a file "
             "of that name in this folder comes first")


def query_parser(prog: str = "query.py") -> argparse.ArgumentParser:
    build, run = _invocation(prog, "build"), _invocation(prog)
    parser = OneLineParser(
        prog=prog,
        description="Look up a position in a database: its value and remoteness, and every\n"
                    "legal move with the value of the position it leads to, best move first.",
        epilog=f"examples (each lookup after the build that writes its file):\n"
               f"  {build} northcott --rows 3 --cols 6 --quiet\n"
               f'  {run} db/northcott_3x6.h5 "(L 1L3R0 0L1R3 1L2R1)"\n'
               f"  {build} pousse --size 3 --quiet\n"
               f'  {run} db/pousse_3x3.h5 "(x --- --- ---)" --history "L 2" "R 2" "L 2" "R 2"')
    parser.add_argument("file", metavar="FILE.h5", help=FILE_HELP)
    parser.add_argument("position", metavar="POSITION",
                        help='a position in the game\'s notation, e.g. "(L 1L3R0 0L1R3 1L2R1)"')
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    history = parser.add_argument_group(
        "history (games where repeating a board loses: Pousse)",
        "With --history, POSITION is where the game's history begins and the MOVEs\n"
        "follow it; each move of the position reached is judged under the real rule\n"
        "(the last example below).")
    history.add_argument("--history", nargs="*", metavar="MOVE",
                         help="the moves played from POSITION (none: POSITION is the whole history)")
    history.add_argument("--node-limit", type=whole_number(1), default=200_000, metavar="N",
                         help="stop the search after N positions (default 200000)")
    history.add_argument("--time-limit", type=seconds, default=10.0, metavar="SECONDS",
                         help="stop the search after this long (default 10)")
    return parser


def _open(prog: str, file: str, position: str | None = None):
    """The database FILE names (see FILE_HELP); a TiersolveError (one line) if it
    cannot be opened, which says so when FILE and POSITION were given the wrong way
    round."""
    from pathlib import Path

    from tiersolve.databases import open_database
    from tiersolve.errors import MissingDatabaseError

    try:
        return open_database(file)
    except MissingDatabaseError:
        if position is not None and file.lstrip().startswith("(") and Path(position).exists():
            raise MissingDatabaseError(
                f"{file!r} is a position and {position!r} a file: the file comes first "
                f"({_invocation(prog)} FILE.h5 POSITION)") from None
        raise


def _history_main(parser, args) -> int:
    from tiersolve.history import analyse

    try:
        with _open(parser.prog, args.file, args.position) as db:
            report = analyse(db, args.position, args.history, node_limit=args.node_limit,
                             time_limit=args.time_limit)
    except (FileNotFoundError, ValueError) as error:
        return fail(parser.prog, str(error))
    if args.json:
        print(json.dumps(asdict(report), indent=2))
    else:
        print(report.text())
    return 0


def _value_text(value: str, remoteness: int | None) -> str:
    return value if remoteness is None else f"{value} in {remoteness}"


def move_dict(move) -> dict:
    """A Move as JSON: the same names as the Python API."""
    return {"move": move.move, "position": move.position, "value": move.value,
            "remoteness": move.remoteness, "moves_again": move.moves_again}


def query_main(argv: Sequence[str] | None = None, prog: str = "query.py") -> int:
    """Entry point of ``scripts/query.py`` and ``tiersolve query``."""
    from tiersolve.errors import TiersolveError

    parser = query_parser(prog)
    args = parser.parse_args(argv)
    if args.history is not None:
        return _history_main(parser, args)
    try:
        with _open(parser.prog, args.file, args.position) as db:
            record = db.lookup(args.position)
            moves = db.moves(args.position)
            description = db.game.describe()
    except (TiersolveError, FileNotFoundError) as error:
        return fail(parser.prog, str(error))
    if args.json:
        print(json.dumps({
            "game": description,
            "position": record.position, "value": record.value, "remoteness": record.remoteness,
            "moves": [move_dict(m) for m in moves],
        }, indent=2))
        return 0
    print(f"{record.position}  {_value_text(record.value, record.remoteness)}  "
          f"(for the player to move; {description})")
    if not moves:
        print("no moves: the game is over")
        return 0
    print(f"{len(moves)} move{'s' if len(moves) != 1 else ''}, best first "
          "(value for the player who makes it; remoteness: moves left after it):")
    width_move = max(len(m.move) for m in moves)
    width_position = max(len(m.position) for m in moves)
    for m in moves:
        again = "  (moves again)" if m.moves_again else ""
        print(f"  {m.move:<{width_move}}  {m.position:<{width_position}}  "
              f"{_value_text(m.value, m.remoteness)}{again}")
    return 0


def info_main(argv: Sequence[str] | None = None, prog: str = "info") -> int:
    """Entry point of ``tiersolve info``: what a database file holds."""
    from tiersolve.errors import TiersolveError

    parser = OneLineParser(
        prog=prog, description="Show what a database holds: game and options, counts of each\n"
                               "value, the start value, the longest game, how it was built.",
        epilog=f"examples (after the build that writes the file):\n"
               f"  {_invocation(prog, 'build')} northcott --rows 3 --cols 6 --quiet\n"
               f"  {_invocation(prog)} db/northcott_3x6.h5")
    parser.add_argument("file", metavar="FILE.h5", help=FILE_HELP)
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    args = parser.parse_args(argv)
    try:
        with _open(parser.prog, args.file) as db:
            info = db.info()
    except (TiersolveError, FileNotFoundError) as error:
        return fail(parser.prog, str(error))
    print(json.dumps(asdict(info), indent=2) if args.json else info.text())
    return 0


#: Exit code of a command whose reader went away (``| head -1``): success, as
#: ripgrep's, since the reader took what it wanted and a build finishes its database
#: anyway (docs/DECISIONS.md).
EXIT_READER_GONE = 0


def discard_output() -> None:
    """Point stdout at /dev/null: its reader went away, and what is still written
    (Python flushes stdout again at exit) must go nowhere, quietly."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def print_or_discard(text: str) -> None:
    """Print a line a command can do without (a build's plan): if the reader has
    gone, the command goes on, its output discarded."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        discard_output()


def run(main: Callable[[], int]) -> int:
    """Run a command's ``main``: a reader that stops early (``| head -1``) ends it
    quietly with ``EXIT_READER_GONE``, and a Ctrl-C ends it without a traceback."""
    try:
        code = main()
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        discard_output()
        return EXIT_READER_GONE
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return EXIT_INTERRUPTED


EXAMPLES = """examples:
  tiersolve build northcott --rows 3 --cols 6
  tiersolve query db/northcott_3x6.h5 "(L 1L3R0 0L1R3 1L2R1)"
  tiersolve info db/northcott_3x6.h5
  tiersolve play ttt --rows 3 --cols 3 --build
  tiersolve bench "ttt --rows 3 --cols 3"
  tiersolve serve --dir db --check
"""


def _play(argv: Sequence[str], prog: str) -> int:
    from tiersolve.play import play_main

    return play_main(argv, prog=prog)


def _bench(argv: Sequence[str], prog: str) -> int:
    from tiersolve.bench import main as bench_main

    return bench_main(argv, prog=prog)


def _serve(argv: Sequence[str], prog: str) -> int:
    from tiersolve.serve import serve_main

    return serve_main(argv, prog=prog)


#: Subcommand -> (entry point, one-line help).
COMMANDS: dict[str, tuple[Callable[[Sequence[str], str], int], str]] = {
    "build": (build_main, "solve a game and write its database"),
    "query": (query_main, "look a position up: its value, remoteness and every move"),
    "play": (_play, "play a game in the terminal against perfect play, or explore it"),
    "info": (info_main, "what a database file holds: game, options, counts, how it was built"),
    "bench": (_bench, "time database builds"),
    "serve": (_serve, "serve databases over HTTP: a JSON API and a page to explore them"),
}


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="tiersolve",
        description="Strongly solve small two-player games into HDF5 databases, and look\n"
                    "positions up in them.",
        epilog=EXAMPLES)
    from tiersolve import __version__

    parser.add_argument("--version", action="version", version=f"tiersolve {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (_, help_text) in COMMANDS.items():
        # Each command parses its own arguments (it is also a script of its own).
        commands.add_parser(name, help=help_text, add_help=False)
    return parser


def run_command(name: str, argv: Sequence[str], prog: str) -> int:
    """Run the subcommand ``name`` as the program ``prog`` (``tiersolve build``, or a
    script's ``build_db.py``) through ``run``; returns its exit code. An interrupted
    build ends this process at once, without waiting for solver threads still
    running a kernel."""
    entry, _ = COMMANDS[name]
    code = run(lambda: entry(argv, prog))
    if name == "build" and code == EXIT_INTERRUPTED:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tiersolve`` command (``argv`` None: this process's command
    line, which also tunes the process for a quick start: ``tiersolve.startup``)."""
    if argv is None:
        from tiersolve.startup import tune_command_line_process

        tune_command_line_process()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in COMMANDS:
        return run_command(argv[0], argv[1:], f"tiersolve {argv[0]}")
    parser = _parser()
    parser.parse_args(argv)  # prints help, the version, or a one-line error
    return 2
