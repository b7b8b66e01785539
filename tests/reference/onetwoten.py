"""Reference 1,2,...,10 (written from RULES.md only).

State ``(turn, sum)`` with turn "L"/"R".  A move adds 1..max_step, never past
the target.  Standard: the player to move at sum == target has lost (the
opponent reached it); misere: has won.  Text ``(L 0)``.
"""

try:
    from ._common import bool_option, int_option, no_more_options, split_text
except ImportError:  # imported as a top-level module
    from _common import bool_option, int_option, no_more_options, split_text


class Game:
    name = "1210"

    def __init__(self, **options):
        options = dict(options)
        self.target = int_option(options, "target", 10, 1)
        self.max_step = int_option(options, "max_step", 2, 1)
        self.misere = bool_option(options, "misere")
        no_more_options(options, self.name)

    def start(self):
        return ("L", 0)

    def parse(self, text):
        tokens = split_text(text)
        if len(tokens) != 2 or tokens[0].upper() not in ("L", "R"):
            raise ValueError(f"bad 1210 position {text!r}")
        try:
            total = int(tokens[1])
        except ValueError:
            raise ValueError(f"bad sum in {text!r}") from None
        if not 0 <= total <= self.target:
            raise ValueError(f"sum out of range 0..{self.target}: {text!r}")
        return (tokens[0].upper(), total)

    def format(self, state):
        return f"({state[0]} {state[1]})"

    def moves(self, state):
        turn, total = state
        other = "R" if turn == "L" else "L"
        top = min(self.max_step, self.target - total)
        return [((other, total + k), False) for k in range(1, top + 1)]

    def primitive(self, state):
        if state[1] >= self.target:
            return "win" if self.misere else "lose"
        return None
