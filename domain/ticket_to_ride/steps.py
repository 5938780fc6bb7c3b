"""Ticket to Ride's steps of a decision: the core's (`domain/core/steps.py`), evolving on the
game's board.

The mechanisms (`train_cards.py`, `claim_route.py`...) emit through these steps, and
`evolve.py` gathers the mechanisms' bookkeeping; so the `evolve` a decision folds with is
handed in by whoever starts the decision (`decide.py`), and this module imports no mechanism."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from domain.core import steps
from domain.core.events import Event
from domain.ticket_to_ride.board import Board
from domain.ticket_to_ride.state import State

Evolve = Callable[[Board, State, Event], State]


class Steps(steps.Steps[State]):
    def __init__(self, board: Board, state: State, evolve: Evolve) -> None:
        super().__init__(partial(evolve, board), state)
        self.board = board
