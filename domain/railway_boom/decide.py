"""`decide`: the events a seat's move causes, with every automatic step it triggers. Each move
goes to its mechanism (`bidding`, `trains`, `expansion`, `development`, `choices`,
`operation`), and `flow` says what comes next. Each move is checked in full before anything is
emitted, so a refused move changes nothing."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.core.errors import GameOver, NotYourTurn
from domain.core.events import Event
from domain.core.moves import Command, Moves
from domain.core.randomness import Randomness
from domain.railway_boom import bidding, choices, development, expansion, flow, legal, operation, trains
from domain.railway_boom.content import Content
from domain.railway_boom.evolve import evolve
from domain.railway_boom.setup import opening
from domain.railway_boom.state import OVER, State
from domain.railway_boom.steps import Steps


def setup(content: Content, state: State, rng: Randomness) -> list[Event]:
    """The opening, then round 1 up to the first move."""
    steps = Steps(content, state, evolve, rng)
    opening(steps, rng)
    flow.start_round(steps, 1)
    flow.advance(steps, rng)
    return steps.events


def decide(content: Content, moves: Moves, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> list[Event]:
    return decided(content, moves, state, seat, move, rng).events


def decided(content: Content, moves: Moves, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> Steps:
    """`decide`, with the states its events passed through."""
    if state.phase == OVER:
        raise GameOver()
    if seat not in legal.active_seats(state):
        raise NotYourTurn(seat)
    command: Command = moves.parse(move)
    steps = Steps(content, state, evolve, rng)
    legal.check_stage(state, command)
    MOVES[command.type](steps, seat, command)
    if command.type in ENDS_WHEN_DONE:
        flow.end_if_done(steps, seat)
    flow.advance(steps, rng)
    return steps


MOVES: dict[str, Callable[[Steps, int, Command], None]] = {
    "bid": bidding.bid, "lock_in": bidding.lock_in, "take_locomotive": trains.take_locomotive, "buy_car": trains.buy_car,
    "place_station": expansion.place_station, "lay_rail": expansion.lay_rail, "use_card": expansion.use_card,
    "choose_row": development.choose_row, "buy_development": development.buy_development, "resolve": choices.resolve,
    "done": flow.done, "operate": operation.operate, "pay": bidding.pay,
}
"""Each move type -> the mechanism's step that records it."""

ENDS_WHEN_DONE = frozenset({"take_locomotive", "buy_car", "place_station", "lay_rail", "choose_row", "buy_development",
                            "resolve"})
"""The moves after which a turn ends by itself when nothing but ending it is left to do."""
