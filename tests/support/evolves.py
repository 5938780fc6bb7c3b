"""Counting a game's `evolve` calls, wherever the game bound the function."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def counting(game: str) -> Iterator[list[int]]:
    """Count every call of the game's `evolve` (its `evolve.py`'s), in every module of the game
    that holds it by name: the module itself, and those that hand it on (a decision's `Steps`)."""
    count = [0]
    package = importlib.import_module(f"domain.{game}")
    original: Callable[..., Any] = importlib.import_module(f"domain.{game}.evolve").evolve
    holders = [module for module in (importlib.import_module(f"domain.{game}.{info.name}")
                                     for info in pkgutil.iter_modules(package.__path__))
               if getattr(module, "evolve", None) is original]

    def counted(*args: Any) -> Any:
        count[0] += 1
        return original(*args)

    for module in holders:
        module.evolve = counted  # type: ignore[attr-defined]
    try:
        yield count
    finally:
        for module in holders:
            module.evolve = original  # type: ignore[attr-defined]
