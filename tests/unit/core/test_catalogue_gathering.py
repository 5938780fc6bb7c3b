"""A game's kinds and their state changes gathered from its mechanism modules
(`domain.core.catalogue.declared_by`, `applied_by`): in the modules' order, and a kind two
modules apply refused rather than one handler quietly replacing the other."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest

from domain import games
from domain.core.catalogue import applied_by, declared_by
from domain.core.events import Event


@dataclass(frozen=True, kw_only=True)
class Laid(Event):
    """A test kind."""


@dataclass(frozen=True, kw_only=True)
class Lifted(Event):
    """Another test kind."""


def _lay(state: Any, event: Any) -> Any:
    return state + 1


def _lift(state: Any, event: Any) -> Any:
    return state - 1


def test_kinds_and_handlers_come_in_the_modules_order() -> None:
    first = SimpleNamespace(__name__="first", KINDS=(Laid,), APPLY={Laid: _lay})
    second = SimpleNamespace(__name__="second", KINDS=(Lifted,), APPLY={Lifted: _lift})
    order_of_play = SimpleNamespace(__name__="events", KINDS=())  # kinds whose handlers live in evolve
    assert declared_by([second, first, order_of_play]) == (Lifted, Laid)  # type: ignore[list-item]
    assert applied_by([first, second, order_of_play]) == {Laid: _lay, Lifted: _lift}  # type: ignore[list-item]


def test_a_kind_two_modules_apply_is_refused() -> None:
    first = SimpleNamespace(__name__="first", KINDS=(Laid,), APPLY={Laid: _lay})
    again = SimpleNamespace(__name__="again", KINDS=(), APPLY={Laid: _lift})
    with pytest.raises(TypeError, match="Laid is applied by two modules, again"):
        applied_by([first, again])  # type: ignore[list-item]


@pytest.mark.parametrize("name", ["ticket_to_ride", "age_of_steam", "railway_boom", "toot_toot"])
def test_every_shipped_game_applies_each_of_its_own_kinds(name: str) -> None:
    module = __import__(f"domain.{name}.catalogue", fromlist=["MECHANISMS"])
    own = set(games.current(name).events.kinds.values())
    applied = set(applied_by(module.MECHANISMS))
    assert applied <= own  # no handler for a kind the game does not declare
    assert set(declared_by(module.MECHANISMS)) <= own
