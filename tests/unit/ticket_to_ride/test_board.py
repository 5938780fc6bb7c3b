"""The map data as the rules read it."""

from __future__ import annotations

from collections import Counter

from tests.usa import (
    CARD_COUNTS,
    ROUTE_POINTS,
    ROUTES,
    ROUTES_AT,
    TICKETS,
    TRAIN_CARDS,
    TWIN,
    neighbours,
)


def test_route_points_table() -> None:
    assert {length: ROUTE_POINTS[length] for length in range(1, 7)} == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}
    assert ROUTE_POINTS == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}
    assert all(route.points == ROUTE_POINTS[route.length] for route in ROUTES.values())


def test_deck_has_110_cards_12_of_each_colour_and_14_locomotives() -> None:
    assert len(TRAIN_CARDS) == 110
    counts = Counter(TRAIN_CARDS)
    assert counts.pop("locomotive") == 14
    assert sorted(counts) == sorted(["pink", "white", "blue", "yellow", "orange", "black", "red", "green"])
    assert set(counts.values()) == {12}
    assert CARD_COUNTS["locomotive"] == 14


def test_map_has_100_routes_22_doubles_and_30_tickets() -> None:
    assert len(ROUTES) == 100 and len(TICKETS) == 30
    assert len(TWIN) == 44
    for route, twin in TWIN.items():
        assert TWIN[twin] == route
        assert (ROUTES[route].a, ROUTES[route].b) == (ROUTES[twin].a, ROUTES[twin].b)
    assert sum(route.length for route in ROUTES.values()) == 309


def test_neighbours_follow_the_routes() -> None:
    assert neighbours("Miami") == ("Atlanta", "Charleston", "New Orleans")
    assert len(ROUTES_AT["Denver"]) == 9  # Kansas City and Salt Lake City are doubles


def test_route_label_names_the_lane_of_a_double() -> None:
    assert ROUTES["Denver|Omaha"].label == "Denver–Omaha"
    assert ROUTES["Atlanta|New Orleans#1"].label.startswith("Atlanta–New Orleans (")
