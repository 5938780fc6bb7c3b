"""`decide`: the events a seat's move causes, the seat's own event first, then every automatic
step it triggers (refills, wipes, reshuffles, the next turn, the last round, final scoring).
Each move goes to its mechanism (`tickets`, `train_cards`, `claim_route`, `last_round`), and
`flow` says what comes next. Nothing is emitted until the move has passed every check, so an
illegal move changes nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.errors import GameOver, NotYourTurn
from domain.core.events import Event
from domain.core.randomness import Randomness
from domain.ticket_to_ride import claim_route, flow, last_round, opening, tickets, train_cards
from domain.ticket_to_ride.board import Board
from domain.ticket_to_ride.evolve import evolve
from domain.ticket_to_ride.legal import active_seats, check_stage
from domain.ticket_to_ride.moves import ClaimRoute, DrawFromDeck, DrawFromMarket, DrawTickets, KeepTickets, parse_move
from domain.ticket_to_ride.state import OVER, State
from domain.ticket_to_ride.steps import Steps


def setup(board: Board, state: State, rng: Randomness) -> list[Event]:
    steps = Steps(board, state, evolve)
    opening.deal(steps, rng)
    return steps.events


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
    steps = Steps(board, state, evolve)
    if isinstance(command, KeepTickets):
        tickets.keep(steps, seat, command)
        flow.after_tickets_kept(steps, seat)
    elif isinstance(command, (DrawFromMarket, DrawFromDeck)):
        if train_cards.draw(steps, seat, command, rng):
            flow.end_turn(steps, seat)
    elif isinstance(command, ClaimRoute):
        claim_route.claim(steps, seat, command, rng)
        flow.end_turn(steps, seat)
    elif isinstance(command, DrawTickets):
        tickets.draw(steps, seat, rng)
    else:
        last_round.pass_turn(steps, seat)
        flow.end_turn(steps, seat)
    return steps
