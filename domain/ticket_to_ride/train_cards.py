"""Drawing train-car cards (`docs/rules/ticket_to_ride.md`, "Draw train-car cards", and the
market of "Setup" 3; rulings 1, 2 and 5), read top to bottom: the events, the checks on a
draw (a face-up locomotive, an empty slot, an empty deck), the draws a seat has, what a draw
records and whether it is the whole draw, the market refilled, wiped and its deck reshuffled
(shared by the setup and by every move that spends or takes cards), and how each event
changes the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from domain.core.errors import IllegalMove
from domain.core.events import Event, Secret, means
from domain.core.randomness import Randomness, shuffled
from domain.core.state import changed, replace, replace_seat
from domain.ticket_to_ride import draws
from domain.ticket_to_ride.board import LOCOMOTIVE, Board
from domain.ticket_to_ride.ledger import Handlers, shuffle_order, without
from domain.ticket_to_ride.moves import DECK, MARKET, DrawFromDeck, DrawFromMarket
from domain.ticket_to_ride.options import MAX_MARKET_WIPES
from domain.ticket_to_ride.state import State

if TYPE_CHECKING:
    from domain.ticket_to_ride.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class MarketCardTurnedUp(Event):
    """A card from the top of the deck was turned up into an empty market slot at the setup."""

    slot: int = field(metadata=means("The market slot, from 0."))
    card: str = field(metadata=means("The card kind turned up."))


@dataclass(frozen=True, kw_only=True)
class CardDrawn(Event):
    """A seat drew a train card from the face-up market or from the deck (then the card is its secret)."""

    seat: int = field(metadata=means("The seat, from 0."))
    source: Literal["market", "deck"] = field(metadata=means("Where the card came from."))
    slot: int | None = field(default=None, metadata=means("The market slot taken from; only from the market."))
    card: str | None = field(default=None, metadata=means("The card kind taken; only from the market."))


@dataclass(frozen=True, kw_only=True)
class MarketRefilled(Event):
    """A card from the top of the deck was turned up into an empty market slot during play."""

    slot: int = field(metadata=means("The market slot, from 0."))
    card: str = field(metadata=means("The card kind turned up."))


@dataclass(frozen=True, kw_only=True)
class MarketWiped(Event):
    """Three or more locomotives lay face up, so the whole market was discarded (ruling 1)."""

    discarded: tuple[str, ...] = field(metadata=means("The market's cards, in slot order."))
    wipe: int = field(metadata=means("How many wipes in a row this is, from 1."))


@dataclass(frozen=True, kw_only=True)
class DiscardsShuffled(Event):
    """The deck ran out and the discard pile was shuffled into a new deck (its order a referees' secret)."""

    count: int = field(metadata=means("How many cards were shuffled."))


# --- the checks ---------------------------------------------------------------------------


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


def legal_moves(state: State) -> list[dict[str, Any]]:
    """Each face-up card that may be taken now, then the deck."""
    second = state.cards_drawn > 0
    moves: list[dict[str, Any]] = [
        {"type": "draw_card", "source": MARKET, "slot": slot}
        for slot in range(len(state.market))
        if state.market[slot] is not None and not (second and state.market[slot] == LOCOMOTIVE)
    ]
    if state.deck:
        moves.append({"type": "draw_card", "source": DECK})
    return moves


# --- the draw -----------------------------------------------------------------------------


def draw(steps: Steps, seat: int, command: DrawFromMarket | DrawFromDeck, rng: Randomness) -> bool:
    """One card of the seat's draw; whether the draw is now whole. Two cards are; so is a
    face-up locomotive taken first, and fewer than two cards when no card that may be taken
    is left."""
    state = steps.state
    first = state.cards_drawn == 0
    if isinstance(command, DrawFromMarket):
        check_market_draw(state, command.slot)
        card = state.market[command.slot]
        steps.emit(CardDrawn(seat=seat, source=MARKET, slot=command.slot, card=card))
        restock(steps, rng)
        whole = not first or card == LOCOMOTIVE
    else:
        check_deck_draw(state)
        card = draws.blind(state.deck, seat, rng)
        steps.emit(CardDrawn(seat=seat, source=DECK, secrets=(Secret((seat,), {"card": card}),)))
        reshuffle_if_deck_ran_out(steps, rng)
        whole = not first
    return whole or not can_draw_second_card(steps.state)


# --- the market ---------------------------------------------------------------------------

TurnedUp = type[MarketCardTurnedUp] | type[MarketRefilled]
"""How a card comes face up: at the setup, or as a refill during play."""


def locomotives_face_up(state: State) -> int:
    return state.market.count(LOCOMOTIVE)


def reshuffle_if_deck_ran_out(steps: Steps, rng: Randomness) -> None:
    """The rulebook reshuffles when the deck runs out, not when a card is next needed; doing
    it at once also keeps a seat's draw starting with the seat's own event."""
    state = steps.state
    if not state.deck and state.discard:
        order = rng.shuffle(state.discard)
        steps.emit(DiscardsShuffled(count=len(order), secrets=(Secret((), shuffled(order)),), automatic=True))


def _fill_empty_slots(steps: Steps, rng: Randomness, kind: TurnedUp) -> bool:
    filled = False
    for slot in range(len(steps.state.market)):
        state = steps.state
        if state.market[slot] is None and state.deck:
            steps.emit(kind(slot=slot, card=draws.face_up(state.deck, rng), automatic=True))
            reshuffle_if_deck_ran_out(steps, rng)
            filled = True
    return filled


def _wipe_can_refill(state: State) -> bool:
    # Ruling 1: a wipe is only worth making when deck and discard hold a whole new market;
    # otherwise the wiped cards would come straight back.
    return len(state.deck) + len(state.discard) >= len(state.market)


def restock(steps: Steps, rng: Randomness, kind: TurnedUp = MarketRefilled) -> None:
    """Fill every empty slot the deck can fill, then wipe while 3+ locomotives lie face up,
    at most `MAX_MARKET_WIPES` times in a row. Only a refill can trigger a wipe: a market
    left with 3+ locomotives by the cap stays until the next refill."""
    if not _fill_empty_slots(steps, rng, kind):
        return
    wipes = 0
    while (
        wipes < MAX_MARKET_WIPES
        and locomotives_face_up(steps.state) >= steps.board.wipe_locomotives
        and _wipe_can_refill(steps.state)
    ):
        wipes += 1
        discarded = [card for card in steps.state.market if card is not None]
        steps.emit(MarketWiped(discarded=tuple(discarded), wipe=wipes, automatic=True))
        reshuffle_if_deck_ran_out(steps, rng)
        _fill_empty_slots(steps, rng, kind)


# --- the events applied -------------------------------------------------------------------


def _turned_up(board: Board, state: State, event: MarketCardTurnedUp | MarketRefilled) -> State:
    market = list(state.market)
    market[event.slot] = event.card
    return replace(state, market=tuple(market), deck=without(state.deck, (event.card,)))


def _drawn(board: Board, state: State, event: CardDrawn) -> State:
    market, deck = state.market, state.deck
    if event.source == MARKET:
        slot = cast(int, event.slot)
        card = cast(str, market[slot])
        emptied = list(market)
        emptied[slot] = None
        market = tuple(emptied)
    else:
        card = event.secret()["card"]
        deck = without(deck, (card,))
    hand = state.seats[event.seat].hand
    state = replace_seat(state, event.seat, hand=changed(hand, {card: hand[card] + 1}))
    return replace(state, market=market, deck=deck, cards_drawn=state.cards_drawn + 1, passes_in_a_row=0)


def _wiped(board: Board, state: State, event: MarketWiped) -> State:
    wiped = tuple(card for card in state.market if card is not None)
    return replace(state, market=(None,) * len(state.market), discard=state.discard + wiped)


def _discards_shuffled(board: Board, state: State, event: DiscardsShuffled) -> State:
    return replace(state, deck=state.deck + shuffle_order(event), discard=())


APPLY: Handlers = {MarketCardTurnedUp: _turned_up, CardDrawn: _drawn, MarketRefilled: _turned_up, MarketWiped: _wiped,
                   DiscardsShuffled: _discards_shuffled}
KINDS = tuple(APPLY)
