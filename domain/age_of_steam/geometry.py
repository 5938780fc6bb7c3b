"""Age of Steam's static board (`Decider.board`): the hexes, cities, new cities and track
tiles of the map the rules are bound to, under the ids `build`, `urbanize` and `deliver`
name, with each tile's track at each rotation so a build can be drawn before it is made."""

from __future__ import annotations

from typing import Any

from domain.age_of_steam.board import EDGE_NAMES, Map
from domain.age_of_steam.tiles import SEGMENTS, TILE_TYPES, TOWN

_ROTATIONS = {"type": "array", "items": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}}

BOARD_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "required": ["edges", "hexes", "cities", "new_cities", "tiles", "town_centre"],
    "properties": {
        "map": {"type": "string", "nullable": True, "description": "The map's name (the content pack's id)."},
        "edges": {"type": "array", "items": {"type": "string"}, "description": (
            "The six hex sides by index, clockwise from the north (N, NE, SE, S, SW, NW); a tile's segments and a "
            "link's ports (`\"col,row:edge\"`) name them by index.")},
        "hexes": {"type": "object", "description": "Hex id \"col,row\" (as `build` and `urbanize` name it) → its "
                                                   "terrain and town.", "additionalProperties": {
            "type": "object", "additionalProperties": False, "required": ["terrain"], "properties": {
                "terrain": {"type": "string", "description": "`plain`, `river`, `mountain`, `lake` or `city`."},
                "town": {"type": "string", "description": "The town's name, on a town hex."}}}},
        "cities": {"type": "object", "description": "Hex id → the city printed there.", "additionalProperties": {
            "type": "object", "additionalProperties": False, "required": ["name", "colour", "group", "number"],
            "properties": {
                "name": {"type": "string", "description": "What a `deliver` move's `city` may name (or the hex id)."},
                "colour": {"type": "string", "description": "The goods colour the city demands."},
                "group": {"type": "string", "description": "`light` or `dark`: the goods growth half it is in."},
                "number": {"type": "integer", "description": "Its goods growth die number."}}}},
        "new_cities": {"type": "object", "description": "The new-city tiles `urbanize` places, by letter.",
                       "additionalProperties": {
                           "type": "object", "additionalProperties": False, "required": ["colour", "group", "die"],
                           "properties": {"colour": {"type": "string"}, "group": {"type": "string"},
                                          "die": {"type": "integer", "description": "Its goods growth die number."}}}},
        "tiles": {"type": "object", "description": "Tile name (as `build` names it) → its track at each rotation, so a "
                                                   "build can be drawn before it is made.", "additionalProperties": {
            "type": "object", "additionalProperties": False, "properties": {
                "plain": {**_ROTATIONS, "description": (
                    "On a plain (or river, mountain) hex: by rotation 0-5 (the index, as `build` names it), the "
                    "tile's track segments, each a pair of the edges it joins ([0, 3]: north to south).")},
                "town": {**_ROTATIONS, "description": (
                    "On a town hex: by rotation 0-5, the tile's exits, each [edge, `town_centre`] (an edge joined to "
                    "the town).")}}}},
        "town_centre": {"type": "integer", "description": "The number a town exit's second end is (the hex's middle)."},
    },
}
"""The JSON Schema of `static_board`'s answer."""


def static_board(board: Map, pack: str | None) -> dict[str, Any]:
    """The map (its content `board`, of the pack `pack`) as clients draw and address it."""
    towns = board.towns
    return {
        "map": pack,
        "layout": "flat-topped hexes in columns, odd-q offset (odd columns half a hex lower); hex id 'col,row'",
        "edges": list(EDGE_NAMES),
        "hexes": {h: {"terrain": terrain, **({"town": towns[h]} if h in towns else {})} for h, terrain in board.terrain.items()},
        "cities": {h: {"name": c.name, "colour": c.colour, "group": c.group, "number": c.number}
                   for h, c in board.city_at.items()},
        "new_cities": {n.letter: {"colour": n.colour, "group": n.group, "die": n.die} for n in board.new_cities},
        # What each tile lays at each rotation, so the play page draws a build before it is made.
        "tiles": {t.name: {where: [[list(seg) for seg in SEGMENTS[(t.name, r, where == "town")]] for r in range(6)]
                           for where in ("plain", "town")} for t in TILE_TYPES},
        "town_centre": TOWN,
    }
