"""An Age of Steam map as a content pack declares it: hexes and terrain, towns, cities, the
new-city tiles, the goods bag and the starting supplies, read from the pack's files and checked
on load into a `board.Map`.

The rules (rulesets 1 and 2) play one map, the Rust Belt as printed: a pack is accepted for a
game only when its map is exactly that one (`check_playable`, by the fingerprint of its
content), so the shipped pack `rust_belt` pins Age of Steam games to a digest like any other
pack, and a pack that changes the map is refused rather than played under rules written for
another.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection

from domain.age_of_steam.board import City, Hex, Map, NewCity
from domain.core.canonical import canonical
from domain.core.codec import encode
from domain.core.content import Entry, Reader, frozen_map
from domain.core.errors import RecordError

FILES = ("hexes.json", "cities.json", "new_cities.json", "goods.json", "rules.json")
TERRAINS = ("plain", "river", "mountain", "lake", "city")
GROUPS = ("light", "dark")
_RULES = ("start_money", "start_shares", "start_income", "start_locomotive", "town_discs", "ownership_markers")

PRINTED_RUST_BELT = "3fb0c4d883f9d0e0841a9a598fb86b33b07d6dc5391f0426c1adb0572154a167"
"""The fingerprint of the Rust Belt as printed, the one map the rulesets play."""


def fingerprint(content: Map) -> str:
    """SHA-256 of a map's content in canonical JSON: equal for equal maps, whatever the files'
    formatting or the pack's manifest."""
    return hashlib.sha256(canonical(encode(content))).hexdigest()


def check_playable(pack_id: str, content: Map) -> None:
    """Refuse a map the rules cannot play (they play only the printed Rust Belt)."""
    if fingerprint(content) != PRINTED_RUST_BELT:
        raise RecordError("content_unplayable", f"Age of Steam plays only the Rust Belt map as printed; "
                          f"pack {pack_id!r} holds another map.", 1)


class MapSchema:
    """`hexes.json` (array of `{col, row, terrain, town?}`), `cities.json` (array of `{name,
    col, row, colour, group, number, starting_cubes}`), `new_cities.json` (array of `{letter,
    colour, group, die}`), `goods.json` (`{"bag": {colour: cubes}}`), `rules.json` (the
    starting supplies)."""

    game = "age_of_steam"
    files = FILES

    def nameable(self, content: Map) -> dict[str, Collection[str]]:
        """The cities and towns, by the names the records use."""
        return {"cities": tuple(c.name for c in content.cities), "towns": tuple(content.towns.values())}

    def load(self, reader: Reader) -> Map:
        goods = reader.entry("goods.json", "goods")
        bag = {}
        if goods is not None:
            for colour, count in goods.mapping("bag").items():
                if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                    goods.problem(f"bag: {colour!r}: {count!r} is not a whole number of cubes")
                else:
                    bag[colour] = count
        colours = tuple(sorted(bag)) or None
        hexes = self._hexes(reader)
        at = {(h.col, h.row): h for h in hexes}
        cities = []
        numbers: set[tuple[str, int]] = set()
        for entry in reader.entries("cities.json", "city", key="name"):
            city = City(entry.value["name"], entry.integer("col", 0), entry.integer("row", 0),
                        entry.text("colour", colours, "goods colour"), entry.text("group", GROUPS),
                        entry.integer("number", 1, 6), entry.integer("starting_cubes", 0))
            if entry.ok and at.get((city.col, city.row), Hex(0, 0, "", None)).terrain != "city":
                entry.problem(f"hex {city.col},{city.row} is not a city hex in hexes.json")
            if entry.ok and (city.group, city.number) in numbers:
                entry.problem(f"number {city.number} is already a {city.group} city's")
            numbers.add((city.group, city.number))
            cities.append(city)
        new_cities = []
        for entry in reader.entries("new_cities.json", "new city", key="letter"):
            new_cities.append(NewCity(entry.value["letter"], entry.text("colour", colours, "goods colour"),
                                      entry.text("group", GROUPS), entry.integer("die", 1, 6)))
        rules = reader.entry("rules.json", "rules")
        supplies = {name: rules.integer(name, 0) for name in _RULES} if rules is not None else {}
        return Map(hexes, tuple(cities), tuple(new_cities), frozen_map(sorted(bag.items())),
                   frozen_map((name, supplies[name]) for name in _RULES if name in supplies))

    def _hexes(self, reader: Reader) -> tuple[Hex, ...]:
        out: list[Hex] = []
        seen: set[tuple[int, int]] = set()
        towns: set[str] = set()
        for index, value in enumerate(reader.json("hexes.json") or ()):
            if not isinstance(value, dict):
                reader.problem("hexes.json", f"entry {index + 1}", "must be a JSON object")
                continue
            label = f"hex {value.get('col')},{value.get('row')}"
            entry = Entry(reader, "hexes.json", label, value)
            town = value.get("town")
            hex_ = Hex(entry.integer("col", 0), entry.integer("row", 0), entry.text("terrain", TERRAINS), town)
            if town is not None and (not isinstance(town, str) or not town):
                entry.problem("\"town\" must be a town's name")
            elif town is not None and town in towns:
                entry.problem(f"town {town!r} is already on another hex")
            if entry.ok and (hex_.col, hex_.row) in seen:
                entry.problem("duplicate hex")
                continue
            seen.add((hex_.col, hex_.row))
            if town:
                towns.add(town)
            out.append(hex_)
        return tuple(out)


SCHEMA = MapSchema()
