"""Options and the opening for every player count (setup steps 1-10, R4)."""

from __future__ import annotations

import pytest

from domain.core.decider import Setup
from domain.core.errors import MalformedMove
from domain.core.randomness import SeededRandom
from domain.railway_boom.state import BLOCKED, FREE
from tests.unit.railway_boom.helpers import CONTENT, RULES, opening


def test_options_are_filled_in_and_checked() -> None:
    assert RULES.options({}, 3) == {"content": "reference", "first_game": False}
    assert RULES.options({"first_game": True}, 2)["first_game"] is True
    with pytest.raises(MalformedMove, match="first_game"):
        RULES.options({"first_game": "yes"}, 3)
    with pytest.raises(MalformedMove, match="Unknown option"):
        RULES.options({"map": "usa"}, 3)
    with pytest.raises(MalformedMove, match="2 to 4 seats, not 5"):
        RULES.options({}, 5)


@pytest.mark.parametrize("players, blocked", [(2, 2), (3, 1), (4, 0)])
def test_blocking_cubes_cover_the_goal_spaces_the_pack_marks(players: int, blocked: int) -> None:
    state = opening(players)
    assert len(state.goals) == 4 and len(state.routes) == 4
    for goal in state.goals:
        row = state.spaces[goal]
        assert row.count(BLOCKED) == blocked and row.count(FREE) == len(row) - blocked
        assert [i for i, v in enumerate(row) if v == BLOCKED] == sorted(CONTENT.goals[goal].blocked[players])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_starts_with_the_box_of_the_rules_page(players: int) -> None:
    state = opening(players)
    for seat in state.seats:
        assert seat.resources == {"money": 8, "materials": 8, "technology": 8, "coal": 8}
        assert set(seat.income.values()) == {1} and len(seat.income) == 5
        assert (seat.rails, seat.stations, seat.vp) == (30, 4, 0)
        assert len(seat.trains) == 1 and CONTENT.trains[seat.trains[0]].kind == "starting"
    assert state.phase == "trains" and state.step == "bid" and state.round == 1
    assert len([c for c in state.offer if c.startswith("L")]) == players
    assert len([c for c in state.offer if c.startswith("C")]) == players + 2
    assert RULES.invariants(state) == []


def test_the_highest_station_number_sits_right_most() -> None:
    setup = Setup(("a", "b", "c", "d"), RULES.options({}, 4))
    events = RULES.setup(RULES.initial_state(setup), SeededRandom(bytes(32)))
    drawn = next(e for e in events if e.kind == "StartingOrderDrawn")
    numbers = {int(seat): CONTENT.station_cards[card].number for seat, card in drawn.data["cards"].items()}
    assert list(drawn.data["order"]) == sorted(numbers, key=numbers.__getitem__)


def test_a_first_game_lays_the_packs_tiles_and_no_tourist_tiles() -> None:
    state = opening(3, first_game=True)
    assert state.city_tiles == {h.id: h.first_game_tile for h in CONTENT.hexes.values() if h.city == "normal"}


def test_otherwise_the_tiles_are_dealt_at_random_normal_and_tourist_apart() -> None:
    state = opening(3, first_game=False)
    normal = {h.id for h in CONTENT.hexes.values() if h.city == "normal"}
    tourist = {h.id for h in CONTENT.hexes.values() if h.city == "tourist"}
    assert set(state.city_tiles) == normal | tourist
    assert all(CONTENT.city_tiles[state.city_tiles[c]].kind == "normal" for c in normal)
    assert all(CONTENT.city_tiles[state.city_tiles[c]].kind == "tourist" for c in tourist)
    assert state.city_tiles != opening(3, first_game=True).city_tiles



def test_events_that_turn_up_hidden_cards_count_as_reveals() -> None:
    setup = Setup(("a", "b"), RULES.options({}, 2))
    events = RULES.setup(RULES.initial_state(setup), SeededRandom(bytes(32)))
    revealing = {e.kind for e in events if RULES.reveals(e)}
    assert revealing == {"StartingOrderDrawn", "TrainsRevealed"}
    assert not any(RULES.reveals(e) for e in events if e.kind in ("PhaseStarted", "GoalSpacesBlocked"))
