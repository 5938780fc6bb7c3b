"""The USA map: cities, routes, tickets, the train-card deck and the printed constants.

Everything here is read once from `data/usa.json` (shipped inside the package) and never
changes, so the adjacency the rules ask for on every move is built at import.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

LOCOMOTIVE = "locomotive"
GRAY = "gray"


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


def _load() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data", "usa.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


_DATA = _load()
_CONSTANTS = _DATA["constants"]

CITIES: tuple[str, ...] = tuple(_DATA["cities"])
ROUTES: dict[str, Route] = {
    r["id"]: Route(r["id"], r["a"], r["b"], r["length"], r["color"], r["double"], r["lane"], r["points"])
    for r in _DATA["routes"]
}
TICKETS: dict[str, Ticket] = {t["id"]: Ticket(t["id"], t["a"], t["b"], t["points"]) for t in _DATA["tickets"]}

COLOURS: tuple[str, ...] = tuple(_DATA["train_card_deck"]["colors"])
CARD_KINDS: tuple[str, ...] = (*COLOURS, LOCOMOTIVE)
TRAIN_CARDS: tuple[str, ...] = tuple(
    kind
    for kind in CARD_KINDS
    for _ in range(
        _DATA["train_card_deck"]["locomotive"] if kind == LOCOMOTIVE else _DATA["train_card_deck"]["colors"][kind]
    )
)
"""The 110 train-car cards in printed order, before any shuffle."""
CARD_COUNTS: dict[str, int] = {kind: TRAIN_CARDS.count(kind) for kind in CARD_KINDS}

ROUTE_POINTS: dict[int, int] = {int(k): v for k, v in _CONSTANTS["route_points_by_length"].items()}
TRAINS_PER_SEAT: int = _CONSTANTS["trains_per_player"]
STARTING_HAND: int = _CONSTANTS["initial_hand_train_cards"]
MARKET_SIZE: int = _CONSTANTS["face_up_cards"]
WIPE_LOCOMOTIVES: int = _CONSTANTS["face_up_locomotive_reset_threshold"]
END_TRIGGER_TRAINS: int = _CONSTANTS["end_game_trigger_trains_at_or_below"]
LONGEST_PATH_BONUS: int = _CONSTANTS["longest_path_bonus"]
OPENING_TICKETS: int = _CONSTANTS["initial_tickets_dealt"]
OPENING_KEEP: int = _CONSTANTS["initial_tickets_min_keep"]
TICKET_DRAW: int = _CONSTANTS["draw_tickets_count"]
DRAW_KEEP: int = _CONSTANTS["draw_tickets_min_keep"]
DOUBLES_BOTH_USABLE_FROM: int = _CONSTANTS["double_routes_min_players"]


def _twins() -> dict[str, str]:
    by_cities: dict[tuple[str, str], list[str]] = {}
    for route in ROUTES.values():
        by_cities.setdefault((route.a, route.b), []).append(route.id)
    return {one: other for pair in by_cities.values() if len(pair) == 2 for one, other in (pair, pair[::-1])}


TWIN: dict[str, str] = _twins()
"""The other lane of each double route."""

ROUTES_AT: dict[str, tuple[Route, ...]] = {
    city: tuple(r for r in ROUTES.values() if city in (r.a, r.b)) for city in CITIES
}


def neighbours(city: str) -> tuple[str, ...]:
    """The cities one route away from `city`."""
    return tuple(sorted({r.b if r.a == city else r.a for r in ROUTES_AT[city]}))
