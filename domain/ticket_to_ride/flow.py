"""The order of play (`docs/rules/ticket_to_ride.md`, "A turn: one of three actions"): the
first turn once every seat has chosen its first tickets, and the end of a turn, which passes
play to the next seat in seat order unless play is over. What happens within a turn is its
mechanism's (`train_cards`, `claim_route`, `tickets`, `last_round`); this module only says
what comes next. Each function emits through `Steps`, so it reads the state its own earlier
events made."""

from __future__ import annotations

from domain.ticket_to_ride import last_round
from domain.ticket_to_ride.events import TurnStarted
from domain.ticket_to_ride.scoring import final_scoring
from domain.ticket_to_ride.state import OPENING
from domain.ticket_to_ride.steps import Steps


def after_tickets_kept(steps: Steps, seat: int) -> None:
    """A choice after a ticket draw ends the seat's turn; in the opening, play begins with
    the first player once every seat's choice is revealed."""
    state = steps.state
    if state.phase != OPENING:
        end_turn(steps, seat)
    elif state.sealed is None:
        first = state.first_player
        assert first is not None
        steps.emit(TurnStarted(seat=first, automatic=True))


def end_turn(steps: Steps, seat: int) -> None:
    if last_round.ends_play(steps, seat):
        final_scoring(steps)
        return
    steps.emit(TurnStarted(seat=(seat + 1) % len(steps.state.seats), automatic=True))
