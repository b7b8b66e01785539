"""The games: one module each in this folder, found by the registry.

A game's module says its registry name in one top-level line, ``NAME = "..."``
(docs/ADDING_A_GAME.md). The registry reads that line from each file here without
importing it: a game's module, with numba and its tables, is imported when the game
is first asked for, so a command that builds one game loads no other.

>>> game = make_game("northcott", rows=3, cols=6)
>>> game.describe()
'northcott 3x6'
>>> make_game("chess")
Traceback (most recent call last):
...
tiersolve.errors.GameError: unknown game 'chess' (known: 1210, allqueens, ...)
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tiersolve.errors import GameError

if TYPE_CHECKING:
    from tiersolve.games.base import Game

#: The line of a game module that names it.
NAME_LINE = re.compile(r'^NAME = "([^"\n]+)"[ \t]*(?:#.*)?$', re.MULTILINE)


def find_games(folder: Path, package: str) -> dict[str, str]:
    """Registry name -> module of every game module in ``folder`` (the modules with a
    ``NAME`` line), by name; ValueError if two modules claim one name.

    >>> find_games(Path(__file__).parent, __name__)["1210"]
    'tiersolve.games.onetwoten'
    """
    found: dict[str, str] = {}
    for path in sorted(folder.glob("*.py")):
        match = NAME_LINE.search(path.read_text(encoding="utf-8"))
        if match is None:
            continue
        name = match.group(1)
        if name in found:
            raise ValueError(f"two game modules are called {name!r}: {found[name]} and "
                             f"{package}.{path.stem}")
        found[name] = f"{package}.{path.stem}"
    return dict(sorted(found.items()))


#: Registry name -> module under games/ (each defines a Game subclass named ``GAME``).
GAMES: dict[str, str] = find_games(Path(__file__).parent, __name__)


def game_class(name: str) -> type[Game]:
    """The Game subclass registered under ``name``; GameError for an unknown name."""
    if name not in GAMES:
        known = ", ".join(GAMES)
        raise GameError(f"unknown game {name!r} (known: {known})")
    return importlib.import_module(GAMES[name]).GAME


def make_game(name: str, **options: Any) -> Game:
    """A game with the given options (defaults for the others); GameError, one line,
    for an unknown game, an option it does not have, or a value it cannot take."""
    return game_class(name)(**options)


def __getattr__(name: str) -> Any:
    """``Game`` is imported from games.base on first use."""
    if name == "Game":
        from tiersolve.games.base import Game

        return Game
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["GAMES", "Game", "find_games", "game_class", "make_game"]
