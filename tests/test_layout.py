"""The package's layout (issue 20): its layers import only those below them, moved
modules keep their old names with a DeprecationWarning, the package holds nothing
but its own modules, and the scripts run the installed package."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from tiersolve._moved import MOVED_MODULES

ROOT = Path(__file__).resolve().parent.parent


def python(code: str, cwd: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *flags, "-c", code], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("old", sorted(MOVED_MODULES))
def test_a_moved_module_keeps_its_old_name_with_a_warning(old, monkeypatch):
    parent, _, leaf = old.rpartition(".")
    monkeypatch.delitem(sys.modules, old, raising=False)
    monkeypatch.delattr(importlib.import_module(parent), leaf, raising=False)
    with pytest.warns(DeprecationWarning, match=f"{old} has moved to {MOVED_MODULES[old]}") as caught:
        __import__(old)  # as an import statement does
    module = sys.modules[old]
    assert module is importlib.import_module(MOVED_MODULES[old])
    assert caught[0].filename == __file__  # it points at the line that imported it
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert importlib.import_module(old) is module  # warned once, as imports are cached


def test_old_names_of_the_commands_still_run(monkeypatch, capsys):
    monkeypatch.delitem(sys.modules, "tiersolve.databases.cli", raising=False)
    with pytest.warns(DeprecationWarning):
        from tiersolve.databases.cli import build_main
    assert build_main(["1210", "--plan", "--json"]) == 0
    assert '"positions": 22' in capsys.readouterr().out


@pytest.mark.parametrize("where", ["repository", "elsewhere"])
def test_the_package_holds_only_its_own_modules(where, tmp_path):
    """``import tiersolve.tests`` and the like fail, and ``help(tiersolve)`` lists no
    ``tiersolve`` inside itself, whether Python starts in the repository or not."""
    code = """if True:
        import importlib, pydoc
        import tiersolve
        for name in ("tiersolve.tiersolve", "tiersolve.scripts", "tiersolve.tests", "tiersolve.src"):
            try:
                importlib.import_module(name)
                print("imported", name)
            except ModuleNotFoundError:
                pass
        text = pydoc.render_doc(tiersolve, renderer=pydoc.plaintext)
        contents = text[text.index("PACKAGE CONTENTS"):text.index("VERSION")].split()
        print(contents)
        import tiersolve.games, tiersolve.databases, tiersolve.solver.cluster, tiersolve.cli
    """
    done = python(code, ROOT if where == "repository" else tmp_path)
    assert done.returncode == 0, done.stderr
    assert "imported" not in done.stdout
    contents = done.stdout.strip().splitlines()[-1]
    assert "'cli'" in contents and "'tiersolve'" not in contents and "'tests'" not in contents


def test_layers_import_only_the_layers_below_them():
    """Importing a layer loads none of the layers above it (the lookup library no
    command, the solver no database module)."""
    code = """if True:
        import sys
        import tiersolve.{layer}
        above = sorted(name for name in sys.modules
                       if name.startswith(({above})) and name != "tiersolve.errors")
        print(above)
    """
    commands = ('"tiersolve.cli", "tiersolve.play", "tiersolve.bench", "tiersolve.board", '
                '"tiersolve.history"')
    cases = {"solver.cluster": f'"tiersolve.databases", {commands}',
             "databases.reader": commands, "databases.build": commands,
             "games.ttt": f'"tiersolve.databases", {commands}'}
    for layer, above in cases.items():
        done = python(code.format(layer=layer, above=above), ROOT)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "[]", f"tiersolve.{layer} imports {done.stdout.strip()}"


def test_a_script_without_an_installed_package_says_how_to_install_it(tmp_path):
    # -S: no site-packages, so no tiersolve (nor numpy) to import
    done = subprocess.run([sys.executable, "-S", str(ROOT / "scripts" / "build_db.py"), "1210"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == (f"build_db.py: error: tiersolve is not installed; in {ROOT} "
                                   "run: pip install -e .")
    assert not (tmp_path / "db").exists()
