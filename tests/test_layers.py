"""The package's layers, read from the code's own imports (deferred ones inside functions
and type-checking ones included): cli > web > table > (sim | rl | authoring) > play > load >
engine. A module imports only from its own folder or a lower layer; sim, rl and authoring
never import one another; no module imports the package root (``_about`` holds the version);
and no import circle exists between modules. README's Layout section says why."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "uno_rules"
LAYERS = {"engine": 0, "load": 1, "play": 2, "sim": 3, "rl": 3, "authoring": 3, "table": 4,
          "web": 5, "cli": 6}
# The top-level modules: the leaf of facts, the old paths' finder, the package's face (which
# re-exports the engine's classes and the loader), and `python -m uno_rules` (the command).
TOP = {"uno_rules._about": -1, "uno_rules._moved": -1, "uno_rules": 1.5,
       "uno_rules.__main__": 7}


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ["uno_rules", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, is_package: bool, source: str) -> set[str]:
    """The package's modules that module ``name`` imports anywhere in its ``source``."""
    package = name if is_package else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target not in MODULES and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in MODULES and target != name:
                out.add(target)
    return out


GRAPH = {name: _imports(name, path.name == "__init__.py", path.read_text(encoding="utf-8"))
         for name, path in MODULES.items()}


def _layer(name: str) -> tuple[float, str]:
    if name in TOP:
        return TOP[name], name
    folder = name.split(".")[1]
    assert folder in LAYERS, f"{name}: a module outside the layer folders"
    return LAYERS[folder], folder


@pytest.mark.parametrize("name", sorted(MODULES))
def test_a_module_imports_only_its_own_folder_or_lower_layers(name: str) -> None:
    rank, folder = _layer(name)
    wrong = []
    for target in sorted(GRAPH[name]):
        their_rank, their_folder = _layer(target)
        if target == "uno_rules" and name != "uno_rules.__main__":
            wrong.append(f"{target} (the package root: take the version from _about)")
        elif their_folder != folder and their_rank >= rank:
            wrong.append(f"{target} ({their_folder}, not below {folder})")
    assert not wrong, f"{name} imports " + ", ".join(wrong)


def test_no_import_circle() -> None:
    """Tarjan's strongly connected components of the import graph: none has two modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in GRAPH[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(GRAPH):
        if node not in index:
            visit(node)
    assert not circles, circles


def test_the_layers_are_the_package_folders() -> None:
    """Every folder of code is a layer (a new one must be placed), every layer a folder."""
    folders = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert folders - {"rulebooks", "schemas"} == set(LAYERS)


def test_the_checks_see_a_wrong_import() -> None:
    """The reader finds a deferred import inside a function, and the layer rule refuses it."""
    source = "def f() -> None:\n    from ..play import agents\n"
    assert _imports("uno_rules.engine.probe", False, source) == {"uno_rules.play.agents"}
