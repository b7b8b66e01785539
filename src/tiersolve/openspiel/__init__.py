"""tiersolve's databases in OpenSpiel: perfect play and ground truth for agents.

OpenSpiel (``pip install open-spiel``) has three games with the rules of a tiersolve
game: ``breakthrough``, ``clobber`` and ``mnk``/``tic_tac_toe`` (tiersolve's ``ttt
--diagonal``). This package turns their states into tiersolve's positions and back
(``position_of``, ``state_of``, ``match_game``: also the database file and build that
fit a game string), plays perfectly from a database as an OpenSpiel bot
(``TablebaseBot``), and judges an agent's every move against it (``evaluate``;
``tiersolve evaluate`` on the command line). docs/OPENSPIEL.md tells the rest.

It needs the extra ``openspiel``; without OpenSpiel, importing it says how to install
it, in one line. The rest of tiersolve never imports it.

>>> import pyspiel
>>> from tiersolve.openspiel import position_of
>>> state = pyspiel.load_game("clobber(rows=3,columns=3)").new_initial_state()
>>> position_of(state)                          # OpenSpiel's o is tiersolve's b
'(b bwb wbw bwb)'
"""

from __future__ import annotations

try:
    import pyspiel  # noqa: F401
except ImportError:
    raise ImportError("tiersolve.openspiel needs OpenSpiel: pip install 'tiersolve[openspiel]' "
                      "(in a checkout: pip install -e '.[openspiel]')") from None

from tiersolve.openspiel.bot import ActionValue, TablebaseBot
from tiersolve.openspiel.convert import (
    GameMatch, NotInOpenSpielError, UnsupportedGameError, load_game, match_game, position_of,
    state_of,
)
from tiersolve.openspiel.evaluate import (
    AgentError, Evaluation, GameRecord, RemotenessRow, agent_factory, blunder_rate_figure, evaluate,
    plot_blunder_rates,
)

__all__ = ["ActionValue", "AgentError", "Evaluation", "GameMatch", "GameRecord",
           "NotInOpenSpielError", "RemotenessRow", "TablebaseBot", "UnsupportedGameError",
           "agent_factory", "blunder_rate_figure", "evaluate", "load_game", "match_game", "plot_blunder_rates",
           "position_of", "state_of"]
