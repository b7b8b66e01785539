"""docs/RULES.md against the code: the rule book stays complete and its examples true.

* No tracked file points at the rules' former home outside the repository.
* Every registered game has a section ``## <title> (`<name>`)``, and the section
  names every option of the game and shows its default start.
* Every example in a game's section parses with that game. An example is a code span
  that is a position text, ``(...)``, optionally after command-line options
  (``--rows 4 --cols 4 (...)``: the game with those options, the others at their
  defaults) and marked ``refused: `` when the game must not accept it (the text does
  not parse, cannot arise in play, or is stored as illegal).

Nothing here solves a position; a few small kernels may be compiled (parsing some
games checks legality with them).
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
from pathlib import Path

import pytest

from tiersolve.games import GAMES, game_class, make_game
from tiersolve.values import ILLEGAL

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "RULES.md"
#: Where the rules and seed texts lived before docs/RULES.md; spelt in two pieces so
#: that this file does not contain it.
OUTSIDE = ".." + "/shared"
#: Without git, files this large (databases built in the checkout) are not read.
WALKED_FILE_LIMIT = 16 << 20
NOT_WALKED = {".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache",
              ".ipynb_checkpoints"}

SECTION = re.compile(r"^## (?P<title>.+) \(`(?P<name>[^`]+)`\)[ \t]*$", re.MULTILINE)
HEADING = re.compile(r"^## ", re.MULTILINE)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
OPTION = re.compile(r"--([a-z][a-z-]*)(?: (\d+))?")
EXAMPLE = re.compile(r"(?P<refused>refused: )?(?P<options>(?:--[a-z][a-z-]*(?: \d+)? )*)"
                     r"(?P<position>\(.*\))")


def tracked_files() -> list[Path]:
    """The repository's tracked files (``git ls-files``), or, without git, every file
    under the checkout except git's own, caches, virtual environments and build output."""
    try:
        listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                                 check=True).stdout
        return [ROOT / name for name in listing.decode().split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for folder, subfolders, names in os.walk(ROOT):
            subfolders[:] = [d for d in subfolders if d not in NOT_WALKED
                             and not d.endswith(".egg-info")
                             and not (Path(folder) / d / "pyvenv.cfg").exists()]
            files += [Path(folder) / name for name in names if name not in NOT_WALKED]
        return [path for path in files if path.stat().st_size < WALKED_FILE_LIMIT]


def test_no_tracked_file_points_outside_the_repository():
    needle = OUTSIDE.encode()
    hits = []
    for path in tracked_files():
        try:
            data = path.read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            continue  # deleted in the work tree but not yet in the index
        for number, line in enumerate(data.splitlines(), start=1):
            if needle in line:
                hits.append(f"{path.relative_to(ROOT)}:{number}")
    assert not hits, (f"{OUTSIDE} is not part of a clone; cite docs/RULES.md instead: "
                      + ", ".join(hits))


def sections_of(text: str) -> dict[str, tuple[str, str]]:
    """Registry name -> (heading title, section text) of every game section of ``text``."""
    starts = [m.start() for m in HEADING.finditer(text)] + [len(text)]
    found = {}
    for start, end in zip(starts, starts[1:]):
        match = SECTION.match(text, start)
        if match:
            found[match["name"]] = (match["title"], text[match.end():end])
    return found


@functools.lru_cache(maxsize=None)
def sections() -> dict[str, tuple[str, str]]:
    """The game sections of docs/RULES.md."""
    return sections_of(RULES.read_text(encoding="utf-8"))


def test_every_registered_game_has_a_section():
    missing = [f"## {game_class(name).title} (`{name}`)" for name in GAMES
               if sections().get(name, (None,))[0] != game_class(name).title]
    assert not missing, "docs/RULES.md has no section " + "; ".join(missing)


#: Counts as the page's first paragraph writes them.
NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                "fourteen fifteen sixteen seventeen eighteen nineteen twenty twenty-one "
                "twenty-two twenty-three twenty-four twenty-five").split()


def test_the_page_counts_the_games():
    """"for each of the N games": N is the registry's count, in words."""
    said = re.search(r"for each of the ([a-z-]+) games", RULES.read_text()).group(1)
    assert said == NUMBER_WORDS[len(GAMES)], f"RULES.md says {said} games; there are {len(GAMES)}"


def test_every_section_is_a_registered_game():
    assert sorted(set(sections()) - set(GAMES)) == []


def examples(name: str, text: str | None = None) -> list[tuple[bool, dict, str]]:
    """(refused, options, position text) of every example in a game's section (of
    docs/RULES.md, or ``text``)."""
    found = []
    section = sections().get(name, ("", ""))[1] if text is None else text
    for span in CODE_SPAN.findall(section):
        match = EXAMPLE.fullmatch(span)
        if not match:
            continue
        options = {}
        for flag, value in OPTION.findall(match["options"]):
            options[flag.replace("-", "_")] = int(value) if value else True
        found.append((bool(match["refused"]), options, match["position"]))
    return found


def refusal(game, text: str) -> str | None:
    """Why the game does not accept a position text as a legal position, or None."""
    try:
        state = game.parse(text)
    except ValueError as error:
        return str(error)
    reason = game.unreachable_reason(state)
    if reason is None and game.terminal_value(state) is None \
            and game.primitive_value(state) == ILLEGAL:
        reason = game.explain_illegal(state)
    return reason


def unnamed_options(name: str, text: str) -> list[str]:
    """The options of game ``name`` that a section's ``text`` does not mention, and
    its default start if the section does not show it."""
    game = make_game(name)
    missing = [option.flag for option in game.options_spec
               if not re.search(re.escape(option.flag) + r"(?![\w-])", text)]
    return missing + ([] if f"`{game.default_start()}`" in text else [game.default_start()])


def wrong_examples(name: str, text: str | None = None) -> list[str]:
    """The examples of a game's section the code disagrees with, one line each."""
    wrong = []
    for refused, options, position in examples(name, text):
        label = " ".join([f"--{k.replace('_', '-')}" + ("" if v is True else f" {v}")
                          for k, v in options.items()] + [position])
        try:
            game = make_game(name, **options)
        except ValueError as error:
            wrong.append(f"{label}: {error}")
            continue
        if refused:
            if refusal(game, position) is None:
                wrong.append(f"{label} is marked refused but is a legal position")
            continue
        try:
            state = game.parse(position)
        except ValueError as error:
            wrong.append(f"{label}: {error}")
            continue
        reason = game.unreachable_reason(state)
        if reason:
            wrong.append(f"{label}: {reason}")
    return wrong


@pytest.mark.parametrize("name", list(GAMES))
def test_section_names_every_option_and_the_start(name):
    if name not in sections():
        pytest.skip("no section (test_every_registered_game_has_a_section fails)")
    assert unnamed_options(name, sections()[name][1]) == [], \
        "options (or the default start) the section does not show"


@pytest.mark.parametrize("name", list(GAMES))
def test_section_examples_are_true(name):
    if not examples(name):
        pytest.skip("no section (test_every_registered_game_has_a_section fails)")
    wrong = wrong_examples(name)
    assert not wrong, "docs/RULES.md examples the code disagrees with:\n" + "\n".join(wrong)
