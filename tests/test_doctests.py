"""Every docstring example of the package runs, and so do the README's Python examples.

The package's modules are imported by their installed names (``tiersolve.…``) so a
doctest exercises the same module objects as the rest of the suite."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


#: The package and its subpackages, and where each lives in the repository.
PACKAGES = {"tiersolve": "src/tiersolve", "tiersolve.hashers": "hashers", "tiersolve.games": "games",
            "tiersolve.solver": "solver", "tiersolve.databases": "databases",
            "tiersolve.cli": "src/tiersolve/cli", "tiersolve.openspiel": "src/tiersolve/openspiel"}
#: Modules not to import for their doctests: running the command.
SKIPPED = {"tiersolve.__main__"}
if importlib.util.find_spec("pyspiel") is None:  # without the extra openspiel (CI has it)
    SKIPPED |= {"tiersolve.openspiel"}
    del PACKAGES["tiersolve.openspiel"]


def _module_names() -> list[str]:
    names = set(PACKAGES)
    for name in PACKAGES:
        package = importlib.import_module(name)
        names |= {info.name for info in pkgutil.iter_modules(package.__path__, name + ".")}
    return sorted(names - SKIPPED)


@pytest.mark.parametrize("name", _module_names())
def test_module_doctests(name: str, tmp_path, monkeypatch) -> None:
    """In a scratch folder: the examples that build a database write it there, so
    runs side by side (worktrees, parallel workers) never share a file."""
    monkeypatch.chdir(tmp_path)
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest example(s) of {name} failed (see output)"


def test_every_module_is_checked() -> None:
    """A module added to a package's folder is found by the walk above."""
    expected = {f"{name}.{path.stem}" for name, folder in PACKAGES.items()
                for path in (ROOT / folder).glob("*.py") if path.stem != "__init__"}
    assert expected - SKIPPED <= set(_module_names())
    assert {"tiersolve.cli", "tiersolve.cli.play", "tiersolve.databases.cluster"} <= set(_module_names())


def test_readme_python_examples(tmp_path) -> None:
    """``python -m doctest README.md`` passes, in a scratch folder (its examples
    build their database there)."""
    done = subprocess.run([sys.executable, "-m", "doctest", str(ROOT / "README.md")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600,
                          env={k: v for k, v in os.environ.items() if k != "TIERSOLVE_DB_DIR"})
    assert done.returncode == 0 and done.stdout == "", done.stdout
    assert "```pycon" in (ROOT / "README.md").read_text()
