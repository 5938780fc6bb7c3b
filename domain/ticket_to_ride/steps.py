"""The events of one decision in the making. Each event is applied as soon as it is
emitted, so the rule that runs next (a refill, a wipe, the end of the turn) sees its effect,
and what `decide` returns always evolves to the state it reasoned about."""

from __future__ import annotations

from domain.core.decider import Decision
from domain.core.events import Event
from domain.ticket_to_ride.board import Board
from domain.ticket_to_ride.evolve import evolve
from domain.ticket_to_ride.state import State


class Steps:
    def __init__(self, board: Board, state: State) -> None:
        self.board = board
        self.state = state
        self.events: list[Event] = []
        self.states: list[State] = [state]

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.board, self.state, event)
        self.states.append(self.state)

    def decision(self) -> Decision[State]:
        """The events emitted and the states they passed through, for `Decider.decision`."""
        return Decision(tuple(self.events), tuple(self.states))
