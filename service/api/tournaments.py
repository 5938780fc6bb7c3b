"""The tournaments resource: create, register, withdraw, pair the next round, standings,
tables, the dispute desk (disputes, rulings), export, import, audit; and the ratings.

Everything a tournament shows is public (its record holds no secret but its own, shown once
revealed). Every write needs the tournament's referee token (401 without a valid one), which
creating or importing it hands out once; a table game's own tokens are handed out when its
round is paired.
"""

from __future__ import annotations

import json
import os
from typing import Any

from flask import Response, current_app, request
from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint
from marshmallow import fields, validate
from werkzeug.exceptions import Unauthorized

from domain.core.events import PUBLIC, Audience
from projections.ratings import ranking
from projections.store import ReadModelError
from service.api import tournament_schemas as ts
from service.api.auth import bearer_token, lobby
from service.api.encoding import as_built
from service.api.games import idempotency_key
from service.api.guard import Caller, guarded
from service.api.problems import documents_problems, problem
from service.api.projections import read_model_error
from service.api.schemas import IDEMPOTENCY_HEADER, Strict
from service.api.stream import EVENT_STREAM, RETRY_MS, StreamHeadersSchema, StreamQuerySchema, pushed
from service.feed import StreamsFull, capacity_from_env
from service.tournament import transfer, views
from service.tournament.live import TournamentFeed
from service.tournament.organiser import Organiser
from service.tournament.ratings import Ratings
from service.tournament.store import TournamentNotFound

tournaments = Blueprint("tournaments", __name__, url_prefix="/api/v1/tournaments",
                        description="Tournaments: events of many tables; rounds, standings, disputes, records.")
ratings_api = Blueprint("ratings", __name__, url_prefix="/api/v1/ratings", description="Ratings: OpenSkill per game title.")

NAME = validate.Length(min=1, max=64)
IMPORT_BYTES = int(os.environ.get("CABOOSE_MAX_IMPORT_BYTES", str(64 * 1024 * 1024)))
"""The largest body `POST …/import` takes: an export holds every table's whole game, far beyond
the other routes' limit (`CABOOSE_MAX_BODY_BYTES`)."""
REFEREE = fields.String(load_default="referee", validate=NAME, metadata={"description": "The referee's name in the record."})


def organiser() -> Organiser:
    return current_app.extensions["caboose.organiser"]  # type: ignore[no-any-return]


def referee_of(tournament_id: str) -> None:
    """Refuse anyone but the tournament's referee: 404 for an unknown tournament, then 401."""
    organiser().shelf.get(tournament_id)
    token = bearer_token()
    if token is None or not lobby().seating.is_referee(tournament_id, token):
        raise Unauthorized("This needs the tournament's referee token.")


def _referee_doc(view: Any) -> Any:
    return tournaments.doc(security=[{"bearer": []}])(documents_problems(401)(view))


KEYED = tournaments.doc(parameters=[IDEMPOTENCY_HEADER])
"""Documents the Idempotency-Key header a referee's command takes: a retry with the same key
is answered with what the first attempt stored, and stores nothing."""


@tournaments.url_value_preprocessor
def larger_imports(endpoint: str | None, _: dict[str, Any] | None) -> None:
    # Before any hook reads the body (the app's input check runs at `before_request`).
    if endpoint == "tournaments.import_tournament":
        request.max_content_length = IMPORT_BYTES


@tournaments.app_errorhandler(TournamentNotFound)
def not_found(error: TournamentNotFound) -> Response:
    return problem(404, "Tournament not found", error.message, error.code)


# The listing, the standings and the ratings are read models: unavailable read models are a
# 503 with the command to run, as for the games' read models.
tournaments.errorhandler(ReadModelError)(read_model_error)
ratings_api.errorhandler(ReadModelError)(read_model_error)


class CreateSchema(Strict):
    name = fields.String(required=True, validate=validate.Length(min=1, max=100))
    game = fields.String(required=True, validate=NAME, metadata={"description": "The ruleset every table plays."})
    format = fields.String(required=True, validate=validate.OneOf(["heats", "swiss", "schedule"]))
    rounds = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=50),
                            metadata={"description": "Rounds (Swiss, schedule) or heats."})
    table_size = fields.Integer(strict=True, load_default=None, allow_none=True)
    semifinal = fields.Integer(strict=True, load_default=None, allow_none=True,
                               metadata={"description": "Heats: players advancing to the semifinal (0: none)."})
    final = fields.Integer(strict=True, load_default=None, allow_none=True, metadata={"description": "Heats: the final's size."})
    seeding = fields.String(load_default="draw", validate=validate.OneOf(["draw", "rating"]))
    place_points = fields.List(fields.Float(validate=validate.Range(min=0)), load_default=None, allow_none=True,
                               validate=validate.Length(min=1, max=8))
    tie_breaks = fields.List(fields.String(validate=NAME), load_default=None, allow_none=True,
                             validate=validate.Length(max=8))
    bye_points = fields.Float(load_default=None, allow_none=True, validate=validate.Range(min=0))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    seed_source = fields.String(load_default="server", validate=validate.OneOf(["server", "table"]), metadata={
        "description": "`table`: tables play with physical components; the commitment covers the seating only."})
    move_deadline = fields.Raw(load_default=None, allow_none=True,
                               metadata={"description": "Seconds, or an ISO 8601 duration such as \"PT24H\"."})
    referee = REFEREE


class RegisterSchema(Strict):
    player = fields.String(required=True, validate=NAME)
    referee = REFEREE


class WithdrawSchema(Strict):
    player = fields.String(required=True, validate=NAME)
    how = fields.String(required=True, validate=validate.OneOf(["forfeit", "bot"]))
    level = fields.String(load_default=None, allow_none=True, validate=NAME)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    referee = REFEREE


class PairSchema(Strict):
    entrants = fields.List(fields.String(validate=NAME), load_default=None, allow_none=True,
                           metadata={"description": "Heats: the players entering this heat (default: everyone still in)."})
    referee = REFEREE


class TournamentDisputeSchema(Strict):
    game_id = fields.String(required=True, validate=NAME)
    version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    raised_by = fields.String(required=True, validate=NAME)
    claim = fields.String(required=True, validate=validate.Length(min=1, max=5000))
    referee = REFEREE


class TournamentRulingSchema(Strict):
    game_id = fields.String(required=True, validate=NAME)
    text = fields.String(required=True, validate=validate.Length(min=1, max=5000))
    outcome = fields.String(load_default="upheld", validate=validate.OneOf(["upheld", "dismissed", "withdrawn"]))
    dispute = fields.Integer(strict=True, load_default=None, allow_none=True,
                             metadata={"description": "The DisputeRaised version in the table's game this settles."})
    places = fields.List(fields.Integer(strict=True, validate=validate.Range(min=1, max=8)), load_default=None,
                         allow_none=True, metadata={"description": "The table's places as ruled, seat 0 first: moves the standings."})
    referee = REFEREE


class ImportSchema(Strict):
    records = fields.List(fields.Dict(), required=True, validate=validate.Length(min=1),
                          metadata={"description": "An export's lines: the tournament's records, then its tables' games."})


class TablesQuery(Strict):
    round = fields.Integer(load_default=None, validate=validate.Range(min=1, max=1000))


class DisputesQuery(Strict):
    all = fields.Boolean(load_default=False, metadata={"description": "Ruled disputes too."})


class ExportQuery(Strict):
    as_ = fields.String(data_key="as", load_default="public", validate=validate.OneOf(["public", "referee"]))


class RatingsQuery(Strict):
    game = fields.String(load_default=None, validate=NAME)


@tournaments.get("")
@guarded(Caller.PUBLIC, limit="read")
@tournaments.response(200, ts.TournamentListSchema)
def list_tournaments() -> ResponseReturnValue:
    """Every tournament, newest activity first."""
    return as_built({"tournaments": views.listing(organiser().caboose)})


@tournaments.post("")
@guarded(Caller.PUBLIC, limit="create")
@tournaments.arguments(CreateSchema())
@tournaments.response(201, ts.CreatedTournamentSchema)
@KEYED
@documents_problems(400, 413, 415, 422)
def create(args: dict[str, Any]) -> ResponseReturnValue:
    """Create a tournament; its referee token is in the answer, once (only its hash is kept).
    With an `Idempotency-Key`, a retry answers with the same tournament and stores nothing
    new; its referee token is a fresh one, which replaces the first answer's."""
    created = organiser().create(args["name"], args["game"], kind=args["format"], rounds=args["rounds"],
                                 options=args["options"], table_size=args["table_size"], semifinal=args["semifinal"],
                                 final=args["final"], seeding=args["seeding"], place_points=args["place_points"],
                                 tie_breaks=args["tie_breaks"], bye_points=args["bye_points"],
                                 seed_source=args["seed_source"], move_deadline=args["move_deadline"],
                                 referee=args["referee"], idempotency_key=idempotency_key())
    body = {**views.summary(organiser().shelf.get(created.tournament_id)), "referee_token": created.referee_token}
    return as_built(body), 201, {"Location": f"/api/v1/tournaments/{created.tournament_id}"}


@tournaments.post("/import")
@guarded(Caller.PUBLIC, limit="create")
@tournaments.arguments(ImportSchema())
@tournaments.response(201, ts.ImportedSchema)
@KEYED
@documents_problems(400, 413, 415, 422)
def import_tournament(args: dict[str, Any]) -> ResponseReturnValue:
    """Verify an exported tournament and store it with its games; a record that does not
    verify stores nothing. Fresh tokens for its referee and every table's seats and referee.
    With an `Idempotency-Key`, a retry answers with the same tournament and stores nothing
    new; its tokens are fresh ones, which replace the first answer's."""
    created, games = transfer.imported(organiser(), args["records"], idempotency_key())
    body = {"tournament_id": created.tournament_id, "referee_token": created.referee_token, "games": games}
    return as_built(body), 201, {"Location": f"/api/v1/tournaments/{created.tournament_id}"}


@tournaments.get("/<tournament_id>")
@guarded(Caller.PUBLIC, limit="read")
@tournaments.response(200, ts.TournamentSchema)
@documents_problems(404)
def summary(tournament_id: str) -> ResponseReturnValue:
    """The tournament: its game, format, scoring, commitment (and secret once revealed), players and rounds."""
    return as_built(views.summary(organiser().shelf.get(tournament_id)))


@tournaments.post("/<tournament_id>/players")
@guarded(Caller.REFEREE, limit="move")
@tournaments.arguments(RegisterSchema())
@tournaments.response(201, ts.StoredRecordsSchema)
@_referee_doc
@KEYED
@documents_problems(400, 404, 422)
def register(args: dict[str, Any], tournament_id: str) -> ResponseReturnValue:
    """Register a player (late registration while rounds the player can enter remain)."""
    referee_of(tournament_id)
    records = organiser().register(tournament_id, args["player"], args["referee"], idempotency_key())
    return as_built({"records": records}), 201


@tournaments.post("/<tournament_id>/withdrawals")
@guarded(Caller.REFEREE, limit="move")
@tournaments.arguments(WithdrawSchema())
@tournaments.response(201, ts.StoredRecordsSchema)
@_referee_doc
@KEYED
@documents_problems(400, 404, 422)
def withdraw(args: dict[str, Any], tournament_id: str) -> ResponseReturnValue:
    """Withdraw a player: paired no more; running games forfeited or kept by a bot."""
    referee_of(tournament_id)
    records = organiser().withdraw(tournament_id, args["player"], args["how"], args["reason"], args["referee"], args["level"],
                                   idempotency_key())
    return as_built({"records": records}), 201


@tournaments.post("/<tournament_id>/rounds")
@guarded(Caller.REFEREE, limit="move")
@tournaments.arguments(PairSchema())
@tournaments.response(201, ts.PairedSchema)
@_referee_doc
@KEYED
@documents_problems(400, 404, 409, 422)
def pair(args: dict[str, Any], tournament_id: str) -> ResponseReturnValue:
    """Pair the next round (a schedule: its season): each table's game created with its derived
    seed and seat order; its seats' and referee's tokens in the answer, once. Refused while
    tables of the round before still play (the problem names them). A retry with the same
    Idempotency-Key answers the tables it paired (`replayed`), without their tokens."""
    referee_of(tournament_id)
    opened = organiser().pair(tournament_id, args["referee"], args["entrants"], idempotency_key())
    replayed = any(t.replayed for t in opened)
    return as_built({"tables": [t.to_json() for t in opened], "replayed": replayed}), 201


class OpeningSchema(Strict):
    observed = fields.Dict(keys=fields.String(), required=True, metadata={
        "description": "The opening as laid out at the table, in the game's own form (docs/transcription.md)."})
    referee = REFEREE


@tournaments.post("/<tournament_id>/rounds/<int:number>/tables/<int:table>/opening")
@guarded(Caller.REFEREE, limit="move")
@tournaments.arguments(OpeningSchema())
@tournaments.response(201, ts.OpenedSchema)
@_referee_doc
@KEYED
@documents_problems(400, 404, 422)
def open_table(args: dict[str, Any], tournament_id: str, number: int, table: int) -> ResponseReturnValue:
    """A physical table's game (`seed_source: table`), made from its opening as laid out there,
    its players in the table's derived seat order; its seats' and referee's tokens, once. A
    retry with the same Idempotency-Key answers the table it opened (`replayed`), without its
    tokens."""
    referee_of(tournament_id)
    opened = organiser().open_table(tournament_id, number, table, args["observed"], args["referee"], idempotency_key())
    return as_built(opened.to_json()), 201


@tournaments.get("/<tournament_id>/standings")
@guarded(Caller.PUBLIC, limit="read")
@tournaments.response(200, ts.StandingsSchema)
@documents_problems(404)
def standings(tournament_id: str) -> ResponseReturnValue:
    """The standings (a read model of the tournament's events, up to the end of the log), in the
    ladder's order, with the pairs who met more than once against the least possible."""
    return as_built(current_app.extensions["caboose.standings"].of(organiser().shelf, tournament_id))


@tournaments.get("/<tournament_id>/tables")
@guarded(Caller.PUBLIC, limit="read")
@tournaments.arguments(TablesQuery(), location="query", as_kwargs=True)
@tournaments.response(200, ts.TablesSchema)
@documents_problems(400, 404)
def tables(tournament_id: str, round: int | None) -> ResponseReturnValue:
    """The tables (of one round with `round`): players in seat order, each game and its replay, results."""
    return as_built({"tables": views.tables(organiser().shelf.get(tournament_id), round)})


@tournaments.get("/<tournament_id>/disputes")
@guarded(Caller.REFEREE, limit="expensive")
@tournaments.arguments(DisputesQuery(), location="query", as_kwargs=True)
@tournaments.response(200, ts.DisputeDeskSchema)
@_referee_doc
@documents_problems(400, 404)
def disputes(tournament_id: str, all: bool) -> ResponseReturnValue:
    """The dispute desk: every open dispute of every table in one list (`all`: ruled ones too)."""
    referee_of(tournament_id)
    state = organiser().shelf.get(tournament_id).state
    return as_built({"disputes": views.open_disputes(organiser().caboose, state, all)})


@tournaments.post("/<tournament_id>/disputes")
@guarded(Caller.REFEREE, limit="move")
@tournaments.arguments(TournamentDisputeSchema())
@tournaments.response(201, ts.StoredRecordsSchema)
@_referee_doc
@KEYED
@documents_problems(400, 404, 422)
def raise_dispute(args: dict[str, Any], tournament_id: str) -> ResponseReturnValue:
    """Record a dispute about an event of one of the tables, in its game."""
    referee_of(tournament_id)
    records = organiser().raise_dispute(tournament_id, args["game_id"], args["version"], args["raised_by"], args["claim"],
                                        args["referee"], idempotency_key())
    return as_built({"records": records}), 201


@tournaments.post("/<tournament_id>/rulings")
@guarded(Caller.REFEREE, limit="move")
@tournaments.arguments(TournamentRulingSchema())
@tournaments.response(201, ts.RuledSchema)
@_referee_doc
@KEYED
@documents_problems(400, 404, 422)
def rule(args: dict[str, Any], tournament_id: str) -> ResponseReturnValue:
    """A ruling: in the table's game, and when `places` changes its result, in the tournament
    (moving the standings). A round paired since stands as paired: `note` says so."""
    referee_of(tournament_id)
    answer = organiser().rule(tournament_id, args["game_id"], args["referee"], args["text"], outcome=args["outcome"],
                              dispute=args["dispute"], places=args["places"], idempotency_key=idempotency_key())
    return as_built(answer), 201


@tournaments.get("/<tournament_id>/export")
@guarded(Caller.PUBLIC, limit="expensive")
@tournaments.arguments(ExportQuery(), location="query", as_kwargs=True)
@tournaments.doc(responses={"200": {"description": "JSON Lines: the tournament's records, then each table's game.",
                                    "content": {"application/jsonl": {"schema": {"type": "string"}}}}})
@documents_problems(400, 401, 404)
def export(tournament_id: str, as_: str) -> ResponseReturnValue:
    """The tournament's record and every table's game (`as=referee`, with the referee's token:
    running games' secrets too)."""
    organiser().shelf.get(tournament_id)  # 404 before the answer starts
    if as_ == "referee":
        referee_of(tournament_id)
    lines = (json.dumps(r, ensure_ascii=False) + "\n" for r in transfer.exported(organiser(), tournament_id,
                                                                                  Audience.parse(as_)))
    return Response(lines, mimetype="application/jsonl")


def tournament_feed() -> TournamentFeed:
    """This process's feed of tournaments, made by the first stream."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    found = app.extensions.get("caboose.tournament_feed")
    if found is None:
        capacity = capacity_from_env() or app.config.get("CABOOSE_STREAMS")
        found = app.extensions.setdefault("caboose.tournament_feed", TournamentFeed(organiser().shelf, capacity))
    return found  # type: ignore[no-any-return]


@tournaments.get("/<tournament_id>/stream")
@guarded(Caller.PUBLIC, limit="read")
@tournaments.arguments(StreamQuerySchema(), location="query", as_kwargs=True)
@tournaments.arguments(StreamHeadersSchema(), location="headers", as_kwargs=True)
@tournaments.doc(responses=EVENT_STREAM)
@documents_problems(400, 404, 503)
def stream(tournament_id: str, after: int | None, last_event_id: int | None) -> ResponseReturnValue:
    """Follow the tournament: each of its records (a round paired, a table's result, a ruling,
    the end) pushed when stored, as `GET /api/v1/games/{id}/stream` pushes a game's."""
    start = last_event_id if last_event_id is not None else after or 0
    live = tournament_feed()
    try:
        channel = live.open(tournament_id)
    except StreamsFull as full:
        return problem(503, "Streams full", full.message, full.code, headers={"Retry-After": str(RETRY_MS // 1000)})
    try:
        first, _ = channel.frames(live.caboose, start, PUBLIC)
    except BaseException:
        live.close(channel)
        raise
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(pushed(live, channel, PUBLIC, start, first), mimetype="text/event-stream", headers=headers)


@tournaments.get("/<tournament_id>/audit")
@guarded(Caller.PUBLIC, limit="expensive")
@tournaments.response(200, ts.TournamentAuditSchema)
@documents_problems(404)
def audit(tournament_id: str) -> ResponseReturnValue:
    """The whole tournament's audit: its chain and fold, its secret, every draw, seed and seat
    order, every table's game and result, and the standing."""
    return as_built(transfer.verify_stored(organiser(), tournament_id).to_json())


@ratings_api.get("")
@guarded(Caller.PUBLIC, limit="read")
@ratings_api.arguments(RatingsQuery(), location="query", as_kwargs=True)
@ratings_api.response(200, ts.RatingsSchema)
@documents_problems(400)
def ratings(game: str | None) -> ResponseReturnValue:
    """Ratings per game title (OpenSkill, Plackett–Luce) from finished tournament tables and
    games created rated (a read model, up to the end of the log): `rating` is mu − 3 sigma."""
    found: Ratings = current_app.extensions["caboose.ratings"]
    chosen = {game: found.of(game)} if game else found.all()
    return as_built({"ratings": {title: ranking(rows) for title, rows in chosen.items()}})
