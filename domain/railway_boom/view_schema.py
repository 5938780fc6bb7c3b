"""The JSON Schema of Railway Boom's `view` (published in the OpenAPI document; the
conformance suite checks every view of its playouts against it)."""

from __future__ import annotations

from typing import Any

from domain.core.view_schema import OBJECT, array_of, mapping_of, of

SEAT = of("object", properties={
    "seat": of("integer"), "colour": of("string"), "vp": of("integer"), "scored": mapping_of("integer", "VP by source."),
    "resources": mapping_of("integer", "Resource -> amount."), "income": mapping_of("integer", "Resource -> income."),
    "rails": of("integer", "Rails left."), "stations": of("integer", "Stations left."), "goal_cubes": of("integer"),
    "trains": array_of("string", "Train cards."), "developments": array_of("string", "Development cards."),
    "sideways": array_of("string", "Cards played sideways."), "tiles": mapping_of("integer"),
    "loaded": of("object", "Goods loaded on trains."), "power": of("integer"),
    "submitted": of("boolean", "Whether its sealed bid is in."), "plan": of("object", "Its own sealed plan."),
}, required=["seat", "colour", "vp", "scored", "resources", "income", "rails", "stations", "goal_cubes", "trains",
             "developments", "sideways", "tiles", "loaded", "power"])

VIEW_SCHEMA: dict[str, Any] = of("object", "A Railway Boom game as the caller may see it (`view`).", properties={
    "round": of("integer"), "phase": of("string"), "step": of("string"), "bid_resource": of("string"),
    "order": array_of("integer", "Seats in turn order."), "bids": of("object", "Seat -> its bid, once shown."),
    "locked": array_of("integer"), "acting": array_of("integer"), "offer": array_of("string", "Cards on offer."),
    "rows": of("array", "The development rows, card ids.", items=array_of("string")),
    "chosen_rows": array_of("integer"), "turn": of("object", "The turn in progress."),
    "city_tiles": mapping_of("string", "Space -> its city tile."), "stations": mapping_of("integer", "Space -> seat."),
    "rails": of("object", "Space -> the seats with rails there.", additionalProperties=array_of("integer")),
    "tile_supply": mapping_of("integer"), "goals": array_of("string"), "routes": array_of("string"),
    "spaces": of("object", "Space -> the seats on it.", additionalProperties=array_of("integer")),
    "deck_sizes": mapping_of("integer", "Deck -> cards left."), "decks": of("object", "Deck -> its order (referee)."),
    "pending": of("array", items=OBJECT), "waiting_for": array_of("integer"), "winners": array_of("integer"),
    "seats": of("array", items=SEAT),
}, required=["round", "phase", "step", "bid_resource", "order", "bids", "locked", "acting", "offer", "rows", "chosen_rows",
             "turn", "city_tiles", "stations", "rails", "tile_supply", "goals", "routes", "spaces", "deck_sizes", "pending",
             "waiting_for", "winners", "seats"])
