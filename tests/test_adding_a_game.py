"""docs/ADDING_A_GAME.md works as written. Its code blocks, put together as the page
says, make a game the registry finds; the game passes the game tester on its boards,
and its databases match its reference rules on every position, before and after the
page's fast functions; the page's examples print what they show; and its RULES.md
section passes the rule book's checks.

The walkthrough runs in a fresh process with a kernel cache of its own: its game
module lives outside the package, and numba's cache must never hold kernels typed
by a module that other processes cannot import.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "ADDING_A_GAME.md"
#: Where the page starts making the game fast: its examples before this heading run
#: with the module of steps 1 to 5, those after it with the fast one.
FAST = "## 6. Make it fast"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks(text: str) -> list[tuple[str, str, str]]:
    """(language, header, body) of every code block; the header is a first line
    ``# <file>`` (Python) or ``<!-- <file> -->`` (Markdown), else empty."""
    found = []
    for language, body in BLOCK.findall(text):
        first, _, rest = body.partition("\n")
        header = re.fullmatch(r"# (\S+\.py(?:, .+)?)|<!-- (\S+) -->", first)
        if header:
            found.append((language, header.group(1) or header.group(2), rest))
        else:
            found.append((language, "", body))
    return found


def _last_class(source: str) -> ast.ClassDef:
    """The module's last class: the game's (the page's "the class")."""
    return [node for node in ast.parse(source).body if isinstance(node, ast.ClassDef)][-1]


def _replace_members(source: str, members: str) -> str:
    """``source`` with the members defined in ``members`` (written at the left margin)
    put in place of the members of the same names of its last class."""
    lines = source.splitlines(keepends=True)
    cls = _last_class(source)
    wanted = ast.parse(members)
    replacements = {}
    for node in wanted.body:
        name = node.name if isinstance(node, ast.FunctionDef) else node.targets[0].id
        text = "".join(members.splitlines(keepends=True)[node.lineno - 1:node.end_lineno])
        replacements[name] = textwrap.indent(text, "    ")
    for node in sorted(cls.body, key=lambda n: -n.lineno):
        name = node.name if isinstance(node, ast.FunctionDef) else \
            getattr(getattr(node, "targets", [None])[0], "id", None)
        if name in replacements:
            lines[node.lineno - 1:node.end_lineno] = [replacements.pop(name)]
    assert not replacements, f"members the class does not have: {sorted(replacements)}"
    return "".join(lines)


def files(text: str, fast: bool) -> dict[str, str]:
    """The files the page writes, as the page has them at step 5 or (``fast``) at the end."""
    written: dict[str, str] = {}
    for language, header, body in blocks(text):
        if language != "python" or not header:
            continue
        path, _, where = header.partition(", ")
        if not where:
            written[path] = written.get(path, "") + ("\n\n" if path in written else "") + body
        elif fast and where == "above the class":
            lines = written[path].splitlines(keepends=True)
            at = _last_class(written[path]).lineno - 1
            written[path] = "".join(lines[:at]) + body + "\n\n" + "".join(lines[at:])
        elif fast and where == "in the class":
            written[path] = _replace_members(written[path], body)
        elif where not in ("above the class", "in the class"):
            raise AssertionError(f"a block of the page is headed {header!r}")
    return written


def examples(text: str) -> tuple[str, str]:
    """The page's Python examples (``pycon`` blocks) before and after FAST."""
    before, after = text.split(FAST)
    return tuple("\n".join(body for language, _, body in blocks(part) if language == "pycon")
                 for part in (before, after))


#: The walkthrough, run in a fresh process: argv is the folder holding the files.
WALKTHROUGH = r'''
import doctest, importlib.util, json, sys
from pathlib import Path

folder = Path(sys.argv[1])
# the game's module at step 5 and at the end; tests/ (reference rules, the checks)
sys.path[:0] = [str(folder / "basic"), str(folder / "fast"), sys.argv[2]]
import reference
from test_crosscheck import crosscheck
from test_rules_doc import sections_of, unnamed_options, wrong_examples
import tiersolve.games
from tiersolve.databases import build_database, open_database
from tiersolve.games import find_games, game_class, make_game
from tiersolve.games.tester import check_game

spec = importlib.util.spec_from_file_location("reference.kayles", folder / "reference_kayles.py")
module = importlib.util.module_from_spec(spec)
sys.modules["reference.kayles"] = module
spec.loader.exec_module(module)
reference.GAMES[module.Game.name] = module.Game
examples = json.loads((folder / "examples.json").read_text())
report = {}
names = {}  # the page's examples run as one session, as a reader runs them
for phase, stem in (("basic", "kayles_basic"), ("fast", "kayles")):
    found = find_games(folder / phase, "")  # the registry finds the module by its NAME line
    assert found == {"kayles": "." + stem}, found
    tiersolve.games.GAMES["kayles"] = stem
    cls = game_class("kayles")
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    test = parser.get_doctest(examples[phase], names, f"ADDING_A_GAME.md ({phase})", None, 0)
    runner.run(test, clear_globs=False)
    names = test.globs
    assert runner.failures == 0, f"{runner.failures} examples of the page failed ({phase})"
    report[phase] = {
        "examples": runner.tries,
        "tester": [check_game(make_game("kayles", **options)) for options in cls.tester_boards],
        "reference": [],
        "functions": [name for name, f in cls.functions._asdict().items() if f is not None],
    }
    for number, options in enumerate(cls.reference_boards):
        path = folder / f"{phase}-{number}.h5"
        build_database(make_game("kayles", **options), path, progress=False)
        with open_database(path) as db:
            report[phase]["reference"].append(crosscheck(db, "kayles", options))
(name, (title, section)), = sections_of((folder / "RULES.md").read_text()).items()
report["rules"] = {"name": name, "title": title, "unnamed": unnamed_options(name, section),
                   "wrong": wrong_examples(name, section)}
print(json.dumps(report))
'''


def test_the_guide_adds_a_game_that_passes_every_check(tmp_path):
    text = GUIDE.read_text(encoding="utf-8")
    basic, fast = files(text, fast=False), files(text, fast=True)
    assert set(basic) == set(fast) == {"games/kayles.py", "tests/reference/kayles.py"}
    (tmp_path / "basic").mkdir()
    (tmp_path / "fast").mkdir()
    (tmp_path / "basic" / "kayles_basic.py").write_text(basic["games/kayles.py"])
    (tmp_path / "fast" / "kayles.py").write_text(fast["games/kayles.py"])
    (tmp_path / "reference_kayles.py").write_text(basic["tests/reference/kayles.py"])
    (rules,) = [body for language, header, body in blocks(text) if header == "docs/RULES.md"]
    (tmp_path / "RULES.md").write_text(rules)
    before, after = examples(text)
    (tmp_path / "examples.json").write_text(json.dumps({"basic": before, "fast": after}))
    (tmp_path / "walkthrough.py").write_text(WALKTHROUGH)
    done = subprocess.run(
        [sys.executable, str(tmp_path / "walkthrough.py"), str(tmp_path), str(ROOT / "tests")],
        cwd=tmp_path, capture_output=True, text=True, timeout=900,
        env={**os.environ, "TIERSOLVE_CACHE_DIR": str(tmp_path / "kernels")})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["basic"]["examples"] >= 10 and report["fast"]["examples"] >= 2
    for phase in ("basic", "fast"):
        assert len(report[phase]["tester"]) == 3 and all(
            line.startswith("kayles (") for line in report[phase]["tester"])
        assert len(report[phase]["reference"]) == 3 and min(report[phase]["reference"]) > 60
    assert report["basic"]["functions"] == ["decode", "encode", "generate_moves", "do_move",
                                            "primitive"]
    assert report["fast"]["functions"][-2:] == ["expand", "parents"]
    assert "un-moves checked" in report["fast"]["tester"][-1]
    assert report["rules"] == {"name": "kayles", "title": "Kayles", "unnamed": [], "wrong": []}


def test_the_guides_blocks_are_put_together_as_it_says():
    """The assembly itself: above the class, in the class (members replaced, at the
    class's indentation)."""
    text = ('```python\n# games/x.py\nA = 1\n\n\nclass X:\n    f = 1\n\n    def g(self):\n'
            '        return 1\n```\n\n```python\n# games/x.py, above the class\nB = 2\n```\n\n'
            '```python\n# games/x.py, in the class\nf = 2\n\ndef g(self):\n    return 2\n```\n')
    assert files(text, fast=False) == {"games/x.py": "A = 1\n\n\nclass X:\n    f = 1\n\n"
                                                     "    def g(self):\n        return 1\n"}
    assert files(text, fast=True)["games/x.py"] == (
        "A = 1\n\n\nB = 2\n\n\nclass X:\n    f = 2\n\n    def g(self):\n        return 2\n")
    with pytest.raises(AssertionError, match="members the class does not have: \\['h'\\]"):
        _replace_members("class X:\n    f = 1\n", "h = 2\n")
