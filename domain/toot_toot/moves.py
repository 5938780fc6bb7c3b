"""Every move of the game, declared once: its fields (parser and JSON Schema). `move_of`
lives in `views.py`, since two moves (action A and the iron action) record the same kind
of event."""

from __future__ import annotations

from domain.core.moves import Field, Moves, MoveType, command
from domain.toot_toot.content import Content


def _edge(name: str, description: str) -> Field:
    return Field(name, "integer", description, minimum=0, maximum=5)


def moves_of(content: Content) -> Moves:
    hex_ = Field("hex", "string", "A hex, \"col,row\".")
    abilities = sorted({a.id for c in content.cards for a in c.abilities})
    recipes = sorted({r.id for c in content.cards for r in c.recipes})
    goods = tuple(g.id for g in content.goods)

    def fills(description: str) -> Field:
        return Field("fills", "object", description,
                     values=Field("units", "object", "Good -> units.",
                                  keys=Field("good", "string", "A good.", enum=goods, unknown="unknown_good", of_pack=True),
                                  values=Field("count", "integer", "Units.", minimum=1, maximum=9)))

    def move(name: str, description: str, *fields: Field) -> MoveType:
        return MoveType(name, description, fields, command(name))

    return Moves((
        move("choose_start", "Put your train on a free start position (R3).", hex_),
        move("draw_track", "Action A: draw a segment; the next ones go on across its end edge (R2).",
             hex_, _edge("from", "The edge the segment starts at."), _edge("to", "The edge it ends at.")),
        move("stop_drawing", "End action A's line before its third segment."),
        move("drive", "Action B: drive along track to this hex, facing this edge (R4).",
             hex_, _edge("facing", "The edge the train faces at the end.")),
        move("turn", "Action C: face another edge where a segment ends, for a penalty token (R5).",
             _edge("facing", "The new facing edge.")),
        move("take", "Take resources at a site (a location action, or action D).",
             Field("site", "string", "The site's building id.")),
        move("process", "Apply one recipe of your card at a factory (R12).",
             Field("factory", "string", "The factory's building id (\"factory@col,row\" for a drawn one)."),
             Field("recipe", "string", "A recipe of your player card.", enum=tuple(recipes), unknown="unknown_recipe", of_pack=True)),
        move("sell", "Sell goods at a city to its public orders and your secret orders (R13).",
             Field("city", "string", "The city's building id."), fills("Order id -> good -> units supplied.")),
        move("pass_location", "No location action is possible: action D does nothing, or the location step is "
             "skipped; after a first action of 2!=2, decline the second (R19, R24)."),
        move("fuel_move", "Spend 1 wood or coal to move up to 5 steps (R4).",
             Field("fuel", "string", "wood or coal.", enum=("wood", "coal"), unknown="unknown_good"),
             hex_, _edge("facing", "The edge the train faces at the end.")),
        move("iron_track", "Spend 1 iron to draw 1 segment anywhere (R2).",
             hex_, _edge("from", "One end edge."), _edge("to", "The other end edge.")),
        move("build_factory", "Draw a factory next to your train (R8, R9).",
             hex_, Field("kind", "string", "The factory kind.", enum=content.factories, unknown="unknown_factory", of_pack=True),
             _edge("exit", "Its one open side."),
             Field("payment", "string", "2 stone, your shovel or a penalty token.", enum=("stone", "shovel", "penalty"))),
        move("upgrade", "Place a technology token on an ability of your card (R17).",
             Field("ability", "string", "An ability of your card.", enum=tuple(abilities), unknown="unknown_ability", of_pack=True)),
        move("end_turn", "End your turn."),
        move("supply_hand_orders", "Final scoring: supply any icons of your hand orders from the goods you hold; a "
             "completed order is kept as influence, one filled in part is discarded (R22, R33).",
             fills("Hand order id -> good -> units supplied; {} supplies nothing.")),
    ))
