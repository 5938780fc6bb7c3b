"""A Ticket to Ride map as a content pack declares it: cities, routes, tickets, the
train-card deck and the printed numbers, read from the pack's files and checked on load.

The rules never read a map from module constants: a decider is bound to one `Board`
(`TicketToRide(pack)`), and passes it to every rule that needs the map. The USA map ships
as the pack `usa` (`domain/ticket_to_ride/packs/usa/`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from domain.core.content import Entry, Reader, frozen_map

LOCOMOTIVE = "locomotive"
GRAY = "gray"
FILES = ("cities.json", "routes.json", "tickets.json", "cards.json", "rules.json")


@dataclass(frozen=True)
class Route:
    id: str
    a: str
    b: str
    length: int
    colour: str
    double: bool
    lane: int
    points: int

    @property
    def label(self) -> str:
        """How a player names the route; the twin of a double is told apart by its lane."""
        name = f"{self.a}–{self.b}"
        return f"{name} ({self.colour}, lane {self.lane + 1})" if self.double else name


@dataclass(frozen=True)
class Ticket:
    id: str
    a: str
    b: str
    points: int

    @property
    def label(self) -> str:
        return f"{self.a}–{self.b} ({self.points})"


@dataclass(frozen=True, eq=False)
class Board:
    """One map and its printed numbers; immutable, shared by every game bound to it."""

    cities: tuple[str, ...]
    routes: Mapping[str, Route]
    tickets: Mapping[str, Ticket]
    colours: tuple[str, ...]
    train_cards: tuple[str, ...]
    """Every train-car card in printed order, before any shuffle."""
    route_points: Mapping[int, int]
    trains_per_seat: int
    starting_hand: int
    market_size: int
    wipe_locomotives: int
    end_trigger_trains: int
    longest_path_bonus: int
    opening_tickets: int
    opening_keep: int
    ticket_draw: int
    draw_keep: int
    doubles_both_usable_from: int

    def __post_init__(self) -> None:
        # Derived once per map: the rules ask for these on every move.
        by_cities: dict[tuple[str, str], list[str]] = {}
        for route in self.routes.values():
            by_cities.setdefault((route.a, route.b), []).append(route.id)
        derived = {
            "card_kinds": (*self.colours, LOCOMOTIVE),
            "twin": frozen_map((one, other) for pair in by_cities.values() if len(pair) == 2
                               for one, other in (pair, pair[::-1])),
            "routes_at": frozen_map((city, tuple(r for r in self.routes.values() if city in (r.a, r.b)))
                                    for city in self.cities),
            "routes_shortest_first": tuple(sorted(self.routes.values(), key=lambda r: r.length)),
        }
        derived["card_counts"] = frozen_map((kind, self.train_cards.count(kind)) for kind in derived["card_kinds"])
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    card_kinds: tuple[str, ...] = field(init=False)
    card_counts: Mapping[str, int] = field(init=False)
    twin: Mapping[str, str] = field(init=False)
    """The other lane of each double route."""
    routes_at: Mapping[str, tuple[Route, ...]] = field(init=False)
    routes_shortest_first: tuple[Route, ...] = field(init=False)

    def neighbours(self, city: str) -> tuple[str, ...]:
        """The cities one route away from `city`."""
        return tuple(sorted({r.b if r.a == city else r.a for r in self.routes_at[city]}))


# --- the schema: how a pack's files are read -------------------------------------------------

_RULES = {
    "trains_per_player": "trains_per_seat",
    "initial_hand_train_cards": "starting_hand",
    "face_up_cards": "market_size",
    "face_up_locomotive_reset_threshold": "wipe_locomotives",
    "end_game_trigger_trains_at_or_below": "end_trigger_trains",
    "longest_path_bonus": "longest_path_bonus",
    "initial_tickets_dealt": "opening_tickets",
    "initial_tickets_min_keep": "opening_keep",
    "draw_tickets_count": "ticket_draw",
    "draw_tickets_min_keep": "draw_keep",
    "double_routes_min_players": "doubles_both_usable_from",
}


class BoardSchema:
    """`cities.json` (array of names), `routes.json` and `tickets.json` (arrays of
    objects), `cards.json` (`{"colours": {colour: count}, "locomotives": n}`), `rules.json`
    (the printed numbers, and `route_points_by_length`)."""

    game = "ticket_to_ride"
    files = FILES

    def nameable(self, content: Board) -> dict[str, Collection[str]]:
        return {"cities": tuple(content.cities)}

    def load(self, reader: Reader) -> Board:
        cities = self._cities(reader)
        rules, route_points = self._rules(reader)
        colours, train_cards = self._cards(reader)
        routes = self._routes(reader, cities, colours, route_points)
        tickets = {}
        for entry in reader.entries("tickets.json", "ticket"):
            a, b = entry.text("a", cities, "city"), entry.text("b", cities, "city")
            ticket = Ticket(entry.value["id"], a, b, entry.integer("points", 1))
            if a == b and entry.ok:
                entry.problem(f"joins {a} to itself")
            tickets[ticket.id] = ticket
        if not tickets and reader.json("tickets.json") is not None:
            reader.problem("tickets.json", None, "a map needs tickets")
        return Board(cities=cities, routes=frozen_map(routes.items()), tickets=frozen_map(tickets.items()),
                     colours=colours, train_cards=train_cards, route_points=frozen_map(route_points.items()), **rules)

    def _cities(self, reader: Reader) -> tuple[str, ...]:
        names = reader.json("cities.json") or []
        out: list[str] = []
        for index, name in enumerate(names):
            if not isinstance(name, str) or not name:
                reader.problem("cities.json", f"entry {index + 1}", "a city is a non-empty string")
            elif name in out:
                reader.problem("cities.json", f"city {name!r}", "duplicate city")
            else:
                out.append(name)
        return tuple(out)

    def _rules(self, reader: Reader) -> tuple[dict[str, int], dict[int, int]]:
        entry = reader.entry("rules.json", "rules")
        if entry is None:
            return dict.fromkeys(_RULES.values(), 1), {}
        rules = {field: entry.integer(key, 0) for key, field in _RULES.items()}
        points: dict[int, int] = {}
        for length, value in entry.mapping("route_points_by_length").items():
            if not length.isdigit() or int(length) < 1 or not isinstance(value, int) or isinstance(value, bool):
                entry.problem(f"route_points_by_length: {length!r}: {value!r} must map a length (1, 2, …) to whole points")
            else:
                points[int(length)] = value
        if points and sorted(points) != list(range(1, len(points) + 1)):
            entry.problem("route_points_by_length must give every length from 1 to the longest")
        if entry.ok and rules["market_size"] < 1:
            entry.problem("face_up_cards must be at least 1")
        return rules, points

    def _cards(self, reader: Reader) -> tuple[tuple[str, ...], tuple[str, ...]]:
        entry = reader.entry("cards.json", "deck")
        if entry is None:
            return (), ()
        counts = entry.mapping("colours")
        locomotives = entry.integer("locomotives", 0)
        colours = []
        for colour, count in counts.items():
            if colour in (LOCOMOTIVE, GRAY):
                entry.problem(f"colour {colour!r} is reserved")
            elif not isinstance(count, int) or isinstance(count, bool) or count < 0:
                entry.problem(f"colour {colour!r}: count {count!r} is not a whole number of cards")
            else:
                colours.append(colour)
        train_cards = tuple(c for c in colours for _ in range(counts[c])) + (LOCOMOTIVE,) * locomotives
        return tuple(colours), train_cards

    def _routes(self, reader: Reader, cities: tuple[str, ...], colours: tuple[str, ...],
                route_points: Mapping[int, int]) -> dict[str, Route]:
        longest = max(route_points, default=6)
        # Colours are checked against the deck only when cards.json could be read.
        colour_choices = (*colours, GRAY) if colours else None
        routes: dict[str, Route] = {}
        for entry in reader.entries("routes.json", "route"):
            route = Route(entry.value["id"], entry.text("a", cities, "city"), entry.text("b", cities, "city"),
                          entry.integer("length", 1, longest), entry.text("color", colour_choices, "colour"),
                          entry.boolean("double"), entry.integer("lane", 0, 1), entry.integer("points", 0))
            if entry.ok and route.a == route.b:
                entry.problem(f"joins {route.a} to itself")
            # Points are checked against rules.json only when it could be read.
            if entry.ok and route_points and route_points.get(route.length) != route.points:
                entry.problem(f"points {route.points} is not what a route of length {route.length} scores "
                              f"({route_points.get(route.length)}, rules.json)")
            routes[route.id] = route
        self._check_doubles(reader, routes)
        return routes

    def _check_doubles(self, reader: Reader, routes: Mapping[str, Route]) -> None:
        by_cities: dict[frozenset[str], list[Route]] = {}
        for route in routes.values():
            by_cities.setdefault(frozenset((route.a, route.b)), []).append(route)
        for pair in by_cities.values():
            for route in pair:
                if len(pair) > 2 or route.double != (len(pair) == 2):
                    Entry(reader, "routes.json", f"route {route.id!r}", {}).problem(
                        f"{len(pair)} route(s) join {route.a} and {route.b}, but double is {str(route.double).lower()}"
                        + (" (at most two)" if len(pair) > 2 else ""))
            if len(pair) == 2 and pair[0].lane == pair[1].lane:
                Entry(reader, "routes.json", f"route {pair[1].id!r}", {}).problem(
                    f"both lanes of the double {pair[0].a}–{pair[0].b} are lane {pair[1].lane}")


SCHEMA = BoardSchema()
