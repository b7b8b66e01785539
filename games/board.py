"""Drawing a position: a text grid with coordinates for the terminal, an SVG picture
for Jupyter. Both read ``Game.grid``; a game without a board shows its text.

>>> from tiersolve.games import make_game
>>> game = make_game("ttt", rows=3, cols=3)
>>> print("\\n".join(board_lines(game, "(o x-- -o- --x)")))
    a b c
 3  x . .
 2  . o .
 1  . . x
"""

from __future__ import annotations

from html import escape

from tiersolve.games.base import Game, hand_cell

#: Fill colours of pieces drawn as discs (anything else: grey with its letter).
PIECE_COLOURS = {
    "b": "#222222", "L": "#1f5fbf", "K": "#eeeeee", "N": "#eeeeee",
    "w": "#f4f4f4", "R": "#bf3f1f", "k": "#222222", "n": "#222222",
}
#: Letters drawn on pieces whose colour alone does not tell them apart.
LABELLED = set("LRKNkn")
#: Marks drawn as their letter, as the text notation writes them (Tic-Tac-Toe's and
#: Pousse's x and o, Surround's grown cells), not as discs of a colour, unless the
#: game gives them one (``Game.piece_colours``).
MARKS = set("xo")
#: A cell covered by a domino (Domineering), drawn as a filled square.
COVERED = "#"
EMPTY = "-"
#: A cell that is no point of a board of points (``Game.board_of_points``: Kaooa).
NO_POINT = " "
#: Width of a caption character at the caption's font size, generously (sans-serif).
CAPTION_CHAR_WIDTH = 8
#: A cell's side in ``board_svg``'s pictures, and the margin on the left that holds
#: the row numbers (pixels).
BOARD_CELL = 36
BOARD_MARGIN = 22


def _grid(game: Game, position: str) -> list[str] | None:
    return game.grid(game.parse(position))


def _has_hands(game: Game) -> bool:
    return type(game).pieces_in_hand is not Game.pieces_in_hand


def _hand_text(game: Game, position: str, side: int) -> str:
    """``hand: GGc``: the pieces side ``side`` holds off the board, by column."""
    held = sorted((column, letter * count) for held_by, column, letter, count
                  in game.pieces_in_hand(game.parse(position)) if held_by == side)
    return "hand: " + ("".join(letters for _, letters in held) or "-")


def board_lines(game: Game, position: str) -> list[str]:
    """The board as text lines: column letters on top, row numbers (bottom row 1) on
    the left, ``.`` for an empty cell. A game without a board gives its text."""
    grid = _grid(game, position)
    if grid is None:
        return [position]
    rows = len(grid)
    width = len(str(rows))
    if type(game).board_of_points:  # no coordinates: an empty point shows its name
        names = game.point_names()
        return ["    (an empty point shows its name)"] + [
            "    " + " ".join(names.get((r, c), ch) if ch == EMPTY else ch
                              for c, ch in enumerate(row)).rstrip()
            for r, row in enumerate(grid)]
    header = " " * (width + 3) + " ".join(chr(ord("a") + c) for c in range(len(grid[0])))
    lines = [header]
    for r, row in enumerate(grid):
        cells = " ".join("." if ch == EMPTY else ch for ch in row)
        lines.append(f" {rows - r:>{width}}  {cells}")
    if _has_hands(game):  # the first player's under the board, the second's over it
        indent = " " * (width + 3)
        return [indent + _hand_text(game, position, 1), *lines,
                indent + _hand_text(game, position, 0)]
    return lines


def cell_centre(row: int, col: int, cell: int = BOARD_CELL) -> tuple[int, int]:
    """Where the centre of a cell (top-down row, column) is in ``board_svg``'s picture:
    what is drawn over a board (``tiersolve serve`` draws its moves) goes there.

    >>> cell_centre(0, 0), cell_centre(2, 1)
    ((40, 18), (76, 90))
    """
    return BOARD_MARGIN + col * cell + cell // 2, row * cell + cell // 2


#: Colours of the lines drawn on a board (``Game.board_paths``: Surakarta's circuits),
#: apart from the green, yellow and red that mark moves' values.
PATH_COLOURS = ("#3467b0", "#8a4bb0", "#2b8c8c", "#6b6b6b")
#: The colour of a board of points' lines (Kaooa's pentagram).
LINE_COLOUR = "#7a5a2a"


def board_room(game: Game) -> float:
    """How far (in cells) the board's lines (``Game.board_paths``) reach beyond its
    edges: the room ``board_svg`` leaves around the board for them.

    >>> from tiersolve.games import make_game
    >>> board_room(make_game("ttt")), board_room(make_game("surakarta", size=6))
    (0.0, 1.6)
    """
    try:
        rows, cols = game.board_shape()
    except KeyError:
        return 0.0
    reach = 1.0 if _has_hands(game) else 0.0  # a row of pieces in hand over and under it
    for path in game.board_paths():
        for row, col in path:
            reach = max(reach, -0.5 - row, row - rows + 0.5, -0.5 - col, col - cols + 0.5)
    return 0.0 if reach <= 0 else round(reach + 0.1, 1)  # + 0.1: the line's width


def board_point(row: float, col: float, room: float = 0.0,
                cell: int = BOARD_CELL) -> tuple[float, float]:
    """Where point (row, column) is in a ``board_svg`` picture drawn with ``room``
    cells around the board, in the cell units of ``MoveSketch.path``: (0, 0) is the
    top-left cell's centre, (0.5, 0) the middle of its lower edge.

    >>> board_point(2, 1), board_point(0, 0, room=1)
    ((76.0, 90.0), (76.0, 54.0))
    """
    pad = round(room * cell)  # as board_svg rounds it
    return BOARD_MARGIN + pad + (col + 0.5) * cell, pad + (row + 0.5) * cell


def number(value: float) -> str:
    """A coordinate for SVG: at most one decimal, none when whole.

    >>> number(40.0), number(17.25), number(-3.04)
    ('40', '17.2', '-3')
    """
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _piece(game: Game, ch: str, cx: float, cy: float, cell: int) -> str:
    """SVG of the piece ``ch`` centred on (cx, cy): a disc of its colour (the game's
    ``piece_colours``, else ``PIECE_COLOURS``, else grey), with its letter when the
    colour alone does not tell it."""
    own = type(game).piece_colours
    fill = own.get(ch) or PIECE_COLOURS.get(ch, "#9a9a9a")
    disc = (f'<circle cx="{number(cx)}" cy="{number(cy)}" r="{cell * 0.38:.1f}" fill="{fill}" '
            'stroke="#333" stroke-width="1"/>')
    if ch in own or ch in LABELLED or ch not in PIECE_COLOURS:
        ink = "#000" if fill in ("#eeeeee", "#f4f4f4", "#9a9a9a") else "#fff"
        disc += (f'<text x="{number(cx)}" y="{number(cy + 5)}" font-size="14" '
                 f'text-anchor="middle" fill="{ink}">{escape(ch)}</text>')
    return disc


def board_svg(game: Game, position: str, caption: str = "", cell: int = BOARD_CELL,
              room: float | None = None) -> str:
    """An SVG picture of the position, with coordinates and an optional caption, and
    ``room`` cells around the board (default: what its lines need, ``board_room``)
    between it and the coordinates."""
    grid = _grid(game, position)
    lines = [escape(caption)] if caption else []
    picture = game.picture_svg(game.parse(position), caption) if grid is None else None
    if picture is not None:  # a game without a board that draws itself (heaps)
        return picture
    if grid is None:
        text = [escape(position), *lines]
        height = 22 * len(text) + 10
        body = "".join(f'<text x="8" y="{22 * (i + 1)}" font-family="monospace" font-size="16">'
                       f"{t}</text>" for i, t in enumerate(text))
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{16 + 10 * max(map(len, text))}" '
                f'height="{height}">{body}</svg>')
    rows, cols = len(grid), len(grid[0])
    margin = BOARD_MARGIN
    if room is None:
        room = board_room(game)
    pad = round(room * cell)
    caption_width = 8 + CAPTION_CHAR_WIDTH * max(map(len, lines), default=0)
    width = max(margin + 2 * pad + cols * cell + 4, caption_width)
    height = margin + 2 * pad + rows * cell + 6 + 20 * len(lines)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif">']
    on_points = type(game).board_of_points
    lines_drawn = []
    for index, path in enumerate(game.board_paths()):  # under the pieces
        points = " ".join(f"{number(x)},{number(y)}" for x, y in
                          (board_point(r, c, room, cell) for r, c in path))
        colour = LINE_COLOUR if on_points else PATH_COLOURS[index % len(PATH_COLOURS)]
        lines_drawn.append(f'<polyline class="board-path" points="{points}" fill="none" '
                           f'stroke="{colour}" stroke-width="2.5" stroke-linejoin="round"/>')
    names = game.point_names() if on_points else {}
    if on_points:  # one ground, the lines on it, a round spot on each point over them
        parts.append(f'<rect x="{margin}" y="0" width="{2 * pad + cols * cell}" '
                     f'height="{2 * pad + rows * cell}" fill="#f3e6c8"/>')
        parts.extend(lines_drawn)
    for r, row in enumerate(grid):
        y = pad + r * cell
        if not on_points:  # (a board of points names its points instead)
            parts.append(f'<text x="{margin // 2}" y="{y + cell // 2 + 5}" font-size="13" '
                         f'text-anchor="middle">{rows - r}</text>')
        for c in range(cols):
            shade = "#e8d0a0" if (r + c) % 2 == 0 else "#d2b07a"
            if on_points:  # nothing where there is no point
                if row[c] != NO_POINT:
                    parts.append(f'<rect x="{margin + pad + c * cell + 4}" y="{y + 4}" '
                                 f'width="{cell - 8}" height="{cell - 8}" rx="{cell // 2 - 4}" '
                                 'fill="#e8d0a0" stroke="#8a6a3a" stroke-width="0.5"/>')
                    if (r, c) in names:  # the point's name, small, at its upper left
                        parts.append(f'<text class="point-name" x="{margin + pad + c * cell}" '
                                     f'y="{y + 8}" font-size="10" fill="#6b5a3a">'
                                     f'{escape(names[(r, c)])}</text>')
                continue
            parts.append(f'<rect x="{margin + pad + c * cell}" y="{y}" width="{cell}" '
                         f'height="{cell}" fill="{shade}" stroke="#8a6a3a" stroke-width="0.5"/>')
    if not on_points:
        parts.extend(lines_drawn)
    own_squares = type(game).square_svg is not Game.square_svg
    state = game.parse(position) if _has_hands(game) or own_squares else None
    for r, row in enumerate(grid):
        y = pad + r * cell
        for c, ch in enumerate(row):
            x = margin + pad + c * cell
            if ch in (EMPTY, NO_POINT):
                continue
            cx, cy = x + cell // 2, y + cell // 2
            if ch in MARKS and ch not in type(game).piece_colours:  # a game may colour them
                parts.append(f'<text x="{cx}" y="{cy + cell // 4}" font-size="{int(cell * 0.8)}" '
                             f'text-anchor="middle" fill="#222">{ch}</text>')
                continue
            if ch == COVERED:
                parts.append(f'<rect x="{x + 3}" y="{y + 3}" width="{cell - 6}" height="{cell - 6}" '
                             'fill="#5a4630"/>')
                continue
            square = game.square_svg(state, r, c, cx, cy, cell) if own_squares else None
            parts.append(square if square is not None else _piece(game, ch, cx, cy, cell))
    for side, column, letter, count in game.pieces_in_hand(state) if state is not None else ():
        x, y = board_point(*hand_cell(side, column, rows), room, cell)
        parts.append(f'<g class="in-hand" data-side="{side}">{_piece(game, letter, x, y, cell)}')
        if count > 1:  # how many, on a badge at the top right
            bx, by = number(x + cell * 0.3), number(y - cell * 0.3)
            parts.append(f'<circle cx="{bx}" cy="{by}" r="7" fill="#fff" stroke="#333" '
                         f'stroke-width="1"/><text x="{bx}" y="{number(y - cell * 0.3 + 4)}" '
                         f'font-size="10" text-anchor="middle">{count}</text>')
        parts.append("</g>")
    for c in range(0 if on_points else cols):
        parts.append(f'<text x="{margin + pad + c * cell + cell // 2}" '
                     f'y="{2 * pad + rows * cell + 16}" font-size="13" text-anchor="middle">'
                     f'{chr(ord("a") + c)}</text>')
    for i, line in enumerate(lines):
        parts.append(f'<text x="4" y="{2 * pad + rows * cell + 38 + 20 * i}" font-size="14">'
                     f'{line}</text>')
    parts.append("</svg>")
    return "".join(parts)
