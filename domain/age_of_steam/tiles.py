"""Track tiles: the 136-tile mix, each type's track at rotation 0, and every rotation of it.

Edges of a hex are numbered clockwise from the north: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW. A
rotation `r` turns a tile clockwise by `r` edges. A track tile holds one or two *paths*, each
joining two edges; a town tile holds *exits*, each joining an edge to the town in the middle
(`TOWN`). On a town hex an ordinary tile plus a white town disc makes a town with that tile's
exits (2 for a simple tile, 4 for a complex one), so on town hexes every tile is read as exits.

Everything here is computed once at import: the distinct rotations of each type, the segments
of every (type, rotation) on plain and town hexes, and the reverse look-ups the rules and the
move listing need (which tiles give a set of paths, which give a set of town exits).
"""

from __future__ import annotations

from dataclasses import dataclass

TOWN = 6
"""The middle of a town hex, used as the second end of a town exit."""
EDGES = range(6)

SIMPLE = "simple"
CROSSING = "crossing"
COEXISTING = "coexisting"
TOWN_TILE = "town"

Path = tuple[int, int]


def opposite(edge: int) -> int:
    return (edge + 3) % 6


@dataclass(frozen=True)
class TileType:
    name: str
    kind: str
    """`simple`, `crossing` or `coexisting` (complex tiles) or `town`."""
    paths: tuple[Path, ...]
    """Track tiles: the paths at rotation 0 (empty for town tiles)."""
    exits: tuple[int, ...]
    """Town tiles: the exits at rotation 0 (empty for track tiles)."""
    stock: int
    """How many the box holds (the published mix of 136)."""


def _tile(name: str, kind: str, stock: int, paths: tuple[Path, ...] = (), exits: tuple[int, ...] = ()) -> TileType:
    return TileType(name, kind, tuple(tuple(sorted(p)) for p in paths), exits, stock)  # type: ignore[misc]


# The published mix (rules page, "Track tiles (136)"). Which of the two gentle+sharp coexisting
# tiles is "left" is a naming choice: with the gentle curve on edges 0-2, left has its sharp
# curve on 3-4 and right on 4-5; likewise the town leaners are {0,1,3} (left) and {0,1,4}.
TILE_TYPES: tuple[TileType, ...] = (
    _tile("straight", SIMPLE, 48, paths=((0, 3),)),
    _tile("gentle_curve", SIMPLE, 55, paths=((0, 2),)),
    _tile("sharp_curve", SIMPLE, 7, paths=((0, 1),)),
    _tile("x_crossing", CROSSING, 4, paths=((0, 3), (1, 4))),
    _tile("bow_and_arrow", CROSSING, 4, paths=((0, 3), (5, 1))),
    _tile("crossed_gentle_curves", CROSSING, 3, paths=((0, 2), (1, 3))),
    _tile("twin_gentle_curves", COEXISTING, 1, paths=((0, 2), (3, 5))),
    _tile("gentle_sharp_left", COEXISTING, 1, paths=((0, 2), (3, 4))),
    _tile("gentle_sharp_right", COEXISTING, 1, paths=((0, 2), (4, 5))),
    _tile("straight_sharp", COEXISTING, 1, paths=((0, 3), (1, 2))),
    _tile("town_1", TOWN_TILE, 3, exits=(0,)),
    _tile("town_3_spread", TOWN_TILE, 2, exits=(0, 2, 4)),
    _tile("town_3_left_leaner", TOWN_TILE, 2, exits=(0, 1, 3)),
    _tile("town_3_right_leaner", TOWN_TILE, 2, exits=(0, 1, 4)),
    _tile("town_3_adjacent", TOWN_TILE, 2, exits=(0, 1, 2)),
)
TILES: dict[str, TileType] = {t.name: t for t in TILE_TYPES}
MIX: dict[str, int] = {t.name: t.stock for t in TILE_TYPES}
assert sum(MIX.values()) == 136

Segment = tuple[int, int]
"""A path (edge, edge) on a track hex, or an exit (edge, TOWN) on a town hex."""


def _rotate_path(path: Path, rotation: int) -> Path:
    a, b = ((path[0] + rotation) % 6, (path[1] + rotation) % 6)
    return (a, b) if a < b else (b, a)


def paths_of(tile: str, rotation: int) -> tuple[Path, ...]:
    """A track tile's paths after rotation, sorted."""
    return tuple(sorted(_rotate_path(p, rotation) for p in TILES[tile].paths))


def exits_of(tile: str, rotation: int) -> tuple[int, ...]:
    """The edges a tile uses after rotation, sorted."""
    t = TILES[tile]
    if t.kind == TOWN_TILE:
        return tuple(sorted((e + rotation) % 6 for e in t.exits))
    return tuple(sorted(e for p in paths_of(tile, rotation) for e in p))


def _segments(tile: str, rotation: int, town: bool) -> tuple[Segment, ...]:
    if town:
        return tuple((e, TOWN) for e in exits_of(tile, rotation))
    if TILES[tile].kind == TOWN_TILE:
        return ()
    return paths_of(tile, rotation)


SEGMENTS: dict[tuple[str, int, bool], tuple[Segment, ...]] = {
    (t.name, r, town): _segments(t.name, r, town) for t in TILE_TYPES for r in EDGES for town in (False, True)
}
"""(tile, rotation, on a town hex) -> segments, in a fixed order that owners follow."""


def _distinct_rotations(tile: str) -> tuple[int, ...]:
    seen: set[tuple[int, ...] | tuple[Path, ...]] = set()
    out = []
    for r in EDGES:
        key = exits_of(tile, r) if TILES[tile].kind == TOWN_TILE else paths_of(tile, r)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return tuple(out)


DISTINCT_ROTATIONS: dict[str, tuple[int, ...]] = {t.name: _distinct_rotations(t.name) for t in TILE_TYPES}
"""The rotations of a type that lie differently (a straight has 3, a curve 6)."""

TRACK_CONFIGS: dict[frozenset[Path], tuple[tuple[str, int], ...]] = {}
"""A set of paths -> the (tile, rotation) pairs that lay exactly those paths."""
for _t in TILE_TYPES:
    if _t.kind != TOWN_TILE:
        for _r in DISTINCT_ROTATIONS[_t.name]:
            _key = frozenset(paths_of(_t.name, _r))
            TRACK_CONFIGS[_key] = (*TRACK_CONFIGS.get(_key, ()), (_t.name, _r))

TOWN_CONFIGS: dict[frozenset[int], tuple[tuple[str, int], ...]] = {}
"""A set of town exits -> the (tile, rotation) pairs that give it: a town tile for 1 or 3
exits, an ordinary tile (with a town disc) for 2 or 4."""
for _t in TILE_TYPES:
    for _r in DISTINCT_ROTATIONS[_t.name]:
        _exits = frozenset(exits_of(_t.name, _r))
        if (_t.name, _r) not in TOWN_CONFIGS.get(_exits, ()):
            TOWN_CONFIGS[_exits] = (*TOWN_CONFIGS.get(_exits, ()), (_t.name, _r))


def needs_disc(tile: str) -> bool:
    """On a town hex, an ordinary tile needs a white town disc."""
    return TILES[tile].kind != TOWN_TILE


def crosses(tile: str) -> bool:
    return TILES[tile].kind == CROSSING


def is_complex(tile: str) -> bool:
    return TILES[tile].kind in (CROSSING, COEXISTING)
