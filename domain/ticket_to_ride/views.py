"""`view`: the state as an audience may see it, as plain JSON. Everyone sees the table
(counts, market, claimed routes, scores); a seat also sees its own hand and tickets; a
referee sees everything, deck orders included. The view follows the audience it is given:
whether everyone may see a finished game as a referee does is the service's to decide (not
while a game it was forked from still runs).

As in every Caboose game, what only seat N may see lives inside `seats[N]`, so a leak
check can compare any seat's view with the public one without knowing the game.
"""

from __future__ import annotations

from typing import Any

from domain.core.events import Audience
from domain.ticket_to_ride.legal import active_seats
from domain.ticket_to_ride.state import OPENING, OVER, Seat, State


def view(state: State, audience: Audience) -> dict[str, Any]:
    over = state.phase == OVER
    everything = audience.referee
    seats = []
    for index, seat in enumerate(state.seats):
        entry = _public_seat(state, index, seat)
        if everything or audience.seat == index:
            entry.update(_private_seat(state, index, seat))
        seats.append(entry)
    out: dict[str, Any] = {
        "game": "ticket_to_ride",
        "phase": state.phase,
        "active_seats": sorted(active_seats(state)),
        "turn": state.current,
        "first_player": state.first_player,
        "cards_drawn_this_turn": state.cards_drawn,
        "seats": seats,
        "market": list(state.market),
        "deck": len(state.deck),
        "discard": len(state.discard),
        "ticket_deck": len(state.ticket_deck),
        "routes": dict(state.claims),
        "final_round": _final_round(state),
        "scores": {str(index): seat.score for index, seat in enumerate(state.seats)},
    }
    if over:
        out["longest_paths"] = {str(index): length for index, length in enumerate(state.longest_paths)}
        out["winners"] = list(state.winners)
    if everything:
        out["deck_order"] = list(state.deck)
        out["discard_pile"] = list(state.discard)
        out["ticket_deck_order"] = list(state.ticket_deck)
    return out


def _final_round(state: State) -> dict[str, Any] | None:
    trigger = state.final_round_trigger
    if trigger is None:
        return None
    # The seat that triggered the final round plays the game's last turn.
    seats = len(state.seats)
    if state.phase == OVER or state.current is None:
        to_play: list[int] = []
    else:
        to_play = [(state.current + step) % seats for step in range((trigger - state.current) % seats + 1)]
    return {"triggered_by": trigger, "trains_left": state.seats[trigger].trains, "turns_left": to_play}


def _public_seat(state: State, index: int, seat: Seat) -> dict[str, Any]:
    return {
        "seat": index,
        "name": seat.name,
        "trains": seat.trains,
        "cards": sum(seat.hand.values()),
        # While the opening is sealed, the number kept would give a seat's choice away.
        "tickets": None if state.phase == OPENING else len(seat.tickets),
        "tickets_offered": len(seat.offered),
        "score": seat.score,
    }


def _private_seat(state: State, index: int, seat: Seat) -> dict[str, Any]:
    # A sealed opening choice joins the seat's tickets only at the reveal; its own seat sees it now.
    chosen = state.sealed.choices.get(index) if state.sealed is not None else None
    return {
        "hand": {kind: count for kind, count in seat.hand.items() if count},
        "kept_tickets": [*seat.tickets, *(chosen["kept"] if chosen else ())],
        "offered_tickets": list(seat.offered),
        "returning_tickets": list(chosen["returned"]) if chosen else [],
    }


def _seat_numbers() -> dict[str, Any]:
    return {"type": "object", "additionalProperties": {"type": "integer"}}


_TICKETS = {"type": "array", "items": {"type": "string", "description": "A ticket id of the map."}}

VIEW_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "A Ticket to Ride game as the caller may see it (`view`).",
    "properties": {
        "game": {"type": "string", "enum": ["ticket_to_ride"]},
        "phase": {"type": "string", "description": "`opening`, `play` or `over`."},
        "active_seats": {"type": "array", "items": {"type": "integer"}},
        "turn": {"type": "integer", "nullable": True, "description": "The seat whose turn it is (null in the opening)."},
        "first_player": {"type": "integer", "nullable": True},
        "cards_drawn_this_turn": {"type": "integer"},
        "seats": {"type": "array", "items": {
            "type": "object",
            "properties": {
                "seat": {"type": "integer"}, "name": {"type": "string"}, "trains": {"type": "integer"},
                "cards": {"type": "integer", "description": "How many train cards it holds."},
                "tickets": {"type": "integer", "nullable": True, "description": "How many tickets it keeps (null while "
                            "the opening's choice is sealed)."},
                "tickets_offered": {"type": "integer"}, "score": {"type": "integer"},
                "hand": {"type": "object", "additionalProperties": {"type": "integer"},
                         "description": "Its own seat (or a referee, or once over): card kind -> count."},
                "kept_tickets": _TICKETS, "offered_tickets": _TICKETS, "returning_tickets": _TICKETS,
            },
            "required": ["seat", "name", "trains", "cards", "tickets", "tickets_offered", "score"],
        }},
        "market": {"type": "array", "items": {"type": "string", "nullable": True}, "description": "The face-up cards."},
        "deck": {"type": "integer"}, "discard": {"type": "integer"}, "ticket_deck": {"type": "integer"},
        "routes": {**_seat_numbers(), "description": "Route id -> the seat that claimed it."},
        "final_round": {"type": "object", "nullable": True, "properties": {
            "triggered_by": {"type": "integer"}, "trains_left": {"type": "integer"},
            "turns_left": {"type": "array", "items": {"type": "integer"}}}},
        "scores": {**_seat_numbers(), "description": "Seat -> score."},
        "longest_paths": {**_seat_numbers(), "description": "Once over: seat -> its longest path."},
        "winners": {"type": "array", "items": {"type": "integer"}},
        "deck_order": {"type": "array", "items": {"type": "string"}},
        "discard_pile": {"type": "array", "items": {"type": "string"}},
        "ticket_deck_order": _TICKETS,
    },
    "required": ["game", "phase", "active_seats", "turn", "first_player", "cards_drawn_this_turn", "seats", "market",
                 "deck", "discard", "ticket_deck", "routes", "final_round", "scores"],
}
"""The JSON Schema of `view`, published in the OpenAPI document (the conformance suite checks
every view of its playouts against it)."""
