"""What must hold after every event, as sentences (empty when all is well). The random
playouts and the service's simulator check these after each step."""

from __future__ import annotations

from collections import Counter

from domain.ticket_to_ride.board import Board
from domain.ticket_to_ride.state import State


def invariants(board: Board, state: State) -> list[str]:
    return [*_cards(board, state), *_tickets(board, state), *_seats(board, state), *_claims(board, state)]


def _cards(board: Board, state: State) -> list[str]:
    problems = []
    if len(state.market) != board.market_size:
        problems.append(f"the market has {len(state.market)} slots, not {board.market_size}")
    counts = Counter(state.deck)
    counts.update(card for card in state.market if card is not None)
    counts.update(state.discard)
    for index, seat in enumerate(state.seats):
        for kind, count in seat.hand.items():
            if count < 0:
                problems.append(f"seat {index} holds {count} {kind} cards")
            counts[kind] += count
    total = sum(counts.values())
    if total != sum(board.card_counts.values()):
        problems.append(f"{total} train cards are accounted for, not {sum(board.card_counts.values())}")
    for kind, expected in board.card_counts.items():
        if counts[kind] != expected:
            problems.append(f"{counts[kind]} {kind} cards are accounted for, not {expected}")
    unknown = set(counts) - set(board.card_counts)
    if unknown:
        problems.append(f"unknown cards in play: {sorted(unknown)}")
    return problems


def _tickets(board: Board, state: State) -> list[str]:
    held = [*state.ticket_deck]
    for seat in state.seats:
        held += [*seat.tickets, *seat.offered]
    for choice in (state.sealed.choices.values() if state.sealed is not None else ()):
        held += [*choice["kept"], *choice["returned"]]
    problems = []
    if len(held) != len(board.tickets):
        problems.append(f"{len(held)} tickets are accounted for, not {len(board.tickets)}")
    if set(held) != set(board.tickets):
        problems.append("the tickets in play are not the map's tickets, each once")
    if not 0 <= state.tickets_returned <= len(state.ticket_deck):
        problems.append(f"{state.tickets_returned} tickets are counted as returned under a deck of {len(state.ticket_deck)}")
    return problems


def _seats(board: Board, state: State) -> list[str]:
    problems = []
    laid = [0] * len(state.seats)
    for route, owner in state.claims.items():
        laid[owner] += board.routes[route].length
    for index, seat in enumerate(state.seats):
        if seat.trains < 0:
            problems.append(f"seat {index} has {seat.trains} trains")
        if seat.trains + laid[index] != board.trains_per_seat:
            problems.append(f"seat {index} has {seat.trains} trains left but laid {laid[index]} of {board.trains_per_seat}")
        if seat.score != sum(seat.scored):
            problems.append(
                f"seat {index} has a score of {seat.score} but its scoring events add up to {sum(seat.scored)}"
            )
    return problems


def _claims(board: Board, state: State) -> list[str]:
    problems = []
    for route, owner in state.claims.items():
        if not 0 <= owner < len(state.seats):
            problems.append(f"route {route} is claimed by seat {owner}, who is not in the game")
        twin = board.twin.get(route)
        if twin is None or twin not in state.claims or route > twin:
            continue
        if not state.doubles_both_usable:
            problems.append(f"both routes of the double {route} / {twin} are claimed with {len(state.seats)} seats")
        elif state.claims[twin] == owner:
            problems.append(f"seat {owner} holds both routes of the double {route} / {twin}")
    return problems
