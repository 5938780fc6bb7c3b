"""The events of one decision in the making. Each event is applied as soon as it is emitted,
so the rule that runs next (the next bidder, the end of a phase, final scoring) sees its effect,
and what `decide` returns always evolves to the state it reasoned about."""

from __future__ import annotations

from typing import Any

from domain.age_of_steam.evolve import evolve
from domain.age_of_steam.state import State
from domain.core.decider import Decision
from domain.core.events import Event, Untyped


class Steps:
    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []
        self.states: list[State] = [state]

    def emit(self, kind: str, data: dict[str, Any], automatic: bool = True) -> None:
        event = Untyped(kind, data, automatic=automatic)
        self.events.append(event)
        self.state = evolve(self.state, event)
        self.states.append(self.state)

    def decision(self) -> Decision[State]:
        """The events emitted and the states they passed through, for `Decider.decision`."""
        return Decision(tuple(self.events), tuple(self.states))
