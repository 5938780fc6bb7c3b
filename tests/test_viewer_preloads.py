"""The replay page asks for every module its first board waits for at once, from its head
(`<link rel="modulepreload">`): a module found only by reading another is asked for a round
trip late. And it asks for nothing more then: every file asked for early is one more the
browser's six connections carry before the first board, so what comes after it (the event
list, the charts) is imported by main.js once the board is painted."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
JS = ROOT / "service" / "viewer" / "static" / "js"
TEMPLATE = ROOT / "service" / "viewer" / "templates" / "replay.html"

_STATIC_IMPORT = re.compile(r'^import\s[^;]*?\sfrom\s+"\./(\w+)\.js";', re.M)
_DYNAMIC_IMPORT = re.compile(r'\bimport\(\s*"\./(\w+)\.js"\s*\)')


def static_graph(module: str) -> set[str]:
    """`module` and every module of this folder it imports statically, directly or not."""
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(_STATIC_IMPORT.findall((JS / f"{name}.js").read_text()))
    return seen


def preloaded() -> set[str]:
    loop = re.search(r"\{% for module in \[([^\]]*)\] %\}\s*<link rel=\"modulepreload\"", TEMPLATE.read_text())
    assert loop, "the page's list of modules to preload"
    return set(re.findall(r"'(\w+)'", loop.group(1)))


def test_the_page_preloads_exactly_the_modules_main_imports_statically() -> None:
    assert preloaded() == static_graph("main")


def test_what_follows_the_first_board_is_imported_after_it() -> None:
    later = set(_DYNAMIC_IMPORT.findall((JS / "main.js").read_text()))
    assert {"eventlist", "charts", "figures", "zoom"} <= later
    assert not later & static_graph("main"), "a module imported later is not also imported up front"
