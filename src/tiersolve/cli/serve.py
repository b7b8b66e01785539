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
#: A square's name inside a move's name (``b4xb3``, ``a4-a5``, ``b2 right to d2``).
SQUARE = re.compile(r"([a-z])(\d+)")


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
    that is not there, two files with one stem, or nothing to serve.

    >>> find_databases([], "/no/such/folder")
    Traceback (most recent call last):
    ...
    ValueError: no folder /no/such/folder to serve databases from
    """
    found: dict[str, Path] = {}
    if files:
        paths = [Path(f) for f in files]
        for path in paths:
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


def open_served(paths: dict[str, Path]) -> dict[str, Served]:
    """Open every database once; the first that cannot be opened raises its
    TiersolveError (one line)."""
    from tiersolve.databases import open_database

    served = {}
    for name, path in paths.items():
        db = open_database(path)
        info = asdict(db.info())
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
def _move_cells(game, move: str) -> list[tuple[int, int]]:
    """The board cells a move's name names, in order (none for Pousse's ``L 2``)."""
    try:
        rows, cols = game.board_shape()
    except KeyError:
        return []
    from tiersolve.games.base import parse_square

    cells = []
    for letter, number in SQUARE.findall(move):
        try:
            cells.append(parse_square(letter + number, rows, cols))
        except ValueError:
            return []
    return cells


def _marker(game, position: str, choice: dict[str, Any]) -> str:
    """SVG of one move on the board, coloured by its value for its player: a disc
    with the remoteness on the square it names; a bar over two empty squares (a
    domino); an arrow from one square to another (a piece moving)."""
    from html import escape

    from tiersolve.games.board import BOARD_CELL, EMPTY, cell_centre

    cells = _move_cells(game, choice["move"])
    if not 1 <= len(cells) <= 2:
        return ""
    colour = MOVE_COLOURS.get(choice["value"], "#888")
    remoteness = "" if choice["remoteness"] is None else str(choice["remoteness"])
    title = f"<title>{escape(choice['move'])}: {escape(choice['value'])}" \
            f"{' in ' + remoteness if remoteness else ''}</title>"
    attributes = f'class="move-marker" data-move="{escape(choice["move"], quote=True)}"'
    points = [cell_centre(r, c) for r, c in cells]
    if len(cells) == 1:
        (x, y), = points
        return (f'<g {attributes}>{title}<circle cx="{x}" cy="{y}" r="{BOARD_CELL * 0.3:.1f}" '
                f'fill="{colour}" fill-opacity="0.85" stroke="#fff"/>'
                f'<text x="{x}" y="{y + 4}" font-size="12" text-anchor="middle" fill="#fff">'
                f"{remoteness}</text></g>")
    (x1, y1), (x2, y2) = points
    grid = game.grid(game.parse(position)) or []
    (r1, c1) = cells[0]
    if grid and grid[r1][c1] == EMPTY:  # nothing moves from there: a piece is placed on both
        # shortened at both ends, so that dominoes in a line show as separate bars
        dx, dy = (x2 - x1) * 0.2, (y2 - y1) * 0.2
        x1, y1, x2, y2 = round(x1 + dx), round(y1 + dy), round(x2 - dx), round(y2 - dy)
        return (f'<g {attributes}>{title}<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                f'stroke="{colour}" stroke-opacity="0.85" stroke-width="{BOARD_CELL * 0.28:.0f}" '
                f'stroke-linecap="round"/></g>')
    value = choice["value"] if choice["value"] in MOVE_COLOURS else "draw"
    return (f'<g {attributes}>{title}<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
            f'stroke="{colour}" stroke-opacity="0.85" stroke-width="5" '
            f'marker-end="url(#head-{value})"/></g>')


def board_with_moves(game, position: str, caption: str, choices: list[dict[str, Any]]) -> str:
    """``board_svg`` of the position with every move it can show drawn on it."""
    from tiersolve.games.board import board_svg

    svg = board_svg(game, position, caption)
    # a viewBox lets the page scale the picture to its room
    size = re.match(r'<svg xmlns="[^"]+" width="(\d+)" height="(\d+)"', svg)
    if size:
        svg = svg.replace(">", f' viewBox="0 0 {size[1]} {size[2]}">', 1)
    markers = [_marker(game, position, choice) for choice in choices]
    for choice, marker in zip(choices, markers):
        choice["on_board"] = bool(marker)
    heads = "".join(
        f'<marker id="head-{value}" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" '
        f'markerHeight="4" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
        for value, colour in MOVE_COLOURS.items())
    return svg[:-len("</svg>")] + f"<defs>{heads}</defs>" + "".join(markers) + "</svg>"


def _turn(position: str) -> str:
    """The turn letter of a position text: ``(x --- --- ---)`` -> ``x``."""
    return position.strip("( ").split(" ", 1)[0]


def view_answer(served: Served, start: Any, moves: list[str]) -> dict[str, Any]:
    """``GET /api/NAME/view?start=TEXT&move=M&move=M...``: the game from ``start``
    (default: the database's start) after ``moves``, as the page shows it: the
    board with the moves on it, every move best first with its value for its player
    (under the repetition rule, given the game so far, where the game has one), and
    each position of the game so far with its value for the player to move there."""
    from tiersolve.errors import PositionError

    db, game = served.db, served.db.game
    start = served.db.start if start in (None, "") else _checked_position(start)
    if len(moves) > MAX_MOVES:
        raise ServeError(413, f"{len(moves):,} moves are over the limit of {MAX_MOVES:,}")
    repetition = bool(getattr(game, "repetition_loses", False))
    try:
        record = db.lookup(start)
        trail = [{"position": record.position, "move": None, "value": record.value,
                  "remoteness": record.remoteness, "turn": _turn(record.position)}]
        boards = {game.board_key(game.parse(record.position))} if repetition else set()
        repeated = None
        for number, move in enumerate(moves, start=1):
            if repeated is not None:
                raise ServeError(400, f"move {number}, {move!r}, follows a move that repeated "
                                      "a board, which ended the game")
            position = db.after(trail[-1]["position"], _checked_position(move))
            record = db.lookup(position)
            trail.append({"position": record.position, "move": move, "value": record.value,
                          "remoteness": record.remoteness, "turn": _turn(record.position)})
            if repetition:
                board = game.board_key(game.parse(position))
                if board in boards:
                    repeated = move
                boards.add(board)
    except PositionError as error:
        raise _position_error(error) from None
    current = trail[-1]
    answer: dict[str, Any] = {"name": served.name, "game": served.summary["description"],
                              "start": trail[0]["position"], "moves": list(moves),
                              "position": current["position"], "value": current["value"],
                              "remoteness": current["remoteness"], "note": "",
                              "trail": trail}
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
    # No caption: the page's status line says who is to move and the value, once.
    answer["svg"] = board_with_moves(game, current["position"], "", answer["choices"])
    return answer


# -- the application --------------------------------------------------------------------
def _static_files() -> dict[str, bytes]:
    """The page's files from the package (read once: a request reads no file)."""
    folder = resources.files("tiersolve.cli") / "static"
    return {name: (folder / name).read_bytes() for name in STATIC_FILES}


def create_app(served: dict[str, Served], cache_size: int = DEFAULT_CACHE):
    """The Starlette application over already opened databases; the last
    ``cache_size`` answers to single positions are kept (0: none).

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

    async def databases(request: Request) -> Response:
        return JSONBytes({"databases": [s.summary for s in served.values()]})

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
    in ``$TIERSOLVE_SERVE_FILES`` (JSON: ``{"files": {name: path}, "cache": N}``)."""
    told = json.loads(os.environ[SERVED_FILES_VARIABLE])
    paths = {name: Path(path) for name, path in told["files"].items()}
    return create_app(open_served(paths), told["cache"])


# -- the command --------------------------------------------------------------------------
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
    parser.add_argument("--port", type=whole_number(0), default=8000,
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
    try:
        paths = find_databases(args.files, args.dir)
        served = open_served(paths)
    except (ValueError, TiersolveError) as error:
        return fail(parser.prog, str(error))
    for item in served.values():
        summary = item.summary
        print(f"{item.name}: {summary['description']}, start {summary['start']} "
              f"{summary['start_value']}")
    host = f"[{args.host}]" if ":" in args.host else args.host
    if args.check:
        print(f"would serve {len(served)} database{'s' if len(served) != 1 else ''} at "
              f"http://{host}:{args.port}/")
        return 0
    return _run(served, paths, args, host)


def _run(served: dict[str, Served], paths: dict[str, Path], args, host: str) -> int:
    """Serve until Ctrl-C (or SIGTERM); prints the address once it listens."""
    import uvicorn

    if args.workers > 1:
        for item in served.values():  # each worker opens its own
            item.db.close()
        os.environ[SERVED_FILES_VARIABLE] = json.dumps(
            {"files": {n: str(p.resolve()) for n, p in paths.items()}, "cache": args.cache})
        print(f"serving at http://{host}:{args.port}/ with {args.workers} workers "
              "(Ctrl-C to stop)", flush=True)
        uvicorn.run("tiersolve.cli.serve:app_from_environment", factory=True, host=args.host,
                    port=args.port, workers=args.workers, log_level="warning",
                    access_log=False)
        return 0
    import socket

    try:  # bound here, so that the address printed is the real one (--port 0)
        listening = socket.create_server((args.host, args.port),
                                         family=socket.AF_INET6 if ":" in args.host else socket.AF_INET)
    except OSError as error:
        for item in served.values():
            item.db.close()
        print(f"tiersolve serve: error: cannot listen on {args.host}:{args.port}: "
              f"{error.strerror or error}", file=sys.stderr)
        return 1
    port = listening.getsockname()[1]
    config = uvicorn.Config(create_app(served, args.cache), log_level="warning",
                            access_log=False)
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
