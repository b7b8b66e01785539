"""``tiersolve play``: play a game in the terminal against perfect play, or explore it.

The board is drawn with coordinates; every legal move is listed by name, best first,
with its value for the player who makes it (green win, yellow tie or draw, red
lose, as GamesmanUni colours them). Type a move's name, or ``undo``, ``hint``,
``value``, ``moves``, ``restart``, ``quit``. Input may be piped, so a script can play
a whole game::

    printf 'b2\\nquit\\n' | tiersolve play ttt --rows 3 --cols 3 --build

The computer plays perfectly (``Database.best_move``): the fastest win, else a tie,
else a draw, else the slowest loss; among equal moves it chooses at random, seeded
by ``--seed``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from dataclasses import dataclass, field
from typing import Sequence, TextIO

from tiersolve.board import board_lines
from tiersolve.cli import (EXIT_INTERRUPTED, OneLineParser, _invocation, add_game_options, fail,
                           game_from_args)
from tiersolve.games import GAMES, game_class

COMMANDS = ("undo", "hint", "value", "moves", "restart", "quit")
COLOURS = {"win": "32", "tie": "33", "draw": "33", "lose": "31"}  # ANSI green, yellow, red
HELP = ("Type a move's name, or: undo (take back your last move), hint (the best move), "
        "value (of the position), moves (list them again), restart, quit.")


def use_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (no-color.org)."""
    return "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb" and \
        hasattr(stream, "isatty") and stream.isatty()


def value_text(value: str, remoteness: int | None, colour: bool) -> str:
    text = value if remoteness is None else f"{value} in {remoteness}"
    return f"\033[{COLOURS[value]}m{text}\033[0m" if colour and value in COLOURS else text


@dataclass
class Session:
    """One game in progress: the positions so far and whose turn each was."""

    db: object
    start: str
    computer: str                       # first, second, both or none
    rng: random.Random
    out: TextIO
    colour: bool
    max_moves: int
    history: list[tuple[str, int]] = field(default_factory=list)  # (position, side to move)

    def __post_init__(self) -> None:
        self.history = [(self.start, 0)]

    @property
    def position(self) -> str:
        return self.history[-1][0]

    @property
    def side(self) -> int:
        """0 for the player who moved first, 1 for the other."""
        return self.history[-1][1]

    def player(self) -> str:
        """The player to move, by the turn letter of the notation: ``x (you)``."""
        who = "first" if self.side == 0 else "second"
        turn = self.position.strip("( ").split()[0]
        return f"{turn} ({'computer' if self.computer in ('both', who) else 'you'})"

    def choose(self):
        """The computer's move: perfect play by the database; in a game where
        repeating a board loses (Pousse), a move that repeats one only if all do."""
        moves = self.db.moves(self.position)
        game = self.db.game
        if getattr(game, "repetition_loses", False):
            seen = {game.board_key(game.parse(p)) for p, _ in self.history}
            fresh = [m for m in moves if game.board_key(game.parse(m.position)) not in seen]
            moves = fresh or moves
        best = [m for m in moves if (m.value, m.remoteness) == (moves[0].value, moves[0].remoteness)]
        return self.rng.choice(best)

    def computer_moves(self) -> bool:
        return self.computer == "both" or self.computer == ("first" if self.side == 0 else "second")

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def show(self) -> None:
        record = self.db.lookup(self.position)
        self.say()
        for line in board_lines(self.db.game, record.position):
            self.say(line)
        self.say(f"{record.position}  {self.player()} to move: "
                 f"{value_text(record.value, record.remoteness, self.colour)}")

    def list_moves(self) -> None:
        moves = self.db.moves(self.position)
        width = max((len(m.move) for m in moves), default=0)
        self.say("moves, best first (value for the player who makes it):")
        for m in moves:
            again = "  (moves again)" if m.moves_again else ""
            self.say(f"  {m.move:<{width}}  {value_text(m.value, m.remoteness, self.colour)}{again}")

    def play(self, move) -> None:
        """Make a Move (from ``db.moves``) and record whose turn follows."""
        side = self.side if move.moves_again else 1 - self.side
        self.history.append((move.position, side))

    def over(self) -> bool:
        """True (after saying how it ended) when the game has ended."""
        if not self.db.moves(self.position):
            record = self.db.lookup(self.position)
            self.show()
            if record.value in ("win", "lose"):
                self.say(f"game over: {self.player()} {record.value}s.")
            else:
                self.say(f"game over: a {record.value}.")
            return True
        game = self.db.game
        if getattr(game, "repetition_loses", False):
            boards = [game.board_key(game.parse(p)) for p, _ in self.history]
            if boards.count(boards[-1]) >= 2:
                self.show()
                self.say("game over: that move repeated an earlier board, so the player who "
                         f"made it loses ({game.title}'s rule); {self.player()} wins.")
                return True
        positions = [p for p, _ in self.history]
        if positions.count(self.position) >= 3:
            self.show()
            self.say("game over: the same position came three times; a draw by repetition.")
            return True
        if len(self.history) > self.max_moves:
            self.show()
            self.say(f"game over: {self.max_moves} moves played (--max-moves); stopped.")
            return True
        return False

    def undo(self) -> None:
        """Take back moves until it is a human's turn again, before their last move."""
        if self.computer == "both" or len(self.history) == 1:
            self.say("nothing to undo")
            return
        self.history.pop()
        while len(self.history) > 1 and self.computer_moves():
            self.history.pop()
        self.say("undone")


def run_session(session: Session, lines: TextIO) -> int:
    """The play loop; returns the exit code (0 at the end, at quit, or at end of input)."""
    session.say(HELP)
    shown = False
    while True:
        if session.over():
            return 0
        if session.computer_moves():
            move = session.choose()
            if not shown:
                session.show()
            session.say(f"{session.player()} plays {move.move}: "
                        f"{value_text(move.value, move.remoteness, session.colour)}")
            session.play(move)
            shown = False
            continue
        if not shown:
            session.show()
            session.list_moves()
            shown = True
        session.out.write(f"{session.player()}> ")
        session.out.flush()
        line = lines.readline()
        if not line:  # end of input: quit quietly
            session.say()
            return 0
        if not (hasattr(lines, "isatty") and lines.isatty()):
            session.say(line.rstrip("\n"))  # piped input: show it, so the transcript reads
        word = " ".join(line.split())
        command = word.lower()
        if not word:
            continue
        if command in ("quit", "exit", "q"):
            return 0
        if command == "help":
            session.say(HELP)
        elif command == "moves":
            session.list_moves()
        elif command == "value":
            record = session.db.lookup(session.position)
            session.say(f"{session.player()}: "
                        f"{value_text(record.value, record.remoteness, session.colour)}")
        elif command == "hint":
            move = session.db.best_move(session.position)
            session.say(f"hint: {move.move} ({value_text(move.value, move.remoteness, session.colour)})")
        elif command == "undo":
            session.undo()
            shown = False
        elif command == "restart":
            session.history = [(session.start, 0)]
            session.say("restarted")
            shown = False
        else:
            chosen = [m for m in session.db.moves(session.position) if m.move.lower() == command]
            if not chosen:
                session.say(f"{word!r} is not a legal move here; type one of the moves listed, "
                            "or help")
                continue
            session.say(f"you play {chosen[0].move}: "
                        f"{value_text(chosen[0].value, chosen[0].remoteness, session.colour)}")
            session.play(chosen[0])
            shown = False


def play_parser(prog: str = "play") -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=prog, description="Play a game in the terminal against perfect play (or watch, or "
                               "explore both sides). Builds the database first if there is none.",
        epilog=f"example: {_invocation(prog)} ttt --rows 3 --cols 3 --build\n\n{HELP}")
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True,
                                  parser_class=OneLineParser)
    for name in GAMES:
        cls = game_class(name)
        sub = games.add_parser(name, help=cls.title, description=f"Play {cls.title}.",
                               epilog=f"example: {_invocation(prog)} {name} --build --computer second")
        add_game_options(sub, cls)
        run = sub.add_argument_group("play options")
        run.add_argument("--db", metavar="FILE.h5",
                         help="the database to use (default: the one build writes for these options)")
        run.add_argument("--build", action="store_true",
                         help="build the database first if it does not exist, without asking")
        run.add_argument("--start", metavar="POSITION", help="start here instead of the game's start")
        run.add_argument("--computer", choices=("first", "second", "both", "none"), default="second",
                         help="which side the computer plays (default second; none: you play both)")
        run.add_argument("--seed", type=int, default=None,
                         help="seed of the computer's choice among equally good moves")
        run.add_argument("--max-moves", type=int, default=500, metavar="N",
                         help="stop after N moves (default 500)")
    return parser


def _ask(question: str, lines: TextIO, out: TextIO) -> bool:
    out.write(question)
    out.flush()
    return lines.readline().strip().lower() in ("y", "yes")


def play_main(argv: Sequence[str] | None = None, prog: str = "play",
              stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Entry point of ``tiersolve play``."""
    from pathlib import Path

    from tiersolve.databases.build import BuildRefused, build_database
    from tiersolve.databases.reader import Database, default_path
    from tiersolve.errors import TiersolveError

    lines = stdin or sys.stdin
    out = stdout or sys.stdout
    parser = play_parser(prog)
    args = parser.parse_args(argv)
    try:
        game = game_from_args(args)
    except ValueError as error:
        return fail(parser.prog, str(error))
    path = Path(args.db) if args.db else default_path(game)
    try:
        if not path.exists():
            question = f"no database for {game.describe()} at {path}; build it now? [y/N] "
            if not (args.build or _ask(question, lines, out)):
                return fail(parser.prog, f"no database at {path}; build it with: tiersolve build "
                                         f"{game.name} ... (or play with --build)")
            report = build_database(game, path, progress=True)
            print(report.summary_line(), file=out)
        with Database(path, expect=game) as db:
            start = args.start if args.start is not None else game.default_start()
            start = db.lookup(start).position  # checks it, in the game's spelling
            session = Session(db, start, args.computer, random.Random(args.seed), out,
                              use_colour(out), args.max_moves)
            return run_session(session, lines)
    except (TiersolveError, BuildRefused, FileNotFoundError) as error:
        return fail(parser.prog, str(error))
    except KeyboardInterrupt:
        print(file=out)
        return EXIT_INTERRUPTED
