"""The legal tile placements of one build step, for clients, bots and playouts.

Trying every tile in every rotation on every hex through `track.assess` would cost thousands of
tracings per step. Instead the hexes worth trying are those next to a city or to a loose end of
track the builder may extend, plus every tile already laid (upgrades, redirects, town exits);
and each candidate is first screened with what its edges touch (off board, lake, another
player's track; a city or the builder's own track) before the full check runs.
"""

from __future__ import annotations

from domain.age_of_steam.board import LAKE, Map
from domain.age_of_steam.state import Placed, State
from domain.age_of_steam.tiles import EDGES, TOWN, TOWN_CONFIGS, TRACK_CONFIGS, Path, paths_of
from domain.age_of_steam.track import Board, Network, Placement, Site, assess, network, segments_on
from domain.core.errors import IllegalMove

CHEAPEST = 2
"""No placement costs less than $2 (a plain simple tile, a one-exit town, a redirect)."""

ALL = 0
"""Every new path must touch the builder's network (new track, upgrades)."""
ANY = 1
"""One new exit must (towns), or the builder already serves the town."""
NONE = 2
"""Redirects keep their connected end."""

Config = tuple[str, int, tuple[int, ...], int]
"""(tile, rotation, edge mask of each new or redirected segment, which connection rule)."""


def _mask(edges: tuple[int, ...] | list[int]) -> int:
    out = 0
    for edge in edges:
        if edge != TOWN:
            out |= 1 << edge
    return out


_NEW_TRACK: tuple[Config, ...] = tuple(
    (tile, rotation, tuple(_mask(p) for p in paths_of(tile, rotation)), ALL)
    for configs in TRACK_CONFIGS.values()
    for tile, rotation in configs
)
_UPGRADES: dict[Path, tuple[Config, ...]] = {}
"""An existing simple path -> the complex tiles that keep it, with the added path's mask."""
for _paths, _configs_of in TRACK_CONFIGS.items():
    if len(_paths) == 2:
        for _kept in _paths:
            _added = next(p for p in _paths if p != _kept)
            _UPGRADES[_kept] = (*_UPGRADES.get(_kept, ()), *((t, r, (_mask(_added),), ALL) for t, r in _configs_of))


def _buildable(map_: Map, hex_: str | None, new_cities: dict[str, str]) -> bool:
    return hex_ is not None and map_.terrain[hex_] != LAKE and not map_.is_city(hex_, new_cities)


def candidate_hexes(map_: Map, board: Board, new_cities: dict[str, str], net: Network, seat: int) -> set[str]:
    hexes: set[str] = set(board)
    for city in (*map_.city_at, *new_cities):
        hexes.update(h for h in map_.neighbours[city] if h is not None)
    for link in net.links:
        if link.complete or link.owner not in (seat, None):
            continue
        for end in (link.a, link.b):
            if end.kind == "open":
                hexes.add(map_.neighbours[end.hex][end.edge] or end.hex)
    return {h for h in hexes if _buildable(map_, h, new_cities)}


def _town_choice(exits: frozenset[int], stock: dict[str, int], old: Placed | None) -> tuple[str, int] | None:
    """One tile for a town exit set: the one most in stock (an old tile of the same type
    would go back to stock first)."""
    best: tuple[int, int, str, int] | None = None
    for order, (tile, rotation) in enumerate(TOWN_CONFIGS.get(exits, ())):
        available = stock.get(tile, 0) + (1 if old is not None and old.tile == tile else 0)
        if available and (best is None or (available, -order) > (best[0], best[1])):
            best = (available, -order, tile, rotation)
    return None if best is None else (best[2], best[3])


def _configs(map_: Map, hex_: str, old: Placed | None, net: Network, seat: int, stock: dict[str, int]) -> list[Config]:
    """The (tile, rotation) pairs worth assessing on `hex_`."""
    if hex_ in map_.towns:
        old_exits = frozenset(seg[0] for seg in segments_on(map_, hex_, old)) if old is not None else frozenset()
        out: list[Config] = []
        for exits in TOWN_CONFIGS:
            if exits > old_exits:
                choice = _town_choice(exits, stock, old)
                if choice is not None:
                    out.append((*choice, tuple(1 << e for e in sorted(exits - old_exits)), ANY))
        return out
    if old is None:
        return [config for config in _NEW_TRACK if stock.get(config[0], 0)]
    old_paths: tuple[Path, ...] = tuple(segments_on(map_, hex_, old))
    out = list(_UPGRADES.get(old_paths[0], ())) if len(old_paths) == 1 else []
    used = {e for p in old_paths for e in p}
    for index, seg in enumerate(old_paths):
        if old.owners[index] not in (seat, None):
            continue
        link = net.link_of((hex_, index))
        for end in (link.a, link.b):
            if end.kind != "open" or end.hex != hex_ or end.edge not in seg:
                continue
            kept = seg[0] if seg[1] == end.edge else seg[1]
            for edge in EDGES:
                if edge in used:
                    continue
                new_path = (min(kept, edge), max(kept, edge))
                paths = frozenset((*(p for p in old_paths if p != seg), new_path))
                out += [(tile, rotation, (1 << edge,), NONE) for tile, rotation in TRACK_CONFIGS.get(paths, ())]
    return out


def placements(map_: Map, state: State, seat: int) -> list[Placement]:
    """Every legal placement for `seat`'s next build step (the turn's limits aside)."""
    cash = state.seats[seat].cash
    if cash < CHEAPEST:
        return []
    board, new_cities = state.board, state.new_cities
    net = network(map_, board, new_cities)
    placed = set(state.build.placed) if state.build is not None else set()
    out: list[Placement] = []
    for hex_ in sorted(candidate_hexes(map_, board, new_cities, net, seat) - placed):
        site = Site(map_, board, new_cities, net, seat, hex_, first=not state.seats[seat].built)
        good = bad = 0
        for edge in EDGES:
            if site.blocked(edge) is not None:
                bad |= 1 << edge
            elif site.connects(edge):
                good |= 1 << edge
        present = hex_ in map_.towns and site.present_in_town(hex_)
        for tile, rotation, masks, rule in _configs(map_, hex_, board.get(hex_), net, seat, state.stock):
            if any(mask & bad for mask in masks):
                continue
            if rule == ALL and not all(mask & good for mask in masks):
                continue
            if rule == ANY and not present and not any(mask & good for mask in masks):
                continue
            try:
                out.append(assess(map_, state, seat, hex_, tile, rotation))
            except IllegalMove:
                continue
    return out
