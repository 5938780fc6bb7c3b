"""Claiming routes: exact payment, gray routes, locomotives, trains, double routes, points."""

from __future__ import annotations

import pytest

from domain.core.errors import IllegalMove
from domain.ticket_to_ride import DECIDER
from tests.usa import ROUTES

from .conftest import kinds, play, refused, table

LOCO = "locomotive"


def claim(route: str, **cards: int) -> dict[str, object]:
    return {"type": "claim_route", "route": route, "cards": cards}


def claims_of(state: object, seat: int, route: str) -> list[dict[str, int]]:
    return [
        m["cards"] for m in DECIDER.legal_moves(state, seat) if m["type"] == "claim_route" and m["route"] == route
    ]


def test_a_claim_records_route_cards_trains_and_points() -> None:
    state = table(hands=[{"blue": 4, LOCO: 2}, {}])
    state, events = play(state, 0, claim("Atlanta|Miami", blue=4, locomotive=1))
    assert kinds(events) == ["RouteClaimed", "TurnStarted"]
    claimed = events[0]
    assert not claimed.automatic
    assert claimed.data == {
        "seat": 0,
        "route": "Atlanta|Miami",
        "cards": {"blue": 4, LOCO: 1},
        "trains_left": 40,
        "points": 10,
    }
    assert state.claims == {"Atlanta|Miami": 0}
    assert state.seats[0].hand["blue"] == 0 and state.seats[0].hand[LOCO] == 1
    assert state.seats[0].trains == 40 and state.seats[0].score == 10
    assert sorted(state.discard) == sorted(["blue"] * 4 + [LOCO])
    assert DECIDER.invariants(state) == []


@pytest.mark.parametrize(
    ("route", "points"),
    [("Atlanta|Nashville", 1), ("Atlanta|Charleston", 2), ("Denver|Omaha", 7), ("Atlanta|Miami", 10)],
)
def test_route_points_are_scored_at_once(route: str, points: int) -> None:
    length = ROUTES[route].length
    state, events = play(table(hands=[{LOCO: 6}, {}]), 0, claim(route, locomotive=length))
    assert events[0].data["points"] == points == state.seats[0].score


def test_a_gray_route_takes_any_one_colour_plus_locomotives() -> None:
    state = table(hands=[{"red": 2, "pink": 3, LOCO: 1}, {}])
    assert ROUTES["Atlanta|Charleston"].colour == "gray"
    for payment in ({"red": 2}, {"pink": 2}, {"red": 1, LOCO: 1}, {"pink": 1, LOCO: 1}):
        after, _ = play(state, 0, claim("Atlanta|Charleston", **payment))
        assert after.claims == {"Atlanta|Charleston": 0}
    error = refused(state, 0, claim("Atlanta|Charleston", red=1, pink=1), IllegalMove)
    assert error.code == "mixed_colours"


def test_legal_moves_list_every_distinct_payment() -> None:
    state = table(hands=[{"red": 2, "blue": 1, LOCO: 2}, {}])
    assert sorted(claims_of(state, 0, "Atlanta|Charleston"), key=str) == sorted(
        [{"red": 2}, {"red": 1, LOCO: 1}, {"blue": 1, LOCO: 1}, {LOCO: 2}], key=str
    )
    # A coloured route: only its colour, topped up with locomotives.
    assert sorted(claims_of(state, 0, "Kansas City|Saint Louis#0"), key=str) == sorted(
        [{"blue": 1, LOCO: 1}, {LOCO: 2}], key=str
    )
    state = table(hands=[{"blue": 3, LOCO: 2}, {}])
    assert sorted(claims_of(state, 0, "Atlanta|Miami"), key=str) == sorted(
        [{"blue": 3, LOCO: 2}], key=str
    )
    for move in DECIDER.legal_moves(state, 0):
        play(state, 0, move)  # every listed move is accepted as it is


def test_an_all_locomotive_payment_is_legal() -> None:
    state, _ = play(table(hands=[{LOCO: 5}, {}]), 0, claim("Atlanta|Miami", locomotive=5))
    assert state.claims == {"Atlanta|Miami": 0}


def test_a_coloured_route_refuses_another_colour() -> None:
    error = refused(table(hands=[{"red": 5}, {}]), 0, claim("Atlanta|Miami", red=5), IllegalMove)
    assert error.code == "wrong_colour"
    assert error.message == (
        "Route Atlanta–Miami is blue: pay with blue cards and locomotives, not red."
    )


def test_payment_must_match_the_length_exactly() -> None:
    state = table(hands=[{"blue": 6}, {}])
    assert refused(state, 0, claim("Atlanta|Miami", blue=4), IllegalMove).code == "wrong_card_count"
    assert refused(state, 0, claim("Atlanta|Miami", blue=6), IllegalMove).code == "wrong_card_count"


def test_a_refusal_counts_its_cards_in_words() -> None:
    state = table(hands=[{"gray": 0, "red": 3}, {}])
    error = refused(state, 0, claim("Atlanta|Nashville", red=2), IllegalMove)
    assert error.message == "Route Atlanta–Nashville takes exactly 1 card; you offered 2."


def test_the_seat_must_hold_the_cards() -> None:
    error = refused(table(hands=[{"blue": 3, LOCO: 1}, {}]), 0, claim("Atlanta|Miami", blue=4, locomotive=1), IllegalMove)
    assert error.code == "not_enough_cards"


def test_the_seat_must_have_enough_trains() -> None:
    state = table(hands=[{"blue": 5}, {}], trains=[4, 45])
    error = refused(state, 0, claim("Atlanta|Miami", blue=5), IllegalMove)
    assert error.code == "not_enough_trains"
    assert "4 left" in error.message
    assert claims_of(state, 0, "Atlanta|Miami") == []


def test_a_claimed_route_is_taken() -> None:
    state = table(hands=[{LOCO: 2}, {}], claims={"Denver|Omaha": 1})
    error = refused(state, 0, claim("Denver|Omaha", locomotive=4), IllegalMove)
    assert error.code == "route_taken"
    assert error.message == "Route Denver–Omaha is already claimed by seat 1."


@pytest.mark.parametrize("seats", [2, 3])
def test_with_two_or_three_players_only_one_route_of_a_double_is_used(seats: int) -> None:
    for seat in range(seats):
        state = table(seats, hands=[{"orange": 2, LOCO: 2}] * seats, claims={"Atlanta|New Orleans#0": 1}, current=seat)
        error = refused(state, seat, claim("Atlanta|New Orleans#1", orange=2, locomotive=2), IllegalMove)
        assert error.code == "double_route_closed"
        assert claims_of(state, seat, "Atlanta|New Orleans#1") == []
    assert claims_of(state, seat, "Atlanta|Raleigh#0")  # other doubles stay open


@pytest.mark.parametrize("seats", [4, 5])
def test_with_four_or_five_players_both_routes_of_a_double_are_used_by_different_seats(seats: int) -> None:
    hands = [{"orange": 2, LOCO: 2}] * seats
    state = table(seats, hands=hands, claims={"Atlanta|New Orleans#0": 1}, current=1)
    error = refused(state, 1, claim("Atlanta|New Orleans#1", orange=2, locomotive=2), IllegalMove)
    assert error.code == "double_route_same_seat"
    assert claims_of(state, 1, "Atlanta|New Orleans#1") == []
    state = table(seats, hands=hands, claims={"Atlanta|New Orleans#0": 1}, current=2)
    assert claims_of(state, 2, "Atlanta|New Orleans#1") == [{"orange": 2, LOCO: 2}]
    state, _ = play(state, 2, claim("Atlanta|New Orleans#1", orange=2, locomotive=2))
    assert state.claims == {"Atlanta|New Orleans#0": 1, "Atlanta|New Orleans#1": 2}
    assert DECIDER.invariants(state) == []
