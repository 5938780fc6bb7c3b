"""Redaction: what each audience sees of the state."""

from __future__ import annotations

import json
from dataclasses import replace

from domain.core.events import PUBLIC, REFEREE, Audience
from domain.core.leaks import leaks
from domain.ticket_to_ride import DECIDER
from domain.ticket_to_ride.state import OVER

from .conftest import opened, play

PRIVATE_KEYS = {"hand", "kept_tickets", "offered_tickets", "returning_tickets", "deck_order", "discard_pile",
                "ticket_deck_order"}


def keys_in(value: object) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_in(v)}
    return set()


def test_the_public_view_shows_the_table_and_no_secret() -> None:
    state, _ = opened(3)
    view = DECIDER.view(state, PUBLIC)
    json.dumps(view)  # plain JSON
    assert not keys_in(view) & PRIVATE_KEYS
    assert view["phase"] == "play" and view["active_seats"] == [state.current] and view["turn"] == state.current
    assert view["market"] == list(state.market)
    assert view["deck"] == len(state.deck) and view["discard"] == 0 and view["ticket_deck"] == 21
    seat = view["seats"][0]
    assert seat == {"seat": 0, "name": "player 1", "trains": 45, "cards": 4, "tickets": 3, "tickets_offered": 0,
                    "score": 0}
    assert view["routes"] == {} and view["final_round"] is None
    text = json.dumps(view)
    for ticket in state.seats[0].tickets:
        assert ticket not in text


def test_a_seat_sees_its_own_hand_and_tickets_only() -> None:
    state, _ = opened(3)
    for seat in range(3):
        view = DECIDER.view(state, Audience(seat=seat))
        mine = view["seats"][seat]
        assert mine["hand"] == {k: v for k, v in state.seats[seat].hand.items() if v}
        assert mine["kept_tickets"] == list(state.seats[seat].tickets)
        for other in set(range(3)) - {seat}:
            assert not set(view["seats"][other]) & PRIVATE_KEYS
        assert "deck_order" not in view
    public = DECIDER.view(state, PUBLIC)
    assert leaks(public, {seat: DECIDER.view(state, Audience(seat=seat)) for seat in range(3)}) == []


def test_pending_tickets_are_seen_by_their_seat_only() -> None:
    state, rng = opened(2)
    seat = state.current
    assert seat is not None
    state, _ = play(state, seat, {"type": "draw_tickets"}, rng)
    assert DECIDER.view(state, Audience(seat=seat))["seats"][seat]["offered_tickets"] == list(state.seats[seat].offered)
    assert DECIDER.view(state, PUBLIC)["seats"][seat]["tickets_offered"] == 3
    assert "offered_tickets" not in DECIDER.view(state, Audience(seat=1 - seat))["seats"][seat]


def test_a_referee_sees_everything() -> None:
    state, _ = opened(2)
    view = DECIDER.view(state, REFEREE)
    assert view["deck_order"] == list(state.deck)
    assert view["ticket_deck_order"] == list(state.ticket_deck)
    assert all("hand" in seat and "kept_tickets" in seat for seat in view["seats"])


def test_a_finished_games_view_still_follows_its_audience() -> None:
    # Whether the public sees a finished game whole is the service's to decide (not while a
    # game it was forked from still runs): the view shows what its audience may see.
    state, _ = opened(2)
    over = replace(state, phase=OVER)
    public = DECIDER.view(over, PUBLIC)
    assert "deck_order" not in public and not any("hand" in seat for seat in public["seats"])
    assert "winners" in public and "longest_paths" in public
    whole = DECIDER.view(over, REFEREE)
    assert "deck_order" in whole and all("hand" in seat for seat in whole["seats"])
