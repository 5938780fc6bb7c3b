"""The events of one decision in the making. Each event is applied as soon as it is
emitted, so the rule that runs next (a refill, a wipe, the end of the turn) sees its effect,
and what `decide` returns always evolves to the state it reasoned about."""

from __future__ import annotations

from domain.core.events import Event
from domain.ticket_to_ride.board import Board
from domain.ticket_to_ride.evolve import evolve
from domain.ticket_to_ride.state import State


class Steps:
    def __init__(self, board: Board, state: State) -> None:
        self.board = board
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.board, self.state, event)
