"""The JSON Schema of Toot-Toot Train's static board (`Decider.board`, built by
`views.static_maps`): every map of the pack by id, with the hexes and edges track moves
name and the buildings moves name by id."""

from __future__ import annotations

from typing import Any

_BUILDING: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "required": ["id", "kind", "hexes", "sides", "good", "colour", "factory"],
    "properties": {
        "id": {"type": "string", "description": "What moves name it by (`site`, `city`, `factory`)."},
        "kind": {"type": "string"},
        "hexes": {"type": "array", "items": {"type": "string"}, "description": "The hexes it covers (\"col,row\")."},
        "sides": {"type": "object", "additionalProperties": {"type": "string"}, "description": (
            "\"col,row/edge\" → what that side of the building is (`open`, `waterway`, ...): where track may meet it.")},
        "good": {"type": "string", "description": "A site's good, else empty."},
        "colour": {"type": "string", "description": "A city's colour, else empty."},
        "factory": {"type": "string", "description": "A printed factory's kind, else empty."},
    },
}

_MAP: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["title", "orientation", "terrain", "buildings", "starts"],
    "properties": {
        "title": {"type": "string"},
        "orientation": {"type": "string"},
        "terrain": {"type": "object", "additionalProperties": {"type": "string"},
                    "description": "Hex id \"col,row\" (as track moves' `hex` names it) → its terrain."},
        "buildings": {"type": "array", "items": _BUILDING},
        "starts": {"type": "array", "items": {
            "type": "object", "additionalProperties": False, "required": ["hex", "facing"], "properties": {
                "hex": {"type": "string"},
                "facing": {"type": "integer", "description": "The edge a train starting there faces."}}}},
    },
}

BOARD_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["maps"],
    "properties": {
        "maps": {"type": "object", "additionalProperties": _MAP, "description": (
            "Every map of the pack by id; the game's view names the one in play. Track moves name a hex and two of its "
            "edges, numbered 0-5 clockwise from the east.")},
    },
}
