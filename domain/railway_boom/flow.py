"""The order of play (`docs/rules/railway_boom.md`, "A round: six phases"): the automatic steps
between moves, phases starting and ending, auctions settling, income, the end of a seat's turn,
of a round and of the game. What happens within a phase is its mechanism's (`bidding`,
`trains`, `expansion`, `development`, `operation`, `goals`, `scoring`); this module only says
what comes next. `advance` runs the steps until a seat must act (or the game is over)."""

from __future__ import annotations

from domain.core.errors import IllegalMove
from domain.core.moves import Command
from domain.core.randomness import Randomness
from domain.railway_boom import bidding, development, expansion, goals, legal, scoring, trains
from domain.railway_boom.events import CardsBoxed, PhaseStarted, TurnEnded
from domain.railway_boom.state import (
    ACT,
    AUCTIONS,
    BID,
    DEVELOPMENT,
    EXPANSION,
    GOALS,
    INCOME,
    OPERATION,
    OVER,
    ROUNDS,
    TRAINS,
)
from domain.railway_boom.steps import Steps


def start_round(steps: Steps, number: int) -> None:
    _start(steps, number, TRAINS)
    trains.reveal(steps)


def _start(steps: Steps, number: int, phase: str) -> None:
    if phase == GOALS:
        goal = steps.state.goals[number - 1]
        steps.emit(PhaseStarted(round=number, phase=phase, resource=steps.content.goals[goal].resource, goal=goal,
                                automatic=True))
    else:
        steps.emit(PhaseStarted(round=number, phase=phase, resource=AUCTIONS.get(phase, ""), automatic=True))


def advance(steps: Steps, rng: Randomness) -> None:
    while steps.state.phase != OVER and not steps.state.pending:
        state = steps.state
        if state.step == BID:
            seat = bidding.to_bid(state)
            if seat is None:
                if bidding.settle(steps) and steps.state.phase == GOALS:
                    goals.reserve(steps)
            elif not bidding.spaces(steps.content, state, seat):
                # R8: a seat that can reach no empty higher space must lock in.
                steps.emit(bidding.BidLocked(seat=seat, space=state.bids.get(seat, 0), automatic=True))
            else:
                return
        elif state.step == ACT and state.acting:
            seat = state.acting[0]
            if legal.actions(steps.content, state, seat):
                return
            steps.emit(TurnEnded(seat=seat, power_lost=state.seats[seat].power, automatic=True))
        elif state.phase == OPERATION and state.sealed is not None and not state.sealed.complete:
            return
        else:
            _end_phase(steps, rng)


def _end_phase(steps: Steps, rng: Randomness) -> None:
    state = steps.state
    if state.phase == TRAINS:
        if state.offer:
            steps.emit(CardsBoxed(cards=state.offer, automatic=True))
        _start(steps, state.round, EXPANSION)
        expansion.reveal(steps)
    elif state.phase == EXPANSION:
        if state.offer:
            steps.emit(CardsBoxed(cards=state.offer, automatic=True))
        _start(steps, state.round, DEVELOPMENT)
        development.deal(steps)
    elif state.phase == DEVELOPMENT:
        development.leftovers_under(steps, rng)
        _start(steps, state.round, INCOME)
        _income(steps)
        _start(steps, state.round, OPERATION)
    elif state.phase == OPERATION:
        _start(steps, state.round, GOALS)
    elif state.phase == GOALS:
        goals.stand_up(steps)
        if state.round < ROUNDS:
            start_round(steps, state.round + 1)
        else:
            scoring.final(steps)


def _income(steps: Steps) -> None:
    """Phase 4: the "+" beside each current level, every track (R23); no cube moves (R24)."""
    for seat in range(steps.state.players):
        for track, level in steps.state.seats[seat].income.items():
            plus = steps.content.income[track][level - 1].plus
            steps.gain(seat, track, plus, "income")


def end_if_done(steps: Steps, seat: int) -> None:
    """The turn ends by itself when nothing but ending it is left to do."""
    state = steps.state
    if not state.pending and state.acting and state.acting[0] == seat and not legal.actions(steps.content, state, seat):
        steps.emit(TurnEnded(seat=seat, power_lost=state.seats[seat].power, automatic=True))


def done(steps: Steps, seat: int, c: Command) -> None:
    if not legal.may_end(steps.state):
        raise IllegalMove("turn_not_done", "First do this turn's mandatory part: a locomotive, a station or a row.")
    steps.emit(TurnEnded(seat=seat, power_lost=steps.state.seats[seat].power))
