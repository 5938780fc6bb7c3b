"""The bookkeeping every mechanism's `evolve` handlers share: money between a seat and the bank,
the queue of seats still to act, and goods moving between the bag, the display and the cities."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.age_of_steam.goods import colour_at
from domain.age_of_steam.state import State
from domain.core.events import Event
from domain.core.state import replace, replace_seat

Handlers = dict[type[Event], Callable[[State, Any], State]]
"""Event kind -> how it changes the state (`evolve` gathers every mechanism's)."""


def pay(state: State, seat: int, amount: int) -> State:
    """Money from the seat to the bank (negative: from the bank to the seat)."""
    state = replace_seat(state, seat, cash=state.seats[seat].cash - amount)
    return replace(state, bank=state.bank - amount)


def pop(state: State, seat: int) -> State:
    """The state with `seat`, who has just acted, off the front of the queue."""
    assert state.queue and state.queue[0] == seat, (state.queue, seat)
    return replace(state, queue=state.queue[1:])


def drawn(state: State, outcome: dict[str, int]) -> tuple[str, dict[str, int]]:
    """The colour a stored draw gave, and the bag without it."""
    # The colour follows from the bag and the stored index; the event's `cube` says the same
    # for readers.
    colour = colour_at(state.bag, outcome["value"])
    bag = dict(state.bag)
    bag[colour] -= 1
    return colour, bag


def add_cube(cubes: dict[str, tuple[str, ...]], hex_: str, colour: str) -> dict[str, tuple[str, ...]]:
    out = dict(cubes)
    out[hex_] = tuple(sorted((*out.get(hex_, ()), colour)))
    return out


def set_space(display: dict[str, tuple[str | None, ...]], column: str, space: int,
              cube: str | None) -> dict[str, tuple[str | None, ...]]:
    out = dict(display)
    spaces = list(out[column])
    spaces[space] = cube
    out[column] = tuple(spaces)
    return out
