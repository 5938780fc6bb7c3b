"""Goods: drawing cubes from the bag, and the routes a good may travel.

The bag is a count per colour. A draw reads the bag as one canonical list (colours in sorted
order, each repeated by its count) and picks one cube of it (`rng.pick`: at a table the referee
names the colour, a seeded game draws `randbelow(len(list))`), so the stored outcome
(`rolled(n, index)`) re-derives the colour from the state alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from domain.age_of_steam.board import Map
from domain.age_of_steam.events import Outcome, outcome
from domain.age_of_steam.track import Link, Network
from domain.core.errors import IllegalMove
from domain.core.randomness import Randomness


def draw(bag: dict[str, int], rng: Randomness, what: str) -> tuple[str, Outcome]:
    """One cube from the bag: its colour and the stored outcome. `what` says what the cube is
    for, in the game's words ("production: a goods cube from the bag")."""
    cubes = in_bag(bag)
    index = rng.pick(cubes, what, label=str)
    return cubes[index], outcome(len(cubes), index)


def in_bag(bag: dict[str, int]) -> list[str]:
    """The bag read as one list: colours in sorted order, each repeated by its count."""
    return [colour for colour in sorted(bag) for _ in range(bag.get(colour, 0))]


def index_of(bag: dict[str, int], colour: str) -> int:
    """Where the first `colour` cube sits in the bag read as one list (`colour_at` reads it back)."""
    return sum(bag.get(other, 0) for other in sorted(bag) if other < colour)


def colour_at(bag: dict[str, int], index: int) -> str:
    """The colour at `index` of the bag read as one list, colours in sorted order."""
    seen = 0
    for colour in sorted(bag):
        seen += bag.get(colour, 0)
        if index < seen:
            return colour
    raise ValueError(index)


Graph = dict[str, list[tuple[Link, str]]]

_GRAPHS: dict[int, tuple[Network, Graph]] = {}


def stop_graph(net: Network) -> Graph:
    """Stop hex -> the completed links leaving it, each with the stop at its other end."""
    hit = _GRAPHS.get(id(net))
    if hit is not None and hit[0] is net:
        return hit[1]
    graph: Graph = {}
    for link in net.links:
        if link.complete:
            graph.setdefault(link.a.hex, []).append((link, link.b.hex))
            graph.setdefault(link.b.hex, []).append((link, link.a.hex))
    if len(_GRAPHS) >= 32:
        _GRAPHS.pop(next(iter(_GRAPHS)))
    _GRAPHS[id(net)] = (net, graph)
    return graph


@dataclass(frozen=True)
class Route:
    source: str
    cube: str
    links: tuple[Link, ...]
    stops: tuple[str, ...]
    """Every stop from the source to the destination."""

    @property
    def destination(self) -> str:
        return self.stops[-1]

    def income(self) -> dict[int, int]:
        gained: dict[int, int] = {}
        for link in self.links:
            if link.owner is not None:
                gained[link.owner] = gained.get(link.owner, 0) + 1
        return gained


def routes(map_: Map, net: Network, new_cities: dict[str, str], source: str, cube: str, locomotive: int) -> Iterator[Route]:
    """Every path a `cube` good on `source` may travel: completed links only, at most
    `locomotive` of them, no stop twice, ending at (and only at) the first city of its colour."""
    graph = stop_graph(net)
    links: list[Link] = []
    stops = [source]

    def walk(at: str) -> Iterator[Route]:
        for link, nxt in graph.get(at, ()):
            if nxt in stops:
                continue
            links.append(link)
            stops.append(nxt)
            if map_.city_colour(nxt, new_cities) == cube:
                yield Route(source, cube, tuple(links), tuple(stops))
            elif len(links) < locomotive:
                yield from walk(nxt)
            links.pop()
            stops.pop()

    yield from walk(source)


def check_route(
    map_: Map, net: Network, new_cities: dict[str, str], cubes: dict[str, tuple[str, ...]], source: str, cube: str,
    path: list[str], locomotive: int,
) -> Route:
    """The route a delivery names, or the rule it breaks."""
    name = map_.place_name(source, new_cities)
    if not map_.is_city(source, new_cities):
        raise IllegalMove("not_a_city", f"{name} is not a city; goods are moved from cities.")
    if cube not in cubes.get(source, ()):
        raise IllegalMove("no_such_good", f"There is no {cube} good on {name}.")
    if not path:
        raise IllegalMove("empty_path", "A delivery must travel at least one link.")
    if len(path) > locomotive:
        raise IllegalMove(
            "beyond_locomotive", f"Your locomotive pulls a good over {locomotive} link(s); this path has {len(path)}."
        )
    at, stops, links = source, [source], []
    for step, link_id in enumerate(path):
        link = net.by_id.get(link_id)
        if link is None:
            raise IllegalMove("unknown_link", f"There is no link {link_id!r} on the board.")
        if not link.complete:
            raise IllegalMove("incomplete_link", f"Link {link_id} is incomplete; goods move on completed links only.")
        if at not in (link.a.hex, link.b.hex):
            raise IllegalMove("path_not_connected", f"Link {link_id} does not leave {map_.place_name(at, new_cities)}.")
        nxt = link.other(at)
        if nxt in stops:
            raise IllegalMove(
                "stop_visited_twice", f"A good may pass through {map_.place_name(nxt, new_cities)} only once."
            )
        if map_.city_colour(nxt, new_cities) == cube and step < len(path) - 1:
            raise IllegalMove(
                "must_stop_at_colour",
                f"A {cube} good must stop at {map_.place_name(nxt, new_cities)}, the first {cube} city it enters.",
            )
        stops.append(nxt)
        links.append(link)
        at = nxt
    if map_.city_colour(at, new_cities) != cube:
        raise IllegalMove(
            "wrong_destination", f"A {cube} good must end at a {cube} city; {map_.place_name(at, new_cities)} is not one."
        )
    return Route(source, cube, tuple(links), tuple(stops))
