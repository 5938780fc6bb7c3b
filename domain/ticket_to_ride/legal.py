"""Who may act now, what must be finished first, and the list of every legal move for clients,
bots and playouts, gathered from the mechanisms (each keeps its own checks, which `decide`
runs before it emits anything, beside the moves it lists)."""

from __future__ import annotations

from typing import Any

from domain.core.errors import IllegalMove
from domain.ticket_to_ride import claim_route, last_round, tickets, train_cards
from domain.ticket_to_ride.board import Board
from domain.ticket_to_ride.moves import Command, DrawCard, KeepTickets
from domain.ticket_to_ride.options import MAX_SEATS
from domain.ticket_to_ride.state import OPENING, PLAY, State

_ONLY = tuple(frozenset((seat,)) for seat in range(MAX_SEATS))
_NOBODY: frozenset[int] = frozenset()


def active_seats(state: State) -> frozenset[int]:
    if state.phase == OPENING and state.sealed is not None:
        return state.sealed.waiting
    if state.phase == PLAY and state.current is not None:
        return _ONLY[state.current]
    return _NOBODY


def check_stage(board: Board, state: State, seat: int, command: Command) -> None:
    """A ticket choice or a half-finished card draw must be completed before anything else."""
    offered = state.seats[seat].offered
    if offered and not isinstance(command, KeepTickets):
        raise IllegalMove(
            "must_keep_tickets",
            f"First choose which of your {len(offered)} tickets to keep (at least {tickets.keep_minimum(board, state)}).",
        )
    if state.cards_drawn and not isinstance(command, DrawCard):
        raise IllegalMove(
            "must_finish_draw", "You have drawn one train card this turn; draw your second card to finish it."
        )


# --- the full list ------------------------------------------------------------------------


def legal_moves(board: Board, state: State, seat: int) -> list[dict[str, Any]]:
    if seat not in active_seats(state):
        return []
    if state.seats[seat].offered:
        return tickets.legal_moves(board, state, seat)
    moves = train_cards.legal_moves(state)
    if state.cards_drawn:
        return moves
    moves += tickets.legal_moves(board, state, seat)
    moves += claim_route.legal_moves(board, state, seat)
    return moves or last_round.legal_moves()
