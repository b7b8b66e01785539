"""The package's layout: layers that import one way, read from the source itself; a
layout that editors follow; a package that holds only its own modules; scripts that
run the installed package.

The layers, bottom first (docs/ARCHITECTURE.md): the package's own modules
(``tiersolve.jit``, ``values``, ``contract``, ``bits``, ``errors``), then
``hashers``, ``games``, ``solver``, ``databases``, ``openspiel`` and ``cli``. Every
import counts: at the top of a module, inside a function, under ``TYPE_CHECKING``."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "tiersolve"

#: The layers, bottom first: a module may import its own layer and those below.
LAYERS = ("", "hashers", "games", "solver", "databases", "openspiel", "cli")
#: The layers whose folders are links to the repository's top-level folders; the
#: others (openspiel, cli) are real folders of src/tiersolve.
LINKED = ("hashers", "games", "solver", "databases")


def module_files(package: Path, name: str = "tiersolve") -> dict[str, Path]:
    """Dotted name -> file of every module of the package at ``package`` (its layer
    folders are links in a checkout, followed here as Python follows them)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join((name, *parts))] = path
    for folder in sorted(p for p in package.iterdir() if p.is_dir() and p.is_symlink()):
        found.update(module_files(folder, f"{name}.{folder.name}"))
    return found


def layer_of(module: str) -> int:
    """The layer of a dotted module name; ``__main__`` runs the commands."""
    parts = module.split(".")[1:]
    if parts == ["__main__"]:
        return LAYERS.index("cli")
    if parts and parts[0] in LAYERS[1:]:
        return LAYERS.index(parts[0])
    return 0


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, int]]:
    """(module imported, line) for every import of the package's modules in one file,
    wherever it stands (function bodies and ``if TYPE_CHECKING:`` blocks included)."""
    root = name.split(".")[0]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                origin = f"{base}.{node.module}" if node.module else base
            else:
                origin = node.module or ""
            targets = [f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in modules else origin
                       for alias in node.names]
        else:
            continue
        for target in targets:
            if target == root or target.startswith(root + "."):
                while target not in modules and "." in target:
                    target = target.rpartition(".")[0]
                found.append((target, node.lineno))
    return found


def layering_problems(package: Path, name: str = "tiersolve") -> list[str]:
    """Every import that goes up a layer, and every cycle of modules, as one line each."""
    modules = module_files(package, name)
    graph: dict[str, set[str]] = {module: set() for module in modules}
    problems = []
    for module, path in modules.items():
        for target, line in imports_of(module, path, modules):
            if target == module:
                continue
            graph[module].add(target)
            if layer_of(target) > layer_of(module):
                problems.append(f"{path.relative_to(package.parent)}:{line}: {module} (layer "
                                f"{LAYERS[layer_of(module)] or 'bottom'}) imports {target} (layer "
                                f"{LAYERS[layer_of(target)] or 'bottom'}, above it)")
    problems += [f"import cycle: {' -> '.join(cycle)}" for cycle in _cycles(graph)]
    return problems


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of two or more modules
    (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for child in sorted(graph[node]):
            if child not in index:
                visit(child)
                low[node] = min(low[node], low[child])
            elif child in stack:
                low[node] = min(low[node], index[child])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_cycle_in(graph, group) for group in groups]


def _cycle_in(graph: dict[str, set[str]], group: list[str]) -> list[str]:
    """A path from the group's first module back to itself, inside the group."""
    members, start = set(group), group[0]
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        node = frontier.pop(0)
        for child in sorted(graph[node] & members):
            if child == start:
                return paths[node] + [start]
            if child not in paths:
                paths[child] = paths[node] + [child]
                frontier.append(child)
    return group


def test_every_layer_imports_only_its_own_and_those_below():
    problems = layering_problems(PACKAGE)
    assert not problems, "\n".join(problems)


def test_the_check_catches_an_import_up_a_layer_inside_a_function(tmp_path):
    """The check itself, on a small package built to break it: a function-level import
    from the games up to the commands, and two modules of one layer importing each
    other."""
    package = tmp_path / "tiersolve"
    for folder in ("games", "cli", "solver"):
        (package / folder).mkdir(parents=True)
        (package / folder / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "games" / "rules.py").write_text(textwrap.dedent("""\
        def name():
            from tiersolve.cli.main import prog
            return prog
    """))
    (package / "cli" / "main.py").write_text("from tiersolve.games import rules\nprog = 'x'\n")
    (package / "solver" / "one.py").write_text("from tiersolve.solver import two\n")
    (package / "solver" / "two.py").write_text("from . import one\n")
    problems = layering_problems(package)
    assert problems == [
        "tiersolve/games/rules.py:2: tiersolve.games.rules (layer games) imports "
        "tiersolve.cli.main (layer cli, above it)",
        "import cycle: tiersolve.cli.main -> tiersolve.games.rules -> tiersolve.cli.main",
        "import cycle: tiersolve.solver.one -> tiersolve.solver.two -> tiersolve.solver.one",
    ]


def test_the_package_is_a_plain_src_layout():
    """Editors and type checkers find every module where its dotted name says: under
    src/, through the layer folders' links to the repository's folders."""
    for layer in LINKED:
        link = PACKAGE / layer
        assert link.is_symlink() and link.resolve() == ROOT / layer, link
    for folder in set(LAYERS[1:]) - set(LINKED):
        assert (PACKAGE / folder).is_dir() and not (PACKAGE / folder).is_symlink(), folder
    import tiersolve.jit
    import tiersolve.solver.loopy

    assert Path(tiersolve.jit.__file__).resolve() == PACKAGE / "jit.py"
    assert Path(tiersolve.solver.loopy.__file__).resolve() == ROOT / "solver" / "loopy.py"


def test_an_editor_follows_the_imports():
    """jedi (the engine of several editors' Python support) goes from an import of a
    kernel module to its definition in the repository."""
    jedi = pytest.importorskip("jedi")
    source = "from tiersolve.solver.loopy import solve_tier\nfrom tiersolve.jit import jit\n"
    script = jedi.Script(source, path=str(ROOT / "scratch.py"))
    for line, column, file in ((1, 35, ROOT / "solver" / "loopy.py"),
                               (2, 27, PACKAGE / "jit.py")):
        found = script.goto(line, column, follow_imports=True)
        assert found and Path(found[0].module_path).resolve() == file, found


def python(code: str, cwd: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *flags, "-c", code], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


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
        import tiersolve.games, tiersolve.databases, tiersolve.databases.cluster, tiersolve.cli
    """
    done = python(code, ROOT if where == "repository" else tmp_path)
    assert done.returncode == 0, done.stderr
    assert "imported" not in done.stdout
    contents = done.stdout.strip().splitlines()[-1]
    assert "'cli'" in contents and "'tiersolve'" not in contents and "'tests'" not in contents


def test_importing_a_layer_loads_no_layer_above_it():
    """What the source says, at run time: importing the lookup library loads no
    command, a game no database module."""
    code = """if True:
        import sys
        import tiersolve.{layer}
        print(sorted(name for name in sys.modules if name.startswith(({above}))))
    """
    cases = {"databases.reader": '"tiersolve.cli", "tiersolve.openspiel"',
             "databases.build": '"tiersolve.cli", "tiersolve.openspiel"',
             "games.ttt": '"tiersolve.databases", "tiersolve.cli", "tiersolve.solver"',
             "hashers.boards": '"tiersolve.games", "tiersolve.solver"'}
    if importlib.util.find_spec("pyspiel") is not None:  # the extra openspiel
        cases["openspiel.evaluate"] = '"tiersolve.cli",'
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
