"""Counting a game's `evolve` calls, wherever the game bound the function."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

EVOLVING_MODULES = ("evolve", "steps")
"""Where each game binds its `evolve`: the module itself and the decision's `Steps`."""


@contextmanager
def counting(game: str) -> Iterator[list[int]]:
    """Count every call of the game's `evolve`, wherever the game bound it."""
    count = [0]
    patched: list[tuple[Any, Callable[..., Any]]] = []
    for name in EVOLVING_MODULES:
        module = importlib.import_module(f"domain.{game}.{name}")
        original = module.evolve

        def counted(*args: Any, _original: Callable[..., Any] = original) -> Any:
            count[0] += 1
            return _original(*args)

        module.evolve = counted
        patched.append((module, original))
    try:
        yield count
    finally:
        for module, original in patched:
            module.evolve = original
