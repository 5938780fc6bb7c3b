"""The Rust Belt board: hex ids, neighbours, terrain, cities, towns, new-city tiles, the goods
display, and the printed constants. Built once at import from `rust_belt`, so the adjacency the
rules ask for on every move costs a dictionary look-up.

A hex is named `"col,row"` (the reference's odd-q offset coordinates, `"0,10"` is Kansas City).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.age_of_steam import rust_belt
from domain.age_of_steam.content import NewCity
from domain.age_of_steam.tiles import opposite

PLAIN = "plain"
RIVER = "river"
MOUNTAIN = "mountain"
LAKE = "lake"
CITY = "city"

LIGHT = "light"
DARK = "dark"
COLOURS: tuple[str, ...] = ("black", "blue", "purple", "red", "yellow")
"""Goods colours in canonical (sorted) order: the order the bag is drawn from."""
BAG: dict[str, int] = dict(rust_belt.GOODS_BAG)
CUBES = sum(BAG.values())

START_MONEY = rust_belt.START_MONEY
START_SHARES = rust_belt.START_SHARES
START_LOCOMOTIVE = rust_belt.START_LOCOMOTIVE
TOWN_DISCS = rust_belt.TOWN_DISCS
OWNERSHIP_MARKERS = rust_belt.OWNERSHIP_MARKERS
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


def hex_id(col: int, row: int) -> str:
    return f"{col},{row}"


TERRAIN: dict[str, str] = {hex_id(c, r): terrain for c, r, terrain, _ in rust_belt.HEXES}
HEXES: tuple[str, ...] = tuple(TERRAIN)
TOWNS: dict[str, str] = {hex_id(c, r): name for c, r, _, name in rust_belt.HEXES if name}
"""Town hex -> town name."""


def _neighbours(hex_: str) -> tuple[str | None, ...]:
    col, row = map(int, hex_.split(","))
    deltas = _ODD if col % 2 else _EVEN
    out: list[str | None] = []
    for dc, dr in deltas:
        other = hex_id(col + dc, row + dr)
        out.append(other if other in TERRAIN else None)
    return tuple(out)


NEIGHBOURS: dict[str, tuple[str | None, ...]] = {h: _neighbours(h) for h in HEXES}
"""Hex -> the hex beyond each edge 0..5, None off the board."""

for _h, _around in NEIGHBOURS.items():
    for _edge, _other in enumerate(_around):
        assert _other is None or NEIGHBOURS[_other][opposite(_edge)] == _h


@dataclass(frozen=True)
class City:
    hex: str
    name: str
    colour: str
    group: str
    number: int
    starting_cubes: int


CITIES: dict[str, City] = {
    hex_id(c, r): City(hex_id(c, r), name, colour, group, number, cubes)
    for name, c, r, colour, group, number, cubes in rust_belt.CITIES
}
CITY_BY_NAME: dict[str, str] = {city.name: h for h, city in CITIES.items()}


NEW_CITIES: dict[str, NewCity] = {letter: NewCity(letter, colour, group, die) for letter, colour, group, die in rust_belt.NEW_CITY_TILES}

# The goods display: a column per city number on each half (3 spaces each) and one per new-city
# letter (2 spaces each) under the numbered column whose die feeds it.
LIGHT_COLUMNS = tuple(f"L{n}" for n in range(1, 7))
DARK_COLUMNS = tuple(f"D{n}" for n in range(1, 7))
LETTER_COLUMNS = tuple(NEW_CITIES)
COLUMNS: tuple[str, ...] = (*LIGHT_COLUMNS, *DARK_COLUMNS, *LETTER_COLUMNS)
COLUMN_SPACES: dict[str, int] = {c: (2 if c in NEW_CITIES else 3) for c in COLUMNS}
DISPLAY_SPACES = sum(COLUMN_SPACES.values())
assert DISPLAY_SPACES == 52

LETTER_OF_DIE: dict[tuple[str, int], str] = {(nc.group, nc.die): nc.letter for nc in NEW_CITIES.values()}
"""(half, die face) -> the new-city letter that face also feeds."""
CITY_OF_NUMBER: dict[tuple[str, int], str] = {(c.group, c.number): h for h, c in CITIES.items()}
"""(half, number) -> printed city hex."""


def _fill_order() -> tuple[tuple[str, int], ...]:
    # "One space at a time from the top left": row by row, left to right, with the lettered
    # spaces as the two rows under numbered columns 3-6 (light) and 1-4 (dark).
    order: list[tuple[str, int]] = []
    for row in range(3):
        order += [(column, row) for column in (*LIGHT_COLUMNS, *DARK_COLUMNS)]
    for row in range(2):
        order += [(letter, row) for letter in LETTER_COLUMNS]
    return tuple(order)


DISPLAY_FILL_ORDER = _fill_order()


def column_city(column: str, new_cities: dict[str, str]) -> str | None:
    """The hex a display column's goods go to, None while its new city is off the map."""
    if column in NEW_CITIES:
        for hex_, letter in new_cities.items():
            if letter == column:
                return hex_
        return None
    group = LIGHT if column[0] == "L" else DARK
    return CITY_OF_NUMBER[(group, int(column[1:]))]


def is_city(hex_: str, new_cities: dict[str, str]) -> bool:
    return hex_ in CITIES or hex_ in new_cities


def city_colour(hex_: str, new_cities: dict[str, str]) -> str | None:
    if hex_ in CITIES:
        return CITIES[hex_].colour
    letter = new_cities.get(hex_)
    return NEW_CITIES[letter].colour if letter else None


def place_name(hex_: str, new_cities: dict[str, str]) -> str:
    """How a player names a hex: the city or town on it, else its coordinates."""
    if hex_ in CITIES:
        return CITIES[hex_].name
    if hex_ in new_cities:
        return f"new city {new_cities[hex_]} ({TOWNS[hex_]})"
    if hex_ in TOWNS:
        return TOWNS[hex_]
    return f"hex {hex_}"


def _distances() -> dict[str, int]:
    """Steps from each hex to the nearest printed city or town over buildable hexes; the
    playout bot uses it to build towards somewhere."""
    targets = [h for h in HEXES if h in CITIES or h in TOWNS]
    dist = dict.fromkeys(targets, 0)
    frontier = list(targets)
    while frontier:
        nxt = []
        for h in frontier:
            for n in NEIGHBOURS[h]:
                if n is not None and n not in dist and TERRAIN[n] != LAKE:
                    dist[n] = dist[h] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


DISTANCE_TO_STOP = _distances()
