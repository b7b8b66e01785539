"""``tiersolve play``: play a game in the terminal against perfect play, or explore it.

The board is drawn with coordinates; every legal move is listed by name, best first,
with its value for the player who makes it (green win, yellow tie or draw, red
lose, as GamesmanUni colours them). Type a move's name, or ``undo``, ``hint``,
``value``, ``moves``, ``restart``, ``quit``, ``help``. A game that ends leaves the
session open for ``undo`` and ``restart`` until ``quit`` (or the end of input). Input
may be piped, so a script can play a whole game::

    printf 'b2\\nquit\\n' | tiersolve play ttt --rows 3 --cols 3 --build

The computer plays perfectly (``Database.best_move``): the fastest win, else a tie,
else a draw, else the slowest loss; among equal moves it chooses at random, seeded
by ``--seed``. In a game where repeating a board loses (Pousse), the values shown,
the hint and the computer's choice are those of the real rule given the game so
far (``tiersolve.databases.history``), proven where the search can prove them.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import textwrap
from dataclasses import dataclass, field
from typing import Sequence, TextIO

from tiersolve.cli.common import (
    EXIT_INTERRUPTED, OneLineParser, add_game_options, fail, game_from_args, games_list,
    invocation, whole_number,
)
from tiersolve.games import GAMES, game_class
from tiersolve.games.board import board_lines

COMMANDS = ("undo", "hint", "value", "moves", "restart", "quit", "help")
COLOURS = {"win": "32", "tie": "33", "draw": "33", "lose": "31"}  # ANSI green, yellow, red
HELP = ("Type a move's name, or: undo (take back your last move), hint (the best move), "
        "value (of the position), moves (list them again), restart, quit, help (this list).")
#: What play says once a game has ended: the session stays open for these.
AFTER_THE_END = "Type undo (take back the last move), restart (a new game), or quit."
#: The prompt once a game has ended (no one is to move).
OVER_PROMPT = "game over> "
#: The history search's limits in play, per position: short, as a player waits for it
#: (``query --history`` searches longer). A move it cannot settle keeps the position
#: game's value, marked as such.
PLAY_NODE_LIMIT = 50_000
PLAY_TIME_LIMIT = 3.0
#: How the values under the repetition rule are marked in play (tiersolve.databases.history).
NOTES = {"repeats": "repeats a board", "ends": "ends the game", "proven": "proven",
         "unproven": "position game; not proven under the repetition rule"}


def use_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set to anything but
    the empty string (no-color.org)."""
    return not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb" and \
        hasattr(stream, "isatty") and stream.isatty()


def coloured_value_text(value: str, remoteness: int | None, colour: bool) -> str:
    """``value_text``, coloured by the value when ``colour``."""
    from tiersolve.databases.reader import value_text

    text = value_text(value, remoteness)
    return f"\033[{COLOURS[value]}m{text}\033[0m" if colour and value in COLOURS else text


@dataclass(frozen=True)
class Choice:
    """A move as play shows it: its value for the player who makes it, the
    remoteness left after it (None where unknown), and a note (under the
    repetition rule: how its value was found)."""

    move: str
    position: str
    value: str
    remoteness: int | None
    moves_again: bool = False
    note: str = ""


_PREFERENCE = {"win": 0, "tie": 1, "draw": 2, "lose": 3}


def _rank(choice: Choice) -> tuple:
    """Perfect play's order: the fastest win, a tie, a draw, the slowest loss; a
    move that repeats a board last, then proven values before unproven ones."""
    distance = choice.remoteness or 0
    return (choice.note == NOTES["repeats"], _PREFERENCE.get(choice.value, 4),
            choice.note == NOTES["unproven"], -distance if choice.value == "lose" else distance)


@dataclass
class Session:
    """One game in progress: the positions so far, whose turn each was, and the
    moves that led there."""

    db: object
    start: str
    computer: str                       # first, second, both or none
    rng: random.Random
    out: TextIO
    colour: bool
    max_moves: int
    history: list[tuple[str, int]] = field(default_factory=list)  # (position, side to move)
    played: list[str] = field(default_factory=list)               # the moves' names
    _judged: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.history = [(self.start, 0)]

    @property
    def position(self) -> str:
        return self.history[-1][0]

    @property
    def side(self) -> int:
        """0 for the player who moved first, 1 for the other."""
        return self.history[-1][1]

    @property
    def repetition_loses(self) -> bool:
        return bool(getattr(self.db.game, "repetition_loses", False))

    def player(self) -> str:
        """The player to move, by the turn letter of the notation: ``x (you)``."""
        who = "first" if self.side == 0 else "second"
        turn = self.db.game.turn_text(self.position) or f"{who} player"
        return f"{turn} ({'computer' if self.computer in ('both', who) else 'you'})"

    def _history_report(self):
        """The real rule's verdicts for this position and the game so far (Pousse)."""
        key = tuple(self.played)
        if key not in self._judged:
            from tiersolve.databases.history import analyse

            self._judged[key] = analyse(self.db, self.start, self.played,
                                        node_limit=PLAY_NODE_LIMIT, time_limit=PLAY_TIME_LIMIT)
        return self._judged[key]

    def choices(self) -> list[Choice]:
        """Every move, best first: the database's values, or in a game where
        repeating a board loses, the values under that rule given the game so far."""
        if not self.repetition_loses:
            return [Choice(m.move, m.position, m.value, m.remoteness, m.moves_again)
                    for m in self.db.moves(self.position)]
        from tiersolve.databases.history import ENDS, REPEATS

        choices = []
        for verdict in self._history_report().moves:
            kind = {REPEATS: "repeats", ENDS: "ends"}.get(
                verdict.reason, "proven" if verdict.proven else "unproven")
            # the remoteness is the position game's: shown where the value is its own
            remoteness = verdict.game_remoteness if kind in ("ends", "unproven") else None
            choices.append(Choice(verdict.move, verdict.position, verdict.value, remoteness,
                                  note=NOTES[kind]))
        return sorted(choices, key=_rank)

    def value(self, judged: bool = True) -> tuple[str, int | None, str]:
        """(value, remoteness, note) of the position for the player to move; the
        database's alone unless ``judged`` (once a board repeated, play is over)."""
        if self.repetition_loses and judged:
            report = self._history_report()
            record = self.db.lookup(self.position)
            if report.proven:
                return report.value, None, NOTES["proven"]
            return record.value, record.remoteness, NOTES["unproven"]
        record = self.db.lookup(self.position)
        return record.value, record.remoteness, ""

    def choose(self) -> Choice:
        """The computer's move: the best of ``choices``, at random among equals."""
        choices = self.choices()
        best = [c for c in choices if _rank(c) == _rank(choices[0])]
        return self.rng.choice(best)

    def computer_moves(self) -> bool:
        return self.computer == "both" or self.computer == ("first" if self.side == 0 else "second")

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def describe(self, value: str, remoteness: int | None, note: str) -> str:
        """``lose in 3``, or with a note (the repetition rule's) ``lose, proven``."""
        text = coloured_value_text(value, remoteness, self.colour)
        return f"{text}, {note}" if note else text

    def show(self, judged: bool = True) -> None:
        position = self.db.lookup(self.position).position
        self.say()
        for line in board_lines(self.db.game, position):
            self.say(line)
        self.say(f"{position}  {self.player()} to move: {self.describe(*self.value(judged))}")

    def list_moves(self) -> None:
        choices = self.choices()
        width = max((len(c.move) for c in choices), default=0)
        self.say("moves, best first (value for the player who makes it):")
        for c in choices:
            again = "  (moves again)" if c.moves_again else ""
            note = f"  ({c.note})" if c.note else ""
            self.say(f"  {c.move:<{width}}  {coloured_value_text(c.value, c.remoteness, self.colour)}"
                     f"{note}{again}")

    def play(self, choice: Choice) -> None:
        """Make a move (from ``choices``) and record whose turn follows."""
        side = self.side if choice.moves_again else 1 - self.side
        self.history.append((choice.position, side))
        self.played.append(choice.move)

    def over(self) -> bool:
        """True (after saying how it ended) when the game has ended."""
        game = self.db.game
        if self.repetition_loses:
            boards = [game.board_key(game.parse(p)) for p, _ in self.history]
            if boards.count(boards[-1]) >= 2:
                self.show(judged=False)
                self.say("game over: that move repeated an earlier board, so the player who "
                         f"made it loses ({game.title}'s rule); {self.player()} wins.")
                return True
        if not self.db.moves(self.position):
            record = self.db.lookup(self.position)
            self.show()
            if record.value in ("win", "lose"):
                self.say(f"game over: {self.player()} {record.value}s.")
            else:
                self.say(f"game over: a {record.value}.")
            return True
        positions = [p for p, _ in self.history]
        if positions.count(self.position) >= 3:
            self.show()
            self.say("game over: the same position came three times; a draw by repetition.")
            return True
        if len(self.history) > self.max_moves:
            self.show()
            self.say(f"game over: {self.max_moves} move{'' if self.max_moves == 1 else 's'} "
                     "played (--max-moves); stopped.")
            return True
        return False

    def undo(self) -> bool:
        """Take back moves until it is a human's turn again, before their last move;
        False if there was nothing to take back."""
        if self.computer == "both" or len(self.history) == 1:
            self.say("nothing to undo")
            return False
        self._take_back()
        while len(self.history) > 1 and self.computer_moves():
            self._take_back()
        self.say("undone")
        return True

    def _take_back(self) -> None:
        self.history.pop()
        self.played.pop()

    def restart(self) -> None:
        self.history = [(self.start, 0)]
        self.played = []


def run_session(session: Session, lines: TextIO) -> int:
    """The play loop; returns the exit code (0 at quit or at end of input). A game
    that ends leaves the session open, for the undo and restart it offers, until
    quit."""
    session.say(HELP)
    shown = False
    over = False
    while True:
        if not over and session.over():
            over = True
            session.say(AFTER_THE_END)
        if not over and session.computer_moves():
            choice = session.choose()
            if not shown:
                session.show()
            session.say(f"{session.player()} plays {choice.move}: "
                        f"{session.describe(choice.value, choice.remoteness, choice.note)}")
            session.play(choice)
            shown = False
            continue
        if not (over or shown):
            session.show()
            session.list_moves()
            shown = True
        session.out.write(OVER_PROMPT if over else f"{session.player()}> ")
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
            session.say(AFTER_THE_END if over else HELP)
        elif command == "undo":
            if session.undo():
                over = shown = False
        elif command == "restart":
            session.restart()
            session.say("restarted")
            over = shown = False
        elif over:
            session.say(f"the game is over. {AFTER_THE_END}")
        elif command == "moves":
            session.list_moves()
        elif command == "value":
            session.say(f"{session.player()}: {session.describe(*session.value())}")
        elif command == "hint":
            best = session.choices()[0]
            session.say(f"hint: {best.move} "
                        f"({session.describe(best.value, best.remoteness, best.note)})")
        else:
            chosen = [c for c in session.choices() if c.move.lower() == command]
            if not chosen:
                session.say(f"{word!r} is not a legal move here; type one of the moves listed, "
                            "or help")
                continue
            session.say(f"you play {chosen[0].move}: "
                        f"{session.describe(chosen[0].value, chosen[0].remoteness, chosen[0].note)}")
            session.play(chosen[0])
            shown = False


def play_parser(prog: str = "play") -> argparse.ArgumentParser:
    run = invocation(prog)
    parser = OneLineParser(
        prog=prog, description="Play a game in the terminal against perfect play (or watch, or\n"
                               "explore both sides), from the game's database.",
        epilog=f"games:\n{games_list(False)}\n\n"
               f"examples:\n  {run} ttt --rows 3 --cols 3 --build\n"
               f"  printf 'b2\\nquit\\n' | {run} ttt --rows 3 --cols 3 --build\n\n"
               + textwrap.fill(HELP, 79))
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True,
                                  parser_class=OneLineParser, help="one of the games below")
    for name in GAMES:
        cls = game_class(name)
        sub = games.add_parser(name, description=f"Play {cls.title}.",
                               epilog=f"The options are those of '{invocation(prog, 'build')} "
                                      f"{name}'.\n" + textwrap.fill(HELP, 79))
        add_game_options(sub, cls)
        options = sub.add_argument_group("play options")
        options.add_argument("--db", metavar="FILE.h5",
                             help="the database to use (default: the one build writes for these "
                                  "options)")
        options.add_argument("--build", action="store_true",
                             help="build the database first if it does not exist, without asking")
        options.add_argument("--start", metavar="POSITION",
                             help="start here instead of the game's start")
        options.add_argument("--computer", choices=("first", "second", "both", "none"),
                             default="second",
                             help="which side the computer plays (default second; none: you "
                                  "play both)")
        options.add_argument("--seed", type=int, default=None,
                             help="seed of the computer's choice among equally good moves")
        options.add_argument("--max-moves", type=whole_number(0), default=500, metavar="N",
                             help="stop after N moves (default 500)")
    return parser


def _ask(question: str, lines: TextIO, out: TextIO) -> bool:
    """Ask a yes-or-no question; only "y" or "yes" is yes."""
    out.write(question)
    out.flush()
    answer = lines.readline()
    if not answer:  # end of input (Ctrl-D): end the question's line, so what follows has its own
        out.write("\n")
    return answer.strip().lower() in ("y", "yes")


def play_main(argv: Sequence[str] | None = None, prog: str = "play",
              stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Entry point of ``tiersolve play``."""
    from pathlib import Path

    from tiersolve.databases.build import build_database
    from tiersolve.databases.lifecycle import BuildRefused
    from tiersolve.databases.naming import build_command, default_path
    from tiersolve.databases.reader import Database
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
            # Ask only someone at a terminal: piped input holds moves, not an answer.
            typed = hasattr(lines, "isatty") and lines.isatty()
            question = f"no database for {game.describe()} at {path}; build it now? [y/N] "
            if not (args.build or (typed and _ask(question, lines, out))):
                return fail(parser.prog, f"no database for {game.describe()} at {path}; build "
                                         f"it with: {build_command(game, path)} (or play with "
                                         "--build)")
            report = build_database(game, path, progress=True)
            print(report.summary_line(), file=out)
        with Database(path) as db:
            if (db.game.name, db.game.options) != (game.name, game.options):
                held = " ".join(filter(None, [db.game.name, db.game.flags()]))
                instead = ("leave --db out to use " + str(default_path(game)) if args.db else
                           f"replace it with: {build_command(game)} --overwrite")
                return fail(parser.prog, f"{path} holds {db.game.describe()}, not "
                                         f"{game.describe()}: play it with '{prog} {held} "
                                         f"--db {path}', or {instead}")
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
