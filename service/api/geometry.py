"""A game's board over HTTP: `GET /api/v1/games/{id}/map`, the hexes, cities, routes and
tickets of the game's own content pack under the ids its moves use, so any client can draw
the board and address it. The geometry is the replay viewer's (`service/viewer/maps.py`)."""

from __future__ import annotations

from flask import current_app
from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint
from marshmallow import Schema, fields
from werkzeug.exceptions import NotFound

from service.api.guard import Caller, guarded
from service.api.problems import documents_problems
from service.application import Caboose
from service.viewer.maps import game_map

geometry = Blueprint("geometry", __name__, url_prefix="/api/v1/games", description="A game's board geometry.")


class PinnedPackSchema(Schema):
    id = fields.String(required=True)
    version = fields.String(required=True)
    sha256 = fields.String(required=True)


class MapSchema(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    map = fields.String(required=True, metadata={"description": "The map's name (the content pack's id)."})
    pack = fields.Nested(PinnedPackSchema, allow_none=True, metadata={"description": "The content pack the game was created with."})
    cities = fields.Dict(required=True, metadata={"description": (
        "Ticket to Ride: city name → {x, y} where the viewer draws it (empty for a map without a layout). "
        "Age of Steam: hex id → {name, colour, group, number}; a `deliver` move's `city` is the name or the hex.")})
    routes = fields.List(fields.Dict(), metadata={"description": (
        "Ticket to Ride: {id, a, b, length, colour, double, lane, points}; `id` is what `claim_route` names.")})
    tickets = fields.Dict(metadata={"description": "Ticket to Ride: ticket id (as `keep_tickets` names it) → {a, b, points}."})
    width = fields.Integer(allow_none=True, metadata={"description": "Ticket to Ride: the drawing's width, for `x`."})
    height = fields.Integer(allow_none=True, metadata={"description": "Ticket to Ride: the drawing's height, for `y`."})
    hexes = fields.Dict(metadata={"description": "Age of Steam: hex id \"col,row\" (as `build`, `urbanize` name it) → "
                                                 "{terrain, town?}."})
    edges = fields.List(fields.String(), metadata={"description": "Age of Steam: the six hex sides, by index (rotation 0)."})
    layout = fields.String(metadata={"description": "Age of Steam: how hex ids map to places on the board."})
    new_cities = fields.Dict(metadata={"description": "Age of Steam: the new-city tiles `urbanize` places, by letter."})


@geometry.get("/<game_id>/map")
@guarded(Caller.PUBLIC, limit="read")
@geometry.response(200, MapSchema)
@documents_problems(404)
def get_map(game_id: str) -> ResponseReturnValue:
    """Show the game's board: hexes, cities, routes and tickets, under the ids its moves use."""
    caboose: Caboose = current_app.extensions["caboose"]
    game = caboose.game(game_id)
    board = game_map(game.decider)
    if board is None:
        raise NotFound(f"{game.ruleset} has no board geometry to show; its moves name no places on a map.")
    pack = caboose.records(game_id, upto=1)[0]["data"].get("content")
    return {**board, "game_id": game_id, "pack": pack}, 200, {"Cache-Control": "public, max-age=3600"}
