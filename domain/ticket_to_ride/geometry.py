"""Ticket to Ride's static board (`Decider.board`): the cities, routes and tickets of the
map the rules are bound to, under the ids `claim_route` and `keep_tickets` name, with where
to draw each city. The positions are not part of the rules (a pack's data has none): they
are this package's own drawing of each map it has one for (`layouts/<pack>.json`)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from domain.ticket_to_ride.board import Board

BOARD_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["map", "cities", "routes", "tickets"],
    "properties": {
        "map": {"type": "string", "description": "The map's name (the content pack's id)."},
        "width": {"type": "integer", "nullable": True, "description": "The drawing's width, for `x`."},
        "height": {"type": "integer", "nullable": True, "description": "The drawing's height, for `y`."},
        "cities": {"type": "object", "description": "City name → where it is drawn.", "additionalProperties": {
            "type": "object", "additionalProperties": False, "properties": {
                "x": {"type": "number", "description": "Where the viewer draws the city, 0..width (absent for a map "
                                                       "without a layout)."},
                "y": {"type": "number", "description": "Where the viewer draws the city, 0..height."}}}},
        "routes": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "required": ["id", "a", "b", "length", "colour", "double", "points"],
            "properties": {
                "id": {"type": "string", "description": "What `claim_route` names: \"CityA|CityB\", with \"#0\" or "
                                                        "\"#1\" for a double route's lane."},
                "a": {"type": "string", "description": "One end (a key of `cities`)."},
                "b": {"type": "string", "description": "The other end."},
                "length": {"type": "integer", "description": "Train cars (and cards) the route takes."},
                "colour": {"type": "string", "description": "The card colour it takes; `gray`: any one colour."},
                "double": {"type": "boolean", "description": "One of two parallel lanes between the same cities."},
                "lane": {"type": "integer", "nullable": True, "description": "A double route's lane, 0 or 1."},
                "points": {"type": "integer", "description": "What claiming it scores."}}}},
        "tickets": {"type": "object", "description": "Ticket id (as `keep_tickets` names it) → its cities and points.",
                    "additionalProperties": {
                        "type": "object", "additionalProperties": False, "required": ["a", "b", "points"],
                        "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "points": {
                            "type": "integer",
                            "description": "Scored when `a` and `b` are joined by the seat's routes, lost when not."}}}},
    },
}
"""The JSON Schema of `static_board`'s answer."""


@cache
def layout(pack: str) -> dict[str, Any] | None:
    """Where to draw each city of the map `pack`, when this package has a drawing of it."""
    path = resources.files(__package__).joinpath("layouts", f"{pack}.json")
    if not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def static_board(board: Board, pack: str) -> dict[str, Any]:
    """The map `pack` (its content `board`) as clients draw and address it."""
    drawn = layout(pack)
    if drawn is not None:
        missing = set(board.cities) - set(drawn["cities"])
        if missing:  # a new map city without a position would be drawn at the origin
            raise ValueError(f"layouts/{pack}.json lacks {sorted(missing)}")
    cities = drawn["cities"] if drawn else {}
    return {
        "map": pack,
        "width": drawn["width"] if drawn else None, "height": drawn["height"] if drawn else None,
        "cities": {c: ({"x": cities[c]["x"], "y": cities[c]["y"]} if drawn else {}) for c in board.cities},
        "routes": [{"id": r.id, "a": r.a, "b": r.b, "length": r.length, "colour": r.colour, "double": r.double,
                    "lane": r.lane, "points": r.points} for r in board.routes.values()],
        "tickets": {t.id: {"a": t.a, "b": t.b, "points": t.points} for t in board.tickets.values()},
    }
