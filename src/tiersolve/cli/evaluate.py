"""``tiersolve evaluate``: an OpenSpiel agent against the tablebase bot, every one of
its moves judged by a database (``tiersolve.openspiel.evaluate``; docs/OPENSPIEL.md).

Needs the extra ``openspiel``; without it the command says so in one line. The
parser imports nothing of OpenSpiel, so ``--help`` works without it.

>>> evaluate_main(["no/such/file.h5", "--agent", "random"])
2
"""

from __future__ import annotations

import argparse
import json
from typing import Sequence

from tiersolve.cli.common import OneLineParser, fail, whole_number

#: What DATABASE may be (as FILE of query and info).
DATABASE_HELP = ("a database file of breakthrough, clobber or ttt --diagonal; or a game's name, "
                 "for the file 'build GAME' writes at the game's default options")


def evaluate_parser(prog: str = "tiersolve evaluate") -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=prog,
        description="Play an OpenSpiel agent against perfect play from a database, from\n"
                    "OpenSpiel's start and from positions sampled at random from the database,\n"
                    "and judge every one of the agent's moves: a blunder lowers the value for\n"
                    "the agent (a win to a tie or a loss...), an inaccuracy keeps a win but\n"
                    "lengthens it. The report: the value kept, the blunder and inaccuracy\n"
                    "rates, and both by the remoteness of the position. Needs the extra\n"
                    "openspiel (pip install 'tiersolve[openspiel]').",
        epilog="examples (the evaluations after the build that writes their file):\n"
               "  tiersolve build ttt --rows 3 --cols 3 --diagonal --quiet\n"
               "  tiersolve evaluate db/ttt_3x3_diagonal.h5 --agent random --games 20\n"
               "  tiersolve evaluate db/ttt_3x3_diagonal.h5 --agent mcts:10 --agent mcts:100 "
               "--games 20 --json\n"
               "agents: random (OpenSpiel's uniform random bot); mcts:SIMULATIONS (OpenSpiel's\n"
               "MCTS bot: random rollouts, UCT constant 2, proven values backed up); or\n"
               "module:callable, a callable taking (game, player, seed) that returns a bot\n"
               "(an object with step(state), such as a pyspiel.Bot), the module found from\n"
               "this folder too.")
    parser.add_argument("database", metavar="DATABASE", help=DATABASE_HELP)
    parser.add_argument("--agent", action="append", required=True, metavar="SPEC",
                        help="the agent: random, mcts:SIMULATIONS or module:callable; repeat it "
                             "to compare agents (each plays the same games)")
    parser.add_argument("--games", type=whole_number(1), default=100, metavar="N",
                        help="games per agent (default 100)")
    parser.add_argument("--from-start", type=whole_number(0), default=None, metavar="N",
                        help="of them, games from OpenSpiel's start, the agent taking each side "
                             "in turn (default: half, rounded up); the rest start at positions "
                             "sampled at random from the database, the agent to move")
    parser.add_argument("--game", metavar="OPENSPIEL_GAME",
                        help="OpenSpiel's game string, e.g. 'breakthrough(rows=5,columns=4)' "
                             "(default: the database's game); it must be the database's game "
                             "and size")
    parser.add_argument("--seed", type=whole_number(0), default=0, metavar="N",
                        help="seed of the positions sampled and of every bot (default 0)")
    parser.add_argument("--plot", metavar="FILE.png",
                        help="draw the blunder rate by remoteness, each agent in its colour, "
                             "above the moves it is of (needs matplotlib)")
    parser.add_argument("--json", action="store_true",
                        help="print JSON on stdout instead of text (progress stays on "
                             "stderr: add --quiet for none)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return parser


def evaluate_main(argv: Sequence[str] | None = None, prog: str = "tiersolve evaluate") -> int:
    """Entry point of ``tiersolve evaluate``."""
    from tiersolve.errors import TiersolveError

    parser = evaluate_parser(prog)
    args = parser.parse_args(argv)
    if args.from_start is not None and args.from_start > args.games:
        parser.error(f"--from-start {args.from_start} is more than --games {args.games}")
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            return fail(prog, "--plot needs matplotlib: pip install matplotlib (or the extra "
                              "notebook)")
    try:
        from tiersolve import openspiel
    except ImportError as error:
        return fail(prog, str(error))
    try:
        agents = [openspiel.agent_factory(spec) for spec in args.agent]  # every spec checked first
        evaluations = []
        for spec in args.agent:
            evaluation = openspiel.evaluate(
                args.database, spec, games=args.games, from_start=args.from_start,
                game=args.game, seed=args.seed, progress=not args.quiet)
            evaluations.append(evaluation)
            if not args.json:
                print(evaluation.text() + ("\n" if len(agents) > 1 else ""), flush=True)
    except (TiersolveError, FileNotFoundError) as error:
        return fail(prog, str(error))
    if args.json:
        print(json.dumps({"evaluations": [e.as_dict() for e in evaluations]}, indent=2))
    elif len(evaluations) > 1:
        print(_comparison(evaluations))
    if args.plot:
        path = openspiel.plot_blunder_rates(evaluations, args.plot)
        if not args.json:
            print(f"plot: {path}")
    return 0


def _comparison(evaluations) -> str:
    """One line per agent: the headline figures side by side."""
    from tiersolve.openspiel.evaluate import _percent

    rows = [("agent", "games", "value kept", "blunder rate", "inaccuracy rate")]
    for e in evaluations:
        kept, played = e.kept()
        rows.append((e.agent, f"{len(e.games):,}", f"{kept} of {played}",
                     f"{_percent(e.blunder_rate)} of {e.moves:,}",
                     f"{_percent(e.inaccuracy_rate)} of {e.won_moves:,}"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                               for i, (cell, w) in enumerate(zip(row, widths))) for row in rows)
