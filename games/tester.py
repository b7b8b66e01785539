"""The game tester: checks a game against the contract of ``games/base.py`` on its
whole index space, and names the position and tier that break it.

Meant for small boards (it loops over every index in Python). Every registered game
runs it in ``tests/test_conformance.py``; run it on a new game while writing it::

    >>> from tiersolve.games import make_game
    >>> from tiersolve.games.tester import check_game
    >>> check_game(make_game("northcott", rows=2, cols=4, backward=True))
    'northcott 2x4 (backward): 72 indices, 72 legal, 192 moves, 192 un-moves checked'
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from tiersolve.contract import TERMINAL, TierType
from tiersolve.games.base import Game
from tiersolve.values import DRAW, ILLEGAL, LOSE, NONCANONICAL, TIE, WIN


class ContractError(AssertionError):
    """A game breaks its contract; the message names the position and tier."""


def _where(game: Game, tier: int, local: int) -> str:
    try:
        text = game.position_text(tier, local)
    except Exception as error:  # the text itself may be what is broken
        text = f"<cannot print: {error}>"
    key = game.tiers.keys[tier]
    return f"{text} (tier {tier} {tuple(key)}, index {local})"


def _expanded(game: Game, expand, tier: int, local: int) -> tuple[int, list[tuple[int, ...]]]:
    width = max(game.max_moves, 1)
    out = np.zeros((width, 4), np.int64)
    state, child = np.zeros(game.state_size, np.int64), np.zeros(game.state_size, np.int64)
    count = int(expand(game.data, tier, local, out, state, child, np.zeros(width, np.int64)))
    return count, [tuple(int(v) for v in row) for row in out[:max(count, 0)]]


def check_expansions(game: Game, tier: int, local: int) -> tuple[int, list[tuple[int, ...]]]:
    """``expand`` of one index, checked against the composition of the five functions
    and against ``expand_leaving`` (where the game has them); returns its (count, rows).
    ``check_game`` runs it on every index; on boards too big for that, call it on some."""
    where = _where(game, tier, local)
    count, rows = _expanded(game, game.expand, tier, local)
    if game.functions.expand is not None:
        composed = _expanded(game, game.composed_expand, tier, local)
        if count != composed[0] or sorted(rows) != sorted(composed[1]):
            raise ContractError(f"{game.describe()}: expand differs from the composition of "
                                f"the five functions at {where}: {count} {sorted(rows)} vs "
                                f"{composed[0]} {sorted(composed[1])}")
    if game.expand_leaving is not None:
        _check_leaving(game, tier, local, count, rows, where)
    return count, rows


def _level(game: Game, tier: int, local: int) -> int:
    """``sweep_level`` of an index, checked to lie in ``0..sweep_levels-1``."""
    level = int(game.sweep_level(game.data, tier, local, np.zeros(game.state_size, np.int64)))
    if not 0 <= level < game.sweep_levels:
        raise ContractError(f"{game.describe()}: sweep_level gives {_where(game, tier, local)} "
                            f"level {level}, outside 0..{game.sweep_levels - 1}")
    return level


def check_game(game: Game) -> str:
    """Check every index of ``game``; returns a one-line summary, raises ContractError."""
    tiers = range(game.tiers.count)
    children = {t: set(game.tier_children(t)) for t in tiers}
    legal = moves = unmoves = 0
    preimage: dict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)
    decided: list[tuple[int, int]] = []
    for tier in tiers:
        kind = game.tier_type(tier)
        for local in range(int(game.tier_sizes[tier])):
            where = _where(game, tier, local)
            count, rows = check_expansions(game, tier, local)
            if count == 0 or count == -NONCANONICAL:
                continue
            legal += 1
            decided.append((tier, local))
            state = game.state_at(game.tiers.global_index(tier, local))
            _check_text_and_hash(game, state, tier, local, where)
            for child_tier, child, same, move in rows:
                moves += 1
                if child_tier == TERMINAL:
                    if child not in (WIN, LOSE, TIE, DRAW):
                        raise ContractError(f"{game.describe()}: a move from {where} leads to a "
                                            f"finished game that is not indexed, with value code "
                                            f"{child}: not WIN, LOSE, TIE or DRAW")
                    continue
                if child_tier not in children[tier]:
                    raise ContractError(f"{game.describe()}: a move from {where} leads to tier "
                                        f"{child_tier}, which tier_children({tier}) does not name")
                if not 0 <= child < int(game.tier_sizes[child_tier]):
                    raise ContractError(f"{game.describe()}: a move from {where} leads to index "
                                        f"{child} of tier {child_tier}, outside the tier")
                target, _ = _expanded(game, game.expand, child_tier, child)
                if target == 0 or target == -NONCANONICAL:
                    raise ContractError(f"{game.describe()}: a move from {where} leads to "
                                        f"{_where(game, child_tier, child)}, which is "
                                        f"{'illegal' if target == 0 else 'not canonical'}")
                if child_tier == tier:
                    if kind == TierType.IMMEDIATE:
                        raise ContractError(f"{game.describe()}: tier {tier} is IMMEDIATE but "
                                            f"{where} has a move inside it")
                    if kind == TierType.SWEEP and child <= local:
                        raise ContractError(f"{game.describe()}: sweep tier {tier}: the move from "
                                            f"{where} leads to the lower index {child}")
                    if kind == TierType.SWEEP and game.sweep_level is not None and \
                            _level(game, tier, child) <= _level(game, tier, local):
                        raise ContractError(f"{game.describe()}: sweep tier {tier}: the move from "
                                            f"{where} (sweep_level {_level(game, tier, local)}) "
                                            f"leads to {_where(game, tier, child)}, whose level "
                                            f"{_level(game, tier, child)} is not higher")
                    if count > 0:
                        preimage[(tier, child)].add((local, same))
    if game.parents is not None:
        unmoves = _check_parents(game, decided, preimage)
    _check_start(game)
    return (f"{game.describe()}: {game.size:,} indices, {legal:,} legal, {moves:,} moves"
            + (f", {unmoves:,} un-moves checked" if game.parents is not None else ""))


def _check_leaving(game: Game, tier: int, local: int, count: int, rows, where: str) -> None:
    """``expand_leaving`` agrees with ``expand``: the same moves out of the tier, and
    the number of the others."""
    width = max(game.max_moves, 1)
    out = np.zeros((width, 4), np.int64)
    state, child = np.zeros(game.state_size, np.int64), np.zeros(game.state_size, np.int64)
    leaving, staying = (int(v) for v in game.expand_leaving(
        game.data, tier, local, out, state, child, np.zeros(width, np.int64)))
    if count <= 0:
        expected = (count, "not in play")
        got = (leaving, "not in play" if staying < 0 else f"{staying} staying")
    else:
        out_of_tier = sorted(row for row in rows if row[0] != tier)
        expected = (out_of_tier, len({row[1:3] for row in rows if row[0] == tier}))
        got = (sorted(tuple(int(v) for v in row) for row in out[:max(leaving, 0)]), staying)
    if got != expected:
        raise ContractError(f"{game.describe()}: expand_leaving differs from expand at {where}: "
                            f"{got} vs {expected}")


def _check_text_and_hash(game: Game, state: np.ndarray, tier: int, local: int, where: str) -> None:
    """The state of a legal, canonical index prints, parses back, and hashes to it."""
    text = game.format(state)
    try:
        parsed = game.parse(text)
    except ValueError as error:
        raise ContractError(f"{game.describe()}: {where} prints as {text!r}, which parse "
                            f"refuses: {error}") from None
    located = game.locate(parsed)
    if located != (tier, local):
        raise ContractError(f"{game.describe()}: {where} prints as {text!r}, which hashes to "
                            f"tier {located[0]} index {located[1]}")


def _check_parents(game: Game, decided, preimage) -> int:
    """The un-move generator gives exactly the positions whose moves reach each
    position, ignoring the ones the solver skips (illegal or finished)."""
    width = max(game.max_parents, 1)
    out = np.zeros(width, np.int64)
    state, other = np.zeros(game.state_size, np.int64), np.zeros(game.state_size, np.int64)
    checked = 0
    for tier, local in decided:
        if game.tier_type(tier) != TierType.LOOPY:
            continue
        count = int(game.parents(game.data, tier, local, out, state, other))
        if count > width:
            raise ContractError(f"{game.describe()}: {count} parents of {_where(game, tier, local)}, "
                                f"more than max_parents = {game.max_parents}")
        given = set()
        codes = out[:count].tolist()
        if game.parents_are_distinct and len(set(codes)) != len(codes):
            raise ContractError(f"{game.describe()}: parents_are_distinct, but the un-moves of "
                                f"{_where(game, tier, local)} give one parent twice")
        for code in codes:
            parent = code >> 1
            if not 0 <= parent < int(game.tier_sizes[tier]):
                raise ContractError(f"{game.describe()}: the un-moves of {_where(game, tier, local)} "
                                    f"give index {parent}, outside the tier")
            if _expanded(game, game.expand, tier, parent)[0] > 0:  # the solver skips the others
                given.add((parent, code & 1))
        expected = preimage.get((tier, local), set())
        if given != expected:
            missing = sorted(expected - given)
            extra = sorted(given - expected)
            detail = (f"missing {_where(game, tier, missing[0][0])}" if missing else
                      f"{_where(game, tier, extra[0][0])} has no move here")
            raise ContractError(f"{game.describe()}: the un-moves of {_where(game, tier, local)} "
                                f"are wrong: {len(missing)} missing, {len(extra)} extra; {detail}")
        checked += len(given)
    return checked


def _check_start(game: Game) -> None:
    start = game.start()
    if game.format(start) != game.default_start():
        raise ContractError(f"{game.describe()}: the start {game.default_start()!r} prints back "
                            f"as {game.format(start)!r}")
    if game.primitive_value(start) == ILLEGAL:
        raise ContractError(f"{game.describe()}: the start {game.default_start()!r} is illegal")
    _check_reachable_from(game, start)


def _check_reachable_from(game: Game, start: np.ndarray, limit: int = 2000) -> None:
    """``unreachable_reason`` refuses no position that play reaches from the start
    (the first ``limit`` positions, breadth first)."""
    seen = {game.format(start)}
    frontier = [start]
    while frontier and len(seen) < limit:
        state = frontier.pop(0)
        reason = game.unreachable_reason(state)
        if reason is not None:
            raise ContractError(f"{game.describe()}: {game.format(state)}, reached by play from "
                                f"the start, is refused as unreachable: {reason}")
        for child in game.children(state):
            text = game.format(child.state)
            if text not in seen:
                seen.add(text)
                frontier.append(child.state)
