"""Drawing train cards: two per turn, face-up locomotives, refills, wipes (ruling 1), empty
slots (ruling 2), reshuffles and short draws."""

from __future__ import annotations

from domain.core.errors import IllegalMove
from domain.core.randomness import RANDOM_KEY, SeededRandom
from domain.ticket_to_ride import DECIDER
from domain.ticket_to_ride.state import State

from .conftest import SEED, kinds, of_kind, play, refused, table

LOCO = "locomotive"
DECK = {"type": "draw_card", "source": "deck"}


def market(slot: int) -> dict[str, object]:
    return {"type": "draw_card", "source": "market", "slot": slot}


def test_two_cards_from_the_deck_then_the_turn_passes() -> None:
    state = table(deck=["red", "blue", "green"])
    state, events = play(state, 0, DECK)
    assert kinds(events) == ["CardDrawn"]
    assert events[0].data == {"seat": 0, "source": "deck"}  # the card itself is secret
    assert events[0].secrets[0].to == (0,) and events[0].secret() == {"card": "red"}
    assert state.current == 0 and state.cards_drawn == 1
    state, events = play(state, 0, DECK)
    assert kinds(events) == ["CardDrawn", "TurnStarted"]
    assert state.current == 1 and state.cards_drawn == 0
    assert state.seats[0].hand["red"] == 1 and state.seats[0].hand["blue"] == 1


def test_a_face_up_card_is_replaced_at_once() -> None:
    state = table(market=["red", "blue", "green", "yellow", "black"], deck=["white", "pink"])
    state, events = play(state, 0, market(1))
    assert kinds(events) == ["CardDrawn", "MarketRefilled"]
    assert events[0].data == {"seat": 0, "source": "market", "slot": 1, "card": "blue"}
    assert events[1].data == {"slot": 1, "card": "white"}
    assert state.market[1] == "white" and state.seats[0].hand["blue"] == 1
    state, events = play(state, 0, market(1))
    assert kinds(events) == ["CardDrawn", "MarketRefilled", "TurnStarted"]


def test_a_face_up_locomotive_as_first_card_is_the_whole_draw() -> None:
    state = table(market=[LOCO, "blue", "green", "yellow", "black"])
    state, events = play(state, 0, market(0))
    assert kinds(events) == ["CardDrawn", "MarketRefilled", "TurnStarted"]
    assert state.seats[0].hand[LOCO] == 1 and state.current == 1


def test_a_face_up_locomotive_may_not_be_the_second_card() -> None:
    state = table(market=[LOCO, "blue", "green", "yellow", "black"], cards_drawn=1)
    error = refused(state, 0, market(0), IllegalMove)
    assert error.code == "locomotive_second_card"
    assert "first card" in error.message
    assert market(0) not in DECIDER.legal_moves(state, 0)


def test_a_locomotive_turned_up_by_the_refill_may_not_be_the_second_card() -> None:
    # Ruling 5.
    state = table(market=["red", "blue", "green", "yellow", "black"], deck=[LOCO, "white"])
    state, _ = play(state, 0, market(0))
    assert state.market[0] == LOCO
    assert refused(state, 0, market(0), IllegalMove).code == "locomotive_second_card"
    assert market(0) not in DECIDER.legal_moves(state, 0)


def test_a_locomotive_from_the_deck_counts_as_one_card() -> None:
    state = table(deck=[LOCO, "red"])
    state, events = play(state, 0, DECK)
    assert kinds(events) == ["CardDrawn"] and state.current == 0 and state.cards_drawn == 1


def test_a_draw_must_be_finished_before_anything_else() -> None:
    state = table(deck=["red", "blue"], hands=[{"red": 2}, {}], cards_drawn=1)
    claim = {"type": "claim_route", "route": "Atlanta|Charleston", "cards": {"red": 2}}
    assert refused(state, 0, claim, IllegalMove).code == "must_finish_draw"
    assert refused(state, 0, {"type": "draw_tickets"}, IllegalMove).code == "must_finish_draw"
    assert {m["type"] for m in DECIDER.legal_moves(state, 0)} == {"draw_card"}


def test_three_locomotives_after_a_refill_wipe_the_market() -> None:
    state = table(
        market=[LOCO, LOCO, "red", "blue", "green"],
        deck=[LOCO, "white", "pink", "white", "pink", "orange", "black"],
    )
    state, events = play(state, 0, market(2))
    assert kinds(events) == ["CardDrawn", "MarketRefilled", "MarketWiped", *["MarketRefilled"] * 5]
    wiped = events[2]
    assert wiped.automatic and wiped.data == {"discarded": [LOCO, LOCO, LOCO, "blue", "green"], "wipe": 1}
    assert state.market == ("white", "pink", "white", "pink", "orange")
    assert state.discard == (LOCO, LOCO, LOCO, "blue", "green")


def test_wipes_repeat_at_most_three_times_in_a_row() -> None:
    # Ruling 1: every new market also shows three locomotives; after the third wipe it stays.
    three_locos = [LOCO, LOCO, LOCO, "red", "red"]
    state = table(
        market=[LOCO, LOCO, "blue", "green", "yellow"],
        deck=[LOCO, *three_locos, *three_locos, *three_locos, "white", "white", "white", "white", "white"],
    )
    state, events = play(state, 0, market(2))
    assert [e.data["wipe"] for e in of_kind(events, "MarketWiped")] == [1, 2, 3]
    assert state.market == tuple(three_locos)
    assert state.deck[:5] == ("white",) * 5


def test_no_wipe_when_deck_and_discard_cannot_refill_the_market() -> None:
    state = table(market=[LOCO, LOCO, "red", "blue", "green"], deck=[LOCO, "white"], discard=["pink", "pink"])
    state, events = play(state, 0, market(2))
    assert "MarketWiped" not in kinds(events)
    assert state.market.count(LOCO) == 3


def test_a_market_slot_stays_empty_when_no_card_is_left_and_refills_when_cards_return() -> None:
    # Ruling 2. Seat 0 holds the cards to claim a route later; nothing else is left anywhere.
    state = table(market=["red", None, None, None, None], deck=[], hands=[{"blue": 2}, {}])
    assert refused(state, 0, market(1), IllegalMove).code == "market_slot_empty"
    state, events = play(state, 0, market(0))
    # No card is left that could be the second one: the draw ends with one card.
    assert kinds(events) == ["CardDrawn", "TurnStarted"]
    assert state.market == (None,) * 5 and state.current == 1
    state = table(market=[None] * 5, deck=[], hands=[{"blue": 2, "red": 1}, {}])
    state, events = play(state, 0, {"type": "claim_route", "route": "Atlanta|Charleston", "cards": {"blue": 2}})
    assert kinds(events) == ["RouteClaimed", "DiscardsShuffled", "MarketRefilled", "MarketRefilled", "TurnStarted"]
    assert state.market == ("blue", "blue", None, None, None)


def test_the_discard_pile_is_shuffled_into_a_new_deck_when_the_deck_runs_out() -> None:
    discard = ["red", "red", "blue", LOCO, "green"]
    state = table(deck=["white"], discard=discard)
    state, events = play(state, 0, DECK, SeededRandom(SEED))
    assert kinds(events) == ["CardDrawn", "DiscardsShuffled"]
    reshuffle = events[1]
    assert reshuffle.automatic and reshuffle.secrets[0].to == ()
    order = reshuffle.secret()[RANDOM_KEY]["shuffle"]
    assert sorted(order) == sorted(discard) and reshuffle.data == {"count": 5}
    assert state.deck == tuple(order) and state.discard == ()
    state, events = play(state, 0, DECK)
    assert events[0].secret() == {"card": order[0]}


def test_the_deck_cannot_be_drawn_when_deck_and_discard_are_empty() -> None:
    state = table(deck=[], hands=[{}, {}])
    assert refused(state, 0, DECK, IllegalMove).code == "deck_empty"
    assert DECK not in DECIDER.legal_moves(state, 0)


def test_a_second_card_is_skipped_only_when_no_card_may_be_taken() -> None:
    # Only face-up locomotives remain after the first card: they cannot be a second card.
    state: State = table(market=["red", LOCO, LOCO, None, None], deck=[], hands=[{}, {}])
    state, events = play(state, 0, market(0))
    assert kinds(events) == ["CardDrawn", "TurnStarted"]
    # With a card left the seat must take it.
    state = table(market=["red", "blue", LOCO, None, None], deck=[], hands=[{}, {}])
    state, events = play(state, 0, market(0))
    assert kinds(events) == ["CardDrawn"] and state.current == 0
    assert DECIDER.legal_moves(state, 0) == [market(1)]
