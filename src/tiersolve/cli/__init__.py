"""The ``tiersolve`` command: one subcommand a module (``build``, ``query`` with
``info``, ``play``, ``bench``, ``serve``, ``evaluate``), the helpers they share in ``common``.

Each subcommand is also a script (``scripts/build_db.py`` is ``tiersolve build``);
``tiersolve COMMAND --help`` tells its options, with examples that run as printed.

>>> main(["info", "no/such/file.h5"])
2
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable, Sequence

from tiersolve.cli.common import EXIT_INTERRUPTED, OneLineParser, run

EXAMPLES = """examples:
  tiersolve build northcott --rows 3 --cols 6
  tiersolve query db/northcott_3x6.h5 "(L 1L3R0 0L1R3 1L2R1)"
  tiersolve info db/northcott_3x6.h5
  tiersolve play ttt --rows 3 --cols 3 --build
  tiersolve bench "ttt --rows 3 --cols 3"
  tiersolve serve --dir db --check
"""


def _build(argv: Sequence[str], prog: str) -> int:
    from tiersolve.cli.build import build_main

    return build_main(argv, prog=prog)


def _query(argv: Sequence[str], prog: str) -> int:
    from tiersolve.cli.query import query_main

    return query_main(argv, prog=prog)


def _info(argv: Sequence[str], prog: str) -> int:
    from tiersolve.cli.query import info_main

    return info_main(argv, prog=prog)


def _play(argv: Sequence[str], prog: str) -> int:
    from tiersolve.cli.play import play_main

    return play_main(argv, prog=prog)


def _bench(argv: Sequence[str], prog: str) -> int:
    from tiersolve.cli.bench import main as bench_main

    return bench_main(argv, prog=prog)


def _serve(argv: Sequence[str], prog: str) -> int:
    from tiersolve.cli.serve import serve_main

    return serve_main(argv, prog=prog)


def _evaluate(argv: Sequence[str], prog: str) -> int:
    from tiersolve.cli.evaluate import evaluate_main

    return evaluate_main(argv, prog=prog)


#: Subcommand -> (entry point, one-line help).
COMMANDS: dict[str, tuple[Callable[[Sequence[str], str], int], str]] = {
    "build": (_build, "solve a game and write its database"),
    "query": (_query, "look a position up: its value, remoteness and every move"),
    "play": (_play, "play a game in the terminal against perfect play, or explore it"),
    "info": (_info, "what a database file holds: game, options, counts, how it was built"),
    "bench": (_bench, "time database builds"),
    "serve": (_serve, "serve databases over HTTP: a JSON API and a page to explore them"),
    "evaluate": (_evaluate, "judge an OpenSpiel agent's every move against perfect play "
                            "(extra openspiel)"),
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
    line, which also tunes the process for a quick start: ``tiersolve.cli.startup``)."""
    if argv is None:
        from tiersolve.cli.startup import tune_command_line_process

        tune_command_line_process()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in COMMANDS:
        return run_command(argv[0], argv[1:], f"tiersolve {argv[0]}")
    parser = _parser()
    parser.parse_args(argv)  # prints help, the version, or a one-line error
    return 2
