"""The opening: dice for the player order, starting capital, the goods display and the city
goods, all recorded as events; the options and the seat counts."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.age_of_steam.state import SHARES
from domain.core.decider import Setup
from domain.core.errors import MalformedMove
from domain.core.randomness import RecordedRandom, outcomes_in
from tests.rust_belt import DECIDER, MAP

from .helpers import fold, kinds, new_game, of_kind


def test_the_opening_records_every_die_cube_and_dollar() -> None:
    state, events, _ = new_game(4)
    rolls = of_kind(events, "OrderDieRolled")
    assert len(rolls) >= 12 and {e.data["seat"] for e in rolls} == {0, 1, 2, 3}
    assert len(of_kind(events, "DisplayCubeDrawn")) == sum(MAP.column_spaces.values()) == 52
    city_draws = of_kind(events, "CityCubeDrawn")
    assert len(city_draws) == 26
    assert Counter(e.data["city"] for e in city_draws) == {c.name: c.starting_cubes for c in MAP.cities}
    assert [e.data for e in of_kind(events, "StartingCapitalTaken")] == [
        {"seat": s, "shares": 2, "cash": 10} for s in range(4)
    ]
    assert sum(state.bag.values()) == 18
    assert all(cube is not None for spaces in state.display.values() for cube in spaces)
    assert [s.cash for s in state.seats] == [10] * 4 and [s.shares for s in state.seats] == [2] * 4
    assert state.phase == SHARES and state.turn == 1 and state.queue == state.order
    assert kinds(events)[-2:] == ["TurnBegan", "PhaseBegan"]
    assert DECIDER.invariants(state) == []


def test_the_order_follows_the_dice_totals_and_ties_roll_again() -> None:
    # Seat 0 rolls 6+6+6, seat 1 and seat 2 tie on 1+1+1 and roll again: 2+2+2 beats 1+1+1.
    faces = [6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2]
    outcomes = [{"below": 6, "value": f - 1} for f in faces] + [{"below": n, "value": 0} for n in range(96, 96 - 78, -1)]
    state = DECIDER.initial_state(Setup(("a", "b", "c")))
    events = DECIDER.setup(state, RecordedRandom(outcomes))
    assert of_kind(events, "PlayerOrderSet")[0].data == {"order": [0, 2, 1]}
    rerolls = [e.data for e in of_kind(events, "OrderDieRolled") if e.data["round"] == 2]
    assert {r["seat"] for r in rerolls} == {1, 2} and len(rerolls) == 6


def test_each_random_event_stores_one_outcome_and_the_opening_replays_from_them() -> None:
    _, events, _ = new_game(5)
    recorded = RecordedRandom(outcomes_in(e.data for e in events))
    again = DECIDER.setup(DECIDER.initial_state(Setup(tuple(f"player {i + 1}" for i in range(5)))), recorded)
    assert again == events and recorded.exhausted()


def test_the_bag_holds_the_published_goods() -> None:
    assert MAP.bag == {"red": 20, "blue": 20, "purple": 20, "yellow": 20, "black": 16}
    state, _, _ = new_game(3)
    counts = Counter(state.bag)
    for spaces in state.display.values():
        counts.update(c for c in spaces if c)
    for cubes in state.cubes.values():
        counts.update(cubes)
    assert counts == MAP.bag


@pytest.mark.parametrize("seats", [1, 2, 7])
def test_two_players_and_other_counts_are_refused(seats: int) -> None:
    with pytest.raises(MalformedMove) as caught:
        DECIDER.options({}, seats)
    assert caught.value.code == "bad_seats"


def test_the_options_record_the_rulings() -> None:
    options = DECIDER.options({"map": "rust_belt"}, 4)
    assert options["turns"] == 8 and options["max_shares"] == 15
    assert options["hex_8_0_is_lake"] is True
    assert options["upgrade_simple_to_coexisting_cost"] == 2
    assert options["growth_takes_top_cube"] is True and options["track_vp_once_per_tile"] is True
    assert DECIDER.options(options, 4) == options
    assert DECIDER.options({"upgrade_simple_to_coexisting_cost": 3}, 3)["upgrade_simple_to_coexisting_cost"] == 3
    for bad in ({"map": "usa"}, {"colour": "red"}, {"upgrade_simple_to_coexisting_cost": 4}):
        with pytest.raises(MalformedMove) as caught:
            DECIDER.options(bad, 3)
        assert caught.value.code == "bad_options"


@pytest.mark.parametrize(("seats", "turns"), [(3, 10), (4, 8), (5, 7), (6, 6)])
def test_the_number_of_turns_depends_on_the_players(seats: int, turns: int) -> None:
    state = DECIDER.initial_state(Setup(tuple("abcdef"[:seats])))
    assert state.last_turn == turns
    ruled = DECIDER.initial_state(Setup(tuple("abcdef"[:seats]), {"upgrade_simple_to_coexisting_cost": 3}))
    assert ruled.coexisting_upgrade_cost == 3


def test_the_state_after_setup_is_folded_from_the_events() -> None:
    state, events, _ = new_game(3)
    assert fold(DECIDER.initial_state(Setup(("player 1", "player 2", "player 3"))), events) == state
