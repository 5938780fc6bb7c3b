"""Destination tickets (`docs/rules/ticket_to_ride.md`, "Setup" 4 and "Draw destination
tickets"; ruling 3), read top to bottom: the events, how many of the tickets offered a seat
must keep (2 of its first ones, 1 of a draw), the checks, the choices and the draw a seat
has, what a choice and a draw record (the opening's choices sealed until every seat has
chosen), and how each event changes the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any

from domain.core.errors import IllegalMove
from domain.core.events import Event, Secret, means
from domain.core.randomness import Randomness
from domain.core.state import replace, replace_seat
from domain.ticket_to_ride import draws
from domain.ticket_to_ride.board import Board
from domain.ticket_to_ride.ledger import Handlers, without
from domain.ticket_to_ride.moves import KeepTickets
from domain.ticket_to_ride.state import OPENING, State

if TYPE_CHECKING:
    from domain.ticket_to_ride.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TicketsKept(Event):
    """A seat chose which of its offered tickets to keep; the choice is its secret.

    In the sealed opening even how many stays hidden until every seat has chosen."""

    seat: int = field(metadata=means("The seat, from 0."))
    kept: int | None = field(default=None, metadata=means("How many it kept; absent in the opening."))
    returned: int | None = field(default=None, metadata=means(
        "How many went back under the ticket deck; absent in the opening."))


@dataclass(frozen=True, kw_only=True)
class TicketChoicesRevealed(Event):
    """Every seat has chosen its opening tickets: how many each kept and returned is made public."""

    kept: dict[str, int] = field(metadata=means("Seat (as a string) to how many tickets it kept."))
    returned: dict[str, int] = field(metadata=means("Seat (as a string) to how many it returned."))


@dataclass(frozen=True, kw_only=True)
class TicketsDrawn(Event):
    """A seat drew destination tickets to choose from; which ones is its secret."""

    seat: int = field(metadata=means("The seat, from 0."))
    count: int = field(metadata=means("How many it drew (fewer when the ticket deck runs short)."))


# --- the checks ---------------------------------------------------------------------------


def keep_minimum(board: Board, state: State) -> int:
    return board.opening_keep if state.phase == OPENING else board.draw_keep


def check_keep(board: Board, state: State, seat: int, keep: tuple[str, ...]) -> None:
    offered = state.seats[seat].offered
    if not offered:
        raise IllegalMove("no_tickets_offered", "You have no tickets to choose from; draw tickets first.")
    for ticket in keep:
        if ticket not in offered:
            name = board.tickets[ticket].label if ticket in board.tickets else repr(ticket)
            raise IllegalMove("ticket_not_offered", f"Ticket {name} is not one of the tickets you were offered.")
    if len(set(keep)) != len(keep):
        raise IllegalMove("ticket_listed_twice", "Each ticket may be listed only once in \"keep\".")
    minimum = keep_minimum(board, state)
    if len(keep) < minimum:
        raise IllegalMove(
            "tickets_keep_too_few",
            f"Keep at least {minimum} of the {len(offered)} tickets offered; you kept {len(keep)}.",
        )


def check_draw_tickets(state: State) -> None:
    if not state.ticket_deck:
        raise IllegalMove("ticket_deck_empty", "The ticket deck is empty; there are no tickets left to draw.")


def legal_moves(board: Board, state: State, seat: int) -> list[dict[str, Any]]:
    """A seat offered tickets: every choice it may keep, the most first. Otherwise the draw,
    while the ticket deck holds any."""
    offered = state.seats[seat].offered
    if offered:
        return [
            {"type": "keep_tickets", "keep": list(chosen)}
            for size in range(len(offered), keep_minimum(board, state) - 1, -1)
            for chosen in combinations(offered, size)
        ]
    return [{"type": "draw_tickets"}] if state.ticket_deck else []


# --- the draw and the choice --------------------------------------------------------------


def draw(steps: Steps, seat: int, rng: Randomness) -> None:
    """Tickets to choose from; the choice that follows is a move of its own, in the same turn."""
    state = steps.state
    check_draw_tickets(state)
    tickets = draws.tickets(steps.board, state.ticket_deck, steps.board.ticket_draw, draws.DRAWN_TICKETS, seat, rng,
                            state.tickets_returned)
    steps.emit(TicketsDrawn(seat=seat, count=len(tickets), secrets=(Secret((seat,), {"tickets": tickets}),)))


def keep(steps: Steps, seat: int, command: KeepTickets) -> None:
    """The seat's choice of the tickets offered; the others go under the ticket deck. The
    opening is sealed: even how many tickets a seat kept stays hidden until every seat has
    chosen, and then all are revealed at once."""
    state = steps.state
    check_keep(steps.board, state, seat, command.keep)
    offered = state.seats[seat].offered
    # Offered order, not the order the seat listed them in, so equal choices record alike.
    kept = [t for t in offered if t in command.keep]
    returned = [t for t in offered if t not in command.keep]
    choice = Secret((seat,), {"kept": kept, "returned": returned})
    if state.phase != OPENING:
        steps.emit(TicketsKept(seat=seat, kept=len(kept), returned=len(returned), secrets=(choice,)))
        return
    steps.emit(TicketsKept(seat=seat, secrets=(choice,)))
    sealed = steps.state.sealed
    assert sealed is not None
    if not sealed.complete:
        return
    chosen = {str(s): sealed.choices.get(s, {"kept": [], "returned": []}) for s in range(len(state.seats))}
    steps.emit(TicketChoicesRevealed(
        kept={s: len(c["kept"]) for s, c in chosen.items()},
        returned={s: len(c["returned"]) for s, c in chosen.items()},
        secrets=(Secret((), {"returned": {s: list(c["returned"]) for s, c in chosen.items()}}),),
        automatic=True,
    ))


# --- the events applied -------------------------------------------------------------------


def offer(state: State, seat: int, tickets: tuple[str, ...]) -> State:
    """Tickets offered to `seat`, dealt at the setup (`opening`) or drawn, taken out of the
    ticket deck."""
    # A draw takes the shuffled tickets first, and reaches the returned ones under them only
    # for what the shuffled ones could not give.
    above = len(state.ticket_deck) - state.tickets_returned
    returned = state.tickets_returned - max(0, len(tickets) - above)
    return replace(replace_seat(state, seat, offered=tickets), ticket_deck=without(state.ticket_deck, tickets),
                   tickets_returned=returned, passes_in_a_row=0)


def _drawn(board: Board, state: State, event: TicketsDrawn) -> State:
    return offer(state, event.seat, tuple(event.secret()["tickets"]))


def _kept(board: Board, state: State, event: TicketsKept) -> State:
    seat = event.seat
    if state.phase == OPENING:
        assert state.sealed is not None
        return replace(replace_seat(state, seat, offered=()), sealed=state.sealed.submitted(seat, event.secret()))
    kept, returned = tuple(event.secret()["kept"]), tuple(event.secret()["returned"])
    state = replace_seat(state, seat, tickets=state.seats[seat].tickets + kept, offered=())
    return replace(state, ticket_deck=state.ticket_deck + returned, tickets_returned=state.tickets_returned + len(returned))


def _revealed(board: Board, state: State, event: TicketChoicesRevealed) -> State:
    assert state.sealed is not None
    choices = state.sealed.choices
    seats = tuple(replace(seat, tickets=seat.tickets + tuple(choices[index]["kept"])) if index in choices else seat
                  for index, seat in enumerate(state.seats))
    returned = tuple(t for index in sorted(choices) for t in choices[index]["returned"])
    return replace(state, seats=seats, ticket_deck=state.ticket_deck + returned,
                   tickets_returned=state.tickets_returned + len(returned), sealed=None)


APPLY: Handlers = {TicketsKept: _kept, TicketChoicesRevealed: _revealed, TicketsDrawn: _drawn}
KINDS = tuple(APPLY)
