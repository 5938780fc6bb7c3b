"""What the greedy bot (`bots.py`) knows about moving goods: the completed links as a graph of
stops, the best route a good could take for one seat, and the *delivery potential* of a seat
(the income its next deliveries could earn), which the bot weighs when it builds, urbanizes,
takes an action or raises its locomotive.

The graph can carry links that are not on the board yet (a link the bot means to build) and a
new city it means to place, so a plan is valued before anything is built. Routes follow the
rules of `goods.routes` (completed links, at most the locomotive's length, no stop twice, ending
at the first city of the good's colour), but only the best one per good is kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from domain.age_of_steam.board import Map
from domain.age_of_steam.state import State
from domain.age_of_steam.track import network

GIVEN_AWAY = 0.25
"""How much a link of another seat on a route counts against it: income handed to a rival."""
DELIVERIES_AHEAD = 6
"""How many deliveries the potential counts: about the next three turns' worth."""

Edge = tuple[str, int | None]
"""(the stop at the other end, the link's owner)."""
Graph = dict[str, list[Edge]]


@dataclass(frozen=True)
class Goods:
    """The goods as the bot sees them: the stop graph, and what colour each city takes."""

    graph: Graph
    colours: Mapping[str, str]
    """City hex -> the colour of goods it takes (new cities included)."""
    cubes: Mapping[str, tuple[str, ...]]

    @property
    def signature(self) -> tuple[object, ...]:
        """Everything the potential depends on, as one hashable value."""
        links = tuple(sorted((a, b, -1 if owner is None else owner) for a, edges in self.graph.items() for b, owner in edges))
        return (links, tuple(sorted(self.colours.items())), tuple(sorted((k, v) for k, v in self.cubes.items() if v)))

    def with_link(self, a: str, b: str, owner: int) -> Goods:
        graph = {stop: list(edges) for stop, edges in self.graph.items()}
        graph.setdefault(a, []).append((b, owner))
        graph.setdefault(b, []).append((a, owner))
        return Goods(graph, self.colours, self.cubes)

    def with_city(self, hex_: str, colour: str) -> Goods:
        return Goods(self.graph, {**self.colours, hex_: colour}, {**self.cubes, hex_: self.cubes.get(hex_, ())})


def goods_of(map_: Map, state: State) -> Goods:
    net = network(map_, state.board, state.new_cities)
    graph: Graph = {}
    for link in net.links:
        if link.complete:
            graph.setdefault(link.a.hex, []).append((link.b.hex, link.owner))
            graph.setdefault(link.b.hex, []).append((link.a.hex, link.owner))
    colours = {hex_: city.colour for hex_, city in map_.city_at.items()}
    colours.update({hex_: map_.new_city[letter].colour for hex_, letter in state.new_cities.items()})
    return Goods(graph, colours, state.cubes)


def route_value(own: int, others: int) -> float:
    """A route's worth to the mover: its own links' income, less a little for rivals' links."""
    return own - GIVEN_AWAY * others


def best_route(goods: Goods, source: str, cube: str, locomotive: int, seat: int) -> float:
    """The most a good of colour `cube` on `source` could be worth to `seat` (0: no route pays)."""
    best = 0.0
    seen = [source]
    colours, graph = goods.colours, goods.graph

    def walk(at: str, own: int, others: int) -> None:
        nonlocal best
        # Every link still to travel adds at most 1: a route that cannot beat the best found
        # is not followed (the answer is the same, found sooner).
        if own + locomotive - len(seen) + 1 <= best:
            return
        for nxt, owner in graph.get(at, ()):
            if nxt in seen:
                continue
            mine = own + (owner == seat)
            theirs = others + (owner is not None and owner != seat)
            if colours.get(nxt) == cube:
                value = mine - GIVEN_AWAY * theirs
                if value > best:
                    best = value
            elif len(seen) < locomotive:
                seen.append(nxt)
                walk(nxt, mine, theirs)
                seen.pop()

    walk(source, 0, 0)
    return best


def deliveries(goods: Goods, seat: int, locomotive: int, sources: Iterable[str] | None = None) -> list[float]:
    """The best worth of every good (one entry per cube) on `sources` (default: every city)."""
    out: list[float] = []
    for source in goods.cubes if sources is None else sources:
        held = goods.cubes.get(source, ())
        for cube in set(held):
            value = best_route(goods, source, cube, locomotive, seat)
            if value > 0:
                out.extend([value] * held.count(cube))
    return out


def potential(goods: Goods, seat: int, locomotive: int, ahead: int = DELIVERIES_AHEAD) -> float:
    """The income the seat's next `ahead` deliveries could earn, best goods first."""
    return _top(deliveries(goods, seat, locomotive), ahead)


def _top(values: Iterable[float], ahead: int) -> float:
    return sum(sorted(values, reverse=True)[:ahead])


class Potential:
    """A seat's delivery potential by source city, so the gain of one more link is found by
    revaluing only the goods that could travel over it."""

    def __init__(self, goods: Goods, seat: int, locomotive: int) -> None:
        self.goods, self.seat, self.locomotive = goods, seat, locomotive
        self.by_source = {source: deliveries(goods, seat, locomotive, (source,)) for source in goods.cubes}
        self.total = _top((v for values in self.by_source.values() for v in values), DELIVERIES_AHEAD)
        self.gains: dict[tuple[str, str], float] = {}
        self.gains_of: dict[tuple[tuple[str, str], ...], float] = {}

    def gain(self, a: str, b: str) -> float:
        """What a link of the seat's own between stops `a` and `b` adds to its potential."""
        if (a, b) not in self.gains:
            self.gains[(a, b)] = self.gains[(b, a)] = self._gain(a, b)
        return self.gains[(a, b)]

    def _gain(self, a: str, b: str) -> float:
        return self.gain_of(((a, b),))

    def gain_of(self, links: tuple[tuple[str, str], ...]) -> float:
        """What several new links of the seat's own add to its potential."""
        if links not in self.gains_of:
            self.gains_of[links] = self._gain_of(links)
        return self.gains_of[links]

    def _gain_of(self, links: tuple[tuple[str, str], ...]) -> float:
        after = self.goods
        for a, b in links:
            after = after.with_link(a, b, self.seat)
        # A good can use a new link only if it starts within a locomotive's reach of its ends.
        near = _within(after, {stop for link in links for stop in link}, self.locomotive - 1)
        changed = {source: deliveries(after, self.seat, self.locomotive, (source,))
                   for source in near if source in self.goods.cubes}
        values = (v for source, held in self.by_source.items() for v in changed.get(source, held))
        return _top(values, DELIVERIES_AHEAD) - self.total


_KNOWN: dict[tuple[object, ...], Potential] = {}
_KNOWN_KEPT = 16


def potential_of(goods: Goods, seat: int, locomotive: int) -> Potential:
    """The seat's `Potential`, shared by every decision that sees the same links and goods (a
    build turn's placements mostly leave both alone)."""
    key = (seat, locomotive, goods.signature)
    hit = _KNOWN.get(key)
    if hit is None:
        hit = Potential(goods, seat, locomotive)
        if len(_KNOWN) >= _KNOWN_KEPT:
            _KNOWN.pop(next(iter(_KNOWN)))
        _KNOWN[key] = hit
    return hit


def _within(goods: Goods, stops: Iterable[str], hops: int) -> set[str]:
    out = set(stops)
    frontier = list(out)
    for _ in range(max(0, hops)):
        nxt = []
        for at in frontier:
            for other, _owner in goods.graph.get(at, ()):
                if other not in out:
                    out.add(other)
                    nxt.append(other)
        frontier = nxt
    return out


def component(goods: Goods, stops: Iterable[str]) -> set[str]:
    """Every stop joined to `stops` by completed links."""
    out = set(stops)
    frontier = list(out)
    while frontier:
        at = frontier.pop()
        for nxt, _ in goods.graph.get(at, ()):
            if nxt not in out:
                out.add(nxt)
                frontier.append(nxt)
    return out
