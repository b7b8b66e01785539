"""The README's commands, and every example of every ``--help``, run as printed: in a
new folder, on an empty numba kernel cache, as a new user runs them. The README's
output must match what they print, but for timings and memory figures (and its
``...``, which stands for what it leaves out), and file sizes within 5%. Its numpy
recipe, run on a full and on a reachable database, gives positions the file holds."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tiersolve.cli import COMMANDS, main
from tiersolve.databases import UnreachedPositionError, build_database, open_database
from tiersolve.games import GAMES, make_game

from conftest import console_examples

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BIN = Path(sys.executable).parent

UNITS = ("B", "KB", "MB", "GB", "TB", "PB")
#: A file's size: the build summary's (`` · 3.9 KB → FILE``) and info's (``FILE, 3.9 KB``).
FILE_SIZE = re.compile(r"(?:(?<= · )|(?<=\.h5, ))(\d+(?:\.\d+)?) (B|KB|MB|GB|TB|PB)\b")
#: How far a file's size may be from the README's: a build writes the same bytes
#: but for its metadata (timings, an id), a few bytes more or less.
FILE_SIZE_TOLERANCE = 0.05
#: Figures that differ from run to run and machine to machine: seconds, the parts of
#: a build's time, and memory sizes (their unit stays: a KB is no MB). File sizes are
#: not among them: ``normalise`` marks them, and ``matches`` compares them.
VARYING = [(re.compile(r"\b\d+(?:\.\d+)? s\b"), "<seconds> s"),
           (re.compile(r"\b(compile|solve|write) \d+(?:\.\d+)?"), r"\1 <seconds>"),
           (re.compile(r"\b\d+(?:\.\d+)? (B|KB|MB|GB|TB|PB)\b"), r"<size> \1")]
#: A file size as ``normalise`` marks it, and the pattern that reads it back.
FILE_MARK = re.compile(r"<file ([\d.]+)_([A-Z]+)>")


def normalise(text: str) -> str:
    text = FILE_SIZE.sub(r"<file \1_\2>", text)  # kept, out of the memory sizes' way
    for pattern, replacement in VARYING:
        text = pattern.sub(replacement, text)
    return text


def _pattern(piece: str, sizes: list[float]) -> str:
    """The regular expression of a piece of an expected line: its text, but its file
    sizes captured (their bytes appended to ``sizes``)."""
    parts, end = [], 0
    for mark in FILE_MARK.finditer(piece):
        parts += [re.escape(piece[end:mark.start()]), FILE_MARK.pattern]
        sizes.append(float(mark[1]) * 1024 ** UNITS.index(mark[2]))
        end = mark.end()
    return "".join(parts) + re.escape(piece[end:])


def matches(expected: list[str], actual: str) -> bool:
    """Whether ``actual`` is what ``expected`` shows: line by line after
    ``normalise``; ``...`` in a line stands for any text, and a line of ``...``
    alone for any lines. File sizes must agree to within FILE_SIZE_TOLERANCE."""
    parts: list[str] = []
    sizes: list[float] = []
    for line in expected:
        if line.strip() == "...":
            parts.append(r"(?:.*\n)*?")
        else:
            parts.append(".*".join(_pattern(piece, sizes) for piece in normalise(line).split("..."))
                         + r"\n")
    found = re.fullmatch("".join(parts), normalise(actual))
    if found is None:
        return False
    printed = found.groups()
    return all(abs(float(number) * 1024 ** UNITS.index(unit) - size) <= FILE_SIZE_TOLERANCE * size
               for size, number, unit in zip(sizes, printed[::2], printed[1::2]))


def test_a_stale_file_size_does_not_match():
    """Seconds and memory vary from run to run and machine to machine; the size of a
    file does not (but for a few bytes of its metadata), so a size the README has not
    kept up with is caught."""
    summary = ("northcott 3x6: 6,750 positions · 0.2 s (compile 0.0, solve 0.0, write 0.0) · "
               "peak memory 159.9 MB · {} → db/northcott_3x6.h5")
    printed = summary.replace("0.2 s", "1.9 s").replace("159.9", "201.3") + "\n"
    assert matches([summary.format("3.9 KB")], printed.format("3.9 KB"))
    assert matches([summary.format("15.2 KB")], printed.format("15.3 KB"))  # metadata bytes
    assert not matches([summary.format("15.2 KB")], printed.format("3.9 KB"))
    assert not matches([summary.format("3.9 KB")], printed.format("3.9 MB"))
    info = "file            db/northcott_3x6.h5, {}"
    assert not matches([info.format("15.2 KB")], info.format("3.9 KB") + "\n")
    assert matches([info.format("3.9 KB")], info.format("3.9 KB") + "\n")


def readme_examples() -> list[tuple[str, list[str]]]:
    """(command, expected output lines) of every ``$ `` line of the README's console
    blocks, in order."""
    return console_examples(README)


@pytest.fixture(scope="module")
def new_user(tmp_path_factory):
    """Environment of a new user: an empty kernel cache, no database folder set, and
    this Python's ``tiersolve`` and ``python`` first on the path."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("TIERSOLVE_DB_DIR", "GAMESOLVER_DB_DIR", "NO_COLOR")}
    env["TIERSOLVE_CACHE_DIR"] = str(tmp_path_factory.mktemp("empty-kernel-cache"))
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["COLUMNS"] = "80"
    return env


def run(command: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    """A shell command as printed, with ``python scripts/`` this checkout's scripts
    and ``python`` and ``tiersolve`` this Python's."""
    command = command.replace("python scripts/", f"python {ROOT / 'scripts'}/")
    if not (BIN / "tiersolve").exists():  # not a venv: the same command through python -m
        command = re.sub(r"(^|\| )tiersolve ", rf"\1{sys.executable} -m tiersolve ", command)
    command = re.sub(r"(^|\| )python ", rf"\1{sys.executable} ", command)
    return subprocess.run(command, shell=True, cwd=cwd, env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=900)


def test_the_readme_commands_print_what_the_readme_shows(tmp_path, new_user):
    examples = readme_examples()
    assert len(examples) >= 8
    first_query = True
    for command, expected in examples:
        done = run(command, tmp_path, new_user)
        assert done.returncode == 0, f"{command}\n{done.stderr}"
        assert "Traceback" not in done.stderr, f"{command}\n{done.stderr}"
        assert matches(expected, done.stdout), (
            f"$ {command}\n--- README ---\n" + "\n".join(expected) + f"\n--- printed ---\n{done.stdout}")
        if command.startswith("tiersolve query") and first_query:
            # its kernels are not the build's: the first lookup compiles, and says so
            assert "compiling the northcott kernels" in done.stderr, done.stderr
            first_query = False


def help_text(entry, argv: list[str], *prog: str) -> str:
    """What a command's entry point prints for ARGV (a --help page), in this process."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stop:
        entry(argv, *prog)
    assert stop.value.code == 0
    return out.getvalue()


def help_pages() -> dict[str, str]:
    """Every --help page of the command and the scripts, by the command that shows it."""
    from tiersolve.cli.bench import main as bench_main
    from tiersolve.cli.build import build_main
    from tiersolve.cli.query import query_main

    pages = {"tiersolve --help": help_text(main, ["--help"])}
    for command in COMMANDS:
        pages[f"tiersolve {command} --help"] = help_text(main, [command, "--help"])
    for name in GAMES:
        for command in ("build", "play"):
            pages[f"tiersolve {command} {name} --help"] = help_text(main, [command, name, "--help"])
    scripts = {"build_db.py": build_main, "query.py": query_main, "bench.py": bench_main}
    for script, entry in scripts.items():
        pages[f"python scripts/{script} --help"] = help_text(entry, ["--help"], script)
    return pages


def examples_of(page: str) -> list[str]:
    """The commands a help page gives as examples: what follows ``example:`` on a
    line, wherever it stands, and the indented lines after a line that starts with
    ``example``."""
    found, listing = [], False
    for line in page.splitlines():
        inline = re.search(r"\bexample: (.+)$", line, flags=re.I)
        if inline:
            found.append(inline.group(1).strip())
        elif line.lower().startswith("example"):
            listing = True
            continue
        if listing and line.startswith("  ") and not inline:
            found.append(line.strip())
        else:
            listing = False
    return found


def help_examples(pages: dict[str, str]) -> dict[str, str]:
    """Every example of the --help ``pages``, once, with the page that gives it first."""
    examples: dict[str, str] = {}
    for page, text in pages.items():
        for example in examples_of(text):
            examples.setdefault(example, page)
    return examples


def example_runs(examples: dict[str, str]) -> dict[str, list[str]]:
    """The examples cut into runs that can go side by side, each run in the pages'
    order: a ``--plan`` example alone (it reads and writes no file), the others by the
    first game they name (a query follows the build of its file, in one folder); an
    example naming no game (``serve --dir db``) joins the run before it."""
    runs: dict[str, list[str]] = {}
    last = None
    for example in examples:
        if "--plan" in example:
            runs[example] = [example]
            continue
        named = [word for word in re.findall(r"[a-z0-9]+", example) if word in GAMES]
        last = named[0] if named else last
        runs.setdefault(f"examples of {last}", []).append(example)
    return runs


HELP_PAGES = help_pages()
HELP_EXAMPLES = help_examples(HELP_PAGES)
EXAMPLE_RUNS = example_runs(HELP_EXAMPLES)


def test_every_help_page_gives_examples_of_every_game():
    from tiersolve.cli.build import build_main

    for name in GAMES:  # the script's page of a game: the same examples, by the script
        page = help_text(build_main, [name, "--help"], "build_db.py")
        command_page = HELP_PAGES[f"tiersolve build {name} --help"]
        assert examples_of(page) == [example.replace("tiersolve build", "python scripts/build_db.py")
                                     for example in examples_of(command_page)]
    assert len(HELP_EXAMPLES) >= 20 and all(name in " ".join(HELP_EXAMPLES) for name in GAMES)
    assert sum(len(run) for run in EXAMPLE_RUNS.values()) == len(HELP_EXAMPLES)
    assert len(EXAMPLE_RUNS) > len(GAMES)  # side by side: at least the plans


@pytest.mark.parametrize("examples", EXAMPLE_RUNS.values(), ids=EXAMPLE_RUNS.keys())
def test_every_help_example_runs_as_printed(examples, tmp_path, new_user):
    """A run of examples, in order, in one new folder (see ``example_runs``)."""
    for example in examples:
        done = run(example, tmp_path, new_user)
        assert done.returncode == 0 and "Traceback" not in done.stderr, \
            f"{HELP_EXAMPLES[example]}: {example}\n{done.stderr}"


def test_the_readme_set_up_is_what_ci_runs():
    """The README's two set-up commands, to the letter, are .ci/run's."""
    block = re.search(r"## Set-up.*?```sh\n(.*?)```", README.read_text(), flags=re.S).group(1)
    commands = block.strip().splitlines()
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert commands == ["pip install -e '.[test,notebook,cluster,openspiel]' && python "
                        "scripts/build_db.py northcott --rows 3 --cols 6", "python -m pytest"]
    assert f"python -m {commands[0]}" in ci and commands[1] in ci


def test_the_profiling_scripts_help_example_runs(tmp_path, new_user):
    """scripts/profile_build.py, a developer's tool (not a command of the package)."""
    page = subprocess.run([sys.executable, str(ROOT / "scripts" / "profile_build.py"), "--help"],
                          capture_output=True, text=True, timeout=120).stdout
    (example,) = examples_of(page)
    done = run(example, tmp_path, new_user)
    assert done.returncode == 0 and "solve (1 thread)" in done.stdout, done.stderr


def test_the_readme_names_every_subcommand():
    """The README's "with N subcommands: ..." counts and names exactly the CLI's."""
    from tiersolve.cli import COMMANDS

    found = re.search(r"with (\w+) subcommands: (.*?);", README.read_text(), flags=re.S)
    named = re.findall(r"`(\w+)`", found.group(2))
    words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    assert sorted(named) == sorted(COMMANDS) and found.group(1) == words[len(named) - 1]


def readme_recipe() -> str:
    text = (ROOT / "README.md").read_text()
    blocks = [block for block in re.findall(r"```python\n(.*?)```", text, flags=re.S)
              if "slow_wins" in block]
    assert len(blocks) == 1, "the README's numpy recipe"
    return blocks[0]


@pytest.mark.parametrize("reachable", [False, True])
def test_the_readme_numpy_recipe_gives_positions_in_the_file(tmp_path, reachable):
    game = make_game("northcott", rows=3, cols=6)
    path = tmp_path / "n.h5"
    build_database(game, path, progress=False, reachable=reachable,
                   start="(L 0L4R0 0L4R0 0L4R0)" if reachable else None)  # a win in 9
    with open_database(path) as db:
        names = {"db": db}
        exec(readme_recipe(), names)  # noqa: S102 (the README's own code)
        slow_wins = names["slow_wins"]
        assert slow_wins.size > 0
        values, remoteness = db.lookup_indices(slow_wins)  # every one is in the file
        assert set(values.tolist()) == {1} and remoteness.min() >= 7
        for text in db.positions(slow_wins[:20]):
            record = db.lookup(text)
            assert record.value == "win" and record.remoteness >= 7
        assert len(db.stored_indices()) == len(db.value_array()) == len(db.remoteness_array())
        if reachable:  # a number that is not one of its indices is refused, never decoded
            missing = np.setdiff1d(np.arange(db.size), db.stored_indices())[0]
            with pytest.raises(UnreachedPositionError, match="stored_indices"):
                db.positions([missing])
            lo, hi = int(db.stored_indices()[3]), int(db.stored_indices()[10]) + 1
            assert db.stored_indices(lo, hi).tolist() == db.stored_indices()[3:11].tolist()
            assert np.array_equal(db.value_array(lo, hi), db.value_array()[3:11])
