"""What the rules allow now: who may act, the checks `decide` runs before it emits anything
(each raising `IllegalMove` with a sentence for the player), and the list of every legal move
for clients, bots and playouts. Both sides share the same predicates; the mechanisms with a
module of their own (`shares`, `auction`, `growth`) keep their checks and moves there."""

from __future__ import annotations

from typing import Any

from domain.age_of_steam import auction, growth, shares
from domain.age_of_steam.board import MAX_LOCOMOTIVE, Map
from domain.age_of_steam.building import placements
from domain.age_of_steam.goods import check_route, routes
from domain.age_of_steam.moves import (
    Bid,
    Build,
    Command,
    Deliver,
    Drop,
    EndBuild,
    IssueShares,
    PassMove,
    PlaceProduction,
    SelectAction,
    TurnOrderPass,
    UpgradeLocomotive,
    Urbanize,
)
from domain.age_of_steam.options import MAX_SEATS
from domain.age_of_steam.state import (
    ACTIONS,
    ACTIONS_LIST,
    AUCTION,
    BUILD,
    MOVE,
    PRODUCTION,
    SHARES,
    URBANIZATION,
    State,
)
from domain.age_of_steam.track import Placement, assess, network
from domain.core.errors import IllegalMove

_ONLY = tuple(frozenset((seat,)) for seat in range(MAX_SEATS))
_NOBODY: frozenset[int] = frozenset()
_QUEUED = frozenset({SHARES, ACTIONS, BUILD, MOVE, PRODUCTION})

_PHASE_OF: dict[type, str] = {
    IssueShares: SHARES,
    Bid: AUCTION,
    Drop: AUCTION,
    TurnOrderPass: AUCTION,
    SelectAction: ACTIONS,
    Build: BUILD,
    Urbanize: BUILD,
    EndBuild: BUILD,
    Deliver: MOVE,
    UpgradeLocomotive: MOVE,
    PassMove: MOVE,
    PlaceProduction: PRODUCTION,
}
_EXPECTED: dict[str, str] = {
    SHARES: "issue shares (or none)",
    AUCTION: "bid, drop out, or use the Turn Order pass",
    ACTIONS: "select an action",
    BUILD: "build track, urbanize, or end your build",
    MOVE: "deliver a good, raise your locomotive, or pass",
    PRODUCTION: "place a good drawn by Production on the display",
}


def active_seats(state: State) -> frozenset[int]:
    if state.phase == AUCTION:
        auction = state.auction
        return _NOBODY if auction is None or auction.current is None else _ONLY[auction.current]
    if state.phase in _QUEUED and state.queue:
        return _ONLY[state.queue[0]]
    return _NOBODY


def check_phase(state: State, command: Command) -> None:
    phase = _PHASE_OF[type(command)]
    if phase != state.phase:
        expected = _EXPECTED.get(state.phase, "wait")
        raise IllegalMove("wrong_phase", f"That move belongs to the {phase} phase; in the {state.phase} phase you {expected}.")


# --- actions -------------------------------------------------------------


def check_action(state: State, action: str) -> None:
    holder = state.actions.get(action)
    if holder is not None:
        raise IllegalMove("action_taken", f"Seat {holder} has already taken {action.replace('_', ' ')} this turn.")


# --- building -------------------------------------------------------------------------------


def check_build(map_: Map, state: State, seat: int, command: Build) -> Placement:
    build = state.build
    assert build is not None
    if len(build.placed) >= build.limit:
        raise IllegalMove("build_limit", f"You have placed your {build.limit} tiles this turn; end your build.")
    if command.hex in build.placed:
        raise IllegalMove("hex_built_this_turn", f"You already built on {map_.place_name(command.hex, state.new_cities)} this turn.")
    placement = assess(map_, state, seat, command.hex, command.tile, command.rotation)
    if command.cost is not None and command.cost != placement.cost:
        raise IllegalMove("cost_mismatch", f"This placement costs ${placement.cost}, not ${command.cost}.")
    return placement


def urbanize_reason(state: State, seat: int) -> IllegalMove | None:
    """Why `seat` may not urbanize now at all, or None."""
    build = state.build
    assert build is not None
    if state.actions.get(URBANIZATION) != seat:
        return IllegalMove("no_urbanization", "Only the Urbanization holder may place a new city.")
    if build.urbanized:
        return IllegalMove("already_urbanized", "You have already placed your new city this turn.")
    if build.placed:
        return IllegalMove("urbanize_before_building", "Urbanization happens before building; you have already placed track.")
    return None


def check_urbanize(map_: Map, state: State, seat: int, command: Urbanize) -> None:
    reason = urbanize_reason(state, seat)
    if reason is not None:
        raise reason
    name = map_.place_name(command.hex, state.new_cities)
    if command.hex in state.new_cities:
        raise IllegalMove("already_a_city", f"{name} is already a city.")
    if command.hex not in map_.towns:
        raise IllegalMove("not_a_town", f"A new city is placed on a town; {name} is not one.")
    if command.city in state.new_cities.values():
        raise IllegalMove("new_city_used", f"New city {command.city} is already on the map.")


# --- moving goods ---------------------------------------------------------------------------


def check_upgrade(state: State, seat: int) -> None:
    if seat in state.loco_upgraded:
        raise IllegalMove("locomotive_once_per_turn", "You may raise your locomotive instead of moving a good only once a turn.")
    if state.seats[seat].locomotive >= MAX_LOCOMOTIVE:
        raise IllegalMove("locomotive_max", f"Your locomotive is already at the maximum of {MAX_LOCOMOTIVE} links.")


def check_deliver(map_: Map, state: State, seat: int, command: Deliver) -> Any:
    return check_route(
        map_, network(map_, state.board, state.new_cities), state.new_cities, state.cubes, command.city, command.cube,
        list(command.path), state.seats[seat].locomotive,
    )


# --- the full list --------------------------------------------------------------------------


def legal_moves(map_: Map, state: State, seat: int) -> list[dict[str, Any]]:
    if seat not in active_seats(state):
        return []
    phase = state.phase
    if phase == SHARES:
        return shares.legal_moves(state, seat)
    if phase == AUCTION:
        return auction.legal_moves(state, seat)
    if phase == ACTIONS:
        return [{"type": "select_action", "action": a} for a in ACTIONS_LIST if a not in state.actions]
    if phase == BUILD:
        return _build_moves(map_, state, seat)
    if phase == MOVE:
        return _move_moves(map_, state, seat)
    if phase == PRODUCTION:
        return growth.legal_moves(state)
    return []


def _build_moves(map_: Map, state: State, seat: int) -> list[dict[str, Any]]:
    build = state.build
    assert build is not None
    moves: list[dict[str, Any]] = []
    if urbanize_reason(state, seat) is None:
        letters = [letter for letter in map_.new_city if letter not in state.new_cities.values()]
        moves += [
            {"type": "urbanize", "hex": town, "city": letter}
            for town in map_.towns
            if town not in state.new_cities
            for letter in letters
        ]
    if len(build.placed) < build.limit:
        moves += [
            {"type": "build", "hex": p.hex, "tile": p.tile, "rotation": p.rotation, "cost": p.cost}
            for p in placements(map_, state, seat)
        ]
    moves.append({"type": "end_build"})
    return moves


def _move_moves(map_: Map, state: State, seat: int) -> list[dict[str, Any]]:
    net = network(map_, state.board, state.new_cities)
    locomotive = state.seats[seat].locomotive
    moves: list[dict[str, Any]] = []
    for city in (*map_.city_at, *state.new_cities):
        for cube in sorted(set(state.cubes.get(city, ()))):
            for route in routes(map_, net, state.new_cities, city, cube, locomotive):
                moves.append({"type": "deliver", "city": city, "cube": cube, "path": [link.id for link in route.links]})
    try:
        check_upgrade(state, seat)
        moves.append({"type": "upgrade_locomotive"})
    except IllegalMove:
        pass
    moves.append({"type": "pass_move"})
    return moves
