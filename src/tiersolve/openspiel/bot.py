"""``TablebaseBot``: an OpenSpiel bot that plays perfectly from a tiersolve database.

>>> from tiersolve.databases import build_database
>>> from tiersolve.openspiel import state_of
>>> _ = build_database("ttt", "ttt_3x3_diagonal.h5", rows=3, cols=3, diagonal=True,
...                    progress=False)
>>> bot = TablebaseBot("tic_tac_toe", "ttt_3x3_diagonal.h5", seed=1)
>>> state = state_of("tic_tac_toe", "(o xx- oo- --x)")
>>> state.action_to_string(bot.step(state))        # o wins at once
'o(1,2)'
>>> [str(choice) for choice in bot.action_values(state)][:2]
['o(1,2): win in 0', 'o(0,2): win in 2']
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
import pyspiel

from tiersolve.databases.reader import Database, open_database, value_text
from tiersolve.errors import DatabaseMismatchError, UnreachedPositionError
from tiersolve.openspiel.convert import load_game, match_game, position_of
from tiersolve.values import DRAW, LOSE, TIE, VALUE_NAMES, WIN, flipped

__all__ = ["ActionValue", "TablebaseBot", "preference"]


@dataclass(frozen=True)
class ActionValue:
    """An OpenSpiel action with its value *for the player who takes it* and the
    remoteness of the position it leads to (None for a draw)."""

    action: int
    name: str
    position: str
    value: str
    remoteness: int | None

    def __str__(self) -> str:
        return f"{self.name}: {value_text(self.value, self.remoteness)}"


def preference(value: str, remoteness: int | None) -> tuple[int, int]:
    """Sort key of a move by its value for its player, best first: the fastest win,
    then the fastest tie, a draw, the slowest loss (as ``Database.moves``)."""
    distance = remoteness or 0
    return {"win": (0, distance), "tie": (1, distance), "draw": (2, 0)}.get(value, (3, -distance))


def open_for(game: pyspiel.Game, database: Database | str | os.PathLike) -> Database:
    """``database`` (a Database, a file or a game's name) opened, checked to hold the
    positions of the OpenSpiel ``game``: DatabaseMismatchError (one line) if not."""
    db = database if isinstance(database, Database) else open_database(database)
    match = match_game(game)
    if not match.fits(db.game):
        raise DatabaseMismatchError(f"{db.path} holds {db.game.describe()}, not {match.openspiel} "
                                    f"({match.game.describe()}); its database: "
                                    f"{match.build_command()}")
    return db


class TablebaseBot(pyspiel.Bot):
    """An OpenSpiel bot that never errs: it plays from a tiersolve database the
    fastest win, else the fastest tie (or a draw), else the slowest loss, at random
    among equal moves (``seed``). ``step_with_policy`` spreads the policy evenly over
    those best moves.

    ``game`` is an OpenSpiel game or game string of breakthrough, clobber, mnk or
    tic_tac_toe; ``database`` a Database, or a file (or a game's name) to open. The
    bot is the same for both players and keeps no state between moves."""

    def __init__(self, game: str | pyspiel.Game, database: Database | str | os.PathLike,
                 seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self.game = load_game(game)
        self.match = match_game(self.game)
        self.database = open_for(self.game, database)
        self._random = random.Random(seed)

    # OpenSpiel's bot interface: nothing to remember between moves.
    def restart(self) -> None:
        pass

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return True

    def action_values(self, state: pyspiel.State) -> list[ActionValue]:
        """Every legal action of ``state`` with its value for the player to move,
        best first (an empty list when the game is over). UnreachedPositionError if
        the database (a ``--reachable`` one) does not hold a position an action leads to."""
        actions = state.legal_actions()
        children = [state.child(action) for action in actions]
        texts = [position_of(child) for child in children]
        try:
            codes, distances = self.database.lookup_many(texts)
        except UnreachedPositionError:
            missing = next((text for text in texts if self.database.get(text) is None), texts[0])
            starts = ", ".join(self.database.reachable_from or [])
            raise UnreachedPositionError(
                f"{self.database.path} does not hold {missing}, where a move of "
                f"{position_of(state)} leads: it holds only what play reaches from {starts}; the "
                f"database of every position: {self.match.build_command()}") from None
        found = []
        for action, text, code, distance in zip(actions, texts, codes, distances):
            value = VALUE_NAMES[flipped(int(code))]  # the child's value is the opponent's
            found.append(ActionValue(action, state.action_to_string(action), text, value,
                                     None if distance < 0 else int(distance)))
        return sorted(found, key=lambda choice: preference(choice.value, choice.remoteness))

    def best_actions(self, state: pyspiel.State) -> list[int]:
        """The actions as good as the best one (the same value and remoteness)."""
        ranked = self.action_values(state)
        if not ranked:
            return []
        best = preference(ranked[0].value, ranked[0].remoteness)
        return [choice.action for choice in ranked
                if preference(choice.value, choice.remoteness) == best]

    def step_with_policy(self, state: pyspiel.State) -> tuple[list[tuple[int, float]], int]:
        """(policy, action): every legal action with probability 1/k if it is one of
        the k best, else 0; and one of the best, at random."""
        best = self.best_actions(state)
        if not best:
            return [], pyspiel.INVALID_ACTION
        share = 1.0 / len(best)
        policy = [(action, share if action in best else 0.0) for action in state.legal_actions()]
        return policy, self._random.choice(best)

    def step(self, state: pyspiel.State) -> int:
        return self.step_with_policy(state)[1]


#: How good each value is for its player, the best highest.
RANK = {VALUE_NAMES[WIN]: 3, VALUE_NAMES[TIE]: 2, VALUE_NAMES[DRAW]: 1, VALUE_NAMES[LOSE]: 0}


def value_rank(value: str) -> int:
    """How good a value is for its player: win 3, tie 2, draw 1, lose 0."""
    return RANK[value]
