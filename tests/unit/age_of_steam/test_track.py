"""Track building: tile geometry, every cost by terrain and tile class, upgrades, redirects,
towns, the placement rules, ownership and the loss of unextended incomplete track."""

from __future__ import annotations

from typing import Any

import pytest

from domain.age_of_steam.state import BUILD, MOVE, State
from domain.age_of_steam.tiles import DISTINCT_ROTATIONS, MIX, SEGMENTS, TILES, TOWN_CONFIGS, exits_of, opposite, paths_of
from domain.age_of_steam.track import network
from domain.core.errors import MalformedMove, RuleError
from domain.core.state import replace
from tests.rust_belt import DECIDER, MAP, NEIGHBOURS, TERRAIN

from .helpers import kinds, of_kind, play, refused, table, tile

CHICAGO, MILWAUKEE = "7,5", "7,3"


def build(state: State, seat: int, hex_: str, tile_: str, rotation: int) -> tuple[State, dict[str, Any]]:
    state, events = play(state, seat, {"type": "build", "hex": hex_, "tile": tile_, "rotation": rotation})
    assert events[0].kind == "TrackBuilt"
    return state, events[0].data


def owners_on(state: State, hex_: str) -> tuple[int | None, ...]:
    return state.board[hex_].owners


# --- geometry ---------------------------------------------------------------------------


def test_the_tile_mix_is_the_published_136() -> None:
    assert sum(MIX.values()) == 136
    assert MIX["straight"] == 48 and MIX["gentle_curve"] == 55 and MIX["sharp_curve"] == 7
    assert sum(MIX[t] for t in TILES if TILES[t].kind == "crossing") == 11
    assert sum(MIX[t] for t in TILES if TILES[t].kind == "coexisting") == 4
    assert sum(MIX[t] for t in TILES if TILES[t].kind == "town") == 11


def test_rotations_turn_tiles_clockwise() -> None:
    assert paths_of("straight", 1) == ((1, 4),)
    assert paths_of("gentle_curve", 5) == ((1, 5),)
    assert paths_of("sharp_curve", 5) == ((0, 5),)
    assert exits_of("town_3_left_leaner", 3) == (0, 3, 4)
    assert len(DISTINCT_ROTATIONS["straight"]) == 3 and len(DISTINCT_ROTATIONS["gentle_curve"]) == 6
    assert len(DISTINCT_ROTATIONS["x_crossing"]) == 3 and len(DISTINCT_ROTATIONS["twin_gentle_curves"]) == 3
    assert SEGMENTS[("straight", 0, True)] == ((0, 6), (3, 6))


def test_every_town_exit_set_has_a_tile() -> None:
    # 6 one-exit, 15 two-exit, 20 three-exit and 15 four-exit towns.
    sizes = sorted(len(exits) for exits in TOWN_CONFIGS)
    assert sizes.count(1) == 6 and sizes.count(2) == 15 and sizes.count(3) == 20 and sizes.count(4) == 15


def test_neighbours_are_symmetric_and_the_map_has_189_hexes() -> None:
    assert len(TERRAIN) == 189 and TERRAIN["8,0"] == "lake"
    for hex_, around in NEIGHBOURS.items():
        for edge, other in enumerate(around):
            assert other is None or NEIGHBOURS[other][opposite(edge)] == hex_
    assert NEIGHBOURS[CHICAGO] == ("7,4", "8,5", "8,6", "7,6", "6,6", "6,5")


# --- costs --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hex_", "tile_", "rotation", "cost", "terrain"),
    [
        ("7,6", "straight", 0, 2, "plain"),  # south of Chicago
        ("2,3", "straight", 2, 3, "river"),  # south-east of Minneapolis
        ("17,7", "gentle_curve", 4, 4, "mountain"),  # north-east of Wheeling
    ],
)
def test_a_new_simple_tile_costs_by_terrain(hex_: str, tile_: str, rotation: int, cost: int, terrain: str) -> None:
    assert TERRAIN[hex_] == terrain
    state, data = build(table(), 0, hex_, tile_, rotation)
    assert data["cost"] == cost and data["kind"] == "new" and data["owners"] == [0]
    assert state.seats[0].cash == 10 - cost and state.stock[tile_] == MIX[tile_] - 1


@pytest.mark.parametrize(("tile_", "cost"), [("straight_sharp", 3), ("x_crossing", 4), ("bow_and_arrow", 4)])
def test_a_new_complex_tile_costs_one_or_two_more(tile_: str, cost: int) -> None:
    # Seat 0's sharp curve south-east of Chicago ends facing 7,6, so both paths connect.
    state = table(board=[tile("8,6", "sharp_curve", 4, 0)])
    state, data = build(state, 0, "7,6", tile_, 0)
    assert data["cost"] == cost and data["owners"] == [0, 0]


@pytest.mark.parametrize(
    ("own", "hex_", "tile_", "rotation", "cost"),
    [
        # St. Louis' river hexes: own track on 6,10 faces 6,9, which also touches the city.
        (tile("6,10", "sharp_curve", 5, 0), "6,9", "x_crossing", 0, 5),
        (tile("6,10", "sharp_curve", 5, 0), "6,9", "twin_gentle_curves", 1, 4),
        # Wheeling's mountains: own track on 17,8 faces 17,7, which also touches the city.
        (tile("17,8", "sharp_curve", 5, 0), "17,7", "crossed_gentle_curves", 3, 6),
        (tile("17,8", "sharp_curve", 5, 0), "17,7", "straight_sharp", 3, 5),
    ],
)
def test_complex_tiles_on_rivers_and_mountains(own: dict[str, Any], hex_: str, tile_: str, rotation: int, cost: int) -> None:
    _, data = build(table(board=[own]), 0, hex_, tile_, rotation)
    assert data["cost"] == cost and data["kind"] == "new"


def test_upgrades_to_crossing_and_coexisting_cost_three_and_two() -> None:
    board = [tile("7,6", "straight", 0, 0), tile("8,6", "sharp_curve", 4, 0)]
    _, data = build(table(board=board), 0, "7,6", "x_crossing", 0)
    assert data["cost"] == 3 and data["kind"] == "upgrade" and data["returned"] == "straight"
    _, data = build(table(board=board), 0, "7,6", "straight_sharp", 0)
    assert data["cost"] == 2 and data["kind"] == "upgrade"
    _, data = build(table(board=board, coexisting_cost=3), 0, "7,6", "straight_sharp", 0)
    assert data["cost"] == 3


def test_an_upgrade_keeps_another_players_track_and_its_owner() -> None:
    state = table(board=[tile("7,6", "straight", 0, 1), tile("8,6", "sharp_curve", 4, 0)])
    state, data = build(state, 0, "7,6", "x_crossing", 0)
    assert data["owners"] == [1, 0]
    assert refused(table(board=[tile("7,6", "straight", 0, 1)]), 0,
                   {"type": "build", "hex": "7,6", "tile": "gentle_curve", "rotation": 0}).code == "redirect_others_track"


def test_a_redirect_turns_the_loose_end_and_costs_two() -> None:
    state = table(board=[tile("7,6", "straight", 0, 0)])
    state, data = build(state, 0, "7,6", "gentle_curve", 0)
    assert data["kind"] == "redirect" and data["cost"] == 2 and data["returned"] == "straight"
    assert state.stock["straight"] == MIX["straight"] and state.stock["gentle_curve"] == MIX["gentle_curve"] - 1


def test_completed_track_cannot_be_redirected() -> None:
    state = table(board=[tile("7,4", "straight", 0, 0), tile(MILWAUKEE, "town_1", 3, 0)])
    error = refused(state, 0, {"type": "build", "hex": "7,4", "tile": "gentle_curve", "rotation": 1})
    assert error.code == "must_preserve_track"


def test_towns_cost_one_plus_one_per_exit_whatever_the_terrain() -> None:
    board = [tile("7,4", "straight", 0, 0)]  # Chicago -> 7,4 -> Milwaukee's edge
    _, data = build(table(board=board), 0, MILWAUKEE, "town_1", 3)
    assert data["cost"] == 2 and data["kind"] == "town"
    _, data = build(table(board=board), 0, MILWAUKEE, "town_3_left_leaner", 3)
    assert data["cost"] == 4
    state, data = build(table(board=board), 0, MILWAUKEE, "straight", 0)
    assert data["cost"] == 3 and data["disc"] is True and state.discs == 7


def test_adding_exits_to_a_town_costs_three_and_keeps_its_exits() -> None:
    board = [tile("7,4", "straight", 0, 0), tile(MILWAUKEE, "town_1", 3, 0)]
    state, data = build(table(board=board), 0, MILWAUKEE, "town_3_left_leaner", 3)
    assert data["kind"] == "town_upgrade" and data["cost"] == 3 and data["returned"] == "town_1"
    assert state.stock["town_1"] == MIX["town_1"]
    error = refused(table(board=board), 0, {"type": "build", "hex": MILWAUKEE, "tile": "town_1", "rotation": 0})
    assert error.code == "must_preserve_track"


def test_a_town_tile_needs_a_town() -> None:
    assert refused(table(), 0, {"type": "build", "hex": "7,6", "tile": "town_1", "rotation": 0}).code == "town_tile_needs_town"


# --- placement rules -------------------------------------------------------------------------


def test_the_first_tile_must_run_into_a_city() -> None:
    assert refused(table(), 0, {"type": "build", "hex": "7,7", "tile": "straight", "rotation": 0}).code == "not_connected"
    # Next to Chicago but pointing away from it.
    assert refused(table(), 0, {"type": "build", "hex": "7,6", "tile": "straight", "rotation": 1}).code == "not_connected"


def test_later_tiles_connect_through_own_track() -> None:
    state = table(board=[tile("7,6", "straight", 0, 0)])
    state, data = build(state, 0, "7,7", "straight", 0)
    assert data["owners"] == [0]
    other = table(board=[tile("7,6", "straight", 0, 1)])
    # Seat 1's incomplete track ends facing 7,7: seat 0 may not run into it.
    assert refused(other, 0, {"type": "build", "hex": "7,7", "tile": "straight", "rotation": 0}).code == "into_others_track"


@pytest.mark.parametrize(
    ("hex_", "tile_", "rotation", "code"),
    [
        ("8,5", "straight", 0, "lake_hex"),
        (CHICAGO, "straight", 0, "city_hex"),
        ("7,4", "sharp_curve", 2, "into_lake"),  # edges 2 (lake 8,5) and 3 (Chicago)
        ("0,9", "sharp_curve", 3, "off_board"),  # edges 3 (Kansas City) and 4 (off the map)
    ],
)
def test_no_track_on_or_into_lakes_cities_or_off_the_board(hex_: str, tile_: str, rotation: int, code: str) -> None:
    assert refused(table(), 0, {"type": "build", "hex": hex_, "tile": tile_, "rotation": rotation}).code == code


def test_track_may_not_loop_back_to_the_city_it_left() -> None:
    state = table(board=[tile("8,6", "sharp_curve", 4, 0)])
    error = refused(state, 0, {"type": "build", "hex": "7,6", "tile": "sharp_curve", "rotation": 0})
    assert error.code == "loop"


def test_turn_limits_same_hex_cash_and_stock() -> None:
    state = table(board=[tile("7,6", "straight", 0, 0)], placed=["7,6"])
    assert refused(state, 0, {"type": "build", "hex": "7,6", "tile": "gentle_curve", "rotation": 0}).code == "hex_built_this_turn"
    state = table(placed=["1,1", "1,3", "0,3"])
    assert refused(state, 0, {"type": "build", "hex": "7,6", "tile": "straight", "rotation": 0}).code == "build_limit"
    state = table(placed=["1,1", "1,3", "0,3"], actions={"engineer": 0})
    assert state.build is not None and state.build.limit == 4
    build(state, 0, "7,6", "straight", 0)
    assert refused(table(cash=[1, 10, 10]), 0, {"type": "build", "hex": "7,6", "tile": "straight", "rotation": 0}).code == "not_enough_cash"
    empty = replace(table(), stock={**MIX, "straight": 0})
    assert refused(empty, 0, {"type": "build", "hex": "7,6", "tile": "straight", "rotation": 0}).code == "out_of_stock"
    no_discs = replace(table(board=[tile("7,4", "straight", 0, 0)]), discs=0)
    assert refused(no_discs, 0, {"type": "build", "hex": MILWAUKEE, "tile": "straight", "rotation": 0}).code == "no_town_disc"


def test_a_stated_cost_must_be_the_real_one() -> None:
    error = refused(table(), 0, {"type": "build", "hex": "7,6", "tile": "straight", "rotation": 0, "cost": 3})
    assert error.code == "cost_mismatch"
    play(table(), 0, {"type": "build", "hex": "7,6", "tile": "straight", "rotation": 0, "cost": 2})


def test_malformed_builds() -> None:
    for move, code in [
        ({"type": "build", "hex": "99,1", "tile": "straight", "rotation": 0}, "unknown_hex"),
        ({"type": "build", "hex": "7,6", "tile": "spiral", "rotation": 0}, "unknown_tile"),
        ({"type": "build", "hex": "7,6", "tile": "straight", "rotation": 6}, "bad_field"),
        ({"type": "build", "hex": "7,6", "tile": "straight"}, "missing_field"),
    ]:
        assert refused(table(), 0, move, MalformedMove).code == code


def test_twenty_ownership_markers() -> None:
    # Twenty one-tile links out of the cities, added while each adds a link of its own.
    board: list[dict[str, Any]] = []
    for city in MAP.city_at:
        for edge, other in enumerate(NEIGHBOURS[city]):
            if len(board) == 20 or other is None or TERRAIN[other] in ("lake", "city"):
                continue
            for rotation in (opposite(edge), (opposite(edge) - 2) % 6):
                candidate = [*board, tile(other, "gentle_curve", rotation, 0)]
                try:
                    state = table(board=candidate)
                except AssertionError:
                    continue
                if len(network(MAP, state.board, state.new_cities).owned(0)) == len(candidate):
                    board = candidate
                    break
    state = table(board=board, cash=[30, 10, 10])
    assert len(network(MAP, state.board, state.new_cities).owned(0)) == 20
    used = {b["hex"] for b in board}
    moves = [
        {"type": "build", "hex": other, "tile": "straight", "rotation": edge % 3}
        for city in MAP.city_at
        for edge, other in enumerate(NEIGHBOURS[city])
        if other is not None and other not in used and TERRAIN[other] not in ("lake", "city")
    ]
    codes = set()
    for move in moves:
        try:
            DECIDER.decide(state, 0, move, None)  # type: ignore[arg-type]
        except RuleError as error:
            codes.add(getattr(error, "code", ""))
        else:
            raise AssertionError(f"{move} was accepted with every marker in use")
    assert "no_ownership_markers" in codes
    # What stays legal extends the links already owned.
    for move in [m for m in DECIDER.legal_moves(state, 0) if m["type"] == "build"]:
        after, _ = play(state, 0, move)
        assert len(network(MAP, after.board, after.new_cities).owned(0)) <= 20


# --- ownership over time ----------------------------------------------------------------------


def test_completed_links_are_owned_and_untouched_when_the_turn_ends() -> None:
    state = table(board=[tile("7,4", "straight", 0, 0)])
    state, _ = build(state, 0, MILWAUKEE, "town_1", 3)
    net = network(MAP, state.board, state.new_cities)
    assert [link.complete for link in net.owned(0)] == [True]
    state, events = play(state, 0, {"type": "end_build"})
    assert "TrackAbandoned" not in kinds(events) and owners_on(state, "7,4") == (0,)


def test_unextended_incomplete_track_loses_its_owner_at_the_end_of_the_next_build_turn() -> None:
    # 7,6 was built in an earlier turn: this build turn is its last chance.
    state = table(board=[tile("7,6", "straight", 0, 0)])
    state, events = play(state, 0, {"type": "end_build"})
    lost = of_kind(events, "TrackAbandoned")[0].data
    assert lost["seat"] == 0 and lost["segments"] == [["7,6", 0]]
    assert owners_on(state, "7,6") == (None,)


def test_incomplete_track_built_this_turn_or_extended_stays_owned() -> None:
    state = table(board=[tile("7,6", "straight", 0, 0)])
    state, _ = build(state, 0, "7,7", "straight", 0)
    state, _ = build(state, 0, "1,1", "straight", 0)
    state, events = play(state, 0, {"type": "end_build"})
    assert "TrackAbandoned" not in kinds(events)
    assert owners_on(state, "7,6") == (0,) and owners_on(state, "1,1") == (0,)


def test_a_redirect_alone_does_not_save_incomplete_track() -> None:
    state = table(board=[tile("7,6", "straight", 0, 0)])
    state, _ = build(state, 0, "7,6", "gentle_curve", 0)
    state, events = play(state, 0, {"type": "end_build"})
    assert of_kind(events, "TrackAbandoned") and owners_on(state, "7,6") == (None,)


def test_unowned_track_is_taken_by_the_player_who_extends_it() -> None:
    state = table(board=[tile("7,6", "straight", 0, None)], queue=[1, 0, 2], built=[0, 1])
    state, data = build(state, 1, "7,7", "straight", 0)
    assert data["taken"] == [["7,6", 0]]
    assert owners_on(state, "7,6") == (1,) and owners_on(state, "7,7") == (1,)


def test_a_first_tile_may_not_start_from_unowned_track() -> None:
    state = table(board=[tile("7,6", "straight", 0, None)], queue=[1, 0, 2])
    error = refused(state, 1, {"type": "build", "hex": "7,7", "tile": "straight", "rotation": 0})
    assert error.code == "not_connected" and "first tile" in error.message
    state, _ = build(state, 1, "6,6", "straight", 1)
    assert state.seats[1].built


def test_unowned_track_may_be_redirected_and_is_taken() -> None:
    state = table(board=[tile("7,6", "straight", 0, None)], queue=[2, 0, 1], built=[2])
    state, data = build(state, 2, "7,6", "gentle_curve", 0)
    assert data["owners"] == [2] and data["kind"] == "redirect"


def test_legal_builds_are_all_accepted_as_listed() -> None:
    state = table(board=[tile("7,6", "straight", 0, 0), tile("7,4", "straight", 0, 1), tile("8,6", "sharp_curve", 4, None)])
    moves = DECIDER.legal_moves(state, 0)
    assert moves[-1] == {"type": "end_build"}
    builds = [m for m in moves if m["type"] == "build"]
    assert builds and all(m["cost"] >= 2 for m in builds)
    assert {"type": "build", "hex": "7,7", "tile": "straight", "rotation": 0, "cost": 2} in builds
    assert not any(m["hex"] == "7,4" for m in builds)  # seat 1's complete-able track is not seat 0's
    for move in builds:
        play(state, 0, move)


def test_the_build_phase_passes_to_the_next_builder_then_to_moving_goods() -> None:
    state = table(order=[0, 1, 2], queue=[2])
    state, events = play(state, 2, {"type": "end_build"})
    assert state.phase == MOVE and kinds(events)[-1] == "PhaseBegan"
    assert state.queue == (0, 1, 2, 0, 1, 2)
    state = table(order=[0, 1, 2], queue=[0, 1, 2])
    state, events = play(state, 0, {"type": "end_build"})
    assert state.phase == BUILD and events[-1].kind == "BuildTurnBegan" and events[-1].data["seat"] == 1


def test_first_build_and_first_move_go_first() -> None:
    state = table(phase="actions", order=[0, 1, 2], queue=[2], actions={"first_build": 1, "first_move": 2})
    state, _ = play(state, 2, {"type": "select_action", "action": "engineer"})
    assert state.queue == (1, 0, 2)
    for seat in (1, 0, 2):
        state, _ = play(state, seat, {"type": "end_build"})
    assert state.queue == (2, 0, 1, 2, 0, 1)
