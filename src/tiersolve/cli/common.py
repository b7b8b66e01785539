"""What the commands share: one-line errors with exit code 2, argparse types, the
game options as command-line flags, how a user runs a command, and ``run``, which
ends a command quietly when its reader goes away or Ctrl-C is pressed.

>>> whole_number(1)("3")
3
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable

from tiersolve.games import GAMES, game_class, make_game
from tiersolve.games.base import Option, options_as_flags

EXIT_USAGE = 2


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are a single line, and whose description and
    epilog are printed as written (examples stay one to a line). An option must be
    spelled out: argparse would read ``--row`` as ``--rows``, so that a typo silently
    became another option; an unknown option is refused, naming the options it may
    have meant."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def parse_args(self, args=None, namespace=None):  # type: ignore[override]
        parsed, unknown = self.parse_known_args(args, namespace)
        if unknown:
            meant = _options_meant(self, parsed, unknown)
            self.error(f"unrecognized arguments: {' '.join(unknown)}"
                       + (f"; did you mean {' or '.join(meant)}?" if meant else ""))
        return parsed

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see --help)\n")


def _options_meant(parser: argparse.ArgumentParser, parsed: argparse.Namespace,
                   unknown: list[str]) -> list[str]:
    """The options of ``parser`` (and of the subcommand it chose) that an unknown
    ``--word`` begins, as argparse would have read it as an abbreviation."""
    options: set[str] = set()
    while parser is not None:
        chosen = None
        for action in parser._actions:
            options.update(action.option_strings)
            if isinstance(action, argparse._SubParsersAction):
                chosen = action.choices.get(getattr(parsed, action.dest, None))
        parser = chosen
    words = [word.split("=", 1)[0] for word in unknown if word.startswith("--")]
    return sorted({option for option in options for word in words
                   if option.startswith(word) and option != word})


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Option help in a column wide enough for every game's name and option."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=32)


def fail(prog: str, message: str) -> int:
    """Print ``prog: error: message`` on stderr; returns the exit code of a user error."""
    print(f"{prog}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


#: Units of ``byte_size``: powers of 1024 (KiB, and K, KB as in ``human_bytes``).
_BYTE_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10, "m": 1 << 20,
               "mb": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30,
               "t": 1 << 40, "tb": 1 << 40, "tib": 1 << 40}


def byte_size(text: str) -> int:
    """An argparse type: an amount of memory, ``800MiB``, ``2.5GB`` or bytes.

    >>> byte_size("2GiB"), byte_size("1.5 kb"), byte_size("4096")
    (2147483648, 1536, 4096)
    """
    number = text.strip().lower().rstrip("abcdefghijklmnopqrstuvwxyz ")
    unit = text.strip().lower()[len(number):].strip()
    try:
        value = int(float(number) * _BYTE_UNITS[unit])
    except (ValueError, KeyError):
        raise argparse.ArgumentTypeError(f"{text!r} is not an amount of memory (e.g. 800MiB, "
                                         "2GiB)") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be more than nothing, got {text!r}")
    return value


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


def invocation(prog: str, command: str | None = None) -> str:
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


#: How ``--help`` shows an option's value, by its type (a whole number, or text).
_METAVARS = {int: "N"}


def add_game_options(parser: argparse.ArgumentParser, cls) -> None:
    """The options of a game class (``--rows N``, ``--misere`` ...) as an argument group."""
    rules = parser.add_argument_group(f"{cls.name} options")
    for option in cls.options_spec:
        if option.kind is bool:
            rules.add_argument(option.flag, dest=option.name, action="store_true",
                               help=_option_help(option))
        else:
            rules.add_argument(option.flag, dest=option.name, type=option.kind,
                               default=option.default, metavar=_METAVARS.get(option.kind, "TEXT"),
                               help=_option_help(option))


def game_from_args(args: argparse.Namespace):
    """The Game the parsed ``GAME --option ...`` arguments describe (a ValueError, one
    line, naming the options as flags, if they do not make a game)."""
    cls = game_class(args.game)
    with options_as_flags():
        return make_game(args.game, **{o.name: getattr(args, o.name) for o in cls.options_spec})



#: Exit code of an interrupted build (as shells report SIGINT).
EXIT_INTERRUPTED = 130


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
    quietly with ``EXIT_READER_GONE``, and a Ctrl-C ends it without a traceback. Its
    messages name a game's options as flags (``--max-pieces 4``)."""
    try:
        with options_as_flags():
            code = main()
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        discard_output()
        return EXIT_READER_GONE
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return EXIT_INTERRUPTED
