"""Referee tools and takebacks over HTTP: rewind, fork, takebacks, disputes, rulings,
adjustments, and the audit report. Every action is appended as an event; nothing is
erased.

Referee actions need the game's referee token; a seat's request or answer needs that seat's
token (or the referee's). The body names the referee as the log should call them.
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app
from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint
from marshmallow import RAISE, Schema, fields, validate
from werkzeug.exceptions import Forbidden

from domain.core.events import Audience
from domain.core.referee import ADJUSTMENT_KINDS, OUTCOMES
from service import bots
from service import referee as desk
from service.aggregate import Game
from service.api.auth import acting_seat, lobby
from service.api.games import idempotency_key
from service.api.guard import Caller, guarded
from service.api.preconditions import expected_versions
from service.api.problems import documents_problems
from service.api.schemas import IDEMPOTENCY_HEADER, CheckSchema
from service.application import Caboose

referee = Blueprint("referee", __name__, url_prefix="/api/v1/games",
                    description="Referee tools: rewind, fork, takebacks, disputes, rulings, adjustments, bots in seats, "
                                "move deadlines, audit.")


def caboose() -> Caboose:
    return current_app.extensions["caboose"]


def referee_named(audience: Audience, name: str) -> str:
    """The referee acting, as the log will call them: only with the game's referee token."""
    if not audience.referee:
        raise Forbidden("Only the game's referee may do this; a seat's token may not.")
    return name


NAME = validate.Length(min=1, max=64)
REASON = fields.String(required=True, validate=validate.Length(min=1, max=500))


class Strict(Schema):
    pass


class RewindSchema(Strict):
    referee = fields.String(required=True, validate=NAME)
    to_version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    reason = REASON
    dispute = fields.Integer(strict=True, load_default=None, allow_none=True,
                             metadata={"description": "The version of the DisputeRaised this rewind settles."})
    expected_version = fields.Integer(strict=True, validate=validate.Range(min=1), load_default=None)


class ForkSchema(Strict):
    referee = fields.String(required=True, validate=NAME)
    at_version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    reason = REASON
    seed = fields.String(load_default=None, allow_none=True, validate=validate.Regexp(r"^[0-9a-fA-F]{64}$"))


class TakebackRequestSchema(Strict):
    seat = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=64))


class TakebackAnswerSchema(Strict):
    accept = fields.Boolean(required=True, truthy={True}, falsy={False})
    seat = fields.Integer(strict=True, validate=validate.Range(min=0, max=64), load_default=None)
    referee = fields.String(validate=NAME, load_default=None)
    reason = fields.String(validate=validate.Length(max=500), load_default="")


class DisputeSchema(Strict):
    referee = fields.String(required=True, validate=NAME)
    version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1),
                             metadata={"description": "The event in question."})
    raised_by = fields.String(required=True, validate=NAME, metadata={"description": "Who raised it (seat:N or a name)."})
    claim = fields.String(required=True, validate=validate.Length(min=1, max=5000))


class RulingSchema(Strict):
    referee = fields.String(required=True, validate=NAME)
    text = fields.String(required=True, validate=validate.Length(min=1, max=5000))
    outcome = fields.String(required=True, validate=validate.OneOf(OUTCOMES))


class AdjustmentSchema(Strict):
    referee = fields.String(required=True, validate=NAME)
    seat = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=64))
    kind = fields.String(required=True, validate=validate.OneOf(ADJUSTMENT_KINDS))
    amount = fields.Integer(required=True, strict=True, validate=validate.Range(min=-10**6, max=10**6))
    reason = REASON
    detail = fields.Dict(keys=fields.String(), load_default=dict,
                         metadata={"description": "What else the game needs, e.g. {\"route\": \"Denver|Omaha\"} for a piece."})
    dispute = fields.Integer(strict=True, load_default=None, allow_none=True)
    expected_version = fields.Integer(strict=True, validate=validate.Range(min=1), load_default=None)


class TakeOverSchema(Strict):
    level = fields.String(required=True, validate=validate.Length(min=1, max=32),
                          metadata={"description": "One of the game's bot levels (random, playout, and greedy or planner where offered)."})
    reason = fields.String(load_default="the referee handed the seat to a bot", validate=validate.Length(min=1, max=500))
    referee = fields.String(load_default="referee", validate=NAME)
    expected_version = fields.Integer(strict=True, validate=validate.Range(min=1), load_default=None)


class HandBackSchema(Strict):
    reason = fields.String(load_default="the referee handed the seat back to a person", validate=validate.Length(min=1, max=500))
    referee = fields.String(load_default="referee", validate=NAME)


class DeadlineSchema(Strict):
    move_deadline = fields.Raw(required=True, allow_none=True, metadata={
        "description": "Seconds, or an ISO 8601 duration such as \"PT24H\"; null lifts the deadline."})
    referee = fields.String(load_default="referee", validate=NAME)


class RecordsSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    events = fields.List(fields.Dict(), required=True)


class HandedBackSchema(RecordsSchema):
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"description": "The seat's fresh token (shown once); the old one no longer works."})


class ForkedSchema(Schema):
    game_id = fields.String(required=True)
    forked_from = fields.Dict(required=True)
    version = fields.Integer(required=True)
    seat_tokens = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                              metadata={"description": "Fresh tokens for the fork's seats (shown once)."})
    referee_token = fields.String(required=True)


class DisputesSchema(Schema):
    game_id = fields.String(required=True)
    disputes = fields.List(fields.Dict(), required=True)


class AuditQuerySchema(Strict):
    format = fields.String(validate=validate.OneOf(["json", "text"]), load_default="json")


def once(loaded: Game | None) -> dict[str, Any]:
    """The request's idempotency key and the game as the guard loaded it: an action is
    retried like a move, and a retry with the same key answers as the first attempt did."""
    return {"idempotency_key": idempotency_key(), "loaded": loaded}


KEYED = referee.doc(parameters=[IDEMPOTENCY_HEADER])
"""Documents the Idempotency-Key header an action takes."""


def _stored(game_id: str, records: list[dict[str, Any]]) -> ResponseReturnValue:
    version = records[-1]["version"]
    return {"game_id": game_id, "version": version, "events": records}, 201, {"ETag": f'"{version}"'}


@referee.post("/<game_id>/rewind")
@guarded(Caller.REFEREE, limit="move")
@referee.arguments(RewindSchema())
@KEYED
@referee.response(201, RecordsSchema)
@documents_problems(400, 401, 403, 404, 409, 412, 422, 429)
def post_rewind(args: dict[str, Any], game_id: str, loaded: Game | None) -> ResponseReturnValue:
    """Rewind without erasing: append GameRewound; the state becomes the state at `to_version`.
    The random stream is not rewound: new draws continue it."""
    name = args["referee"]
    return _stored(game_id, desk.rewind(caboose(), game_id, name, args["to_version"], args["reason"],
                                        args["dispute"], expected_versions(args["expected_version"]), **once(loaded)))


@referee.post("/<game_id>/fork")
@guarded(Caller.REFEREE, limit="move")
@referee.arguments(ForkSchema())
@KEYED
@referee.response(201, ForkedSchema)
@documents_problems(400, 401, 403, 404, 422, 429)
def post_fork(args: dict[str, Any], game_id: str) -> ResponseReturnValue:
    """Fork: a new game whose history is a copy of the first `at_version` events, linked
    to this one (what-if analysis); its new draws come from a new seed. With an
    `Idempotency-Key`, a retry answers with the same fork and stores nothing new; its tokens
    were shown once (only their hashes are kept), so the retry's answer has fresh ones, which
    replace the first answer's."""
    name = args["referee"]
    seed = bytes.fromhex(args["seed"]) if args["seed"] else None
    fork_id, issued = lobby().fork_game(game_id, name, args["at_version"], args["reason"], seed, idempotency_key())
    fork = caboose().game(fork_id)
    body = {"game_id": fork_id, "forked_from": {"game_id": game_id, "version": args["at_version"]}, "version": fork.version,
            "seat_tokens": {str(k): v for k, v in issued.seat_tokens.items()}, "referee_token": issued.referee_token}
    return body, 201, {"Location": f"/api/v1/games/{fork_id}"}


@referee.post("/<game_id>/takebacks")
@guarded(Caller.PLAYER, limit="move")
@referee.arguments(TakebackRequestSchema())
@KEYED
@referee.response(201, RecordsSchema)
@documents_problems(400, 401, 403, 404, 422, 429)
def post_takeback(args: dict[str, Any], game_id: str, audience: Audience, loaded: Game | None) -> ResponseReturnValue:
    """A seat asks to take back its own last move (never one that drew or revealed anything)."""
    seat = acting_seat(audience, args["seat"])
    return _stored(game_id, desk.request_takeback(caboose(), game_id, seat, **once(loaded)))


@referee.post("/<game_id>/takebacks/answer")
@guarded(Caller.PLAYER, limit="move")
@referee.arguments(TakebackAnswerSchema())
@KEYED
@referee.response(201, RecordsSchema)
@documents_problems(400, 401, 403, 404, 422, 429)
def post_takeback_answer(args: dict[str, Any], game_id: str, audience: Audience, loaded: Game | None) -> ResponseReturnValue:
    """Another seat (or a referee, for everyone) accepts or refuses the pending takeback;
    when every other seat has accepted, MoveTakenBack rewinds to before the move."""
    seat = acting_seat(audience, args["seat"]) if args["seat"] is not None else None
    name = referee_named(audience, args["referee"]) if args["referee"] is not None else None
    return _stored(game_id, desk.answer_takeback(caboose(), game_id, args["accept"], seat=seat, referee_name=name,
                                                 reason=args["reason"], **once(loaded)))


@referee.get("/<game_id>/disputes")
@guarded(Caller.PUBLIC, limit="expensive")
@referee.response(200, DisputesSchema)
@documents_problems(403, 404)
def get_disputes(game_id: str, audience: Audience) -> ResponseReturnValue:
    """Every dispute, raised or ruled, with its ruling and the actions that cite it."""
    caboose().seen_as(game_id, audience)
    return {"game_id": game_id, "disputes": desk.disputes(caboose(), game_id)}


@referee.post("/<game_id>/disputes")
@guarded(Caller.REFEREE, limit="move")
@referee.arguments(DisputeSchema())
@KEYED
@referee.response(201, RecordsSchema)
@documents_problems(400, 401, 403, 404, 422, 429)
def post_dispute(args: dict[str, Any], game_id: str, loaded: Game | None) -> ResponseReturnValue:
    """Record a dispute about event `version`: who raised it and the claim."""
    name = args["referee"]
    return _stored(game_id, desk.raise_dispute(caboose(), game_id, name, args["version"], args["raised_by"], args["claim"],
                                               **once(loaded)))


@referee.post("/<game_id>/disputes/<int:dispute>/ruling")
@guarded(Caller.REFEREE, limit="move")
@referee.arguments(RulingSchema())
@KEYED
@referee.response(201, RecordsSchema)
@documents_problems(400, 401, 403, 404, 422, 429)
def post_ruling(args: dict[str, Any], game_id: str, dispute: int, loaded: Game | None) -> ResponseReturnValue:
    """Rule on an open dispute (identified by the version of its DisputeRaised)."""
    name = args["referee"]
    return _stored(game_id, desk.rule(caboose(), game_id, name, dispute, args["text"], args["outcome"], **once(loaded)))


@referee.post("/<game_id>/adjustments")
@guarded(Caller.REFEREE, limit="move")
@referee.arguments(AdjustmentSchema())
@KEYED
@referee.response(201, RecordsSchema)
@documents_problems(400, 401, 403, 404, 409, 412, 422, 429)
def post_adjustment(args: dict[str, Any], game_id: str, loaded: Game | None) -> ResponseReturnValue:
    """Adjust a seat's VP, cash or income, or put a piece back, with a reason."""
    name = args["referee"]
    return _stored(game_id, desk.adjust(caboose(), game_id, name, args["seat"], args["kind"], args["amount"], args["reason"],
                                        args["detail"], args["dispute"], expected_versions(args["expected_version"]),
                                        **once(loaded)))


@referee.post("/<game_id>/seats/<int:seat>/bot")
@guarded(Caller.REFEREE, limit="move")
@referee.arguments(TakeOverSchema())
@KEYED
@referee.response(201, RecordsSchema)
@documents_problems(400, 401, 403, 404, 409, 412, 422, 429)
def post_seat_bot(args: dict[str, Any], game_id: str, seat: int, loaded: Game | None) -> ResponseReturnValue:
    """Hand a seat to a bot (SeatTakenOver): it moves for the seat whenever the seat is to act,
    and the seat's token can no longer move for it, until the seat is handed back."""
    return _stored(game_id, bots.take_over(caboose(), game_id, seat, args["level"], args["reason"], args["referee"],
                                           args["expected_version"], **once(loaded)))


@referee.post("/<game_id>/seats/<int:seat>/hand-back")
@guarded(Caller.REFEREE, limit="move")
@referee.arguments(HandBackSchema())
@KEYED
@referee.response(201, HandedBackSchema)
@documents_problems(400, 401, 403, 404, 409, 422, 429)
def post_hand_back(args: dict[str, Any], game_id: str, seat: int) -> ResponseReturnValue:
    """Hand a seat a bot holds back to a person (SeatHandedBack): the bot stops, and the seat
    gets a fresh token, returned once; its old token no longer works."""
    records, token = bots.hand_back(lobby(), game_id, seat, args["reason"], args["referee"], idempotency_key())
    version = records[-1]["version"]
    return {"game_id": game_id, "version": version, "events": records, "seat": seat, "token": token}, 201, {"ETag": f'"{version}"'}


@referee.put("/<game_id>/deadline")
@guarded(Caller.REFEREE, limit="move")
@referee.arguments(DeadlineSchema())
@KEYED
@referee.response(201, RecordsSchema)
@documents_problems(400, 401, 403, 404, 409, 422, 429)
def put_deadline(args: dict[str, Any], game_id: str, loaded: Game | None) -> ResponseReturnValue:
    """Set, change or lift the game's move deadline (MoveDeadlineSet): once the game has waited
    that long for a seat, the game's strongest bot makes that seat's next move."""
    return _stored(game_id, bots.set_deadline(caboose(), game_id, args["move_deadline"], args["referee"], **once(loaded)))


class FirstProblemSchema(Schema):
    version = fields.Integer(required=True)
    what = fields.String(required=True)


class AuditReportSchema(Schema):
    ok = fields.Boolean(required=True)
    events = fields.Integer(required=True)
    chain = fields.Nested(CheckSchema, required=True)
    rules = fields.Nested(CheckSchema, required=True)
    seed = fields.Nested(CheckSchema, required=True)
    fork = fields.Nested(CheckSchema, metadata={"description": "A fork: its copy of the origin and its own seed."})
    projections = fields.Nested(CheckSchema, metadata={"description": "The read models against a fresh rebuild."})
    unchecked = fields.List(fields.String(), required=True, metadata={"description": "The checks that could not be made."})
    first_problem = fields.Nested(FirstProblemSchema, required=True, allow_none=True)


@referee.get("/<game_id>/audit")
@guarded(Caller.PUBLIC, limit="expensive")
@referee.arguments(AuditQuerySchema(), location="query", as_kwargs=True, unknown=RAISE)
@referee.response(200, AuditReportSchema, description="The audit report (`format=text`: the same as plain text).")
@documents_problems(400, 403, 404)
def get_audit(game_id: str, format: str, audience: Audience) -> ResponseReturnValue:
    """Audit a game: chain intact, every command re-adjudicated under its ruleset version,
    random outcomes re-derived after the reveal, projections equal to a fresh rebuild."""
    caboose().seen_as(game_id, audience)
    report = desk.full_audit(caboose(), game_id, log=current_app.extensions["caboose.services"].log)
    if format == "text":
        return Response(report.text() + "\n", mimetype="text/plain")
    return report.to_json()
