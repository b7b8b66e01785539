"""Shared fixtures and helpers: databases built once per test session, and the
command line run in this process or as ``python -m tiersolve``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tiersolve.cli import main
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


def every_index_moves_as_the_reference(game, ref) -> int:
    """Check every index of ``game`` against the plain-Python reference ``ref``: an
    ILLEGAL index is text the reference refuses; a legal one has the same verdict
    (lost, or not yet finished) and the same move names leading to the same
    positions. Returns the number of legal indices."""
    from tiersolve.values import ILLEGAL, LOSE, UNDECIDED

    legal = 0
    for index in range(game.size):
        state = game.state_at(index)
        text = game.format(state)
        verdict = game.primitive_value(state)
        if verdict == ILLEGAL:
            with pytest.raises(ValueError):
                ref.parse(text)
            continue
        legal += 1
        theirs = ref.parse(text)
        assert (verdict == LOSE) == (ref.primitive(theirs) == "lose"), text
        assert verdict in (LOSE, UNDECIDED), text
        ours = sorted((child.move, game.format(child.state)) for child in game.children(state))
        assert ours == sorted((name, ref.format(child))
                              for name, child in ref.named_moves(theirs)
                              if ref.primitive(theirs) is None), text
    return legal


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


def command(argv: list[str], capsys) -> tuple[int, str, str]:
    """``tiersolve ARGV`` in this process: (exit code, stdout, stderr)."""
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def tiersolve(*args: str, cwd: Path, env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    """``python -m tiersolve ARGS`` in CWD, with ENV added to the environment."""
    return subprocess.run([sys.executable, "-m", "tiersolve", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600, env={**os.environ, **(env or {})}, **kwargs)


def one_line_error(code: int, err: str, prog: str) -> str:
    """The error line of a user's mistake: exit code 2, one line, no traceback."""
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, (code, err)
    assert lines[0].startswith(f"{prog}: error: "), lines[0]
    return lines[0]
