"""What a Toot-Toot Train content pack holds, once loaded: goods, factory kinds, order
cards, player cards, the score track's gears and the maps (docs/toot_toot-content.md).
All immutable; the loader (`pack.py`) builds and checks them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from domain.toot_toot.hexes import Hex, Segment, neighbour

OPEN, WATERWAY, CLOSED = "open", "waterway", "closed"
SITE, CITY, FACTORY = "site", "city", "factory"


@dataclass(frozen=True)
class Good:
    id: str
    basic: bool
    value: int
    supply: int | None = None
    """How many tokens of it the box holds; used only with the option `goods_supply` (R11)."""


@dataclass(frozen=True)
class Order:
    id: str
    colour: str
    icons: tuple[str, ...]
    """One good per icon: each icon wants one unit."""


@dataclass(frozen=True)
class Recipe:
    id: str
    factory: str
    inputs: Mapping[str, int]
    outputs: Mapping[str, int]


@dataclass(frozen=True)
class Ability:
    id: str
    effect: str
    """max, space, order, shovel, plus, waterway, double, sell, extra_turn, pairs, colour_scoring."""
    column: int
    """1 to 4."""
    slots: int
    """1 for an O ability, more for a □ ability."""
    good: str = ""
    """The resource of `max`, the processed good of `plus`."""
    colour: str = ""
    """The city colour of `sell` and `colour_scoring`."""


@dataclass(frozen=True)
class PlayerCard:
    id: str
    storage: int
    recipes: tuple[Recipe, ...]
    abilities: tuple[Ability, ...]
    thresholds: tuple[int, int, int, int]
    """Tokens already needed in the earlier columns before one goes in column 1..4 (R17)."""

    @cached_property
    def ability(self) -> Mapping[str, Ability]:
        return {a.id: a for a in self.abilities}

    @cached_property
    def recipe(self) -> Mapping[str, Recipe]:
        return {r.id: r for r in self.recipes}


@dataclass(frozen=True)
class Building:
    """A resource site, a city or a printed factory; a drawn factory is made the same way."""

    id: str
    kind: str
    hexes: tuple[Hex, ...]
    sides: Mapping[str, str]
    """`"hex/edge"` of each outer side -> open, waterway or closed."""
    good: str = ""
    """The resource a site gives."""
    colour: str = ""
    """A city's colour."""
    factory: str = ""
    """A factory's kind."""

    def side(self, hex_: Hex, edge: int) -> str:
        return self.sides.get(f"{hex_}/{edge}", CLOSED)


@dataclass(frozen=True)
class Start:
    hex: Hex
    facing: int


@dataclass(frozen=True)
class Map:
    id: str
    title: str
    orientation: str
    terrain: Mapping[Hex, str]
    """Every on-map hex -> "plain" or "blocked" (forest, lake)."""
    buildings: tuple[Building, ...]
    starts: tuple[Start, ...]
    track: Mapping[Hex, tuple[Segment, ...]]
    """The printed railway: one straight segment under each start."""

    @cached_property
    def building_at(self) -> Mapping[Hex, Building]:
        return {h: b for b in self.buildings for h in b.hexes}

    @cached_property
    def building(self) -> Mapping[str, Building]:
        return {b.id: b for b in self.buildings}

    def trackable(self, hex_: Hex) -> bool:
        """On the map, not blocked, no printed building (R9; drawn factories aside)."""
        return self.terrain.get(hex_) == "plain" and hex_ not in self.building_at

    def on_map(self, hex_: Hex) -> bool:
        return hex_ in self.terrain


@dataclass(frozen=True)
class Content:
    goods: tuple[Good, ...]
    factories: tuple[str, ...]
    colours: tuple[str, ...]
    orders: tuple[Order, ...]
    cards: tuple[PlayerCard, ...]
    gears: tuple[int, ...]
    maps: tuple[Map, ...]

    @cached_property
    def good(self) -> Mapping[str, Good]:
        return {g.id: g for g in self.goods}

    @cached_property
    def order(self) -> Mapping[str, Order]:
        return {o.id: o for o in self.orders}

    @cached_property
    def map(self) -> Mapping[str, Map]:
        return {m.id: m for m in self.maps}

    @cached_property
    def card(self) -> Mapping[str, PlayerCard]:
        return {c.id: c for c in self.cards}

    @property
    def basics(self) -> tuple[str, ...]:
        return tuple(g.id for g in self.goods if g.basic)


def across(hex_: Hex, edge: int) -> Hex:
    """The hex a building's side `hex/edge` faces: the opening position when it is open."""
    return neighbour(hex_, edge)
