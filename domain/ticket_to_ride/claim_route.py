"""Claiming a route (`docs/rules/ticket_to_ride.md`, "Claim a route", double routes included;
ruling 2), read top to bottom: the event, why a route is closed (taken, or the other of a
double), the checks on a payment, the ways a hand can pay, the claims a seat has, what a
claim records, and how it changes the state. Route points are scored at once, by length.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from domain.core.errors import IllegalMove, counted
from domain.core.events import Event, means
from domain.core.randomness import Randomness
from domain.core.state import changed, replace, replace_seat
from domain.ticket_to_ride.board import GRAY, LOCOMOTIVE, Board, Route
from domain.ticket_to_ride.ledger import Handlers
from domain.ticket_to_ride.moves import ClaimRoute
from domain.ticket_to_ride.state import State
from domain.ticket_to_ride.train_cards import reshuffle_if_deck_ran_out, restock

if TYPE_CHECKING:
    from domain.ticket_to_ride.steps import Steps

# --- the event ----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RouteClaimed(Event):
    """A seat claimed a route, paying train cards from its hand and placing its trains."""

    seat: int = field(metadata=means("The seat, from 0."))
    route: str = field(metadata=means("The route's id: its two cities, and #lane for a double, e.g. Denver|Omaha or Dallas|Houston#1."))
    cards: dict[str, int] = field(metadata=means("The cards paid: card kind to how many."))
    trains_left: int = field(metadata=means("The seat's trains after placing this route."))
    points: int = field(metadata=means("The points the route scores."))


# --- the checks ---------------------------------------------------------------------------


def closed_reason(board: Board, state: State, seat: int, route: Route) -> IllegalMove | None:
    """Why `route` cannot be claimed by `seat` whatever it pays, or None."""
    owner = state.claims.get(route.id)
    if owner is not None:
        return IllegalMove("route_taken", f"Route {route.label} is already claimed by seat {owner}.")
    twin = board.twin.get(route.id)
    if twin is not None and twin in state.claims:
        twin_owner = state.claims[twin]
        if not state.doubles_both_usable:
            return IllegalMove(
                "double_route_closed",
                f"Route {route.label} is closed: seat {twin_owner} claimed the other route between "
                f"{route.a} and {route.b}, and with {len(state.seats)} players only one of the two may be used.",
            )
        if twin_owner == seat:
            return IllegalMove(
                "double_route_same_seat",
                f"You already hold the other route between {route.a} and {route.b}; "
                "one player may not claim both routes of a double.",
            )
    return None


def check_claim(board: Board, state: State, seat: int, claim: ClaimRoute) -> None:
    route = board.routes[claim.route]
    reason = closed_reason(board, state, seat, route)
    if reason is not None:
        raise reason
    trains = state.seats[seat].trains
    if trains < route.length:
        raise IllegalMove(
            "not_enough_trains", f"Route {route.label} needs {counted(route.length, 'train')}; you have {trains} left."
        )
    offered = sum(claim.cards.values())
    if offered != route.length:
        raise IllegalMove(
            "wrong_card_count", f"Route {route.label} takes exactly {counted(route.length, 'card')}; you offered {offered}."
        )
    colours = [kind for kind in claim.cards if kind != LOCOMOTIVE]
    if len(colours) > 1:
        raise IllegalMove(
            "mixed_colours",
            f"Pay with cards of one colour plus locomotives; you offered {' and '.join(colours)}.",
        )
    if colours and route.colour != GRAY and colours[0] != route.colour:
        raise IllegalMove(
            "wrong_colour",
            f"Route {route.label} is {route.colour}: pay with {route.colour} cards and locomotives, "
            f"not {colours[0]}.",
        )
    hand = state.seats[seat].hand
    for kind, count in claim.cards.items():
        if hand[kind] < count:
            raise IllegalMove(
                "not_enough_cards", f"You offered {count} {kind} card(s) but hold only {hand[kind]}."
            )


# --- the claims a seat has ----------------------------------------------------------------


def payments(board: Board, route: Route, hand: Mapping[str, int]) -> list[dict[str, int]]:
    """Every distinct way `hand` can pay for `route`: one colour topped up with
    locomotives, or locomotives alone (listed once, whatever the colour)."""
    length, locomotives = route.length, hand[LOCOMOTIVE]
    out: list[dict[str, int]] = []
    for colour in board.colours if route.colour == GRAY else (route.colour,):
        for count in range(min(hand[colour], length), 0, -1):
            wild = length - count
            if wild > locomotives:
                break
            out.append({colour: count, LOCOMOTIVE: wild} if wild else {colour: count})
    if locomotives >= length:
        out.append({LOCOMOTIVE: length})
    return out


def _unavailable(board: Board, state: State, seat: int) -> set[str]:
    """The routes `closed_reason` rules out for `seat`, found at once for the whole board."""
    out = set(state.claims)
    for route, owner in state.claims.items():
        twin = board.twin.get(route)
        if twin is not None and (not state.doubles_both_usable or owner == seat):
            out.add(twin)
    return out


def affordable_routes(board: Board, state: State, seat: int) -> Iterator[Route]:
    """Open routes `seat` has the trains and enough cards for, in some payment."""
    trains, hand = state.seats[seat].trains, state.seats[seat].hand
    unavailable = _unavailable(board, state, seat)
    locomotives = hand[LOCOMOTIVE]
    most_of_a_colour = max((hand[colour] for colour in board.colours), default=0)
    for route in board.routes_shortest_first:
        if route.length > trains:
            return
        reach = locomotives + (most_of_a_colour if route.colour == GRAY else hand[route.colour])
        if reach >= route.length and route.id not in unavailable:
            yield route


def legal_moves(board: Board, state: State, seat: int) -> list[dict[str, Any]]:
    """Every open route the seat can claim, in every distinct payment."""
    hand = state.seats[seat].hand
    return [{"type": "claim_route", "route": route.id, "cards": payment}
            for route in affordable_routes(board, state, seat) for payment in payments(board, route, hand)]


# --- the claim ----------------------------------------------------------------------------


def route_points(board: Board, length: int) -> int:
    return board.route_points[length]


def claim(steps: Steps, seat: int, command: ClaimRoute, rng: Randomness) -> None:
    """The claim, then the cards it spent: they may be what the deck or an empty market slot
    was waiting for (ruling 2)."""
    state = steps.state
    check_claim(steps.board, state, seat, command)
    route = steps.board.routes[command.route]
    steps.emit(RouteClaimed(seat=seat, route=route.id, cards=dict(command.cards),
                            trains_left=state.seats[seat].trains - route.length, points=route_points(steps.board, route.length)))
    reshuffle_if_deck_ran_out(steps, rng)
    restock(steps, rng)


# --- the event applied --------------------------------------------------------------------


def _claimed(board: Board, state: State, event: RouteClaimed) -> State:
    seat, route, paid = event.seat, board.routes[event.route], event.cards
    before = state.seats[seat]
    # The cards paid go to the discard in the map's order of kinds, whatever the order paid.
    spent: tuple[str, ...] = ()
    for kind in sorted(paid, key=board.card_kinds.index):
        spent += (kind,) * paid[kind]
    state = replace_seat(
        state,
        seat,
        hand=changed(before.hand, {kind: before.hand[kind] - count for kind, count in paid.items()}),
        trains=before.trains - route.length,
        score=before.score + board.route_points[route.length],
        scored=(*before.scored, event.points),
    )
    return replace(state, claims=changed(state.claims, {route.id: seat}), discard=state.discard + spent,
                   passes_in_a_row=0)


APPLY: Handlers = {RouteClaimed: _claimed}
KINDS = tuple(APPLY)
