"""The content pack: the reference pack respects every count of the rules page, and each
kind of broken pack is refused with a message naming the file, the entry and the problem."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from domain.core.content import ContentError, load
from domain.railway_boom.content import TRACKS
from domain.railway_boom.pack import SCHEMA

REFERENCE = Path(__file__).parents[3] / "domain" / "railway_boom" / "packs" / "reference"


def files() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in REFERENCE.iterdir()}


def loaded(changed: dict[str, bytes] | None = None) -> Any:
    return load({**files(), **(changed or {})}, lambda game: SCHEMA, "mine").content


def edit(name: str, change: Callable[[Any], None]) -> dict[str, bytes]:
    value = json.loads(files()[name])
    change(value)
    return {name: json.dumps(value).encode()}


def refused(changed: dict[str, bytes]) -> str:
    with pytest.raises(ContentError) as caught:
        loaded(changed)
    return str(caught.value)


def test_the_reference_pack_respects_every_count_of_the_rules_page() -> None:
    content = loaded()
    kinds = Counter(card.kind for card in content.trains.values())
    assert kinds == {"starting": 4, "locomotive": 22, "car": 30}
    assert len(content.station_cards) == 36 and len(content.developments) == 74
    assert len(content.goals) == 18 and len(content.routes) == 7
    tiles = Counter(tile.kind for tile in content.city_tiles.values())
    assert tiles == {"normal": 36, "tourist": 14}
    cities = Counter(h.city for h in content.hexes.values() if h.city)
    assert cities == {"normal": 36, "tourist": 14}
    assert content.tiles_per_kind * len(TRACKS) == 100
    assert (content.rails, content.stations, content.cubes) == (30, 4, 23)
    assert all(5 <= len(route.hexes) <= 9 for route in content.routes.values())
    assert {card.timing for card in content.developments.values()} == {"immediate", "automatic", "once_per_round"}


def test_the_manifest_says_it_is_the_projects_own_content() -> None:
    manifest = json.loads(files()["pack.json"])
    assert "not the publisher" in manifest["project_reference"] or "no card" in manifest["project_reference"]


def test_a_missing_file_is_named() -> None:
    whole = files()
    del whole["goals.json"]
    with pytest.raises(ContentError, match=r"mine/goals\.json: missing"):
        load(whole, lambda game: SCHEMA, "mine")


def test_a_file_that_is_not_json_is_named_with_its_line() -> None:
    assert "mine/routes.json: line 1, column 2: not JSON" in refused({"routes.json": b"{oops"})


def test_a_city_at_sea_is_refused() -> None:
    def change(board: Any) -> None:
        board["hexes"][0].update(terrain="sea", city="tourist")
    assert "board.json: hex \"A1\": a city cannot be at sea" in refused(edit("board.json", change))


def test_two_station_cards_with_one_number_are_refused() -> None:
    def change(cards: Any) -> None:
        cards[1]["number"] = cards[0]["number"]
    message = refused(edit("stations.json", change))
    assert "stations.json: station card" in message and "is already card" in message and "(R3)" in message


def test_a_station_card_must_name_a_normal_city() -> None:
    def change(cards: Any) -> None:
        cards[0]["city"] = "A1"
    assert "city 'A1' is not a normal city space of the board (R3)" in refused(edit("stations.json", change))


def test_an_unknown_effect_type_is_refused() -> None:
    def change(cards: Any) -> None:
        cards[0]["effect"] = {"type": "teleport"}
    message = refused(edit("developments.json", change))
    assert "developments.json: development card \"D01\": effect type \"teleport\" is not one of" in message


def test_an_effect_a_card_kind_may_not_carry_is_refused() -> None:
    def change(cards: Any) -> None:
        cards[0]["timing"] = "automatic"
    assert "effect type 'gain_resource' is not allowed here" in refused(edit("developments.json", change))


def test_a_train_may_not_ask_for_a_choice() -> None:
    def change(cards: Any) -> None:
        cards[4]["effect"] = {"type": "raise_income", "resource": "chosen"}
    assert "raise_income needs a track" in refused(edit("trains.json", change))


def test_a_route_must_be_a_chain_of_adjacent_land_hexes_between_its_ends() -> None:
    def change(routes: Any) -> None:
        routes[0]["hexes"] = [routes[0]["hexes"][0], "L1", routes[0]["hexes"][-1]]
    message = refused(edit("routes.json", change))
    assert "routes.json: route \"R1\": hexes" in message and "are not adjacent (R37)" in message


def test_the_priority_table_needs_a_payment_per_rank() -> None:
    def change(tracks: Any) -> None:
        tracks["priority"]["3"] = ["full", "none"]
    assert "priority for 3 players must list 3 payments" in refused(edit("tracks.json", change))


def test_goal_cards_must_mark_their_blocked_spaces() -> None:
    def change(goals: Any) -> None:
        goals[0]["blocked"] = {"2": [1], "3": [2]}
    assert "goals.json: goal \"G01\": blocked for 2 players must list 2 different space(s)" in refused(edit("goals.json", change))


def test_too_few_city_tiles_for_the_spaces_are_refused() -> None:
    def change(tiles: Any) -> None:
        del tiles[-1]
    assert "13 tourist tiles cannot cover the board's 14 tourist city spaces" in refused(edit("city_tiles.json", change))


def test_every_problem_is_reported_at_once() -> None:
    def stations(cards: Any) -> None:
        cards[0]["city"] = "A1"

    def routes(items: Any) -> None:
        items[0]["ends"] = ["A1"]
    message = refused({**edit("stations.json", stations), **edit("routes.json", routes)})
    assert "stations.json" in message and "routes.json" in message
