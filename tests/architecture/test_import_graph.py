"""The import graph: no circles, and every arrow points down the layers.

Layers, lowest first: ``engine`` <- ``ai`` <- ``games`` <- ``frontend`` <- ``config``; a module
may import from its own layer and the ones below, never above.  Imports inside functions count
(a circle hidden in a function is still a circle); imports under ``if TYPE_CHECKING:`` do not
(they never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("engine", "ai", "games", "frontend", "config")


def _modules() -> dict[str, Path]:
    found = {}
    for package in LAYERS:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(name: str, path: Path) -> set[str]:
    """The project modules ``name`` imports (at any depth but under TYPE_CHECKING)."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    targets: set[str] = set()

    def resolve(module: str) -> str | None:
        while module and module not in MODULES:
            module = module.rpartition(".")[0]
        return module or None

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if (found := resolve(alias.name)) is not None:
                        targets.add(found)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[: len(base) - (child.level - 1)]
                    module = ".".join(base + ([child.module] if child.module else []))
                else:
                    module = child.module or ""
                for alias in child.names:  # `from pkg import submodule` imports the submodule
                    if f"{module}.{alias.name}" in MODULES:
                        targets.add(f"{module}.{alias.name}")
                    elif (found := resolve(module)) is not None:
                        targets.add(found)
            visit(child)

    visit(ast.parse(path.read_text(), filename=str(path)))
    targets.discard(name)
    return targets


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def _without_package_inits(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """A package's ``__init__`` re-exporting its own submodules is not a circle of jobs."""
    return {
        name: {t for t in targets if not (name.startswith(t + ".") and MODULES[t].name == "__init__.py")}
        for name, targets in graph.items()
    }


def test_the_finder_sees_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_there_are_no_import_circles() -> None:
    circles = _circles(_without_package_inits(GRAPH))
    assert circles == [], "import circles:\n" + "\n".join(" <-> ".join(c) for c in circles)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_down_the_layers(name: str) -> None:
    layer = LAYERS.index(name.split(".")[0])
    upward = sorted(t for t in GRAPH[name] if LAYERS.index(t.split(".")[0]) > layer)
    assert upward == [], f"{name} imports from a higher layer: {upward}"
