"""What a Railway Boom content pack holds, as immutable objects the rules read.

Every number here comes from a pack (`docs/railway_boom-content.md`); the rules never
hard-code a card, a tile or a hex. `pack.py` reads and validates the files into these.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

RESOURCES = ("money", "materials", "technology", "coal")
"""The four resources that are spent, bid and converted (VP never is: R1)."""
TRACKS = (*RESOURCES, "vp")
"""The five income tracks and the five kinds of resource tile (R1)."""
TERRAINS = ("plain", "forest", "mountain", "river", "sea")
ANY = "any"
"""A goal card's "?" resource (R12)."""

# The vocabulary of card effects (R22). Each type is implemented once, in `effects.py`.
GAIN_RESOURCE = "gain_resource"
GAIN_VP = "gain_vp"
RAISE_INCOME = "raise_income"
FREE_RAILS = "free_rails"
EXTRA_POWER = "extra_power"
FREE_CAR_RUN = "free_car_run"
VP_PER_RAIL_ON_TERRAIN = "vp_per_rail_on_terrain"
DRAW_TWO_BUY_ONE = "draw_two_buy_one"
TRAIN_TILE_BONUS = "train_tile_bonus"
EFFECT_TYPES = (GAIN_RESOURCE, GAIN_VP, RAISE_INCOME, FREE_RAILS, EXTRA_POWER, FREE_CAR_RUN,
                VP_PER_RAIL_ON_TERRAIN, DRAW_TWO_BUY_ONE, TRAIN_TILE_BONUS)
CHOSEN = "chosen"
"""`raise_income` of a track its owner chooses when it acts."""
CHOICE_FREE = (GAIN_RESOURCE, GAIN_VP, RAISE_INCOME, EXTRA_POWER)
"""Effects that never ask their owner anything: the only ones trains, tourist tiles and
income icons may carry (a train's effects resolve after its runs were sealed)."""

IMMEDIATE, AUTOMATIC, ONCE_PER_ROUND = "immediate", "automatic", "once_per_round"
TIMINGS = {
    IMMEDIATE: (GAIN_RESOURCE, GAIN_VP, RAISE_INCOME, FREE_RAILS, DRAW_TWO_BUY_ONE),
    AUTOMATIC: (VP_PER_RAIL_ON_TERRAIN, TRAIN_TILE_BONUS),
    ONCE_PER_ROUND: (EXTRA_POWER, FREE_CAR_RUN),
}
"""Which effect types each kind of development card may carry."""

# Goal conditions (R30).
RAILS_ON_TERRAIN = "rails_on_terrain"
TERRAINS_REACHED = "terrains_reached"
DEVELOPMENT_CARDS = "development_cards"
TRAIN_CARDS = "train_cards"
INCOME_LEVEL = "income_level"
LONGEST_STRAIGHT = "longest_straight"
SHARED_HEXES = "shared_hexes"
CONDITIONS = (RAILS_ON_TERRAIN, TERRAINS_REACHED, DEVELOPMENT_CARDS, TRAIN_CARDS, INCOME_LEVEL,
              LONGEST_STRAIGHT, SHARED_HEXES)

FULL, HALF, NOTHING = "full", "half", "none"
PAYMENTS = (FULL, HALF, NOTHING)


@dataclass(frozen=True)
class Effect:
    type: str
    amount: int = 1
    resource: str = ""
    """For gain_resource a resource; for raise_income a track or `chosen`."""
    terrain: str = ""


@dataclass(frozen=True)
class Hex:
    id: str
    q: int
    r: int
    terrain: str
    power: int
    city: str = ""
    """"" (none), "normal" or "tourist"."""
    first_game_tile: str = ""
    """The normal city tile this space holds in a first game (R4)."""


@dataclass(frozen=True)
class CityTile:
    id: str
    kind: str
    """"normal" or "tourist"."""
    resource: str = ""
    """A normal tile's income track and resource-tile kind."""
    power: int = 0
    effect: Effect | None = None
    """A tourist tile's effect."""


@dataclass(frozen=True)
class TrainCard:
    id: str
    kind: str
    """"starting", "locomotive" or "car"."""
    cost: int
    coal: int
    vp: int
    slots: int
    effect: Effect | None = None
    colour: str = ""
    """A starting locomotive's colour."""


@dataclass(frozen=True)
class StationCard:
    id: str
    number: int
    city: str


@dataclass(frozen=True)
class DevelopmentCard:
    id: str
    timing: str
    price: int
    effect: Effect


@dataclass(frozen=True)
class Goal:
    id: str
    resource: str
    """The resource bid for it, or `any` (R12)."""
    condition: str
    multipliers: tuple[int, ...]
    """The multiplier spaces, highest first."""
    blocked: Mapping[int, tuple[int, ...]]
    """Player count -> the spaces (indexes) a blocking cube covers (setup step 6)."""
    terrain: str = ""
    track: str = ""
    per: int = 1


@dataclass(frozen=True)
class Route:
    id: str
    ends: tuple[str, str]
    hexes: tuple[str, ...]


@dataclass(frozen=True)
class Level:
    plus: int
    icon: Effect | None = None


@dataclass(frozen=True)
class Content:
    hexes: Mapping[str, Hex]
    income: Mapping[str, tuple[Level, ...]]
    """Track -> its levels 1..L (index 0 is level 1)."""
    start_resources: int
    bid_track_max: int
    priority: Mapping[int, tuple[str, ...]]
    """Player count -> the payment of each rank (R10)."""
    resource_max: int | None
    tiles_per_kind: int
    rails: int
    stations: int
    cubes: int
    city_tiles: Mapping[str, CityTile]
    trains: Mapping[str, TrainCard]
    station_cards: Mapping[str, StationCard]
    developments: Mapping[str, DevelopmentCard]
    goals: Mapping[str, Goal]
    routes: Mapping[str, Route]
    adjacent: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Hex -> its neighbours on the board (sea included)."""

    def starting(self) -> tuple[TrainCard, ...]:
        return tuple(card for card in self.trains.values() if card.kind == "starting")

    def of_kind(self, kind: str) -> tuple[str, ...]:
        return tuple(card.id for card in self.trains.values() if card.kind == kind)


DIRECTIONS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
"""Axial hex neighbours; the first three are the three axes of a straight run (R30)."""


def adjacency(hexes: Mapping[str, Hex]) -> dict[str, tuple[str, ...]]:
    at = {(h.q, h.r): h.id for h in hexes.values()}
    return {h.id: tuple(at[(h.q + dq, h.r + dr)] for dq, dr in DIRECTIONS if (h.q + dq, h.r + dr) in at)
            for h in hexes.values()}
