"""Independent plain-Python reference implementations of the games.

Written from ``RULES.md`` and the seed texts only; tests cross-check the fast
solver against these.  Standard library only.

* ``GAMES``: game name -> ``Game`` class (games whose module is missing or
  broken are left out);
* ``make_game(name, **options)``: a ``Game`` instance;
* ``solve_all(name, options, start_texts)``: ``{canonical text: (value,
  remoteness)}`` for every state reachable from the given starts.
"""

import importlib

from .solve import DRAW, LOSE, TIE, WIN, solve  # noqa: F401

MODULES = {
    "1210": "onetwoten",
    "ttt": "ttt",
    "northcott": "northcott",
    "knightsdance": "knightsdance",
    "surround": "surround",
    "konane": "konane",
    "clobber": "clobber",
    "domineering": "domineering",
    "breakthrough": "breakthrough",
    "knightthrough": "knightthrough",
    "loa": "loa",
    "surakarta": "surakarta",
    "pousse": "pousse",
}


def game_class(name):
    """The ``Game`` class of game ``name`` (imports its module on demand)."""
    try:
        module_name = MODULES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}") from None
    module = importlib.import_module("." + module_name, __name__)
    return module.Game


def _load_games():
    games = {}
    for name in MODULES:
        try:
            games[name] = game_class(name)
        except Exception:  # a missing or broken module must not hide the others
            pass
    return games


GAMES = _load_games()


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
