"""The conformance suite every game gets without writing a test: for each registered game
(and the `race` fake), at its fewest and most seats, a few seeded random games are played to
the end and checked against the game contract (`contract.py`). The `slow` run plays more
games, at every seat count, and tries every legal move instead of a sample."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain import games
from domain.railway_boom.figures import board as railway_boom_board
from domain.toot_toot.figures import board as toot_toot_board
from tests import playouts
from tests.conformance import contract
from tests.fakes.pebbles import figures as pebbles_figures
from tests.integration.projections.test_age_of_steam import expected_board as age_of_steam_board

GAMES = contract.deciders()

BOARDS = {
    "ticket_to_ride": lambda state: dict(state.claims),
    "age_of_steam": age_of_steam_board,
    "pebbles": pebbles_figures.board,
    "railway_boom": railway_boom_board,
    "toot_toot": toot_toot_board,
}
"""The board a game's read models must show for a state, for the games with a projector."""


def cases(indexes: range, every_seat_count: bool) -> list[Any]:
    out = []
    for name, decider in sorted(GAMES.items()):
        counts = range(decider.min_seats, decider.max_seats + 1) if every_seat_count else (decider.min_seats, decider.max_seats)
        out += [pytest.param(name, seats, index, id=f"{name}-{seats}p-{index}") for seats in counts for index in indexes]
    return out


QUICK = cases(range(2), every_seat_count=False)
MANY = cases(range(2, 12), every_seat_count=True)
ARGS = "name, seats, index"


def test_every_registered_game_and_the_fake_are_covered() -> None:
    covered = {param.values[0] for param in QUICK}
    assert covered == set(games.names()) | {"race"}
    assert {"ticket_to_ride", "age_of_steam"} <= covered
    for name in covered:
        seat_counts = {param.values[1] for param in QUICK if param.values[0] == name}
        assert seat_counts == {GAMES[name].min_seats, GAMES[name].max_seats}


def check_playout(name: str, seats: int, index: int) -> None:
    walk = contract.walk(name, seats, index)
    decider = walk.decider
    assert decider.is_over(walk.game.state), f"{name}: game {index} did not end"
    assert decider.active_seats(walk.game.state) == frozenset()
    for step in walk.steps:
        problems = contract.invariants(decider, step.after)
        assert problems == [], f"{name} game {index} after {step.event.kind}: {problems}"


@pytest.mark.parametrize(ARGS, QUICK)
def test_random_playouts_end_and_hold_the_invariants(name: str, seats: int, index: int) -> None:
    check_playout(name, seats, index)


@pytest.mark.parametrize(ARGS, QUICK)
def test_snapshots_round_trip_through_the_codec(name: str, seats: int, index: int) -> None:
    walk = contract.walk(name, seats, index)
    for state in walk.states(stride=7):
        contract.check_snapshot(walk.decider, state)


@pytest.mark.parametrize(ARGS, QUICK)
def test_move_of_inverts_decide(name: str, seats: int, index: int) -> None:
    walk = contract.walk(name, seats, index)
    for decision in walk.decisions:
        contract.check_move_of(walk.decider, decision)


@pytest.mark.parametrize(ARGS, QUICK)
def test_evolve_never_changes_its_input(name: str, seats: int, index: int) -> None:
    walk = contract.walk(name, seats, index)
    for step in walk.steps:
        contract.check_evolve(walk.decider, step)


@pytest.mark.parametrize(ARGS, QUICK)
def test_no_view_leaks_another_seats_secret(name: str, seats: int, index: int) -> None:
    walk = contract.walk(name, seats, index)
    for state in walk.states(stride=3):
        contract.check_views(walk.decider, state)


@pytest.mark.parametrize(ARGS, QUICK)
def test_every_legal_move_validates_and_is_accepted(name: str, seats: int, index: int) -> None:
    walk = contract.walk(name, seats, index)
    chooser = random.Random(index)
    tried = sum(contract.check_legal_moves(walk.decider, d.state, 8, chooser) for d in walk.decisions)
    assert tried >= len(walk.decisions)


@pytest.mark.parametrize(ARGS, QUICK)
def test_every_event_fits_its_published_schema(name: str, seats: int, index: int) -> None:
    walk = contract.walk(name, seats, index)
    records = playouts.record_of(walk.decider, walk.game)
    for record in records:
        contract.check_event_published(walk.decider, record["kind"], record["data"])
    for step in walk.steps:
        contract.check_typed(walk.decider, step.event)
    assert {"GameCreated", "SeedRevealed"} <= {record["kind"] for record in records}


def test_a_field_of_the_wrong_type_does_not_fit_the_published_schema() -> None:
    ticket_to_ride = GAMES["ticket_to_ride"]
    good = {"seat": 0, "route": "Denver|Omaha", "cards": {"red": 4}, "trains_left": 41, "points": 7}
    contract.check_event_published(ticket_to_ride, "RouteClaimed", good)
    for bad in ({**good, "points": "7"}, {**good, "colour": "red"}, {k: v for k, v in good.items() if k != "seat"}):
        with pytest.raises(AssertionError, match="does not fit its published schema"):
            contract.check_event_published(ticket_to_ride, "RouteClaimed", bad)
    with pytest.raises(AssertionError, match="not declared"):
        contract.check_event_published(ticket_to_ride, "RouteClamied", good)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_options_schemas_are_the_options_the_game_records(name: str) -> None:
    decider = GAMES[name]
    for seats in range(decider.min_seats, decider.max_seats + 1):
        contract.check_option_schemas(decider, seats)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_projections_equal_a_fold(name: str) -> None:
    decider = GAMES[name]
    walk = contract.walk(name, decider.min_seats, 0)
    assert contract.check_projections(decider, walk.game, BOARDS.get(name), stride=10) > len(walk.decisions) // 10


@pytest.mark.slow
@pytest.mark.parametrize(ARGS, MANY)
def test_many_games_meet_the_whole_contract(name: str, seats: int, index: int) -> None:
    check_playout(name, seats, index)
    walk = contract.walk(name, seats, index)
    decider, chooser = walk.decider, random.Random(index)
    for step in walk.steps:
        contract.check_evolve(decider, step)
        contract.check_typed(decider, step.event)
        contract.check_event_published(decider, step.event.kind, step.event.data)
        contract.check_snapshot(decider, step.after)
        contract.check_views(decider, step.after)
    for decision in walk.decisions:
        contract.check_move_of(decider, decision)
        contract.check_legal_moves(decider, decision.state, None, chooser)
    contract.check_projections(decider, walk.game, BOARDS.get(name))
    contract.walk.cache_clear()
