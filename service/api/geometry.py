"""A game's board over HTTP: `GET /api/v1/games/{id}/map`, the hexes, cities, routes, tiles and
buildings of the game's own content pack under the ids its moves use, so any client can draw
the board and address it. The geometry is the replay viewer's (`service/viewer/maps.py`).

Each game's board has a shape of its own, so each has its schema here, and the response is
documented as one of them, told apart by `game`: a client reads the schema of the game it
plays, and the answer is written through that same schema (what is not in it is not sent)."""

from __future__ import annotations

from typing import Any

from flask import current_app, jsonify
from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint
from marshmallow import Schema, fields
from werkzeug.exceptions import NotFound

from service.api.guard import Caller, guarded
from service.api.problems import documents_problems
from service.application import Caboose
from service.viewer.maps import game_map

geometry = Blueprint("geometry", __name__, url_prefix="/api/v1/games", description="A game's board geometry.")


def _described(field: fields.Field, text: str) -> fields.Field:
    field.metadata = {**field.metadata, "description": text}
    return field


class PinnedPackSchema(Schema):
    id = fields.String(required=True)
    version = fields.String(required=True)
    sha256 = fields.String(required=True)


class BoardSchema(Schema):
    """What every game's board answer holds."""

    game_id = fields.String(required=True)
    game = fields.String(required=True, metadata={"description": "The game (its ruleset's name): which board schema this is."})
    pack = fields.Nested(PinnedPackSchema, allow_none=True, metadata={"description": "The content pack the game was created with."})
    layout = fields.String(metadata={"description": "How the board's place ids map to places on a plane (hex grids)."})
    names = fields.Dict(keys=fields.String(), values=fields.Dict(keys=fields.String(), values=fields.Dict(
        keys=fields.String(), values=fields.String())), metadata={
        "description": "What the content pack calls its things in each language (its `names.json`): kind (`cities`, "
                       "`buildings`, `goods`, ...) → id → language tag (`en`, `th`, `zh-TW`) → name."})


# -- Ticket to Ride ------------------------------------------------------------------------

class TicketToRideCitySchema(Schema):
    x = fields.Float(metadata={"description": "Where the viewer draws the city, 0..width (absent for a map without a layout)."})
    y = fields.Float(metadata={"description": "Where the viewer draws the city, 0..height."})


class TicketToRideRouteSchema(Schema):
    id = fields.String(required=True, metadata={
        "description": "What `claim_route` names: \"CityA|CityB\", with \"#0\" or \"#1\" for a double route's lane."})
    a = fields.String(required=True, metadata={"description": "One end (a key of `cities`)."})
    b = fields.String(required=True, metadata={"description": "The other end."})
    length = fields.Integer(required=True, metadata={"description": "Train cars (and cards) the route takes."})
    colour = fields.String(required=True, metadata={"description": "The card colour it takes; `gray`: any one colour."})
    double = fields.Boolean(required=True, metadata={"description": "One of two parallel lanes between the same cities."})
    lane = fields.Integer(allow_none=True, metadata={"description": "A double route's lane, 0 or 1."})
    points = fields.Integer(required=True, metadata={"description": "What claiming it scores."})


class TicketToRideTicketSchema(Schema):
    a = fields.String(required=True)
    b = fields.String(required=True)
    points = fields.Integer(required=True, metadata={
        "description": "Scored when `a` and `b` are joined by the seat's routes, lost when not."})


class TicketToRideMapSchema(BoardSchema):
    map = fields.String(required=True, metadata={"description": "The map's name (the content pack's id)."})
    cities = fields.Dict(keys=fields.String(), values=fields.Nested(TicketToRideCitySchema), required=True,
                         metadata={"description": "City name → where it is drawn."})
    routes = fields.List(fields.Nested(TicketToRideRouteSchema), required=True)
    tickets = fields.Dict(keys=fields.String(), values=fields.Nested(TicketToRideTicketSchema), required=True,
                          metadata={"description": "Ticket id (as `keep_tickets` names it) → its cities and points."})
    width = fields.Integer(allow_none=True, metadata={"description": "The drawing's width, for `x`."})
    height = fields.Integer(allow_none=True, metadata={"description": "The drawing's height, for `y`."})


# -- Age of Steam --------------------------------------------------------------------------

class AgeOfSteamHexSchema(Schema):
    terrain = fields.String(required=True, metadata={"description": "`plain`, `river`, `mountain`, `lake` or `city`."})
    town = fields.String(metadata={"description": "The town's name, on a town hex."})


class AgeOfSteamCitySchema(Schema):
    name = fields.String(required=True, metadata={"description": "What a `deliver` move's `city` may name (or the hex id)."})
    colour = fields.String(required=True, metadata={"description": "The goods colour the city demands."})
    group = fields.String(required=True, metadata={"description": "`light` or `dark`: the goods growth half it is in."})
    number = fields.Integer(required=True, metadata={"description": "Its goods growth die number."})


class AgeOfSteamNewCitySchema(Schema):
    colour = fields.String(required=True)
    group = fields.String(required=True)
    die = fields.Integer(required=True, metadata={"description": "Its goods growth die number."})


class AgeOfSteamTileSchema(Schema):
    plain = _described(fields.List(fields.List(fields.List(fields.Integer()))), (
        "On a plain (or river, mountain) hex: by rotation 0-5 (the index, as `build` names it), the tile's "
        "track segments, each a pair of the edges it joins ([0, 3]: north to south)."))
    town = _described(fields.List(fields.List(fields.List(fields.Integer()))), (
        "On a town hex: by rotation 0-5, the tile's exits, each [edge, `town_centre`] (an edge joined to the town)."))


class AgeOfSteamMapSchema(BoardSchema):
    map = fields.String(allow_none=True, metadata={"description": "The map's name (the content pack's id)."})
    edges = fields.List(fields.String(), required=True, metadata={
        "description": "The six hex sides by index, clockwise from the north (N, NE, SE, S, SW, NW); a tile's segments and "
                       "a link's ports (`\"col,row:edge\"`) name them by index."})
    hexes = fields.Dict(keys=fields.String(), values=fields.Nested(AgeOfSteamHexSchema), required=True, metadata={
        "description": "Hex id \"col,row\" (as `build` and `urbanize` name it) → its terrain and town."})
    cities = fields.Dict(keys=fields.String(), values=fields.Nested(AgeOfSteamCitySchema), required=True,
                         metadata={"description": "Hex id → the city printed there."})
    new_cities = fields.Dict(keys=fields.String(), values=fields.Nested(AgeOfSteamNewCitySchema), required=True,
                             metadata={"description": "The new-city tiles `urbanize` places, by letter."})
    tiles = fields.Dict(keys=fields.String(), values=fields.Nested(AgeOfSteamTileSchema), required=True, metadata={
        "description": "Tile name (as `build` names it) → its track at each rotation, so a build can be drawn before it is made."})
    town_centre = fields.Integer(required=True, metadata={"description": "The number a town exit's second end is (the hex's middle)."})


# -- Railway Boom --------------------------------------------------------------------------

class RailwayBoomHexSchema(Schema):
    q = fields.Integer(required=True, metadata={"description": "Axial column."})
    r = fields.Integer(required=True, metadata={"description": "Axial row."})
    terrain = fields.String(required=True)
    power = fields.Integer(required=True, metadata={"description": "The power a rail laid there costs."})
    city = fields.String(required=True, metadata={"description": "The city's kind on a city hex (a station's place), else empty."})


class RailwayBoomMapSchema(BoardSchema):
    hexes = fields.Dict(keys=fields.String(), values=fields.Nested(RailwayBoomHexSchema), required=True, metadata={
        "description": "Hex id (as `lay_rail`'s `hex` and `place_station`'s `city` name it) → where it is and what is there."})
    routes = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), required=True,
                         metadata={"description": "Route id → the hexes it runs through, in order."})
    cards = fields.Dict(keys=fields.String(), values=fields.Dict(), metadata={
        "description": "Card id (trains, development cards, goals, city tiles) → what it is: its `deck`, and its costs, "
                       "coal, VP, slots, timing, condition and `effect` ({type, amount, resource, terrain}) as its deck has them."})


# -- Toot-Toot Train -----------------------------------------------------------------------

class TootTootBuildingSchema(Schema):
    id = fields.String(required=True, metadata={"description": "What moves name it by (`site`, `city`, `factory`)."})
    kind = fields.String(required=True)
    hexes = fields.List(fields.String(), required=True, metadata={"description": "The hexes it covers (\"col,row\")."})
    sides = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "\"col,row/edge\" → what that side of the building is (`open`, `waterway`, ...): where track may meet it."})
    good = fields.String(required=True, metadata={"description": "A site's good, else empty."})
    colour = fields.String(required=True, metadata={"description": "A city's colour, else empty."})
    factory = fields.String(required=True, metadata={"description": "A printed factory's kind, else empty."})


class TootTootStartSchema(Schema):
    hex = fields.String(required=True)
    facing = fields.Integer(required=True, metadata={"description": "The edge a train starting there faces."})


class TootTootMapSchema(Schema):
    title = fields.String(required=True)
    orientation = fields.String(required=True)
    terrain = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "Hex id \"col,row\" (as track moves' `hex` names it) → its terrain."})
    buildings = fields.List(fields.Nested(TootTootBuildingSchema), required=True)
    starts = fields.List(fields.Nested(TootTootStartSchema), required=True)


class TootTootMapsSchema(BoardSchema):
    maps = fields.Dict(keys=fields.String(), values=fields.Nested(TootTootMapSchema), required=True, metadata={
        "description": "Every map of the pack by id; the game's view names the one in play. Track moves name a hex and "
                       "two of its edges, numbered 0-5 clockwise from the east."})


BOARD_SCHEMAS: dict[str, type[Schema]] = {
    "ticket_to_ride": TicketToRideMapSchema, "age_of_steam": AgeOfSteamMapSchema,
    "railway_boom": RailwayBoomMapSchema, "toot_toot": TootTootMapsSchema}
"""Game → the schema its board is written and documented through; a game with a board in
`service/viewer/maps.py` adds its schema here."""

_MAP_RESPONSE = {"description": "The game's board, in the schema of its game (`game` tells which).", "content": {
    "application/json": {"schema": {"oneOf": list(BOARD_SCHEMAS.values()), "discriminator": {"propertyName": "game", "mapping": {
        game: f"#/components/schemas/{schema.__name__.removesuffix('Schema')}" for game, schema in BOARD_SCHEMAS.items()}}}}}}


@geometry.get("/<game_id>/map")
@guarded(Caller.PUBLIC, limit="read")
@geometry.doc(responses={"200": _MAP_RESPONSE})
@documents_problems(404)
def get_map(game_id: str) -> ResponseReturnValue:
    """Show the game's board: hexes, cities, routes, tiles and buildings, under the ids its moves use."""
    caboose: Caboose = current_app.extensions["caboose"]
    game = caboose.game(game_id)
    board = game_map(game.decider)
    schema = BOARD_SCHEMAS.get(game.ruleset)
    if board is None or schema is None:
        raise NotFound(f"{game.ruleset} has no board geometry to show; its moves name no places on a map.")
    pack = caboose.records(game_id, upto=1)[0]["data"].get("content")
    body: dict[str, Any] = schema().dump({**board, "game_id": game_id, "pack": pack})
    return jsonify(body), 200, {"Cache-Control": "public, max-age=3600"}
