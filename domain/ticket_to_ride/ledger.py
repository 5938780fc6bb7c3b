"""The bookkeeping every mechanism's `evolve` handlers share: cards into a hand, cards and
tickets out of a pile, and the order a shuffle gave.

A drawn card leaves the deck by value (its first copy), not from the top: at a table a
deck's order is never known, so the card turned up is whatever was entered; in a seeded game
it is the top card, and taking the first copy of each drawn value takes exactly the top cards."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from domain.core.events import Event
from domain.core.randomness import RANDOM_KEY
from domain.core.state import changed
from domain.ticket_to_ride.board import Board
from domain.ticket_to_ride.state import State

Handlers = dict[type[Event], Callable[[Board, State, Any], State]]
"""Event kind -> how it changes the state on the map (`evolve` gathers every mechanism's)."""


def added(hand: Mapping[str, int], cards: Iterable[str]) -> Mapping[str, int]:
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, hand[card]) + 1
    return changed(hand, counts)


def without(pile: tuple[str, ...], drawn: Iterable[str]) -> tuple[str, ...]:
    """`pile` with the first copy of each drawn item taken out."""
    out = list(pile)
    for item in drawn:
        out.remove(item)
    return tuple(out)


def shuffle_order(event: Event) -> tuple[str, ...]:
    """The order a shuffle gave, kept in the event's referees' secret."""
    return tuple(event.secret()[RANDOM_KEY]["shuffle"])
