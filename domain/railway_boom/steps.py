"""Railway Boom's steps of a decision, and the resource moves every rule makes through them.

The mechanisms (`trains.py`, `expansion.py`...) emit through these steps, and `evolve.py`
gathers the mechanisms' bookkeeping; so the `evolve` a decision folds with is handed in by
whoever starts the decision (`decide.py`, `legal.py`), and this module imports no mechanism
but the resources' events it emits (`resources.py`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from domain.core import steps
from domain.core.events import Event
from domain.core.randomness import Randomness
from domain.railway_boom.content import RESOURCES, Content
from domain.railway_boom.resources import ResourceGained, ResourcePaid, ResourcesConverted, VPScored
from domain.railway_boom.state import State

Evolve = Callable[[Content, State, Event], State]


class Steps(steps.Steps[State]):
    """The core's steps of a decision (`domain/core/steps.py`), evolving on the game's
    content, with the payments and gains every rule makes."""

    def __init__(self, content: Content, state: State, evolve: Evolve, rng: Randomness | None = None) -> None:
        super().__init__(partial(evolve, content), state)
        self.content = content
        self.evolve = evolve
        self.rng = rng

    def trial(self) -> Steps:
        """A dry run from the state reached (no randomness: a draw turns up the top), to try
        moves on and throw away."""
        return Steps(self.content, self.state, self.evolve)

    def draw(self, deck: str, count: int, what: str) -> tuple[str, ...]:
        """`count` cards turned up from a deck (fewer when it runs short, R35). At a table the
        deck's order is unknown, so the cards are those entered (`rng.draw`); the events
        name them and `evolve` takes them out of the deck by name. A dry run (no `rng`)
        turns up the top."""
        pile: Sequence[str] = self.state.decks[deck]
        count = min(count, len(pile))
        if count == 0:
            return ()
        if self.rng is None:
            return tuple(pile[:count])
        return tuple(self.rng.draw(pile, count, what))

    def gain(self, seat: int, resource: str, amount: int, source: str) -> None:
        """`amount` of a resource, or VP for the fifth kind (R1)."""
        if amount <= 0:
            return
        if resource not in RESOURCES:
            self.emit(VPScored(seat=seat, amount=amount, source=source, automatic=True))
            return
        cap = self.content.resource_max
        have = self.state.seats[seat].resources[resource]
        lost = max(0, have + amount - cap) if cap is not None else 0
        self.emit(ResourceGained(seat=seat, resource=resource, amount=amount, source=source, lost=lost, automatic=True))

    def pay(self, seat: int, resource: str, amount: int, reason: str) -> None:
        if amount > 0:
            self.emit(ResourcePaid(seat=seat, resource=resource, amount=amount, reason=reason, automatic=True))

    def convert(self, seat: int, into: str, convert: dict[str, int] | None) -> None:
        for source, pairs in sorted((convert or {}).items()):
            if pairs:
                self.emit(ResourcesConverted(seat=seat, source=source, into=into, pairs=pairs, automatic=True))
