"""`decide`: the events a seat's move causes, the seat's own event first, then every automatic
step it triggers (the next phase, the auction's settlement, income to goods growth, the end of
the game). Each move goes to its mechanism (`shares`, `auction`, `growth`; actions, track and
deliveries here). Nothing is emitted until the move has passed every check, so an illegal move
changes nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.age_of_steam import auction, flow, growth, shares
from domain.age_of_steam.board import Map
from domain.age_of_steam.events import (
    ActionSelected,
    BuildEnded,
    CityUrbanized,
    GoodsDelivered,
    LocomotiveUpgradedInsteadOfMove,
    MovePassed,
    TrackAbandoned,
    TrackBuilt,
)
from domain.age_of_steam.legal import (
    active_seats,
    check_action,
    check_build,
    check_deliver,
    check_phase,
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
)
from domain.age_of_steam.state import OVER, State
from domain.age_of_steam.steps import Steps
from domain.age_of_steam.track import abandoned, apply_placement, urbanize
from domain.core.errors import GameOver, NotYourTurn
from domain.core.events import Event
from domain.core.moves import Moves
from domain.core.randomness import Randomness


def setup(map_: Map, state: State, rng: Randomness) -> list[Event]:
    steps = Steps(map_, state)
    flow.opening(steps, rng)
    return steps.events


def decide(map_: Map, moves: Moves, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> list[Event]:
    if state.phase == OVER:
        raise GameOver()
    if seat not in active_seats(state):
        raise NotYourTurn(seat)
    command = moves.parse(move)
    check_phase(state, command)
    steps = Steps(map_, state)
    if isinstance(command, IssueShares):
        shares.issue(steps, seat, command.count)
    elif isinstance(command, (Bid, Drop, TurnOrderPass)):
        auction.bid(steps, seat, command)
    elif isinstance(command, SelectAction):
        check_action(state, command.action)
        steps.moved(ActionSelected(seat=seat, action=command.action))
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
        growth.place_production(steps, seat, command)
        if not steps.state.queue:
            flow.after_production(steps, rng)
    return steps.events


def _build(steps: Steps, seat: int, command: Build) -> None:
    state, map_ = steps.state, steps.map
    placement = check_build(map_, state, seat, command)
    after, claimed = apply_placement(map_, state.board, state.new_cities, placement, seat)
    taken = tuple(
        (hex_, index)
        for hex_ in claimed
        for index, owner in enumerate(after[hex_].owners)
        if owner == seat and state.board[hex_].owners[index] is None
    )
    steps.moved(TrackBuilt(
        seat=seat,
        hex=command.hex,
        place=map_.place_name(command.hex, state.new_cities),
        tile=command.tile,
        rotation=command.rotation,
        cost=placement.cost,
        placement=placement.kind,
        owners=after[command.hex].owners,
        disc=placement.placed.disc,
        disc_delta=placement.disc_delta,
        returned=placement.returned,
        taken=taken,
    ))


def _urbanize(steps: Steps, seat: int, command: Urbanize) -> None:
    state, map_ = steps.state, steps.map
    check_urbanize(map_, state, seat, command)
    old = state.board.get(command.hex)
    _, _, claimed = urbanize(map_, state.board, state.new_cities, command.hex, command.city, seat)
    steps.moved(CityUrbanized(
        seat=seat,
        hex=command.hex,
        town=map_.towns[command.hex],
        city=command.city,
        colour=map_.new_city[command.city].colour,
        returned=old.tile if old is not None else None,
        claimed=tuple(claimed),
    ))


def _end_build(steps: Steps, seat: int) -> None:
    build = steps.state.build
    assert build is not None
    steps.moved(BuildEnded(seat=seat, placed=len(build.placed)))
    state = steps.state
    lost = abandoned(steps.map, state.board, state.new_cities, seat, build.at_risk)
    if lost:
        steps.emit(TrackAbandoned(
            seat=seat,
            links=tuple(link.id for link in lost),
            segments=tuple((hex_, index) for link in lost for hex_, index in link.segments),
        ))
    flow.after_build_turn(steps)


def _move_goods(steps: Steps, seat: int, command: Deliver | UpgradeLocomotive | PassMove, rng: Randomness) -> None:
    state, map_ = steps.state, steps.map
    round_ = 1 if len(state.queue) > len(state.order) else 2
    if isinstance(command, Deliver):
        route = check_deliver(map_, state, seat, command)
        steps.moved(GoodsDelivered(
            seat=seat,
            round=round_,
            cube=command.cube,
            source=route.source,
            to=route.destination,
            stops=tuple(route.stops),
            places=tuple(map_.place_name(stop, state.new_cities) for stop in route.stops),
            links=tuple(link.id for link in route.links),
            owners=tuple(link.owner for link in route.links),
            income={str(owner): gained for owner, gained in sorted(route.income().items())},
        ))
    elif isinstance(command, UpgradeLocomotive):
        check_upgrade(state, seat)
        before = state.seats[seat].locomotive
        steps.moved(LocomotiveUpgradedInsteadOfMove(seat=seat, round=round_, before=before, after=before + 1))
    else:
        steps.moved(MovePassed(seat=seat, round=round_))
    flow.after_move(steps, rng)
