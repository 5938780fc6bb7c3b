"""Ticket to Ride at a table: the opening as laid out (checked against the rules of setup),
and every card and ticket turned up in play entered as an outcome, checked against what the
deck holds, taken out of the deck by value."""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from domain.core.decider import Setup
from domain.core.errors import IllegalMove, MalformedMove, RuleError
from domain.core.randomness import SeededRandom
from domain.core.table import ImpossibleOutcome, OutcomeNeeded, TableRandom
from domain.ticket_to_ride import DECIDER
from domain.ticket_to_ride.opening import FirstPlayerChosen
from domain.ticket_to_ride.state import OPENING, State
from domain.ticket_to_ride.train_cards import CardDrawn, DiscardsShuffled, MarketWiped
from tests.unit.ticket_to_ride.conftest import fold, hand, table

SEATS = ("Ann", "Bob", "Cat")
OBSERVED: dict[str, Any] = {
    "hands": {"Ann": ["red", "red", "blue", "locomotive"], "Bob": ["green", "green", "white", "black"],
              "Cat": ["pink", "orange", "yellow", "yellow"]},
    "market": ["green", "white", "locomotive", "black", "red"],
    "tickets": {"Ann": ["Denver-El Paso", "Boston-Miami", "Seattle-New York"],
                "Bob": ["Kansas City–Houston", "ATL-NYO", "Calgary|Phoenix"],
                "Cat": ["Winnipeg-Houston", "Portland-Nashville", "Vancouver-Santa Fe"]},
    "first": "Bob",
}


def _initial(seats: tuple[str, ...] = SEATS) -> State:
    return DECIDER.initial_state(Setup(seats, DECIDER.options({}, len(seats))))


def _opened(observed: dict[str, Any] = OBSERVED) -> State:
    state = _initial()
    return fold(state, DECIDER.table_setup(state, observed))


def _with(**changes: Any) -> dict[str, Any]:
    observed = copy.deepcopy(OBSERVED)
    observed.update(changes)
    return observed


# --- the opening as observed ---------------------------------------------------------------


def test_the_observed_opening_deals_those_cards_and_tickets_and_the_first_player() -> None:
    state = _opened()
    assert state.phase == OPENING and DECIDER.invariants(state) == []
    assert state.seats[0].hand == hand(red=2, blue=1, locomotive=1)
    assert state.seats[1].hand == hand(green=2, white=1, black=1)
    assert state.market == ("green", "white", "locomotive", "black", "red")
    assert state.seats[1].offered == ("Houston|Kansas City", "Atlanta|New York", "Calgary|Phoenix")
    assert state.first_player == 1
    # 110 cards: 12 dealt and 5 face up leave 93 in the deck, the dealt ones taken out.
    assert len(state.deck) == 93 and Counter(state.deck)["green"] == 12 - 3
    assert len(state.ticket_deck) == 30 - 9 and "Denver|El Paso" not in state.ticket_deck


def test_the_observed_opening_records_the_same_kinds_as_a_seeded_one() -> None:
    state = _initial()
    seeded = DECIDER.setup(state, SeededRandom(bytes(32)))
    observed = DECIDER.table_setup(state, OBSERVED)
    assert [e.kind for e in observed] == [e.kind for e in seeded]
    first = next(e for e in observed if isinstance(e, FirstPlayerChosen))
    assert first.seat == 1


def test_a_market_wiped_at_the_setup_goes_to_the_discard() -> None:
    wiped = ["locomotive", "locomotive", "locomotive", "red", "blue"]
    events = DECIDER.table_setup(_initial(), _with(wiped=[wiped]))
    assert [e.discarded for e in events if isinstance(e, MarketWiped)] == [tuple(wiped)]
    state = fold(_initial(), events)
    assert state.discard == tuple(wiped) and DECIDER.invariants(state) == []


@pytest.mark.parametrize(("changes", "words"), [
    ({"market": ["locomotive", "locomotive", "locomotive", "red", "blue"]},
     "the market shows 3 locomotives: a market with 3 or more is wiped and dealt again"),
    ({"wiped": [["locomotive", "locomotive", "red", "red", "blue"]]},
     "wiped market 1 shows 2 locomotive(s); only a market with 3 or more is wiped"),
    ({"market": ["green", "white", "red"]}, "the market shows 3 cards; the market has 5 slots"),
    ({"market": ["green", "white", "purple", "black", "red"]}, "no train card is called 'purple'"),
    ({"hands": {"Ann": ["red"] * 4, "Bob": ["red"] * 4}}, "nothing for Cat"),
    ({"hands": {"Ann": ["red"] * 4, "Bob": ["red"] * 4, "Cat": ["red"] * 4, "Dan": []}}, "no seat is called 'Dan'"),
    ({"hands": {"Ann": ["red"] * 5, "Bob": ["red"] * 4, "Cat": ["red"] * 4}},
     "Ann was dealt 5 train cards; every seat is dealt 4"),
    ({"tickets": {"Ann": ["Denver-El Paso"], "Bob": [], "Cat": []}}, "Ann was dealt 1 tickets; every seat is dealt 3"),
    ({"tickets": {**OBSERVED["tickets"], "Cat": ["Denver-Miami", "Boston-Miami", "Seattle-New York"]}},
     "no destination ticket joins Denver and Miami"),
    ({"first": "Dan"}, "first is the name of the seat that plays first (Ann, Bob, Cat), not 'Dan'"),
    ({"deck": []}, "unknown: deck"),
])
def test_an_observed_opening_the_rules_of_setup_refuse_is_refused_saying_why(changes: dict[str, Any], words: str) -> None:
    with pytest.raises(MalformedMove) as refused:
        DECIDER.table_setup(_initial(), _with(**changes))
    assert refused.value.code == "bad_setup"
    assert words in refused.value.message


@pytest.mark.parametrize(("changes", "words"), [
    # 14 locomotives in the box: 12 in hands, 3 in a wiped market and 2 face up are too many.
    ({"hands": {"Ann": ["locomotive"] * 4, "Bob": ["locomotive"] * 4, "Cat": ["locomotive"] * 4},
      "market": ["locomotive", "locomotive", "red", "red", "blue"], "wiped": [["locomotive"] * 3 + ["red", "red"]]},
     "17 locomotive cards are dealt and face up, but the 110 train cards hold only 14"),
    ({"tickets": {**OBSERVED["tickets"], "Cat": ["Boston-Miami", "Portland-Nashville", "Vancouver-Santa Fe"]}},
     "the 30 destination tickets hold one Boston-Miami, dealt here to Ann and Cat"),
])
def test_an_observed_opening_the_box_could_not_hold_is_an_impossible_outcome(changes: dict[str, Any], words: str) -> None:
    with pytest.raises(ImpossibleOutcome) as refused:
        DECIDER.table_setup(_initial(), _with(**changes))
    assert words in refused.value.message


# --- cards and tickets entered during play --------------------------------------------------


def _needed(state: State, seat: int, move: dict[str, Any]) -> Any:
    with pytest.raises(OutcomeNeeded) as needed:
        DECIDER.decide(state, seat, move, TableRandom())
    return needed.value.request


def _play(state: State, seat: int, move: dict[str, Any], entered: list[Any]) -> tuple[State, list[Any]]:
    events = DECIDER.decide(state, seat, move, TableRandom(entered))
    return fold(state, events), events


def test_a_blind_draw_waits_for_the_card_as_the_seats_own_secret_and_takes_that_card() -> None:
    state = table(3)
    request = _needed(state, 0, {"type": "draw_card", "source": "deck"})
    assert (request.kind, request.what, request.by, request.count) == ("draw", "a card from the deck", 0, 1)
    after, events = _play(state, 0, {"type": "draw_card", "source": "deck"}, [["orange"]])
    drawn = next(e for e in events if isinstance(e, CardDrawn))
    assert drawn.secret() == {"card": "orange"}
    assert after.seats[0].hand["orange"] == 1
    assert Counter(after.deck) == Counter(state.deck) - Counter(["orange"])
    assert DECIDER.invariants(after) == []


def test_a_market_refill_is_public_and_entered_by_the_referee() -> None:
    state = table(3)
    request = _needed(state, 0, {"type": "draw_card", "source": "market", "slot": 1})
    assert (request.what, request.by) == ("a card turned up in the market", None)
    after, _ = _play(state, 0, {"type": "draw_card", "source": "market", "slot": 1}, [["pink"]])
    assert after.market[1] == "pink" and after.seats[0].hand["blue"] == 1


def test_drawn_tickets_are_the_seats_secret_and_a_ticket_in_a_hand_cannot_be_drawn() -> None:
    state = table(3, tickets=[["Denver|El Paso"], [], []])
    request = _needed(state, 0, {"type": "draw_tickets"})
    assert (request.what, request.count, request.by) == ("destination tickets drawn", 3, 0)
    assert "Denver-El Paso" not in request.labels and "Boston-Miami" in request.labels
    with pytest.raises(ImpossibleOutcome, match="destination tickets drawn: Denver-El Paso cannot be drawn; there are 1 "):
        DECIDER.decide(state, 0, {"type": "draw_tickets"}, TableRandom([["Denver|El Paso", "Boston|Miami", "Dallas|New York"]]))
    after, _ = _play(state, 0, {"type": "draw_tickets"}, [["Boston|Miami", "Dallas|New York", "New York|Seattle"]])
    assert after.seats[0].offered == ("Boston|Miami", "Dallas|New York", "New York|Seattle")
    assert DECIDER.invariants(after) == []


def test_a_card_not_in_the_deck_is_refused_and_the_state_is_untouched() -> None:
    state = table(3, hands=[{"locomotive": 12}, {}, {}], market=("locomotive", "locomotive", "red", "blue", "green"))
    before = copy.deepcopy(state)
    with pytest.raises(ImpossibleOutcome, match="a card from the deck: locomotive cannot be drawn; there are 12 black"):
        DECIDER.decide(state, 0, {"type": "draw_card", "source": "deck"}, TableRandom([["locomotive"]]))
    assert state == before


def test_when_the_deck_runs_out_the_discards_become_the_deck_and_any_of_them_may_be_drawn() -> None:
    # The last card of the deck is drawn; the discard pile (a table cannot know its order) is next.
    left = Counter({"black": 12, "blue": 12, "green": 12, "orange": 12, "pink": 12, "red": 12, "white": 12,
                    "yellow": 12, "locomotive": 14})
    discard = ["pink"] * 3 + ["white"] * 2
    market = ("red", "blue", "green", "yellow", "black")
    left.subtract([*discard, *market, "orange"])
    hands = [dict(left), {}, {}]
    state = table(3, hands=hands, market=market, deck=["orange"], discard=discard)
    assert DECIDER.invariants(state) == []
    after, events = _play(state, 0, {"type": "draw_card", "source": "deck"}, [["orange"]])
    assert any(isinstance(e, DiscardsShuffled) for e in events)
    assert Counter(after.deck) == Counter(discard) and after.discard == ()
    with pytest.raises(ImpossibleOutcome, match="orange cannot be drawn; there are 3 pink, 2 white"):
        DECIDER.decide(after, 0, {"type": "draw_card", "source": "deck"}, TableRandom([["orange"]]))
    final, _ = _play(after, 0, {"type": "draw_card", "source": "deck"}, [["white"]])
    assert Counter(final.deck) == Counter(pink=3, white=1) and DECIDER.invariants(final) == []


def test_the_seeded_game_still_draws_the_top_of_each_deck() -> None:
    state = table(3, deck=["white", "red", "white", "blue"])
    events = DECIDER.decide(state, 0, {"type": "draw_card", "source": "deck"}, SeededRandom(bytes(32)))
    assert events[0].secret() == {"card": "white"}
    assert fold(state, events).deck == ("red", "white", "blue")


def test_a_wrong_shape_of_outcome_is_refused() -> None:
    state = table(3)
    for wrong in (["red", "blue"], "red", [7]):
        with pytest.raises(RuleError):
            DECIDER.decide(state, 0, {"type": "draw_card", "source": "deck"}, TableRandom([wrong]))
    with pytest.raises(IllegalMove):
        DECIDER.decide(state, 0, {"type": "draw_card", "source": "deck"}, TableRandom([["purple"]]))


def test_a_refill_that_shows_three_locomotives_wipes_the_market_and_asks_for_five_more() -> None:
    state = table(3, market=("locomotive", "locomotive", "red", "blue", "green"))
    move = {"type": "draw_card", "source": "market", "slot": 2}
    with pytest.raises(OutcomeNeeded) as needed:
        DECIDER.decide(state, 0, move, TableRandom([["locomotive"]]))
    assert needed.value.used == 1 and needed.value.request.what == "a card turned up in the market"
    after, events = _play(state, 0, move, [["locomotive"], ["white"], ["white"], ["pink"], ["orange"], ["black"]])
    wiped = [e for e in events if isinstance(e, MarketWiped)]
    assert [w.discarded for w in wiped] == [("locomotive", "locomotive", "locomotive", "blue", "green")]
    assert after.market == ("white", "white", "pink", "orange", "black")
    assert DECIDER.invariants(after) == []


def test_returned_tickets_lie_under_the_deck_and_are_drawn_only_when_the_rest_is_gone() -> None:
    # Ann returns Boston–Miami: it goes under the ticket deck, where no draw reaches it while
    # tickets that were never drawn lie above it.
    offered = ("Denver|El Paso", "Boston|Miami", "Dallas|New York")
    state = table(3, offered=[offered, (), ()])
    state, _ = _play(state, 0, {"type": "keep_tickets", "keep": ["Denver|El Paso", "Dallas|New York"]}, [])
    assert state.ticket_deck[-1] == "Boston|Miami" and state.tickets_returned == 1
    state = replace(state, current=0)  # Ann's turn again
    request = _needed(state, 0, {"type": "draw_tickets"})
    assert "Boston-Miami" not in request.labels
    with pytest.raises(ImpossibleOutcome, match="Boston-Miami cannot be drawn"):
        DECIDER.decide(state, 0, {"type": "draw_tickets"}, TableRandom([["Boston|Miami", "Denver|Pittsburgh", "Helena|Los Angeles"]]))
    # With two tickets left above it, a draw of three takes those two and then it.
    above = list(state.ticket_deck[:2])
    short = replace(state, ticket_deck=(*above, "Boston|Miami"), tickets_returned=1)
    assert set(_needed(short, 0, {"type": "draw_tickets"}).options) == {*above, "Boston|Miami"}
    after, _ = _play(short, 0, {"type": "draw_tickets"}, [[*above, "Boston|Miami"]])
    assert after.ticket_deck == () and after.tickets_returned == 0


def test_a_seeded_draw_takes_the_top_tickets_whatever_was_returned() -> None:
    state = table(3, ticket_deck=["Denver|El Paso", "Boston|Miami", "Dallas|New York", "Helena|Los Angeles"],
                  tickets_returned=2)
    events = DECIDER.decide(state, 0, {"type": "draw_tickets"}, SeededRandom(bytes(32)))
    assert events[0].secret() == {"tickets": ["Denver|El Paso", "Boston|Miami", "Dallas|New York"]}
    after = fold(state, events)
    assert after.ticket_deck == ("Helena|Los Angeles",) and after.tickets_returned == 1
