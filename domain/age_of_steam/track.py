"""Track on the board: links traced from the tiles, the rules of one tile placement, and the
ownership changes a placement, an urbanization or the end of a build turn brings.

A *segment* is one path of a tile (or one exit of a town). Segments that face each other across
an edge are joined; a *link* is a maximal chain of joined segments, ended at each side by a city,
a town, or an open (dangling) edge. A link with a stop at both ends is complete. Ownership is kept
per segment in the state, and every segment of a link has the same owner: a placement that joins
unowned track takes it, and the checks below refuse to join another player's track.

Links are derived from the tiles, never stored, and cached per board object: the state shares its
board dict until a tile changes, so views and legal-move listings reuse one tracing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from domain.age_of_steam.board import (
    COMPLEX_EXTRA,
    LAKE,
    REDIRECT,
    TERRAIN_COST,
    TOWN_BASE,
    TOWN_UPGRADE,
    UPGRADE_TO_CROSSING,
    Map,
)
from domain.age_of_steam.state import Placed, State
from domain.age_of_steam.tiles import (
    SEGMENTS,
    TILES,
    TOWN,
    TOWN_TILE,
    Segment,
    crosses,
    exits_of,
    needs_disc,
    opposite,
)
from domain.core.errors import IllegalMove
from domain.core.state import frozen

Board = dict[str, Placed]
NewCities = dict[str, str]
SegRef = tuple[str, int]
"""(hex, segment index) of one segment on the board."""

NEW = "new"
TOWN_NEW = "town"
UPGRADE = "upgrade"
TOWN_UPGRADE_KIND = "town_upgrade"
REDIRECTED = "redirect"


def segments_on(map_: Map, hex_: str, placed: Placed) -> tuple[Segment, ...]:
    return SEGMENTS[(placed.tile, placed.rotation, hex_ in map_.towns)]


@dataclass(frozen=True)
class End:
    kind: str
    """`city`, `town` or `open`."""
    hex: str
    """The city or town hex; for an open end, the hex the track stops on."""
    edge: int
    """City: the city's side the track enters by. Town: the town's exit. Open: the loose edge."""

    @property
    def stop(self) -> bool:
        return self.kind != "open"

    @property
    def port(self) -> str:
        return f"{self.hex}:{self.edge}" + (":open" if self.kind == "open" else "")


@dataclass(frozen=True)
class Link:
    id: str
    segments: tuple[SegRef, ...]
    a: End
    b: End
    owner: int | None
    owners: frozenset[int | None]

    @property
    def complete(self) -> bool:
        return self.a.stop and self.b.stop

    @property
    def hexes(self) -> tuple[str, ...]:
        out: list[str] = []
        for hex_, _ in self.segments:
            if not out or out[-1] != hex_:
                out.append(hex_)
        return tuple(out)

    def other(self, stop: str) -> str:
        """The stop at the other end from `stop` (a complete link)."""
        return self.b.hex if self.a.hex == stop else self.a.hex

    def anchor(self) -> str:
        """The port an incomplete link hangs from: its stop end (or its first end)."""
        if self.b.stop and not self.a.stop:
            return self.b.port
        return self.a.port


def _segment_at(map_: Map, board: Board, hex_: str, edge: int) -> int | None:
    placed = board.get(hex_)
    if placed is None:
        return None
    for index, seg in enumerate(segments_on(map_, hex_, placed)):
        if seg[0] == edge or seg[1] == edge:
            return index
    return None


def _walk(map_: Map, board: Board, new_cities: NewCities, hex_: str, index: int, exit_: int,
          seen: set[SegRef]) -> tuple[list[SegRef], End]:
    out: list[SegRef] = []
    while True:
        if exit_ == TOWN:
            return out, End("town", hex_, segments_on(map_, hex_, board[hex_])[index][0])
        other = map_.neighbours[hex_][exit_]
        if other is None:
            return out, End("open", hex_, exit_)
        if map_.is_city(other, new_cities):
            return out, End("city", other, opposite(exit_))
        entry = opposite(exit_)
        nxt = _segment_at(map_, board, other, entry)
        if nxt is None or (other, nxt) in seen:
            return out, End("open", hex_, exit_)
        seen.add((other, nxt))
        out.append((other, nxt))
        a, b = segments_on(map_, other, board[other])[nxt]
        hex_, index, exit_ = other, nxt, (b if a == entry else a)


def trace(map_: Map, board: Board, new_cities: NewCities, hex_: str, index: int) -> Link:
    """The link through one segment."""
    a, b = segments_on(map_, hex_, board[hex_])[index]
    seen = {(hex_, index)}
    left, end_a = _walk(map_, board, new_cities, hex_, index, a, seen)
    right, end_b = _walk(map_, board, new_cities, hex_, index, b, seen)
    segments = (*reversed(left), (hex_, index), *right)
    if end_b.port < end_a.port:
        segments, end_a, end_b = tuple(reversed(segments)), end_b, end_a
    owners = frozenset(board[h].owners[i] for h, i in segments)
    owner = None
    for candidate in owners:
        if candidate is not None and (owner is None or candidate < owner):
            owner = candidate
    return Link(f"{end_a.port}~{end_b.port}", tuple(segments), end_a, end_b, owner, owners)


@dataclass(frozen=True)
class Network:
    links: tuple[Link, ...]
    link_at: dict[SegRef, int]
    """Segment -> index of its link."""
    port: dict[tuple[str, int], SegRef]
    """(hex, edge) -> the segment using that edge, for every edge a tile uses."""
    by_id: dict[str, Link]

    def link_of(self, ref: SegRef) -> Link:
        return self.links[self.link_at[ref]]

    def owned(self, seat: int) -> list[Link]:
        return [link for link in self.links if link.owner == seat]

    @cached_property
    def owned_counts(self) -> dict[int | None, int]:
        counts: dict[int | None, int] = {}
        for link in self.links:
            counts[link.owner] = counts.get(link.owner, 0) + 1
        return counts


def _build_network(map_: Map, board: Board, new_cities: NewCities) -> Network:
    links: list[Link] = []
    link_at: dict[SegRef, int] = {}
    port: dict[tuple[str, int], SegRef] = {}
    for hex_ in sorted(board):
        for index, seg in enumerate(segments_on(map_, hex_, board[hex_])):
            for edge in seg:
                if edge != TOWN:
                    port[(hex_, edge)] = (hex_, index)
            if (hex_, index) in link_at:
                continue
            link = trace(map_, board, new_cities, hex_, index)
            for ref in link.segments:
                link_at[ref] = len(links)
            links.append(link)
    return Network(tuple(links), link_at, port, {link.id: link for link in links})


_CACHE: dict[tuple[int, int, int], tuple[Map, Board, NewCities, Network]] = {}
_CACHE_SIZE = 32
_CACHE_LOCK = threading.Lock()  # the threads of one server share it


def network(map_: Map, board: Board, new_cities: NewCities) -> Network:
    """The links of a board, traced once per board object. A network is shared by whoever
    asks for the same board, so its mappings are read-only."""
    key = (id(map_), id(board), id(new_cities))
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
    if hit is not None and hit[0] is map_ and hit[1] is board and hit[2] is new_cities:
        return hit[3]
    built = _build_network(map_, board, new_cities)
    net = Network(built.links, frozen(built.link_at), frozen(built.port), frozen(built.by_id))
    with _CACHE_LOCK:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        # The map, board and city dicts are kept in the entry so their ids cannot be reused meanwhile.
        _CACHE[key] = (map_, board, new_cities, net)
    return net


def track_tiles(map_: Map, board: Board, new_cities: NewCities, seat: int) -> int:
    """Ruling 4: one point per tile on which the seat owns track of a completed link."""
    net = network(map_, board, new_cities)
    hexes = {ref[0] for link in net.links if link.complete and link.owner == seat for ref in link.segments}
    return len(hexes)


# --- one placement --------------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    hex: str
    tile: str
    rotation: int
    kind: str
    cost: int
    placed: Placed
    """The tile as laid, changed segments owned by the builder (before joining track)."""
    changed: tuple[int, ...]
    """Indices of the new or redirected segments."""
    disc_delta: int
    """Town discs taken from the supply (1), returned (-1) or neither (0)."""
    returned: str | None
    """The tile type taken off the hex back into stock, if any."""


def _illegal(code: str, message: str) -> IllegalMove:
    return IllegalMove(code, message)


class Site:
    """What the neighbourhood of one hex allows, for one builder. A builder's first tile of
    the game must run into a city itself (`first`)."""

    def __init__(self, map_: Map, board: Board, new_cities: NewCities, net: Network, seat: int, hex_: str,
                 first: bool = False) -> None:
        self.map, self.board, self.new_cities, self.net, self.seat, self.hex = map_, board, new_cities, net, seat, hex_
        self.first = first

    def name(self, hex_: str) -> str:
        return self.map.place_name(hex_, self.new_cities)

    def blocked(self, edge: int) -> IllegalMove | None:
        other = self.map.neighbours[self.hex][edge]
        if other is None:
            return _illegal("off_board", f"Track on {self.name(self.hex)} may not run off the board.")
        if self.map.terrain[other] == LAKE:
            return _illegal("into_lake", f"Track on {self.name(self.hex)} may not run into a lake.")
        facing = self.net.port.get((other, opposite(edge)))
        if facing is not None:
            owner = self.board[other].owners[facing[1]]
            if owner is not None and owner != self.seat:
                return _illegal(
                    "into_others_track",
                    f"Track may not run straight into seat {owner}'s track on {self.name(other)}.",
                )
        return None

    def connects(self, edge: int) -> bool:
        """Whether a track leaving by `edge` joins the builder's network: a city, the builder's
        own track, or unowned track that reaches a city (or a town the builder serves)."""
        other = self.map.neighbours[self.hex][edge]
        if other is None:
            return False
        if self.map.is_city(other, self.new_cities):
            return True
        facing = self.net.port.get((other, opposite(edge)))
        if facing is None or self.first:
            return False
        owner = self.board[other].owners[facing[1]]
        if owner is not None:
            return owner == self.seat
        link = self.net.link_of(facing)
        return any(self._reaches(end) for end in (link.a, link.b))

    def _reaches(self, end: End) -> bool:
        if end.kind == "city":
            return True
        if end.kind == "town":
            return self.present_in_town(end.hex)
        return False

    def present_in_town(self, town: str) -> bool:
        placed = self.board.get(town)
        return not self.first and placed is not None and self.seat in placed.owners


def assess(map_: Map, state: State, seat: int, hex_: str, tile: str, rotation: int) -> Placement:
    """Every rule of one tile placement but the turn's own limits (count, same hex, phase).
    Raises `IllegalMove`; returns the placement with its cost."""
    board, new_cities, stock = state.board, state.new_cities, state.stock
    discs, cash, coexisting_cost = state.discs, state.seats[seat].cash, state.coexisting_upgrade_cost
    name = map_.place_name(hex_, new_cities)
    if map_.terrain[hex_] == LAKE:
        raise _illegal("lake_hex", f"Hex {hex_} is lake: no track may be built on it.")
    if map_.is_city(hex_, new_cities):
        raise _illegal("city_hex", f"{name} is a city: no track tile is placed on a city hex.")
    town = hex_ in map_.towns
    kind_of_tile = TILES[tile].kind
    if kind_of_tile == TOWN_TILE and not town:
        raise _illegal("town_tile_needs_town", f"A town tile can only be placed on a town; {name} has none.")
    net = network(map_, board, new_cities)
    site = Site(map_, board, new_cities, net, seat, hex_, first=not state.seats[seat].built)
    new_segs = SEGMENTS[(tile, rotation, town)]
    old = board.get(hex_)
    owners: list[int | None] = [seat] * len(new_segs)
    changed: list[int] = []
    redirected = 0
    if old is None:
        changed = list(range(len(new_segs)))
        kind = TOWN_NEW if town else NEW
    elif town:
        old_exits = {seg[0] for seg in segments_on(map_, hex_, old)}
        new_exits = {seg[0] for seg in new_segs}
        if not old_exits <= new_exits:
            raise _illegal("must_preserve_track", f"A new tile on {name} must keep every exit the town has.")
        for index, seg in enumerate(new_segs):
            if seg[0] in old_exits:
                owners[index] = old.owners[[s[0] for s in segments_on(map_, hex_, old)].index(seg[0])]
            else:
                changed.append(index)
        if not changed:
            raise _illegal("nothing_changed", f"The tile adds no exit to {name}.")
        kind = TOWN_UPGRADE_KIND
    else:
        kind, redirected = _match_track(site, old, new_segs, owners, changed)
    for index in changed:
        for edge in new_segs[index]:
            if edge != TOWN:
                problem = site.blocked(edge)
                if problem is not None:
                    raise problem
    if town:
        joined = any(site.connects(e) for i in changed for e in new_segs[i] if e != TOWN) or site.present_in_town(hex_)
    else:
        joined = all(any(site.connects(e) for e in new_segs[i]) for i in changed)
    if not joined:
        raise _illegal(
            "not_connected",
            "Your first tile must run into a city." if site.first
            else "New track must connect to a city through your own track.",
        )
    available = stock.get(tile, 0) + (1 if old is not None and old.tile == tile else 0)
    if available < 1:
        raise _illegal("out_of_stock", f"No {tile.replace('_', ' ')} tile is left in stock.")
    disc = town and needs_disc(tile)
    disc_delta = int(disc) - int(old.disc if old is not None else False)
    if disc_delta > 0 and discs < 1:
        raise _illegal("no_town_disc", "All 8 white town discs are in use; a town of 2 or 4 exits needs one.")
    cost = _cost(kind, map_.terrain[hex_], tile, rotation, coexisting_cost, redirected)
    if cost > cash:
        raise _illegal("not_enough_cash", f"This placement costs ${cost}; you have ${cash}.")
    placed = Placed(tile, rotation, tuple(owners), disc)
    placement = Placement(hex_, tile, rotation, kind, cost, placed, tuple(changed), disc_delta, old.tile if old else None)
    _check_result(map_, board, new_cities, net, seat, placement)
    return placement


def _match_track(site: Site, old: Placed, new_segs: tuple[Segment, ...], owners: list[int | None], changed: list[int]) -> tuple[str, int]:
    """Pair the old tile's paths with the new tile's: each kept as it is or, when it is the loose
    end of the builder's or unowned incomplete track, redirected. Fills `owners` and `changed`."""
    hex_ = site.hex
    old_segs = segments_on(site.map, hex_, old)
    taken: set[int] = set()
    redirected = 0
    for old_index, seg in enumerate(old_segs):
        if seg in new_segs:
            index = new_segs.index(seg)
            owners[index] = old.owners[old_index]
            taken.add(index)
            continue
        link = site.net.link_of((hex_, old_index))
        loose = [end.edge for end in (link.a, link.b) if end.kind == "open" and end.hex == hex_ and end.edge in seg]
        owner = old.owners[old_index]
        if not loose:
            raise _illegal(
                "must_preserve_track",
                f"The track already on {site.name(hex_)} must be kept; only the loose end of "
                "incomplete track may be redirected.",
            )
        if owner is not None and owner != site.seat:
            raise _illegal(
                "redirect_others_track",
                f"Seat {owner}'s track is always preserved; you may redirect only your own or unowned track.",
            )
        kept = seg[0] if seg[1] == loose[0] else seg[1]
        match = [i for i, s in enumerate(new_segs) if i not in taken and kept in s and loose[0] not in s]
        if not match:
            raise _illegal("must_preserve_track", f"The track already on {site.name(hex_)} must be kept.")
        owners[match[0]] = site.seat
        taken.add(match[0])
        changed.append(match[0])
        redirected += 1
    added = [i for i in range(len(new_segs)) if i not in taken]
    changed.extend(added)
    if not changed:
        raise _illegal("nothing_changed", f"The tile changes nothing on {site.name(hex_)}.")
    if redirected and added:
        raise _illegal("upgrade_and_redirect", "One placement either adds track or redirects it, not both.")
    return (REDIRECTED if redirected else UPGRADE), redirected


def _cost(kind: str, terrain: str, tile: str, rotation: int, coexisting_cost: int, redirected: int) -> int:
    if kind == NEW:
        return TERRAIN_COST[terrain] + COMPLEX_EXTRA[TILES[tile].kind]
    if kind == TOWN_NEW:
        return TOWN_BASE + len(exits_of(tile, rotation))
    if kind == TOWN_UPGRADE_KIND:
        return TOWN_UPGRADE
    if kind == UPGRADE:
        return UPGRADE_TO_CROSSING if crosses(tile) else coexisting_cost
    return REDIRECT * redirected


def _touches(map_: Map, new_cities: NewCities, net: Network, hex_: str, edge: int) -> bool:
    """Whether a track leaving `hex_` by `edge` meets a city or other track."""
    other = map_.neighbours[hex_][edge]
    return other is not None and (map_.is_city(other, new_cities) or (other, opposite(edge)) in net.port)


def _check_result(map_: Map, board: Board, new_cities: NewCities, net: Network, seat: int, placement: Placement) -> None:
    markers = map_.ownership_markers
    near_limit = net.owned_counts.get(seat, 0) + 3 > markers
    if not near_limit and placement.hex not in map_.towns:
        segments = SEGMENTS[(placement.tile, placement.rotation, False)]
        # A path that meets something at one end at most leaves a loose end: it can close no
        # loop (and what it meets was screened for other players' track already).
        if all(sum(_touches(map_, new_cities, net, placement.hex, e) for e in segments[i]) < 2 for i in placement.changed):
            return
    after, _, links = _apply(map_, board, new_cities, placement, seat)
    for link in links:
        if link.complete and link.a.hex == link.b.hex:
            raise _illegal("loop", f"Track may not loop back to {map_.place_name(link.a.hex, new_cities)}, where it started.")
        others = sorted(o for o in link.owners if o is not None and o != seat)
        if others:
            raise _illegal("into_others_track", f"Track may not join seat {others[0]}'s track.")
    # A placement adds at most three links (a four-exit town), so the count only needs
    # checking near the limit.
    if near_limit and len(network(map_, after, new_cities).owned(seat)) > markers:
        raise _illegal("no_ownership_markers", f"You have no ownership marker left: each player owns at most {markers} links.")


def _set_owner(board: Board, refs: Iterable[SegRef], owner: int | None, only_unowned: bool = False) -> list[str]:
    """Change owners in `board` (a fresh dict owned by the caller), copying each tile touched."""
    changed_hexes: list[str] = []
    for hex_, index in refs:
        placed = board[hex_]
        if placed.owners[index] == owner or (only_unowned and placed.owners[index] is not None):
            continue
        owners = list(placed.owners)
        owners[index] = owner
        board[hex_] = Placed(placed.tile, placed.rotation, tuple(owners), placed.disc)
        if hex_ not in changed_hexes:
            changed_hexes.append(hex_)
    return changed_hexes


def apply_placement(map_: Map, board: Board, new_cities: NewCities, placement: Placement, seat: int) -> tuple[Board, list[str]]:
    """The board after a placement, and the hexes of unowned track it took over."""
    after, claimed, _ = _apply(map_, board, new_cities, placement, seat)
    return after, claimed


def _apply(map_: Map, board: Board, new_cities: NewCities, placement: Placement, seat: int) -> tuple[Board, list[str], list[Link]]:
    """Also the links through the changed track, traced before any ownership changed."""
    after = dict(board)
    after[placement.hex] = placement.placed
    claimed: list[str] = []
    links: list[Link] = []
    for index in placement.changed:
        link = trace(map_, after, new_cities, placement.hex, index)
        links.append(link)
        for hex_ in _set_owner(after, link.segments, seat, only_unowned=True):
            if hex_ != placement.hex and hex_ not in claimed:
                claimed.append(hex_)
    return after, claimed, links


# --- urbanization, the end of a build turn, bankruptcy ---------------------------------


def urbanize(map_: Map, board: Board, new_cities: NewCities, hex_: str, letter: str,
             seat: int) -> tuple[Board, NewCities, list[str]]:
    """A new city on a town: the town's tile leaves, and unowned track the city completes
    goes to the urbanizer. Returns the board, the new cities and the hexes taken over."""
    before = network(map_, board, new_cities)
    completing = [
        link
        for link in before.links
        if link.owner is None
        and any(end.kind == "open" and map_.neighbours[end.hex][end.edge] == hex_ for end in (link.a, link.b))
    ]
    after = {h: p for h, p in board.items() if h != hex_}
    cities = {**new_cities, hex_: letter}
    owned = len(network(map_, after, cities).owned(seat))
    claimed: list[str] = []
    for link in completing:
        # Taken track must leave the urbanizer within its ownership markers.
        if owned >= map_.ownership_markers:
            break
        owned += 1
        for h in _set_owner(after, [ref for ref in link.segments if ref[0] != hex_], seat):
            if h not in claimed:
                claimed.append(h)
    return after, cities, claimed


def incomplete_at_risk(map_: Map, board: Board, new_cities: NewCities, seat: int) -> tuple[tuple[str, int], ...]:
    """The seat's and unowned incomplete links at the start of its build turn."""
    net = network(map_, board, new_cities)
    return tuple(
        sorted((link.anchor(), len(link.segments)) for link in net.links if not link.complete and link.owner in (seat, None))
    )


def abandoned(map_: Map, board: Board, new_cities: NewCities, seat: int, at_risk: tuple[tuple[str, int], ...]) -> list[Link]:
    """The seat's incomplete links that were at risk and were not extended this turn."""
    risk = dict(at_risk)
    net = network(map_, board, new_cities)
    out = []
    for link in net.links:
        if link.complete or link.owner != seat:
            continue
        length = risk.get(link.anchor())
        if length is not None and len(link.segments) <= length:
            out.append(link)
    return out


def unown(board: Board, refs: Iterable[SegRef]) -> Board:
    after = dict(board)
    _set_owner(after, refs, None)
    return after


def owned_refs(board: Board, seat: int) -> list[SegRef]:
    return [(h, i) for h, placed in board.items() for i, owner in enumerate(placed.owners) if owner == seat]


def describe(map_: Map, link: Link, new_cities: NewCities) -> str:
    ends = [map_.place_name(end.hex, new_cities) if end.stop else "a loose end" for end in (link.a, link.b)]
    return f"{ends[0]}–{ends[1]}"
