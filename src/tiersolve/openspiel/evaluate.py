"""How well an OpenSpiel agent plays, judged by a database: games against the
tablebase bot, from OpenSpiel's start and from positions sampled at random from the
database, with every one of the agent's moves judged.

A *blunder* lowers the value of the position for the agent (a win to a tie, a draw or
a loss; a tie to a draw or a loss; a draw to a loss). An *inaccuracy* keeps a win but
lengthens it: the position after it is further from the end than perfect play's. The
blunder rate counts the agent's moves in positions it could spoil (won, tied or
drawn), the inaccuracy rate its moves in won positions; both also by the remoteness of
the position before the move. The tablebase bot never errs, so the value the agent
had at its first move is kept exactly when it makes no blunder.

>>> from tiersolve.databases import build_database
>>> _ = build_database("ttt", "ttt_3x3_diagonal.h5", rows=3, cols=3, diagonal=True,
...                    progress=False)
>>> report = evaluate("ttt_3x3_diagonal.h5", "random", games=20, seed=1)
>>> report.blunders > 0, len(report.games), report.from_start
(True, 20, 10)
"""

from __future__ import annotations

import importlib
import math
import os
import random
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np
import pyspiel

from tiersolve.databases.reader import Database
from tiersolve.errors import TiersolveError, UnreachedPositionError
from tiersolve.openspiel import lines
from tiersolve.openspiel.bot import TablebaseBot, open_for, value_rank
from tiersolve.openspiel.convert import (
    GameMatch, NotInOpenSpielError, load_game, match_game, position_of, reaches_from_start,
    state_of,
)

__all__ = ["AgentError", "Evaluation", "GameRecord", "RemotenessRow", "agent_factory",
           "blunder_rate_figure", "evaluate", "plot_blunder_rates"]

#: What ``--agent`` takes.
AGENT_FORMS = "random, mcts:SIMULATIONS or module:callable"

#: OpenSpiel's MCTS as its examples run it: UCT constant 2, one random rollout a leaf,
#: proven wins and losses backed up (MCTS-Solver).
MCTS_UCT_C = 2.0
MCTS_ROLLOUTS = 1
MCTS_MEMORY_MB = 1000


class AgentError(TiersolveError):
    """An agent spec that names no agent, or an agent that breaks the rules."""


Factory = Callable[[pyspiel.Game, int, int], Any]


def agent_factory(spec: str) -> tuple[str, Factory]:
    """(label, factory) of an agent spec: ``random`` (OpenSpiel's uniform random bot),
    ``mcts:SIMULATIONS`` (OpenSpiel's MCTS bot with its random-rollout evaluator), or
    ``module:callable``, a callable of the user's that takes (game, player, seed) and
    returns a bot (an object with ``step(state) -> action``, such as a pyspiel.Bot).
    The factory makes a new bot for each game. AgentError (one line) for a bad spec.

    >>> agent_factory("mcts:100")[0]
    'mcts:100'
    >>> agent_factory("mcts:lots")
    Traceback (most recent call last):
    ...
    tiersolve.openspiel.evaluate.AgentError: agent 'mcts:lots': SIMULATIONS must be a whole number of at least 1
    """
    spec = spec.strip()
    if spec == "random":
        return spec, lambda game, player, seed: pyspiel.make_uniform_random_bot(player, seed)
    kind, colon, rest = spec.partition(":")
    if kind == "mcts":
        try:
            simulations = int(rest)
        except ValueError:
            simulations = 0
        if simulations < 1:
            raise AgentError(f"agent {spec!r}: SIMULATIONS must be a whole number of at least 1")

        def mcts(game: pyspiel.Game, player: int, seed: int):
            evaluator = pyspiel.RandomRolloutEvaluator(MCTS_ROLLOUTS, seed)
            return pyspiel.MCTSBot(game, evaluator, MCTS_UCT_C, simulations, MCTS_MEMORY_MB,
                                   True, seed, False)

        return f"mcts:{simulations}", mcts
    if not colon or not kind or not rest:
        raise AgentError(f"unknown agent {spec!r}: use {AGENT_FORMS}")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())  # as python -m finds a module of this folder
    try:
        module = importlib.import_module(kind)
    except Exception as error:  # a user's module may fail in any way
        raise AgentError(f"agent {spec!r}: cannot import {kind}: "
                         f"{type(error).__name__}: {error}") from None
    made = module
    for part in rest.split("."):
        made = getattr(made, part, None)
        if made is None:
            raise AgentError(f"agent {spec!r}: {kind} has no {rest}")
    if not callable(made):
        raise AgentError(f"agent {spec!r}: {kind}.{rest} is not callable")
    return spec, made


@dataclass(frozen=True)
class GameRecord:
    """One game: where it began, the agent's side (OpenSpiel's player), the value it
    had at its first move, the result for it, and its moves judged."""

    start: str
    from_start: bool
    agent_player: int
    agent_value: str | None  # None if the game ended before the agent moved
    result: str
    moves: int
    blunders: int
    inaccuracies: int

    @property
    def kept(self) -> bool:
        """The agent ended with the value it had at its first move."""
        return self.agent_value is None or self.result == self.agent_value


@dataclass
class RemotenessRow:
    """The agent's moves in positions of one remoteness (None: drawn positions)."""

    remoteness: int | None
    moves: int = 0          # in positions it could spoil: won, tied or drawn
    blunders: int = 0
    won_moves: int = 0      # in won positions
    inaccuracies: int = 0

    @property
    def blunder_rate(self) -> float:
        return self.blunders / self.moves if self.moves else math.nan

    @property
    def inaccuracy_rate(self) -> float:
        return self.inaccuracies / self.won_moves if self.won_moves else math.nan


@dataclass
class Evaluation:
    """What ``evaluate`` found for one agent."""

    agent: str
    game: str
    database: str
    seed: int
    games: list[GameRecord]
    rows: list[RemotenessRow]
    from_start: int
    random_starts: int
    skipped_starts: int = 0  # positions sampled that OpenSpiel could not set up
    seconds: float = 0.0     # the whole evaluation: sampling the positions and the games
    lost_moves: int = 0      # moves in lost positions, which cannot be spoiled

    @property
    def moves(self) -> int:
        return sum(row.moves for row in self.rows)

    @property
    def blunders(self) -> int:
        return sum(row.blunders for row in self.rows)

    @property
    def won_moves(self) -> int:
        return sum(row.won_moves for row in self.rows)

    @property
    def inaccuracies(self) -> int:
        return sum(row.inaccuracies for row in self.rows)

    @property
    def blunder_rate(self) -> float:
        return self.blunders / self.moves if self.moves else math.nan

    @property
    def inaccuracy_rate(self) -> float:
        return self.inaccuracies / self.won_moves if self.won_moves else math.nan

    def kept(self, value: str | None = None) -> tuple[int, int]:
        """(games whose value the agent kept, games), of all games or of those where
        it had ``value`` at its first move."""
        games = [g for g in self.games if g.agent_value is not None
                 and (value is None or g.agent_value == value)]
        return sum(g.kept for g in games), len(games)

    def summary(self) -> dict[str, Any]:
        """The headline figures, as the JSON has them."""
        kept, played = self.kept()
        return {"agent": self.agent, "games": len(self.games), "from_start": self.from_start,
                "random_starts": self.random_starts, "value_kept": kept,
                "games_judged": played, "moves": self.moves, "blunders": self.blunders,
                "blunder_rate": _number(self.blunder_rate), "won_moves": self.won_moves,
                "inaccuracies": self.inaccuracies,
                "inaccuracy_rate": _number(self.inaccuracy_rate)}

    def as_dict(self) -> dict[str, Any]:
        """Everything, as JSON data (``tiersolve evaluate --json``)."""
        return {**self.summary(), "game": self.game, "database": self.database, "seed": self.seed,
                "skipped_starts": self.skipped_starts, "seconds": round(self.seconds, 2),
                "lost_moves": self.lost_moves,
                "by_remoteness": [{**asdict(row), "blunder_rate": _number(row.blunder_rate),
                                   "inaccuracy_rate": _number(row.inaccuracy_rate)}
                                  for row in self.rows],
                "results": [asdict(record) for record in self.games]}

    def text(self) -> str:
        """The report for the terminal: the headline, then a table by remoteness."""
        kept, played = self.kept()
        by_value = []
        for value, name in (("win", "a win"), ("tie", "a tie"), ("draw", "a draw"),
                            ("lose", "a loss")):
            kept_here, of = self.kept(value)
            if of:
                by_value.append(f"{kept_here} of {of} from {name}")
        head = [
            f"agent {self.agent} on {self.game}, judged by {self.database}: {len(self.games)} "
            f"games ({self.from_start} from the start, {self.random_starts} from random "
            f"positions), seed {self.seed}, {self.seconds:.1f} s",
            f"value kept     {kept} of {played} games ({', '.join(by_value) or 'none'})",
            f"blunders       {self.blunders:,} of {self.moves:,} moves in won, tied or drawn "
            f"positions ({_percent(self.blunder_rate)})",
            f"inaccuracies   {self.inaccuracies:,} of {self.won_moves:,} moves in won positions "
            f"({_percent(self.inaccuracy_rate)})",
            "by remoteness of the position before the move (moves to the end with perfect play):",
        ]
        table = [("remoteness", "moves", "blunders", "rate", "won moves", "inaccuracies", "rate")]
        for row in self.rows:
            table.append(("draw" if row.remoteness is None else str(row.remoteness),
                          f"{row.moves:,}", f"{row.blunders:,}", _percent(row.blunder_rate),
                          f"{row.won_moves:,}", f"{row.inaccuracies:,}",
                          _percent(row.inaccuracy_rate)))
        widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
        body = ["  " + "  ".join(cell.rjust(width) for cell, width in zip(line, widths))
                for line in table]
        if self.skipped_starts:
            body.append(f"({self.skipped_starts:,} positions sampled could not be set up in "
                        "OpenSpiel, and others were sampled instead)")
        return "\n".join(head + body)


def _number(rate: float) -> float | None:
    return None if math.isnan(rate) else round(rate, 6)


def _percent(rate: float) -> str:
    return "-" if math.isnan(rate) else f"{100 * rate:.1f} %"


def _random_starts(db: Database, match: GameMatch, game: pyspiel.Game, count: int,
                   rng: np.random.Generator,
                   search_limit: int) -> tuple[list[tuple[str, Any]], int]:
    """``count`` positions sampled at random from what the database holds (legal, the
    game not over), each with its OpenSpiel state; and how many sampled positions
    OpenSpiel could not set up (others sampled instead)."""
    if count == 0:
        return [], 0
    guided = reaches_from_start(db, match)
    stored = db.stored_indices() if db.reachable_from is not None else None
    if stored is not None and stored.size == 0:
        raise TiersolveError(f"{db.path} holds no positions to start from")
    found: list[tuple[str, Any]] = []
    skipped = sampled = 0
    while len(found) < count:
        batch = max(256, 8 * (count - len(found)))
        indices = (rng.choice(stored, batch) if stored is not None
                   else rng.integers(0, db.size, batch))
        codes, distances = db.lookup_indices(indices)
        indices = indices[(codes >= 1) & (codes <= 4) & (distances != 0)]  # legal, not over
        if match.game.name == "breakthrough" and not guided:
            indices = indices[lines.plausible(db.decode(indices), match.rows, match.cols)]
        for text in db.positions(indices):
            try:
                found.append((text, state_of(game, text, db, search_limit=search_limit)))
            except NotInOpenSpielError:
                skipped += 1
            if len(found) == count:
                break
        sampled += batch
        if sampled > 1000 * count + 100_000 and len(found) < count:
            raise TiersolveError(
                f"sampled {sampled:,} positions from {db.path} but OpenSpiel could set up only "
                f"{len(found)}; a database of what play reaches from OpenSpiel's start gives "
                f"them at once: {match.build_command(reachable=True)}")
    return found, skipped


def _check_start(db: Database, match: GameMatch) -> None:
    """OpenSpiel's start must be in the database (a --reachable file may lack it)."""
    try:
        db.lookup(match.start)
    except UnreachedPositionError:
        raise UnreachedPositionError(
            f"{db.path} does not hold OpenSpiel's start {match.start}: it holds only what play "
            f"reaches from {', '.join(db.reachable_from or [])}; build the database of every "
            f"position ({match.build_command()}) or of what play reaches from OpenSpiel's start "
            f"({match.build_command(reachable=True)})") from None


def _result(state: pyspiel.State, player: int) -> str:
    payoff = state.returns()[player]
    return "win" if payoff > 0 else "lose" if payoff < 0 else "tie"


def _play(state: pyspiel.State, agent, agent_player: int, tablebase: TablebaseBot,
          rows: dict[int | None, RemotenessRow], label: str, limit: int,
          from_start: bool) -> tuple[GameRecord, int]:
    """Play one game from ``state``; the agent's moves judged into ``rows``. Returns
    the record and the agent's moves in lost positions."""
    start = position_of(state)
    agent_value = None
    moves = blunders = inaccuracies = lost = 0
    for bot in (agent, tablebase):
        if hasattr(bot, "restart"):
            bot.restart()
    plies = 0
    while not state.is_terminal():
        plies += 1
        if plies > limit:
            raise AgentError(f"a game went past {limit} moves, longer than the game allows")
        player = state.current_player()
        if player == agent_player:
            judged = tablebase.action_values(state)
            best = judged[0]
            here = best.value
            distance = None if best.remoteness is None else best.remoteness + 1
            if agent_value is None:
                agent_value = here
            action = agent.step(state)
            chosen = next((choice for choice in judged if choice.action == action), None)
            if chosen is None:
                raise AgentError(f"agent {label} played action {action}, which is not legal in "
                                 f"{position_of(state)}")
            moves += 1
            if here == "lose":
                lost += 1
            else:
                row = rows.setdefault(distance, RemotenessRow(distance))
                row.moves += 1
                if value_rank(chosen.value) < value_rank(here):
                    row.blunders += 1
                    blunders += 1
                elif here == "win" and chosen.remoteness > best.remoteness:
                    row.inaccuracies += 1
                    inaccuracies += 1
                if here == "win":
                    row.won_moves += 1
        else:
            action = tablebase.step(state)
        for bot, its_player in ((agent, agent_player), (tablebase, 1 - agent_player)):
            if its_player != player and hasattr(bot, "inform_action"):
                bot.inform_action(state, player, action)
        state.apply_action(action)
    return GameRecord(start, from_start, agent_player, agent_value, _result(state, agent_player),
                      moves, blunders, inaccuracies), lost


class _Progress:
    """A bar of games on a terminal, a line when done elsewhere, or nothing."""

    def __init__(self, total: int, label: str, enabled: bool) -> None:
        self.label, self.total, self.bar = label, total, None
        self.enabled = enabled
        if enabled and hasattr(sys.stderr, "isatty") and sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=label, unit="game", leave=False, dynamic_ncols=True)

    def update(self) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def close(self, seconds: float) -> None:
        """The line says the evaluation's ``seconds``, as its report does: one clock."""
        if self.bar is not None:
            self.bar.close()
        elif self.enabled:
            print(f"{self.label}: {self.total:,} games, {seconds:.1f} s", file=sys.stderr,
                  flush=True)


def evaluate(database: Database | str | os.PathLike, agent: str | Factory, *, games: int = 100,
             from_start: int | None = None, game: str | pyspiel.Game | None = None, seed: int = 0,
             progress: bool = False, search_limit: int = 2_000) -> Evaluation:
    """Play ``games`` games of an agent against the tablebase bot and judge every move
    of the agent by the database.

    ``agent`` is a spec (``random``, ``mcts:SIMULATIONS``, ``module:callable``: see
    ``agent_factory``) or a factory called as ``factory(game, player, seed)``. The first
    ``from_start`` games (half, rounded up, by default) begin at OpenSpiel's start, the
    agent taking each side in turn; the others at positions sampled at random from the
    database, the agent to move. ``game`` is the OpenSpiel game (string), by default
    the database's; it must have the database's rules and size. ``search_limit``
    bounds the search for a line of play to a sampled Breakthrough position (see
    ``state_of``). Errors are one line: TiersolveError and its kinds."""
    db = database if isinstance(database, Database) else None
    if db is None:
        from tiersolve.databases.reader import open_database

        db = open_database(database)
    if game is None:
        match = match_game(db.game)
        os_game = load_game(match.openspiel)
    else:
        os_game = load_game(game)
        match = match_game(os_game)
    open_for(os_game, db)
    label, factory = agent_factory(agent) if isinstance(agent, str) else (
        getattr(agent, "__name__", "agent"), agent)
    if games < 1:
        raise TiersolveError(f"games must be at least 1, got {games}")
    from_start = (games + 1) // 2 if from_start is None else from_start
    if not 0 <= from_start <= games:
        raise TiersolveError(f"from_start must be 0 to {games}, got {from_start}")
    began = time.perf_counter()
    if from_start:
        _check_start(db, match)
    rng = np.random.default_rng(seed)
    randoms, skipped = _random_starts(db, match, os_game, games - from_start, rng, search_limit)
    tablebase = TablebaseBot(os_game, db, seed=seed)
    rows: dict[int | None, RemotenessRow] = {}
    records: list[GameRecord] = []
    lost = 0
    limit = 10 * os_game.max_game_length() + 10
    seeds = random.Random(seed)
    bar = _Progress(games, label, progress)
    try:
        for number in range(games):
            if number < from_start:
                state, agent_player = os_game.new_initial_state(), number % 2
            else:
                _, state = randoms[number - from_start]
                state, agent_player = state.clone(), state.current_player()
            bot = factory(os_game, agent_player, seeds.randrange(2**31))
            if not hasattr(bot, "step"):
                raise AgentError(f"agent {label} made {bot!r}, which has no step(state) method")
            record, lost_here = _play(state, bot, agent_player, tablebase, rows, label, limit,
                                      number < from_start)
            records.append(record)
            lost += lost_here
            bar.update()
    finally:
        seconds = time.perf_counter() - began  # the positions sampled and the games
        bar.close(seconds)
    ordered = sorted(rows.values(), key=lambda row: (row.remoteness is None, row.remoteness or 0))
    return Evaluation(label, match.openspiel, str(db.path), seed, records, ordered, from_start,
                      games - from_start, skipped, seconds, lost)


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a rate.

    >>> [round(x, 3) for x in wilson(0, 10)]
    [0.0, 0.278]
    """
    if trials == 0:
        return math.nan, math.nan
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    spread = math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    half = z * spread / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def blunder_rate_figure(evaluations: Iterable[Evaluation], title: str | None = None,
                        min_moves: int = 10):
    """A matplotlib Figure of the blunder rate of each evaluation against the remoteness
    of the position before the move, with 95 % (Wilson) intervals, above the number of
    moves each rate is of. Only what was measured is drawn: a point for each remoteness
    with moves, and no line between remoteness values (a line would run through values
    without data, such as the even remoteness of won Breakthrough positions). Thin
    data shows: a point of fewer than ``min_moves`` moves is hollow, and the lower
    panel gives every point's moves on a log scale, with ``min_moves`` marked. Agents
    are set a little apart along the axis, so that their points do not hide each
    other. Needs matplotlib."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, LogLocator

    evaluations = list(evaluations)
    figure = Figure(figsize=(8, 5.5))
    FigureCanvasAgg(figure)
    axes, counts = figure.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": (3, 1)})
    spread = 0.5 / max(1, len(evaluations))
    for number, evaluation in enumerate(evaluations):
        points = [row for row in evaluation.rows if row.remoteness is not None and row.moves]
        if not points:
            continue
        colour = f"C{number % 10}"
        x = np.array([row.remoteness for row in points]) + (number - (len(evaluations) - 1) / 2) * spread
        moves = np.array([row.moves for row in points])
        rate = np.array([row.blunder_rate for row in points]) * 100
        bounds = np.array([wilson(row.blunders, row.moves) for row in points]) * 100
        below = np.maximum(0, rate - bounds[:, 0])  # a rate of 0 sits on its bound, to rounding
        above = np.maximum(0, bounds[:, 1] - rate)
        for enough, face, label in (
                (moves >= min_moves, colour,
                 f"{evaluation.agent} ({_percent(evaluation.blunder_rate)} overall)"),
                (moves < min_moves, "white", None)):
            if enough.any():
                axes.errorbar(x[enough], rate[enough], yerr=[below[enough], above[enough]],
                              fmt="o", color=colour, markerfacecolor=face, markersize=4.5,
                              capsize=2, elinewidth=1, label=label)
        counts.vlines(x, 0, moves, color=colour, linewidth=2)
        counts.plot(x, moves, "o", color=colour, markersize=3)
    axes.set_ylabel("blunder rate (%)")
    axes.set_ylim(0, 105)
    axes.grid(alpha=0.3)
    counts.set_yscale("log")
    counts.set_ylim(bottom=0.8)
    counts.yaxis.set_major_locator(LogLocator(base=10, numticks=12))  # every power of ten
    counts.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.0f}"))
    counts.axhline(min_moves, color="#888", linestyle="--", linewidth=1)
    counts.set_ylabel("moves")
    counts.set_xlabel("remoteness of the position before the move (moves to the end, perfect play)")
    counts.grid(alpha=0.3)
    if evaluations:
        figure.suptitle(title or f"{evaluations[0].game}: blunders against the tablebase bot")
    room = 0.95  # the figure's height the panels take: the legend goes above them
    if axes.containers:
        from matplotlib.lines import Line2D

        handles, labels = axes.get_legend_handles_labels()
        handles.append(Line2D([], [], marker="o", linestyle="none", color="#555",
                              markerfacecolor="white", markersize=4.5))
        labels.append(f"hollow: fewer than {min_moves} moves (below the dashed line)")
        columns = 3
        room = 1.0 - 0.045 * math.ceil(len(labels) / columns)
        figure.legend(handles, labels, fontsize=8, ncols=columns, loc="upper center",
                      bbox_to_anchor=(0.5, 0.94), frameon=False)
    else:
        axes.text(0.5, 0.5, "no moves in won, tied or drawn positions", ha="center",
                  transform=axes.transAxes)
    figure.tight_layout(rect=(0, 0, 1, room))
    return figure


def plot_blunder_rates(evaluations: Iterable[Evaluation], path: str | os.PathLike,
                       title: str | None = None, min_moves: int = 10) -> Path:
    """``blunder_rate_figure`` as a PNG at ``path``. Needs matplotlib."""
    figure = blunder_rate_figure(evaluations, title, min_moves)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    return path
