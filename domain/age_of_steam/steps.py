"""The events of one decision in the making. Each event is applied as soon as it is emitted,
so the rule that runs next (the next bidder, the end of a phase, final scoring) sees its effect,
and what `decide` returns always evolves to the state it reasoned about."""

from __future__ import annotations

from domain.age_of_steam.board import Map
from domain.age_of_steam.evolve import evolve
from domain.age_of_steam.state import State
from domain.core.decider import Decision
from domain.core.events import Event
from domain.core.state import replace


class Steps:
    def __init__(self, map_: Map, state: State) -> None:
        self.map = map_
        self.state = state
        self.events: list[Event] = []
        self.states: list[State] = [state]

    def moved(self, event: Event) -> None:
        """The seat's own move: the first event of a decision, recorded under its seat."""
        self._apply(event)

    def emit(self, event: Event) -> None:
        """One of the game's own steps, recorded as the system's."""
        self._apply(event if event.automatic else replace(event, automatic=True))

    def _apply(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.map, self.state, event)
        self.states.append(self.state)

    def decision(self) -> Decision[State]:
        """The events emitted and the states they passed through, for `Decider.decision`."""
        return Decision(tuple(self.events), tuple(self.states))
