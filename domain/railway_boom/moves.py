"""Every Railway Boom move, declared once: parser, JSON Schema and `move_of`
(`domain/core/moves.py`). The names a move may use (cards, hexes, tracks) come from the pack."""

from __future__ import annotations

from typing import Any

from domain.core.events import Event
from domain.core.moves import Field, Moves, MoveType, command
from domain.railway_boom.content import RESOURCES, TRACKS, Content


def _convert(into: str) -> Field:
    return Field("convert", "object", f"Conversions just before paying: resource -> how many pairs of it become 1 {into} each (R11).",
                 keys=Field("resource", "string", "A resource.", enum=RESOURCES, unknown="unknown_resource"),
                 values=Field("pairs", "integer", "Pairs converted.", minimum=1), optional=True)


def _operate_of(event: Event) -> dict[str, Any] | None:
    choice = event.secret() if event.secrets else None
    return {"type": "operate", **choice} if isinstance(choice, dict) else None


def moves_of(content: Content) -> Moves:
    trains = tuple(content.trains)
    card = Field("card", "string", "A train card of the pack.", enum=trains, unknown="unknown_card", of_pack=True)
    developments = Field("card", "string", "A development card of the pack.", enum=tuple(content.developments),
                         unknown="unknown_card", of_pack=True)
    land = Field("hex", "string", "A hex of the board.", enum=tuple(content.hexes), unknown="unknown_hex", of_pack=True)
    cities = Field("city", "string", "A normal city of the board.",
                   enum=tuple(h.id for h in content.hexes.values() if h.city == "normal"), unknown="unknown_city",
                   of_pack=True)
    track = Field("income", "string", "An income track.", enum=TRACKS, unknown="unknown_track", optional=True)
    return Moves((
        MoveType("bid", "Move your disc to an empty higher space of the bid track (R7).",
                 (Field("space", "integer", "The space moved to.", minimum=1, maximum=content.bid_track_max),
                  Field("convert", "object", "Conversions into the phase's resource (R11).",
                        keys=Field("resource", "string", "A resource.", enum=RESOURCES, unknown="unknown_resource"),
                        values=Field("pairs", "integer", "Pairs converted.", minimum=1), optional=True)),
                 command("bid"), event="BidRaised"),
        MoveType("lock_in", "Lock in your bid and leave the auction.", (), command("lock_in"), event="BidLocked"),
        MoveType("take_locomotive", "Take a revealed locomotive, free (R14).", (card,), command("take_locomotive"),
                 event="LocomotiveTaken"),
        MoveType("buy_car", "Buy a revealed car for its material cost.", (card, _convert("materials")),
                 command("buy_car"), event="CarBought"),
        MoveType("place_station", "Build your station on a marked city (R15).", (cities, track),
                 command("place_station"), event="StationBuilt"),
        MoveType("lay_rail", "Lay a rail next to this turn's station or rails (R17).", (land, _convert("money")),
                 command("lay_rail"), event="RailLaid"),
        MoveType("use_card", "Use a once-per-round development card (extra power).", (developments,),
                 command("use_card"), event="CardUsed"),
        MoveType("choose_row", "Choose a development row and take its cheapest card free (R20).",
                 (Field("row", "integer", "The row, from 0.", minimum=0, maximum=11),), command("choose_row"),
                 event="RowChosen"),
        MoveType("buy_development", "Buy another card of your row with technology.", (developments, _convert("technology")),
                 command("buy_development"), event="DevelopmentBought"),
        MoveType("resolve", "Answer an effect's choice: a track, a hex, a drawn card, or \"none\".",
                 (Field("choice", "string", "The choice."), _convert("technology")), command("resolve"), event="ChoiceMade"),
        MoveType("pay", "Pay your \"?\" bid (R12): how much of each resource, adding up to the amount due.",
                 (Field("paid", "object", "Resource -> how much of it you pay; VP is never spent (R1).",
                        keys=Field("resource", "string", "A resource.", enum=RESOURCES, unknown="unknown_resource"),
                        values=Field("amount", "integer", "How much of it.", minimum=0)),),
                 command("pay"), event="BidPaid"),
        MoveType("done", "End your turn in this phase's action step.", (), command("done"), event="TurnEnded"),
        MoveType("operate", "Your sealed operation (R26): trains as [locomotive, car, ...], tiles placed, free car runs.",
                 (Field("runs", "array", "The trains in running order, each a locomotive then its cars front to back.",
                        items=Field("train", "array", "A train.", items=card)),
                  Field("tiles", "object", "Train card -> tile kinds placed on it (R28).",
                        values=Field("kinds", "array", "Tile kinds.", items=Field("kind", "string", "A tile kind.",
                                                                                  enum=TRACKS, unknown="unknown_tile"))),
                  Field("free", "array", "Cars run without coal by free-car-run cards.", items=card),
                  Field("convert", "object", "Conversions into coal before running (R11).",
                        keys=Field("resource", "string", "A resource.", enum=RESOURCES, unknown="unknown_resource"),
                        values=Field("pairs", "integer", "Pairs converted.", minimum=1))),
                 command("operate"), event="SubmissionSealed", recover=_operate_of),
    ))
