"""Phase 6, goals (`docs/rules/railway_boom.md`, R29), read top to bottom: the events, each
seat's cube reserved on the round's goal card in rank order after the auction, the cards
stood up at the round's end, and how each event changes the state. Goals are scored at the
end (`scoring`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from domain.core.events import Event
from domain.core.state import replace, replace_seat
from domain.railway_boom.content import Content
from domain.railway_boom.events import TurnEnded
from domain.railway_boom.ledger import Handlers, unchanged
from domain.railway_boom.state import FREE, State

if TYPE_CHECKING:
    from domain.railway_boom.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class GoalReserved(Event):
    seat: int
    goal: str
    space: int
    multiplier: int


@dataclass(frozen=True, kw_only=True)
class GoalMissed(Event):
    """No free space was left on the round's goal card: the cube stays (R29)."""

    seat: int
    goal: str


@dataclass(frozen=True, kw_only=True)
class CardsStoodUp(Event):
    round: int


# --- the reservations ---------------------------------------------------------------------


def reserve(steps: Steps) -> None:
    """R29: in rank order, each cube on the highest free space of the round's goal card."""
    state = steps.state
    goal = state.goals[state.round - 1]
    for seat in state.acting:
        row = steps.state.spaces[goal]
        free = [i for i, holder in enumerate(row) if holder == FREE]
        if free and steps.state.seats[seat].goal_cubes:
            space = free[0]
            steps.emit(GoalReserved(seat=seat, goal=goal, space=space,
                                    multiplier=steps.content.goals[goal].multipliers[space], automatic=True))
        else:
            steps.emit(GoalMissed(seat=seat, goal=goal, automatic=True))
        steps.emit(TurnEnded(seat=seat, automatic=True))


def stand_up(steps: Steps) -> None:
    """The round's end: every card used sideways stands up again."""
    steps.emit(CardsStoodUp(round=steps.state.round, automatic=True))


# --- the events applied -------------------------------------------------------------------


def _reserved(c: Content, s: State, e: GoalReserved) -> State:
    row = list(s.spaces[e.goal])
    row[e.space] = e.seat
    s = replace_seat(s, e.seat, goal_cubes=s.seats[e.seat].goal_cubes - 1)
    return replace(s, spaces={**s.spaces, e.goal: tuple(row)})


def _stood_up(c: Content, s: State, e: CardsStoodUp) -> State:
    for seat in range(s.players):
        s = replace_seat(s, seat, sideways=())
    return s


APPLY: Handlers = {GoalReserved: _reserved, GoalMissed: unchanged, CardsStoodUp: _stood_up}
KINDS = tuple(APPLY)
