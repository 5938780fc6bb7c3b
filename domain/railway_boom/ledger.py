"""The bookkeeping every mechanism's `evolve` handlers share: resources and VP on a seat, a
conversion recorded in a move's own event, cards out of a pile by name, and the order a
shuffle gave."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.core.events import Event
from domain.core.randomness import RANDOM_KEY
from domain.core.state import replace_seat
from domain.railway_boom.content import Content
from domain.railway_boom.state import State

Handlers = dict[type[Event], Callable[[Content, State, Any], State]]
"""Event kind -> how it changes the state (`evolve` gathers every mechanism's)."""


def add(mapping: Any, key: str, amount: int) -> dict[str, int]:
    return {**mapping, key: mapping.get(key, 0) + amount}


def add_resource(state: State, seat: int, kind: str, amount: int) -> State:
    return replace_seat(state, seat, resources=add(state.seats[seat].resources, kind, amount))


def convert(state: State, seat: int, into: str, pairs: Any) -> State:
    """A conversion recorded in the move's own event (R11), applied before its payment."""
    for source, count in (pairs or {}).items():
        state = add_resource(add_resource(state, seat, source, -2 * count), seat, into, count)
    return state


def score(state: State, seat: int, amount: int, source: str) -> State:
    return replace_seat(state, seat, vp=state.seats[seat].vp + amount, scored=add(state.seats[seat].scored, source, amount))


def without(cards: tuple[str, ...], *gone: str) -> tuple[str, ...]:
    """`cards` less each of `gone`, by name: a card turned up at a table need not be the
    deck's top (the deck's order there is unknown), and for a seeded deck it is the top."""
    out = list(cards)
    for card in gone:
        out.remove(card)
    return tuple(out)


def shuffle_order(event: Event) -> tuple[str, ...]:
    return tuple(event.secret()[RANDOM_KEY]["shuffle"])


def unchanged(content: Content, state: State, event: Event) -> State:
    """An event that only tells (an icon reached, a train formed): the events that follow
    it change the state."""
    return state
