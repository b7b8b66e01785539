"""Independent plain-Python reference implementations of the games.

Written from ``docs/RULES.md`` only; tests cross-check the fast solver against these.
Standard library only, and nothing of the package: a rule misread in one is unlikely
to be misread the same way in the other.

* one module a game, the module of the same file name as the game's module under
  ``games/`` (``games/ttt.py``, ``tests/reference/ttt.py``), defining a class ``Game``
  whose ``name`` is the registry's name;
* ``GAMES``: game name -> ``Game`` class, every module of this folder (a broken
  module is left out here, and its game's tests fail on it);
* ``make_game(name, **options)``: a ``Game`` instance;
* ``solve_all(name, options, start_texts)``: ``{canonical text: (value,
  remoteness)}`` for every state reachable from the given starts.
"""

import importlib
from pathlib import Path

from .solve import DRAW, LOSE, TIE, WIN, solve  # noqa: F401

#: Modules of this folder that are not a game's rules.
NOT_GAMES = {"solve"}


def _modules():
    """The module names of this folder's games."""
    return sorted(path.stem for path in Path(__file__).parent.glob("*.py")
                  if not path.stem.startswith("_") and path.stem not in NOT_GAMES)


def _load_games():
    games = {}
    for module_name in _modules():
        try:
            module = importlib.import_module("." + module_name, __name__)
            games[module.Game.name] = module.Game
        except Exception:  # a missing or broken module must not hide the others
            pass
    return games


GAMES = _load_games()


def game_class(name):
    """The ``Game`` class of game ``name``."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (reference rules: {', '.join(GAMES)})") from None


def make_game(name, **options):
    """A ``Game`` object of game ``name`` with the given options."""
    return game_class(name)(**options)


def solve_all(name, options, start_texts):
    """Solve every state reachable from ``start_texts`` (starts included).

    Returns ``{canonical text: (value, remoteness)}`` with value in "win",
    "lose", "tie", "draw" and remoteness an int (``None`` for "draw").
    The answer is kept for the session: several test modules compare their own
    solvers against the same small boards, and the reference is slow.
    """
    key = (name, tuple(sorted((options or {}).items())), tuple(sorted(start_texts)))
    if key not in _SOLVED:
        game = make_game(name, **(options or {}))
        starts = [game.parse(t) for t in start_texts]
        result = solve(game, starts)
        fmt = game.format
        _SOLVED[key] = {fmt(s): v for s, v in result.items()}
    return _SOLVED[key]


_SOLVED: dict = {}
