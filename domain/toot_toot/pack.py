"""Reading and checking a Toot-Toot Train content pack (docs/toot_toot-content.md).

Every problem is noted on the reader with the file, the entry and what is wrong, and
checking goes on, so a broken pack is refused with all its problems at once (R28)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from domain.core.content import Entry, Reader, frozen_map
from domain.toot_toot.content import (
    CITY,
    FACTORY,
    OPEN,
    SITE,
    WATERWAY,
    Ability,
    Building,
    Content,
    Good,
    Map,
    Order,
    PlayerCard,
    Recipe,
    Start,
)
from domain.toot_toot.hexes import Hex, hex_id, neighbour, opp, segment

FILES = ("goods.json", "orders.json", "players.json", "score.json", "maps.json")
EFFECTS = {"max": "good", "space": "", "order": "", "shovel": "", "plus": "good", "waterway": "",
           "double": "", "sell": "colour", "extra_turn": "", "pairs": "", "colour_scoring": "colour"}
"""Each ability effect, and what it names (a good, a colour or nothing)."""
TERRAIN = {".": "plain", "#": "blocked"}
STARTS = 8
SEATS = 4
MIN_ORDERS = 2 * SEATS + 1


class TootSchema:
    game = "toot_toot"
    files = FILES

    def nameable(self, content: Content) -> dict[str, Collection[str]]:
        """Maps, goods, factory kinds, city colours, buildings (by id, on any map), player
        cards, their recipes and their abilities (upgrades)."""
        return {
            "maps": tuple(m.id for m in content.maps), "goods": tuple(g.id for g in content.goods),
            "factories": content.factories, "colours": content.colours,
            "buildings": {b.id for m in content.maps for b in m.buildings},
            "players": tuple(c.id for c in content.cards), "recipes": {r.id for c in content.cards for r in c.recipes},
            "abilities": {a.id for c in content.cards for a in c.abilities},
        }

    def load(self, reader: Reader) -> Content | None:
        goods, factories, colours = _goods(reader)
        known = {g.id for g in goods}
        orders = tuple(_order(e, known, colours) for e in reader.entries("orders.json", "order"))
        if len(orders) < MIN_ORDERS:
            reader.problem("orders.json", None, f"a pack needs at least {MIN_ORDERS} order cards (a secret one per seat "
                           f"and 5 public ones for 4 seats), not {len(orders)}")
        cards = tuple(_card(e, known, factories, colours) for e in reader.entries("players.json", "player card"))
        if len(cards) < SEATS:
            reader.problem("players.json", None, f"a pack needs {SEATS} player cards (one per seat), not {len(cards)}")
        gears = _gears(reader)
        maps = tuple(_map(e, {g.id for g in goods if g.basic}, factories, colours)
                     for e in reader.entries("maps.json", "map"))
        if not maps:
            reader.problem("maps.json", None, "a pack needs at least one map")
        if reader.problems:
            return None
        return Content(goods, factories, colours, orders, cards, gears, maps)


def _goods(reader: Reader) -> tuple[tuple[Good, ...], tuple[str, ...], tuple[str, ...]]:
    entry = reader.entry("goods.json", "")
    if entry is None:
        return (), (), ()
    goods = []
    for index, raw in enumerate(entry.value.get("goods") or ()):
        item = Entry(reader, "goods.json", f"good {raw.get('id', index + 1) if isinstance(raw, dict) else index + 1}",
                     raw if isinstance(raw, dict) else {})
        supply = item.integer("supply", 0, 999) if "supply" in item.value else None
        goods.append(Good(item.text("id"), item.boolean("basic"), item.integer("value", 0, 99), supply))
    if not goods:
        entry.problem("\"goods\" must list at least one good")
    if len({g.id for g in goods}) != len(goods):
        entry.problem("two goods share an id")
    return tuple(goods), entry.strings("factories"), entry.strings("colours")


def _order(entry: Entry, goods: set[str], colours: tuple[str, ...]) -> Order:
    colour = entry.text("colour", colours, "colour")
    icons = entry.strings("icons")
    if not icons:
        entry.problem("\"icons\" must list at least one good")
    for icon in icons:
        if icon not in goods:
            entry.problem(f"icon {icon!r} is not a good of goods.json")
    return Order(entry.value["id"], colour, icons)


def _counts(entry: Entry, key: str, where: str, goods: set[str]) -> dict[str, int]:
    counts = entry.mapping(key) if key in entry.value else {}
    for good, count in counts.items():
        if good not in goods:
            entry.problem(f"{where}: {key} names {good!r}, which is not a good of goods.json")
        elif not isinstance(count, int) or isinstance(count, bool) or count < 1:
            entry.problem(f"{where}: {key} {good} must be a whole number of at least 1")
    if not counts:
        entry.problem(f"{where}: \"{key}\" must name at least one good")
    return counts


def _card(entry: Entry, goods: set[str], factories: tuple[str, ...], colours: tuple[str, ...]) -> PlayerCard:
    recipes = []
    for raw in entry.value.get("recipes") or ():
        sub = Entry(entry.reader, entry.file, f"{entry.label}, recipe {raw.get('id') if isinstance(raw, dict) else raw!r}",
                    raw if isinstance(raw, dict) else {})
        recipes.append(Recipe(sub.text("id"), sub.text("factory", factories, "factory"),
                              frozen_map(_counts(sub, "inputs", "recipe", goods).items()),
                              frozen_map(_counts(sub, "outputs", "recipe", goods).items())))
        entry.ok = entry.ok and sub.ok
    abilities = []
    for raw in entry.value.get("abilities") or ():
        sub = Entry(entry.reader, entry.file, f"{entry.label}, ability {raw.get('id') if isinstance(raw, dict) else raw!r}",
                    raw if isinstance(raw, dict) else {})
        effect = sub.text("effect", sorted(EFFECTS), "effect")
        names = EFFECTS.get(effect, "")
        good = sub.text("good", sorted(goods), "good") if names == "good" else ""
        colour = sub.text("colour", colours, "colour") if names == "colour" else ""
        abilities.append(Ability(sub.text("id"), effect, sub.integer("column", 1, 4), sub.integer("slots", 1, 9),
                                 good, colour))
    thresholds = tuple(entry.value.get("thresholds") or ())
    if len(thresholds) != 4 or not all(isinstance(t, int) and t >= 0 for t in thresholds) or list(thresholds) != sorted(thresholds):
        entry.problem("\"thresholds\" must be 4 rising whole numbers (tokens needed before columns 1 to 4)")
        thresholds = (0, 0, 0, 0)
    if len({r.id for r in recipes}) != len(recipes) or len({a.id for a in abilities}) != len(abilities):
        entry.problem("two recipes or two abilities share an id")
    return PlayerCard(entry.value["id"], entry.integer("storage", 1, 20), tuple(recipes), tuple(abilities),
                      (thresholds[0], thresholds[1], thresholds[2], thresholds[3]))


def _gears(reader: Reader) -> tuple[int, ...]:
    entry = reader.entry("score.json", "")
    if entry is None:
        return ()
    gears = entry.value.get("gears")
    if not isinstance(gears, list) or not all(isinstance(g, int) and not isinstance(g, bool) and g > 0 for g in gears) \
            or gears != sorted(set(gears)):
        entry.problem("\"gears\" must be a list of rising score spaces above 0")
        return ()
    return tuple(gears)


def _terrain(entry: Entry) -> dict[Hex, str]:
    terrain: dict[Hex, str] = {}
    for row, line in enumerate(entry.strings("rows")):
        for col, char in enumerate(line):
            if char == " ":
                continue
            if char not in TERRAIN:
                entry.problem(f"row {row}, column {col}: {char!r} is not a hex (use \".\" plain, \"#\" blocked, \" \" none)")
                continue
            terrain[hex_id(col, row)] = TERRAIN[char]
    if not terrain:
        entry.problem("\"rows\" must draw at least one hex")
    return terrain


def _side(text: Any) -> tuple[Hex, int] | None:
    if not isinstance(text, str) or "/" not in text:
        return None
    hex_, _, edge = text.partition("/")
    if not edge.isdigit() or int(edge) > 5:
        return None
    return hex_, int(edge)


def _building(entry: Entry, raw: Any, terrain: dict[Hex, str], taken: dict[Hex, str],
              basics: set[str], factories: tuple[str, ...], colours: tuple[str, ...]) -> Building | None:
    name = raw.get("id") if isinstance(raw, dict) else None
    sub = Entry(entry.reader, entry.file, f"{entry.label}, building {name!r}", raw if isinstance(raw, dict) else {})
    kind = sub.text("kind", (SITE, CITY, FACTORY), "kind")
    hexes = sub.strings("hexes")
    for h in hexes:
        if terrain.get(h) != "plain":
            sub.problem(f"hex {h} is {'blocked' if h in terrain else 'not on the map'}; a building stands on plain hexes")
        elif h in taken:
            sub.problem(f"hex {h} is already building {taken[h]!r}")
        else:
            taken[h] = str(name)
    if not hexes:
        sub.problem("\"hexes\" must list at least one hex")
    sides: dict[str, str] = {}
    for side_type in (OPEN, WATERWAY):
        for text in sub.value.get(side_type) or ():
            side = _side(text)
            if side is None or side[0] not in hexes or neighbour(*side) in hexes:
                sub.problem(f"{side_type} side {text!r} is not an outer side \"hex/edge\" of this building")
            else:
                sides[f"{side[0]}/{side[1]}"] = side_type
    good = sub.text("good", sorted(basics), "good") if kind == SITE else ""
    colour = sub.text("colour", colours, "colour") if kind == CITY else ""
    factory = sub.text("factory", factories, "factory") if kind == FACTORY else ""
    facing = [neighbour(*side) for key, t in sides.items() if t == OPEN and (side := _side(key)) is not None]
    if hexes and not any(terrain.get(h) == "plain" and h not in taken for h in facing):
        sub.problem("no open side faces a plain hex without a building, so no train could ever use it")
    entry.ok = entry.ok and sub.ok
    return Building(str(name), kind, hexes, frozen_map(sides.items()), good, colour, factory) if sub.ok else None


def _map(entry: Entry, basics: set[str], factories: tuple[str, ...], colours: tuple[str, ...]) -> Map:
    orientation = entry.text("orientation", ("pointy", "flat"), "orientation")
    terrain = _terrain(entry)
    taken: dict[Hex, str] = {}
    raws = entry.value.get("buildings")
    if not isinstance(raws, list) or not raws:
        entry.problem("\"buildings\" must list the map's sites and cities")
        raws = []
    built = [_building(entry, raw, terrain, taken, basics, factories, colours) for raw in raws]
    buildings = tuple(b for b in built if b is not None)
    if len({b.id for b in buildings}) != len(buildings):
        entry.problem("two buildings share an id")
    for colour in colours:
        if not any(b.colour == colour for b in buildings):
            entry.problem(f"no city of colour {colour!r}, so its orders could never be sold")
    starts: list[Start] = []
    for index, raw in enumerate(entry.value.get("starts") or ()):
        sub = Entry(entry.reader, entry.file, f"{entry.label}, start {index + 1}", raw if isinstance(raw, dict) else {})
        start = Start(sub.text("hex"), sub.integer("facing", 0, 5))
        if terrain.get(start.hex) != "plain" or start.hex in taken:
            sub.problem(f"hex {start.hex} is not a plain hex without a building (R28)")
        elif terrain.get(neighbour(start.hex, start.facing)) != "plain" or neighbour(start.hex, start.facing) in taken:
            sub.problem(f"facing edge {start.facing} points off the map, into blocked terrain or into a building; a start points inwards")
        if any(s.hex == start.hex for s in starts):
            sub.problem(f"hex {start.hex} holds two start positions")
        starts.append(start)
        entry.ok = entry.ok and sub.ok
    if len(starts) != STARTS:
        entry.problem(f"a map has {STARTS} start positions, not {len(starts)}")
    track = {s.hex: (segment(opp(s.facing), s.facing),) for s in starts}
    return Map(entry.value["id"], entry.text("title"), orientation, frozen_map(terrain.items()), buildings,
               tuple(starts), frozen_map(track.items()))
