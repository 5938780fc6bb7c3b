"""The import graph, built from the source: no cycle between the top-level packages, no
circle between any two files, and the rules import nothing but themselves and the standard
library.

Every import counts, a late one inside a function included: a cycle dodged by importing
late is still a cycle."""

from __future__ import annotations

import ast
import itertools
import sys
from collections import defaultdict
from pathlib import Path

import networkx

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("domain", "projections", "service", "cli")
"""Each may import only those before it: the rules, the read models, the application and
its REST API, the command line."""


def imports_of(path: Path) -> list[str]:
    """The absolute modules a file imports (relative imports stay in their package)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
    return found


def package_graph() -> dict[str, dict[str, list[str]]]:
    """package -> package it imports -> the files that do."""
    graph: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for module in imports_of(path):
                top = module.split(".")[0]
                if top in PACKAGES and top != package:
                    graph[package][top].append(f"{path.relative_to(ROOT)}: {module}")
    return graph


def cycles(graph: dict[str, dict[str, list[str]]]) -> list[list[str]]:
    """Every elementary cycle's packages, found by a depth-first walk from each package."""
    found: list[list[str]] = []

    def walk(path: list[str]) -> None:
        for nxt in graph.get(path[-1], {}):
            if nxt == path[0]:
                found.append([*path, nxt])
            elif nxt not in path and nxt > path[0]:
                walk([*path, nxt])

    for start in sorted(graph):
        walk([start])
    return found


def test_there_is_no_import_cycle_between_packages() -> None:
    graph = package_graph()
    found = cycles(graph)
    evidence = {" -> ".join(cycle): [graph[a][b][0] for a, b in itertools.pairwise(cycle)] for cycle in found}
    assert evidence == {}


def test_each_package_imports_only_the_packages_below_it() -> None:
    graph = package_graph()
    upward = [line for package, targets in graph.items() for target, lines in targets.items()
              if PACKAGES.index(target) > PACKAGES.index(package) for line in lines]
    assert upward == []


def test_the_rules_import_only_the_rules_and_the_standard_library() -> None:
    offenders = []
    for path in sorted((ROOT / "domain").rglob("*.py")):
        offenders += [f"{path.relative_to(ROOT)}: {module}" for module in imports_of(path)
                      if module.split(".")[0] not in sys.stdlib_module_names and module.split(".")[0] != "domain"
                      and module != "__future__"]
    assert offenders == []


def test_the_graph_sees_a_cycle_and_a_late_import(tmp_path: Path) -> None:
    """The check itself can fail: a late import inside a function is found, and two
    packages importing each other are a cycle."""
    late = tmp_path / "late.py"
    late.write_text("def f():\n    from service.application import Caboose\n    return Caboose\n", encoding="utf-8")
    assert imports_of(late) == ["service.application"]
    assert cycles({"projections": {"service": ["x"]}, "service": {"projections": ["y"]}}) == [
        ["projections", "service", "projections"]]
    assert cycles({"cli": {"service": ["x"]}, "service": {"domain": ["y"]}}) == []


# -- circles between files --------------------------------------------------------------------

def modules_under(root: Path) -> dict[str, Path]:
    """Every module of the four packages under `root`, by dotted name (a package by its
    `__init__.py`)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported_modules(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of `known` that `module` imports, anywhere in the file (late, and under
    TYPE_CHECKING, included). `from package import name` imports the submodule when `name`
    is one, the package's `__init__` otherwise; `import a.b.c` imports `a.b.c`."""

    def nearest(name: str) -> str | None:
        parts = name.split(".")
        while parts and ".".join(parts) not in known:
            parts.pop()
        return ".".join(parts) or None

    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found |= {nearest(alias.name) for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[:len(package) - node.level + 1], *([node.module] if node.module else [])])
            found |= {f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else nearest(base) for alias in node.names}
    return {name for name in found if name is not None and name != module}


def module_graph(root: Path = ROOT) -> networkx.DiGraph:
    known = modules_under(root)
    graph = networkx.DiGraph()
    graph.add_nodes_from(known)
    graph.add_edges_from((module, target) for module, path in known.items() for target in imported_modules(module, path, known))
    return graph


def import_circles(graph: networkx.DiGraph) -> list[list[str]]:
    """Each set of files that import one another, round a circle: every strongly connected
    component of more than one module, each named with one of its circles."""
    found = []
    for component in networkx.strongly_connected_components(graph):
        if len(component) > 1:
            circle = [edge[0] for edge in networkx.find_cycle(graph.subgraph(component))]
            found.append([*sorted(component), "circle: " + " -> ".join([*circle, circle[0]])])
    return sorted(found)


def test_no_file_imports_itself_round_a_circle() -> None:
    """A module may not import (even late, even for type hints) one that leads back to it:
    what two modules share gets a module of its own below both."""
    graph = module_graph()
    assert len(graph) > 100 and graph.has_edge("cli.main", "cli.referee")
    circles = import_circles(graph)
    assert circles == [], "files importing one another:\n" + "\n".join(f"{', '.join(c[:-1])} ({c[-1]})" for c in circles)


def test_the_circle_check_sees_a_circle_through_late_and_type_only_imports(tmp_path: Path) -> None:
    for package in PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "cli" / "__init__.py").write_text("from cli import main\n", encoding="utf-8")
    (tmp_path / "cli" / "main.py").write_text("from cli import helpers\n", encoding="utf-8")
    (tmp_path / "cli" / "helpers.py").write_text("def f():\n    from cli.main import x\n", encoding="utf-8")
    (tmp_path / "domain" / "rules.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from domain.steps import Steps\n", encoding="utf-8")
    (tmp_path / "domain" / "steps.py").write_text("from . import rules\nimport domain.shared\n", encoding="utf-8")
    (tmp_path / "domain" / "shared.py").write_text("import os\n", encoding="utf-8")
    circles = import_circles(module_graph(tmp_path))
    assert [circle[:-1] for circle in circles] == [["cli.helpers", "cli.main"], ["domain.rules", "domain.steps"]]
    assert circles[0][-1] in ("circle: cli.helpers -> cli.main -> cli.helpers", "circle: cli.main -> cli.helpers -> cli.main")
    # `from cli import main` in the package's own __init__ is no circle with its modules.
    assert module_graph(tmp_path).has_edge("cli", "cli.main") and not module_graph(tmp_path).has_edge("cli.main", "cli")
