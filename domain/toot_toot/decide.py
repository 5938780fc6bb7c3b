"""`decide`: the events a seat's move causes, the seat's own event first, then every step it
sets off (payments, scores, tokens, refills, the end of the game). Each move goes to its
mechanism, and `flow` says what follows the end of a turn. Nothing is emitted until the move
has passed every check, so an illegal move changes nothing."""

from __future__ import annotations

from collections.abc import Callable

from domain.core.errors import NotYourTurn
from domain.core.events import Event
from domain.core.moves import Command
from domain.core.randomness import Randomness
from domain.toot_toot import build_factory, draw_track, final_scoring, flow, locations, setup, technology, train
from domain.toot_toot.content import Content
from domain.toot_toot.context import Ctx
from domain.toot_toot.evolve import evolve
from domain.toot_toot.legal import check_stage, mover
from domain.toot_toot.state import State
from domain.toot_toot.steps import Steps

Mechanism = Callable[[Steps, Command, Randomness], None]

_MOVES: dict[str, Mechanism] = {
    "choose_start": lambda steps, cmd, rng: setup.choose_start(steps, cmd["hex"]),
    "draw_track": lambda steps, cmd, rng: draw_track.draw_track(steps, cmd["hex"], cmd["from"], cmd["to"]),
    "stop_drawing": lambda steps, cmd, rng: draw_track.stop_drawing(steps),
    "iron_track": lambda steps, cmd, rng: draw_track.iron_track(steps, cmd["hex"], cmd["from"], cmd["to"]),
    "drive": lambda steps, cmd, rng: train.move(steps, cmd["hex"], cmd["facing"], None),
    "fuel_move": lambda steps, cmd, rng: train.move(steps, cmd["hex"], cmd["facing"], cmd["fuel"]),
    "turn": lambda steps, cmd, rng: train.turn(steps, cmd["facing"]),
    "build_factory": lambda steps, cmd, rng: build_factory.build_factory(
        steps, cmd["hex"], cmd["kind"], cmd["exit"], cmd["payment"]),
    "upgrade": lambda steps, cmd, rng: technology.upgrade(steps, cmd["ability"], rng),
    "take": lambda steps, cmd, rng: locations.take(steps, cmd["site"]),
    "process": lambda steps, cmd, rng: locations.process(steps, cmd["factory"], cmd["recipe"]),
    "sell": lambda steps, cmd, rng: locations.sell(steps, cmd["city"], cmd["fills"], rng),
    "pass_location": lambda steps, cmd, rng: locations.pass_location(steps),
    "end_turn": lambda steps, cmd, rng: flow.end_turn(steps),
    final_scoring.SUPPLY: lambda steps, cmd, rng: final_scoring.supply_hand_orders(steps, cmd["fills"]),
}
"""Each move type, to the mechanism whose move it is."""


def setup_events(content: Content, state: State, rng: Randomness) -> list[Event]:
    """The setup (`setup.opening`), for the game's first decision."""
    steps = Steps(Ctx(content, state, 0), evolve)
    setup.opening(steps, rng)
    return steps.events


def decided(ctx: Ctx, cmd: Command, rng: Randomness) -> Steps:
    """The move's events, with the states they passed through."""
    if mover(ctx.state) != ctx.seat:
        raise NotYourTurn(ctx.seat)
    check_stage(ctx, cmd)
    steps = Steps(ctx, evolve)
    _MOVES[cmd.type](steps, cmd, rng)
    return steps
