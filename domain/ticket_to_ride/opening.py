"""The setup (`docs/rules/ticket_to_ride.md`, "Setup"), read top to bottom: the events, the
setup they record (shuffle and deal the train cards, turn up the market, shuffle and deal the
tickets, draw the first player), and how each event changes the state. The first player
drawn opens the sealed choice of the first tickets, played as moves (`tickets`); the market
is turned up and wiped as in play (`train_cards`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from domain.core import sealed
from domain.core.events import Event, Secret, means
from domain.core.kinds import Roll, roll
from domain.core.randomness import Randomness, shuffled
from domain.core.state import replace, replace_seat
from domain.ticket_to_ride import draws
from domain.ticket_to_ride.board import Board
from domain.ticket_to_ride.ledger import Handlers, added, shuffle_order, without
from domain.ticket_to_ride.state import OPENING, State
from domain.ticket_to_ride.tickets import offer
from domain.ticket_to_ride.train_cards import MarketCardTurnedUp, restock

if TYPE_CHECKING:
    from domain.ticket_to_ride.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TrainCardsShuffled(Event):
    """The train-card deck was shuffled; the order is a referees' secret until the game ends."""

    count: int = field(metadata=means("How many cards were shuffled."))


@dataclass(frozen=True, kw_only=True)
class CardsDealt(Event):
    """A seat was dealt its starting hand from the top of the deck; the cards are its secret."""

    seat: int = field(metadata=means("The seat, from 0."))
    count: int = field(metadata=means("How many cards were dealt."))


@dataclass(frozen=True, kw_only=True)
class TicketsShuffled(Event):
    """The destination tickets were shuffled; the order is a referees' secret until the game ends."""

    count: int = field(metadata=means("How many tickets were shuffled."))


@dataclass(frozen=True, kw_only=True)
class TicketsDealt(Event):
    """A seat was dealt its opening tickets from the top of the ticket deck; which ones is its secret."""

    seat: int = field(metadata=means("The seat, from 0."))
    count: int = field(metadata=means("How many tickets it was dealt."))


@dataclass(frozen=True, kw_only=True)
class FirstPlayerChosen(Event):
    """The seat to play first was drawn at random."""

    seat: int = field(metadata=means("The seat, from 0."))
    random: Roll = field(metadata=means("The draw that chose it (a number below the seat count)."))


# --- the setup ----------------------------------------------------------------------------


def deal(steps: Steps, rng: Randomness) -> None:
    """The state holds both decks in printed order (`initial_state`); they are shuffled here."""
    board, state = steps.board, steps.state
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


# --- the events applied -------------------------------------------------------------------


def _train_cards_shuffled(board: Board, state: State, event: TrainCardsShuffled) -> State:
    return replace(state, deck=shuffle_order(event))


def _cards_dealt(board: Board, state: State, event: CardsDealt) -> State:
    cards = event.secret()["cards"]
    hand = added(state.seats[event.seat].hand, cards)
    return replace(replace_seat(state, event.seat, hand=hand), deck=without(state.deck, cards))


def _tickets_shuffled(board: Board, state: State, event: TicketsShuffled) -> State:
    return replace(state, ticket_deck=shuffle_order(event), tickets_returned=0)


def _tickets_dealt(board: Board, state: State, event: TicketsDealt) -> State:
    return offer(state, event.seat, tuple(event.secret()["tickets"]))


def _first_player_chosen(board: Board, state: State, event: FirstPlayerChosen) -> State:
    # Every seat dealt tickets chooses among them; a short ticket deck may have dealt a seat none.
    choosing = tuple(index for index, seat in enumerate(state.seats) if seat.offered)
    return replace(state, first_player=event.seat, phase=OPENING, sealed=sealed.open_phase(OPENING, choosing))


APPLY: Handlers = {TrainCardsShuffled: _train_cards_shuffled, CardsDealt: _cards_dealt, TicketsShuffled: _tickets_shuffled,
                   TicketsDealt: _tickets_dealt, FirstPlayerChosen: _first_player_chosen}
KINDS = tuple(APPLY)
