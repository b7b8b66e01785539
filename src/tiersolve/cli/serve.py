"""``tiersolve serve``: a read-only HTTP API and a web page over solved databases.

The databases are opened once, at start-up, and named in URLs by their file stem
(``db/domineering_5x5.h5`` is ``domineering_5x5``); a request never names a file,
so it can never make the server read one. The API (docs/SERVE.md)::

    GET  /api/databases                   what each database holds
    GET  /api/NAME?position=TEXT          value, remoteness, every move (query --json)
    POST /api/NAME/lookup                 a JSON list of positions: values, in order
    GET  /api/NAME/best?position=TEXT     the best move
    GET  /api/NAME/line?position=TEXT     the principal variation
    GET  /api/NAME/view?start=TEXT&move=M the page's view of a game so far

Errors are JSON ``{"error": "one line"}``: 400 for a malformed or impossible position,
404 for an unknown database or path (and a position a ``--reachable`` database does
not hold), 405 for another method, 413 for a request over the limits.

Handlers are ``async`` and call the (synchronous, sub-millisecond) lookups on the
event loop's thread: a Database is not thread-safe, and this way only one request
uses it at a time. More throughput comes from worker processes (``--workers``), each with its
own open databases.

>>> app = create_app({})                     # no databases: an app that says so
>>> sorted(route.path for route in app.routes)[:2]
['/', '/api/databases']
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import sys
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

from tiersolve.cli.common import OneLineParser, fail, whole_number

#: Longest position text answered; a longer one is refused with 413 before parsing.
MAX_POSITION_CHARS = 2_000
#: Most positions in one POST /api/NAME/lookup.
MAX_BATCH = 10_000
#: Largest request body read (bytes): room for MAX_BATCH positions of 200 characters.
MAX_BODY_BYTES = 2 << 20
#: Most moves in a game the page sends back (GET /api/NAME/view).
MAX_MOVES = 1_000
#: The repetition rule's search per page view (tiersolve.databases.history): short, because it
#: runs on the event loop and holds every other request meanwhile.
VIEW_NODE_LIMIT = 20_000
VIEW_TIME_LIMIT = 1.0
#: Answers to single positions each worker keeps (``--cache``): about 4 KB each for
#: Domineering 5x5, so some 40 MB at most.
DEFAULT_CACHE = 10_000
#: File stems that cannot name a database, as the API's own paths use them.
RESERVED_NAMES = {"databases"}
#: The page's files, shipped as package data and read once at start-up.
STATIC_FILES = {"index.html": "text/html; charset=utf-8",
                "app.js": "text/javascript; charset=utf-8",
                "style.css": "text/css; charset=utf-8"}
#: Marker colours on the board, by the value for the player who moves (as play's).
MOVE_COLOURS = {"win": "#1e9e3a", "tie": "#e2b100", "draw": "#e2b100", "lose": "#c8312b"}
#: Pousse's push arrows: the direction into the board from each edge (rows, columns),
#: how far outside the entry square the arrow lies, its outline (along, across; in
#: cells) and the room left round the board for it.
PUSH_DIRECTIONS = {"L": (0, 1), "R": (0, -1), "T": (1, 0), "B": (-1, 0)}
PUSH_DISTANCE = 0.9
PUSH_ARROW = ((-0.32, -0.3), (0.1, -0.3), (0.34, 0.0), (0.1, 0.3), (-0.32, 0.3))
PUSH_ROOM = 0.8


class ServeError(Exception):
    """A request the API refuses: its HTTP status and one line saying why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = " ".join(message.split())  # one line, whatever the library said


# -- which databases ------------------------------------------------------------------
def find_databases(files: Sequence[str], directory: str | None) -> dict[str, Path]:
    """Database files by name (file stem): the ``files`` given, else every ``*.h5`` in
    ``directory``. A file in the folder that is a symbolic link to somewhere outside
    it is left out (the folder is what is served). ValueError (one line) for a file
    that is not there (or is a folder), two files with one stem, or nothing to serve.

    >>> find_databases([], "/no/such/folder")
    Traceback (most recent call last):
    ...
    ValueError: no folder /no/such/folder to serve databases from
    """
    found: dict[str, Path] = {}
    if files:
        paths = [Path(f) for f in files]
        for path in paths:
            if path.is_dir():  # as query says it, and the option that serves a folder
                raise ValueError(f"{path} is a folder, not a database file; serve the "
                                 f"databases in it with --dir {path}")
            if not path.is_file():
                raise ValueError(f"no such database file: {path}")
    else:
        from tiersolve.databases.naming import default_directory

        folder = Path(directory) if directory is not None else default_directory()
        if not folder.is_dir():
            raise ValueError(f"no folder {folder} to serve databases from")
        root = folder.resolve()
        paths = []
        for path in sorted(folder.glob("*.h5")):
            target = path.resolve()
            if target.parent != root and root not in target.parents:
                print(f"tiersolve serve: leaving out {path}: it links to {target}, outside "
                      f"{folder}", file=sys.stderr)
                continue
            if target.is_file():
                paths.append(path)
        if not paths:
            raise ValueError(f"no database files (*.h5) in {folder}; build one with: "
                             "tiersolve build ttt --rows 3 --cols 3")
    for path in paths:
        if path.stem in RESERVED_NAMES:
            raise ValueError(f"a database cannot be named {path.stem!r}, as /api/{path.stem} "
                             f"is the list of databases: rename {path}")
        if path.stem in found:
            raise ValueError(f"two databases are named {path.stem!r}: {found[path.stem]} and "
                             f"{path}; serve one of them")
        found[path.stem] = path
    return found


@dataclass
class Served:
    """One open database, with what ``/api/databases`` says of it."""

    name: str
    db: Any
    summary: dict[str, Any]


@dataclass
class Refused:
    """A database file of the folder served that could not be opened, and why (the
    library's one line, with the file's name for its path: where it lives is not the
    client's business)."""

    name: str
    path: Path
    reason: str

    @property
    def summary(self) -> dict[str, str]:
        """What ``/api/databases`` says of it."""
        return {"name": self.name, "file": self.path.name, "error": self.reason}


def open_served(paths: dict[str, Path],
                refused: dict[str, Refused] | None = None) -> dict[str, Served]:
    """Open every database once. A file that cannot be opened raises its
    TiersolveError (one line), or with ``refused`` (a folder served: one damaged file
    among good ones) is left out and kept there, with the reason."""
    from tiersolve.databases import open_database
    from tiersolve.errors import TiersolveError

    served = {}
    for name, path in paths.items():
        try:
            db = open_database(path)
            try:
                info = asdict(db.info())
            except BaseException:
                db.close()
                raise
        except (TiersolveError, OSError) as error:
            if refused is None:
                raise
            refused[name] = Refused(name, path, str(error).replace(str(path), path.name))
            continue
        for private in ("path", "file_bytes"):  # where it lives is not the client's business
            info.pop(private)
        served[name] = Served(name, db, {"name": name, **info})
    return served


# -- answers ---------------------------------------------------------------------------
def _position_error(error: Exception) -> ServeError:
    """The HTTP error of a library error about a position."""
    from tiersolve.errors import UnreachedPositionError

    status = 404 if isinstance(error, UnreachedPositionError) else 400
    return ServeError(status, str(error))


def _checked_position(position: Any) -> str:
    """The position parameter, or ServeError: missing, not text, or over the limit."""
    if position is None:
        raise ServeError(400, "missing the position parameter, e.g. ?position=(x --- --- ---)")
    if not isinstance(position, str):
        raise ServeError(400, f"a position is a string, got {type(position).__name__}")
    if len(position) > MAX_POSITION_CHARS:
        raise ServeError(413, f"a position of {len(position):,} characters is over the limit "
                              f"of {MAX_POSITION_CHARS:,}")
    return position


def position_answer(served: Served, position: Any) -> dict[str, Any]:
    """``GET /api/NAME?position=``: what ``tiersolve query --json`` prints."""
    from tiersolve.errors import PositionError

    db = served.db
    position = _checked_position(position)
    try:
        record = db.lookup(position)
        moves = db.moves(position)
    except PositionError as error:
        raise _position_error(error) from None
    return {"game": db.game.describe(), "position": record.position,
            "value": record.value, "remoteness": record.remoteness,
            "moves": [m.as_dict() for m in moves]}


def _answer_with(served: Served, position: Any, key: str, compute) -> dict[str, Any]:
    """The position's value and remoteness, and ``key``: ``compute(position)``;
    a position the library refuses is a 400 with its message."""
    from tiersolve.errors import PositionError

    position = _checked_position(position)
    try:
        record = served.db.lookup(position)
        extra = compute(position)
    except PositionError as error:
        raise _position_error(error) from None
    return {"position": record.position, "value": record.value,
            "remoteness": record.remoteness, key: extra}


def best_answer(served: Served, position: Any) -> dict[str, Any]:
    """``GET /api/NAME/best?position=``: the move perfect play makes (null at the end)."""
    def best(text: str) -> dict[str, Any] | None:
        move = served.db.best_move(text)
        return None if move is None else move.as_dict()

    return _answer_with(served, position, "best", best)


def line_answer(served: Served, position: Any) -> dict[str, Any]:
    """``GET /api/NAME/line?position=``: the principal variation, move by move."""
    return _answer_with(served, position, "line",
                        lambda text: [m.as_dict() for m in served.db.principal_variation(text)])


def batch_answer(served: Served, positions: Any) -> dict[str, Any]:
    """``POST /api/NAME/lookup``: value and remoteness of each position, in order;
    the first position that cannot be answered fails the whole request with the
    library's message (no made-up value for it)."""
    from tiersolve.databases.reader import VALUES
    from tiersolve.errors import PositionError
    from tiersolve.games.base import Game

    if not isinstance(positions, list):
        raise ServeError(400, "the body must be a JSON list of positions, e.g. "
                              '["(x --- --- ---)"]')
    if len(positions) > MAX_BATCH:
        raise ServeError(413, f"{len(positions):,} positions are over the limit of "
                              f"{MAX_BATCH:,} a request")
    for number, position in enumerate(positions):
        if not isinstance(position, str):
            raise ServeError(400, f"position {number}: a position is a string, got "
                                  f"{type(position).__name__}")
        if len(position) > MAX_POSITION_CHARS:
            raise ServeError(413, f"position {number}: {len(position):,} characters are over "
                                  f"the limit of {MAX_POSITION_CHARS:,}")
    db = served.db
    # lookup_many answers in bulk; a game that refuses some positions beyond what
    # the index knows (Game.unreachable_reason), or an answer the bulk path marks
    # illegal or cannot give, is asked one by one, so each error is lookup's own.
    one_by_one = type(db.game).unreachable_reason is not Game.unreachable_reason
    if not one_by_one:
        try:
            codes, distances = db.lookup_many(positions)
        except PositionError:
            one_by_one = True
        else:
            one_by_one = bool((codes == 0).any())
    if one_by_one:
        results = []
        for number, position in enumerate(positions):
            try:
                record = db.lookup(position)
            except PositionError as error:
                raise _position_error(error.__class__(f"position {number}: {error}")) from None
            results.append({"value": record.value, "remoteness": record.remoteness})
        return {"results": results}
    return {"results": [{"value": VALUES[code], "remoteness": None if distance < 0 else distance}
                        for code, distance in zip(codes.tolist(), distances.tolist())]}


# -- the page's view of a game ---------------------------------------------------------
def move_shape(game, sketch) -> dict[str, Any] | None:
    """A move's ``shape`` in the view's JSON (docs/SERVE.md): its ``MoveSketch``
    with squares named as in the notation."""
    from tiersolve.games.base import MOVE, PUSH, square_name

    if sketch is None:
        return None
    rows = game.board_shape()[0]
    squares = [square_name(row, col, rows) for row, col in sketch.cells]
    if sketch.kind == MOVE:
        path = sketch.path or sketch.cells
        return {"kind": MOVE, "from": squares[0], "to": squares[-1],
                "path": [[row, col] for row, col in path]}
    if sketch.kind == PUSH:
        return {"kind": PUSH, "side": sketch.side, "squares": squares}
    return {"kind": sketch.kind, "squares": squares}


def _points(path, room: float) -> str:
    """An SVG ``points`` list of (row, column) points of a board drawn with ``room``."""
    from tiersolve.games.board import board_point, number

    return " ".join(f"{number(x)},{number(y)}" for x, y in
                    (board_point(row, col, room) for row, col in path))


def _trimmed(path, length: float) -> list[tuple[float, float]]:
    """The path without its first ``length`` (cell units): a move's line starts at
    its piece's rim, not over the piece."""
    import math

    points = [tuple(map(float, point)) for point in path]
    while len(points) > 1:
        (r1, c1), (r2, c2) = points[0], points[1]
        step = math.hypot(r2 - r1, c2 - c1)
        if step > length:
            points[0] = (r1 + (r2 - r1) * length / step, c1 + (c2 - c1) * length / step)
            break
        length -= step
        points.pop(0)
    return points


def _marker(choice: dict[str, Any], sketch, room: float) -> str:
    """SVG of one move on the board, coloured by its value for its player and
    labelled with its remoteness: a disc on the square a piece is placed on; a bar
    over a domino's two squares; for a piece that moves, a disc on its target (and
    ``_way`` to it), shown when its piece is chosen (``data-from``); for a push, an
    arrow at the board's edge."""
    from html import escape

    from tiersolve.games.base import MOVE, PLACE, PUSH
    from tiersolve.games.board import BOARD_CELL, board_point, number

    colour = MOVE_COLOURS.get(choice["value"], "#888")
    remoteness = "" if choice["remoteness"] is None else str(choice["remoteness"])
    shape = choice["shape"]
    title = f"<title>{escape(choice['move'])}: {escape(choice['value'])}" \
            f"{' in ' + remoteness if remoteness else ''}</title>"
    attributes = f'class="move-marker" data-move="{escape(choice["move"], quote=True)}" ' \
                 f'data-kind="{sketch.kind}"'
    if sketch.kind == MOVE:
        attributes += f' data-from="{shape["from"]}" data-to="{shape["to"]}"'
    cells = sketch.cells

    def label(x: float, y: float) -> str:
        return (f'<text x="{number(x)}" y="{number(y + 4.5)}" font-size="13" font-weight="600" '
                f'text-anchor="middle" fill="#fff">{remoteness}</text>')

    def disc(row: float, col: float) -> str:
        x, y = board_point(row, col, room)
        return (f'<circle cx="{number(x)}" cy="{number(y)}" r="{BOARD_CELL * 0.3:.1f}" '
                f'fill="{colour}" fill-opacity="0.9" stroke="#fff" stroke-width="1.5"/>'
                + label(x, y))

    if sketch.kind == PLACE and len(cells) == 1:
        return f"<g {attributes}>{title}{disc(*cells[0])}</g>"
    if sketch.kind == PLACE:  # a domino: a bar, shortened so that dominoes in a line show apart
        (r1, c1), (r2, c2) = cells[0], cells[-1]
        ends = [(r1 + (r2 - r1) * 0.2, c1 + (c2 - c1) * 0.2),
                (r2 - (r2 - r1) * 0.2, c2 - (c2 - c1) * 0.2)]
        x, y = board_point((r1 + r2) / 2, (c1 + c2) / 2, room)
        return (f'<g {attributes}>{title}<polyline points="{_points(ends, room)}" '
                f'stroke="{colour}" stroke-opacity="0.9" stroke-width="{BOARD_CELL * 0.4:.0f}" '
                f'stroke-linecap="round"/>{label(x, y)}</g>')
    if sketch.kind == MOVE:
        return f"<g {attributes}>{title}{disc(*cells[-1])}</g>"
    if sketch.kind == PUSH:
        # a five-sided arrow just outside the entry square, pointing into the board
        dr, dc = PUSH_DIRECTIONS[sketch.side]
        row, col = cells[0][0] - PUSH_DISTANCE * dr, cells[0][1] - PUSH_DISTANCE * dc
        outline = [(row + u * dr + v * dc, col + u * dc + v * dr) for u, v in PUSH_ARROW]
        x, y = board_point(row, col, room)
        return (f'<g {attributes}>{title}<polygon points="{_points(outline, room)}" '
                f'fill="{colour}" fill-opacity="0.9" stroke="#fff" stroke-width="1.5"/>'
                f"{label(x, y)}</g>")
    return ""


def _way(choice: dict[str, Any], sketch, room: float) -> str:
    """SVG of the way a piece moves (round Surakarta's loops), from its rim to its
    target, in its move's colour: drawn under every move's disc, so that a way that
    passes another target hides none."""
    from html import escape

    way = _trimmed(sketch.path or sketch.cells, 0.38)
    return (f'<polyline class="way" data-move="{escape(choice["move"], quote=True)}" '
            f'data-from="{choice["shape"]["from"]}" points="{_points(way, room)}" fill="none" '
            f'stroke="{MOVE_COLOURS.get(choice["value"], "#888")}" stroke-opacity="0.9" '
            'stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/>')


def _sources(choices: list[dict[str, Any]], sketches, room: float) -> str:
    """SVG of a ring round each piece that can move: clicked, it shows that piece's
    moves (the page's script)."""
    from tiersolve.games.base import MOVE
    from tiersolve.games.board import BOARD_CELL, board_point, number

    rings = {}
    for choice, sketch in zip(choices, sketches):
        if sketch is not None and sketch.kind == MOVE and choice["shape"]["from"] not in rings:
            x, y = board_point(*sketch.cells[0], room)
            rings[choice["shape"]["from"]] = (
                f'<circle class="source" data-square="{choice["shape"]["from"]}" '
                f'cx="{number(x)}" cy="{number(y)}" r="{BOARD_CELL * 0.45:.1f}" fill="#fff" '
                'fill-opacity="0" stroke="#1d5fa8" stroke-width="2" stroke-dasharray="5 3"/>')
    return "".join(rings.values())


def last_move_cells(game, before: str, move: str, after: str) -> list[tuple[int, int]]:
    """The cells (top-down row, column) that show where ``move`` was played from
    ``before`` to ``after``: where a piece was placed; where a piece moved from and to;
    the square a pushed marker entered (its ``MoveSketch``). A move without one
    (Northcott's, Surround's) shows the cells it changed. None for a game without a
    board.

    >>> from tiersolve.games import make_game
    >>> game = make_game("pousse", size=3)
    >>> last_move_cells(game, "(x --- --- ---)", "L 1", "(o --- --- x--)")
    [(2, 0)]
    """
    from tiersolve.games.base import MOVE, PUSH

    grid, was = game.grid(game.parse(after)), game.grid(game.parse(before))
    if grid is None or was is None:
        return []
    rows, cols = len(grid), len(grid[0])
    sketch = game.move_sketch(game.parse(before), move)
    if sketch is None:
        cells = [(r, c) for r in range(rows) for c in range(cols) if grid[r][c] != was[r][c]]
    elif sketch.kind == MOVE:
        cells = [sketch.cells[0], sketch.cells[-1]]
    elif sketch.kind == PUSH:
        cells = [sketch.cells[0]]
    else:
        cells = list(sketch.cells)
    # (a piece taken from beside the board, as a drop, starts off it)
    return [(r, c) for r, c in cells if 0 <= r < rows and 0 <= c < cols]


#: The tint of the squares of the last move played, drawn under the pieces, and its
#: frame (blue: the values' green, yellow and red are the moves').
LAST_MOVE_FILL = "#3b82f6"
LAST_MOVE_EDGE = "#1d5fc8"
#: Where ``board_svg``'s squares end: the last move's tint goes after them.
SQUARE_END = re.compile(r'<rect [^>]*stroke="#8a6a3a" stroke-width="0.5"/>')


def _is_push(game, before: str, move: str) -> bool:
    from tiersolve.games.base import PUSH

    sketch = game.move_sketch(game.parse(before), move)
    return sketch is not None and sketch.kind == PUSH


def _last_move_marks(svg: str, cells: list[tuple[int, int]], rows: int, room: float) -> str:
    """``svg`` (a board of ``rows`` rows) with a tint on ``cells``, over the squares and
    under the pieces (on top of everything if the squares cannot be found)."""
    from tiersolve.games.base import square_name
    from tiersolve.games.board import BOARD_CELL, board_point, number

    if not cells:
        return svg
    inset = 1.2  # half the frame's width: the frame lies inside the square
    marks = "".join(
        f'<rect class="last-move" data-square="{square_name(r, c, rows)}" '
        f'x="{number(board_point(r, c, room)[0] - BOARD_CELL / 2 + inset)}" '
        f'y="{number(board_point(r, c, room)[1] - BOARD_CELL / 2 + inset)}" '
        f'width="{number(BOARD_CELL - 2 * inset)}" height="{number(BOARD_CELL - 2 * inset)}" '
        f'fill="{LAST_MOVE_FILL}" fill-opacity="0.2" stroke="{LAST_MOVE_EDGE}" '
        f'stroke-width="{number(2 * inset)}"/>'
        for r, c in cells)
    squares = list(SQUARE_END.finditer(svg))
    at = squares[-1].end() if squares else len(svg) - len("</svg>")
    return svg[:at] + marks + svg[at:]


def board_with_moves(game, position: str, caption: str, choices: list[dict[str, Any]],
                     last: tuple[str, str] | None = None) -> str:
    """``board_svg`` of the position with its moves drawn on it (``_marker``), worst
    first so that the best lie on top, and the last move played, ``last`` (the
    position before it, its name), marked (``last_move_cells``; under the text of a
    game without a board). Sets each choice's ``shape`` (where it is on the board, or
    None) and ``on_board``."""
    from tiersolve.games.base import MOVE, PUSH
    from tiersolve.games.board import board_room, board_svg

    state = game.parse(position)
    sketches = [game.move_sketch(state, choice["move"]) for choice in choices]
    room = board_room(game)
    if any(sketch is not None and sketch.kind == PUSH for sketch in sketches) or \
            (last is not None and _is_push(game, *last)):
        room = max(room, PUSH_ROOM)
    grid = game.grid(state)
    if last is not None and grid is None and not caption:
        caption = f"last move: {last[1]}"
    svg = board_svg(game, position, caption, room=room)
    if last is not None and grid is not None:
        svg = _last_move_marks(svg, last_move_cells(game, last[0], last[1], position),
                               len(grid), room)
    # a viewBox lets the page scale the picture to its room
    size = re.match(r'<svg xmlns="[^"]+" width="(\d+)" height="(\d+)"', svg)
    if size:
        svg = svg.replace(">", f' viewBox="0 0 {size[1]} {size[2]}" '
                               'preserveAspectRatio="xMinYMin meet">', 1)
    markers, ways = [], []
    for choice, sketch in zip(choices, sketches):
        choice["shape"] = move_shape(game, sketch)
        markers.append(_marker(choice, sketch, room) if sketch is not None else "")
        choice["on_board"] = bool(markers[-1])
        if sketch is not None and sketch.kind == MOVE:
            ways.append(_way(choice, sketch, room))
    return svg[:-len("</svg>")] + _sources(choices, sketches, room) + \
        "".join(reversed(ways)) + "".join(reversed(markers)) + "</svg>"


def _turn(position: str) -> str:
    """The turn letter of a position text: ``(x --- --- ---)`` -> ``x``."""
    return position.strip("( ").split(" ", 1)[0]


def _turn_name(game, position: str, plies: int) -> str:
    """The player to move, as the position names them, or for a game whose texts name
    no turn, by the moves played since the start shown (``first player`` after an even
    number)."""
    return game.turn_text(position) or ("first player" if plies % 2 == 0 else "second player")


def _other_player(game, position: str) -> str | None:
    """The player not to move in ``position``, as texts name it (``o`` in ``(x ...)``):
    the turn letter of the position with the turn changed (every game's state vector
    begins with the turn, 0 or 1: ``Game.state_fields``); None where that gives no other
    letter."""
    state = game.parse(position)
    if state[0] not in (0, 1):
        return None
    state[0] = 1 - state[0]
    try:
        other = _turn(game.format(state))
    except (ValueError, IndexError, KeyError):
        return None
    return other if other != _turn(position) else None


def game_result(game, position: str, value: str) -> str:
    """How a finished game ended, in the words a player uses: ``o wins`` (the winner
    named, as ``play`` names the loser), ``a tie``, ``a draw``; ``value`` is the
    position's for the player to move there.

    >>> from tiersolve.games import make_game
    >>> game_result(make_game("ttt", rows=3, cols=3), "(o xxx oo- ---)", "lose")
    'x wins'
    """
    turn = game.turn_text(position) or "the player to move"
    if value == "win":
        return f"{turn} wins"
    if value == "lose":
        other = _other_player(game, position)
        return f"{other} wins" if other else f"{turn} loses"
    return f"a {value}"


def game_name(game) -> str:
    """The game as a player names it: its title, its size and the options that differ
    from their defaults (``Lines of Action 4×4 (max-pieces 3)``), where the file's
    label says ``loa 4x4 (max-pieces 3)``.

    >>> from tiersolve.games import make_game
    >>> game_name(make_game("loa", rows=4, cols=4)), game_name(make_game("1210", target=7))
    ('Lines of Action 4×4', '1,2,...,10 (target 7)')
    """
    described = game.describe()
    size = described[len(game.name):].split(" (", 1)[0].strip().replace("x", "×")
    variants = described.partition(" (")[2]
    return " ".join(filter(None, [game.title, size])) + (f" ({variants}" if variants else "")


def page_hint(game, choices: list[dict[str, Any]]) -> str:
    """The line under the board that says how to play: choose a ringed piece (named as
    the game names it: a cube in Quixo), or click a move."""
    if any(choice.get("shape") and choice["shape"]["kind"] == "move" for choice in choices):
        return f"Click a ringed {game.piece_noun} to see its moves, then a disc to play one."
    if any(choice.get("on_board") for choice in choices):
        return "Click a move on the board or in the list to play it."
    return ""


def view_answer(served: Served, start: Any, moves: list[str]) -> dict[str, Any]:
    """``GET /api/NAME/view?start=TEXT&move=M&move=M...``: the game from ``start``
    (default: the database's start) after ``moves``, as the page shows it: the
    board with the moves on it, every move best first with its value for its player
    (under the repetition rule, given the game so far, where the game has one), and
    each position of the game so far with its value for the player to move there;
    the last move marked, how a finished game ended, and the hint under the board."""
    from tiersolve.errors import PositionError
    from tiersolve.games.base import square_name

    db, game = served.db, served.db.game
    start = served.db.start if start in (None, "") else _checked_position(start)
    if len(moves) > MAX_MOVES:
        raise ServeError(413, f"{len(moves):,} moves are over the limit of {MAX_MOVES:,}")
    repetition = bool(getattr(game, "repetition_loses", False))
    try:
        record = db.lookup(start)
        trail = [{"position": record.position, "move": None, "value": record.value,
                  "remoteness": record.remoteness,
                  "turn": _turn_name(game, record.position, 0)}]
        boards = {game.board_key(game.parse(record.position))} if repetition else set()
        repeated = None
        for number, move in enumerate(moves, start=1):
            if repeated is not None:
                raise ServeError(400, f"move {number}, {move!r}, follows a move that repeated "
                                      "a board, which ended the game")
            position = db.after(trail[-1]["position"], _checked_position(move))
            record = db.lookup(position)
            trail.append({"position": record.position, "move": move, "value": record.value,
                          "remoteness": record.remoteness,
                          "turn": _turn_name(game, record.position, number)})
            if repetition:
                board = game.board_key(game.parse(position))
                if board in boards:
                    repeated = move
                boards.add(board)
    except PositionError as error:
        raise _position_error(error) from None
    current = trail[-1]
    answer: dict[str, Any] = {"name": served.name, "game": served.summary["description"],
                              "title": game_name(game),
                              "start": trail[0]["position"], "moves": list(moves),
                              "position": current["position"], "value": current["value"],
                              "remoteness": current["remoteness"], "note": "",
                              "trail": trail, "turn": current["turn"]}
    if repeated is not None:
        # the player who made it lost at once: the one to move now has won
        answer.update(value="win", remoteness=0, choices=[], over=True,
                      note=f"{repeated} repeated a board: its player lost")
    elif repetition:
        from tiersolve.databases.history import ENDS, REPEATS, analyse

        report = analyse(db, trail[0]["position"], list(moves), node_limit=VIEW_NODE_LIMIT,
                         time_limit=VIEW_TIME_LIMIT)
        notes = {REPEATS: "repeats a board: loses at once", ENDS: "ends the game"}
        choices = []
        for verdict in report.moves:
            note = notes.get(verdict.reason,
                             "proven under the repetition rule" if verdict.proven else
                             "position game; not proven under the repetition rule")
            keeps_game_value = verdict.reason == ENDS or not verdict.proven
            choices.append({"move": verdict.move, "position": verdict.position,
                            "value": verdict.value,
                            "remoteness": verdict.game_remoteness if keeps_game_value else None,
                            "moves_again": False, "note": note})
        answer["choices"] = choices
        answer["over"] = not choices
        if report.proven:
            answer.update(value=report.value, remoteness=None,
                          note=f"under the repetition rule: {report.reason}")
        else:
            answer["note"] = "position game; not proven under the repetition rule"
    else:
        answer["choices"] = [{**m.as_dict(), "note": ""} for m in db.moves(current["position"])]
        answer["over"] = not answer["choices"]
    answer["result"] = game_result(game, current["position"], answer["value"]) \
        if answer["over"] else None
    last = (trail[-2]["position"], current["move"]) if len(trail) > 1 else None
    answer["last"] = None if last is None else {"move": last[1], "squares": [
        square_name(row, col, len(game.grid(game.parse(current["position"]))))
        for row, col in last_move_cells(game, *last, current["position"])]}
    # No caption: the page's status line says who is to move and the value, once.
    answer["svg"] = board_with_moves(game, current["position"], "", answer["choices"], last)
    answer["board"] = _board(game, current["position"])
    answer["hint"] = page_hint(game, answer["choices"])
    return answer


def _board(game, position: str) -> dict[str, Any] | None:
    """The view's ``board``: its size and the lines drawn on it (Surakarta's circuits,
    as (row, column) points), or None for a game without one."""
    grid = game.grid(game.parse(position))
    if grid is None:
        return None
    return {"rows": len(grid), "cols": len(grid[0]),
            "paths": [[[row, col] for row, col in path] for path in game.board_paths()]}


# -- the application --------------------------------------------------------------------
def _static_files() -> dict[str, bytes]:
    """The page's files from the package (read once: a request reads no file)."""
    folder = resources.files("tiersolve.cli") / "static"
    return {name: (folder / name).read_bytes() for name in STATIC_FILES}


def create_app(served: dict[str, Served], cache_size: int = DEFAULT_CACHE,
               refused: Sequence[dict[str, str]] = ()):
    """The Starlette application over already opened databases; the last
    ``cache_size`` answers to single positions are kept (0: none). ``refused``: what
    ``/api/databases`` says of the files of the folder that could not be opened
    (``Refused.summary``).

    >>> create_app({}).state.served
    {}
    """
    import orjson
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    class JSONBytes(Response):
        media_type = "application/json"

        def render(self, content: Any) -> bytes:
            return orjson.dumps(content)

    def error(status: int, message: str) -> Response:
        return JSONBytes({"error": message}, status_code=status)

    def database(request: Request) -> Served:
        name = request.path_params["name"]
        if name not in served:
            shown = name if len(name) <= 100 else name[:100] + "..."
            raise ServeError(404, f"no database named {shown!r}; served: "
                                  f"{', '.join(served) or 'none'}")
        return served[name]

    def answer(compute, request: Request, *args) -> Response:
        try:
            return JSONBytes(compute(database(request), *args))
        except ServeError as refused:
            return error(refused.status, refused.message)

    # The databases are read-only, so an answer kept is still right: a page's visitors
    # ask about the same positions again and again (the start, the first moves).
    # Errors are not kept (lru_cache keeps no exception).
    single_answers = {"position": position_answer, "best": best_answer, "line": line_answer}

    def encoded(name: str, kind: str, position: str | None) -> bytes:
        return orjson.dumps(single_answers[kind](served[name], position))

    if cache_size:
        encoded = functools.lru_cache(maxsize=cache_size)(encoded)

    def single(kind: str, request: Request) -> Response:
        try:
            name = database(request).name
            body = encoded(name, kind, request.query_params.get("position"))
        except ServeError as refused:
            return error(refused.status, refused.message)
        return Response(body, media_type="application/json")

    not_served = list(refused)

    async def databases(request: Request) -> Response:
        return JSONBytes({"databases": [s.summary for s in served.values()],
                          "refused": not_served})

    async def position(request: Request) -> Response:
        return single("position", request)

    async def best(request: Request) -> Response:
        return single("best", request)

    async def line(request: Request) -> Response:
        return single("line", request)

    async def view(request: Request) -> Response:
        return answer(view_answer, request, request.query_params.get("start"),
                      request.query_params.getlist("move"))

    async def lookup(request: Request) -> Response:
        try:
            database(request)  # an unknown name is a 404 before any body is read
        except ServeError as refused:
            return error(refused.status, refused.message)
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            return error(413, f"a body of {int(declared):,} bytes is over the limit of "
                              f"{MAX_BODY_BYTES:,}")
        body = bytearray()
        async for piece in request.stream():  # a body without a length is counted as read
            body += piece
            if len(body) > MAX_BODY_BYTES:
                return error(413, f"a body over {MAX_BODY_BYTES:,} bytes is over the limit")
        try:
            positions = orjson.loads(body)
        except orjson.JSONDecodeError as bad:
            return error(400, f"the body is not JSON: {bad}")
        return answer(batch_answer, request, positions)

    pages = _static_files()

    def static(name: str):
        async def respond(request: Request) -> Response:
            return Response(pages[name], media_type=STATIC_FILES[name],
                            headers={"cache-control": "no-cache"})
        return respond

    async def http_error(request: Request, exc: HTTPException) -> Response:
        message = {404: f"no such path: {request.url.path[:200]}",
                   405: f"method {request.method} is not allowed here"}.get(
            exc.status_code, str(exc.detail))
        headers = getattr(exc, "headers", None)
        response = error(exc.status_code, message)
        if headers:
            response.headers.update(headers)
        return response

    async def internal_error(request: Request, exc: Exception) -> Response:
        # never a traceback to the client; the server's log has it
        return error(500, f"internal error: {type(exc).__name__}")

    routes = [
        Route("/", static("index.html")),
        Route("/app.js", static("app.js")),
        Route("/style.css", static("style.css")),
        Route("/api/databases", databases),
        Route("/api/{name}", position),
        Route("/api/{name}/best", best),
        Route("/api/{name}/line", line),
        Route("/api/{name}/view", view),
        Route("/api/{name}/lookup", lookup, methods=["POST"]),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error,
                                                       Exception: internal_error})
    app.state.served = served
    return app


#: The environment variable that tells each worker process what to serve (JSON).
SERVED_FILES_VARIABLE = "TIERSOLVE_SERVE_FILES"


def app_from_environment():
    """The application a uvicorn worker process builds: it opens the databases named
    in ``$TIERSOLVE_SERVE_FILES`` (JSON: ``{"files": {name: path}, "cache": N,
    "refused": [summary, ...]}``: the files the main process opened, and those it
    could not, which no worker tries again)."""
    told = json.loads(os.environ[SERVED_FILES_VARIABLE])
    paths = {name: Path(path) for name, path in told["files"].items()}
    return create_app(open_served(paths), told["cache"], told.get("refused", ()))


# -- the command --------------------------------------------------------------------------
def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free one) to 65535.

    >>> port_number("8080")
    8080
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be 0 to 65535 (0: any free port), got {value}")
    return value


def serve_parser(prog: str = "serve") -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=prog,
        description="Serve databases read-only over HTTP: a JSON API (docs/SERVE.md) and a page\n"
                    "to explore the games in a browser. Each database is named by its file\n"
                    "stem (db/ttt_3x3.h5 is ttt_3x3). Without --check it serves until Ctrl-C:\n"
                    "  tiersolve serve --dir db     then open http://127.0.0.1:8000/",
        epilog="examples (--check opens the databases, says what it would serve, and stops):\n"
               "  tiersolve build ttt --rows 3 --cols 3 --quiet\n"
               "  tiersolve serve db/ttt_3x3.h5 --check\n"
               "  tiersolve serve --dir db --port 8080 --workers 2 --check")
    parser.add_argument("files", metavar="FILE.h5", nargs="*",
                        help="database files to serve (default: every *.h5 in --dir)")
    parser.add_argument("--dir", metavar="DIR", default=None,
                        help="serve every database file in DIR (default: $TIERSOLVE_DB_DIR, "
                             "where builds write them, else db/)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=port_number, default=8000,
                        help="the port (default 8000; 0: any free port)")
    parser.add_argument("--workers", type=whole_number(1), default=1, metavar="N",
                        help="worker processes, each with the databases open (default 1)")
    parser.add_argument("--cache", type=whole_number(0), default=DEFAULT_CACHE, metavar="N",
                        help=f"answers to single positions each worker keeps (default "
                             f"{DEFAULT_CACHE}; 0: none)")
    parser.add_argument("--check", action="store_true",
                        help="open the databases, print what would be served, and stop")
    return parser


def serve_main(argv: Sequence[str] | None = None, prog: str = "serve") -> int:
    """Entry point of ``tiersolve serve``."""
    from tiersolve.databases.naming import plural
    from tiersolve.errors import TiersolveError

    parser = serve_parser(prog)
    args = parser.parse_args(argv)
    if args.files and args.dir is not None:
        return fail(parser.prog, "give database files or --dir, not both")
    if args.port == 0 and args.workers > 1:
        return fail(parser.prog, "--port 0 works with one worker only (each would pick its own)")
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401 (here to say at once what is missing)
    except ImportError as missing:
        return fail(parser.prog, f"the server needs the serve extra ({missing.name} is missing): "
                                 "pip install 'tiersolve[serve]'")
    # Files named on the command line are served all or none; in a folder, a file that
    # cannot be opened (damaged, of another version) is left out and the others served.
    refused: dict[str, Refused] | None = None if args.files else {}
    try:
        paths = find_databases(args.files, args.dir)
        served = open_served(paths, refused)
    except (ValueError, TiersolveError) as error:
        return fail(parser.prog, str(error))
    refused = refused or {}
    if not served:
        first = next(iter(refused.values()))
        reason = first.reason.replace(first.path.name, str(first.path), 1)
        return fail(parser.prog, reason if len(refused) == 1 else
                    f"none of the {len(refused)} database files in {first.path.parent} can be "
                    f"served; the first: {reason}")
    for item in refused.values():
        print(f"{parser.prog}: leaving out {item.path}: {item.reason}", file=sys.stderr,
              flush=True)
    for name in paths:
        if name in served:
            summary = served[name].summary
            print(f"{name}: {summary['description']}, start {summary['start']} "
                  f"{summary['start_value']}")
        elif args.check:
            print(f"{name}: not served: {refused[name].reason}")
    host = f"[{args.host}]" if ":" in args.host else args.host
    if args.check:
        left_out = f" ({plural(len(refused), 'file')} left out)" if refused else ""
        print(f"would serve {plural(len(served), 'database')} at http://{host}:{args.port}/"
              f"{left_out}")
        return 0
    return _run(served, paths, args, host, parser.prog, list(refused.values()))


def _listen(host: str, port: int):
    """A socket listening on ``host:port``; ValueError, one line saying why, if the
    address cannot be had (in use, not this machine's, a host that is no address)."""
    import errno
    import socket

    try:
        return socket.create_server((host, port),
                                    family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    except OSError as error:
        # create_server adds "(while attempting to bind on address ...)": said already
        reason = (error.strerror or str(error)).split(" (while attempting")[0].lower()
        advice = {errno.EADDRINUSE: "; another program listens there: choose another --port "
                                    "(0: any free one)",
                  errno.EADDRNOTAVAIL: "; --host must be an address of this machine "
                                       "(127.0.0.1, or 0.0.0.0 for all of them)"}
        raise ValueError(f"cannot listen on {host}:{port}: {reason}"
                         f"{advice.get(error.errno, '')}") from None


def _run(served: dict[str, Served], paths: dict[str, Path], args, host: str,
         prog: str = "tiersolve serve", refused: Sequence[Refused] = ()) -> int:
    """Serve until Ctrl-C (or SIGTERM); prints the address once it listens. An
    address that cannot be listened on is a mistake: one line, exit code 2."""
    import uvicorn

    try:  # bound here, so that the address printed is the real one (--port 0)
        listening = _listen(args.host, args.port)
    except ValueError as error:
        for item in served.values():
            item.db.close()
        return fail(prog, str(error))
    if args.workers > 1:
        # uvicorn binds the address again for its workers; tried above, so that a
        # mistake is one line here rather than its log line and exit code 3
        listening.close()
        for item in served.values():  # each worker opens its own
            item.db.close()
        os.environ[SERVED_FILES_VARIABLE] = json.dumps(
            {"files": {n: str(p.resolve()) for n, p in paths.items() if n in served},
             "cache": args.cache, "refused": [item.summary for item in refused]})
        print(f"serving at http://{host}:{args.port}/ with {args.workers} workers "
              "(Ctrl-C to stop)", flush=True)
        uvicorn.run("tiersolve.cli.serve:app_from_environment", factory=True, host=args.host,
                    port=args.port, workers=args.workers, log_level="warning",
                    access_log=False)
        return 0
    port = listening.getsockname()[1]
    config = uvicorn.Config(create_app(served, args.cache, [item.summary for item in refused]),
                            log_level="warning", access_log=False)
    print(f"serving at http://{host}:{port}/ (Ctrl-C to stop)", flush=True)
    try:
        uvicorn.Server(config).run(sockets=[listening])  # stops cleanly on Ctrl-C and SIGTERM
    except KeyboardInterrupt:  # uvicorn raises the signal again once it has stopped
        pass
    finally:
        for item in served.values():
            item.db.close()
    print("stopped", flush=True)
    return 0
