"""Reading and checking a Railway Boom content pack (`docs/railway_boom-content.md`).

Every problem is noted with the file, the entry and what is wrong, and checking goes on,
so a pack's author sees all of them at once (`domain/core/content.py`).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Collection
from typing import Any

from domain.core.content import Entry, Reader, frozen_map
from domain.railway_boom.content import (
    ANY,
    CHOICE_FREE,
    CHOSEN,
    CONDITIONS,
    EFFECT_TYPES,
    IMMEDIATE,
    INCOME_LEVEL,
    PAYMENTS,
    RAILS_ON_TERRAIN,
    RESOURCES,
    TERRAINS,
    TIMINGS,
    TRACKS,
    CityTile,
    Content,
    DevelopmentCard,
    Effect,
    Goal,
    Hex,
    Level,
    Route,
    StationCard,
    TrainCard,
    adjacency,
)

FILES = ("board.json", "tracks.json", "city_tiles.json", "trains.json", "stations.json", "developments.json",
         "goals.json", "routes.json")
PLAYER_COUNTS = (2, 3, 4)


def effect(entry: Entry, key: str, allowed: tuple[str, ...], optional: bool = False, chosen: bool = False) -> Effect | None:
    """The effect under `key`, checked against the vocabulary (R22) and what this card may carry."""
    if key not in entry.value and optional:
        return None
    raw = entry.mapping(key)
    if not raw:
        return None
    kind = raw.get("type")
    if kind not in EFFECT_TYPES:
        entry.problem(f"effect type {json.dumps(kind)} is not one of {', '.join(EFFECT_TYPES)}")
        return None
    if kind not in allowed:
        entry.problem(f"effect type {kind!r} is not allowed here (allowed: {', '.join(allowed)})")
        return None
    unknown = set(raw) - {"type", "amount", "resource", "terrain"}
    if unknown:
        entry.problem(f"effect has no field {', '.join(sorted(unknown))}")
    amount = raw.get("amount", 1)
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
        entry.problem(f"effect amount {json.dumps(amount)} must be a whole number of at least 1")
        amount = 1
    resource, terrain = raw.get("resource", ""), raw.get("terrain", "")
    if kind == "gain_resource" and resource not in RESOURCES:
        entry.problem(f"gain_resource needs a resource, one of {', '.join(RESOURCES)}, not {json.dumps(resource)}")
    if kind == "raise_income":
        choices = (*TRACKS, CHOSEN) if chosen else TRACKS
        if resource not in choices:
            entry.problem(f"raise_income needs a track, one of {', '.join(choices)}, not {json.dumps(resource)}")
    if kind == "vp_per_rail_on_terrain" and terrain not in TERRAINS[:-1]:
        entry.problem(f"vp_per_rail_on_terrain needs a land terrain, not {json.dumps(terrain)}")
    return Effect(kind, amount, resource or "", terrain or "")


def _board(reader: Reader) -> dict[str, Hex]:
    hexes: dict[str, Hex] = {}
    board = reader.entry("board.json", "board")
    if board is None:
        return hexes
    seen: dict[tuple[int, int], str] = {}
    raw = board.value.get("hexes")
    if not isinstance(raw, list):
        board.problem("\"hexes\" must be a list of hexes")
        return hexes
    for index, value in enumerate(raw):
        name = value.get("id") if isinstance(value, dict) else None
        entry = Entry(reader, "board.json", f"hex {json.dumps(name) if name else index + 1}",
                      value if isinstance(value, dict) else {})
        hex_id = entry.text("id")
        q, r = entry.integer("q"), entry.integer("r")
        terrain = entry.text("terrain", TERRAINS, "terrain")
        power = entry.integer("power", 0, 9)
        city = entry.text("city", ("", "normal", "tourist"), "city") if "city" in entry.value else ""
        if city and terrain == "sea":
            entry.problem("a city cannot be at sea")
        tile = entry.text("first_game_tile") if city == "normal" else ""
        if hex_id in hexes:
            entry.problem("duplicate id (each hex needs its own)")
        elif (q, r) in seen:
            entry.problem(f"q {q}, r {r} is already hex {seen[(q, r)]!r}")
        elif entry.ok:
            seen[(q, r)] = hex_id
            hexes[hex_id] = Hex(hex_id, q, r, terrain, power, city, tile)
    return hexes


def _tracks(reader: Reader) -> dict[str, Any]:
    out: dict[str, Any] = {"income": {}, "priority": {}}
    entry = reader.entry("tracks.json", "tracks")
    if entry is None:
        return out
    income = entry.mapping("income")
    for track in TRACKS:
        levels = income.get(track)
        if not isinstance(levels, list) or not levels:
            entry.problem(f"income track {track!r} must be a non-empty list of levels")
            continue
        parsed = []
        for number, level in enumerate(levels, start=1):
            sub = Entry(reader, "tracks.json", f"income {track} level {number}", level if isinstance(level, dict) else {})
            parsed.append(Level(sub.integer("plus", 0, 99), effect(sub, "icon", CHOICE_FREE, optional=True)))
        out["income"][track] = tuple(parsed)
    for extra in set(income) - set(TRACKS):
        entry.problem(f"{extra!r} is not an income track ({', '.join(TRACKS)})")
    priority = entry.mapping("priority")
    for count in PLAYER_COUNTS:
        row = priority.get(str(count))
        if not isinstance(row, list) or len(row) != count or any(p not in PAYMENTS for p in row):
            entry.problem(f"priority for {count} players must list {count} payments, each one of {', '.join(PAYMENTS)}")
            continue
        out["priority"][count] = tuple(row)
    out["start_resources"] = entry.integer("start_resources", 0, 99)
    out["bid_track_max"] = entry.integer("bid_track_max", 1, 99)
    out["resource_max"] = entry.integer("resource_max", 1, 999) if "resource_max" in entry.value else None
    out["tiles_per_kind"] = entry.integer("tiles_per_kind", 0, 99)
    out["rails"] = entry.integer("rails", 1, 99)
    out["stations"] = entry.integer("stations", 1, 9)
    out["cubes"] = entry.integer("cubes", 4, 99)
    return out


def _city_tiles(reader: Reader) -> dict[str, CityTile]:
    out = {}
    for entry in reader.entries("city_tiles.json", "tile"):
        kind = entry.text("kind", ("normal", "tourist"), "kind")
        if kind == "normal":
            tile = CityTile(entry.value["id"], kind, entry.text("resource", TRACKS, "resource"), entry.integer("power", 0, 20))
        else:
            tile = CityTile(entry.value["id"], kind, effect=effect(entry, "effect", CHOICE_FREE))
        if entry.ok:
            out[tile.id] = tile
    return out


def _trains(reader: Reader) -> dict[str, TrainCard]:
    out = {}
    for entry in reader.entries("trains.json", "train card"):
        kind = entry.text("kind", ("starting", "locomotive", "car"), "kind")
        card = TrainCard(entry.value["id"], kind, entry.integer("cost", 0, 30), entry.integer("coal", 0, 9),
                         entry.integer("vp", 0, 20), entry.integer("slots", 0, 4),
                         effect(entry, "effect", CHOICE_FREE, optional=True),
                         entry.text("colour") if kind == "starting" else "")
        if entry.ok:
            out[card.id] = card
    colours = [card.colour for card in out.values() if card.kind == "starting"]
    if len(set(colours)) < max(PLAYER_COUNTS) or len(colours) != len(set(colours)):
        reader.problem("trains.json", None, f"needs {max(PLAYER_COUNTS)} starting locomotives of different colours")
    return out


def _stations(reader: Reader, hexes: dict[str, Hex]) -> dict[str, StationCard]:
    out: dict[str, StationCard] = {}
    numbers: dict[int, str] = {}
    cities: dict[str, str] = {}
    for entry in reader.entries("stations.json", "station card"):
        card = StationCard(entry.value["id"], entry.integer("number", 1, 999), entry.text("city"))
        if hexes and (card.city not in hexes or hexes[card.city].city != "normal"):
            entry.problem(f"city {card.city!r} is not a normal city space of the board (R3)")
        elif card.number in numbers:
            entry.problem(f"number {card.number} is already card {numbers[card.number]!r} (R3)")
        elif card.city in cities:
            entry.problem(f"city {card.city!r} is already named by card {cities[card.city]!r} (R3)")
        elif entry.ok:
            numbers[card.number], cities[card.city] = card.id, card.id
            out[card.id] = card
    return out


def _developments(reader: Reader) -> dict[str, DevelopmentCard]:
    out = {}
    for entry in reader.entries("developments.json", "development card"):
        timing = entry.text("timing", tuple(TIMINGS), "timing")
        found = effect(entry, "effect", TIMINGS.get(timing, ()), chosen=timing == IMMEDIATE)
        card = DevelopmentCard(entry.value["id"], timing, entry.integer("price", 0, 30), found or Effect("gain_vp"))
        if entry.ok and found is not None:
            out[card.id] = card
    return out


def _goals(reader: Reader) -> dict[str, Goal]:
    out = {}
    for entry in reader.entries("goals.json", "goal"):
        resource = entry.text("resource", (*RESOURCES, ANY), "resource")
        condition = entry.text("condition", CONDITIONS, "condition")
        terrain = entry.text("terrain", TERRAINS[:-1], "terrain") if condition == RAILS_ON_TERRAIN else ""
        track = entry.text("track", TRACKS, "track") if condition == INCOME_LEVEL else ""
        per = entry.integer("per", 1, 9) if "per" in entry.value else 1
        multipliers = entry.value.get("multipliers")
        if (not isinstance(multipliers, list) or len(multipliers) < 2 or any(not isinstance(m, int) or m < 1 for m in multipliers)
                or multipliers != sorted(multipliers, reverse=True)):
            entry.problem("\"multipliers\" must be at least 2 whole numbers from 1 up, highest first")
            multipliers = [1, 1]
        blocked: dict[int, tuple[int, ...]] = {}
        raw = entry.mapping("blocked")
        for count, covers in ((2, 2), (3, 1)):
            spaces = raw.get(str(count))
            if (not isinstance(spaces, list) or len(spaces) != covers or len(set(spaces)) != covers
                    or any(not isinstance(s, int) or not 0 <= s < len(multipliers) for s in spaces)):
                entry.problem(f"blocked for {count} players must list {covers} different space(s) of its multipliers")
                continue
            blocked[count] = tuple(spaces)
        blocked[4] = ()
        goal = Goal(entry.value["id"], resource, condition, tuple(multipliers), frozen_map(blocked.items()), terrain, track, per)
        if entry.ok:
            out[goal.id] = goal
    return out


def _routes(reader: Reader, hexes: dict[str, Hex], adjacent: dict[str, tuple[str, ...]]) -> dict[str, Route]:
    out = {}
    for entry in reader.entries("routes.json", "route"):
        ends, chain = entry.strings("ends"), entry.strings("hexes")
        if len(ends) != 2 or len(chain) < 2:
            entry.problem("a route needs 2 \"ends\" and a chain of at least 2 \"hexes\"")
            continue
        for end in ends:
            if end not in hexes or not hexes[end].city:
                entry.problem(f"end {end!r} is not a city of the board")
        for a, b in itertools.pairwise(chain):
            if a not in hexes or b not in hexes:
                entry.problem(f"hex {(a if a not in hexes else b)!r} is not on the board")
            elif b not in adjacent[a]:
                entry.problem(f"hexes {a!r} and {b!r} are not adjacent (R37)")
        if any(h in hexes and hexes[h].terrain == "sea" for h in chain):
            entry.problem("a route cannot cross the sea (R37)")
        if {chain[0], chain[-1]} != set(ends):
            entry.problem("the chain must start and end on the route's two ends (R37)")
        if entry.ok:
            out[entry.value["id"]] = Route(entry.value["id"], (ends[0], ends[1]), chain)
    return out


def _counts(reader: Reader, hexes: dict[str, Hex], tiles: dict[str, CityTile], goals: dict[str, Goal]) -> None:
    for kind in ("normal", "tourist"):
        spaces = sum(1 for h in hexes.values() if h.city == kind)
        dealt = sum(1 for t in tiles.values() if t.kind == kind)
        if dealt < spaces:
            reader.problem("city_tiles.json", None, f"{dealt} {kind} tiles cannot cover the board's {spaces} {kind} city spaces")
    used: dict[str, str] = {}
    for h in hexes.values():
        if h.city != "normal":
            continue
        tile = tiles.get(h.first_game_tile)
        if tile is None or tile.kind != "normal":
            reader.problem("board.json", f"hex {h.id!r}", f"first_game_tile {h.first_game_tile!r} is not a normal city tile (R4)")
        elif h.first_game_tile in used:
            reader.problem("board.json", f"hex {h.id!r}",
                           f"first_game_tile {h.first_game_tile!r} is already on {used[h.first_game_tile]!r}")
        else:
            used[h.first_game_tile] = h.id
    if len(goals) < 4:
        reader.problem("goals.json", None, f"needs at least 4 goal cards (one per round), not {len(goals)}")


class RailwayBoomSchema:
    game = "railway_boom"
    files = FILES

    def nameable(self, content: Content) -> dict[str, Collection[str]]:
        """The cities (hexes holding one) and each kind of card, by id."""
        return {"cities": tuple(h.id for h in content.hexes.values() if h.city), "trains": tuple(content.trains),
                "developments": tuple(content.developments), "stations": tuple(content.station_cards),
                "goals": tuple(content.goals), "routes": tuple(content.routes), "city_tiles": tuple(content.city_tiles)}

    def load(self, reader: Reader) -> Content | None:
        hexes = _board(reader)
        adjacent = adjacency(hexes)
        tracks = _tracks(reader)
        tiles, trains = _city_tiles(reader), _trains(reader)
        stations, developments = _stations(reader, hexes), _developments(reader)
        goals, routes = _goals(reader), _routes(reader, hexes, adjacent)
        _counts(reader, hexes, tiles, goals)
        if len(routes) < 4:
            reader.problem("routes.json", None, f"needs at least 4 route cards, not {len(routes)}")
        stations_needed = max(PLAYER_COUNTS) * 5
        if len(stations) < stations_needed:
            reader.problem("stations.json", None, f"needs at least {stations_needed} station cards, not {len(stations)}")
        if reader.problems:
            return None
        return Content(
            hexes=frozen_map(hexes.items()), income=frozen_map(tracks["income"].items()),
            start_resources=tracks["start_resources"], bid_track_max=tracks["bid_track_max"],
            priority=frozen_map(tracks["priority"].items()), resource_max=tracks["resource_max"],
            tiles_per_kind=tracks["tiles_per_kind"], rails=tracks["rails"], stations=tracks["stations"],
            cubes=tracks["cubes"], city_tiles=frozen_map(tiles.items()), trains=frozen_map(trains.items()),
            station_cards=frozen_map(stations.items()), developments=frozen_map(developments.items()),
            goals=frozen_map(goals.items()), routes=frozen_map(routes.items()), adjacent=frozen_map(adjacent.items()))


SCHEMA = RailwayBoomSchema()
