"""The JSON Schema of Age of Steam's `view` (published in the OpenAPI document; the
conformance suite checks every view of its playouts against it)."""

from __future__ import annotations

from typing import Any

from domain.core.view_schema import OBJECT, array_of, mapping_of, of

SEAT = of("object", properties={
    "seat": of("integer"), "name": of("string"), "cash": of("integer"), "income": of("integer"),
    "shares": of("integer", "Shares issued."), "locomotive": of("integer", "The engine's links."),
    "eliminated": of("boolean"), "action": of("string", "The action tile taken this turn.", nullable=True),
    "vp": mapping_of("integer", "VP by source: income, shares, track."),
}, required=["seat", "name", "cash", "income", "shares", "locomotive", "eliminated", "action", "vp"])

VIEW_SCHEMA: dict[str, Any] = of("object", "An Age of Steam game as the caller may see it (`view`).", properties={
    "game": of("string", enum=["age_of_steam"]), "map": of("string", "The map pack's id."),
    "phase": of("string", "setup, shares, auction, actions, build, move, income, expenses, income_reduction, "
                          "production, goods_growth, between or over."),
    "active_seats": array_of("integer"), "turn": of("integer"), "last_turn": of("integer"),
    "order": array_of("integer", "Seats in turn order."), "queue": array_of("integer", "Seats still to act this phase."),
    "actions": mapping_of("integer", "Action tile -> the seat that took it."),
    "turn_order_pass": of("integer", "The seat holding the turn-order pass.", nullable=True),
    "seats": of("array", items=SEAT),
    "board": of("array", "Placed tiles: hex, tile, rotation, owners.", items=OBJECT),
    "links": of("array", "Completed links and their owners.", items=OBJECT),
    "cities": of("object", "Hex -> the city there (name, colour, goods).", additionalProperties=OBJECT),
    "towns": mapping_of("string", "Hex -> the town's name."),
    "goods_display": of("object", "Column -> its spaces: a cube's colour, or null for an empty space.",
                        additionalProperties=of("array", items=of("string", nullable=True))),
    "bag": mapping_of("integer", "Colour -> cubes left in the bag."),
    "production_drawn": array_of("string"), "tile_stock": mapping_of("integer", "Tile type -> tiles left."),
    "town_discs": of("integer"), "scores": mapping_of("integer", "Seat -> VP."),
    "build": of("object", "The build step in progress.", nullable=True),
    "auction": of("object", "The turn-order auction in progress.", nullable=True),
    "move_round": of("integer", nullable=True), "winners": array_of("integer"),
}, required=["game", "map", "phase", "active_seats", "turn", "last_turn", "order", "queue", "actions", "turn_order_pass",
             "seats", "board", "links", "cities", "towns", "goods_display", "bag", "production_drawn", "tile_stock",
             "town_discs", "scores"])
