"""What the rules allow now: who may act, the checks `decide` runs before it emits
anything (each raising `IllegalMove` with a sentence for the player), and the list of every
legal move for clients, bots and playouts. Both sides share the same predicates."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations
from typing import Any

from domain.core.errors import IllegalMove, counted
from domain.ticket_to_ride.board import GRAY, LOCOMOTIVE, Board, Route
from domain.ticket_to_ride.moves import DECK, MARKET, ClaimRoute, Command, DrawCard, KeepTickets
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


def keep_minimum(board: Board, state: State) -> int:
    return board.opening_keep if state.phase == OPENING else board.draw_keep


# --- the stage of the turn -------------------------------------------------------------


def check_stage(board: Board, state: State, seat: int, command: Command) -> None:
    """A ticket choice or a half-finished card draw must be completed before anything else."""
    offered = state.seats[seat].offered
    if offered and not isinstance(command, KeepTickets):
        raise IllegalMove(
            "must_keep_tickets",
            f"First choose which of your {len(offered)} tickets to keep (at least {keep_minimum(board, state)}).",
        )
    if state.cards_drawn and not isinstance(command, DrawCard):
        raise IllegalMove(
            "must_finish_draw", "You have drawn one train card this turn; draw your second card to finish it."
        )


# --- tickets ----------------------------------------------------------------------------


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


# --- train cards ------------------------------------------------------------------------


def check_deck_draw(state: State) -> None:
    # The discard is reshuffled as soon as the deck runs out, so an empty deck means there
    # is no face-down card anywhere.
    if not state.deck:
        raise IllegalMove("deck_empty", "The deck and the discard pile are both empty; take a face-up card instead.")


def check_market_draw(state: State, slot: int) -> None:
    card = state.market[slot]
    if card is None:
        raise IllegalMove("market_slot_empty", f"Market slot {slot} is empty: no card was left to fill it.")
    if card == LOCOMOTIVE and state.cards_drawn:
        # Ruling 5 included: a locomotive turned up by the refill is no exception.
        raise IllegalMove(
            "locomotive_second_card",
            "A face-up locomotive may only be taken as your first card, where it is the whole draw.",
        )


def can_draw_second_card(state: State) -> bool:
    return bool(state.deck) or any(card is not None and card != LOCOMOTIVE for card in state.market)


# --- routes -----------------------------------------------------------------------------


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


def _affordable_routes(board: Board, state: State, seat: int) -> Iterator[Route]:
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


# --- passing and the full list ----------------------------------------------------------


def has_move_besides_pass(board: Board, state: State, seat: int) -> bool:
    if state.deck or state.ticket_deck or any(card is not None for card in state.market):
        return True
    return next(_affordable_routes(board, state, seat), None) is not None


def check_pass(board: Board, state: State, seat: int) -> None:
    if has_move_besides_pass(board, state, seat):
        raise IllegalMove("pass_not_allowed", "You may pass only when no other move is possible.")


def legal_moves(board: Board, state: State, seat: int) -> list[dict[str, Any]]:
    if seat not in active_seats(state):
        return []
    offered = state.seats[seat].offered
    if offered:
        return [
            {"type": "keep_tickets", "keep": list(keep)}
            for size in range(len(offered), keep_minimum(board, state) - 1, -1)
            for keep in combinations(offered, size)
        ]
    second = state.cards_drawn > 0
    moves: list[dict[str, Any]] = [
        {"type": "draw_card", "source": MARKET, "slot": slot}
        for slot in range(len(state.market))
        if state.market[slot] is not None and not (second and state.market[slot] == LOCOMOTIVE)
    ]
    if state.deck:
        moves.append({"type": "draw_card", "source": DECK})
    if second:
        return moves
    if state.ticket_deck:
        moves.append({"type": "draw_tickets"})
    hand = state.seats[seat].hand
    for route in _affordable_routes(board, state, seat):
        for payment in payments(board, route, hand):
            moves.append({"type": "claim_route", "route": route.id, "cards": payment})
    return moves or [{"type": "pass"}]
