"""The setup, recorded as events: shuffle and deal the train cards, turn up the market,
shuffle and deal the tickets, pick the first player. The opening ticket choice that follows
is played as moves (`decide`)."""

from __future__ import annotations

from domain.core.events import Event, Secret
from domain.core.kinds import roll
from domain.core.randomness import Randomness, shuffled
from domain.ticket_to_ride import draws
from domain.ticket_to_ride.board import Board
from domain.ticket_to_ride.events import (
    CardsDealt,
    FirstPlayerChosen,
    MarketCardTurnedUp,
    TicketsDealt,
    TicketsShuffled,
    TrainCardsShuffled,
)
from domain.ticket_to_ride.market import restock
from domain.ticket_to_ride.state import State
from domain.ticket_to_ride.steps import Steps


def setup(board: Board, state: State, rng: Randomness) -> list[Event]:
    """`state` holds both decks in printed order (`initial_state`); they are shuffled here."""
    steps = Steps(board, state)
    seats = range(len(state.seats))

    order = rng.shuffle(state.deck)
    steps.emit(TrainCardsShuffled(count=len(order), secrets=(Secret((), shuffled(order)),), automatic=True))
    for seat in seats:
        cards = draws.hand(board, steps.state.deck, seat, rng)
        steps.emit(CardsDealt(seat=seat, count=len(cards), secrets=(Secret((seat,), {"cards": cards}),), automatic=True))
    restock(steps, rng, MarketCardTurnedUp)

    order = rng.shuffle(state.ticket_deck)
    steps.emit(TicketsShuffled(count=len(order), secrets=(Secret((), shuffled(order)),), automatic=True))
    for seat in seats:
        tickets = draws.tickets(board, steps.state.ticket_deck, board.opening_tickets, draws.OPENING_TICKETS, seat, rng)
        steps.emit(TicketsDealt(seat=seat, count=len(tickets), secrets=(Secret((seat,), {"tickets": tickets}),), automatic=True))

    first = draws.first_player(tuple(seat.name for seat in state.seats), rng)
    steps.emit(FirstPlayerChosen(seat=first, random=roll(len(state.seats), first), automatic=True))
    return steps.events
