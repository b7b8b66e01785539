"""The ``tiersolve`` command: ``build``, ``query``, ``play``, ``info`` and ``bench``.

Each subcommand is the same program as its script (``scripts/build_db.py`` is
``tiersolve build``); ``tiersolve COMMAND --help`` tells its options, with an example.

>>> main(["info", "no/such/file.h5"])
2
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable, Sequence

EXAMPLES = """examples:
  tiersolve build northcott --rows 3 --cols 6
  tiersolve query db/northcott_3x6.h5 "(L 1L3R0 0L1R3 1L2R1)"
  tiersolve play ttt --rows 3 --cols 3 --build
  tiersolve info db/northcott_3x6.h5
  tiersolve bench "ttt --rows 4 --cols 4"
"""


def _build(argv: Sequence[str], prog: str) -> int:
    from tiersolve.databases.cli import EXIT_INTERRUPTED, build_main

    code = build_main(argv, prog=prog)
    if code == EXIT_INTERRUPTED:  # do not wait for solver threads still running a kernel
        import os

        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


def _query(argv: Sequence[str], prog: str) -> int:
    from tiersolve.databases.cli import query_main

    return query_main(argv, prog=prog)


def _play(argv: Sequence[str], prog: str) -> int:
    from tiersolve.databases.play import play_main

    return play_main(argv, prog=prog)


def _info(argv: Sequence[str], prog: str) -> int:
    from tiersolve.databases.cli import info_main

    return info_main(argv, prog=prog)


def _bench(argv: Sequence[str], prog: str) -> int:
    from tiersolve.databases.bench import main as bench_main

    return bench_main(argv, prog=prog)


#: Subcommand -> (entry point, one-line help).
COMMANDS: dict[str, tuple[Callable[[Sequence[str], str], int], str]] = {
    "build": (_build, "solve a game and write its database"),
    "query": (_query, "look a position up: its value, remoteness and every move"),
    "play": (_play, "play a game in the terminal against perfect play, or explore it"),
    "info": (_info, "what a database file holds: game, options, counts, how it was built"),
    "bench": (_bench, "time database builds"),
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tiersolve",
        description="Strongly solve small two-player games into HDF5 databases, and look "
                    "positions up in them.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    from tiersolve import __version__

    parser.add_argument("--version", action="version", version=f"tiersolve {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (_, help_text) in COMMANDS.items():
        # Each command parses its own arguments (it is also a script of its own).
        commands.add_parser(name, help=help_text, add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tiersolve`` command (``argv`` None: this process's command
    line, which also tunes the process for a quick start: ``tiersolve.startup``)."""
    if argv is None:
        from tiersolve.startup import tune_command_line_process

        tune_command_line_process()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in COMMANDS:
        from tiersolve.databases.cli import run

        entry, _ = COMMANDS[argv[0]]
        return run(lambda: entry(argv[1:], f"tiersolve {argv[0]}"))
    parser = _parser()
    parser.parse_args(argv)  # prints help, the version, or a one-line error
    return 2
