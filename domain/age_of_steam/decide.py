"""`decide`: the events a seat's move causes, the seat's own event first, then every automatic
step it triggers (the next phase, the auction's settlement, income to goods growth, the end of
the game). Each move goes to its mechanism (`shares`, `auction`, `actions`, `build_track`,
`move_goods`, `growth`), and `flow` says what comes next. Nothing is emitted until the move has
passed every check, so an illegal move changes nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.age_of_steam import actions, auction, build_track, flow, growth, move_goods, shares
from domain.age_of_steam.board import Map
from domain.age_of_steam.evolve import evolve
from domain.age_of_steam.legal import active_seats, check_phase
from domain.age_of_steam.moves import (
    Bid,
    Build,
    BuildStep,
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
from domain.core.errors import GameOver, NotYourTurn
from domain.core.events import Event
from domain.core.moves import Moves
from domain.core.randomness import Randomness


def setup(map_: Map, state: State, rng: Randomness) -> list[Event]:
    steps = Steps(map_, state, evolve)
    flow.opening(steps, rng)
    return steps.events


def decide(map_: Map, moves: Moves, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> list[Event]:
    return decided(map_, moves, state, seat, move, rng).events


def decided(map_: Map, moves: Moves, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> Steps:
    """`decide`, with the states its events passed through."""
    if state.phase == OVER:
        raise GameOver()
    if seat not in active_seats(state):
        raise NotYourTurn(seat)
    command = moves.parse(move)
    check_phase(state, command)
    steps = Steps(map_, state, evolve)
    if isinstance(command, IssueShares):
        shares.issue(steps, seat, command.count)
    elif isinstance(command, (Bid, Drop, TurnOrderPass)):
        auction.bid(steps, seat, command)
    elif isinstance(command, SelectAction):
        actions.select(steps, seat, command.action)
        flow.after_action(steps)
    elif isinstance(command, Build):
        build_track.build(steps, seat, command)
    elif isinstance(command, BuildStep):
        build_track.build_step(steps, seat, command)
    elif isinstance(command, Urbanize):
        build_track.place_new_city(steps, seat, command)
    elif isinstance(command, EndBuild):
        build_track.end_turn(steps, seat)
        flow.after_build_turn(steps)
    elif isinstance(command, (Deliver, UpgradeLocomotive, PassMove)):
        move_goods.move(steps, seat, command)
        flow.after_move(steps, rng)
    elif isinstance(command, PlaceProduction):
        growth.place_production(steps, seat, command)
        if not steps.state.queue:
            flow.after_production(steps, rng)
    return steps
