"""Shared fixtures: databases built once per test session."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tiersolve.databases import open_database
from tiersolve.databases.build import build_database
from tiersolve.games import make_game


class Builds:
    """Builds and opens databases on demand, once per (game, options)."""

    def __init__(self, directory):
        self.directory = directory
        self.opened = {}

    def __call__(self, name: str, **options):
        key = (name, tuple(sorted(options.items())))
        if key not in self.opened:
            game = make_game(name, **options)
            path = self.directory / f"{game.label()}.h5"
            build_database(game, path, progress=False, threads=2)
            self.opened[key] = open_database(path)
        return self.opened[key]

    def close(self):
        for db in self.opened.values():
            db.close()


@pytest.fixture(scope="session")
def database(tmp_path_factory):
    """``database(name, **options)`` -> an open Database, built on first use."""
    builds = Builds(tmp_path_factory.mktemp("databases"))
    yield builds
    builds.close()


FLIP = {"win": "lose", "lose": "win", "tie": "tie", "draw": "draw"}


def value_there(move) -> tuple[str, int | None]:
    """(value, remoteness) for the player to move after ``move``: the mover's value
    if they move again (a go-again turn), else the opponent's, its flip."""
    return (move.value if move.moves_again else FLIP[move.value]), move.remoteness


def legal_indices(db) -> np.ndarray:
    """Indices of the legal positions a database stores (without, under --symmetry,
    the indices whose value is stored at a mirror image)."""
    values = db.value_array()
    return np.flatnonzero((values != 0) & (values != 5))


def console_examples(path) -> list[tuple[str, list[str]]]:
    """(command, expected output lines) of every ``$ `` line of a Markdown file's
    console blocks, in order."""
    examples: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", path.read_text(), flags=re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                examples.append((line[2:], []))
            elif examples:
                examples[-1][1].append(line)
    return examples


@pytest.fixture
def lose_an_interrupt():
    """A function that sends SIGINT while a finaliser runs: Python prints the
    KeyboardInterrupt ("Exception ignored in ...") and drops it."""
    import gc
    import os
    import signal
    import time

    class SignalsWhenCollected:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # the handler runs here, inside the finaliser

    def lose() -> None:
        collected = SignalsWhenCollected()
        del collected
        gc.collect()

    return lose
