"""Who may act, what the moment allows, and every move a seat may make now, gathered from the
mechanism whose phase or pending choice it is (each keeps its own checks beside the moves it
lists)."""

from __future__ import annotations

from typing import Any

from domain.core.errors import IllegalMove
from domain.core.moves import Command
from domain.railway_boom import bidding, choices, development, expansion, operation, trains
from domain.railway_boom.content import Content
from domain.railway_boom.evolve import evolve
from domain.railway_boom.state import ACT, BID, DEVELOPMENT, EXPANSION, OPERATION, OVER, PAY, TRAINS, State
from domain.railway_boom.steps import Steps

Move = dict[str, Any]


def active_seats(state: State) -> frozenset[int]:
    if state.phase == OVER:
        return frozenset()
    if state.pending:
        return frozenset({state.pending[0].seat})
    if state.step == BID:
        seat = bidding.to_bid(state)
        return frozenset() if seat is None else frozenset({seat})
    if state.step == ACT and state.acting:
        return frozenset({state.acting[0]})
    if state.phase == OPERATION and state.sealed is not None:
        return state.sealed.waiting
    return frozenset()


def check_stage(state: State, command: Command) -> None:
    paying = bool(state.pending) and state.pending[0].effect == PAY
    if state.pending:
        stage: tuple[str, ...] = ("pay",) if paying else ("resolve",)
    elif state.step == BID:
        stage = ("bid", "lock_in")
    elif state.phase == OPERATION and state.step != ACT:
        stage = ("operate",)
    else:
        stage = {"trains": ("take_locomotive", "buy_car", "done"), "expansion": ("place_station", "lay_rail", "use_card", "done"),
                 "development": ("choose_row", "buy_development", "done")}.get(state.phase, ())
    if command.type not in stage:
        now = ("choose the mix you pay your \"?\" bid in" if paying else "answer the pending choice") if state.pending else (
            f"the {state.phase} phase's {state.step or 'plans'}")
        raise IllegalMove("wrong_step", f"A {command.type} move is not possible now ({now}); "
                          f"the moves now are: {', '.join(stage)}.")


def actions(content: Content, state: State, seat: int) -> list[Move]:
    """The moves of `seat`'s action step other than ending it."""
    if state.phase == TRAINS:
        return trains.actions(content, state, seat)
    if state.phase == EXPANSION:
        return expansion.actions(content, state, seat)
    if state.phase == DEVELOPMENT:
        return development.actions(content, state, seat)
    return []


def may_end(state: State) -> bool:
    """Whether the acting seat has done its turn's mandatory part (R14, R15, R20)."""
    if state.phase == TRAINS:
        return bool(state.turn.locomotive)
    if state.phase == EXPANSION:
        return bool(state.turn.station)
    return state.turn.row is not None


def legal_moves(content: Content, state: State, seat: int) -> list[Move]:
    if seat not in active_seats(state):
        return []
    if state.pending:
        return bidding.payments(state) if state.pending[0].effect == PAY else choices.answers(content, state)
    if state.step == BID:
        return bidding.legal_moves(content, state, seat)
    if state.step == ACT:
        moves = actions(content, state, seat)
        return [*moves, {"type": "done"}] if may_end(state) else moves
    if state.phase == OPERATION:
        return operation.options(Steps(content, state, evolve), seat)
    return []
