"""`evolve`: the state after one event, dispatched on the event's type. It never validates and
never draws randomness. What the state cannot know is read from the event: a shuffle's order,
a seat's choice of tickets, and every card or ticket taken from a deck (`ledger`). Each
mechanism module applies its own kinds (`APPLY`); the handler here is for the order of
play's (`events.py`).

Each of the game's kinds has one handler; any other event is refused with `UnknownKind`, so a
misspelt or foreign kind is an error rather than a silently ignored event (the core's kinds
never get here: `fold.step` handles them)."""

from __future__ import annotations

from domain.core.catalogue import UnknownKind, applied_by
from domain.core.events import Event
from domain.core.state import replace
from domain.ticket_to_ride import events
from domain.ticket_to_ride.board import Board
from domain.ticket_to_ride.catalogue import MECHANISMS
from domain.ticket_to_ride.ledger import Handlers
from domain.ticket_to_ride.state import PLAY, State


def evolve(board: Board, state: State, event: Event) -> State:
    apply = _APPLY.get(type(event))
    if apply is None:
        raise UnknownKind(event.kind, "Ticket to Ride")
    return apply(board, state, event)


def _turn_started(board: Board, state: State, event: events.TurnStarted) -> State:
    return replace(state, phase=PLAY, current=event.seat, cards_drawn=0)


_APPLY: Handlers = {
    events.TurnStarted: _turn_started,
    **applied_by(MECHANISMS),
}
"""One handler per kind the game declares (`test_evolve_handles_every_declared_kind`)."""
