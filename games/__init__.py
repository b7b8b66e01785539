"""The games: one module each, registered here by name.

>>> game = make_game("northcott", rows=3, cols=6)
>>> game.describe()
'northcott 3x6'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tiersolve.games.base import Game

# A game's module (and games.base, with numba) is imported when the game is first
# asked for, not with this registry (docs/PROFILE.md).

#: Registry name -> module under games/ (each defines a Game subclass named ``GAME``).
GAMES: dict[str, str] = {
    "1210": "tiersolve.games.onetwoten",
    "ttt": "tiersolve.games.ttt",
    "northcott": "tiersolve.games.northcott",
    "knightsdance": "tiersolve.games.knightsdance",
    "surround": "tiersolve.games.surround",
    "konane": "tiersolve.games.konane",
    "domineering": "tiersolve.games.domineering",
    "clobber": "tiersolve.games.clobber",
    "breakthrough": "tiersolve.games.breakthrough",
    "knightthrough": "tiersolve.games.knightthrough",
    "loa": "tiersolve.games.loa",
    "surakarta": "tiersolve.games.surakarta",
    "pousse": "tiersolve.games.pousse",
}


def game_class(name: str) -> type[Game]:
    """The Game subclass registered under ``name``; ValueError for an unknown name."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    return importlib.import_module(GAMES[name]).GAME


def make_game(name: str, **options: Any) -> Game:
    """A game instance with the given options (defaults for the others)."""
    return game_class(name)(**options)


def __getattr__(name: str) -> Any:
    """``Game`` is imported from games.base on first use."""
    if name == "Game":
        from tiersolve.games.base import Game

        return Game
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["GAMES", "Game", "game_class", "make_game"]
