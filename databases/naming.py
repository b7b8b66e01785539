"""Where database files go by default, and how messages name files, counts and sizes.

>>> from tiersolve.games import make_game
>>> game = make_game("domineering", rows=3, cols=4)
>>> str(default_path(game)), build_command(game)
('db/domineering_3x4.h5', 'tiersolve build domineering --rows 3 --cols 4')
>>> plural(1, "tier"), plural(12000, "position"), human_bytes(1536)
('1 tier', '12,000 positions', '1.5 KB')
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tiersolve.games.base import Game


def default_directory() -> Path:
    """Where databases go by default: ``$TIERSOLVE_DB_DIR`` (or its former name
    ``$GAMESOLVER_DB_DIR``), else ``./db``."""
    return Path(os.environ.get("TIERSOLVE_DB_DIR") or os.environ.get("GAMESOLVER_DB_DIR", "db"))


def default_path(game: Game) -> Path:
    """The default file of a game instance, e.g. ``db/northcott_3x6_backward.h5``."""
    return default_directory() / f"{game.label()}.h5"


def default_reachable_path(game: Game) -> Path:
    """The default file of a ``--reachable`` build: ``db/<game label>_reachable.h5``."""
    return default_directory() / f"{game.label()}_reachable.h5"


def build_command(game: Game, path: str | os.PathLike | None = None) -> str:
    """The command that builds ``game``'s database (at ``path`` if that is not its
    default file), for messages that say how to make a missing one."""
    words = ["tiersolve build", game.name, game.flags()]
    if path is not None and Path(path) != default_path(game):
        words.append(f"--out {path}")
    return " ".join(word for word in words if word)


def plural(count: int, noun: str) -> str:
    """``plural(1, "position")`` -> '1 position'; 2 -> '2 positions' (thousands separated)."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def human_bytes(count: float) -> str:
    """1536 -> '1.5 KB'."""
    for unit in ("B", "KB", "MB", "GB", "TB", "PB"):
        if count < 1024 or unit == "PB":
            break
        count /= 1024
    return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
