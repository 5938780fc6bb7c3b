"""Final scoring: tickets won and lost, the longest continuous path, the winners and the
tie-breakers; and scores always equal the sum of their scoring events."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain.ticket_to_ride import DECIDER
from domain.ticket_to_ride.scoring import longest_path, winners_of
from domain.ticket_to_ride.state import OVER, State
from tests.usa import ROUTES

from .conftest import kinds, of_kind, play, table

PASS = {"type": "pass"}


def last_turn(claims: dict[str, int], tickets: list[list[str]], scores: list[int] | None = None) -> State:
    """Seat 1's last turn in a 2-seat game where nothing is left to do but pass."""
    return table(
        2,
        market=[None] * 5,
        deck=[],
        ticket_deck=[],
        claims=claims,
        tickets=tickets,
        scores=scores,
        current=1,
        final_round_trigger=1,
    )


def final_events(state: State) -> tuple[State, list[Any]]:
    state, events = play(state, 1, PASS)
    assert state.phase == OVER and kinds(events)[-1] == "GameEnded"
    return state, events


def test_tickets_score_plus_when_connected_and_minus_when_not() -> None:
    state = last_turn(
        {"Denver|Santa Fe": 0, "El Paso|Santa Fe": 0, "Helena|Salt Lake City": 1, "Calgary|Helena": 1},
        [["Denver|El Paso", "Duluth|Houston"], ["Calgary|Salt Lake City"]],
    )
    state, events = final_events(state)
    assert kinds(events) == ["TurnPassed", "TicketScored", "TicketScored", "TicketScored", "LongestPathScored", "GameEnded"]
    assert [e.data for e in of_kind(events, "TicketScored")] == [
        {"seat": 0, "ticket": "Denver|El Paso", "completed": True, "points": 4},
        {"seat": 0, "ticket": "Duluth|Houston", "completed": False, "points": -8},
        {"seat": 1, "ticket": "Calgary|Salt Lake City", "completed": True, "points": 7},
    ]
    assert all(e.automatic for e in events[1:])
    longest = of_kind(events, "LongestPathScored")[0].data
    assert longest["lengths"] == {"0": 4, "1": 7} and longest["winners"] == [1] and longest["points"] == 10
    ended = of_kind(events, "GameEnded")[0].data
    assert ended["scores"] == {"0": -4, "1": 17} and ended["winners"] == [1]
    assert DECIDER.scores(state) == {0: -4, 1: 17}
    assert state.winners == (1,)
    # Cards and tickets are left out of this position; the scores must still add up.
    assert [p for p in DECIDER.invariants(state) if "score" in p] == []


def test_tied_longest_paths_all_get_the_bonus() -> None:
    state = last_turn(
        {"Denver|Santa Fe": 0, "El Paso|Santa Fe": 0, "Atlanta|Charleston": 1, "Atlanta|Raleigh#0": 1},
        [[], []],
    )
    state, events = final_events(state)
    longest = of_kind(events, "LongestPathScored")[0].data
    assert longest["lengths"] == {"0": 4, "1": 4} and longest["winners"] == [0, 1]
    assert DECIDER.scores(state) == {0: 10, 1: 10}
    assert of_kind(events, "GameEnded")[0].data["winners"] == [0, 1]


def test_nobody_gets_the_bonus_without_a_route() -> None:
    _, events = final_events(last_turn({}, [[], []]))
    assert of_kind(events, "LongestPathScored")[0].data["winners"] == []


def test_a_tie_goes_to_the_seat_with_more_completed_tickets() -> None:
    # 10 + 4 (ticket) = 14 for seat 0; 4 + 10 (longest path) = 14 for seat 1.
    state = last_turn(
        {"Denver|Santa Fe": 0, "El Paso|Santa Fe": 0, "Helena|Salt Lake City": 1, "Calgary|Helena": 1},
        [["Denver|El Paso"], []],
        scores=[10, 4],
    )
    _, events = final_events(state)
    ended = of_kind(events, "GameEnded")[0].data
    assert ended["scores"] == {"0": 14, "1": 14} and ended["winners"] == [0]


def test_then_to_the_longest_path_holder() -> None:
    state = last_turn(
        {"Denver|Santa Fe": 0, "El Paso|Santa Fe": 0, "Helena|Salt Lake City": 1, "Calgary|Helena": 1},
        [["Denver|El Paso"], ["Calgary|Salt Lake City"]],
        scores=[10, -3],
    )
    _, events = final_events(state)
    ended = of_kind(events, "GameEnded")[0].data
    assert ended["scores"] == {"0": 14, "1": 14} and ended["winners"] == [1]


def test_winners_of_applies_the_tie_breakers_in_order() -> None:
    assert winners_of([10, 12, 5], [0, 0, 3], [2]) == [1]
    assert winners_of([10, 10, 5], [1, 2, 0], [0]) == [1]
    assert winners_of([10, 10], [1, 1], [1]) == [1]
    assert winners_of([10, 10], [1, 1], []) == [0, 1]
    assert winners_of([10, 10, 10], [1, 1, 1], [0, 1]) == [0, 1]


def test_longest_path_may_revisit_a_city_but_not_a_route() -> None:
    # A triangle with a tail: the trail goes round the loop and out along the tail.
    loop = [ROUTES[r] for r in ("Helena|Seattle", "Calgary|Seattle", "Calgary|Helena", "Duluth|Helena")]
    assert longest_path(loop) == sum(r.length for r in loop)
    # A star: only two branches can be joined.
    star = [ROUTES[r] for r in ("Denver|Omaha", "Denver|Santa Fe", "Denver|Phoenix")]
    assert longest_path(star) == 4 + 5
    assert longest_path([]) == 0


def test_invariants_catch_a_score_that_is_not_the_sum_of_its_events() -> None:
    state = table()
    assert DECIDER.invariants(state) == []
    seats = (replace(state.seats[0], score=3), state.seats[1])
    problems = DECIDER.invariants(replace(state, seats=seats))
    assert problems == ["seat 0 has a score of 3 but its scoring events add up to 0"]


def test_invariants_catch_lost_cards_tickets_and_trains() -> None:
    state = table()
    assert any("train cards" in p for p in DECIDER.invariants(replace(state, deck=state.deck[1:])))
    assert any("tickets" in p for p in DECIDER.invariants(replace(state, ticket_deck=state.ticket_deck[1:])))
    seats = (replace(state.seats[0], trains=-1), state.seats[1])
    assert any("-1 trains" in p for p in DECIDER.invariants(replace(state, seats=seats)))
