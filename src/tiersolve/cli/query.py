"""``tiersolve query`` (and ``scripts/query.py``) and ``tiersolve info``: a position's
value and moves, and what a database file holds.

>>> info_main(["no/such/file.h5"])
2
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from typing import Sequence

from tiersolve.cli.common import OneLineParser, fail, invocation, seconds, whole_number

#: What FILE may be, for query and info.
FILE_HELP = ("a database file; or a game's name, for the file 'build GAME' writes at the "
             "game's default options (ttt: db/ttt_3x4.h5, or in $TIERSOLVE_DB_DIR); a file "
             "of that name in this folder comes first")


def query_parser(prog: str = "query.py") -> argparse.ArgumentParser:
    build, run = invocation(prog, "build"), invocation(prog)
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
                f"({invocation(prog)} FILE.h5 POSITION)") from None
        raise


def _history_main(parser, args) -> int:
    from tiersolve.databases.history import analyse

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


def query_main(argv: Sequence[str] | None = None, prog: str = "query.py") -> int:
    """Entry point of ``scripts/query.py`` and ``tiersolve query``."""
    from tiersolve.databases.reader import value_text
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
            "moves": [m.as_dict() for m in moves],
        }, indent=2))
        return 0
    print(f"{record.position}  {value_text(record.value, record.remoteness)}  "
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
              f"{value_text(m.value, m.remoteness)}{again}")
    return 0


def info_main(argv: Sequence[str] | None = None, prog: str = "info") -> int:
    """Entry point of ``tiersolve info``: what a database file holds."""
    from tiersolve.errors import TiersolveError

    parser = OneLineParser(
        prog=prog, description="Show what a database holds: game and options, counts of each\n"
                               "value, the start value, the longest game, how it was built.",
        epilog=f"examples (after the build that writes the file):\n"
               f"  {invocation(prog, 'build')} northcott --rows 3 --cols 6 --quiet\n"
               f"  {invocation(prog)} db/northcott_3x6.h5")
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
