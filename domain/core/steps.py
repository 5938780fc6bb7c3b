"""The events of one decision in the making, for a game whose rules evolve as they decide.

Each event is applied as soon as it is emitted, so the rule that runs next (a refill, the end
of a turn, a phase that follows) sees its effect, and what `decide` returns always evolves to
the state it reasoned about. The states it passed through are the game's `decision`
(`Decider.decision`): the aggregate stores them instead of folding every event again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from domain.core.decider import Decision
from domain.core.events import Event

S = TypeVar("S")


class Steps(Generic[S]):
    """A game's own steps subclass this with its helpers (paying, gaining, the seat's move)."""

    def __init__(self, evolve: Callable[[S, Event], S], state: S) -> None:
        self._evolve = evolve
        self.state = state
        self.events: list[Event] = []
        self.states: list[S] = [state]

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = self._evolve(self.state, event)
        self.states.append(self.state)

    def decision(self) -> Decision[S]:
        """The events emitted and the states they passed through."""
        return Decision(tuple(self.events), tuple(self.states))
