"""The import graph, built from the source: no cycle between the top-level packages, and
the rules import nothing but themselves and the standard library.

Every import counts, a late one inside a function included: a cycle dodged by importing
late is still a cycle."""

from __future__ import annotations

import ast
import itertools
import sys
from collections import defaultdict
from pathlib import Path

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
