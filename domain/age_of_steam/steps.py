"""Age of Steam's steps of a decision: the core's (`domain/core/steps.py`), evolving on the
game's map, with the seat's own move told apart from the game's steps that follow it.

The mechanisms (`auction.py`, `build_track.py`...) emit through these steps, and `evolve.py`
gathers the mechanisms' bookkeeping; so the `evolve` a decision folds with is handed in by
whoever starts the decision (`decide.py`, `observed.py`), and this module imports no mechanism."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from domain.age_of_steam.board import Map
from domain.age_of_steam.state import State
from domain.core import steps
from domain.core.events import Event
from domain.core.state import replace

Evolve = Callable[[Map, State, Event], State]


class Steps(steps.Steps[State]):
    def __init__(self, map_: Map, state: State, evolve: Evolve) -> None:
        super().__init__(partial(evolve, map_), state)
        self.map = map_
        self.evolve = evolve

    def trial(self) -> Steps:
        """A decision started afresh from the state reached, to try moves on and throw away."""
        return Steps(self.map, self.state, self.evolve)

    def moved(self, event: Event) -> None:
        """The seat's own move: the first event of a decision, recorded under its seat."""
        super().emit(event)

    def emit(self, event: Event) -> None:
        """One of the game's own steps, recorded as the system's."""
        super().emit(event if event.automatic else replace(event, automatic=True))
