"""Toot-Toot Train content packs: the reference pack loads; a user's own pack loads and a
game is played on it; each kind of broken pack is refused with a message naming the file,
the entry and what is wrong (docs/toot_toot-content.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from domain.core.content import ContentError
from domain.core.decider import Setup
from domain.core.errors import IllegalMove
from domain.core.randomness import SeededRandom
from domain.toot_toot.decider import TootToot
from tests import playouts

from .helpers import CONTENT, load, pack_files, table


def edited(file: str, change: Callable[[Any], None]) -> dict[str, bytes]:
    files = pack_files()
    data = json.loads(files[file])
    change(data)
    files[file] = json.dumps(data).encode()
    return files


def problems(files: dict[str, bytes]) -> list[str]:
    with pytest.raises(ContentError) as caught:
        load(files, label="mine")
    return list(caught.value.problems)


def harbour(data: list[dict[str, Any]]) -> dict[str, Any]:
    return next(m for m in data if m["id"] == "harbour")


def building(data: list[dict[str, Any]], building_id: str) -> dict[str, Any]:
    return next(b for b in harbour(data)["buildings"] if b["id"] == building_id)


def test_the_reference_pack_is_complete() -> None:
    assert len(CONTENT.maps) >= 3 and len(CONTENT.orders) == 36 and len(CONTENT.cards) == 4
    for colour in CONTENT.colours:
        sizes = sorted(len(o.icons) for o in CONTENT.orders if o.colour == colour)
        assert sizes == [1, 1, 1, 2, 2, 2, 2, 3, 3], colour  # R27
    assert CONTENT.gears == (2, 4, 6, 8, 11, 14, 18, 22, 26, 30)  # R16
    assert all(len(m.starts) == 8 for m in CONTENT.maps)
    manifest = json.loads(pack_files()["pack.json"])
    assert "project's own reference content" in manifest["project_reference"]


def test_a_users_own_map_pack_loads_and_is_played() -> None:
    def one_map(data: list[dict[str, Any]]) -> None:
        mine = harbour(data)
        mine["id"], mine["title"] = "my_harbour", "My harbour"
        mine["rows"][0] = "#........."
        data[:] = [mine]
    files = edited("maps.json", one_map)
    # Its names, for the one map it keeps (the reference pack's name its three maps).
    files["names.json"] = json.dumps({"maps": {"my_harbour": {"en": "My harbour", "th": "ท่าเรือของฉัน"}}}).encode()
    manifest = json.loads(files["pack.json"])
    manifest["id"] = "mine"
    files["pack.json"] = json.dumps(manifest).encode()
    pack = load(files, label="mine")
    rules = TootToot(pack)
    assert [m.id for m in rules.content.maps] == ["my_harbour"] and pack.names["maps"]["my_harbour"]["th"] == "ท่าเรือของฉัน"
    options = rules.options({"map": "my_harbour"}, 3)
    state = rules.initial_state(Setup(("a", "b", "c"), options))
    state = playouts.fold(rules, state, rules.setup(state, SeededRandom(bytes(32))))
    assert state.map == "my_harbour" and state.track.get("0,0") is None
    game = playouts.play_out(rules, "own pack", 0, 3, steer=True)
    assert rules.is_over(game.state)


@pytest.mark.parametrize(("file", "change", "expected"), [
    ("maps.json", lambda d: building(d, "green_city")["hexes"].append("4,2"),
     "mine/maps.json: map \"harbour\", building 'green_city': hex 4,2 is blocked; a building stands on plain hexes"),
    ("maps.json", lambda d: building(d, "wood_site")["open"].append("3,2/9"),
     "mine/maps.json: map \"harbour\", building 'wood_site': open side '3,2/9' is not an outer side \"hex/edge\" of this building"),
    ("maps.json", lambda d: building(d, "green_city")["open"].append("2,4/0"),
     "mine/maps.json: map \"harbour\", building 'green_city': open side '2,4/0' is not an outer side"),
    ("maps.json", lambda d: building(d, "coal_site").update(open=[], waterway=["7,2/1"]),
     "mine/maps.json: map \"harbour\", building 'coal_site': no open side faces a plain hex"),
    ("maps.json", lambda d: harbour(d)["starts"].pop(),
     "mine/maps.json: map \"harbour\": a map has 8 start positions, not 7"),
    ("maps.json", lambda d: harbour(d)["starts"][0].update(hex="0,1", facing=3),
     "mine/maps.json: map \"harbour\", start 1: facing edge 3 points off the map"),
    ("maps.json", lambda d: harbour(d)["starts"][1].update(hex="3,2"),
     "mine/maps.json: map \"harbour\", start 2: hex 3,2 is not a plain hex without a building (R28)"),
    ("maps.json", lambda d: harbour(d).update(buildings=[b for b in harbour(d)["buildings"] if b["id"] != "blue_city"]),
     "mine/maps.json: map \"harbour\": no city of colour 'blue', so its orders could never be sold"),
    ("maps.json", lambda d: harbour(d)["rows"].__setitem__(2, "..x......."),
     "mine/maps.json: map \"harbour\": row 2, column 2: 'x' is not a hex"),
    ("maps.json", lambda d: building(d, "wood_site").update(good="gold"),
     "mine/maps.json: map \"harbour\", building 'wood_site': good \"gold\" is not one of"),
    ("orders.json", lambda d: d[1].update(icons=["gold"]),
     "mine/orders.json: order \"Y2\": icon 'gold' is not a good of goods.json"),
    ("orders.json", lambda d: d[2].update(colour="purple"),
     "mine/orders.json: order \"Y3\": colour \"purple\" is not one of yellow, green, red, blue"),
    ("orders.json", lambda d: d.append(dict(d[0])),
     "mine/orders.json: order \"Y1\": duplicate id (each order needs its own)"),
    ("players.json", lambda d: d[0]["recipes"][2].update(factory="kiln"),
     "mine/players.json: player card \"card_orange\", recipe 'brick': factory \"kiln\" is not one of"),
    ("players.json", lambda d: d[0]["abilities"][0].update(column=5),
     "mine/players.json: player card \"card_orange\", ability 'max_wood': column 5 is not between 1 and 4"),
    ("players.json", lambda d: d.pop(),
     "mine/players.json: a pack needs 4 player cards (one per seat), not 3"),
    ("score.json", lambda d: d.update(gears=[4, 2]),
     "mine/score.json: \"gears\" must be a list of rising score spaces above 0"),
    ("goods.json", lambda d: d["goods"][0].update(value="one"),
     "mine/goods.json: good wood: \"value\" must be a whole number, not \"one\""),
])
def test_a_broken_pack_is_refused_saying_where_and_why(file: str, change: Callable[[Any], None], expected: str) -> None:
    found = problems(edited(file, change))
    assert any(p.startswith(expected) for p in found), found


def test_every_problem_is_reported_at_once() -> None:
    def two(data: list[dict[str, Any]]) -> None:
        harbour(data)["starts"].pop()
        building(data, "green_city")["hexes"].append("4,2")
    assert len(problems(edited("maps.json", two))) >= 2


def test_a_missing_file_and_bad_json_are_named() -> None:
    files = pack_files()
    del files["score.json"]
    assert any("mine/score.json: missing" in p for p in problems(files))
    files = pack_files()
    files["orders.json"] = b"[{\"id\": \"Y1\",,]"
    assert any(p.startswith("mine/orders.json: line 1, column") for p in problems(files))


def test_the_goods_supply_option_caps_goods_at_the_packs_counts() -> None:
    rules = TootToot(load(edited("goods.json", lambda d: d["goods"][0].update(supply=3))))
    state = table(2, trains=[("3,3", 0), ("8,2", 0)], goods=[{}, {"wood": 2}], upgrades=[{"max_wood": 1}, {}],
                  goods_supply=True)
    [taken] = rules.decide(state, 0, {"type": "take", "site": "wood_site"}, SeededRandom(bytes(32)))
    assert taken.data["count"] == 1, "3 in the box, 2 held by seat 1: 1 left"
    unlimited = table(2, trains=[("3,3", 0), ("8,2", 0)], goods=[{}, {"wood": 2}], upgrades=[{"max_wood": 1}, {}])
    assert rules.decide(unlimited, 0, {"type": "take", "site": "wood_site"}, SeededRandom(bytes(32)))[0].data["count"] == 4
    empty = table(2, trains=[("3,3", 0), ("8,2", 0)], goods=[{"wood": 1}, {"wood": 2}], goods_supply=True)
    with pytest.raises(IllegalMove) as caught:
        rules.decide(empty, 0, {"type": "take", "site": "wood_site"}, SeededRandom(bytes(32)))
    assert caught.value.code == "supply_empty"
    assert {"type": "take", "site": "wood_site"} not in rules.legal_moves(empty, 0)
