"""Urbanization, the victory point tally by source, final scoring and the tie-breakers."""

from __future__ import annotations

from domain.age_of_steam.scoring import sources
from domain.age_of_steam.state import MOVE
from domain.age_of_steam.tiles import MIX
from domain.age_of_steam.track import network, track_tiles
from tests.rust_belt import CITY_BY_NAME, DECIDER, MAP

from .helpers import dice, kinds, of_kind, play, refused, table, tile
from .network import board

MILWAUKEE = "7,3"


def test_urbanization_places_a_new_city_on_a_town_for_free() -> None:
    state = table(actions={"urbanization": 0}, board=[tile("7,4", "straight", 0, 0), tile(MILWAUKEE, "town_1", 3, 0)])
    state, events = play(state, 0, {"type": "urbanize", "hex": MILWAUKEE, "city": "A"})
    data = events[0].data
    assert events[0].kind == "CityUrbanized" and data["colour"] == "red" and data["returned"] == "town_1"
    assert state.new_cities == {MILWAUKEE: "A"} and MILWAUKEE not in state.board
    assert state.stock["town_1"] == MIX["town_1"] and state.seats[0].cash == 10
    link = network(MAP, state.board, state.new_cities).owned(0)[0]
    assert link.complete and {link.a.hex, link.b.hex} == {CITY_BY_NAME["Chicago"], MILWAUKEE}
    # Still three tiles to build, but no second new city, and it is a city now.
    assert state.build is not None and state.build.limit == 3 and state.build.urbanized
    assert refused(state, 0, {"type": "urbanize", "hex": "9,5", "city": "B"}).code == "already_urbanized"
    assert refused(state, 0, {"type": "build", "hex": MILWAUKEE, "tile": "town_1", "rotation": 0}).code == "city_hex"


def test_urbanization_gives_the_urbanizer_unowned_track_it_completes() -> None:
    state = table(actions={"urbanization": 1}, queue=[1, 0, 2], board=[tile("7,4", "straight", 0, None), tile("7,6", "straight", 0, 0)])
    state, events = play(state, 1, {"type": "urbanize", "hex": MILWAUKEE, "city": "C"})
    assert events[0].data["claimed"] == ["7,4"]
    assert state.board["7,4"].owners == (1,) and state.board["7,6"].owners == (0,)


def test_urbanization_is_refused_when_it_may_not_happen() -> None:
    state = table(actions={"urbanization": 1})
    assert refused(state, 0, {"type": "urbanize", "hex": MILWAUKEE, "city": "A"}).code == "no_urbanization"
    mine = table(actions={"urbanization": 0}, placed=["7,6"], board=[tile("7,6", "straight", 0, 0)])
    assert refused(mine, 0, {"type": "urbanize", "hex": MILWAUKEE, "city": "A"}).code == "urbanize_before_building"
    assert not [m for m in DECIDER.legal_moves(mine, 0) if m["type"] == "urbanize"]
    fresh = table(actions={"urbanization": 0}, new_cities={"9,5": "A"})
    assert refused(fresh, 0, {"type": "urbanize", "hex": "7,6", "city": "B"}).code == "not_a_town"
    assert refused(fresh, 0, {"type": "urbanize", "hex": MILWAUKEE, "city": "A"}).code == "new_city_used"
    assert refused(fresh, 0, {"type": "urbanize", "hex": "9,5", "city": "B"}).code == "already_a_city"
    listed = [m for m in DECIDER.legal_moves(fresh, 0) if m["type"] == "urbanize"]
    assert len(listed) == 13 * 7


def test_the_vp_tally_by_source() -> None:
    state = table(income=[5, 0, 0], shares=[4, 2, 2], board=board(ei=0, ic_south=0, ic_north=1, cf=2))
    # Seat 0 owns Evansville-Indianapolis (9,8 and the town) and Indianapolis-Cincinnati via 11,8.
    assert sources(MAP, state, 0) == {"income": 15, "shares": -12, "track": 3}
    assert DECIDER.scores(state)[0] == 6
    # Ruling 4: the town tile holds track of two of seat 0's links but counts once.
    assert track_tiles(MAP, state.board, state.new_cities, 0) == 3


def test_incomplete_track_scores_nothing() -> None:
    state = table(board=[tile("7,6", "straight", 0, 0), tile("7,7", "straight", 0, 0)])
    assert sources(MAP, state, 0)["track"] == 0


def test_a_crossing_of_two_own_links_counts_once() -> None:
    state = table(board=[tile("7,4", "x_crossing", 0, 0, 0), tile(MILWAUKEE, "town_1", 3, 0)])
    links = network(MAP, state.board, state.new_cities).owned(0)
    assert sum(link.complete for link in links) == 1
    assert track_tiles(MAP, state.board, state.new_cities, 0) == 2


def final_turn(**kwargs: object) -> object:
    return table(phase=MOVE, queue=[2], turn=10, **kwargs)  # type: ignore[arg-type]


def test_final_scoring_by_source_and_the_winner() -> None:
    state = final_turn(income=[5, 6, 0], shares=[2, 3, 2], cash=[10, 10, 10], board=board(ei=0, ic_south=0, ic_north=1, cf=2))
    state, events = play(state, 2, {"type": "pass_move"}, dice())  # type: ignore[arg-type]
    scored = {e.data["seat"]: e.data for e in of_kind(events, "FinalScored")}
    assert scored[0] == {
        "seat": 0, "income": 5, "shares": 2, "track": 3, "income_vp": 15, "shares_vp": -6, "track_vp": 3, "vp": 12, "cash": 12,
    }
    ended = events[-1].data
    assert ended["scores"] == {"0": 12, "1": 11, "2": -4} and ended["winners"] == [0] and ended["decided_by"] == "score"


def test_ties_go_to_more_cash_then_more_track_then_a_die() -> None:
    tied = dict(income=[2, 2, 0], shares=[2, 2, 2])
    state = final_turn(cash=[20, 30, 10], **tied)
    _, events = play(state, 2, {"type": "pass_move"}, dice())  # type: ignore[arg-type]
    assert events[-1].data["winners"] == [1] and events[-1].data["decided_by"] == "cash"
    # Equal points and cash after expenses: seat 0's three tiles of track beat none (its extra share
    # evens out the points).
    state = final_turn(cash=[21, 20, 10], income=[2, 2, 0], shares=[3, 2, 2], board=board(ei=0, ic_south=0, ic_north=None, cf=None))
    assert DECIDER.scores(state)[0] == DECIDER.scores(state)[1] == 0  # and $1 more for its extra share
    _, events = play(state, 2, {"type": "pass_move"}, dice())  # type: ignore[arg-type]
    assert events[-1].data["winners"] == [0] and events[-1].data["decided_by"] == "track"
    state = final_turn(cash=[20, 20, 10], **tied)
    _, events = play(state, 2, {"type": "pass_move"}, dice(2, 5))  # type: ignore[arg-type]
    assert [e.data["value"] for e in of_kind(events, "TieBreakRolled")] == [2, 5]
    assert events[-1].data["winners"] == [1] and events[-1].data["decided_by"] == "dice"
    assert "TieBreakRolled" in kinds(events)
