"""The face-up market and the deck behind it, shared by the setup and by play: refills,
wipes (ruling 1), empty slots (ruling 2) and the reshuffle of the discard pile."""

from __future__ import annotations

from domain.core.events import Secret
from domain.core.randomness import Randomness, shuffled
from domain.ticket_to_ride import draws
from domain.ticket_to_ride.board import LOCOMOTIVE
from domain.ticket_to_ride.events import DiscardsShuffled, MarketCardTurnedUp, MarketRefilled, MarketWiped
from domain.ticket_to_ride.options import MAX_MARKET_WIPES
from domain.ticket_to_ride.state import State
from domain.ticket_to_ride.steps import Steps

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
