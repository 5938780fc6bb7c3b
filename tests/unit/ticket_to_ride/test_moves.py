"""Moves as clients send them: malformed ones are refused with a clear sentence, and every
seat's first event gives back the move that caused it. Also the recorded options."""

from __future__ import annotations

from typing import Any

import pytest

from domain.core.errors import MalformedMove
from domain.ticket_to_ride import DECIDER
from domain.ticket_to_ride.moves import parse_move

from .conftest import new_game, opened, play, refused, table


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ("draw", "not_an_object"),
        ({}, "unknown_move_type"),
        ({"type": "build_station"}, "unknown_move_type"),
        ({"type": "draw_card"}, "missing_field"),
        ({"type": "draw_card", "source": "pile"}, "bad_field"),
        ({"type": "draw_card", "source": "market"}, "missing_field"),
        ({"type": "draw_card", "source": "market", "slot": 5}, "bad_field"),
        ({"type": "draw_card", "source": "market", "slot": True}, "bad_field"),
        ({"type": "draw_card", "source": "deck", "slot": 1}, "bad_field"),
        ({"type": "claim_route", "cards": {"red": 1}}, "missing_field"),
        ({"type": "claim_route", "route": "Denver|Nowhere", "cards": {"red": 1}}, "unknown_route"),
        ({"type": "claim_route", "route": "Denver|Omaha", "cards": {"purple": 4}}, "unknown_card"),
        ({"type": "claim_route", "route": "Denver|Omaha", "cards": {"pink": -1}}, "bad_field"),
        ({"type": "claim_route", "route": "Denver|Omaha", "cards": {"pink": "4"}}, "bad_field"),
        ({"type": "claim_route", "route": "Denver|Omaha", "cards": [["pink", 4]]}, "bad_field"),
        ({"type": "keep_tickets", "keep": "Denver|El Paso"}, "bad_field"),
        ({"type": "pass", "now": True}, "unexpected_field"),
    ],
)
def test_malformed_moves_are_refused_with_a_sentence(move: Any, code: str) -> None:
    error = refused(table(), 0, move, MalformedMove)
    assert error.code == code
    assert error.message.endswith(".") and len(error.message.split()) >= 4


def test_a_count_of_zero_cards_is_refused_as_the_schema_says() -> None:
    with pytest.raises(MalformedMove) as caught:
        parse_move(DECIDER.board, {"type": "claim_route", "route": "Denver|Omaha", "cards": {"pink": 4, "red": 0}})
    assert (caught.value.code, caught.value.field) == ("bad_field", "cards.red")
    assert "\"cards.red\"" in caught.value.message and "at least 1" in caught.value.message
    assert DECIDER.move_schemas["claim_route"]["properties"]["cards"]["properties"]["red"]["minimum"] == 1


def test_move_of_gives_back_each_seats_move() -> None:
    state, _, rng = new_game(2)
    keep = list(state.seats[1].offered[:2])
    state, events = play(state, 1, {"type": "keep_tickets", "keep": keep}, rng)
    assert DECIDER.move_of(events[0]) == {"type": "keep_tickets", "keep": keep}
    state, rng = opened(2)
    seat = state.current
    assert seat is not None
    for move in ({"type": "draw_card", "source": "deck"}, {"type": "draw_card", "source": "market"}):
        if move["source"] == "market":
            move["slot"] = next(i for i, card in enumerate(state.market) if card not in (None, "locomotive"))
        state, events = play(state, seat, move, rng)
        assert DECIDER.move_of(events[0]) == move
        assert all(DECIDER.move_of(e) is None for e in events[1:])
    position = table(hands=[{"red": 2}, {}])
    for move in (
        {"type": "claim_route", "route": "Atlanta|Charleston", "cards": {"red": 2}},
        {"type": "draw_tickets"},
    ):
        _, events = play(position, 0, move)
        assert DECIDER.move_of(events[0]) == move
    blocked = table(market=[None] * 5, deck=[], ticket_deck=[], tickets=[["Denver|El Paso"], []])
    _, events = play(blocked, 0, {"type": "pass"})
    assert DECIDER.move_of(events[0]) == {"type": "pass"}


def test_options_record_the_rulings() -> None:
    assert DECIDER.options({"map": "usa"}, 3)["double_routes_both_usable"] is False
    full = DECIDER.options({}, 4)
    assert full["double_routes_both_usable"] is True
    assert full["max_market_wipes"] == 3
    assert full["map"] == "usa"
    assert DECIDER.options(full, 4) == full  # recorded options can be passed back


@pytest.mark.parametrize(
    ("requested", "seats"),
    [({"map": "europe"}, 2), ({"speed": "fast"}, 2), ({"max_market_wipes": 4}, 2),
     ({"double_routes_both_usable": True}, 3), ({}, 6), ({}, 1)],
)
def test_other_options_are_refused(requested: dict[str, Any], seats: int) -> None:
    with pytest.raises(MalformedMove) as caught:
        DECIDER.options(requested, seats)
    assert caught.value.code == "bad_options"


def test_decider_declares_itself() -> None:
    assert (DECIDER.name, DECIDER.ruleset_version, DECIDER.min_seats, DECIDER.max_seats) == (
        "ticket_to_ride", "1", 2, 5
    )
