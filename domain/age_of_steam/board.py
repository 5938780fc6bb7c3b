"""The map a game is played on, as its content pack declares it (`packs/rust_belt`), with what
the rules ask of it (neighbours, cities by hex, the goods display's columns), and the printed
constants that belong to the rules rather than to a map.

The rules never import a map: the decider is bound to a pack (`AgeOfSteam.with_pack`) and hands
its `Map` to every rule that needs one. A map's lookups are derived once, on first use, so the
adjacency asked for on every move costs a dictionary look-up.

A hex is named `"col,row"` (odd-q offset coordinates: odd columns sit half a hex lower; `"0,10"`
is Kansas City on the Rust Belt).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from domain.age_of_steam.tiles import opposite

PLAIN = "plain"
RIVER = "river"
MOUNTAIN = "mountain"
LAKE = "lake"
CITY = "city"

LIGHT = "light"
DARK = "dark"
MAX_SHARES = 15
SHARE_PRICE = 5
MAX_LOCOMOTIVE = 6
BUILDS_PER_TURN = 3
ENGINEER_BUILDS = 4
TURNS_BY_PLAYERS: dict[int, int] = {3: 10, 4: 8, 5: 7, 6: 6}

TERRAIN_COST: dict[str, int] = {PLAIN: 2, RIVER: 3, MOUNTAIN: 4}
"""A new simple tile by terrain; a coexisting complex tile costs $1 more, a crossing $2 more."""
COMPLEX_EXTRA: dict[str, int] = {"simple": 0, "coexisting": 1, "crossing": 2}
UPGRADE_TO_CROSSING = 3
TOWN_UPGRADE = 3
REDIRECT = 2
TOWN_BASE = 1
"""A new town costs $1 plus $1 per exit, whatever the terrain."""

# Edges clockwise from the north, as in `tiles`.
_EVEN = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_ODD = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))
EDGE_NAMES = ("N", "NE", "SE", "S", "SW", "NW")

NUMBERED_SPACES = 3
LETTERED_SPACES = 2
"""The goods display: a column per city number on each half (3 spaces each) and one per
new-city letter (2 spaces each) under the numbered column whose die feeds it."""


def hex_id(col: int, row: int) -> str:
    return f"{col},{row}"


@dataclass(frozen=True)
class Hex:
    col: int
    row: int
    terrain: str
    town: str | None


@dataclass(frozen=True)
class City:
    name: str
    col: int
    row: int
    colour: str
    group: str
    number: int
    starting_cubes: int

    @property
    def hex(self) -> str:
        return hex_id(self.col, self.row)


@dataclass(frozen=True)
class NewCity:
    letter: str
    colour: str
    group: str
    die: int


@dataclass(frozen=True)
class Map:
    """One map, immutable; compared by value (its declared parts, not the lookups)."""

    hexes: tuple[Hex, ...]
    cities: tuple[City, ...]
    new_cities: tuple[NewCity, ...]
    bag: Mapping[str, int]
    rules: Mapping[str, int]
    """The starting supplies: `start_money`, `start_shares`, `start_income`,
    `start_locomotive`, `town_discs`, `ownership_markers`."""

    # --- the supplies -------------------------------------------------------------------

    @property
    def start_money(self) -> int:
        return self.rules["start_money"]

    @property
    def start_shares(self) -> int:
        return self.rules["start_shares"]

    @property
    def start_locomotive(self) -> int:
        return self.rules["start_locomotive"]

    @property
    def town_discs(self) -> int:
        return self.rules["town_discs"]

    @property
    def ownership_markers(self) -> int:
        return self.rules["ownership_markers"]

    @cached_property
    def colours(self) -> tuple[str, ...]:
        """Goods colours in canonical (sorted) order: the order the bag is drawn from."""
        return tuple(sorted(self.bag))

    # --- hexes --------------------------------------------------------------------------

    @cached_property
    def terrain(self) -> dict[str, str]:
        return {hex_id(h.col, h.row): h.terrain for h in self.hexes}

    @cached_property
    def towns(self) -> dict[str, str]:
        """Town hex -> town name."""
        return {hex_id(h.col, h.row): h.town for h in self.hexes if h.town}

    @cached_property
    def neighbours(self) -> dict[str, tuple[str | None, ...]]:
        """Hex -> the hex beyond each edge 0..5, None off the board."""
        out: dict[str, tuple[str | None, ...]] = {}
        for hex_ in self.terrain:
            col, row = map(int, hex_.split(","))
            beyond = [hex_id(col + dc, row + dr) for dc, dr in (_ODD if col % 2 else _EVEN)]
            out[hex_] = tuple(other if other in self.terrain else None for other in beyond)
        for hex_, around in out.items():
            for edge, other in enumerate(around):
                assert other is None or out[other][opposite(edge)] == hex_
        return out

    @cached_property
    def city_at(self) -> dict[str, City]:
        """Printed city hex -> its city."""
        return {city.hex: city for city in self.cities}

    @cached_property
    def city_by_name(self) -> dict[str, str]:
        return {city.name: city.hex for city in self.cities}

    @cached_property
    def new_city(self) -> dict[str, NewCity]:
        """New-city letter -> its tile."""
        return {tile.letter: tile for tile in self.new_cities}

    # The playout bot builds towards somewhere: these say how far that is.

    @cached_property
    def distance_to_stop(self) -> dict[str, int]:
        """Steps from each hex to the nearest printed city or town over buildable hexes."""
        return self._distances([h for h in self.terrain if h in self.city_at or h in self.towns])

    @cached_property
    def distance_from_city(self) -> dict[str, dict[str, int]]:
        """Printed city hex -> steps from it to each hex over buildable hexes."""
        return {city: self._distances([city]) for city in self.terrain if city in self.city_at}

    def _distances(self, targets: list[str]) -> dict[str, int]:
        dist = dict.fromkeys(targets, 0)
        frontier = list(targets)
        while frontier:
            nxt = []
            for h in frontier:
                for n in self.neighbours[h]:
                    if n is not None and n not in dist and self.terrain[n] != LAKE:
                        dist[n] = dist[h] + 1
                        nxt.append(n)
            frontier = nxt
        return dist

    # --- the goods display --------------------------------------------------------------

    @cached_property
    def column_spaces(self) -> dict[str, int]:
        """Display column (L1-L6, D1-D6, then the new-city letters) -> its spaces."""
        numbered = [f"{half[0].upper()}{n}" for half in (LIGHT, DARK) for n in range(1, 7)]
        return {**dict.fromkeys(numbered, NUMBERED_SPACES), **dict.fromkeys(self.new_city, LETTERED_SPACES)}

    @cached_property
    def display_fill_order(self) -> tuple[tuple[str, int], ...]:
        # "One space at a time from the top left": row by row, left to right, with the lettered
        # spaces as the two rows under the numbered columns.
        numbered = [c for c, n in self.column_spaces.items() if n == NUMBERED_SPACES]
        order = [(column, row) for row in range(NUMBERED_SPACES) for column in numbered]
        return (*order, *((letter, row) for row in range(LETTERED_SPACES) for letter in self.new_city))

    @cached_property
    def letter_of_die(self) -> dict[tuple[str, int], str]:
        """(half, die face) -> the new-city letter that face also feeds."""
        return {(tile.group, tile.die): tile.letter for tile in self.new_cities}

    @cached_property
    def city_of_number(self) -> dict[tuple[str, int], str]:
        """(half, number) -> printed city hex."""
        return {(city.group, city.number): city.hex for city in self.cities}

    def column_city(self, column: str, new_cities: Mapping[str, str]) -> str | None:
        """The hex a display column's goods go to, None while its new city is off the map."""
        if column in self.new_city:
            return next((hex_ for hex_, letter in new_cities.items() if letter == column), None)
        group = LIGHT if column[0] == "L" else DARK
        return self.city_of_number[(group, int(column[1:]))]

    # --- cities as the game stands ------------------------------------------------------

    def is_city(self, hex_: str, new_cities: Mapping[str, str]) -> bool:
        return hex_ in self.city_at or hex_ in new_cities

    def city_colour(self, hex_: str, new_cities: Mapping[str, str]) -> str | None:
        if hex_ in self.city_at:
            return self.city_at[hex_].colour
        letter = new_cities.get(hex_)
        return self.new_city[letter].colour if letter else None

    def place_name(self, hex_: str, new_cities: Mapping[str, str]) -> str:
        """How a player names a hex: the city or town on it, else its coordinates."""
        if hex_ in self.city_at:
            return self.city_at[hex_].name
        if hex_ in new_cities:
            return f"new city {new_cities[hex_]} ({self.towns[hex_]})"
        if hex_ in self.towns:
            return self.towns[hex_]
        return f"hex {hex_}"
