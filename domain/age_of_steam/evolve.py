"""`evolve`: the state after one event, dispatched on the event's type. It never validates and
never draws randomness: every event carries what it changed (a placement's owners, the cube a
draw gave, who bids next), so applying it is bookkeeping, and a replay never needs the rules'
reasoning again. Each mechanism module applies its own kinds (`APPLY`); the handlers here are
for the order of play's (`events.py`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.age_of_steam import auction, build_track, events
from domain.age_of_steam.board import Map
from domain.age_of_steam.catalogue import MECHANISMS
from domain.age_of_steam.ledger import Handlers, add_cube, drawn, pay, set_space
from domain.age_of_steam.state import AUCTION, State
from domain.core.catalogue import UnknownKind, applied_by
from domain.core.events import Event
from domain.core.state import replace, replace_seat


def evolve(map_: Map, state: State, event: Event) -> State:
    if type(event) in _ON_THE_MAP:
        return _ON_THE_MAP[type(event)](map_, state, event)
    apply = _APPLY.get(type(event))
    if apply is None:
        # The core folds its own kinds (creation, the seed's reveal, rewinds) itself, so a
        # kind reaching here that Age of Steam does not declare is a mistake, not a no-op.
        raise UnknownKind(event.kind, "Age of Steam")
    return apply(state, event)


# --- the opening --------------------------------------------------------------------------


def _unchanged(state: State, event: events.OrderDieRolled | events.TurnEnded) -> State:
    return state


def _player_order_set(state: State, event: events.PlayerOrderSet) -> State:
    return replace(state, order=tuple(event.order))


def _starting_capital(state: State, event: events.StartingCapitalTaken) -> State:
    seat = event.seat
    state = replace_seat(state, seat, shares=state.seats[seat].shares + event.shares)
    return pay(state, seat, -event.cash)


def _display_cube_drawn(state: State, event: events.DisplayCubeDrawn) -> State:
    colour, bag = drawn(state, event.random)
    return replace(state, bag=bag, display=set_space(state.display, event.column, event.space, colour))


def _city_cube_drawn(state: State, event: events.CityCubeDrawn) -> State:
    colour, bag = drawn(state, event.random)
    return replace(state, bag=bag, cubes=add_cube(state.cubes, event.hex, colour))


# --- turns and phases ---------------------------------------------------------------------


def _turn_began(state: State, event: events.TurnBegan) -> State:
    holder = state.actions.get("turn_order")
    if holder is not None and state.seats[holder].eliminated:
        holder = None
    return replace(state, turn=event.turn, actions={}, turn_order_pass=holder, loco_upgraded=frozenset(), build=None)


def _phase_began(state: State, event: events.PhaseBegan) -> State:
    state = replace(state, phase=event.phase, queue=tuple(event.queue))
    return replace(state, auction=auction.opened(state)) if event.phase == AUCTION else state


_APPLY: Handlers = {
    events.OrderDieRolled: _unchanged,
    events.PlayerOrderSet: _player_order_set,
    events.StartingCapitalTaken: _starting_capital,
    events.DisplayCubeDrawn: _display_cube_drawn,
    events.CityCubeDrawn: _city_cube_drawn,
    events.TurnBegan: _turn_began,
    events.PhaseBegan: _phase_began,
    events.TurnEnded: _unchanged,
    **applied_by(MECHANISMS),
}

_ON_THE_MAP: dict[type[Event], Callable[[Map, State, Any], State]] = {build_track.CityUrbanized: build_track.urbanized}
"""The kinds whose bookkeeping reads the map."""
