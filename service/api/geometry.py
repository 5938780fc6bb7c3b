"""A game's board over HTTP: `GET /api/v1/games/{id}/map`, the hexes, cities, routes, tiles and
buildings of the game's own content pack under the ids its moves use, so any client can draw
the board and address it. The geometry is the replay viewer's (`service/viewer/maps.py`), as each game
declares it (`Decider.static_board`).

Each game's board has a shape of its own, which the game declares as a JSON Schema
(`Decider.board_schema`); the response is documented as one of them, told apart by `game`
(`board_schemas`, published by `service.api.document`), so a client reads the schema of the
game it plays. Nothing here names a game."""

from __future__ import annotations

import copy
from typing import Any

from flask import current_app, jsonify
from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint
from werkzeug.exceptions import NotFound

from domain import games
from domain.core import log
from service.api.guard import Caller, guarded
from service.api.problems import documents_problems
from service.application import Caboose
from service.viewer.maps import game_map

geometry = Blueprint("geometry", __name__, url_prefix="/api/v1/games", description="A game's board geometry.")

COMMON: dict[str, Any] = {
    "game_id": {"type": "string"},
    "game": {"type": "string", "description": "The game (its ruleset's name): which board schema this is."},
    "pack": {"type": "object", "nullable": True, "description": "The content pack the game was created with.",
             "additionalProperties": False,
             "properties": {"id": {"type": "string"}, "version": {"type": "string"}, "sha256": {"type": "string"}}},
    "layout": {"type": "string", "description": "How the board's place ids map to places on a plane (hex grids)."},
    "names": {"type": "object", "description": (
        "What the content pack calls its things in each language (its `names.json`): kind (`cities`, `buildings`, "
        "`goods`, ...) → id → language tag (`en`, `th`, `zh-TW`) → name."), "additionalProperties": {
        "type": "object", "additionalProperties": {"type": "object", "additionalProperties": {"type": "string"}}}},
}
"""What every game's board answer holds besides the game's own fields."""


def board_component(game: str) -> str:
    """The OpenAPI component a game's board is published as."""
    return f"{game}.board"


def board_schemas() -> dict[str, dict[str, Any]]:
    """Game -> the JSON Schema of its board answer: the game's own (`Decider.board_schema`)
    with the fields every board carries, for every game that declares a board."""
    out = {}
    for name in games.names():
        declared = games.current_rules(name).board_schema
        if declared is None:
            continue
        schema = copy.deepcopy(declared)
        schema["properties"] = {**COMMON, **schema.get("properties", {})}
        schema["required"] = sorted({"game_id", "game", *schema.get("required", ())})
        out[name] = schema
    return out


def map_response(schemas: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The map operation's answer: one of the games' board schemas, told apart by `game`."""
    refs = {game: f"#/components/schemas/{board_component(game)}" for game in schemas}
    return {"description": "The game's board, in the schema of its game (`game` tells which).", "content": {
        "application/json": {"schema": {"oneOf": [{"$ref": ref} for ref in refs.values()],
                                        "discriminator": {"propertyName": "game", "mapping": refs}}}}}


@geometry.get("/<game_id>/map")
@guarded(Caller.PUBLIC, limit="read")
@documents_problems(404)
def get_map(game_id: str) -> ResponseReturnValue:
    """Show the game's board: hexes, cities, routes, tiles and buildings, under the ids its moves use."""
    caboose: Caboose = current_app.extensions["caboose"]
    game = caboose.game(game_id)
    board = game_map(game.decider)
    if board is None:
        raise NotFound(f"{game.ruleset} has no board geometry to show; its moves name no places on a map.")
    pinned = log.created_of(caboose.records(game_id, upto=1)[0]).content
    pack = {"id": pinned.id, "version": pinned.version, "sha256": pinned.sha256} if pinned is not None else None
    body: dict[str, Any] = {**board, "game_id": game_id, "pack": pack}
    return jsonify(body), 200, {"Cache-Control": "public, max-age=3600"}
