"""Ticket to Ride's steps of a decision: the core's (`domain/core/steps.py`), evolving
on the game's board."""

from __future__ import annotations

from functools import partial

from domain.core import steps
from domain.ticket_to_ride.board import Board
from domain.ticket_to_ride.evolve import evolve
from domain.ticket_to_ride.state import State


class Steps(steps.Steps[State]):
    def __init__(self, board: Board, state: State) -> None:
        super().__init__(partial(evolve, board), state)
        self.board = board
