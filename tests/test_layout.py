"""The house's layout: no import cycle anywhere, engine/ never imports pipeline/, and the workers'
contract (``pipeline.tasks``) stays a leaf that no orchestration leaks into.

Every import counts: top-level, inside functions and under ``TYPE_CHECKING``. A module's import
of a package's submodule (``from pipeline.formats import detect``) is an edge to that submodule,
not to the package, since the package's ``__init__`` re-exporting its parts is no cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "pipeline")
#: What the workers' contract may import from pipeline/: the leaves it is built on.
TASKS_MAY_IMPORT = {
    "pipeline.errors",
    "pipeline.recipe",
    "pipeline.recipe_schema",
    "pipeline.store",
    "pipeline.variants",  # a row's variant as a geometry and its canonical key
}


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name -> file, for every module of engine/ and pipeline/."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports anywhere in its file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    wanted: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            wanted.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                wanted.add(submodule if submodule in modules else base)
    found = set()
    for target in wanted:
        while target and target not in modules:  # ``import a.b.c`` of a name: its module
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)
    return found


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    modules = module_files(root)
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def test_no_module_imports_itself_in_a_circle() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(group) for group in found)


def test_a_cycle_is_found_and_named(tmp_path: Path) -> None:
    """The walker itself: a cycle through a TYPE_CHECKING import and a function's import."""
    package = tmp_path / "pipeline"
    package.mkdir()
    (tmp_path / "engine").mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pipeline.b import thing\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pipeline.c import C\n"
    )
    (package / "c.py").write_text("def f():\n    from pipeline import a\n")
    (package / "d.py").write_text("from pipeline.a import x\n")
    assert cycles(import_graph(tmp_path)) == [["pipeline.a", "pipeline.b", "pipeline.c"]]


def test_engine_never_imports_pipeline() -> None:
    graph = import_graph()
    leaks = {
        name: sorted(target for target in imports if target.startswith("pipeline"))
        for name, imports in graph.items()
        if name.startswith("engine")
    }
    assert not {name: found for name, found in leaks.items() if found}


@pytest.mark.parametrize("module", ["pipeline.tasks"])
def test_the_workers_contract_imports_no_orchestration(module: str) -> None:
    """Worker code stays apart from the code that plans, schedules and stores the work."""
    ours = {target for target in import_graph()[module] if target.startswith("pipeline")}
    assert ours <= TASKS_MAY_IMPORT, sorted(ours - TASKS_MAY_IMPORT)
