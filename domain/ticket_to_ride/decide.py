"""`decide`: the events a seat's move causes, including every automatic step it triggers
(refills, wipes, reshuffles, the next turn, the final round, final scoring). Nothing is
emitted until the move has passed every check, so an illegal move changes nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.errors import GameOver, NotYourTurn
from domain.core.events import Event, Secret
from domain.core.randomness import Randomness
from domain.ticket_to_ride import draws
from domain.ticket_to_ride.board import LOCOMOTIVE, Board
from domain.ticket_to_ride.events import (
    CardDrawn,
    FinalRoundBegan,
    PlayStalled,
    RouteClaimed,
    TicketChoicesRevealed,
    TicketsDrawn,
    TicketsKept,
    TurnPassed,
    TurnStarted,
)
from domain.ticket_to_ride.legal import (
    active_seats,
    can_draw_second_card,
    check_claim,
    check_deck_draw,
    check_draw_tickets,
    check_keep,
    check_market_draw,
    check_pass,
    check_stage,
)
from domain.ticket_to_ride.market import reshuffle_if_deck_ran_out, restock
from domain.ticket_to_ride.moves import (
    DECK,
    MARKET,
    ClaimRoute,
    DrawFromDeck,
    DrawFromMarket,
    DrawTickets,
    KeepTickets,
    parse_move,
)
from domain.ticket_to_ride.scoring import final_scoring, route_points
from domain.ticket_to_ride.state import OPENING, OVER, State
from domain.ticket_to_ride.steps import Steps


def decide(board: Board, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> list[Event]:
    return decided(board, state, seat, move, rng).events


def decided(board: Board, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> Steps:
    """`decide`, with the states its events passed through."""
    if state.phase == OVER:
        raise GameOver()
    if seat not in active_seats(state):
        raise NotYourTurn(seat)
    command = parse_move(board, move)
    check_stage(board, state, seat, command)
    steps = Steps(board, state)
    if isinstance(command, KeepTickets):
        _keep_tickets(steps, seat, command)
    elif isinstance(command, DrawFromMarket):
        _draw_from_market(steps, seat, command.slot, rng)
    elif isinstance(command, DrawFromDeck):
        _draw_from_deck(steps, seat, rng)
    elif isinstance(command, ClaimRoute):
        _claim_route(steps, seat, command, rng)
    elif isinstance(command, DrawTickets):
        _draw_tickets(steps, seat, rng)
    else:
        check_pass(board, state, seat)
        steps.emit(TurnPassed(seat=seat))
        _end_turn(steps, seat)
    return steps


def _keep_tickets(steps: Steps, seat: int, command: KeepTickets) -> None:
    state = steps.state
    check_keep(steps.board, state, seat, command.keep)
    offered = state.seats[seat].offered
    # Offered order, not the order the seat listed them in, so equal choices record alike.
    kept = [t for t in offered if t in command.keep]
    returned = [t for t in offered if t not in command.keep]
    choice = Secret((seat,), {"kept": kept, "returned": returned})
    if state.phase != OPENING:
        steps.emit(TicketsKept(seat=seat, kept=len(kept), returned=len(returned), secrets=(choice,)))
        _end_turn(steps, seat)
        return
    # The opening is sealed: even how many tickets a seat kept stays hidden until all are in.
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
    first = steps.state.first_player
    assert first is not None
    steps.emit(TurnStarted(seat=first, automatic=True))


def _draw_from_market(steps: Steps, seat: int, slot: int, rng: Randomness) -> None:
    state = steps.state
    check_market_draw(state, slot)
    card = state.market[slot]
    first = state.cards_drawn == 0
    steps.emit(CardDrawn(seat=seat, source=MARKET, slot=slot, card=card))
    restock(steps, rng)
    # A face-up locomotive can only be a first card, and then it is the whole draw.
    _after_card(steps, seat, draw_over=not first or card == LOCOMOTIVE)


def _draw_from_deck(steps: Steps, seat: int, rng: Randomness) -> None:
    state = steps.state
    check_deck_draw(state)
    first = state.cards_drawn == 0
    card = draws.blind(state.deck, seat, rng)
    steps.emit(CardDrawn(seat=seat, source=DECK, secrets=(Secret((seat,), {"card": card}),)))
    reshuffle_if_deck_ran_out(steps, rng)
    _after_card(steps, seat, draw_over=not first)


def _after_card(steps: Steps, seat: int, draw_over: bool) -> None:
    # Fewer than two cards is a whole draw only when no card that may be taken is left.
    if draw_over or not can_draw_second_card(steps.state):
        _end_turn(steps, seat)


def _claim_route(steps: Steps, seat: int, command: ClaimRoute, rng: Randomness) -> None:
    state = steps.state
    check_claim(steps.board, state, seat, command)
    route = steps.board.routes[command.route]
    steps.emit(RouteClaimed(seat=seat, route=route.id, cards=dict(command.cards),
                            trains_left=state.seats[seat].trains - route.length, points=route_points(steps.board, route.length)))
    reshuffle_if_deck_ran_out(steps, rng)
    # Ruling 2: spent cards may be what an empty market slot was waiting for.
    restock(steps, rng)
    _end_turn(steps, seat)


def _draw_tickets(steps: Steps, seat: int, rng: Randomness) -> None:
    state = steps.state
    check_draw_tickets(state)
    tickets = draws.tickets(steps.board, state.ticket_deck, steps.board.ticket_draw, draws.DRAWN_TICKETS, seat, rng,
                            state.tickets_returned)
    steps.emit(TicketsDrawn(seat=seat, count=len(tickets), secrets=(Secret((seat,), {"tickets": tickets}),)))


def _end_turn(steps: Steps, seat: int) -> None:
    state = steps.state
    trains = state.seats[seat].trains
    if state.final_round_trigger is None:
        if trains <= steps.board.end_trigger_trains:
            steps.emit(FinalRoundBegan(seat=seat, trains_left=trains, automatic=True))
    elif state.final_round_trigger == seat:
        final_scoring(steps)
        return
    if state.passes_in_a_row >= len(state.seats):
        # Every seat has passed in a row: the state can no longer change, so play stops.
        steps.emit(PlayStalled(passes=state.passes_in_a_row, automatic=True))
        final_scoring(steps)
        return
    steps.emit(TurnStarted(seat=(seat + 1) % len(state.seats), automatic=True))
