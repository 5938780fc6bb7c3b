"""`decide`: the events a seat's move causes, the seat's own event first, then every automatic
step it triggers (the next phase, the auction's settlement, income to goods growth, the end of
the game). Nothing is emitted until the move has passed every check, so an illegal move
changes nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.age_of_steam import flow
from domain.age_of_steam.board import NEW_CITIES, TOWNS, place_name
from domain.age_of_steam.legal import (
    active_seats,
    check_action,
    check_bid,
    check_build,
    check_deliver,
    check_phase,
    check_production,
    check_shares,
    check_turn_order_pass,
    check_upgrade,
    check_urbanize,
)
from domain.age_of_steam.moves import (
    Bid,
    Build,
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
    parse_move,
)
from domain.age_of_steam.state import OVER, State
from domain.age_of_steam.steps import Steps
from domain.age_of_steam.track import abandoned, apply_placement, urbanize
from domain.core.errors import GameOver, NotYourTurn
from domain.core.events import Event
from domain.core.randomness import Randomness


def setup(state: State, rng: Randomness) -> list[Event]:
    steps = Steps(state)
    flow.opening(steps, rng)
    return steps.events


def decide(state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> list[Event]:
    return decided(state, seat, move, rng).events


def decided(state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> Steps:
    """`decide`, with the states its events passed through."""
    if state.phase == OVER:
        raise GameOver()
    if seat not in active_seats(state):
        raise NotYourTurn(seat)
    command = parse_move(move)
    check_phase(state, command)
    steps = Steps(state)
    if isinstance(command, IssueShares):
        check_shares(state, seat, command.count)
        steps.emit(
            "SharesIssued",
            {"seat": seat, "count": command.count, "total": state.seats[seat].shares + command.count},
            automatic=False,
        )
        if not steps.state.queue:
            flow.begin_auction(steps)
    elif isinstance(command, (Bid, Drop, TurnOrderPass)):
        _auction(steps, seat, command)
    elif isinstance(command, SelectAction):
        check_action(state, command.action)
        steps.emit("ActionSelected", {"seat": seat, "action": command.action}, automatic=False)
        flow.after_action(steps, seat, command.action)
    elif isinstance(command, Build):
        _build(steps, seat, command)
    elif isinstance(command, Urbanize):
        _urbanize(steps, seat, command)
    elif isinstance(command, EndBuild):
        _end_build(steps, seat)
    elif isinstance(command, (Deliver, UpgradeLocomotive, PassMove)):
        _move_goods(steps, seat, command, rng)
    elif isinstance(command, PlaceProduction):
        check_production(state, command)
        data = {"seat": seat, "cube": state.production[0], "column": command.column, "space": command.space}
        steps.emit("GoodsProduced", data, automatic=False)
        if not steps.state.queue:
            flow.goods_growth(steps, rng)
    return steps


def _auction(steps: Steps, seat: int, command: Bid | Drop | TurnOrderPass) -> None:
    state = steps.state
    auction = state.auction
    assert auction is not None
    if isinstance(command, Bid):
        check_bid(state, seat, command.amount)
        steps.emit("BidPlaced", {"seat": seat, "amount": command.amount}, automatic=False)
    elif isinstance(command, TurnOrderPass):
        check_turn_order_pass(state, seat)
        steps.emit("TurnOrderPassUsed", {"seat": seat}, automatic=False)
    else:
        # The first to drop out takes the last place, the next the place before it.
        place = len(auction.bidders)
        steps.emit("AuctionDropped", {"seat": seat, "place": place, "bid": auction.bids[seat]}, automatic=False)
    flow.after_bidding(steps)


def _build(steps: Steps, seat: int, command: Build) -> None:
    state = steps.state
    placement = check_build(state, seat, command)
    after, claimed = apply_placement(state.board, state.new_cities, placement, seat)
    taken = [
        [hex_, index]
        for hex_ in claimed
        for index, owner in enumerate(after[hex_].owners)
        if owner == seat and state.board[hex_].owners[index] is None
    ]
    steps.emit(
        "TrackBuilt",
        {
            "seat": seat,
            "hex": command.hex,
            "place": place_name(command.hex, state.new_cities),
            "tile": command.tile,
            "rotation": command.rotation,
            "cost": placement.cost,
            "kind": placement.kind,
            "owners": list(after[command.hex].owners),
            "disc": placement.placed.disc,
            "disc_delta": placement.disc_delta,
            "returned": placement.returned,
            "taken": taken,
        },
        automatic=False,
    )


def _urbanize(steps: Steps, seat: int, command: Urbanize) -> None:
    state = steps.state
    check_urbanize(state, seat, command)
    old = state.board.get(command.hex)
    _, _, claimed = urbanize(state.board, state.new_cities, command.hex, command.city, seat)
    steps.emit(
        "CityUrbanized",
        {
            "seat": seat,
            "hex": command.hex,
            "town": TOWNS[command.hex],
            "city": command.city,
            "colour": NEW_CITIES[command.city].colour,
            "returned": old.tile if old is not None else None,
            "claimed": claimed,
        },
        automatic=False,
    )


def _end_build(steps: Steps, seat: int) -> None:
    build = steps.state.build
    assert build is not None
    steps.emit("BuildEnded", {"seat": seat, "placed": len(build.placed)}, automatic=False)
    state = steps.state
    lost = abandoned(state.board, state.new_cities, seat, build.at_risk)
    if lost:
        steps.emit(
            "TrackAbandoned",
            {
                "seat": seat,
                "links": [link.id for link in lost],
                "segments": [[hex_, index] for link in lost for hex_, index in link.segments],
            },
        )
    flow.after_build_turn(steps)


def _move_goods(steps: Steps, seat: int, command: Deliver | UpgradeLocomotive | PassMove, rng: Randomness) -> None:
    state = steps.state
    round_ = 1 if len(state.queue) > len(state.order) else 2
    if isinstance(command, Deliver):
        route = check_deliver(state, seat, command)
        steps.emit(
            "GoodsDelivered",
            {
                "seat": seat,
                "round": round_,
                "cube": command.cube,
                "from": route.source,
                "to": route.destination,
                "stops": list(route.stops),
                "places": [place_name(stop, state.new_cities) for stop in route.stops],
                "links": [link.id for link in route.links],
                "owners": [link.owner for link in route.links],
                "income": {str(owner): gained for owner, gained in sorted(route.income().items())},
            },
            automatic=False,
        )
    elif isinstance(command, UpgradeLocomotive):
        check_upgrade(state, seat)
        before = state.seats[seat].locomotive
        steps.emit(
            "LocomotiveUpgradedInsteadOfMove", {"seat": seat, "round": round_, "before": before, "after": before + 1},
            automatic=False,
        )
    else:
        steps.emit("MovePassed", {"seat": seat, "round": round_}, automatic=False)
    flow.after_move(steps, rng)
