"""Projections over HTTP: a game's board, income tracks, VP tallies and timeline, now or
as they stood at version `at` (time travel); and the bulk export of many games.

Each read first brings the read models up to the game's current version, so the answer
is the same as a fold of the log even when no projection runner is running.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Response, current_app, stream_with_context
from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint
from marshmallow import RAISE, Schema, fields, validate
from webargs.fields import DelimitedList

from domain.core.events import Audience
from projections.runner import caught_up
from projections.store import ReadModelError, UnknownGame, VersionNotYet
from service.api.guard import Caller, guarded
from service.api.problems import RETRY_AFTER, documents_problems, problem
from service.application import Caboose
from service.bulk import export_lines, select_games

projections = Blueprint("projections", __name__, url_prefix="/api/v1/games",
                        description="Projections: board, income, scores and timeline at any version; bulk export.")


def caboose() -> Caboose:
    return current_app.extensions["caboose"]


class AtSchema(Schema):
    at = fields.Integer(validate=validate.Range(min=1), load_default=None,
                        metadata={"description": "The version to show (time travel); omitted means now."})


class SeatScoreSchema(Schema):
    seat = fields.Integer(required=True)
    total = fields.Integer(required=True)
    by_source = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)


class ScoresSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    seats = fields.List(fields.Nested(SeatScoreSchema), required=True)


class SeatIncomeSchema(Schema):
    seat = fields.Integer(required=True)
    income = fields.Integer(required=True, allow_none=True, metadata={"description": "null for games without income."})
    tracks = fields.Dict(keys=fields.String(), required=True, metadata={"description": "Other resource levels (trains left…)."})


class IncomeSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    seats = fields.List(fields.Nested(SeatIncomeSchema), required=True)


class BoardSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    board = fields.Dict(keys=fields.String(), required=True,
                        metadata={"description": "Cell (route, hex, edge) -> what is there; empty cells are absent."})


class TimelinePointSchema(Schema):
    version = fields.Integer(required=True)
    seats = fields.Dict(keys=fields.String(), values=fields.Dict(), required=True,
                        metadata={"description": "Seat -> {vp, income} after this event."})


class TimelineSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    points = fields.List(fields.Nested(TimelinePointSchema), required=True,
                         metadata={"description": "One point per event that changed a seat's VP or income."})


class ExportQuerySchema(Schema):
    status = fields.String(validate=validate.OneOf(["active", "finished"]), load_default=None)
    game = fields.String(validate=validate.Length(min=1, max=64), load_default=None)
    ids = DelimitedList(fields.UUID(), load_default=list, validate=validate.Length(min=1, error="`ids` names no game."),
                        metadata={"description": "Comma-separated game ids (instead of the filters)."})
    after = fields.UUID(load_default=None, metadata={"description": "Page on: games created after this one."})
    limit = fields.Integer(validate=validate.Range(min=1, max=10000), load_default=1000)


def _view(game_id: str, at: int | None, what: str, audience: Audience) -> dict[str, Any]:
    caboose().seen_as(game_id, audience)  # a game the caller may not see is refused (`Withheld`)
    store = caught_up(caboose(), game_id)
    return getattr(store, what)(game_id, at)


@projections.get("/<game_id>/board")
@guarded(Caller.PUBLIC, limit="read")
@projections.arguments(AtSchema(), location="query", as_kwargs=True, unknown=RAISE)
@projections.response(200, BoardSchema)
@documents_problems(400, 403, 404)
def get_board(game_id: str, at: int | None, audience: Audience) -> ResponseReturnValue:
    """Show what is on each route, hex or edge of the board, now or at version `at`."""
    body = _view(game_id, at, "board", audience)
    return body, 200, {"ETag": f'"{body["version"]}"'}


@projections.get("/<game_id>/income")
@guarded(Caller.PUBLIC, limit="read")
@projections.arguments(AtSchema(), location="query", as_kwargs=True, unknown=RAISE)
@projections.response(200, IncomeSchema)
@documents_problems(400, 403, 404)
def get_income(game_id: str, at: int | None, audience: Audience) -> ResponseReturnValue:
    """Show each seat's income and resource tracks, now or at version `at`."""
    body = _view(game_id, at, "income", audience)
    return body, 200, {"ETag": f'"{body["version"]}"'}


@projections.get("/<game_id>/scores")
@guarded(Caller.PUBLIC, limit="read")
@projections.arguments(AtSchema(), location="query", as_kwargs=True, unknown=RAISE)
@projections.response(200, ScoresSchema)
@documents_problems(400, 403, 404)
def get_scores(game_id: str, at: int | None, audience: Audience) -> ResponseReturnValue:
    """Show each seat's VP, by source, now or at version `at`."""
    body = _view(game_id, at, "scores", audience)
    return body, 200, {"ETag": f'"{body["version"]}"'}


@projections.get("/<game_id>/timeline")
@guarded(Caller.PUBLIC, limit="read")
@projections.arguments(AtSchema(), location="query", as_kwargs=True, unknown=RAISE)
@projections.response(200, TimelineSchema)
@documents_problems(400, 403, 404)
def get_timeline(game_id: str, at: int | None, audience: Audience) -> ResponseReturnValue:
    """Chart data: every seat's VP and income after each event that changed one (up to `at`)."""
    body = _view(game_id, at, "timeline", audience)
    return body, 200, {"ETag": f'"{body["version"]}"'}


@projections.get("/export")
@guarded(Caller.PUBLIC, limit="expensive")
@projections.arguments(ExportQuerySchema(), location="query", as_kwargs=True, unknown=RAISE)
@projections.response(200, {"type": "string", "description": "One record (FORMAT.md) per line."},
                      description="JSON Lines (FORMAT.md): the games' events, game after game.",
                      content_type="application/jsonl")
@documents_problems(400, 404)
def export_games(status: str | None, game: str | None, ids: list[Any] | None, after: Any, limit: int) -> ResponseReturnValue:
    """Stream many games' records as JSON Lines (a season's archive). Each game is shown as
    the public sees it: whole once finished, its secrets as digests while active; every
    game verifies on import (`caboose bulk import`)."""
    app = caboose()
    chosen = select_games(app, status, game, [str(i) for i in ids] if ids else None, str(after) if after else None, limit)

    def lines() -> Iterator[str]:
        yield from export_lines(app, chosen)

    return Response(stream_with_context(lines()), mimetype="application/jsonl",
                    headers={"Content-Disposition": "attachment; filename=games.jsonl", "X-Games": str(len(chosen))})


@projections.errorhandler(VersionNotYet)
def version_not_yet(error: VersionNotYet) -> Response:
    return problem(400, "No such version", error.message, error.code, current_version=error.version)


@projections.errorhandler(UnknownGame)
def unknown_game(error: UnknownGame) -> Response:
    return problem(404, "Game not found", error.message, error.code)


@projections.errorhandler(ReadModelError)
def read_model_error(error: ReadModelError) -> Response:
    return problem(503, "Read models unavailable", error.message, error.code, headers={"Retry-After": str(RETRY_AFTER)})
