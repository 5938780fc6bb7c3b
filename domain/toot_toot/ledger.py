"""The bookkeeping every mechanism's `evolve` handlers share: goods into and out of a seat's
hold, and the step a location action leaves the turn at (R19)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.core.events import Event
from domain.core.state import replace
from domain.toot_toot.content import Content
from domain.toot_toot.state import AFTER, LOCATION, SECOND, Seat, State

Handlers = dict[type[Event], Callable[[Content, State, Any], State]]
"""Event kind -> how it changes the state (`evolve` gathers every mechanism's)."""


def goods(seat: Seat, good: str, change: int) -> dict[str, int]:
    """The seat's goods after `change` of `good`; kinds at zero are left out."""
    held = {**seat.goods, good: seat.goods.get(good, 0) + change}
    return {g: n for g, n in held.items() if n}


def location_done(content: Content, s: State, seat: int, kind: str, main: bool) -> State:
    """After a location action: action D leads to the location step; the location step
    ends, unless 2!=2 allows a second one of another kind (R19)."""
    if main:
        return replace(s, step=LOCATION)
    if s.step == LOCATION and _double(content, s, seat):
        return replace(s, step=SECOND, done=(kind,))
    return replace(s, step=AFTER, done=(*s.done, kind))


def _double(content: Content, s: State, seat: int) -> bool:
    player = content.card[s.seats[seat].card]
    return any(s.seats[seat].upgrades.get(a.id, 0) for a in player.abilities if a.effect == "double")


def unchanged(content: Content, state: State, event: Event) -> State:
    """An event that only tells (a hand order shown as it is played): the events that follow
    it change the state."""
    return state
