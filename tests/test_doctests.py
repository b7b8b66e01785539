"""Every docstring example of the package runs, and so do the README's Python examples.

The package's modules are imported by their installed names (``tiersolve.…``) so a
doctest exercises the same module objects as the rest of the suite."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import tiersolve

ROOT = Path(__file__).resolve().parent.parent


def _module_names() -> list[str]:
    names = ["tiersolve"]
    for sub in ("games", "hashers", "solver", "databases"):
        package = importlib.import_module(f"tiersolve.{sub}")
        names.append(package.__name__)
        names += [info.name for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
    names.append("tiersolve.cli")
    return sorted(set(names))


@pytest.mark.parametrize("name", _module_names())
def test_module_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest example(s) of {name} failed (see output)"


def test_every_module_is_checked() -> None:
    """A module added under a package folder is found by the walk above."""
    files = {p.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".")
             for sub in ("games", "hashers", "solver", "databases") for p in (ROOT / sub).glob("*.py")}
    expected = {("tiersolve." + f).removesuffix(".__init__") for f in files}
    assert expected <= set(_module_names())


def test_readme_python_examples(tmp_path, monkeypatch) -> None:
    """The README's ``>>>`` examples run, in a scratch folder with its own databases."""
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```pycon\n(.*?)```", text, flags=re.S)
    assert blocks, "the README has no ```pycon examples"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TIERSOLVE_DB_DIR", str(tmp_path / "db"))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs: dict = {}
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"README block {number + 1}", "README.md", 0)
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} README example(s) failed (see output)"
