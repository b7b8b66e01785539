#!/usr/bin/env python3
"""Compare tiersolve with GamesmanOne, the GamesCrafters' C tier solver, on Quixo,
Teeko, Dobutsu shogi, Gobblet Gobblers, Kaooa, All Queens Chess, Neutron, Winkers
and Tic-Tac-Toe (docs/PEER.md: how to build GamesmanOne for this).

    python scripts/peer_gamesmanone.py bench PEER/bin/gamesman --cases quixo3,quixo4
    python scripts/peer_gamesmanone.py agree PEER/bin/gamesman --game quixo --size 4
    python scripts/peer_gamesmanone.py agree PEER/bin/gamesman --game gobblet --rules-only

``bench`` builds the same games with both systems, alternately, each build in a fresh
process, and prints CPU seconds, wall seconds, peak memory and file bytes per
position. ``agree`` looks positions up in both databases (the start, every position
of random games, random positions of ours) and compares every value and remoteness,
of the positions and of each of their moves; ``agree --rules-only`` compares the
moves, the positions they lead to and the primitive verdicts, without databases.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

PROG = "peer_gamesmanone.py"
#: GamesmanOne's exit code (and batch helper's "error") for an illegal position.
PEER_ILLEGAL_POSITION = 11


class Failure(Exception):
    """An error reported as one line, exit code 2."""


# -- the games: our options, GamesmanOne's variant, and the two notations ------------


def _square(r: int, c: int, n: int) -> str:
    """Our square name of row r (from the top) and column c: columns a.. from the
    left, rows 1.. from the bottom."""
    return f"{chr(ord('a') + c)}{n - r}"


def _cell(name: str, n: int) -> int:
    """The text-order cell (row-major from the top left) of a square name like b3."""
    name = name.strip().lower()
    if not re.fullmatch(r"[a-z][0-9]+", name):
        raise ValueError(f"{name!r} is not a square")
    c, row = ord(name[0]) - ord("a"), int(name[1:])
    if not (0 <= c < n and 1 <= row <= n):
        raise ValueError(f"{name!r} is off the {n}x{n} board")
    return (n - row) * n + c


def _parse_text(text: str, turns: str, symbols: str, n: int) -> tuple[str, str]:
    """(turn, cells row-major from the top) of our position text ``(T row row ...)``."""
    body = text.strip()
    if body.startswith("--"):  # "--size 3 (x ...)": options before the position
        body = body[body.index("("):]
    if not (body.startswith("(") and body.endswith(")")):
        raise ValueError(f"{text!r} is not a position (T row row ...)")
    tokens = body[1:-1].split()
    if not tokens or tokens[0] not in turns or len(tokens) != n + 1:
        raise ValueError(f"{text!r} is not a {n}x{n} position with turn in {turns!r}")
    cells = "".join(tokens[1:])
    if len(cells) != n * n or any(ch not in symbols for ch in cells):
        raise ValueError(f"{text!r}: expected {n} rows of {n} cells from {symbols!r}")
    return tokens[0], cells


class Notation:
    """Position and move names in both systems. GamesmanOne's formal position is
    ``T_cells``: T = 1 for the first player (our x / b), 2 for the second, then the
    cells row-major from the top left, ``X`` (first player), ``O``, ``-``."""

    turns = "xo"
    symbols = "xo-"
    n = 5

    def to_peer(self, text: str) -> str:
        turn, cells = _parse_text(text, self.turns, self.symbols, self.n)
        table = str.maketrans({self.symbols[0]: "X", self.symbols[1]: "O", "-": "-"})
        return f"{1 + self.turns.index(turn)}_{cells.translate(table)}"

    def from_peer(self, formal: str) -> str:
        if not re.fullmatch(rf"[12]_[XO-]{{{self.n * self.n}}}", formal):
            raise ValueError(f"{formal!r} is not a GamesmanOne position of this game")
        table = str.maketrans({"X": self.symbols[0], "O": self.symbols[1], "-": "-"})
        cells = formal[2:].translate(table)
        rows = [cells[r * self.n:(r + 1) * self.n] for r in range(self.n)]
        return f"({self.turns[int(formal[0]) - 1]} {' '.join(rows)})"

    def swap_colours(self, text: str) -> str:
        """The position with the two players exchanged (the other turn, each cell's
        symbol swapped): our Quixo and Teeko indexes store both under one index."""
        turn, cells = _parse_text(text, self.turns, self.symbols, self.n)
        a, b = self.symbols[:2]
        cells = cells.translate(str.maketrans({a: b, b: a}))
        rows = [cells[r * self.n:(r + 1) * self.n] for r in range(self.n)]
        return f"({self.turns[1 - self.turns.index(turn)]} {' '.join(rows)})"

    def peer_query(self, text: str) -> str:
        """What GamesmanOne's query helper is asked for our position: its formal position."""
        return self.to_peer(text)

    def move_to_peer(self, name: str, position: str | None = None) -> str:
        """GamesmanOne's formal move of our move name (made at ``position``, which
        only games whose move names depend on the turn need)."""
        raise NotImplementedError

    def move_from_peer(self, name: str) -> str:
        raise NotImplementedError

    def move_from_peer_at(self, name: str, position: str) -> str:
        """Our move name of GamesmanOne's formal move at our ``position`` (games whose
        peer names do not say where a piece stops, as Neutron's, need the position)."""
        return self.move_from_peer(name)

    def clean_peer_answer(self, answer: dict) -> dict:
        """GamesmanOne's answer as read, with known defects of its printing repaired
        (only Tic-Tac-Toe's mtttier has one)."""
        return answer

    def peer_refusal_reason(self, text: str) -> str | None:
        """Why GamesmanOne refuses a position we call legal, if that is a known and
        accepted difference (None: any refusal is a disagreement)."""
        return None


class QuixoNotation(Notation):
    """Our moves ``b3-c3`` (cube taken, end it goes in at); GamesmanOne's ``S D``: S
    the source cell, 1-based in formal order, D the side it goes in at (L, R, U =
    top row, D = bottom row)."""

    turns = "xo"
    symbols = "xo-"

    def __init__(self, size: int) -> None:
        self.n = size

    def move_to_peer(self, name: str, position: str | None = None) -> str:
        parts = name.replace(" ", "").split("-")
        if len(parts) != 2:
            raise ValueError(f"{name!r} is not a Quixo move")
        n = self.n
        source, end = (_cell(p, n) for p in parts)
        (sr, sc), (er, ec) = divmod(source, n), divmod(end, n)
        if sr == er and ec in (0, n - 1) and ec != sc:
            side = "L" if ec == 0 else "R"
        elif sc == ec and er in (0, n - 1) and er != sr:
            side = "U" if er == 0 else "D"
        else:
            raise ValueError(f"{name!r} is not a Quixo move")
        return f"{source + 1} {side}"

    def move_from_peer(self, name: str) -> str:
        match = re.fullmatch(r"\s*(\d+)\s+([LRUD])\s*", name)
        if not match:
            raise ValueError(f"{name!r} is not a GamesmanOne Quixo move")
        n = self.n
        source = int(match.group(1)) - 1
        r, c = divmod(source, n)
        er, ec = {"L": (r, 0), "R": (r, n - 1), "U": (0, c), "D": (n - 1, c)}[match.group(2)]
        return f"{_square(r, c, n)}-{_square(er, ec, n)}"

    def peer_refusal_reason(self, text: str) -> str | None:
        # GamesmanOne's QuixoIsLegalPosition: the player to move needs a cube of the
        # opponent on the ring (the opponent's last push left one there); ours asks
        # only for one anywhere on the board. Such positions are unreachable.
        turn, cells = _parse_text(text, self.turns, self.symbols, self.n)
        n = self.n
        if cells == "-" * (n * n):
            return None
        theirs = "o" if turn == "x" else "x"
        ring = [cells[r * n + c] for r in range(n) for c in range(n)
                if r in (0, n - 1) or c in (0, n - 1)]
        if theirs not in ring:
            return f"{theirs} has no cube on the ring, so {theirs} did not make the last move"
        return None


class TeekoNotation(Notation):
    """Our moves ``c3`` (drop) and ``c3-d4`` (step); GamesmanOne's formal moves are
    0-based cells in formal order: ``12`` and ``12 8``."""

    turns = "bw"
    symbols = "bw-"
    n = 5

    def move_to_peer(self, name: str, position: str | None = None) -> str:
        parts = name.replace(" ", "").split("-")
        if len(parts) not in (1, 2):
            raise ValueError(f"{name!r} is not a Teeko move")
        return " ".join(str(_cell(p, self.n)) for p in parts)

    def move_from_peer(self, name: str) -> str:
        if not re.fullmatch(r"\s*\d+(\s+\d+)?\s*", name):
            raise ValueError(f"{name!r} is not a GamesmanOne Teeko move")
        cells = [int(token) for token in name.split()]
        if any(not 0 <= cell < 25 for cell in cells):
            raise ValueError(f"{name!r} is not a GamesmanOne Teeko move")
        return "-".join(_square(*divmod(cell, 5), 5) for cell in cells)


def _words(text: str, count: int, what: str) -> list[str]:
    """The words of our position text ``(w w ...)``, exactly ``count`` of them."""
    body = text.strip()
    if body.startswith("--"):  # options before the position
        body = body[body.index("("):]
    if not (body.startswith("(") and body.endswith(")")):
        raise ValueError(f"{text!r} is not a position ({what})")
    words = body[1:-1].split()
    if len(words) != count:
        raise ValueError(f"{text!r} is not a {what} position: {count} words expected")
    return words


class DshogiNotation(Notation):
    """Dobutsu shogi. Ours: ``(L gle -c- -C- ELG -)``: the Lion letter of the player
    to move (``L`` the first player, "Forest", upper case, at the bottom, moving
    up; ``l`` the second), the rows from row 4 (top) to row 1, cells a-c, pieces
    ``L G E C H`` (Lion, Giraffe, Elephant, Chick, Hen; lower case the second
    player's), then the hands: the first player's pieces upper case, then the
    second's lower case, each in the order G, E, C (``-`` if both are empty).
    Moves ``b1-b2`` and drops ``G*b2``.

    GamesmanOne's formal position ``T_cells_GEC_gec``: T = 1 or 2 for the player to
    move, the 12 cells row-major from the top left (our a4 first), then the counts
    in hand of the first player (G, E, C) and of the second. Its formal moves
    ``A1 B2`` (squares A-C by column, 1-4 by row from the top: A1 = our a4) and
    drops ``G B2``, the piece letter upper case on the first player's turn and
    lower case on the second's."""

    turns = "Ll"
    pieces = "LlGgEeHhCc"
    rows, cols = 4, 3
    hand_order = "GEC"

    def parse(self, text: str) -> tuple[str, str, tuple[int, ...], tuple[int, ...]]:
        """(turn, 12 cells from the top left, first player's hand counts G E C,
        second player's) of our position text."""
        words = _words(text, self.rows + 2, "Dobutsu shogi (L row row row row hands)")
        turn, rows, hands = words[0], words[1:-1], words[-1]
        if turn not in self.turns:
            raise ValueError(f"{text!r}: the turn is L or l, not {turn!r}")
        if any(len(row) != self.cols or any(ch not in self.pieces + "-" for ch in row)
               for row in rows):
            raise ValueError(f"{text!r}: expected 4 rows of 3 cells from {self.pieces}-")
        if hands != "-" and (any(ch not in "GECgec" for ch in hands)
                             or hands != self.format_hands(self.hand_counts(hands))):
            raise ValueError(f"{text!r}: the hands are G, E, C upper case (first player) "
                             f"then lower case (second), in that order, or -; not {hands!r}")
        first, second = self.hand_counts(hands)
        return turn, "".join(rows), first, second

    @classmethod
    def hand_counts(cls, hands: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        hands = "" if hands == "-" else hands
        return (tuple(hands.count(p) for p in cls.hand_order),
                tuple(hands.count(p.lower()) for p in cls.hand_order))

    @classmethod
    def format_hands(cls, counts: tuple[tuple[int, ...], tuple[int, ...]]) -> str:
        first, second = counts
        text = "".join(p * n for p, n in zip(cls.hand_order, first)) + \
            "".join(p.lower() * n for p, n in zip(cls.hand_order, second))
        return text or "-"

    def format(self, turn: str, cells: str, first, second) -> str:
        rows = [cells[r * self.cols:(r + 1) * self.cols] for r in range(self.rows)]
        return f"({turn} {' '.join(rows)} {self.format_hands((tuple(first), tuple(second)))})"

    def to_peer(self, text: str) -> str:
        turn, cells, first, second = self.parse(text)
        if any(n > 2 for n in first + second):
            raise ValueError(f"{text!r}: at most two of a kind in a hand")
        return (f"{1 + self.turns.index(turn)}_{cells}_"
                f"{''.join(map(str, first))}_{''.join(map(str, second))}")

    def from_peer(self, formal: str) -> str:
        match = re.fullmatch(r"([12])_([LlGgEeHhCc-]{12})_([0-2]{3})_([0-2]{3})", formal)
        if not match:
            raise ValueError(f"{formal!r} is not a GamesmanOne Dobutsu shogi position")
        turn, cells, first, second = match.groups()
        return self.format(self.turns[int(turn) - 1], cells, [int(ch) for ch in first],
                           [int(ch) for ch in second])

    def swap_colours(self, text: str) -> str:
        """The same position seen by the other player: the board turned half round,
        each piece's owner exchanged, the hands exchanged, the other to move (our
        index stores a position and this twin under one index)."""
        turn, cells, first, second = self.parse(text)
        return self.format(self.turns[1 - self.turns.index(turn)], cells[::-1].swapcase(),
                           second, first)

    def square_to_cell(self, name: str) -> int:
        if not re.fullmatch(r"[a-c][1-4]", name):
            raise ValueError(f"{name!r} is not a Dobutsu shogi square (a1..c4)")
        return (self.rows - int(name[1])) * self.cols + "abc".index(name[0])

    def cell_to_square(self, cell: int) -> str:
        return "abc"[cell % self.cols] + str(self.rows - cell // self.cols)

    def cell_to_peer(self, cell: int) -> str:
        return "ABC"[cell % self.cols] + str(cell // self.cols + 1)

    def peer_to_cell(self, name: str) -> int:
        if not re.fullmatch(r"[A-C][1-4]", name):
            raise ValueError(f"{name!r} is not a GamesmanOne Dobutsu shogi square (A1..C4)")
        return (int(name[1]) - 1) * self.cols + "ABC".index(name[0])

    def move_to_peer(self, name: str, position: str | None = None) -> str:
        name = name.strip()
        drop = re.fullmatch(r"([GEC])\*([a-c][1-4])", name)
        if drop:
            piece = drop.group(1)
            if position is not None and self.parse(position)[0] == "l":
                piece = piece.lower()
            return f"{piece} {self.cell_to_peer(self.square_to_cell(drop.group(2)))}"
        step = re.fullmatch(r"([a-c][1-4])-([a-c][1-4])", name)
        if not step:
            raise ValueError(f"{name!r} is not a Dobutsu shogi move (b1-b2 or G*b2)")
        return " ".join(self.cell_to_peer(self.square_to_cell(sq)) for sq in step.groups())

    def move_from_peer(self, name: str) -> str:
        drop = re.fullmatch(r"\s*([GECgec])\s+([A-C][1-4])\s*", name)
        if drop:
            return f"{drop.group(1).upper()}*{self.cell_to_square(self.peer_to_cell(drop.group(2)))}"
        step = re.fullmatch(r"\s*([A-C][1-4])\s+([A-C][1-4])\s*", name)
        if not step:
            raise ValueError(f"{name!r} is not a GamesmanOne Dobutsu shogi move")
        return "-".join(self.cell_to_square(self.peer_to_cell(sq)) for sq in step.groups())


class GobbletNotation(Notation):
    """Gobblet Gobblers. Ours: ``(x ---/---/--- ---/---/--- ---/---/---)``: the player
    to move (``x`` the first), the rows from row 3 (top) to row 1, cells a, b, c
    separated by ``/``, a cell three characters: its small, medium and large
    piece, each ``x``, ``o`` or ``-``. Moves ``S*b2`` (``M``, ``L``: a piece from
    the reserve) and ``a1-b2`` (the top piece of a1 to b2).

    GamesmanOne's formal position ``T_small9medium9large9``: T = 1 or 2, then the
    three boards of small, medium and large pieces, each 9 cells row-major from
    the top left (our a3 first), ``X``, ``O``, ``-``. Its formal moves ``A_S_4``
    (add a small piece at cell 4, 0-based: our b2; ``M``, ``L``) and ``M_0_4``
    (move the top piece of cell 0 to cell 4)."""

    turns = "xo"
    n = 3
    sizes = "SML"

    def parse(self, text: str) -> tuple[str, list[str]]:
        """(turn, the 9 cells from the top left, each 3 characters small-medium-large)."""
        words = _words(text, self.n + 1, "Gobblet Gobblers (x row row row)")
        turn, rows = words[0], words[1:]
        if turn not in self.turns:
            raise ValueError(f"{text!r}: the turn is x or o, not {turn!r}")
        cells = []
        for row in rows:
            parts = row.split("/")
            if len(parts) != self.n or any(
                    len(cell) != 3 or any(ch not in "xo-" for ch in cell) for cell in parts):
                raise ValueError(f"{text!r}: a row is three cells a/b/c of three characters "
                                 "(small, medium, large) from x, o, -")
            cells.extend(parts)
        return turn, cells

    def format(self, turn: str, cells: list[str]) -> str:
        rows = ["/".join(cells[r * self.n:(r + 1) * self.n]) for r in range(self.n)]
        return f"({turn} {' '.join(rows)})"

    def to_peer(self, text: str) -> str:
        turn, cells = self.parse(text)
        boards = "".join("".join(cell[size] for cell in cells) for size in range(3))
        return f"{1 + self.turns.index(turn)}_{boards.upper()}"

    def from_peer(self, formal: str) -> str:
        if not re.fullmatch(r"[12]_[XOxo-]{27}", formal):
            raise ValueError(f"{formal!r} is not a GamesmanOne Gobblet Gobblers position")
        boards = formal[2:].lower()
        cells = ["".join(boards[size * 9 + k] for size in range(3)) for k in range(9)]
        return self.format(self.turns[int(formal[0]) - 1], cells)

    def swap_colours(self, text: str) -> str:
        turn, cells = self.parse(text)
        table = str.maketrans({"x": "o", "o": "x"})
        return self.format(self.turns[1 - self.turns.index(turn)],
                           [cell.translate(table) for cell in cells])

    def move_to_peer(self, name: str, position: str | None = None) -> str:
        name = name.strip()
        add = re.fullmatch(r"([SML])\*([a-c][1-3])", name)
        if add:
            return f"A_{add.group(1)}_{_cell(add.group(2), self.n)}"
        step = re.fullmatch(r"([a-c][1-3])-([a-c][1-3])", name)
        if not step:
            raise ValueError(f"{name!r} is not a Gobblet Gobblers move (S*b2 or a1-b2)")
        return f"M_{_cell(step.group(1), self.n)}_{_cell(step.group(2), self.n)}"

    def move_from_peer(self, name: str) -> str:
        add = re.fullmatch(r"A_([SML])_([0-8])", name.strip())
        if add:
            return f"{add.group(1)}*{_square(*divmod(int(add.group(2)), self.n), self.n)}"
        step = re.fullmatch(r"M_([0-8])_([0-8])", name.strip())
        if not step:
            raise ValueError(f"{name!r} is not a GamesmanOne Gobblet Gobblers move")
        return "-".join(_square(*divmod(int(cell), self.n), self.n) for cell in step.groups())


class KaooaNotation(Notation):
    """Kaooa. Ours: ``(c ----- ----- 6)``: the player to move (``c`` the crows,
    ``v`` the vulture), points 0-4 (the tips, clockwise from the top), points 5-9
    (the inner points, 5 + k between tips k and k + 1), each ``c``, ``v`` or ``-``,
    then the crows still in hand. Moves ``3`` (a placing), ``0-5`` (a step), ``0x6``
    (the vulture's jump).

    GamesmanOne's (``mkaooa``) formal position ``T_cells10P``: T = 1 for the crows,
    2 for the vulture, the ten points in the same order (``C``, ``V``, ``-``), and P
    the crows placed so far. Its formal moves ``3`` (placing) and ``0 -> 5`` (a step
    or a jump)."""

    crows = 6
    #: The pentagram's lines, four points each.
    lines = tuple((k, 5 + k, 5 + (k + 1) % 5, (k + 2) % 5) for k in range(5))

    def parse(self, text: str) -> tuple[str, str, int]:
        """(turn, the ten points, crows in hand) of our position text."""
        turn, tips, inner, hand = _words(text, 4, "Kaooa (c tips inner hand)")
        cells = tips + inner
        if turn not in "cv" or len(tips) != 5 or len(inner) != 5 or \
                set(cells) - set("cv-") or not hand.isdigit() or int(hand) > self.crows:
            raise ValueError(f"{text!r} is not a Kaooa position like (c ----- ----- 6)")
        return turn, cells, int(hand)

    def to_peer(self, text: str) -> str:
        turn, cells, hand = self.parse(text)
        return f"{1 + 'cv'.index(turn)}_{cells.upper()}{self.crows - hand}"

    def from_peer(self, formal: str) -> str:
        match = re.fullmatch(r"([12])_([CV-]{10})([0-6])", formal)
        if not match:
            raise ValueError(f"{formal!r} is not a GamesmanOne Kaooa position")
        turn, cells, placed = match.groups()
        cells = cells.lower()
        return f"({'cv'[int(turn) - 1]} {cells[:5]} {cells[5:]} {self.crows - int(placed)})"

    def swap_colours(self, text: str) -> str:
        return text  # the sides differ: no twin

    def jumps(self) -> set[tuple[int, int]]:
        """The (from, to) of every jump: two points with one between them on a line."""
        return {(way[i], way[i + 2]) for line in self.lines for way in (line, line[::-1])
                for i in range(2)}

    def move_to_peer(self, name: str, position: str | None = None) -> str:
        match = re.fullmatch(r"(\d)(?:[-x](\d))?", name.strip())
        if not match:
            raise ValueError(f"{name!r} is not a Kaooa move (3, 0-5 or 0x6)")
        return match.group(1) if match.group(2) is None else f"{match.group(1)} -> {match.group(2)}"

    def move_from_peer(self, name: str) -> str:
        match = re.fullmatch(r"\s*(\d)(?:\s*->\s*(\d))?\s*", name)
        if not match:
            raise ValueError(f"{name!r} is not a GamesmanOne Kaooa move")
        if match.group(2) is None:
            return match.group(1)
        a, b = int(match.group(1)), int(match.group(2))
        return f"{a}{'x' if (a, b) in self.jumps() else '-'}{b}"


class WinkersNotation(Notation):
    """Winkers. Ours: ``(x --- ---- ----- ---- ---)``: the player to move, then the 19
    points row by row (``-``, ``c`` a checker, ``x``/``o`` a wink); the checkers each
    side has placed follow from the board (docs/RULES.md). Moves: the point, 1-19.

    GamesmanOne's formal position ``<19 points>_<x's checkers left>_<o's checkers
    left>``, the points ``-``, ``C``, ``X``, ``O`` in the same order; its formal move
    the point, 0-18."""

    def parse(self, text: str) -> tuple[str, str]:
        turn, *rows = _words(text, 6, "Winkers (x and five rows)")
        board = "".join(rows)
        if turn not in "xo" or [len(r) for r in rows] != [3, 4, 5, 4, 3] or \
                set(board) - set("-cxo"):
            raise ValueError(f"{text!r} is not a Winkers position like "
                             "(x --- ---- ----- ---- ---)")
        return turn, board

    def to_peer(self, text: str) -> str:
        turn, board = self.parse(text)
        moves = len(board) - board.count("-") + board.count("x") + board.count("o")
        x_left = 10 - ((moves + 1) // 2 - board.count("x"))
        o_left = 10 - (moves // 2 - board.count("o"))
        return f"{board.upper()}_{x_left}_{o_left}"

    def from_peer(self, formal: str) -> str:
        match = re.fullmatch(r"([-CXO]{19})_(\d+)_(\d+)", formal)
        if not match:
            raise ValueError(f"{formal!r} is not a GamesmanOne Winkers position")
        board = match.group(1).lower()
        moves = len(board) - board.count("-") + board.count("x") + board.count("o")
        rows = [board[a:b] for a, b in ((0, 3), (3, 7), (7, 12), (12, 16), (16, 19))]
        text = f"({'xo'[moves % 2]} {' '.join(rows)})"
        if self.to_peer(text) != formal:
            raise ValueError(f"{formal!r}: its checkers left do not follow from its board")
        return text

    def swap_colours(self, text: str) -> str:
        return text  # x moves first: no twin

    def move_to_peer(self, name: str, position: str | None = None) -> str:
        if not re.fullmatch(r"\d+", name.strip()) or not 1 <= int(name) <= 19:
            raise ValueError(f"{name!r} is not a Winkers move (a point 1-19)")
        return str(int(name) - 1)

    def move_from_peer(self, name: str) -> str:
        if not re.fullmatch(r"\s*\d+\s*", name) or not 0 <= int(name) <= 18:
            raise ValueError(f"{name!r} is not a GamesmanOne Winkers move")
        return str(int(name) + 1)

    @staticmethod
    def tier_key(tier_name: str) -> tuple[int, int, int] | None:
        """Our tier key (x winks, o winks, checkers on the board) of GamesmanOne's tier
        name ``<x winks>X_<o winks>O_<x checkers>CX_<o checkers>CO``."""
        match = re.fullmatch(r"(\d+)X_(\d+)O_(\d+)CX_(\d+)CO", tier_name)
        if not match:
            return None
        wx, wo, nx, no = map(int, match.groups())
        return wx, wo, nx + no


class TttNotation(Notation):
    """Tic-Tac-Toe on the 3x3 board with diagonals (our ``ttt --rows 3 --cols 3
    --diagonal``). Ours: ``(x --- --- ---)``, rows from the top, moves named by the
    square of the new mark (``b2``).

    GamesmanOne's ``mttt`` and ``mtttier`` share one formal position: the 9 cells
    row-major from the top left, ``x``, ``o``, ``-`` (lower case), no turn (it
    follows from the counts: x moves first); its formal move is the cell, 0-based
    (``4``: our b2)."""

    n = 3

    def to_peer(self, text: str) -> str:
        _, cells = _parse_text(text, "xo", "xo-", self.n)
        return cells

    def from_peer(self, formal: str) -> str:
        if not re.fullmatch(r"[xo-]{9}", formal):
            raise ValueError(f"{formal!r} is not a GamesmanOne Tic-Tac-Toe position")
        xs, os_ = formal.count("x"), formal.count("o")
        if xs not in (os_, os_ + 1):
            raise ValueError(f"{formal!r}: x moves first, so x has as many marks as o or one more")
        rows = [formal[r * 3:(r + 1) * 3] for r in range(3)]
        return f"({'x' if xs == os_ else 'o'} {' '.join(rows)})"

    def swap_colours(self, text: str) -> str:
        return text  # the turn follows from the board: no twin under one index

    def clean_peer_answer(self, answer: dict) -> dict:
        # mtttier's TierPositionToFormalPosition copies a 9-character board that is
        # not NUL-terminated, so its formal positions carry whatever bytes follow
        # on the stack ("x--------\u0001"); the first 9 characters are the board.
        for item in (answer, *answer.get("moves", [])):
            if isinstance(item.get("position"), str):
                item["position"] = item["position"][:9]
        return answer

    def move_to_peer(self, name: str, position: str | None = None) -> str:
        return str(_cell(name, self.n))

    def move_from_peer(self, name: str) -> str:
        if not re.fullmatch(r"\s*[0-8]\s*", name):
            raise ValueError(f"{name!r} is not a GamesmanOne Tic-Tac-Toe move")
        return _square(*divmod(int(name), self.n), self.n)


class AllQueensNotation(Notation):
    """GamesmanOne's mallqueenschess has no formal positions (no UWAPI): the rules
    helper (``RULES_QUERY_C``) reads and writes its generic hash's boards as
    ``T_cells``: T = 1 for white (who moves first), 2 for black; then the 25 cells
    row-major from the top left, ``W``, ``B``, ``-``. Its rows are numbered 1 at the
    top and its moves are ``1a2b`` (from, to); ours are ``a5-b4``."""

    turns = "wb"
    symbols = "wb-"
    n = 5

    def to_peer(self, text: str) -> str:
        turn, cells = _parse_text(text, self.turns, self.symbols, self.n)
        return f"{1 + self.turns.index(turn)}_{cells.upper()}"

    def from_peer(self, formal: str) -> str:
        if not re.fullmatch(r"[12]_[WB-]{25}", formal):
            raise ValueError(f"{formal!r} is not a GamesmanOne All Queens Chess position")
        cells = formal[2:].lower()
        rows = [cells[r * 5:(r + 1) * 5] for r in range(5)]
        return f"({self.turns[int(formal[0]) - 1]} {' '.join(rows)})"

    def move_to_peer(self, name: str, position: str | None = None) -> str:
        parts = name.replace(" ", "").split("-")
        if len(parts) != 2:
            raise ValueError(f"{name!r} is not an All Queens Chess move")
        return "".join(f"{r + 1}{chr(ord('a') + c)}"
                       for r, c in (divmod(_cell(p, self.n), self.n) for p in parts))

    def move_from_peer(self, name: str) -> str:
        match = re.fullmatch(r"\s*([1-5])([a-e])([1-5])([a-e])\s*", name)
        if not match:
            raise ValueError(f"{name!r} is not a GamesmanOne All Queens Chess move")
        squares = [(int(match[k]) - 1, ord(match[k + 1]) - ord("a")) for k in (1, 3)]
        return "-".join(_square(r, c, self.n) for r, c in squares)


class NeutronNotation(Notation):
    """Neutron. Ours: ``(x ooooo ----- --n-- ----- xxxxx)``: the player to move (``x``
    the first, home row at the bottom), the rows from the top, cells ``x``, ``o``,
    ``n`` (the neutron), ``-``; the start's board reached later with ``x`` to move is
    ``(x again ...)``. Moves: the slides by their squares, the neutron's first,
    ``c3-c4,a1-a3``; ``a1-a4`` at the start; ``c3-c5`` when the neutron ends the game.

    GamesmanOne's formal position: ``I`` for the start, else ``T_cells`` (T = 1 for
    x, cells row-major from the top left, ``X``, ``O``, ``N``, ``-``). Its formal moves
    name directions (UL, U, UR, L, R, DL, D, DR): ``a1 U`` (the start), ``N U`` (the
    neutron alone), ``N U a1 R`` (the neutron, then the piece on a1)."""

    n = 5
    directions = {"UL": (-1, -1), "U": (-1, 0), "UR": (-1, 1), "L": (0, -1), "R": (0, 1),
                  "DL": (1, -1), "D": (1, 0), "DR": (1, 1)}

    def start_cells(self) -> str:
        return "OOOOO" + "-" * 7 + "N" + "-" * 7 + "XXXXX"

    def parse(self, text: str) -> tuple[str, str, bool]:
        """(turn, the 25 cells in GamesmanOne's letters, whether it is the start)."""
        body = text.strip()
        if not (body.startswith("(") and body.endswith(")")):
            raise ValueError(f"{text!r} is not a Neutron position (x row row row row row)")
        words = body[1:-1].split() or ["?"]
        again = len(words) > 1 and words[1] == "again"
        words = [words[0], *words[1 + again:]]
        cells = "".join(words[1:]).upper()
        if words[0] not in ("x", "o") or len(words) != self.n + 1 or \
                len(cells) != self.n ** 2 or set(cells) - set("XON-"):
            raise ValueError(f"{text!r} is not a Neutron position (x row row row row row)")
        return words[0], cells, words[0] == "x" and cells == self.start_cells() and not again

    def format(self, turn: str, cells: str) -> str:
        rows = [cells[r * self.n:(r + 1) * self.n].lower() for r in range(self.n)]
        head = "x again" if turn == "x" and cells == self.start_cells() else turn
        return f"({head} {' '.join(rows)})"

    def to_peer(self, text: str) -> str:
        turn, cells, start = self.parse(text)
        return "I" if start else f"{1 + 'xo'.index(turn)}_{cells}"

    def from_peer(self, formal: str) -> str:
        if formal == "I":
            return self.format("x", self.start_cells()).replace("x again", "x")
        if not re.fullmatch(r"[12]_[XON-]{25}", formal):
            raise ValueError(f"{formal!r} is not a GamesmanOne Neutron position")
        return self.format("xo"[int(formal[0]) - 1], formal[2:])

    def swap_colours(self, text: str) -> str:
        """The board turned 180° and the colours exchanged, the other to move: our index
        stores the two as one (docs/RULES.md, Neutron)."""
        turn, cells, start = self.parse(text)
        if start:
            return text
        turned = cells[::-1].translate(str.maketrans({"X": "O", "O": "X"}))
        return self.format("o" if turn == "x" else "x", turned)

    def _slide(self, cells: str, cell: int, direction: str) -> int:
        dr, dc = self.directions[direction]
        r, c = divmod(cell, self.n)
        while 0 <= r + dr < self.n and 0 <= c + dc < self.n and cells[(r + dr) * self.n + c + dc] == "-":
            r, c = r + dr, c + dc
        return r * self.n + c

    def move_to_peer(self, name: str, position: str | None = None) -> str:
        words = []
        for k, slide in enumerate(name.strip().split(",")):
            match = re.fullmatch(r"([a-e][1-5])-([a-e][1-5])", slide)
            if not match:
                raise ValueError(f"{name!r} is not a Neutron move (c3-c4,a1-a3)")
            a, b = (_cell(square, self.n) for square in match.groups())
            (ra, ca), (rb, cb) = divmod(a, self.n), divmod(b, self.n)
            step = ((rb > ra) - (rb < ra), (cb > ca) - (cb < ca))
            direction = next(d for d, v in self.directions.items() if v == step)
            neutron = k == 0 and (len(name.split(",")) == 2 or (
                position is not None and self.parse(position)[1][a] == "N"))
            words.append(f"N {direction}" if neutron else f"{match.group(1)} {direction}")
        return " ".join(words)

    def move_from_peer_at(self, name: str, position: str) -> str:
        _, cells, _ = self.parse(position)
        words = name.split()
        slides = []
        while words:
            piece, direction, words = words[0], words[1], words[2:]
            source = cells.index("N") if piece == "N" else _cell(piece, self.n)
            target = self._slide(cells, source, direction)
            cells = list(cells)
            cells[source], cells[target] = "-", cells[source]
            cells = "".join(cells)
            slides.append(f"{_square(*divmod(source, self.n), self.n)}-"
                          f"{_square(*divmod(target, self.n), self.n)}")
        return ",".join(slides)

    def move_from_peer(self, name: str) -> str:
        raise ValueError("a Neutron move's squares need the position (move_from_peer_at)")


class FsvpNotation(Notation):
    """Fair Shares and Varied Pairs: our ``(6 3 1)`` is GamesmanOne's ``{ 6, 3, 1, }``
    (its PositionToString; the game has no formal positions). Our moves ``6/3`` (split
    the heap of 6 into 3s) and ``6+3`` (unite 6 and 3) are its ``s 6 3`` and ``c 6 3``.
    GamesmanOne's hash of a position is our index (both rank the partitions of n in
    reverse lexicographic order), and the hash helper is asked by that number, so every
    answer's position text checks the two numberings against each other."""

    def __init__(self, n: int) -> None:
        self.n = n
        self._game = None

    def game(self):
        if self._game is None:
            from tiersolve.games import make_game

            self._game = make_game("fsvp", size=self.n)
        return self._game

    @staticmethod
    def heaps(text: str) -> list[int]:
        body = text.strip()
        if not (body.startswith("(") and body.endswith(")")):
            raise ValueError(f"{text!r} is not a position (heap heap ...)")
        return sorted((int(word) for word in body[1:-1].split()), reverse=True)

    def to_peer(self, text: str) -> str:
        return "{ " + "".join(f"{heap}, " for heap in self.heaps(text)) + "}"

    def from_peer(self, formal: str) -> str:
        if not re.fullmatch(r"\{ (\d+, )*\}", formal):
            raise ValueError(f"{formal!r} is not a GamesmanOne fsvp position")
        return "(" + " ".join(re.findall(r"\d+", formal)) + ")"

    def peer_query(self, text: str) -> str:
        """What the hash helper is asked: the position's hash, our index."""
        return str(self.game().index(self.game().parse(text)))

    def swap_colours(self, text: str) -> str:
        return text  # no colours: the game is impartial

    def move_to_peer(self, name: str, position: str | None = None) -> str:
        found = re.fullmatch(r"(\d+)([/+])(\d+)", name.strip())
        if not found:
            raise ValueError(f"{name!r} is not an fsvp move")
        return f"{'s' if found[2] == '/' else 'c'} {found[1]} {found[3]}"

    def move_from_peer(self, name: str) -> str:
        found = re.fullmatch(r"([sc]) (\d+) (\d+)", name.strip())
        if not found:
            raise ValueError(f"{name!r} is not a GamesmanOne fsvp move")
        return f"{found[2]}{'/' if found[1] == 's' else '+'}{found[3]}"


class GatesNotation(Notation):
    """Gates. Ours: ``(w --- ---- ---- ---- --- GGggAAaaZZzz)``: the player to move,
    the 18 points row by row (``G g A a Z z``, ``O``/``o`` the gate just scored
    through, ``-``), the pieces still to place or ``-``. Moves ``A5``, ``3-4``,
    ``9-13/1``, ``5>9,3-4``, ``z12,13-17``.

    GamesmanOne's gates has no formal positions (no UWAPI); the gates helper
    (``GATES_QUERY_C``) reads ``T_X_CELLS``: T = 1 for white, X ``p`` (placing) or
    ``m``, the 18 points in our letters. Its moves (MoveToString, points 1-18):
    ``p A 5``, ``m 3 4``, ``m 9 13 t 1``, ``g 5 9 m 3 4``, ``p z 12 m 13 17``."""

    most = 2

    def to_peer(self, text: str) -> str:
        body = text.strip()
        words = body[1:-1].split() if body.startswith("(") and body.endswith(")") else []
        if len(words) != 7 or words[0] not in ("w", "b"):
            raise ValueError(f"{text!r} is not a Gates position (w row row row row row hand)")
        cells = "".join(words[1:6])
        if len(cells) != 18 or set(cells) - set("GgAaZzOo-"):
            raise ValueError(f"{text!r} is not a Gates position")
        return f"{1 + 'wb'.index(words[0])}_{'m' if words[6] == '-' else 'p'}_{cells}"

    def from_peer(self, formal: str) -> str:
        if not re.fullmatch(r"[12]_[pm]_[GgAaZzOo-]{18}", formal):
            raise ValueError(f"{formal!r} is not a GamesmanOne Gates position (helper form)")
        cells = formal[4:]
        plain = cells.replace("O", "G").replace("o", "g")
        hand = "".join(k * (self.most - plain.count(k)) for k in "GgAaZz") \
            if formal[2] == "p" else "-"
        rows = [cells[0:3], cells[3:7], cells[7:11], cells[11:15], cells[15:18]]
        return f"({'wb'[int(formal[0]) - 1]} {' '.join(rows)} {hand})"

    def swap_colours(self, text: str) -> str:
        return text  # our index stores white and black as they are

    def move_to_peer(self, name: str, position: str | None = None) -> str:
        words = []
        for part in name.strip().split(","):
            if m := re.fullmatch(r"([GgAaZz])(\d+)", part):
                words.append(f"p {m[1]} {m[2]}")
            elif m := re.fullmatch(r"(\d+)>(\d+)", part):
                words.append(f"g {m[1]} {m[2]}")
            elif m := re.fullmatch(r"(\d+)-(\d+)(?:/(\d+))?", part):
                words.append(f"m {m[1]} {m[2]}" + (f" t {m[3]}" if m[3] else ""))
            else:
                raise ValueError(f"{name!r} is not a Gates move (A5, 3-4, 9-13/1, 5>9,3-4)")
        return " ".join(words)

    def move_from_peer(self, name: str) -> str:
        tokens = name.split()
        parts, i = [], 0
        try:
            while i < len(tokens):
                if tokens[i] == "p":
                    parts.append(f"{tokens[i + 1]}{int(tokens[i + 2])}")
                    i += 3
                elif tokens[i] == "g":
                    parts.append(f"{int(tokens[i + 1])}>{int(tokens[i + 2])}")
                    i += 3
                elif tokens[i] == "m":
                    parts.append(f"{int(tokens[i + 1])}-{int(tokens[i + 2])}")
                    i += 3
                elif tokens[i] == "t" and parts:
                    parts[-1] += f"/{int(tokens[i + 1])}"
                    i += 2
                else:
                    raise ValueError
        except (IndexError, ValueError):
            raise ValueError(f"{name!r} is not a GamesmanOne Gates move") from None
        return ",".join(parts)


#: GamesmanOne's fsvp sizes, in the order of its variant numbers.
FSVP_SIZES = (4, 5, 6, 7, 8, 9, 10, 11, 12, 20, 50, 60, 70, 80, 90, 100)


@dataclass(frozen=True)
class Case:
    """One game as both systems build it."""

    name: str
    game: str                # our game name
    ours: tuple[str, ...]    # our game options (command line)
    variant: int             # GamesmanOne's variant number
    notation: Notation = field(compare=False)
    note: str = ""
    peer_name: str = ""      # GamesmanOne's game name, if not ours
    options: tuple = ()      # our game options as (name, value) pairs, for make_game
    solvable: bool = True    # whether GamesmanOne can solve it on this machine
    query_cli: bool = True   # whether 'gamesman query' answers it (mttt's UWAPI has no
    #                          Primitive, so query refuses it; the batch helper fills it in)
    corners: tuple[str, ...] = ()  # positions always compared (with their twins): the
    #                                rules' corner cases, from docs/RULES.md's examples
    by_hash: bool = False    # GamesmanOne has no formal positions for it (no UWAPI): asked
    #                          by hash through the hash helper, and compared everywhere

    @property
    def peer_game(self) -> str:
        return self.peer_name or self.game

    def peer_positions(self) -> int:
        """How many positions GamesmanOne's index holds (when its output does not say)."""
        if self.game == "quixo":
            return 2 * 3 ** (self.notation.n ** 2)
        if self.game == "fsvp":
            from tiersolve.hashers.partitions import partition_count

            return partition_count(self.notation.n)
        if self.game == "dshogi":
            return dshogi_peer_positions()
        if self.game == "winkers":
            return 255_779_610_746  # its solver: "915 tiers ... of total size 255779610746"
        if self.game == "kaooa":
            # mkaooa's generic hash: 0-6 crows and 0-1 vulture on the 10 points, the
            # crows placed (0-6), both turns.
            return 2 * 7 * sum(math.comb(10, c) * (11 - c) for c in range(7))
        if self.game == "ttt":
            if self.peer_game == "mttt":
                return 3 ** 9  # every board of 9 cells, the turn from the counts
            # mtttier: a tier per marks placed t, x ceil(t/2) and o floor(t/2) of them
            return sum(math.comb(9, (t + 1) // 2) * math.comb(9 - (t + 1) // 2, t // 2)
                       for t in range(10))
        if self.game == "gobblet":
            # Each size's board: 0-2 pieces of each colour on 9 cells; both turns.
            per_size = sum(math.comb(9, x) * math.comb(9 - x, o)
                           for x in range(3) for o in range(3))
            return 2 * per_size ** 3
        # Teeko: tiers 0..7 (pieces dropped) fix the turn; tier 8 (all eight on the
        # board) holds both turns.
        total = 0
        for t in range(8):
            x, o = (t + 1) // 2, t // 2
            total += math.comb(25, x) * math.comb(25 - x, o)
        return total + 2 * math.comb(25, 4) * math.comb(21, 4)


def dshogi_peer_positions() -> int:
    """The size of GamesmanOne's Dobutsu shogi index (its generic hash): both turns of
    every board of 12 cells with one or two Lions (at most one each), at most two
    Giraffes, two Elephants and two Chicks/Hens on the board and in the first
    player's hand together, and 0-2 of each kind in that hand (the second
    player's hand is what is left)."""
    from itertools import product

    total = 0
    for lions in product(range(2), repeat=2):
        if sum(lions) == 0:
            continue
        for g, e, c in product(range(3), repeat=3):  # first player's hand
            # board counts: giraffes (G, g), elephants (E, e), chick-likes (H, h, C, c)
            for gs in product(range(3), repeat=2):
                if sum(gs) + g > 2:
                    continue
                for es in product(range(3), repeat=2):
                    if sum(es) + e > 2:
                        continue
                    for cs in product(range(3), repeat=4):
                        if sum(cs) + c > 2:
                            continue
                        counts = (*lions, *gs, *es, *cs)
                        blanks = 12 - sum(counts)
                        if not 4 <= blanks <= 11:
                            continue
                        ways = math.factorial(12) // math.factorial(blanks)
                        for k in counts:
                            ways //= math.factorial(k)
                        total += ways
    return 2 * total


#: Dobutsu shogi's corner cases: a promotion, a Hen captured, a Chick dropped on the
#: far row, a Lion captured, a Lion on the far row that can and cannot be taken, a
#: player who cannot move.
DSHOGI_CORNERS = (
    "(L gle --C --- ELG c)", "(l glH --- --- ELG Ec)", "(L gle --- -Lh E-G C)",
    "(L g-e l-- --- ELG Cc)", "(l gCe l-- --- ELG c)", "(L g-e -c- -C- ElG -)",
    "(l -lL --- g-e E-G Cc)", "(l --L --- gle E-G Cc)", "(L GE- LGE CCl --- -)",
)
#: Gobblet Gobblers' corner cases: covering, uncovering the other colour's line
#: (and covering it again), both colours in line.
GOBBLET_CORNERS = (
    "(o ---/---/--- ---/-x-/--- ---/---/---)",
    "(x o-x/-o-/-o- ---/---/--- x--/---/---)",
    "(o o--/-o-/-o- ---/--x/--- x--/---/---)",
    "(o o--/-ox/-o- ---/---/--- x--/---/---)",
    "(x o--/o--/-o- ---/---/--- x--/x--/-x-)",
    "(o o--/o--/-o- ---/---/--- x--/x--/-x-)",
)


#: Kaooa's corner cases: the vulture to be placed, then placed; a jump while crows
#: are placed; a crow stepping; the vulture shut in at a tip and at an inner point; a
#: third crow taken.
KAOOA_CORNERS = (
    "(v c---- ----- 5)", "(c c---- v---- 5)", "(v c---- vc--- 4)", "(c -cc-c vcc-- 0)",
    "(v v---- cc-cc 0)", "(v ccc-c vc--c 0)", "(c ----c cc-v- 0)",
)


#: All Queens Chess's corner cases (docs/RULES.md): lines of four of the player who
#: just moved along a short diagonal, a row and a long diagonal.
ALLQUEENS_CORNERS = (
    "(b bw-b- --w-b b--w- -b--w w-b-w)", "(w bbbb- -w--w --w-- w-b-w -b-w-)",
    "(b wb--b -w-b- b-w-- -b-w- b--ww)",
)


#: Neutron's corner cases: the neutron on x's home row and on o's, walled in, the
#: start's board reached later.
NEUTRON_CORNERS = (
    "(x o-ooo ---o- ----- ----x xnxxx)", "(x onooo ---o- ----- ----x x-xxx)",
    "(x ---ox o--xo xo--- nx--- ox---)", "(x again ooooo ----- --n-- ----- xxxxx)",
)


#: Winkers' corner cases (docs/RULES.md): a line just made; x to move with its ten
#: checkers all covered by o's winks, so without a move (a win for x).
WINKERS_CORNERS = ("(o xxx cccc c---- ---- ---)", "(x oo- oo-o ---oo oo-o ---)")


#: GamesmanOne's two Tic-Tac-Toe games: mttt (its regular solver, one array of 3^9
#: boards) and mtttier (its tier solver, a tier per marks placed).
TTT_PEER_GAMES = ("mttt", "mtttier")

#: Gates's corner cases: the last placing (black's, with a move after), a score, the
#: open gate moved (or left) before a move, a trapezoid's taking, a side's last spike
#: scored (docs/RULES.md's examples).
GATES_CORNERS = ("(b GAg AZZ- -z-- a--g aG- z)", "(w GAg -z-- g--- ---- zGZ -)",
                 "(b OAg -z-- g--- -a-- zGZ -)", "(w GAg -z-- g--- Z--- zG- -)",
                 "(b GOg -a-- g--- ---- -zz -)")


#: The games both systems have: ``make_case``'s and ``agree --game``'s names.
PEER_GAMES = ("quixo", "teeko", "dshogi", "gobblet", "kaooa", "allqueens", "neutron", "fsvp",
              "winkers", "gates", "ttt")


def make_case(game: str, size: int | None = None, advanced: bool = False,
              peer_game: str | None = None) -> Case:
    if peer_game is not None and game != "ttt":
        raise Failure("--peer-game chooses between GamesmanOne's two Tic-Tac-Toe games "
                      "(--game ttt)")
    if game == "ttt":
        if size not in (None, 3):
            raise Failure("GamesmanOne's Tic-Tac-Toe is on the 3x3 board only (--size 3)")
        peer_game = peer_game or "mttt"
        if peer_game not in TTT_PEER_GAMES:
            raise Failure(f"--peer-game {peer_game!r}: GamesmanOne's Tic-Tac-Toe is "
                          f"{' or '.join(TTT_PEER_GAMES)}")
        # Standard Tic-Tac-Toe: our ttt on the 3x3 board with diagonal lines (its
        # default is 3x4 without them).
        return Case("ttt" if peer_game == "mttt" else "ttt-tier", "ttt",
                    ("--rows", "3", "--cols", "3", "--diagonal"), 0, TttNotation(),
                    peer_name=peer_game, query_cli=peer_game != "mttt",
                    options=(("rows", 3), ("cols", 3), ("k", 3), ("diagonal", True),
                             ("misere", False)))
    if game == "quixo":
        size = 4 if size is None else size
        if not 3 <= size <= 5:
            raise Failure("quixo --size must be 3, 4 or 5 (GamesmanOne solves those)")
        note = "2*3^25 positions: far too large for this machine" if size == 5 else ""
        return Case(f"quixo{size}", "quixo", ("--size", str(size)), 5 - size,
                    QuixoNotation(size), note, options=(("size", size),),
                    solvable=size < 5)
    if game == "teeko":
        if size not in (None, 5):
            raise Failure("GamesmanOne solves Teeko on the 5x5 board only (--size 5)")
        ours = ("--advanced",) if advanced else ()
        return Case("teeko-advanced" if advanced else "teeko", "teeko", ours, int(advanced),
                    TeekoNotation(), "GamesmanOne needs about 9 GiB and 20+ minutes",
                    options=(("size", 5), ("advanced", advanced)))
    if game == "fsvp":
        size = 10 if size is None else size
        if size not in FSVP_SIZES:
            raise Failure("fsvp --size must be one of GamesmanOne's sizes: "
                          + ", ".join(map(str, FSVP_SIZES)))
        return Case(f"fsvp{size}", "fsvp", ("--size", str(size)), FSVP_SIZES.index(size),
                    FsvpNotation(size), options=(("size", size),), by_hash=True,
                    note="GamesmanOne's regular solver; about 50 us a position on one core"
                    if size >= 70 else "")
    if game in ("dshogi", "gobblet") and size is not None:
        raise Failure(f"{game} has one board; no --size")
    if game == "dshogi":
        return Case("dshogi", "dshogi", (), 0, DshogiNotation(),
                    "GamesmanOne's regular solver: 4.2 billion positions, 8 GiB of "
                    "memory and many hours on one core", corners=DSHOGI_CORNERS)
    if game == "gobblet":
        return Case("gobblet", "gobblet", (), 0, GobbletNotation(),
                    "GamesmanOne cannot solve it here: its first tier (864 million "
                    "positions) does not fit in this machine's memory",
                    peer_name="gobbletg", solvable=False, corners=GOBBLET_CORNERS)
    if game == "kaooa":
        if size is not None:
            raise Failure("kaooa has one board; no --size")
        return Case("kaooa", "kaooa", (), 0, KaooaNotation(), peer_name="mkaooa",
                    corners=KAOOA_CORNERS)
    if game == "allqueens":
        if size not in (None, 5):
            raise Failure("GamesmanOne's All Queens Chess is on the 5x5 board only (--size 5)")
        return Case("allqueens", "allqueens", (), 0, AllQueensNotation(),
                    "GamesmanOne's regular solver hashes 2 * 25!/(13! 6! 6!) = 9.6 billion "
                    "positions: more memory than this machine has",
                    peer_name="mallqueenschess", solvable=False, options=(("size", 5),),
                    corners=ALLQUEENS_CORNERS)
    if game == "neutron":
        if size not in (None, 5):
            raise Failure("GamesmanOne has Neutron on the 5x5 board only")
        return Case("neutron", "neutron", (), 0, NeutronNotation(),
                    "GamesmanOne's regular solver: 2.5e10 positions, beyond this machine",
                    solvable=False, corners=NEUTRON_CORNERS)
    if game == "winkers":
        if size is not None:
            raise Failure("winkers has one board in GamesmanOne; no --size")
        return Case("winkers", "winkers", (), 0, WinkersNotation(),
                    "GamesmanOne's tier solver: 2.56e11 positions in 915 tiers, days here; "
                    "compare its solved tiers with --solved-tiers", solvable=False,
                    corners=WINKERS_CORNERS)
    if game == "gates":
        if size is not None:
            raise Failure("gates has one board; no --size")
        return Case("gates", "gates", (), 0, GatesNotation(),
                    "GamesmanOne's tier solver: 1.98e12 positions in 75,609 tiers, 1 to 27 "
                    "days by its own estimate", solvable=False,
                    options=(("gates", 2), ("triangles", 2), ("trapezoids", 2), ("points", 18)),
                    corners=GATES_CORNERS)
    raise Failure(f"unknown game {game!r}: {', '.join(PEER_GAMES[:-1])} or {PEER_GAMES[-1]}")


CASES = {
    "quixo3": lambda: make_case("quixo", 3),
    "quixo4": lambda: make_case("quixo", 4),
    "quixo5": lambda: make_case("quixo", 5),
    "teeko": lambda: make_case("teeko"),
    "teeko-advanced": lambda: make_case("teeko", advanced=True),
    "dshogi": lambda: make_case("dshogi"),
    "kaooa": lambda: make_case("kaooa"),
    **{f"fsvp{n}": (lambda n=n: make_case("fsvp", n)) for n in FSVP_SIZES},
    "ttt": lambda: make_case("ttt"),
    "ttt-tier": lambda: make_case("ttt", peer_game="mtttier"),
}


# -- GamesmanOne: the binary, its data directories, solving and querying -------------


def check_binary(path: str) -> Path:
    """The GamesmanOne binary, checked: it runs and says it is GamesmanOne."""
    binary = Path(path).expanduser()
    if not binary.exists():
        raise Failure(f"GamesmanOne binary {path} does not exist (build it as docs/PEER.md says)")
    if not binary.is_file() or not os.access(binary, os.X_OK):
        raise Failure(f"{path} is not an executable file")
    try:
        out = subprocess.run([str(binary.resolve()), "--version"], capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise Failure(f"{path} does not run: {exc}") from None
    if "GamesmanOne" not in out.stdout + out.stderr:
        said = ((out.stdout + out.stderr).strip().splitlines() or ["nothing"])[0]
        raise Failure(f"{path} is not GamesmanOne ('--version' says: {said[:80]!r})")
    return binary.resolve()


def data_location(data_dir: Path) -> tuple[Path, str]:
    """(working directory, relative --data-path) for a data directory: GamesmanOne
    cannot take an absolute data path, so it runs from the directory's parent."""
    data_dir = data_dir.expanduser().resolve()
    return data_dir.parent, data_dir.name


def peer_solve(binary: Path, data_dir: Path, case: Case, env: dict | None = None) -> str:
    """Solve (or find already solved) a case into data_dir; its output."""
    cwd, rel = data_location(data_dir)
    cwd.mkdir(parents=True, exist_ok=True)
    command = [str(binary), f"--data-path={rel}", "solve", case.peer_game, str(case.variant)]
    run = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env)
    if run.returncode != 0:
        tail = (run.stderr or run.stdout).strip().splitlines()[-1:] or ["no output"]
        raise Failure(f"GamesmanOne failed to solve {case.name} (exit {run.returncode}): "
                      f"{tail[0]}")
    return run.stdout


# The batch query helper: GamesmanOne's own query code (src/core/headless/hquery.c,
# compiled in) answering one position per line of stdin, so that thousands of
# positions do not each pay the ~0.2 s GamesmanOne spends building its hash tables.
BATCH_QUERY_C = r"""
/* gamesman_batchquery, written by tiersolve's scripts/peer_gamesmanone.py:
 * GamesmanOne's `query` for many positions in one process. Reads one formal
 * position per line on stdin and prints query's JSON object on one line (or
 * { "error": CODE, "position": "..." } where query fails).
 *
 * GamesmanOne's src/core/headless/hquery.c is compiled in, so the legality
 * test, the moves and the JSON come from the code `query` runs, with these
 * changes:
 * - values and remoteness are read without query's fresh database probe per
 *   call, which decompresses a 1 MiB xz block for every value and every
 *   remoteness (about 0.5 s per Quixo 4x4 position). Tier games: from whole
 *   tiers loaded into memory once (DbManagerLoadTier, as the solver loads
 *   child tiers). Regular games (one tier of every position): through one
 *   probe kept open, or with MODE "load" from the whole tier in memory. The
 *   position is canonicalized first, as the solvers do.
 *   MODE "probe": query's own SolverManagerGetValue; MODE "rules": no values
 *   at all (every value "unsolved", as query prints without a database).
 * - the printing is repeated here: hquery.c's JsonPrint*PositionResponse
 *   release the partMoves array twice (harmless in a process that exits
 *   right after, heap corruption on a second query).
 * - two keys query does not print are added to the position's object:
 *   "primitive", the game's Primitive verdict of the position ("undecided",
 *   "win", "lose", "tie"), and "legal", the solver's IsLegalPosition.
 * Usage: gamesman_batchquery DATA_PATH GAME VARIANT [probe|load|rules]
 * (DATA_PATH relative to the working directory, as gamesman --data-path). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"
#include "core/db/db_manager.h"
#include "core/game_manager.h"
#include "core/solvers/regular_solver/regular_solver.h"
#include "core/solvers/solver_manager.h"
#include "core/solvers/tier_solver/tier_solver.h"

enum { kModeDefault, kModeProbe, kModeLoad, kModeRules };
static int mode = kModeDefault;
static bool regular = false;
static bool regular_loaded = false;
static DbProbe open_probe;
static bool open_probe_init = false;
enum { kLoadedMax = 200 };
static Tier loaded[kLoadedMax];
static int num_loaded = 0, next_evict = 0;

static TierPosition Canonical(TierPosition tp) {
    const void *solver_api = GameManagerGetCurrentGame()->solver_api;
    TierPosition c = tp;
    if (regular) {
        const RegularSolverApi *api = (const RegularSolverApi *)solver_api;
        if (api->GetCanonicalPosition != NULL) {
            c.position = api->GetCanonicalPosition(tp.position);
        }
        return c;
    }
    const TierSolverApi *api = (const TierSolverApi *)solver_api;
    if (api->GetCanonicalTier != NULL) {
        c.tier = api->GetCanonicalTier(tp.tier);
        if (c.tier != tp.tier) c.position = api->GetPositionInSymmetricTier(tp, c.tier);
    }
    if (api->GetCanonicalPosition != NULL) c.position = api->GetCanonicalPosition(c);
    return c;
}

static bool EnsureLoaded(Tier tier) {
    if (DbManagerIsTierLoaded(tier)) return true;
    const TierSolverApi *api =
        (const TierSolverApi *)GameManagerGetCurrentGame()->solver_api;
    if (num_loaded == kLoadedMax) {  /* evict the oldest */
        DbManagerUnloadTier(loaded[next_evict]);
        loaded[next_evict] = tier;
        next_evict = (next_evict + 1) % kLoadedMax;
    } else {
        loaded[num_loaded++] = tier;
    }
    return DbManagerLoadTier(tier, api->GetTierSize(tier)) == 0;
}

static bool RegularUsesLoaded(void) {
    if (mode != kModeLoad) return false;
    if (!regular_loaded) {
        const RegularSolverApi *api =
            (const RegularSolverApi *)GameManagerGetCurrentGame()->solver_api;
        regular_loaded = DbManagerLoadTier(kDefaultTier, api->GetNumPositions()) == 0;
        if (!regular_loaded) {
            fprintf(stderr, "gamesman_batchquery: cannot load the database\n");
            exit(3);
        }
    }
    return true;
}

static DbProbe *OpenProbe(void) {
    if (!open_probe_init) {
        if (DbManagerProbeInit(&open_probe) != 0) {
            fprintf(stderr, "gamesman_batchquery: cannot open a probe\n");
            exit(3);
        }
        open_probe_init = true;
    }
    return &open_probe;
}

static Value BatchGetValue(TierPosition tp) {
    if (mode == kModeRules) return kErrorValue;
    if (mode == kModeProbe) return SolverManagerGetValue(tp);
    TierPosition c = Canonical(tp);
    if (regular) {
        if (RegularUsesLoaded()) return DbManagerGetValueFromLoaded(c.tier, c.position);
        return DbManagerProbeValue(OpenProbe(), c);
    }
    if (!EnsureLoaded(c.tier)) return kErrorValue;
    return DbManagerGetValueFromLoaded(c.tier, c.position);
}

static int BatchGetRemoteness(TierPosition tp) {
    if (mode == kModeRules) return kErrorRemoteness;
    if (mode == kModeProbe) return SolverManagerGetRemoteness(tp);
    TierPosition c = Canonical(tp);
    if (regular) {
        if (RegularUsesLoaded()) return DbManagerGetRemotenessFromLoaded(c.tier, c.position);
        return DbManagerProbeRemoteness(OpenProbe(), c);
    }
    if (!EnsureLoaded(c.tier)) return kErrorRemoteness;
    return DbManagerGetRemotenessFromLoaded(c.tier, c.position);
}

#define SolverManagerGetValue BatchGetValue
#define SolverManagerGetRemoteness BatchGetRemoteness
#include "core/headless/hquery.c"
#undef SolverManagerGetValue
#undef SolverManagerGetRemoteness

static const char *PrimitiveName(Value v) {
    return v < 0 ? "error" : kValueStrings[v];
}

/* The moves and part-moves arrays are filled by the caller; prints the parent
 * object, releasing everything once. */
static int PrintParent(json_object *parent, json_object **moves_obj,
                       json_object **partmoves_obj, Value primitive, bool legal) {
    if (parent == NULL) return kMallocFailureError;
    json_object_object_add(parent, "primitive",
                           json_object_new_string(PrimitiveName(primitive)));
    json_object_object_add(parent, "legal", json_object_new_boolean(legal));
    printf("%s\n", json_object_to_json_string(parent));
    json_object_put(parent); /* releases both arrays too */
    *moves_obj = *partmoves_obj = NULL;
    return 0;
}

static int PrintTierPosition(const Game *game, TierPosition tier_position) {
    const TierSolverApi *api = (const TierSolverApi *)game->solver_api;
    MoveArray moves = GetMovesFromTierPosition(game, tier_position);
    PartmoveArray partmoves = GetPartmovesFromTierPosition(game, tier_position);
    int ret = 0;
    json_object *moves_obj = json_object_new_array_ext((int)moves.size);
    json_object *partmoves_obj = json_object_new_array_ext((int)partmoves.size);
    for (int64_t i = 0; i < moves.size; ++i) {
        json_object *child =
            JsonCreateChildTierPositionObject(game, tier_position, moves.array[i]);
        if (child == NULL) { ret = kMallocFailureError; break; }
        json_object_array_add(moves_obj, child);
    }
    for (int64_t i = 0; ret == 0 && i < partmoves.size; ++i) {
        json_object *edge = JsonCreatePartmoveEdgeObject(&partmoves.array[i]);
        if (edge == NULL) { ret = kMallocFailureError; break; }
        json_object_array_add(partmoves_obj, edge);
    }
    if (ret == 0) {
        bool legal = api->IsLegalPosition == NULL || api->IsLegalPosition(tier_position);
        ret = PrintParent(JsonCreateParentTierPositionObject(game, tier_position, moves_obj,
                                                             partmoves_obj),
                          &moves_obj, &partmoves_obj,
                          game->uwapi->tier->Primitive(tier_position), legal);
    }
    json_object_put(moves_obj);
    json_object_put(partmoves_obj);
    MoveArrayDestroy(&moves);
    PartmoveArrayDestroy(&partmoves);
    return ret;
}

static int PrintRegularPosition(const Game *game, Position position) {
    const RegularSolverApi *api = (const RegularSolverApi *)game->solver_api;
    MoveArray moves = GetMovesFromPosition(game, position);
    PartmoveArray partmoves = GetPartmovesFromPosition(game, position);
    int ret = 0;
    json_object *moves_obj = json_object_new_array_ext((int)moves.size);
    json_object *partmoves_obj = json_object_new_array_ext((int)partmoves.size);
    for (int64_t i = 0; i < moves.size; ++i) {
        json_object *child = JsonCreateChildPositionObject(game, position, moves.array[i]);
        if (child == NULL) { ret = kMallocFailureError; break; }
        json_object_array_add(moves_obj, child);
    }
    for (int64_t i = 0; ret == 0 && i < partmoves.size; ++i) {
        json_object *edge = JsonCreatePartmoveEdgeObject(&partmoves.array[i]);
        if (edge == NULL) { ret = kMallocFailureError; break; }
        json_object_array_add(partmoves_obj, edge);
    }
    if (ret == 0) {
        bool legal = api->IsLegalPosition == NULL || api->IsLegalPosition(position);
        ret = PrintParent(JsonCreateParentPositionObject(game, position, moves_obj,
                                                         partmoves_obj),
                          &moves_obj, &partmoves_obj,
                          game->uwapi->regular->Primitive(position), legal);
    }
    json_object_put(moves_obj);
    json_object_put(partmoves_obj);
    MoveArrayDestroy(&moves);
    PartmoveArrayDestroy(&partmoves);
    return ret;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[4], "probe") == 0) {
        mode = kModeProbe;
    } else if (argc == 5 && strcmp(argv[4], "load") == 0) {
        mode = kModeLoad;
    } else if (argc == 5 && strcmp(argv[4], "rules") == 0) {
        mode = kModeRules;
    } else if (argc != 4) {
        fprintf(stderr, "usage: %s DATA_PATH GAME VARIANT [probe|load|rules]\n", argv[0]);
        return 2;
    }
    bool is_tier_game;
    int error = InitAndCheckGame(argv[2], atoi(argv[3]), argv[1], &is_tier_game);
    if (error != 0) return error;
    const Game *game = GameManagerGetCurrentGame();
    regular = !is_tier_game;
    char line[4096];
    while (fgets(line, sizeof(line), stdin) != NULL) {
        size_t n = strlen(line);
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
        if (n == 0) continue;
        int ret;
        if (regular) {
            if (!game->uwapi->regular->IsLegalFormalPosition(line)) {
                ret = kIllegalGamePositionError;
            } else {
                ret = PrintRegularPosition(
                    game, game->uwapi->regular->FormalPositionToPosition(line));
            }
        } else if (!game->uwapi->tier->IsLegalFormalPosition(line)) {
            ret = kIllegalGamePositionError;
        } else {
            TierPosition tp = game->uwapi->tier->FormalPositionToTierPosition(line);
            ret = PrintTierPosition(game, tp);
        }
        if (ret != 0) printf("{ \"error\": %d, \"position\": \"%s\" }\n", ret, line);
        fflush(stdout);
    }
    if (open_probe_init) DbManagerProbeDestroy(&open_probe);
    return 0;
}
"""


#: A value's name as the helpers print it, shared by the rules and Gates helpers.
C_VALUE_NAME = r"""static const char *ValueName(Value value) {
    switch (value) {
        case kUndecided: return "undecided";
        case kLose: return "lose";
        case kDraw: return "draw";
        case kTie: return "tie";
        case kWin: return "win";
        default: return "error";
    }
}
"""


# The rules helper, for regular games without formal positions (no UWAPI), which
# GamesmanOne's query cannot read: All Queens Chess (mallqueenschess). It calls the
# game's solver API and generic hash directly.
RULES_QUERY_C = r"""
/* gamesman_rulesquery, written by tiersolve's scripts/peer_gamesmanone.py: the
 * rules of a GamesmanOne regular game that has no UWAPI (so no formal positions,
 * and `query` cannot read it: mallqueenschess), from the game's own solver API
 * and its generic hash. Reads one position a line, "T_CELLS" (T the generic hash's
 * turn, 1 or 2; CELLS the hash's board characters), and prints one JSON object a
 * line: "primitive" (the solver API's Primitive), "legal" (IsLegalPosition),
 * "canonical" (GetCanonicalPosition, as T_CELLS), and "moves": each move's
 * MoveToString and the position DoMove gives, for a position whose Primitive is
 * undecided (none for a primitive one, as GamesmanOne's query lists none).
 * Usage: gamesman_rulesquery DATA_PATH GAME VARIANT [MODE] (DATA_PATH and MODE are
 * ignored: the same command line as gamesman_batchquery). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_manager.h"
#include "core/hash/generic.h"
#include "core/solvers/regular_solver/regular_solver.h"
#include "core/types/gamesman_types.h"

""" + C_VALUE_NAME + r"""
static void Format(Position position, int cells, char *out) {
    char board[4096];
    GenericHashUnhash(position, board);
    out[0] = (char)('0' + GenericHashGetTurn(position));
    out[1] = '_';
    memcpy(out + 2, board, (size_t)cells);
    out[2 + cells] = '\0';
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: %s DATA_PATH GAME VARIANT [MODE]\n", argv[0]);
        return 2;
    }
    const Game *game = GameManagerInitGame(argv[2], NULL);
    if (game == NULL) return 3;
    if (atoi(argv[3]) != 0 && GameManagerSetVariant(atoi(argv[3])) != 0) return 4;
    const RegularSolverApi *api = (const RegularSolverApi *)game->solver_api;
    static Move moves[kRegularSolverNumMovesMax];
    char line[4096], text[4096], move_text[256];
    while (fgets(line, sizeof(line), stdin) != NULL) {
        size_t n = strlen(line);
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
        if (n == 0) continue;
        int cells = (int)n - 2;
        if (n < 3 || (line[0] != '1' && line[0] != '2') || line[1] != '_') {
            printf("{ \"error\": 11, \"position\": \"%s\" }\n", line);
            fflush(stdout);
            continue;
        }
        Position position = GenericHashHash(line + 2, line[0] - '0');
        if (position < 0) {
            printf("{ \"error\": 11, \"position\": \"%s\" }\n", line);
            fflush(stdout);
            continue;
        }
        Value value = api->Primitive(position);
        bool legal = api->IsLegalPosition == NULL || api->IsLegalPosition(position);
        Format(api->GetCanonicalPosition == NULL ? position
                                                 : api->GetCanonicalPosition(position),
               cells, text);
        printf("{ \"position\": \"%s\", \"primitive\": \"%s\", \"legal\": %s, "
               "\"canonical\": \"%s\", \"moves\": [",
               line, ValueName(value), legal ? "true" : "false", text);
        int count = value == kUndecided ? api->GenerateMoves(position, moves) : 0;
        for (int i = 0; i < count; ++i) {
            game->gameplay_api->common->MoveToString(moves[i], move_text);
            Format(api->DoMove(position, moves[i]), cells, text);
            printf("%s{ \"move\": \"%s\", \"position\": \"%s\" }", i ? ", " : "",
                   move_text, text);
        }
        printf("] }\n");
        fflush(stdout);
    }
    return 0;
}
"""


# The Gates helper, for GamesmanOne's gates, a tier game without formal positions:
# it builds the tier and hash from the points, as gates.c does (its comment below).
GATES_QUERY_C = r"""
/* gamesman_gatesquery, written by tiersolve's scripts/peer_gamesmanone.py: the
 * rules of GamesmanOne's gates (a tier game with no UWAPI, so no formal positions:
 * `query` cannot read it), from its tier solver API, its tier hash and its generic
 * hash. Reads one position a line, "T_X_CELLS": T the player to move (1 white, 2
 * black), X "p" while pieces are placed and "m" after, CELLS the 18 points (G g A a
 * Z z -, and O or o for the gate just scored through: the gate-moving phases). It
 * builds the tier (counts, phase, white gates' points) and the position hash as
 * gates.c does, and prints one JSON object a line: "primitive" (the solver API's
 * Primitive), "tier" and "hash", and "moves": each move's MoveToString and the
 * position DoMove gives, in the same form (none for a primitive position).
 * With MODE "values", the game's database under DATA_PATH is opened as the solver
 * does, and the position and every child also get "value" and "remoteness" from
 * their tiers loaded whole ("unsolved" for a tier not solved yet).
 * Usage: gamesman_gatesquery DATA_PATH GAME VARIANT [MODE]. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/db/db_manager.h"
#include "core/game_manager.h"
#include "core/headless/hutils.h"
#include "core/hash/generic.h"
#include "core/solvers/tier_solver/tier_solver.h"
#include "core/types/gamesman_types.h"
#include "games/gates/gates_tier.h"

""" + C_VALUE_NAME + r"""
static const char kLetters[] = "GgAaZz";
static bool with_values = false;
enum { kLoadedMax = 64 };
static Tier loaded[kLoadedMax];
static int num_loaded = 0, next_evict = 0;

/* Prints ', "value": ..., "remoteness": ...' for tp from its tier loaded whole. */
static void PrintValue(const TierSolverApi *api, TierPosition tp) {
    if (!with_values) return;
    if (DbManagerTierStatus(tp.tier) != kDbTierStatusSolved) {
        printf(", \"value\": \"unsolved\"");
        return;
    }
    if (!DbManagerIsTierLoaded(tp.tier)) {
        if (num_loaded == kLoadedMax) {
            DbManagerUnloadTier(loaded[next_evict]);
            loaded[next_evict] = tp.tier;
            next_evict = (next_evict + 1) % kLoadedMax;
        } else {
            loaded[num_loaded++] = tp.tier;
        }
        if (DbManagerLoadTier(tp.tier, api->GetTierSize(tp.tier)) != 0) {
            printf(", \"value\": \"error\"");
            return;
        }
    }
    printf(", \"value\": \"%s\", \"remoteness\": %d",
           ValueName(DbManagerGetValueFromLoaded(tp.tier, tp.position)),
           DbManagerGetRemotenessFromLoaded(tp.tier, tp.position));
}

/* "T_X_CELLS" -> tier position; false if malformed. */
static bool Parse(const char *line, TierPosition *out) {
    if (strlen(line) != 22 || (line[0] != '1' && line[0] != '2') || line[1] != '_' ||
        (line[2] != 'p' && line[2] != 'm') || line[3] != '_') return false;
    const char *cells = line + 4;
    GatesTier t;
    memset(&t, 0, sizeof(t));
    char board[kBoardSize], cleaned[kBoardSize];
    int open_at = -1;
    for (int i = 0; i < kBoardSize; ++i) {
        char c = cells[i];
        if (c == 'O' || c == 'o') {
            open_at = i;
            c = (char)(c == 'O' ? 'G' : 'g');
        }
        board[i] = c;
        const char *k = strchr(kLetters, c);
        if (c != '-' && (k == NULL || c == '\0')) return false;
        if (c != '-') ++t.n[k - kLetters];
    }
    t.phase = line[2] == 'p' ? kPlacement : kMovement;
    if (open_at >= 0) {
        int before = 0;
        for (int i = 0; i < open_at; ++i) before += board[i] == board[open_at];
        t.phase = (GatesTierField)(kGate1Moving + before);
    }
    int found = 0, n = 0;
    for (int i = 0; i < kBoardSize; ++i) {
        if (board[i] == 'G') {
            if (found == 0) t.G1 = (GatesTierField)i; else t.G2 = (GatesTierField)i;
            ++found;
        } else {
            cleaned[n++] = board[i];
        }
    }
    for (int i = n; i < kBoardSize; ++i) cleaned[i] = '-';
    out->tier = GatesTierHash(&t);
    out->position = GenericHashHashLabel(out->tier, cleaned, line[0] - '0');
    return out->position >= 0;
}

static void Format(TierPosition tp, char *out) {
    GatesTier t;
    GatesTierUnhash(tp.tier, &t);
    char board[kBoardSize], full[kBoardSize];
    GenericHashUnhashLabel(tp.tier, tp.position, board);
    int gates[2] = {t.G1, t.G2}, used = 0, at = 0;
    for (int i = 0; i < kBoardSize; ++i) {
        if (used < t.n[G] && gates[used] == i) {
            full[i] = 'G';
            ++used;
        } else {
            full[i] = board[at++];
        }
    }
    int turn = GenericHashGetTurnLabel(tp.tier, tp.position);
    if (t.phase == kGate1Moving || t.phase == kGate2Moving) {
        char gate = turn == 1 ? 'g' : 'G';  /* the scorer's: the other side's */
        int which = t.phase - kGate1Moving, seen = 0;
        for (int i = 0; i < kBoardSize; ++i) {
            if (full[i] == gate) {
                if (seen == which) full[i] = (char)(gate == 'G' ? 'O' : 'o');
                ++seen;
            }
        }
    }
    out[0] = (char)('0' + turn);
    out[1] = '_';
    out[2] = t.phase == kPlacement ? 'p' : 'm';
    out[3] = '_';
    memcpy(out + 4, full, kBoardSize);
    out[4 + kBoardSize] = '\0';
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: %s DATA_PATH GAME VARIANT [MODE]\n", argv[0]);
        return 2;
    }
    with_values = argc == 5 && strcmp(argv[4], "values") == 0;
    const Game *game;
    if (with_values) {
        if (HeadlessInitSolver(argv[2], atoi(argv[3]), argv[1]) != 0) return 3;
        game = GameManagerGetCurrentGame();
    } else {
        game = GameManagerInitGame(argv[2], NULL);
    }
    if (game == NULL) return 3;
    const TierSolverApi *api = (const TierSolverApi *)game->solver_api;
    static Move moves[kTierSolverNumMovesMax];
    char line[4096], text[64], move_text[256];
    while (fgets(line, sizeof(line), stdin) != NULL) {
        size_t n = strlen(line);
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
        if (n == 0) continue;
        TierPosition tp;
        if (!Parse(line, &tp)) {
            printf("{ \"error\": 11, \"position\": \"%s\" }\n", line);
            fflush(stdout);
            continue;
        }
        Value value = api->Primitive(tp);
        Format(tp, text);
        printf("{ \"position\": \"%s\", \"primitive\": \"%s\", \"tier\": %lld, "
               "\"hash\": %lld", text, ValueName(value), (long long)tp.tier,
               (long long)tp.position);
        PrintValue(api, tp);
        printf(", \"moves\": [");
        int count = value == kUndecided ? api->GenerateMoves(tp, moves) : 0;
        for (int i = 0; i < count; ++i) {
            memset(move_text, 0, sizeof(move_text));
            game->gameplay_api->common->MoveToString(moves[i], move_text);
            TierPosition child = api->DoMove(tp, moves[i]);
            Format(child, text);
            printf("%s{ \"move\": \"%s\", \"position\": \"%s\"", i ? ", " : "",
                   move_text, text);
            PrintValue(api, child);
            printf(" }");
        }
        printf("] }\n");
        fflush(stdout);
    }
    return 0;
}
"""


# The hash helper, for a regular game without formal positions (GamesmanOne's fsvp has
# no UWAPI, so neither `query` nor the batch helper can take its positions): asked by
# position hash, it answers from the game's own solver and gameplay functions and its
# database, loaded whole.
HASH_QUERY_C = r"""
/* gamesman_hashquery, written by tiersolve's scripts/peer_gamesmanone.py: the
 * answers of a solved regular GamesmanOne game that has no UWAPI (fsvp), asked
 * by position hash (0 .. GetNumPositions - 1), with the database loaded whole.
 * Usage: gamesman_hashquery DATA_PATH GAME VARIANT; then on stdin, per line:
 * - a hash H: one line of JSON, with query's keys: "position" (the game's
 *   PositionToString), "positionValue", "remoteness", "primitive" (Primitive's
 *   verdict), "hash", and "moves", each {"move" (MoveToString), "position",
 *   "hash", "positionValue", "remoteness"} of the child (values for the player
 *   to move there), in GenerateMoves's order;
 * - "digest FILE": writes FILE, one 16-byte record per position in hash order:
 *   the value (int8, GamesmanOne's code), a zero byte, the remoteness (int16),
 *   the number of moves (int32) and the sum of mix(child hash) over the moves
 *   (uint64, mix = splitmix64's finalizer), then prints {"digest": N}. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/constants.h"
#include "core/db/db_manager.h"
#include "core/game_manager.h"
#include "core/headless/hutils.h"
#include "core/solvers/regular_solver/regular_solver.h"

static const RegularSolverApi *api;
static const Game *game;

static uint64_t Mix(uint64_t z) {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static const char *ValueName(Value v) { return v < 0 ? "unsolved" : kValueStrings[v]; }

static void PrintOne(Position p) {
    char text[4096], move_text[64];
    Move moves[kRegularSolverNumMovesMax];
    game->gameplay_api->regular->PositionToString(p, text);
    printf("{\"hash\": %lld, \"position\": \"%s\", \"positionValue\": \"%s\", "
           "\"remoteness\": %d, \"primitive\": \"%s\", \"moves\": [", (long long)p, text,
           ValueName(DbManagerGetValueFromLoaded(kDefaultTier, p)),
           DbManagerGetRemotenessFromLoaded(kDefaultTier, p),
           ValueName(api->Primitive(p)));
    int count = api->Primitive(p) == kUndecided ? api->GenerateMoves(p, moves) : 0;
    for (int i = 0; i < count; ++i) {
        Position c = api->DoMove(p, moves[i]);
        game->gameplay_api->common->MoveToString(moves[i], move_text);
        game->gameplay_api->regular->PositionToString(c, text);
        printf("%s{\"move\": \"%s\", \"hash\": %lld, \"position\": \"%s\", "
               "\"positionValue\": \"%s\", \"remoteness\": %d}", i ? ", " : "", move_text,
               (long long)c, text, ValueName(DbManagerGetValueFromLoaded(kDefaultTier, c)),
               DbManagerGetRemotenessFromLoaded(kDefaultTier, c));
    }
    printf("]}\n");
}

static int Digest(const char *path) {
    FILE *out = fopen(path, "wb");
    if (out == NULL) return 1;
    Move moves[kRegularSolverNumMovesMax];
    int64_t n = api->GetNumPositions();
    for (Position p = 0; p < n; ++p) {
        unsigned char record[16] = {0};
        int8_t value = (int8_t)DbManagerGetValueFromLoaded(kDefaultTier, p);
        int16_t remoteness = (int16_t)DbManagerGetRemotenessFromLoaded(kDefaultTier, p);
        int32_t count = api->Primitive(p) == kUndecided ? api->GenerateMoves(p, moves) : 0;
        uint64_t sum = 0;
        for (int i = 0; i < count; ++i) sum += Mix((uint64_t)api->DoMove(p, moves[i]));
        memcpy(record, &value, 1);
        memcpy(record + 2, &remoteness, 2);
        memcpy(record + 4, &count, 4);
        memcpy(record + 8, &sum, 8);
        fwrite(record, 1, 16, out);
    }
    fclose(out);
    printf("{\"digest\": %lld}\n", (long long)n);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s DATA_PATH GAME VARIANT\n", argv[0]);
        return 2;
    }
    /* What the game prints as it starts (fsvp: "setting size to N") goes to stderr. */
    fflush(stdout);
    int saved_stdout = dup(STDOUT_FILENO);
    dup2(STDERR_FILENO, STDOUT_FILENO);
    int error = HeadlessInitSolver(argv[2], atoi(argv[3]), argv[1]);
    fflush(stdout);
    dup2(saved_stdout, STDOUT_FILENO);
    close(saved_stdout);
    if (error != 0) return error;
    game = GameManagerGetCurrentGame();
    api = (const RegularSolverApi *)game->solver_api;
    if (DbManagerLoadTier(kDefaultTier, api->GetNumPositions()) != 0) {
        fprintf(stderr, "gamesman_hashquery: cannot load the database\n");
        return 3;
    }
    char line[4096];
    while (fgets(line, sizeof(line), stdin) != NULL) {
        size_t n = strlen(line);
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
        if (n == 0) continue;
        if (strncmp(line, "digest ", 7) == 0) {
            if (Digest(line + 7) != 0) printf("{\"error\": 1}\n");
        } else {
            long long p = atoll(line);
            if (p < 0 || p >= api->GetNumPositions()) {
                printf("{\"error\": %d, \"position\": \"%s\"}\n", 11, line);
            } else {
                PrintOne((Position)p);
            }
        }
        fflush(stdout);
    }
    return 0;
}
"""


def hash_helper(binary: Path, quiet: bool = False) -> Path | None:
    """The hash helper next to the binary (``HASH_QUERY_C``), compiled as the batch
    query helper is; None if it cannot be made."""
    return batch_helper(binary, quiet, "gamesman_hashquery", HASH_QUERY_C, with_query=False)


def batch_helper(binary: Path, quiet: bool = False, name: str = "gamesman_batchquery",
                 source_text: str = BATCH_QUERY_C, with_query: bool = True) -> Path | None:
    """The batch query helper next to the binary, compiled from the binary's CMake
    build tree (<root>/bin/gamesman, <root>/build/src) if missing or older than the
    binary; None (with a note) if it cannot be made."""
    helper = binary.parent / name
    stamp = binary.parent / f"{name}.c"  # the source it was built from
    if (helper.exists() and helper.stat().st_mtime >= binary.stat().st_mtime
            and stamp.is_file() and stamp.read_text() == source_text):
        return helper
    target = binary.parent.parent / "build" / "src" / "CMakeFiles" / "gamesman.dir"
    flags_file, link_file = target / "flags.make", target / "link.txt"
    if not (flags_file.is_file() and link_file.is_file()):
        if not quiet:
            print(f"note: no CMake build tree at {target.parent.parent}, so no batch query "
                  "helper: one GamesmanOne process per position (slow)", file=sys.stderr)
        return None
    flags = {}
    for line in flags_file.read_text().splitlines():
        key, sep, value = line.partition(" = ")
        if sep:
            flags[key.strip()] = value.strip()
    link = shlex.split(link_file.read_text())
    main_obj = "CMakeFiles/gamesman.dir/main.c.o"
    if main_obj not in link or "-o" not in link:
        if not quiet:
            print(f"note: {link_file} is not as expected; no batch query helper", file=sys.stderr)
        return None
    if not quiet:
        print(f"compiling GamesmanOne's query code into {helper} (once)...", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        source, obj = Path(tmp) / "batchquery.c", Path(tmp) / "batchquery.o"
        source.write_text(source_text)
        compile_cmd = [link[0], *shlex.split(flags.get("C_FLAGS", "")),
                       *shlex.split(flags.get("C_DEFINES", "")),
                       *shlex.split(flags.get("C_INCLUDES", "")), "-c", str(source), "-o", str(obj)]
        link_cmd = [str(obj) if t == main_obj else t for t in link  # (hquery.c compiled in)
                    if not (with_query and t.endswith("core/headless/hquery.c.o"))]
        link_cmd[link_cmd.index("-o") + 1] = str(helper)
        for command in (compile_cmd, link_cmd):
            run = subprocess.run(command, cwd=target.parent.parent, capture_output=True, text=True)
            if run.returncode != 0:
                if not quiet:
                    first = (run.stderr.strip().splitlines() or ["?"])[0]
                    print(f"note: could not build the batch query helper ({first}); "
                          "one GamesmanOne process per position (slow)", file=sys.stderr)
                return None
    stamp.write_text(source_text)
    return helper


#: The batch helper for a regular game whose UWAPI lacks Primitive (GamesmanOne
#: v1.3.0's mttt: 'gamesman query mttt' says "missing UWAPI function definition"):
#: the same program, with the game's UWAPI copied and its Primitive taken from the
#: game's solver API (the same function type). Built under its own name so that the
#: plain helper, shared with other comparisons, is left as it is.
PRIMITIVE_FIX_C = BATCH_QUERY_C.replace(
    """    bool is_tier_game;
    int error = InitAndCheckGame(argv[2], atoi(argv[3]), argv[1], &is_tier_game);
    if (error != 0) return error;
    const Game *game = GameManagerGetCurrentGame();
""", """    bool is_tier_game = false;
    int error = HeadlessInitSolver(argv[2], atoi(argv[3]), argv[1]);
    if (error != 0) return error;
    /* this helper: the game's UWAPI with Primitive from its solver API */
    static Game fixed_game;
    static Uwapi fixed_uwapi;
    static UwapiRegular fixed_regular;
    const Game *game = GameManagerGetCurrentGame();
    if (game->uwapi == NULL || game->uwapi->regular == NULL) return 2;
    fixed_game = *game;
    fixed_uwapi = *game->uwapi;
    fixed_regular = *game->uwapi->regular;
    if (fixed_regular.Primitive == NULL)
        fixed_regular.Primitive = ((const RegularSolverApi *)game->solver_api)->Primitive;
    fixed_uwapi.regular = &fixed_regular;
    fixed_game.uwapi = &fixed_uwapi;
    game = &fixed_game;
""")
assert PRIMITIVE_FIX_C != BATCH_QUERY_C


def peer_helper(binary: Path, case: Case) -> Path | None:
    """The batch query helper for a case: the plain one, or for a game 'gamesman
    query' cannot read (mttt) the one that fills in its UWAPI's Primitive."""
    if case.query_cli:
        return batch_helper(binary)
    return batch_helper(binary, name="gamesman_batchquery_primfix", source_text=PRIMITIVE_FIX_C)


class PeerQuery:
    """Answers of GamesmanOne's ``query`` for formal positions: through the batch
    helper (one process), or one ``gamesman query`` process per position, two at a
    time. Each answer is the JSON object, or {"error": code, ...}."""

    def __init__(self, binary: Path, data_dir: Path, case: Case, helper: Path | None,
                 mode: str | None = None) -> None:
        self.binary, self.case, self.helper = binary, case, helper
        self.mode = mode  # the helper's MODE: None, "probe", "load" or "rules"
        self.cwd, self.rel = data_location(data_dir)

    def query_many(self, positions: list[str]) -> list[dict]:
        if not positions:
            return []
        if self.helper is not None:
            return self._batch(positions)
        with ThreadPoolExecutor(2) as pool:
            return list(pool.map(self._one, positions))

    def _one(self, position: str) -> dict:
        # A position that starts with "-" (Tic-Tac-Toe's "-ooxx-xxo") would be read as
        # an option: "--" ends the options first.
        command = [str(self.binary), f"--data-path={self.rel}", "query", self.case.peer_game,
                   str(self.case.variant), *(["--"] if position.startswith("-") else []),
                   position]
        run = subprocess.run(command, cwd=self.cwd, capture_output=True, text=True,
                             errors="replace")
        if run.returncode != 0 or not run.stdout.strip():
            return {"error": run.returncode, "position": position, "stderr": run.stderr[-300:]}
        return self.case.notation.clean_peer_answer(json.loads(run.stdout))

    def _batch(self, positions: list[str]) -> list[dict]:
        command = [str(self.helper), self.rel, self.case.peer_game, str(self.case.variant),
                   *([self.mode] if self.mode else [])]
        proc = subprocess.Popen(command, cwd=self.cwd, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                errors="replace", bufsize=1 << 16)

        def feed() -> None:
            try:
                for position in positions:
                    proc.stdin.write(position + "\n")
                proc.stdin.close()
            except BrokenPipeError:
                pass

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        answers = []
        for line in proc.stdout:
            answers.append(self.case.notation.clean_peer_answer(json.loads(line)))
        writer.join()
        code = proc.wait()
        if len(answers) != len(positions):
            raise Failure(f"GamesmanOne's batch query helper stopped after {len(answers)} of "
                          f"{len(positions)} positions (exit {code})")
        return answers


# -- running a build under measurement ----------------------------------------------


@dataclass
class Run:
    case: str
    system: str          # "tiersolve" or "GamesmanOne"
    setting: str
    round: int
    cpu_seconds: float
    wall_seconds: float
    peak_bytes: int
    file_bytes: int
    positions: int
    extra: dict = field(default_factory=dict)


def measured(command: list[str], cwd: Path, env: dict, log: Path) -> tuple[int, float, float, int]:
    """Run a command with stdout+stderr to ``log``; (exit code, CPU s, wall s, peak
    RSS bytes) from wait4's rusage of that child (and what it waited for)."""
    with open(log, "w") as out:
        start = time.monotonic()
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return (proc.returncode, usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss * 1024)


def tree_bytes(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def tiersolve_command() -> list[str]:
    """This Python's tiersolve: the code beside the script when it is run from a
    checkout, whatever other ``tiersolve`` is first on PATH."""
    return [sys.executable, "-m", "tiersolve"]


def run_ours(case: Case, work: Path, round_no: int) -> Run:
    run_dir = Path(tempfile.mkdtemp(prefix=f"ours_{case.name}_", dir=work))
    out = run_dir / f"{case.name}.h5"
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMP_")}
    command = [*tiersolve_command(), "build", case.game, *case.ours, "--out", str(out),
               "--json", "--quiet"]
    log = work / f"{run_dir.name}.log"
    code, cpu, wall, peak = measured(command, run_dir, env, log)
    text = log.read_text()
    if code != 0:
        raise Failure(f"tiersolve build {case.game} {' '.join(case.ours)} failed (exit {code}); "
                      f"see {log}")
    report = json.loads(text[text.index("{"):text.rindex("}") + 1])
    files = tree_bytes(run_dir)
    shutil.rmtree(run_dir)
    log.unlink()
    extra = {k: report.get(k) for k in ("compile_seconds", "solve_seconds", "threads",
                                        "start_value", "start_remoteness", "counts")}
    return Run(case.name, "tiersolve", f"{report.get('threads', '?')} threads", round_no,
               cpu, wall, peak, files, int(report["positions"]), extra)


def run_peer(binary: Path, case: Case, work: Path, threads: int, round_no: int) -> Run:
    run_dir = Path(tempfile.mkdtemp(prefix=f"peer_{case.name}_", dir=work))
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(threads)
    if threads > 1:
        env["OMP_WAIT_POLICY"] = "passive"
    else:
        env.pop("OMP_WAIT_POLICY", None)
    command = [str(binary), "--data-path=data", "solve", case.peer_game, str(case.variant)]
    log = work / f"{run_dir.name}.log"
    code, cpu, wall, peak = measured(command, run_dir, env, log)
    text = log.read_text()
    if code != 0:
        raise Failure(f"GamesmanOne solve {case.peer_game} {case.variant} failed (exit {code}); "
                      f"see {log}")
    match = re.search(r"of total size (\d+) \(positions\)", text)
    positions = int(match.group(1)) if match else case.peer_positions()
    files = tree_bytes(run_dir)
    shutil.rmtree(run_dir)
    log.unlink()
    setting = f"OMP_NUM_THREADS={threads}" + (" passive" if threads > 1 else "")
    return Run(case.name, "GamesmanOne", setting, round_no, cpu, wall, peak, files, positions,
               {"positions_from": "its output" if match else "derived"})


# -- bench ---------------------------------------------------------------------------


def bench(args: argparse.Namespace) -> int:
    binary = check_binary(args.gamesman)
    names = [name.strip() for name in args.cases.split(",") if name.strip()]
    unknown = [name for name in names if name not in CASES]
    if unknown or not names:
        raise Failure(f"unknown case {unknown[0] if unknown else '(none)'}: choose from "
                      f"{', '.join(CASES)}")
    if args.rounds < 1:
        raise Failure("--rounds must be at least 1")
    try:
        settings = [int(word) for word in args.peer_threads.split(",")]
    except ValueError:
        settings = []
    if not settings or any(threads not in (1, 2) for threads in settings):
        raise Failure(f"--peer-threads takes 1, 2 or 1,2, not {args.peer_threads!r}")
    cases = [CASES[name]() for name in names]
    work = Path(args.work).expanduser().resolve()
    work.mkdir(parents=True, exist_ok=True)
    for case in cases:
        if case.note:
            print(f"note: {case.name}: {case.note}", file=sys.stderr)
    runs: list[Run] = []
    for round_no in range(1, args.rounds + 1):
        for case in cases:
            for threads in settings:  # GamesmanOne with each setting, each followed by ours
                for step in (f"peer{threads}", "ours"):
                    if not args.json:
                        print(f"round {round_no}: {case.name}: {step}...", file=sys.stderr,
                              flush=True)
                    if step == "ours":
                        runs.append(run_ours(case, work, round_no))
                    else:
                        runs.append(run_peer(binary, case, work, threads, round_no))
    rows = summarize(runs, cases)
    if args.json:
        print(json.dumps({"binary": str(binary), "rounds": args.rounds,
                          "summary": rows, "runs": [vars(r) for r in runs]}, indent=2))
    else:
        print_table(rows, args.rounds)
    return 0


#: A tiersolve build that spent longer than this compiling its kernels (a cold numba
#: cache: first build of a game, or its code just changed) is left out of the summary
#: when the same case has a warm build.
COLD_COMPILE_SECONDS = 5.0


def summarize(runs: list[Run], cases: list[Case]) -> list[dict]:
    """One row per case and system/setting: the minimum CPU and wall seconds over the
    runs (the least disturbed), the largest peak, and the ratios ours / best peer.
    tiersolve builds that compiled their kernels are left out when a warm one exists."""
    rows = []
    for case in cases:
        groups: dict[tuple[str, str], list[Run]] = {}
        for run in runs:
            if run.case == case.name:
                groups.setdefault((run.system, run.setting), []).append(run)
        case_rows = []
        for (system, setting), group in groups.items():
            warm = [r for r in group
                    if (r.extra.get("compile_seconds") or 0) <= COLD_COMPILE_SECONDS]
            cold = len(group) - len(warm) if warm else 0
            group = warm or group
            case_rows.append({
                "case": case.name, "system": system, "setting": setting, "runs": len(group),
                "cold_runs_left_out": cold,
                "positions": group[0].positions,
                "cpu_seconds": min(r.cpu_seconds for r in group),
                "cpu_seconds_median": statistics.median(r.cpu_seconds for r in group),
                "wall_seconds": min(r.wall_seconds for r in group),
                "peak_bytes": max(r.peak_bytes for r in group),
                "file_bytes": group[0].file_bytes,
                "file_bytes_per_position": group[0].file_bytes / max(1, group[0].positions),
            })
        peers = [r for r in case_rows if r["system"] == "GamesmanOne"]
        for row in case_rows:
            if row["system"] == "tiersolve" and peers:
                row["cpu_ratio"] = row["cpu_seconds"] / min(p["cpu_seconds"] for p in peers)
                row["peak_ratio"] = row["peak_bytes"] / min(p["peak_bytes"] for p in peers)
        rows.extend(case_rows)
    return rows


def print_table(rows: list[dict], rounds: int) -> None:
    header = ("case", "system / setting", "runs", "positions", "CPU s", "wall s", "peak MiB",
              "file bytes", "B/pos", "CPU ours/peer", "peak ours/peer")
    lines = [header]
    for row in rows:
        lines.append((
            row["case"], f"{row['system']} {row['setting']}", str(row["runs"]),
            f"{row['positions']:,}", f"{row['cpu_seconds']:.2f}", f"{row['wall_seconds']:.2f}",
            f"{row['peak_bytes'] / 2**20:.0f}", f"{row['file_bytes']:,}",
            f"{row['file_bytes_per_position']:.4f}",
            f"{row['cpu_ratio']:.2f}" if "cpu_ratio" in row else "",
            f"{row['peak_ratio']:.2f}" if "peak_ratio" in row else ""))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for k, line in enumerate(lines):
        print("  ".join(cell.ljust(w) if i < 2 else cell.rjust(w)
                        for i, (cell, w) in enumerate(zip(line, widths))))
        if k == 0:
            print("  ".join("-" * w for w in widths))
    cold = sum(row.get("cold_runs_left_out", 0) for row in rows)
    print(f"\nCPU and wall: the least of the runs ({rounds} per GamesmanOne setting, "
          f"{2 * rounds} for tiersolve); peak: the largest. Ratios: ours / the best "
          "GamesmanOne setting. Positions: what each system's index holds.")
    if cold:
        print(f"{cold} tiersolve build(s) that compiled their kernels (cold numba cache) "
              "are left out; --json lists every run.")


# -- agree ---------------------------------------------------------------------------

FLIP = {"win": "lose", "lose": "win", "tie": "tie", "draw": "draw"}


@dataclass
class Tally:
    positions: int = 0
    moves: int = 0
    refused: int = 0
    refused_example: str = ""
    draw_remoteness: set = field(default_factory=set)
    values: dict = field(default_factory=dict)  # our value of each position compared
    disagreements: list = field(default_factory=list)


def print_disagreements(tally: Tally) -> None:
    """Each disagreement: the position in both notations, then its problems."""
    for item in tally.disagreements:
        print(f"DISAGREE {item['position']}  (GamesmanOne {item['peer_position']})")
        for problem in item["problems"]:
            print(f"    {problem}")


def ours_database(args: argparse.Namespace, case: Case, work: Path) -> Path:
    path = Path(args.db).expanduser() if args.db else work / f"tiersolve_{case.name}.h5"
    if not path.exists():
        print(f"building our {case.name} database: {path}", file=sys.stderr, flush=True)
        command = [*tiersolve_command(), "build", case.game, *case.ours, "--out", str(path),
                   "--quiet"]
        if subprocess.run(command, stdout=sys.stderr).returncode != 0:
            raise Failure(f"tiersolve build {case.game} {' '.join(case.ours)} failed")
    return path


def compare(case: Case, position: str, ours: tuple, peer: dict, tally: Tally) -> None:
    """Compare one position's answers; problems go to tally.disagreements."""
    record, moves = ours
    notation = case.notation
    formal = notation.to_peer(position)
    problems = []
    if "error" in peer:
        reason = notation.peer_refusal_reason(position) \
            if peer["error"] == PEER_ILLEGAL_POSITION else None
        if reason:
            tally.refused += 1
            tally.refused_example = tally.refused_example or f"{position} ({formal}): {reason}"
            return
        problems.append(f"GamesmanOne refuses it (error {peer['error']}); ours: "
                        f"{record.value} {record.remoteness}")
    else:
        tally.positions += 1
        tally.values[record.value] = tally.values.get(record.value, 0) + 1
        if case.by_hash and peer.get("position") != formal:  # asked by our index
            problems.append(f"our index {notation.peer_query(position)} is "
                            f"{peer.get('position')} in GamesmanOne, not {formal}")
        theirs_value, theirs_rem = peer["positionValue"], peer["remoteness"]
        if theirs_value == "draw":
            tally.draw_remoteness.add(theirs_rem)
        if record.value != theirs_value or (
                record.value not in ("draw",) and record.remoteness != theirs_rem):
            problems.append(f"position: ours {record.value} {record.remoteness}, "
                            f"GamesmanOne {theirs_value} {theirs_rem}")
        peer_moves = {}
        for child in peer.get("moves", []):
            try:
                peer_moves[notation.move_from_peer_at(child["move"], position)] = child
            except ValueError as exc:
                problems.append(f"cannot read GamesmanOne's move: {exc}")
        ours_moves = {m.move: m for m in moves}
        for name in sorted(set(ours_moves) - set(peer_moves)):
            try:
                theirs = notation.move_to_peer(name, position)
            except ValueError:
                theirs = "no GamesmanOne name"
            problems.append(f"move {name} ({theirs}): ours only")
        for name in sorted(set(peer_moves) - set(ours_moves)):
            problems.append(f"move {name} ({peer_moves[name]['move']}): GamesmanOne only")
        for name in sorted(set(ours_moves) & set(peer_moves)):
            mine, child = ours_moves[name], peer_moves[name]
            tally.moves += 1
            value = FLIP.get(child["positionValue"], child["positionValue"])
            remoteness_differs = mine.value != "draw" and mine.remoteness != child["remoteness"]
            if mine.value != value or remoteness_differs:
                problems.append(f"move {name} ({child['move']}): ours {mine.value} "
                                f"{mine.remoteness}, GamesmanOne {value} {child['remoteness']} "
                                "(for the mover)")
            if notation.to_peer(mine.position) != child["position"]:
                problems.append(f"move {name} ({child['move']}) leads to {mine.position} "
                                f"({notation.to_peer(mine.position)}) in ours, "
                                f"{child['position']} in GamesmanOne")
    if problems:
        tally.disagreements.append({
            "position": position, "peer_position": formal, "problems": problems,
            "ours": {"value": record.value, "remoteness": record.remoteness},
            "peer": {k: peer.get(k) for k in ("positionValue", "remoteness", "error")}})


#: GamesmanOne's value codes (kLose, kDraw, kTie, kWin) as ours (tiersolve.values).
PEER_VALUE_CODES = {1: 2, 2: 4, 3: 3, 4: 1}
DIGEST_RECORD = [("value", "i1"), ("pad", "u1"), ("remoteness", "<i2"), ("moves", "<i4"),
                 ("digest", "<u8")]


def mix64(values):
    """splitmix64's finalizer on a uint64 array (the hash helper's ``Mix``)."""
    import numpy as np

    with np.errstate(over="ignore"):
        z = values.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def compare_every_position(db, case: Case, peer: PeerQuery, work: Path) -> dict:
    """Every position of a game asked by hash (our index is GamesmanOne's hash): the
    hash helper's digest file against our database: value, remoteness (not of draws),
    the number of moves, and the sum of mix(child index) over the moves, which our
    ``expand`` gives. Equal sums and counts mean the same children (up to a 64-bit
    hash collision), so with every position's value equal, every move's is too."""
    import numpy as np

    from tiersolve.values import DRAW, VALUE_NAMES

    path = work / f"{case.name}_digest.bin"
    command = [str(peer.helper), peer.rel, case.peer_game, str(case.variant)]
    run = subprocess.run(command, cwd=peer.cwd, input=f"digest {path}\n", capture_output=True,
                         text=True)
    if run.returncode != 0 or '"digest"' not in run.stdout:
        raise Failure(f"the hash helper did not write {path}: {run.stderr.strip()[-200:]}")
    theirs = np.fromfile(path, dtype=np.dtype(DIGEST_RECORD))
    path.unlink()
    game = db.game
    if len(theirs) != db.size:
        raise Failure(f"GamesmanOne has {len(theirs):,} positions, our database {db.size:,}")
    problems, moves = [], 0
    values: dict[str, int] = {}
    chunk = 1 << 18
    out = np.zeros((game.max_moves, 4), np.int64)
    scratch = [np.zeros(game.state_size, np.int64) for _ in range(2)] + \
        [np.zeros(game.max_moves, np.int64)]
    for begin in range(0, db.size, chunk):
        end = min(db.size, begin + chunk)
        ours_value = db.value_array(begin, end).astype(np.int64)
        ours_rem = db.remoteness_array(begin, end).astype(np.int64)
        mine = theirs[begin:end]
        peer_value = np.vectorize(PEER_VALUE_CODES.get, otypes=[np.int64])(mine["value"]) \
            if len(mine) else np.zeros(0, np.int64)
        counts, digests = fsvp_children_digests(game, begin, end, out, scratch)
        moves += int(counts.sum())
        for code in np.unique(ours_value):
            name = VALUE_NAMES.get(int(code), str(code))
            values[name] = values.get(name, 0) + int((ours_value == code).sum())
        bad = (ours_value != peer_value) | ((ours_value != DRAW) & (ours_rem != mine["remoteness"])) \
            | (counts != mine["moves"]) | (digests != mine["digest"])
        for index in np.flatnonzero(bad)[:20 - len(problems)] if len(problems) < 20 else []:
            i = begin + int(index)
            position = game.position_text(0, i)
            problems.append({
                "position": position, "peer_position": case.notation.to_peer(position),
                "problems": [f"every-position check at index {i}: ours value "
                             f"{VALUE_NAMES.get(int(ours_value[index]))} "
                             f"{int(ours_rem[index])} with {int(counts[index])} moves, "
                             f"GamesmanOne value code {int(mine['value'][index])} "
                             f"{int(mine['remoteness'][index])} with "
                             f"{int(mine['moves'][index])} moves"
                             + ("; the children differ" if digests[index] != mine["digest"][index]
                                else "")],
                "ours": {}, "peer": {}})
        if bad.any() and len(problems) >= 20:
            problems.append({"position": "...", "peer_position": "", "problems": [
                f"{int(bad.sum())} in positions {begin}..{end - 1}"], "ours": {}, "peer": {}})
    return {"positions": int(db.size), "moves": moves, "values": values,
            "disagreement_list": problems}


def fsvp_children_digests(game, begin: int, end: int, out, scratch) -> tuple:
    """(move count, sum of mix(child index)) of our positions begin..end-1, from the
    game's ``expand`` (a finished position has no moves)."""
    import numpy as np

    children, counts = _children_of(game, begin, end, out, scratch)
    mixed = mix64(children)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    sums = np.zeros(end - begin, np.uint64)
    has = counts > 0
    if has.any():
        sums[has] = np.add.reduceat(mixed, starts[has])
    return counts, sums


_CHILDREN_KERNEL = {}


def _children_of(game, begin: int, end: int, out, scratch):
    """Every child index of positions begin..end-1 of tier 0, flattened, and the
    number of each position's moves."""
    import numpy as np

    kernel = _CHILDREN_KERNEL.get(game.name)
    if kernel is None:
        import numba

        expand = game.functions.expand

        @numba.njit
        def kernel(data, begin, end, out, state, child, moves, children, counts):
            used = 0
            for local in range(begin, end):
                count = expand(data, 0, local, out, state, child, moves)
                count = max(count, 0)
                counts[local - begin] = count
                for k in range(count):
                    children[used] = out[k, 1]
                    used += 1
            return used

        _CHILDREN_KERNEL[game.name] = kernel
    counts = np.zeros(end - begin, np.int64)
    children = np.zeros((end - begin) * game.max_moves, np.int64)
    used = kernel(game.data, begin, end, out, *scratch, children, counts)
    return children[:used], counts


def query_part(answer: dict) -> dict:
    """The batch helper's answer without the keys it adds to query's ("primitive",
    "legal"), to compare with 'gamesman query'."""
    return {k: v for k, v in answer.items() if k not in HELPER_KEYS}


HELPER_KEYS = ("primitive", "legal")


def agree(args: argparse.Namespace) -> int:
    binary = check_binary(args.gamesman)
    case = make_case(args.game, args.size, args.advanced, args.peer_game)
    if args.advanced and args.game != "teeko":
        raise Failure("--advanced is a Teeko option")
    work = Path(args.work).expanduser().resolve()
    work.mkdir(parents=True, exist_ok=True)

    from _installed import require_tiersolve

    require_tiersolve(PROG)
    if args.rules_only:
        return agree_rules(args, case, binary, work)
    if args.solved_tiers:
        if case.game == "gates":
            return agree_gates_solved_tiers(args, case, binary)
        return agree_solved_tiers(args, case, binary)
    if not case.solvable:
        raise Failure(f"{case.name}: {case.note}; compare the rules with --rules-only")
    import numpy as np

    from tiersolve.databases import open_database

    db_path = ours_database(args, case, work)
    db = open_database(db_path)
    options = db.game.options
    if db.game.name != case.game or (
            case.game == "quixo" and options.get("size") != case.notation.n) or (
            case.game == "teeko" and (options.get("size", 5) != 5
                                      or bool(options.get("advanced")) != args.advanced)) or (
            case.game == "ttt" and any(options.get(k) != v for k, v in case.options)):
        raise Failure(f"{db_path} is a database of {db.game.describe()}, not {case.name}")

    peer_data = Path(args.peer_data).expanduser() if args.peer_data else work / "gamesman" / "data"
    if case.game in ("teeko", "dshogi"):
        print(f"note: {case.name}: {case.note} if it is not solved yet", file=sys.stderr)
    peer_solve(binary, peer_data, case)  # returns at once when already solved
    if case.by_hash:  # no formal positions: only the hash helper can ask it
        helper = None if args.no_batch else hash_helper(binary)
        if helper is None:
            raise Failure(f"{case.name}: GamesmanOne's query cannot read its positions; the "
                          "hash helper is needed (a CMake build tree beside the binary)")
    else:
        if not case.query_cli and args.no_batch:
            raise Failure(f"'gamesman query' cannot read {case.peer_game} (its UWAPI has no "
                          "Primitive); leave out --no-batch")
        helper = None if args.no_batch else peer_helper(binary, case)
        if helper is None and not case.query_cli:
            raise Failure(f"{case.peer_game} needs the batch helper (built from GamesmanOne's "
                          "CMake build tree)")
    peer = PeerQuery(binary, peer_data, case, helper,
                     None if args.peer_read == "open" or case.by_hash else args.peer_read)
    start_answer = peer.query_many([case.notation.peer_query(db.start)])[0]
    if start_answer.get("positionValue") in (None, "unsolved", "undecided"):
        raise Failure(f"GamesmanOne's database in {peer_data} does not answer {case.name}'s "
                      f"start ({start_answer}); is the solve complete?")

    started = time.monotonic()
    answers: dict[str, tuple] = {}

    def ours(position: str) -> tuple:
        if position not in answers:
            answers[position] = (db.lookup(position), db.moves(position))
        return answers[position]

    order: list[str] = []
    seen: set[str] = set()

    def add(position: str) -> None:
        if position not in seen:
            seen.add(position)
            order.append(position)

    add(db.start)
    rng = random.Random(args.seed)
    plies_total = 0
    for _ in range(args.random_games):
        position = db.start
        for ply in range(args.max_plies + 1):
            add(position)
            _, moves = ours(position)
            if not moves or ply == args.max_plies:
                break
            position = rng.choice(moves).position
            plies_total += 1
    from_games = len(order)

    # Random legal positions of our database: canonical ones only (value codes 1..4).
    nprng = np.random.default_rng(args.seed)
    stored = db.stored_indices() if db.reachable_from is not None else None
    population = len(stored) if stored is not None else db.size
    sampled = 0
    attempts = 0
    inconsistent: list[str] = []
    picked: set[int] = set()  # each index counts once, however often it is drawn
    while sampled < args.random_positions and attempts < 200:
        attempts += 1
        want = max(64, 4 * (args.random_positions - sampled))
        picks = nprng.integers(0, population, size=want)
        indices = stored[picks] if stored is not None else picks
        codes, _ = db.lookup_indices(indices)
        fresh = [i for i in np.unique(indices[(codes >= 1) & (codes <= 4)]).tolist()
                 if i not in picked]
        keep = np.array(fresh[: args.random_positions - sampled], dtype=np.int64)
        picked.update(keep.tolist())
        for index, position in zip(keep, db.positions(keep)):
            # The index's position, or its colour twin (our indexes store a position
            # and the one with the players exchanged under one index, and decode
            # gives the first player to move), must be one our lookups answer, under
            # that index; one of those, at random.
            choices = []
            for text in (position, case.notation.swap_colours(position)):
                try:
                    if db.get(text) is not None and db.index(text) == index:
                        choices.append(text)
                except ValueError:
                    pass
            if not choices:
                inconsistent.append(f"index {index} decodes to {position}, which our lookup "
                                    "refuses (or gives another index), as its colour twin")
                continue
            add(choices[int(nprng.integers(len(choices)))])
            sampled += 1
    if sampled < args.random_positions:
        print(f"note: found only {sampled} random legal positions", file=sys.stderr)
    listed_all = 0  # --all-positions: every legal position, asked one by one
    if args.all_positions:  # every legal position of our database, for a small game
        indices = stored if stored is not None else np.arange(db.size, dtype=np.int64)
        codes, _ = db.lookup_indices(indices)
        for position in db.positions(indices[(codes >= 1) & (codes <= 4)]):
            add(position)
            listed_all += 1
    for text in case.corners:  # the rules' corner cases, and their twins
        add(text)
        add(case.notation.swap_colours(text))

    formal = [case.notation.to_peer(p) for p in order]
    peer_answers = peer.query_many([case.notation.peer_query(p) for p in order])
    # The helper against GamesmanOne's own query command, on a few positions.
    helper_checked, helper_differs = 0, []
    if helper is not None and args.check_helper > 0 and case.query_cli and not case.by_hash:
        picks = random.Random(args.seed).sample(range(len(order)),
                                                min(args.check_helper, len(order)))
        direct = PeerQuery(binary, peer_data, case, None)
        for k, answer in zip(picks, direct.query_many([formal[k] for k in picks])):
            helper_checked += 1
            if answer != query_part(peer_answers[k]) and not (
                    "error" in answer and "error" in peer_answers[k]):
                helper_differs.append(formal[k])
        if helper_differs:
            raise Failure(f"the batch query helper and 'gamesman query' answer "
                          f"{len(helper_differs)} of {helper_checked} positions differently, "
                          f"e.g. {helper_differs[0]}; rerun with --no-batch")
    tally = Tally()
    for position, answer in zip(order, peer_answers):
        compare(case, position, ours(position), answer, tally)
    every = compare_every_position(db, case, peer, work) if case.by_hash else None
    if every is not None:
        tally.disagreements.extend(every.pop("disagreement_list"))
    seconds = time.monotonic() - started

    result = {
        "case": case.name, "ours": str(db_path), "peer_data": str(peer_data),
        "peer_variant": case.variant, "seed": args.seed,
        "random_games": args.random_games, "plies_played": plies_total,
        "positions_from_games": from_games, "random_positions": sampled,
        "all_positions_listed": listed_all,
        "positions_compared": tally.positions, "moves_compared": tally.moves,
        "peer_refused_unreachable": tally.refused, "peer_refused_example": tally.refused_example,
        "values_compared": tally.values, "peer_draw_remoteness": sorted(tally.draw_remoteness),
        "ours_inconsistent": len(inconsistent), "ours_inconsistent_list": inconsistent[:20],
        "disagreements": len(tally.disagreements), "seconds": round(seconds, 1),
        "batch_helper": helper is not None, "helper_checked_against_query": helper_checked,
        **({"every_position": every} if every is not None else {}),
    }
    if args.json:
        print(json.dumps({**result, "disagreement_list": tally.disagreements}, indent=2))
    else:
        print_disagreements(tally)
        print(f"{case.name}: start {db.start} = {answers[db.start][0].value} "
              f"{answers[db.start][0].remoteness}; GamesmanOne {start_answer['positionValue']} "
              f"{start_answer['remoteness']}")
        print(f"positions compared: {tally.positions:,} (start, {from_games - 1:,} more from "
              f"{args.random_games} random games of {plies_total:,} plies, {sampled:,} random "
              f"positions of our database"
              + (f", {2 * len(case.corners)} corner cases" if case.corners else "")
              + (f", and every one of our {listed_all:,} legal positions" if listed_all else "")
              + "); their values: "
              + ", ".join(f"{v} {n:,}" for v, n in sorted(tally.values.items())))
        print(f"moves compared: {tally.moves:,}")
        if every is not None:
            print(f"every position: {every['positions']:,} compared (value, remoteness, and "
                  f"the moves: {every['moves']:,}, by count and a digest of the children's "
                  f"hashes); values: " + ", ".join(f"{v} {n:,}" for v, n in
                                                    sorted(every['values'].items())))
        if helper is not None and case.by_hash:
            print("GamesmanOne answered through the hash helper (its game has no formal "
                  "positions, so 'gamesman query' cannot be asked)")
        elif helper is not None and not case.query_cli:
            print(f"GamesmanOne answered through the batch helper (its UWAPI's missing "
                  f"Primitive filled in); 'gamesman query' cannot read {case.peer_game}, so "
                  "none checked against it")
        elif helper is not None:
            print(f"GamesmanOne answered through the batch helper; {helper_checked} of its answers "
                  "checked against 'gamesman query': identical")
        if tally.refused:
            print(f"refused by GamesmanOne as unreachable: {tally.refused:,} (legal by our rules, "
                  f"e.g. {tally.refused_example})")
        if inconsistent:
            print(f"OURS INCONSISTENT: {len(inconsistent)} sampled indices do not round-trip "
                  "(left out of the comparison):")
            for line in inconsistent[:20]:
                print(f"    {line}")
        print(f"disagreements: {len(tally.disagreements):,}   ({seconds:.0f} s)")
    return 1 if tally.disagreements or inconsistent else 0


def agree_solved_tiers(args: argparse.Namespace, case: Case, binary: Path) -> int:
    """--solved-tiers (Winkers): GamesmanOne's tier solver, stopped part way, has
    solved some tiers (those solved first, at the end of the game); compare random
    legal positions of our endgame database (``--db``, built with ``--from-move``)
    that lie in those tiers, value and remoteness and every move's, with its answers
    from ``--peer-data``."""
    import numpy as np

    from tiersolve.databases import open_database

    if not args.db or not args.peer_data:
        raise Failure("--solved-tiers needs --db (our endgame table) and --peer-data "
                      "(GamesmanOne's data directory, some of its tiers solved)")
    if not hasattr(case.notation, "tier_key"):
        raise Failure(f"--solved-tiers is for Winkers, not {case.name}")
    db = open_database(Path(args.db).expanduser())
    if db.game.name != case.game:
        raise Failure(f"{args.db} is a database of {db.game.describe()}, not {case.name}")
    peer_data = Path(args.peer_data).expanduser()
    arraydb = peer_data / case.peer_game / str(case.variant) / "arraydb"
    names = sorted(path.name.split(".")[0] for path in arraydb.glob("*.adb*"))
    solved = {case.notation.tier_key(name): name for name in names}
    keys = [tuple(int(v) for v in key) for key in db.game.tiers.keys]
    tiers = [t for t, key in enumerate(keys) if key in solved]
    missing = sorted(name for key, name in solved.items() if key not in keys)
    if not tiers:
        raise Failure(f"none of GamesmanOne's {len(names)} solved tiers in {arraydb} is in "
                      f"{args.db}")
    sizes = np.array([db.game.tiers.sizes[t] for t in tiers], np.int64)
    offsets = db.game.tiers.offsets
    nprng = np.random.default_rng(args.seed)
    chosen: list[int] = []
    attempts = 0
    while len(chosen) < args.random_positions and attempts < 200:
        attempts += 1
        picks = nprng.integers(0, int(sizes.sum()), size=4 * args.random_positions)
        where = np.searchsorted(np.cumsum(sizes), picks, side="right")
        indices = offsets[np.array(tiers)[where]] + picks - np.concatenate(([0], np.cumsum(sizes)))[where]
        codes, _ = db.lookup_indices(indices)
        for index in indices[(codes >= 1) & (codes <= 4)]:
            if int(index) not in chosen and len(chosen) < args.random_positions:
                chosen.append(int(index))
    chosen.sort()  # by tier: GamesmanOne's helper keeps a few tiers loaded
    positions = db.positions(np.array(chosen, np.int64))
    started = time.monotonic()
    helper = peer_helper(binary, case)
    if helper is None:
        raise Failure("--solved-tiers needs the batch helper (GamesmanOne's CMake build tree)")
    peer = PeerQuery(binary, peer_data, case, helper)
    answers = peer.query_many([case.notation.peer_query(p) for p in positions])
    tally = Tally()
    per_tier: dict[str, int] = {}
    for index, position, answer in zip(chosen, positions, answers):
        compare(case, position, (db.lookup(position), db.moves(position)), answer, tally)
        name = solved[keys[db.game.tiers.locate(index)[0]]]
        per_tier[name] = per_tier.get(name, 0) + 1
    finished = compare_finished_tiers(args, case, peer, [solved[key] for key in solved
                                                         if key not in keys], tally, per_tier)
    seconds = time.monotonic() - started
    result = {"case": case.name, "ours": str(args.db), "ours_options": db.game.flags(),
              "peer_data": str(peer_data), "peer_tiers_solved": len(names),
              "tiers_compared": len(tiers), "peer_solved_tiers_not_in_ours": missing,
              "positions_compared": tally.positions, "moves_compared": tally.moves,
              "values_compared": tally.values, "positions_per_tier": per_tier,
              "finished_positions_of_tiers_not_in_ours": finished,
              "disagreements": len(tally.disagreements), "seed": args.seed,
              "seconds": round(seconds, 1)}
    if args.json:
        print(json.dumps({**result, "disagreement_list": tally.disagreements}, indent=2))
    else:
        print_disagreements(tally)
        print(f"{case.name}: GamesmanOne has solved {len(names)} tiers; {len(tiers)} of them "
              f"are in our {db.game.describe()} ({', '.join(solved[keys[t]] for t in tiers)})"
              + (f"; not in ours: {', '.join(missing)}" if missing else ""))
        if finished:
            print(f"and {finished:,} random finished positions of the tiers not in ours, "
                  "by our rules (value and remoteness 0, no moves)")
        print(f"positions compared: {tally.positions:,} random legal positions of those tiers; "
              f"their values: " + ", ".join(f"{v} {n:,}" for v, n in sorted(tally.values.items())))
        print(f"moves compared: {tally.moves:,}")
        print(f"disagreements: {len(tally.disagreements):,}   ({seconds:.0f} s)")
    return 1 if tally.disagreements else 0


def compare_finished_tiers(args: argparse.Namespace, case: Case, peer: PeerQuery,
                           names: list[str], tally: Tally, per_tier: dict) -> int:
    """GamesmanOne's solved tiers that our endgame table does not hold: their random
    positions that our rules call finished (value for the player to move, remoteness
    0, no moves), compared without a database of ours; returns how many."""
    from types import SimpleNamespace

    from tiersolve.games import make_game
    from tiersolve.values import ILLEGAL, UNDECIDED, VALUE_NAMES

    if not names:
        return 0
    game = make_game(case.game)
    tier_of = {tuple(int(v) for v in key): t for t, key in enumerate(game.tiers.keys)}
    rng = random.Random(args.seed)
    texts, records, tiers_of = [], [], []
    for name in names:
        tier = tier_of[case.notation.tier_key(name)]
        size = int(game.tier_sizes[tier])
        for _ in range(args.random_positions // len(names)):
            state = game.state_at(game.tiers.global_index(tier, rng.randrange(size)))
            code = game.primitive_value(state)
            if code in (ILLEGAL, UNDECIDED):
                continue
            texts.append(game.format(state))
            records.append(SimpleNamespace(value=VALUE_NAMES[code], remoteness=0))
            tiers_of.append(name)
    answers = peer.query_many([case.notation.peer_query(text) for text in texts])
    for text, record, name, answer in zip(texts, records, tiers_of, answers):
        compare(case, text, (record, []), answer, tally)
        per_tier[name] = per_tier.get(name, 0) + 1
    return len(texts)


def our_primitive(game, state) -> str | None:
    """Our verdict on a position without moves ("win", "lose", "tie", "draw" for the
    player to move), None if it has moves: a finished game our index leaves out
    (its terminal value), or a position our rules call primitive."""
    from tiersolve.values import UNDECIDED, VALUE_NAMES

    code = game.terminal_value(state)
    if code is None:
        code = game.primitive_value(state)
        if code == UNDECIDED:
            return None
    return VALUE_NAMES.get(code, str(code))


def stuck_draw(ours: str, answer: dict) -> bool:
    """A position where the player to move has no move and the game is not over: our
    DRAW, GamesmanOne's "undecided" primitive verdict with an empty move list (its
    value iteration leaves such a position undecided, which it reports as a draw)."""
    return ours == "draw" and answer.get("primitive") == "undecided" \
        and not answer.get("moves")


def random_index_positions(game, notation: Notation, count: int, seed: int) -> tuple[list, int]:
    """``count`` random positions of our game's index (rules only, no database):
    random global indices, each decoded, kept if our rules call it legal (not
    ILLEGAL, not unreachable), then it or its twin with the players exchanged
    (which our index stores under the same index) at random, if that is legal
    too. Returns (texts, indices tried)."""
    from tiersolve.values import ILLEGAL

    rng = random.Random(seed + 1)

    def legal(text: str) -> bool:
        try:
            state = game.parse(text)
        except ValueError:
            return False
        if game.terminal_value(state) is not None:
            return True  # a finished game: legal, though the index leaves it out
        try:
            game.locate(state)
        except ValueError:
            return False
        return (game.primitive_value(state) != ILLEGAL
                and game.unreachable_reason(state) is None)

    found: list[str] = []
    tried = 0
    size = game.size
    drawn: set[int] = set()  # each index counts once, however often it is drawn
    while len(found) < count and tried < 200 * max(count, 1) and len(drawn) < size:
        tried += 1
        index = rng.randrange(size)
        if index in drawn:
            continue
        drawn.add(index)
        state = game.state_at(index)
        if game.primitive_value(state) == ILLEGAL:
            continue
        text = game.format(state)
        choices = [t for t in (text, notation.swap_colours(text)) if legal(t)]
        if choices:
            found.append(rng.choice(choices))
    return found, tried


def agree_rules(args: argparse.Namespace, case: Case, binary: Path, work: Path) -> int:
    """--rules-only: GamesmanOne's moves (from its query code with no database: no
    values) must be ours and lead to the same positions, and its primitive verdicts
    (the batch helper reports them) must be ours, at every position of random games
    by our rules and at random legal positions of our index. Needs no database on
    either side."""
    from tiersolve.games import make_game

    game = make_game(case.game, **dict(case.options))
    notation = case.notation
    rng = random.Random(args.seed)
    children: dict[str, dict[str, str]] = {}
    verdicts: dict[str, str | None] = {}
    order: list[str] = []

    def visit(state) -> list:
        text = game.format(state)
        kids = game.children(state)
        if text not in children:
            children[text] = {child.move: game.format(child.state) for child in kids}
            verdicts[text] = our_primitive(game, state) if not kids else None
            order.append(text)
        return kids

    plies_total = 0
    for _ in range(args.random_games):
        state = game.parse(game.default_start())
        for ply in range(args.max_plies + 1):
            kids = visit(state)
            if not kids or ply == args.max_plies:
                break
            state = rng.choice(kids).state
            plies_total += 1
    from_games = len(order)
    sampled, tried = random_index_positions(game, notation, args.random_positions, args.seed)
    for text in sampled:
        visit(game.parse(text))
    for text in case.corners:
        for form in (text, notation.swap_colours(text)):
            visit(game.parse(form))
    empty = Path(tempfile.mkdtemp(prefix="no_database_", dir=work)) / "data"
    if case.game == "gates":  # a tier game with no formal positions: its own helper
        helper = batch_helper(binary, name="gamesman_gatesquery", source_text=GATES_QUERY_C)
        if helper is None:
            raise Failure("Gates needs the gates helper, built from GamesmanOne's CMake "
                          "build tree")
    elif case.game == "allqueens":  # no formal positions: GamesmanOne's query cannot read it
        helper = batch_helper(binary, name="gamesman_rulesquery", source_text=RULES_QUERY_C)
        if helper is None:
            raise Failure("All Queens Chess needs the rules helper, built from GamesmanOne's "
                          "CMake build tree")
    else:
        helper = None if args.no_batch else peer_helper(binary, case)
    answers = PeerQuery(binary, empty, case, helper, "rules").query_many(
        [notation.to_peer(text) for text in order])
    shutil.rmtree(empty.parent, ignore_errors=True)
    moves = 0
    stuck = 0
    refused, refused_example = 0, ""
    primitives: dict[str, int] = {}
    disagreements = []
    for text, answer in zip(order, answers):
        problems = []
        if "error" in answer:
            reason = notation.peer_refusal_reason(text) \
                if answer["error"] == PEER_ILLEGAL_POSITION else None
            if reason:  # a known difference in which positions exist
                refused += 1
                refused_example = refused_example or f"{text} ({notation.to_peer(text)}): {reason}"
            else:
                problems.append(f"GamesmanOne refuses it (error {answer['error']})")
        else:
            if answer.get("legal") is False:
                problems.append("GamesmanOne's solver calls it illegal (IsLegalPosition); "
                                "ours legal")
            theirs = {}
            for child in answer.get("moves", []):
                try:
                    theirs[notation.move_from_peer_at(child["move"], text)] = child
                except ValueError as exc:
                    problems.append(f"cannot read GamesmanOne's move: {exc}")
            ours = children[text]
            for m in sorted(set(ours) - set(theirs)):
                try:
                    name = notation.move_to_peer(m, text)
                except ValueError:
                    name = "no GamesmanOne name"
                problems.append(f"move {m} ({name}): ours only")
            problems += [f"move {m} ({theirs[m]['move']}): GamesmanOne only"
                         for m in sorted(set(theirs) - set(ours))]
            for m in sorted(set(ours) & set(theirs)):
                moves += 1
                if notation.to_peer(ours[m]) != theirs[m]["position"]:
                    problems.append(f"move {m} ({theirs[m]['move']}) leads to {ours[m]} "
                                    f"({notation.to_peer(ours[m])}) in ours, "
                                    f"{theirs[m]['position']} in GamesmanOne")
            if "primitive" in answer:  # the batch helper's verdict
                mine = verdicts[text] or "undecided"
                if stuck_draw(mine, answer):
                    stuck += 1  # no move either side: a draw (DECISIONS.md)
                else:
                    if mine != "undecided":
                        primitives[mine] = primitives.get(mine, 0) + 1
                    if mine != answer["primitive"]:
                        problems.append(f"primitive: ours {mine}, "
                                        f"GamesmanOne {answer['primitive']}")
        if problems:
            disagreements.append((text, notation.to_peer(text), problems))
    verdicts_checked = helper is not None
    if args.json:
        print(json.dumps({"case": case.name, "rules_only": True, "seed": args.seed,
                          "random_games": args.random_games, "plies_played": plies_total,
                          "positions_from_games": from_games,
                          "random_positions": len(sampled), "indices_tried": tried,
                          "positions_compared": len(order) - refused,
                          "moves_compared": moves, "primitive_verdicts_compared": verdicts_checked,
                          "primitive_positions": primitives, "stuck_draws": stuck,
                          "peer_refused_unreachable": refused,
                          "peer_refused_example": refused_example,
                          "disagreements": len(disagreements),
                          "disagreement_list": [{"position": t, "peer_position": f, "problems": p}
                                                for t, f, p in disagreements]}, indent=2))
        return 1 if disagreements else 0
    for text, formal, problems in disagreements:
        print(f"DISAGREE {text}  (GamesmanOne {formal})")
        for problem in problems:
            print(f"    {problem}")
    if refused:
        print(f"refused by GamesmanOne as unreachable: {refused:,} (legal by our rules, "
              f"e.g. {refused_example})")
    print(f"{case.name}, rules only: {len(order) - refused:,} positions ({from_games:,} of "
          f"{args.random_games} random games of {plies_total:,} plies, {len(sampled):,} random "
          f"legal positions of our index"
          + (f", {2 * len(case.corners)} corner cases" if case.corners else "")
          + f"), {moves:,} moves compared"
          + (", and every position's primitive verdict ("
             + (", ".join(f"{v} {n:,}" for v, n in sorted(primitives.items())) or "none")
             + " primitive)" if verdicts_checked else " (no primitive verdicts: --no-batch)")
          + (f", {stuck:,} where the player to move cannot move (a draw both sides)"
             if stuck else "")
          + f"; {len(disagreements):,} disagreements")
    return 1 if disagreements else 0


def agree_gates_solved_tiers(args: argparse.Namespace, case: Case, binary: Path) -> int:
    """--solved-tiers (Gates): the tiers GamesmanOne's tier solver has solved so far (``--peer-data``,
    a solve stopped after a bounded time) against our database of a smaller set of
    pieces (``--db``, e.g. ``--triangles 1 --trapezoids 0``), whose moving and
    open-gate positions are the whole game's with those counts (docs/DECISIONS.md).
    Random legal positions of our moving tiers are asked, and those in a tier
    GamesmanOne has solved are compared: value, remoteness (not of draws), and
    every move's child's value and remoteness; ``--random-positions`` of them."""
    from tiersolve.databases import open_database
    from tiersolve.values import DRAW, ILLEGAL, VALUE_NAMES

    if not args.db or not args.peer_data:
        raise Failure("--solved-tiers needs --db (our Gates database of a smaller piece set) "
                      "and --peer-data (GamesmanOne's data directory, some tiers solved)")
    db = open_database(Path(args.db))
    game = db.game
    if game.name != "gates" or game.options["points"] != 18:
        raise Failure(f"{args.db} is not a Gates database on the whole board")
    helper = batch_helper(binary, name="gamesman_gatesquery", source_text=GATES_QUERY_C)
    if helper is None:
        raise Failure("Gates needs the gates helper, built from GamesmanOne's CMake build tree")
    peer = PeerQuery(binary, Path(args.peer_data).expanduser(), case, helper, "values")
    notation = case.notation
    rng = random.Random(args.seed)
    tiers = [t for t in range(game.tiers.count) if game.tiers.keys[t][0] == 1]  # moving
    weights = [int(game.tier_sizes[t]) for t in tiers]
    compared, moves, asked = 0, 0, 0
    problems: list[tuple[str, str]] = []
    solved_tiers: dict[str, int] = {}
    values: dict[str, int] = {}
    while compared < args.random_positions and asked < 400 * max(args.random_positions, 1):
        batch = []
        while len(batch) < 2000:
            tier = rng.choices(tiers, weights)[0]
            state = game.state_at(game.tiers.global_index(
                tier, rng.randrange(int(game.tier_sizes[tier]))))
            if game.primitive_value(state) != ILLEGAL:
                batch.append(game.format(state))
        asked += len(batch)
        answers = peer.query_many([notation.to_peer(text) for text in batch])
        chosen = [(t, a) for t, a in zip(batch, answers)
                  if a.get("value") not in (None, "unsolved", "error")]
        chosen = chosen[:args.random_positions - compared]
        if not chosen:
            continue
        texts = [t for t, _ in chosen]
        children = [notation.from_peer(m["position"]) for _, a in chosen for m in a["moves"]]
        ours_v, ours_r = db.lookup_many(texts + children)
        at = len(texts)
        for i, (text, answer) in enumerate(chosen):
            compared += 1
            mine = VALUE_NAMES.get(int(ours_v[i]), "?")
            values[mine] = values.get(mine, 0) + 1
            solved_tiers[str(answer["tier"])] = solved_tiers.get(str(answer["tier"]), 0) + 1
            if mine != answer["value"] or (ours_v[i] != DRAW
                                           and int(ours_r[i]) != answer["remoteness"]):
                problems.append((text, f"ours {mine} {int(ours_r[i])}, GamesmanOne "
                                       f"{answer['value']} {answer['remoteness']}"))
            for m in answer["moves"]:
                moves += 1
                v, r = VALUE_NAMES.get(int(ours_v[at]), "?"), int(ours_r[at])
                if v != m.get("value") or (ours_v[at] != DRAW and r != m.get("remoteness")):
                    problems.append((text, f"move {m['move']}: child ours {v} {r}, "
                                           f"GamesmanOne {m.get('value')} {m.get('remoteness')}"))
                at += 1
    for text, problem in problems[:20]:
        print(f"DISAGREE {text}  ({notation.to_peer(text)}): {problem}")
    print(f"{case.name}, GamesmanOne's solved tiers against {db.game.describe()}: "
          f"{compared:,} positions in {len(solved_tiers):,} of its tiers ({asked:,} random "
          f"legal positions asked), {moves:,} moves compared (values "
          + ", ".join(f"{v} {n:,}" for v, n in sorted(values.items()))
          + f"); {len(problems):,} disagreements")
    if args.json:
        print(json.dumps({"case": case.name, "database": str(args.db), "positions": compared,
                          "moves": moves, "asked": asked, "values": values,
                          "peer_tiers": solved_tiers, "disagreements": len(problems)}))
    return 1 if problems else 0


# -- command line --------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(
        allow_abbrev=False,  # an option cut short is refused, as the commands' are
        prog=PROG, description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               f"  python scripts/{PROG} bench ~/gamesmanone/bin/gamesman --cases quixo3,quixo4\n"
               f"  python scripts/{PROG} agree ~/gamesmanone/bin/gamesman --game quixo --size 4\n"
               "\nBuilding GamesmanOne: docs/PEER.md.")
    sub = main.add_subparsers(dest="command", metavar="COMMAND", required=True)

    b = sub.add_parser(
        "bench", allow_abbrev=False, help="build the same games with both systems and compare the costs",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Build each case with both systems, alternately (per round: GamesmanOne "
                    "with OMP_NUM_THREADS=1, tiersolve, GamesmanOne with OMP_NUM_THREADS=2 and "
                    "OMP_WAIT_POLICY=passive, tiersolve), each in a fresh process and directory, "
                    "and print CPU and wall seconds, peak memory and file bytes per position.",
        epilog=f"example:\n  python scripts/{PROG} bench ~/gamesmanone/bin/gamesman "
               "--cases quixo3,quixo4 --rounds 2\n\ncases: " + ", ".join(CASES))
    b.add_argument("gamesman", metavar="GAMESMAN_BINARY", help="GamesmanOne's bin/gamesman")
    b.add_argument("--cases", default="quixo3,quixo4",
                   help="comma-separated cases (default quixo3,quixo4)")
    b.add_argument("--rounds", type=int, default=2, help="rounds of the four runs (default 2)")
    b.add_argument("--peer-threads", default="1,2", metavar="1,2",
                   help="GamesmanOne's settings: 1 thread, 2 threads (passive waiting), or "
                        "both (default 1,2)")
    b.add_argument("--work", default="peer_work", metavar="DIR",
                   help="scratch directory for the builds (default ./peer_work)")
    b.add_argument("--json", action="store_true", help="print the results as JSON")
    b.set_defaults(run=bench)

    a = sub.add_parser(
        "agree", allow_abbrev=False, help="compare the values and remoteness of both databases",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Look up the start, every position of random games and random legal "
                    "positions of our database in both databases, and compare the value and "
                    "remoteness of each position and of each of its moves. Exit 1 on any "
                    "disagreement. Missing databases are built first.",
        epilog=f"example:\n  python scripts/{PROG} agree ~/gamesmanone/bin/gamesman --game quixo "
               "--size 4 --db db/quixo_4.h5 --peer-data ~/g1/data")
    a.add_argument("gamesman", metavar="GAMESMAN_BINARY", help="GamesmanOne's bin/gamesman")
    a.add_argument("--game", required=True,
                   choices=PEER_GAMES)
    a.add_argument("--size", type=int, help="Quixo's board size, 3 to 5 (default 4); Teeko: "
                   "5; fsvp: the tokens, one of GamesmanOne's sizes (default 10)")
    a.add_argument("--advanced", action="store_true", help="Teeko's advanced variant")
    a.add_argument("--peer-game", choices=TTT_PEER_GAMES,
                   help="with --game ttt (our 3x3 board with diagonals): GamesmanOne's "
                        "regular-solver mttt (default) or its tier-solver mtttier")
    a.add_argument("--db", metavar="FILE", help="our database (built there if missing; "
                   "default WORK/tiersolve_<case>.h5)")
    a.add_argument("--peer-data", metavar="DIR", help="GamesmanOne's data directory (solved "
                   "there if missing; default WORK/gamesman/data)")
    a.add_argument("--work", default="peer_work", metavar="DIR",
                   help="where missing databases go (default ./peer_work)")
    a.add_argument("--random-games", type=int, default=200, metavar="N",
                   help="random games from the start (default 200)")
    a.add_argument("--max-plies", type=int, default=200, metavar="N",
                   help="a random game stops after this many plies (default 200)")
    a.add_argument("--random-positions", type=int, default=2000, metavar="M",
                   help="random legal positions of our database (with --rules-only: of "
                        "our game's index) (default 2000)")
    a.add_argument("--all-positions", action="store_true",
                   help="compare every legal position of our database too (small games: "
                        "Kaooa)")
    a.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    a.add_argument("--no-batch", action="store_true",
                   help="one 'gamesman query' process per position (two at a time) instead of "
                        "the batch helper compiled from GamesmanOne's query code")
    a.add_argument("--rules-only", action="store_true",
                   help="compare only the moves, the positions they lead to and the "
                        "primitive verdicts, on random games and random positions of our "
                        "index, by our rules and GamesmanOne's query code with no database "
                        "(no solving on either side)")
    a.add_argument("--solved-tiers", action="store_true",
                   help="Winkers and Gates: compare --random-positions random legal "
                        "positions of our endgame table (--db: Winkers built with "
                        "--from-move, Gates with a smaller piece set) in the tiers that "
                        "GamesmanOne's solver, stopped part way, has solved in --peer-data")
    a.add_argument("--peer-read", choices=("open", "load", "probe"), default="open",
                   help="how the batch helper reads a regular game's (Dobutsu shogi's) one "
                        "database file: one probe kept open (default), the whole file loaded "
                        "into memory (8 GiB for Dobutsu shogi), or query's fresh probe per "
                        "value; tier games always load whole tiers")
    a.add_argument("--check-helper", type=int, default=20, metavar="N",
                   help="check N of the batch helper's answers against 'gamesman query' "
                        "(default 20)")
    a.add_argument("--json", action="store_true", help="print the results as JSON")
    a.set_defaults(run=agree)
    return main


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except Failure as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
