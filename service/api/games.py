"""The games resource: create, read, view, list legal moves, submit moves."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from marshmallow import ValidationError

from domain.core.events import Audience
from service.api.schemas import CreateGameSchema, EventsQuerySchema, MoveSchema, SeatQuerySchema, StateQuerySchema
from service.application import Caboose

games = Blueprint("games", __name__)


def caboose() -> Caboose:
    return current_app.extensions["caboose"]


def json_body() -> Any:
    body = request.get_json(silent=True)
    if body is None:
        raise ValidationError({"_body": ["The body must be a JSON object (Content-Type: application/json)."]})
    return body


def expected_version(body_version: int | None) -> int | None:
    header = request.headers.get("If-Match", "").strip().strip('"').removeprefix("W/").strip('"')
    if header.isdigit():
        return int(header)
    return body_version


@games.post("")
def create_game() -> ResponseReturnValue:
    """Create a game."""
    args = CreateGameSchema().load(json_body())
    app = caboose()
    seed = bytes.fromhex(args["seed"]) if args["seed"] else None
    game_id = app.create_game(args["game"], args["players"], args["options"], seed=seed)
    summary = app.summary(game_id)
    created = app.records(game_id, upto=1)[0]["data"]
    return jsonify({**summary, "seed_commitment": created["seed_commitment"]}), 201, {"Location": f"/api/v1/games/{game_id}"}


@games.get("/<game_id>")
def get_game(game_id: str) -> ResponseReturnValue:
    """Show a game's summary: seats, status, whose turn, scores."""
    summary = caboose().summary(game_id)
    return jsonify(summary), 200, {"ETag": f'"{summary["version"]}"'}


@games.get("/<game_id>/state")
def get_state(game_id: str) -> ResponseReturnValue:
    """Show the game state as the caller may see it, now or at version `at`."""
    args = StateQuerySchema().load(request.args)
    view = caboose().state(game_id, Audience.parse(args["as_"]), args["at"])
    return jsonify(view), 200, {"ETag": f'"{view["version"]}"'}


@games.get("/<game_id>/events")
def get_events(game_id: str) -> ResponseReturnValue:
    """List the game's events as the caller may see them."""
    args = EventsQuerySchema().load(request.args)
    app = caboose()
    records = app.view_records(game_id, Audience.parse(args["as_"]), args["after"], args["limit"])
    version = app.game(game_id).version
    return jsonify({"game_id": game_id, "version": version, "events": records}), 200, {"ETag": f'"{version}"'}


@games.get("/<game_id>/legal-moves")
def get_legal_moves(game_id: str) -> ResponseReturnValue:
    """List the moves a seat may make now; each is a complete body for POST …/moves."""
    seat = SeatQuerySchema().load(request.args)["seat"]
    app = caboose()
    moves = [{"seat": seat, **m} for m in app.legal_moves(game_id, seat)]
    version = app.game(game_id).version
    return jsonify({"game_id": game_id, "version": version, "seat": seat, "moves": moves}), 200, {"ETag": f'"{version}"'}


@games.post("/<game_id>/moves")
def post_move(game_id: str) -> ResponseReturnValue:
    """Submit a move; `If-Match` (or `expected_version`) refuses it if the game moved on."""
    move = MoveSchema().load(json_body())
    seat, version = move.pop("seat"), expected_version(move.pop("expected_version"))
    records = caboose().play(game_id, seat, move, expected_version=version)
    shown = caboose().view_records(game_id, Audience(seat=seat), after=records[0]["version"] - 1)
    new_version = records[-1]["version"]
    return jsonify({"game_id": game_id, "version": new_version, "events": shown}), 201, {"ETag": f'"{new_version}"'}
