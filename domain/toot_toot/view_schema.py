"""The JSON Schema of Toot-Toot Train's `view` (published in the OpenAPI document; the
conformance suite checks every view of its playouts against it)."""

from __future__ import annotations

from typing import Any

from domain.core.view_schema import OBJECT, array_of, mapping_of, of

ORDER = of("object", "An order card: its id, colour, icons and the icons filled.", properties={
    "order": of("string"), "colour": of("string"), "icons": array_of("string"),
    "filled": array_of("integer", "The indexes of its icons filled so far."),
}, required=["order", "colour", "icons", "filled"])

SEAT = of("object", properties={
    "seat": of("integer"), "name": of("string"), "card": of("string", "Its locomotive card."),
    "hex": of("string", "Where its train stands.", nullable=True), "facing": of("integer", "The edge its train faces."),
    "goods": mapping_of("integer", "Good -> carried."), "kept": array_of("string", "Orders it completed."), "shovel": of("boolean"),
    "penalties": of("integer"), "tokens": of("integer"), "gained": of("integer"), "upgrades": mapping_of("integer"),
    "track": of("integer", "Track pieces left."), "final": mapping_of("integer", "Its final scoring, once over."),
    "turns": of("integer"), "hand_count": of("integer"), "hand": of("array", "Its own order cards.", items=ORDER),
}, required=["seat", "name", "card", "hex", "facing", "goods", "kept", "shovel", "penalties", "tokens", "gained",
             "upgrades", "track", "final", "turns", "hand_count"])

VIEW_SCHEMA: dict[str, Any] = of("object", "A Toot-Toot Train game as the caller may see it (`view`).", properties={
    "map": of("string"), "phase": of("string"), "round": of("integer"), "last_round": of("integer", nullable=True),
    "current": of("integer", "The seat to move."), "step": of("string"), "in_extra_turn": of("boolean"),
    "choosing": array_of("integer"), "line": of("array", "The line being drawn: its hex, then two edges.", nullable=True,
               items={"anyOf": [of("string"), of("integer")]}),
    "track": of("object", "Hex -> its track pieces, each the edges it joins.",
                additionalProperties=of("array", items=array_of("integer"))),
    "factories": of("object", "Hex -> the factory there.", additionalProperties=OBJECT),
    "public": of("array", "The public orders.", items=ORDER), "deck": of("integer", "Order cards left."),
    "discard": array_of("string", "Order cards discarded."), "penalties_out": of("integer"), "seats": of("array", items=SEAT),
    "deck_order": array_of("string", "The deck's order (referee)."), "totals": mapping_of("integer", "Seat -> total."),
    "winners": array_of("integer"),
}, required=["map", "phase", "round", "last_round", "current", "step", "in_extra_turn", "choosing", "line", "track",
             "factories", "public", "deck", "discard", "penalties_out", "seats"])
