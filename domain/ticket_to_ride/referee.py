"""What a referee may change in a Ticket to Ride game (`adjust`), and which public events
show a hidden card (`reveals`), for the core's referee tools (`domain/core/referee.py`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.errors import IllegalMove, MalformedMove
from domain.core.events import Event
from domain.core.state import replace, replace_seat
from domain.ticket_to_ride.board import Board
from domain.ticket_to_ride.state import State
from domain.ticket_to_ride.train_cards import MarketCardTurnedUp, MarketRefilled

REVEALING = (MarketCardTurnedUp, MarketRefilled)
"""A card turned up from the face-down deck: the deck's top is seen by everyone."""


def reveals(event: Event) -> bool:
    return isinstance(event, REVEALING)


def adjust(board: Board, state: State, adjustment: Mapping[str, Any]) -> State:
    """`vp`: add `amount` points (recorded as a scoring step of its own, so the score
    still equals the sum of its steps). `piece`: put the route `detail.route` back: it
    is free again, its trains return to the seat and its points are taken off; the cards
    paid for it stay where they went. Ticket to Ride has no cash and no income."""
    seat, kind, amount = adjustment["seat"], adjustment["kind"], adjustment["amount"]
    before = state.seats[seat]
    if kind == "vp":
        return replace_seat(state, seat, score=before.score + amount, scored=(*before.scored, amount))
    if kind == "piece":
        route_id = adjustment.get("detail", {}).get("route")
        if route_id not in board.routes:
            raise MalformedMove("unknown_route", "Name the route to put back as `detail.route`, e.g. \"Denver|Omaha\".")
        if state.claims.get(route_id) != seat:
            raise IllegalMove("not_claimed", f"Route {board.routes[route_id].label} is not claimed by seat {seat}.")
        route = board.routes[route_id]
        points = board.route_points[route.length]
        claims = {r: owner for r, owner in state.claims.items() if r != route_id}
        state = replace_seat(state, seat, trains=before.trains + route.length, score=before.score - points,
                           scored=(*before.scored, -points))
        return replace(state, claims=claims)
    raise IllegalMove("adjustment_unsupported", "Ticket to Ride has no cash or income: adjust `vp`, or put a `piece` (a route) back.")
