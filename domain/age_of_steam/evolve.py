"""`evolve`: the state after one event, dispatched on the event's type. It never validates and
never draws randomness: every event carries what it changed (a placement's owners, the cube a
draw gave, who bids next), so applying it is bookkeeping, and a replay never needs the rules'
reasoning again. The mechanism modules (`shares`, `auction`, `income`, `growth`) apply their
own events; the handlers here are for the kinds of `events.py`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.age_of_steam import auction, events, growth, income, shares
from domain.age_of_steam.board import Map
from domain.age_of_steam.ledger import add_cube, drawn, pay, pop, set_space
from domain.age_of_steam.state import AUCTION, OVER, BuildTurn, Placed, State
from domain.age_of_steam.track import unown, urbanize
from domain.core.catalogue import UnknownKind
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


# --- setup ------------------------------------------------------------------------------


def _unchanged(state: State, event: events.OrderDieRolled | events.TurnEnded | events.TieBreakRolled) -> State:
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


# --- turn and phases --------------------------------------------------------------------


def _turn_began(state: State, event: events.TurnBegan) -> State:
    holder = state.actions.get("turn_order")
    if holder is not None and state.seats[holder].eliminated:
        holder = None
    return replace(state, turn=event.turn, actions={}, turn_order_pass=holder, loco_upgraded=frozenset(), build=None)


def _phase_began(state: State, event: events.PhaseBegan) -> State:
    phase, queue = event.phase, tuple(event.queue)
    state = replace(state, phase=phase, queue=queue)
    return replace(state, auction=auction.opened(state)) if phase == AUCTION else state


# --- actions and track ------------------------------------------------------------------


def _action_selected(state: State, event: events.ActionSelected) -> State:
    actions = dict(state.actions)
    actions[event.action] = event.seat
    return pop(replace(state, actions=actions), event.seat)


def _locomotive_increased(state: State, event: events.LocomotiveIncreased) -> State:
    return replace_seat(state, event.seat, locomotive=event.after)


def _build_turn_began(state: State, event: events.BuildTurnBegan) -> State:
    at_risk = tuple((port, length) for port, length in event.at_risk)
    return replace(state, build=BuildTurn(event.seat, event.limit, at_risk=at_risk))


def _city_urbanized(map_: Map, state: State, event: events.CityUrbanized) -> State:
    hex_, seat = event.hex, event.seat
    old = state.board.get(hex_)
    board, new_cities, _ = urbanize(map_, state.board, state.new_cities, hex_, event.city, seat)
    stock = state.stock
    discs = state.discs
    if old is not None:
        stock = dict(stock)
        stock[old.tile] += 1
        discs += int(old.disc)
    cubes = state.cubes if hex_ in state.cubes else {**state.cubes, hex_: ()}
    build = state.build
    assert build is not None
    return replace(
        state, board=board, new_cities=new_cities, stock=stock, discs=discs, cubes=cubes,
        build=replace(build, urbanized=True),
    )


def _track_built(state: State, event: events.TrackBuilt) -> State:
    seat, hex_, tile = event.seat, event.hex, event.tile
    board = dict(state.board)
    board[hex_] = Placed(tile, event.rotation, tuple(event.owners), event.disc)
    for other, index in event.taken:
        placed = board[other]
        owners = list(placed.owners)
        owners[index] = seat
        board[other] = Placed(placed.tile, placed.rotation, tuple(owners), placed.disc)
    stock = dict(state.stock)
    stock[tile] -= 1
    if event.returned is not None:
        stock[event.returned] += 1
    build = state.build
    assert build is not None
    state = replace(
        state, board=board, stock=stock, discs=state.discs - event.disc_delta,
        build=replace(build, placed=(*build.placed, hex_)),
    )
    if not state.seats[seat].built:
        state = replace_seat(state, seat, built=True)
    return pay(state, seat, event.cost)


def _build_ended(state: State, event: events.BuildEnded) -> State:
    return pop(state, event.seat)


def _track_abandoned(state: State, event: events.TrackAbandoned) -> State:
    return replace(state, board=unown(state.board, [(h, i) for h, i in event.segments]))


# --- moving goods -----------------------------------------------------------------------


def _goods_delivered(state: State, event: events.GoodsDelivered) -> State:
    source, cube = event.source, event.cube
    cubes = dict(state.cubes)
    held = list(cubes[source])
    held.remove(cube)
    cubes[source] = tuple(held)
    bag = dict(state.bag)
    bag[cube] += 1
    state = replace(state, cubes=cubes, bag=bag)
    for key, gained in event.income.items():
        seat = int(key)
        before = state.seats[seat]
        state = replace_seat(state, seat, income=before.income + gained, income_gained=before.income_gained + gained)
    return pop(state, event.seat)


def _locomotive_upgraded_instead(state: State, event: events.LocomotiveUpgradedInsteadOfMove) -> State:
    seat = event.seat
    state = replace_seat(state, seat, locomotive=event.after)
    return pop(replace(state, loco_upgraded=state.loco_upgraded | {seat}), seat)


def _move_passed(state: State, event: events.MovePassed) -> State:
    return pop(state, event.seat)


# --- the end ------------------------------------------------------------------------------


def _final_scored(state: State, event: events.FinalScored) -> State:
    return replace_seat(state, event.seat, final_vp=event.vp)


def _game_ended(state: State, event: events.GameEnded) -> State:
    return replace(state, phase=OVER, queue=(), auction=None, build=None, winners=tuple(event.winners))


_APPLY: dict[type[Event], Callable[[State, Any], State]] = {
    events.OrderDieRolled: _unchanged,
    events.PlayerOrderSet: _player_order_set,
    events.StartingCapitalTaken: _starting_capital,
    events.DisplayCubeDrawn: _display_cube_drawn,
    events.CityCubeDrawn: _city_cube_drawn,
    events.TurnBegan: _turn_began,
    events.PhaseBegan: _phase_began,
    events.ActionSelected: _action_selected,
    events.LocomotiveIncreased: _locomotive_increased,
    events.BuildTurnBegan: _build_turn_began,
    events.TrackBuilt: _track_built,
    events.BuildEnded: _build_ended,
    events.TrackAbandoned: _track_abandoned,
    events.GoodsDelivered: _goods_delivered,
    events.LocomotiveUpgradedInsteadOfMove: _locomotive_upgraded_instead,
    events.MovePassed: _move_passed,
    events.TurnEnded: _unchanged,
    events.FinalScored: _final_scored,
    events.TieBreakRolled: _unchanged,
    events.GameEnded: _game_ended,
    **shares.APPLY,
    **auction.APPLY,
    **income.APPLY,
    **growth.APPLY,
}

_ON_THE_MAP: dict[type[Event], Callable[[Map, State, Any], State]] = {
    events.CityUrbanized: _city_urbanized,
}
"""The one kind whose bookkeeping reads the map: a new city takes over the track it completes."""
