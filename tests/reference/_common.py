"""Small helpers shared by the reference game modules."""

DASHES = {"\u2013": "-", "\u2014": "-", "\u2212": "-"}


def int_option(options, name, default, minimum):
    value = options.pop(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"option {name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"option {name} must be at least {minimum}, got {value}")
    return value


def bool_option(options, name, default=False):
    value = options.pop(name, default)
    if not isinstance(value, bool):
        raise ValueError(f"option {name} must be a bool, got {value!r}")
    return value


def no_more_options(options, game):
    if options:
        raise ValueError(f"unknown option(s) for {game}: {sorted(options)}")


def split_text(text):
    """``"(a b c)"`` -> ``["a", "b", "c"]`` (typographic dashes become '-')."""
    if not isinstance(text, str):
        raise ValueError(f"position text must be a string, got {text!r}")
    s = text.strip()
    for k, v in DASHES.items():
        s = s.replace(k, v)
    if len(s) < 2 or s[0] != "(" or s[-1] != ")":
        raise ValueError(f"position must be written in parentheses: {text!r}")
    return s[1:-1].split()


def split_board(text, n_rows, n_cols):
    """``(T row row ...)`` -> (turn token, list of rows), checking the board's size."""
    tokens = split_text(text)
    if len(tokens) != 1 + n_rows:
        raise ValueError(f"expected a turn and {n_rows} rows: {text!r}")
    rows = tokens[1:]
    for row in rows:
        if len(row) != n_cols:
            raise ValueError(f"row {row!r} must have {n_cols} cells: {text!r}")
    return tokens[0], rows


def parse_two_colour(text, n_rows, n_cols, turns=("b", "w")):
    """``(T row ...)`` with cells b/w/- -> (turn, black mask, white mask), bit
    ``r * cols + c`` for row ``r`` counted from the top."""
    turn, rows = split_board(text, n_rows, n_cols)
    turn = turn.lower()
    if turn not in turns:
        raise ValueError(f"turn must be b or w: {text!r}")
    black = white = 0
    i = 0
    for row in rows:
        for ch in row.lower():
            if ch == "b":
                black |= 1 << i
            elif ch == "w":
                white |= 1 << i
            elif ch != "-":
                raise ValueError(f"bad cell {ch!r} in {text!r}")
            i += 1
    return (turn, black, white)


def format_two_colour(state, n_rows, n_cols):
    """Inverse of ``parse_two_colour``."""
    turn, black, white = state
    out = []
    for r in range(n_rows):
        cells = []
        for c in range(n_cols):
            bit = 1 << (r * n_cols + c)
            cells.append("b" if black & bit else "w" if white & bit else "-")
        out.append("".join(cells))
    return "(" + turn + " " + " ".join(out) + ")"


def cell_name(row_from_top, col, rows):
    """Algebraic name of a cell: file letter + rank (rank 1 is the bottom row)."""
    return f"{file_letter(col)}{rows - row_from_top}"


def file_letter(col):
    if not 0 <= col < 26:
        raise ValueError("at most 26 columns are supported")
    return chr(ord("a") + col)


def parse_cell(name, rows, cols):
    """Algebraic cell name -> (row_from_top, col); ValueError if off the board."""
    name = name.strip().lower()
    if len(name) < 2 or not "a" <= name[0] <= "z" or not name[1:].isdigit():
        raise ValueError(f"bad cell {name!r}")
    col = ord(name[0]) - ord("a")
    rank = int(name[1:])
    if not (0 <= col < cols and 1 <= rank <= rows):
        raise ValueError(f"cell {name!r} is off the {rows}x{cols} board")
    return rows - rank, col
