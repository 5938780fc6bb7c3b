"""Selecting actions (`docs/rules/age_of_steam.md`, "3. Select actions"; cases 14–15): in player
order each player takes one special action no one else holds this turn. Locomotive acts at
once; the others are read where they matter (First Build and First Move in `flow`, Engineer and
Urbanization in `build_track`, Production in `growth`, Turn Order in the next auction)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.age_of_steam.board import MAX_LOCOMOTIVE
from domain.age_of_steam.ledger import Handlers, pop
from domain.age_of_steam.state import ACTIONS_LIST, LOCOMOTIVE, State
from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.state import replace, replace_seat

if TYPE_CHECKING:
    from domain.age_of_steam.steps import Steps


@dataclass(frozen=True, kw_only=True)
class ActionSelected(Event):
    """A seat selected a special action for this turn."""

    seat: int
    action: str


@dataclass(frozen=True, kw_only=True)
class LocomotiveIncreased(Event):
    """The Locomotive action raised a seat's locomotive by one link."""

    seat: int
    before: int
    after: int


def check_action(state: State, action: str) -> None:
    holder = state.actions.get(action)
    if holder is not None:
        raise IllegalMove("action_taken", f"Seat {holder} has already taken {action.replace('_', ' ')} this turn.")


def legal_moves(state: State) -> list[dict[str, Any]]:
    return [{"type": "select_action", "action": a} for a in ACTIONS_LIST if a not in state.actions]


def select(steps: Steps, seat: int, action: str) -> None:
    check_action(steps.state, action)
    steps.moved(ActionSelected(seat=seat, action=action))
    if action == LOCOMOTIVE:
        before = steps.state.seats[seat].locomotive
        # Taken at the maximum, the action changes nothing but still denies it to others.
        if before < MAX_LOCOMOTIVE:
            steps.emit(LocomotiveIncreased(seat=seat, before=before, after=before + 1))


def _selected(state: State, event: ActionSelected) -> State:
    return pop(replace(state, actions={**state.actions, event.action: event.seat}), event.seat)


def _increased(state: State, event: LocomotiveIncreased) -> State:
    return replace_seat(state, event.seat, locomotive=event.after)


APPLY: Handlers = {ActionSelected: _selected, LocomotiveIncreased: _increased}
KINDS = tuple(APPLY)
