"""Toot-Toot Train's steps of a decision: the core's (`domain/core/steps.py`), evolving on the
pack's content, for the seat whose move it is.

The mechanisms (`draw_track.py`, `locations.py`...) emit through these steps, and `evolve.py`
gathers the mechanisms' bookkeeping; so the `evolve` a decision folds with is handed in by
whoever starts the decision (`decide.py`, the bot trying a move), and this module imports no
mechanism."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial

from domain.core import steps
from domain.core.events import Event
from domain.toot_toot.content import Content
from domain.toot_toot.context import Ctx
from domain.toot_toot.state import State

Evolve = Callable[[Content, State, Event], State]


class Steps(steps.Steps[State]):
    """The steps of one move. `ctx` is the state the move started from, for its seat: the
    checks read it, and so do the events a move records after its own (a sale's orders and
    refill are those of the state it was made in)."""

    def __init__(self, ctx: Ctx, evolve: Evolve) -> None:
        super().__init__(partial(evolve, ctx.content), ctx.state)
        self.ctx = ctx

    def emit(self, event: Event) -> None:
        # The seat's own action is the first event; what follows it (its payments, scores,
        # refills) is the game's step.
        if self.events and not event.automatic:
            event = dataclasses.replace(event, automatic=True)
        super().emit(event)
