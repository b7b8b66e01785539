"""Reference Fair Shares and Varied Pairs (written from docs/RULES.md only).

A state is a tuple of heap sizes, largest first, adding up to ``size``. A move
splits one heap into two or more equal heaps (a heap of 6 into 3+3, 2+2+2 or six
1s), or unites two heaps of different sizes into one. The player to move with only
heaps of 1 cannot move and loses. Text ``(6 3 1)``.
"""

try:
    from ._common import int_option, no_more_options, split_text
except ImportError:  # imported as a top-level module
    from _common import int_option, no_more_options, split_text


class Game:
    name = "fsvp"

    def __init__(self, **options):
        options = dict(options)
        self.size = int_option(options, "size", 10, 2)
        no_more_options(options, self.name)

    def start(self):
        if self.size % 2 == 0:
            return (self.size,)
        return (self.size - 1, 1)

    def parse(self, text):
        heaps = tuple(sorted((int(word) for word in split_text(text)), reverse=True))
        if not heaps or min(heaps) < 1 or sum(heaps) != self.size:
            raise ValueError(f"bad fsvp position {text!r}")
        return heaps

    def format(self, state):
        return "(" + " ".join(str(heap) for heap in state) + ")"

    def moves(self, state):
        children = set()
        for i, heap in enumerate(state):
            rest = state[:i] + state[i + 1:]
            for parts in range(2, heap + 1):  # equal shares
                if heap % parts == 0:
                    children.add(tuple(sorted(rest + (heap // parts,) * parts, reverse=True)))
            for j, other in enumerate(state):  # a pair of different sizes
                if j != i and other != heap:
                    left = tuple(h for k, h in enumerate(state) if k not in (i, j))
                    children.add(tuple(sorted(left + (heap + other,), reverse=True)))
        return [(child, False) for child in sorted(children)]

    def primitive(self, state):
        if all(heap == 1 for heap in state):
            return "lose"
        return None
