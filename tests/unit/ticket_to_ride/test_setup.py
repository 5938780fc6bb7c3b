"""The setup events and the sealed opening ticket choice."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from domain.core.codec import decode, encode
from domain.core.errors import IllegalMove, NotYourTurn
from domain.core.events import PUBLIC, Audience
from domain.core.randomness import RANDOM_KEY
from domain.core.sealed import open_phase
from domain.core.upcasting import upcast
from domain.ticket_to_ride import DECIDER
from domain.ticket_to_ride.state import OPENING, PLAY, State
from tests.usa import TICKETS, TRAIN_CARDS

from .conftest import kinds, new_game, of_kind, opened, play, refused, table


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_setup_deals_cards_market_tickets_and_picks_a_first_player(seats: int) -> None:
    state, events, _ = new_game(seats)
    assert all(event.automatic for event in events)
    assert kinds(events)[:1 + seats] == ["TrainCardsShuffled"] + ["CardsDealt"] * seats
    assert kinds(events)[-seats - 2 :] == ["TicketsShuffled"] + ["TicketsDealt"] * seats + ["FirstPlayerChosen"]
    for seat in range(seats):
        assert sum(state.seats[seat].hand.values()) == 4
        assert len(state.seats[seat].offered) == 3
        assert state.seats[seat].trains == 45
    assert None not in state.market
    assert len(state.deck) == 110 - 4 * seats - 5
    assert len(state.ticket_deck) == 30 - 3 * seats
    assert state.phase == OPENING
    assert DECIDER.active_seats(state) == frozenset(range(seats))
    assert DECIDER.invariants(state) == []


def test_setup_stores_every_random_outcome_in_order_and_secretly() -> None:
    _, events, _ = new_game(3)
    shuffles = [e for e in events if e.kind in ("TrainCardsShuffled", "TicketsShuffled")]
    for event in shuffles:
        assert event.secrets[0].to == ()
        assert RANDOM_KEY not in event.data
    assert Counter(shuffles[0].secret()[RANDOM_KEY]["shuffle"]) == Counter(TRAIN_CARDS)
    assert sorted(shuffles[1].secret()[RANDOM_KEY]["shuffle"]) == sorted(TICKETS)
    first = of_kind(events, "FirstPlayerChosen")[0]
    assert first.data[RANDOM_KEY] == {"below": 3, "value": first.data["seat"]}


def test_dealt_cards_and_tickets_are_secret_to_their_seat() -> None:
    state, events, _ = new_game(2)
    for event in of_kind(events, "CardsDealt"):
        seat = event.data["seat"]
        assert event.data == {"seat": seat, "count": 4}
        assert event.secrets[0].to == (seat,)
        assert Counter(event.secret()["cards"]) == +Counter(state.seats[seat].hand)
    for event in of_kind(events, "TicketsDealt"):
        seat = event.data["seat"]
        assert event.data == {"seat": seat, "count": 3}
        assert event.secrets[0].to == (seat,)
        assert tuple(event.secret()["tickets"]) == state.seats[seat].offered


def test_the_same_seed_gives_the_same_setup() -> None:
    assert new_game(4)[1] == new_game(4)[1]
    assert new_game(4)[1] != new_game(4, bytes(31) + b"\x01")[1]


def test_opening_keeps_at_least_two_and_any_seat_may_choose_first() -> None:
    state, _, rng = new_game(3)
    offered = list(state.seats[2].offered)
    error = refused(state, 2, {"type": "keep_tickets", "keep": offered[:1]}, IllegalMove)
    assert error.code == "tickets_keep_too_few"
    state, events = play(state, 2, {"type": "keep_tickets", "keep": offered[:2]}, rng)
    assert kinds(events) == ["TicketsKept"]
    assert DECIDER.active_seats(state) == frozenset({0, 1})
    with pytest.raises(NotYourTurn):
        DECIDER.decide(state, 2, {"type": "keep_tickets", "keep": offered}, rng)


def test_opening_choices_stay_sealed_until_every_seat_has_chosen() -> None:
    state, _, rng = new_game(2)
    offered0, offered1 = list(state.seats[0].offered), list(state.seats[1].offered)
    deck_before = state.ticket_deck
    state, events = play(state, 1, {"type": "keep_tickets", "keep": offered1[1:]}, rng)
    kept = events[0]
    assert kept.data == {"seat": 1}  # not even the count
    assert kept.secrets[0].to == (1,)
    assert kept.secret() == {"kept": offered1[1:], "returned": offered1[:1]}
    assert state.ticket_deck == deck_before  # the returned ticket is held back
    assert DECIDER.view(state, PUBLIC)["seats"][1]["tickets"] is None

    state, events = play(state, 0, {"type": "keep_tickets", "keep": offered0[:2]}, rng)
    assert kinds(events) == ["TicketsKept", "TicketChoicesRevealed", "TurnStarted"]
    revealed = events[1]
    assert revealed.data == {"kept": {"0": 2, "1": 2}, "returned": {"0": 1, "1": 1}}
    assert revealed.secrets[0].to == ()
    # Returned tickets go to the bottom of the ticket deck, in seat order.
    assert state.ticket_deck == (*deck_before, offered0[2], offered1[0])
    assert events[2].data == {"seat": state.first_player}
    assert state.phase == PLAY and state.current == state.first_player
    assert DECIDER.invariants(state) == []


def test_only_ticket_choices_are_allowed_in_the_opening() -> None:
    state, _, _ = new_game(2)
    assert refused(state, 0, {"type": "draw_card", "source": "deck"}, IllegalMove).code == "must_keep_tickets"
    not_offered = next(t for t in TICKETS if t not in state.seats[0].offered)
    error = refused(state, 0, {"type": "keep_tickets", "keep": [*state.seats[0].offered[:2], not_offered]}, IllegalMove)
    assert error.code == "ticket_not_offered"
    error = refused(state, 0, {"type": "keep_tickets", "keep": [state.seats[0].offered[0]] * 2}, IllegalMove)
    assert error.code == "ticket_listed_twice"


def test_the_opening_is_the_cores_sealed_phase() -> None:
    state, _, rng = new_game(3)
    assert state.sealed == open_phase(OPENING, (0, 1, 2))
    offered = list(state.seats[2].offered)
    state, _ = play(state, 2, {"type": "keep_tickets", "keep": offered[1:]}, rng)
    assert state.sealed is not None
    assert state.sealed.choices == {2: {"kept": offered[1:], "returned": offered[:1]}}
    assert DECIDER.active_seats(state) == state.sealed.waiting == frozenset({0, 1})
    # The choice waits in the sealed phase: the seat's tickets change only at the reveal.
    assert state.seats[2].tickets == () and state.seats[2].offered == ()
    assert DECIDER.view(state, PUBLIC)["active_seats"] == [0, 1]
    own = DECIDER.view(state, Audience(seat=2))["seats"][2]
    assert (own["kept_tickets"], own["returning_tickets"]) == (offered[1:], offered[:1])
    assert "returning_tickets" not in DECIDER.view(state, Audience(seat=0))["seats"][2]
    assert DECIDER.invariants(state) == []
    for seat in (0, 1):
        state, _ = play(state, seat, {"type": "keep_tickets", "keep": list(state.seats[seat].offered)}, rng)
    assert state.sealed is None and state.phase == PLAY
    assert state.seats[2].tickets == tuple(offered[1:])
    assert DECIDER.invariants(state) == []


def test_a_seat_dealt_no_tickets_is_not_waited_for() -> None:
    # Ruling 3 lets a short ticket deck deal a seat nothing; only the seats dealt tickets choose.
    offered = list(TICKETS)[:3]
    state = table(3, phase=OPENING, offered=[(), offered, ()])
    assert DECIDER.active_seats(state) == frozenset({1})
    state, events = play(state, 1, {"type": "keep_tickets", "keep": offered[:2]})
    assert kinds(events) == ["TicketsKept", "TicketChoicesRevealed", "TurnStarted"]
    assert events[1].data == {"kept": {"0": 0, "1": 2, "2": 0}, "returned": {"0": 0, "1": 1, "2": 0}}
    assert events[1].secret() == {"returned": {"0": [], "1": offered[2:], "2": []}}
    assert state.seats[1].tickets == tuple(offered[:2]) and state.ticket_deck[-1] == offered[2]


def test_a_state_stored_before_the_opening_used_the_sealed_phase_still_decodes() -> None:
    # Snapshots and the states rewinds restore were stored with each seat's `returning`
    # (always empty outside the opening, where a rewind never lands).
    state, _ = opened(2)
    stored = encode(state)
    del stored["sealed"]
    for seat in stored["seats"]:
        seat["returning"] = []
    assert decode(State, stored) == state


def test_an_opening_stored_before_it_was_sealed_goes_on_as_if_stored_today() -> None:
    # Before the sealed phase, a seat that had chosen held its kept tickets among its tickets
    # and its returned ones in `returning`, and the state had no `sealed`.
    state, _, rng = new_game(3)
    offered = list(state.seats[2].offered)
    state, _ = play(state, 2, {"type": "keep_tickets", "keep": offered[1:]}, rng)
    stored = encode(state)
    del stored["sealed"]
    for index, seat in enumerate(stored["seats"]):
        seat["returning"] = offered[:1] if index == 2 else []
    stored["seats"][2]["tickets"] = offered[1:]
    old = decode(State, stored)
    assert old == state and DECIDER.active_seats(old) == frozenset({0, 1})
    for seat in (0, 1):
        keep = {"type": "keep_tickets", "keep": list(state.seats[seat].offered)}
        state, events = play(state, seat, keep, rng)
        old, old_events = play(old, seat, keep, rng)
        assert [e.data for e in old_events] == [e.data for e in events]
    assert old == state and old.seats[2].tickets == tuple(offered[1:])


def test_an_old_layout_is_upcast_on_a_copy_and_today_s_is_read_as_it_stands() -> None:
    # The library's upcasting (`State.upcast_v1_v2`), not a fix-up of the frozen state: the
    # stored data stays as it was stored, and a state stored today is not copied at all.
    state, _, rng = new_game(3)
    stored = encode(state)
    assert State.layout_version(stored) == 2 and upcast(State, stored) is stored
    offered = list(state.seats[2].offered)
    state, _ = play(state, 2, {"type": "keep_tickets", "keep": offered[1:]}, rng)
    old = encode(state)
    del old["sealed"]
    for index, seat in enumerate(old["seats"]):
        seat["returning"] = offered[:1] if index == 2 else []
    old["seats"][2]["tickets"] = offered[1:]
    kept = copy.deepcopy(old)
    assert State.layout_version(old) == 1 and decode(State, old) == state and old == kept
