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

from tiersolve.games.base import Game

#: Fill colours of pieces drawn as discs (anything else: grey with its letter).
PIECE_COLOURS = {
    "b": "#222222", "L": "#1f5fbf", "K": "#eeeeee", "N": "#eeeeee",
    "w": "#f4f4f4", "R": "#bf3f1f", "k": "#222222", "n": "#222222",
}
#: Letters drawn on pieces whose colour alone does not tell them apart.
LABELLED = set("LRKNkn")
#: Marks drawn as their letter, as the text notation writes them (Tic-Tac-Toe's and
#: Pousse's x and o, Surround's grown cells), not as discs of a colour.
MARKS = set("xo")
#: A cell covered by a domino (Domineering), drawn as a filled square.
COVERED = "#"
EMPTY = "-"
#: Width of a caption character at the caption's font size, generously (sans-serif).
CAPTION_CHAR_WIDTH = 8
#: A cell's side in ``board_svg``'s pictures, and the margin on the left that holds
#: the row numbers (pixels).
BOARD_CELL = 36
BOARD_MARGIN = 22


def _grid(game: Game, position: str) -> list[str] | None:
    return game.grid(game.parse(position))


def board_lines(game: Game, position: str) -> list[str]:
    """The board as text lines: column letters on top, row numbers (bottom row 1) on
    the left, ``.`` for an empty cell. A game without a board gives its text."""
    grid = _grid(game, position)
    if grid is None:
        return [position]
    rows = len(grid)
    width = len(str(rows))
    header = " " * (width + 3) + " ".join(chr(ord("a") + c) for c in range(len(grid[0])))
    lines = [header]
    for r, row in enumerate(grid):
        cells = " ".join("." if ch == EMPTY else ch for ch in row)
        lines.append(f" {rows - r:>{width}}  {cells}")
    return lines


def cell_centre(row: int, col: int, cell: int = BOARD_CELL) -> tuple[int, int]:
    """Where the centre of a cell (top-down row, column) is in ``board_svg``'s picture:
    what is drawn over a board (``tiersolve serve`` draws its moves) goes there.

    >>> cell_centre(0, 0), cell_centre(2, 1)
    ((40, 18), (76, 90))
    """
    return BOARD_MARGIN + col * cell + cell // 2, row * cell + cell // 2


def board_svg(game: Game, position: str, caption: str = "", cell: int = BOARD_CELL) -> str:
    """An SVG picture of the position, with coordinates and an optional caption."""
    grid = _grid(game, position)
    lines = [escape(caption)] if caption else []
    if grid is None:
        text = [escape(position), *lines]
        height = 22 * len(text) + 10
        body = "".join(f'<text x="8" y="{22 * (i + 1)}" font-family="monospace" font-size="16">'
                       f"{t}</text>" for i, t in enumerate(text))
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{16 + 10 * max(map(len, text))}" '
                f'height="{height}">{body}</svg>')
    rows, cols = len(grid), len(grid[0])
    margin = BOARD_MARGIN
    caption_width = 8 + CAPTION_CHAR_WIDTH * max(map(len, lines), default=0)
    width = max(margin + cols * cell + 4, caption_width)
    height = margin + rows * cell + 6 + 20 * len(lines)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif">']
    for r, row in enumerate(grid):
        y = r * cell
        parts.append(f'<text x="{margin // 2}" y="{y + cell // 2 + 5}" font-size="13" '
                     f'text-anchor="middle">{rows - r}</text>')
        for c, ch in enumerate(row):
            x = margin + c * cell
            shade = "#e8d0a0" if (r + c) % 2 == 0 else "#d2b07a"
            parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{shade}" '
                         'stroke="#8a6a3a" stroke-width="0.5"/>')
            if ch == EMPTY:
                continue
            cx, cy = x + cell // 2, y + cell // 2
            if ch in MARKS:
                parts.append(f'<text x="{cx}" y="{cy + cell // 4}" font-size="{int(cell * 0.8)}" '
                             f'text-anchor="middle" fill="#222">{ch}</text>')
                continue
            if ch == COVERED:
                parts.append(f'<rect x="{x + 3}" y="{y + 3}" width="{cell - 6}" height="{cell - 6}" '
                             'fill="#5a4630"/>')
                continue
            fill = PIECE_COLOURS.get(ch, "#9a9a9a")
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.38:.1f}" fill="{fill}" '
                         'stroke="#333" stroke-width="1"/>')
            if ch in LABELLED or ch not in PIECE_COLOURS:
                ink = "#000" if fill in ("#eeeeee", "#f4f4f4", "#9a9a9a") else "#fff"
                parts.append(f'<text x="{cx}" y="{cy + 5}" font-size="14" text-anchor="middle" '
                             f'fill="{ink}">{escape(ch)}</text>')
    for c in range(cols):
        parts.append(f'<text x="{margin + c * cell + cell // 2}" y="{rows * cell + 16}" '
                     f'font-size="13" text-anchor="middle">{chr(ord("a") + c)}</text>')
    for i, line in enumerate(lines):
        parts.append(f'<text x="4" y="{rows * cell + 38 + 20 * i}" font-size="14">{line}</text>')
    parts.append("</svg>")
    return "".join(parts)
