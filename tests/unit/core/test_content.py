"""Content packs are validated on load: every problem is reported, each naming the file,
the entry and what is wrong; a pack's digest covers its files' names and bytes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain import games
from domain.core import content
from domain.core.content import ContentError

USA = Path(__file__).resolve().parents[3] / "domain" / "ticket_to_ride" / "packs" / "usa"


def usa_files() -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in USA.iterdir() if path.suffix == ".json"}


def load(files: dict[str, bytes]) -> content.Pack:
    return content.load(files, games.schema, label="usa")


def problems(files: dict[str, bytes]) -> list[str]:
    with pytest.raises(ContentError) as caught:
        load(files)
    assert caught.value.problems, "a refused pack names its problems"
    return list(caught.value.problems)


def edited(file: str, change: Any) -> dict[str, bytes]:
    files = usa_files()
    data = json.loads(files[file])
    change(data)
    files[file] = json.dumps(data).encode()
    return files


def route(data: list[dict[str, Any]], route_id: str) -> dict[str, Any]:
    return next(r for r in data if r["id"] == route_id)


def test_the_shipped_usa_pack_loads() -> None:
    pack = load(usa_files())
    assert (pack.id, pack.game, pack.manifest.version) == ("usa", "ticket_to_ride", "1")
    assert len(pack.content.routes) == 100 and len(pack.content.tickets) == 30 and len(pack.content.cities) == 36
    assert pack.manifest.project_reference and pack.manifest.licence


def test_the_content_object_is_immutable() -> None:
    board = load(usa_files()).content
    with pytest.raises(TypeError):
        board.routes["Denver|Omaha"] = None
    with pytest.raises(AttributeError):
        board.cities = ()


def test_a_missing_file_is_named() -> None:
    files = usa_files()
    del files["tickets.json"]
    assert "usa/tickets.json: missing (the game needs this file; list it in pack.json)" in problems(files)


def test_bad_json_is_reported_with_its_line() -> None:
    files = usa_files()
    files["routes.json"] = b'[\n  {"id": "A|B",\n   "a": "Atlanta"\n   "b": "Boston"}\n]\n'
    assert problems(files) == ["usa/routes.json: line 4, column 4: not JSON: Expecting ',' delimiter"]


def test_an_unknown_city_in_a_route_is_named() -> None:
    files = edited("routes.json", lambda data: route(data, "Atlanta|Miami").update(b="Atlantis"))
    assert problems(files) == ['usa/routes.json: route "Atlanta|Miami": unknown city "Atlantis"']


def test_a_route_length_out_of_range() -> None:
    files = edited("routes.json", lambda data: route(data, "Denver|Omaha").update(length=0))
    assert 'usa/routes.json: route "Denver|Omaha": length 0 is not between 1 and 6' in problems(files)


def test_a_duplicate_id_is_named() -> None:
    files = edited("tickets.json", lambda data: data.append(dict(data[0])))
    assert problems(files) == ['usa/tickets.json: ticket "Denver|El Paso": duplicate id (each ticket needs its own)']


def test_a_wrong_type_is_named() -> None:
    files = edited("routes.json", lambda data: route(data, "Denver|Omaha").update(length="four"))
    assert problems(files) == ['usa/routes.json: route "Denver|Omaha": "length" must be a whole number, not "four"']


def test_every_problem_is_reported_at_once() -> None:
    def break_routes(data: list[dict[str, Any]]) -> None:
        route(data, "Denver|Omaha").update(length=9)
        route(data, "Atlanta|Miami").update(color="purple")
    files = edited("routes.json", break_routes)
    files["cities.json"] = b'"not a list"'
    found = problems(files)
    assert "usa/cities.json: must be a JSON array, not string" in found
    assert any(p.startswith('usa/routes.json: route "Denver|Omaha": length 9') for p in found)
    assert any(p.startswith('usa/routes.json: route "Atlanta|Miami": colour "purple" is not one of') for p in found)


def test_a_manifest_must_name_the_files_the_game_needs() -> None:
    files = edited("pack.json", lambda data: data["files"].remove("cards.json"))
    assert problems(files) == ['usa/pack.json: "files" must list cards.json (ticket_to_ride packs hold '
                               "cities.json, routes.json, tickets.json, cards.json, rules.json)"]


def test_a_manifest_for_an_unknown_game() -> None:
    files = edited("pack.json", lambda data: data.update(game="chess"))
    assert problems(files) == ["usa/pack.json: game 'chess' is not a game that reads content packs"]


def test_a_manifest_with_a_missing_field() -> None:
    files = edited("pack.json", lambda data: data.pop("version"))
    assert problems(files) == ['usa/pack.json: "version" is missing']


def test_the_digest_covers_names_and_bytes() -> None:
    files = {name: data for name, data in usa_files().items() if name != content.NAMES}
    assert load(files).sha256 == content.digest(files)
    assert content.digest(files) == content.digest(dict(reversed(list(files.items()))))
    changed = dict(files, **{"rules.json": files["rules.json"] + b" "})
    assert content.digest(changed) != content.digest(files)
    moved = {"a": b"xy", "b": b""}
    assert content.digest(moved) != content.digest({"a": b"x", "b": b"y"})
    renamed = {"c": b"xy", "b": b""}
    assert content.digest(renamed) != content.digest(moved)


def test_a_file_not_listed_is_not_part_of_the_pack() -> None:
    files = usa_files()
    assert load({**files, "README.md": b"notes"}).sha256 == load(files).sha256


def test_names_in_several_languages_are_read_beside_the_pack() -> None:
    pack = load(usa_files())
    assert pack.names["cities"]["Saint Louis"] == {"th": "เซนต์หลุยส์", "zh-TW": "聖路易"}
    assert set(pack.names["cities"]) == set(pack.content.cities)


def test_names_are_no_part_of_the_digest() -> None:
    """A pack's names may be added or corrected after games are played with it: the games
    still bind to it, as its rules' data are unchanged."""
    files = usa_files()
    without = {name: data for name, data in files.items() if name != content.NAMES}
    renamed = edited(content.NAMES, lambda data: data["cities"]["Denver"].update(th="เดนเวอร์ (โคโลราโด)"))
    assert load(files).sha256 == load(without).sha256 == load(renamed).sha256
    assert load(without).names == {}


def test_wrong_names_are_each_named() -> None:
    def break_names(data: dict[str, Any]) -> None:
        data["cities"]["Atlantis"] = {"th": "แอตแลนติส"}
        data["cities"]["Denver"] = {"Thai": "เดนเวอร์", "zh-TW": ""}
        data["cities"]["Omaha"] = {}
        data["routes"] = {}
    found = problems(edited(content.NAMES, break_names))
    assert sorted(found) == [
        'usa/names.json: cities "Atlantis": is not one of the pack\'s cities',
        'usa/names.json: cities "Denver": \'Thai\' is not a language tag ("en", "th", "zh-TW")',
        'usa/names.json: cities "Denver": the zh-TW name must be a non-empty string',
        'usa/names.json: cities "Omaha": must be a JSON object of language tag -> name, with one name at least',
        "usa/names.json: routes names: 'routes' is not a kind of name this game reads (it reads: cities)",
    ]


RUST_BELT = USA.parents[2] / "age_of_steam" / "packs" / "rust_belt"


def rust_belt_files() -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in RUST_BELT.iterdir() if path.suffix == ".json"}


def test_the_shipped_rust_belt_pack_is_the_map_the_rules_play() -> None:
    from domain.age_of_steam.content import PRINTED_RUST_BELT, fingerprint

    pack = content.load(rust_belt_files(), games.schema, label="rust_belt")
    assert (pack.id, pack.game) == ("rust_belt", "age_of_steam")
    assert fingerprint(pack.content) == PRINTED_RUST_BELT
    assert len(pack.content.hexes) == 189 and len(pack.content.cities) == 12 and len(pack.content.new_cities) == 8


def test_rust_belt_problems_are_named() -> None:
    files = rust_belt_files()
    cities = json.loads(files["cities.json"])
    cities[0]["col"] = 1  # Kansas City off its city hex
    cities[1]["colour"] = "green"
    hexes = json.loads(files["hexes.json"])
    hexes.append(dict(hexes[0]))
    files["cities.json"], files["hexes.json"] = json.dumps(cities).encode(), json.dumps(hexes).encode()
    with pytest.raises(ContentError) as caught:
        content.load(files, games.schema, label="rust_belt")
    assert list(caught.value.problems) == [
        "rust_belt/hexes.json: hex 0,0: duplicate hex",
        'rust_belt/cities.json: city "Kansas City": hex 1,10 is not a city hex in hexes.json',
        'rust_belt/cities.json: city "Minneapolis": goods colour "green" is not one of black, blue, purple, red, yellow',
    ]


def test_age_of_steam_refuses_a_map_its_rules_cannot_play() -> None:
    from domain.age_of_steam import AgeOfSteam
    from domain.core.decider import Unbound
    from domain.core.errors import RecordError

    files = rust_belt_files()
    rules = json.loads(files["rules.json"])
    files["rules.json"] = json.dumps({**rules, "start_money": 20}).encode()
    pack = content.load(files, games.schema, label="rust_belt")
    with pytest.raises(RecordError) as refused:
        Unbound(AgeOfSteam).with_pack(pack)
    assert refused.value.code == "content_unplayable" and "'rust_belt'" in refused.value.message
