"""The registry of games: every game module under games/ is found by its ``NAME`` line
and is complete (its class members, its test boards, its reference rules); a game
whose ``build()`` breaks the contract is refused in one line when it is made. Adding
a game touches its module, its reference rules and its RULES.md section, nothing else
(docs/ADDING_A_GAME.md; tests/test_rules_doc.py checks the section)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import numpy as np
import pytest

from tiersolve.errors import GameError
from tiersolve.games import GAMES, find_games, game_class, make_game
from tiersolve.games.base import Game, GameSpec
from tiersolve.games.ttt import TicTacToe

import reference

ROOT = Path(__file__).resolve().parent.parent


def test_every_game_module_is_registered():
    """A module of games/ that defines ``GAME`` is in the registry, and nothing else is."""
    modules = {f"tiersolve.games.{path.stem}" for path in (ROOT / "games").glob("*.py")
               if hasattr(importlib.import_module(f"tiersolve.games.{path.stem}"), "GAME")}
    assert modules == set(GAMES.values())
    assert len(GAMES) >= 13


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_registered_game_is_complete(name):
    cls = game_class(name)
    assert issubclass(cls, Game) and cls.name == name
    assert cls.tester_boards and cls.reference_boards, f"{name}: declare its test boards"
    for options in (*cls.tester_boards, *cls.reference_boards, *cls.slow_reference_boards):
        assert make_game(name, **options).options  # every board makes a game
    default = make_game(name)
    assert isinstance(default.spec, GameSpec) and not default.spec.problems()
    module = GAMES[name].rpartition(".")[2]
    assert name in reference.GAMES, f"{name}: no reference rules in tests/reference/{module}.py"
    assert reference.GAMES[name].__module__ == f"reference.{module}"


def test_the_registry_reads_the_name_line_of_each_module(tmp_path):
    (tmp_path / "nim.py").write_text('"""Nim."""\n\nNAME = "nim"  # the registry\'s name\n')
    (tmp_path / "helpers.py").write_text('name = "not a game"\nNAME_OF = "x"\n')
    assert find_games(tmp_path, "extra") == {"nim": "extra.nim"}
    (tmp_path / "other.py").write_text('NAME = "nim"\n')
    with pytest.raises(ValueError, match="two game modules are called 'nim'"):
        find_games(tmp_path, "extra")


def test_an_unknown_game_is_one_line():
    known = re.escape(", ".join(sorted(GAMES)))  # every name, in order
    with pytest.raises(GameError, match=rf"^unknown game 'chess' \(known: {known}\)$"):
        make_game("chess")
    with pytest.raises(GameError, match=r"^ttt has no option size \(options: rows, cols"):
        make_game("ttt", size=3)


def _broken(**changes):
    """Tic-Tac-Toe whose build() returns a GameSpec with ``changes``."""
    class Broken(TicTacToe):
        def build(self):
            spec = super().build()
            members = {name: getattr(spec, name) for name in spec.__dataclass_fields__}
            members.update(changes)
            return GameSpec(**{k: v for k, v in members.items() if v is not None or k == "remoteness_bound"})

    return Broken


@pytest.mark.parametrize("changes, message", [
    ({"hasher": None}, "hasher is not given"),
    ({"max_moves": "9"}, "max_moves is '9', not a whole number from 0 up"),
    ({"state_size": 0}, "state_size is 0, not a whole number from 1 up"),
    ({"loopy": 1}, "loopy is 1, not True or False"),
    ({"tiers": [9]}, r"tiers is \[9\], not a TierLayout"),
    ({"data": (np.zeros(2),)}, r"data is \(array\(\[0\., 0\.\]\),\), not a NamedTuple of numpy arrays"),
    ({"sweep_levels": 300}, "sweep_levels is 300, not a whole number from 0 to 256"),
    ({"sweep_levels": 3}, "sweep_levels is 3, but the game has no sweep_level"),
])
def test_a_broken_spec_is_refused_when_the_game_is_made(changes, message):
    with pytest.raises(GameError, match=f"^ttt: build\\(\\) gives a GameSpec whose {message}$"):
        _broken(**changes)(rows=3, cols=3)


def test_data_made_on_first_use_is_made_once_and_checked():
    """``GameSpec.data`` may be a function (Quixo 5x5's tables take seconds): the game
    is made without calling it, its first reader calls it once, and what it gives is
    checked as data given directly is."""
    plain = make_game("ttt", rows=3, cols=3)
    calls = []

    def made():
        calls.append(1)
        return plain.data

    game = _broken(data=made)(rows=3, cols=3)
    assert calls == [] and list(game.tier_sizes) == list(plain.tier_sizes)
    assert game.data is plain.data and game.data is plain.data and calls == [1]
    with pytest.raises(GameError, match=r"^ttt: build\(\)'s data function gives \(1,\), not a "
                                        r"NamedTuple of numpy arrays$"):
        _broken(data=lambda: (1,))(rows=3, cols=3).data


def test_a_game_without_a_member_is_refused_when_it_is_made():
    class NoFunctions(TicTacToe):
        functions = None

    class NoParse(Game):
        name, title, options_spec, functions = "bare", "Bare", (), TicTacToe.functions

        def build(self):
            return TicTacToe(rows=3, cols=3).spec

    class NoSpec(TicTacToe):
        def build(self):
            return None

    with pytest.raises(GameError, match=r"^ttt: the class member functions is None, not a GameFunctions$"):
        NoFunctions()
    with pytest.raises(GameError, match=r"^bare: the method parse is not implemented$"):
        NoParse()
    with pytest.raises(GameError, match=r"^ttt: build\(\) returns None, not a GameSpec$"):
        NoSpec()


def test_spec_members_are_read_only():
    game = make_game("ttt", rows=3, cols=3)
    with pytest.raises(AttributeError, match="comes from the GameSpec that build"):
        game.max_moves = 3
