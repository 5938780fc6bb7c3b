"""The JSON Schema of Railway Boom's static board (`Decider.board`, built by
`views.static_board`): the hexes `lay_rail` and `place_station` name, the routes, and what
each card is."""

from __future__ import annotations

from typing import Any

BOARD_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["hexes", "routes"],
    "properties": {
        "hexes": {"type": "object", "description": "Hex id (as `lay_rail`'s `hex` and `place_station`'s `city` name "
                                                   "it) → where it is and what is there.", "additionalProperties": {
            "type": "object", "additionalProperties": False, "required": ["q", "r", "terrain", "power", "city"],
            "properties": {
                "q": {"type": "integer", "description": "Axial column."},
                "r": {"type": "integer", "description": "Axial row."},
                "terrain": {"type": "string"},
                "power": {"type": "integer", "description": "The power a rail laid there costs."},
                "city": {"type": "string", "description": "The city's kind on a city hex (a station's place), else empty."}}}},
        "routes": {"type": "object", "description": "Route id → the hexes it runs through, in order.",
                   "additionalProperties": {"type": "array", "items": {"type": "string"}}},
        "cards": {"type": "object", "description": (
            "Card id (trains, development cards, goals, city tiles) → what it is: its `deck`, and its costs, coal, VP, "
            "slots, timing, condition and `effect` ({type, amount, resource, terrain}) as its deck has them."),
            "additionalProperties": {"type": "object", "additionalProperties": {}}},
    },
}
