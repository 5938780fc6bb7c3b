"""The games resource: create, join, list, read, view, list legal moves, submit moves."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlencode
from uuid import UUID

from flask import Response, current_app, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_smorest import Blueprint
from marshmallow import RAISE
from werkzeug.exceptions import Forbidden, Unauthorized

from domain.core import log
from domain.core.envelope import redact
from domain.core.errors import MalformedMove
from domain.core.events import Audience
from domain.core.referee import referee_actor
from domain.core.transcription import AWAITED
from projections.listing import MAX_WAITING_FOR, Cursor, Filters
from service import bots, command_ids
from service.aggregate import Game
from service.api import schemas as s
from service.api.auth import acting_seat, bearer_token, lobby, seat_token
from service.api.encoding import as_built
from service.api.guard import Caller, guarded
from service.api.preconditions import expected_versions
from service.api.problems import documents_problems
from service.application import Moved, waiting_for
from service.commands import Play
from service.errors import BadRequest
from service.i18n.rules import sentence
from service.lobby import TokenNotValid
from service.seating import REFEREE_NAME
from service.tlog import proof_line

games = Blueprint("games", __name__, url_prefix="/api/v1/games", description="Games: create, join, view, play.")


def etag(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


@games.get("")
@guarded(Caller.PUBLIC, limit="read")
@games.arguments(s.ListQuerySchema(), location="query", as_kwargs=True, unknown=RAISE)  # a misspelt filter is refused
@games.arguments(s.SeatTokensHeaderSchema(), location="headers", as_kwargs=True)
@games.response(200, s.GameListSchema, headers={"Link": {"description": "The `next` and `prev` pages (RFC 8288).",
                                                         "schema": {"type": "string"}}})
@documents_problems(400, 401)
def list_games(limit: int, cursor: Cursor | None, waiting_for: str | None, waiting_for_me: bool,
               forked_from: UUID | None, seat_tokens: str, **filters: Any) -> ResponseReturnValue:
    """List games a page at a time, newest activity first: by stage, ruleset, player, origin
    of a fork, transcribed or not, or those where a seat of your tokens is to act. Follow
    the `next` link (also in the `Link` header) for the next page."""
    seats = None
    if waiting_for == "me" or waiting_for_me:
        try:
            seats = lobby().seats_held(tokens_of(seat_tokens))
        except TokenNotValid as error:
            raise Unauthorized(str(error)) from None
    chosen = Filters(**filters, forked_from=str(forked_from) if forked_from else None, waiting_for=seats)
    page = lobby().listing(chosen, limit, cursor)
    links = {rel: page_link(at) for rel, at in (("next", page.next), ("prev", page.prev)) if at is not None}
    headers = {"Link": ", ".join(f'<{url}>; rel="{rel}"' for rel, url in links.items())} if links else {}
    # The index's entries are already the documented shape: sent as they are, not dumped
    # field by field through the response schema (which documents them).
    body = {"games": [worded(game) for game in page.games], "limit": limit, "next": links.get("next"), "prev": links.get("prev")}
    return Response(json.dumps(body, ensure_ascii=False, separators=(",", ":")), 200, headers, mimetype="application/json")


def worded(game: dict[str, Any]) -> dict[str, Any]:
    """A listed game, its `problem` (if any) said in the reader's language."""
    problem = game.get("problem")
    if problem is None:
        return game
    detail = sentence(problem["code"], problem["message"], problem.get("params") or {}, gettext)
    return {**game, "problem": {"code": problem["code"], "detail": detail}}


def tokens_of(header: str) -> list[str]:
    """The tokens a listing asks `waiting_for=me` about: the bearer token and the
    `Seat-Tokens` header's (tokens never go in the URL, where logs and history keep them)."""
    bearer = bearer_token()
    listed = [t for t in re.split(r"[\s,]+", header) if t]
    tokens = list(dict.fromkeys(([bearer] if bearer else []) + listed))
    if not tokens:
        raise Unauthorized("`waiting_for=me` needs your seat's bearer token (or several, in the Seat-Tokens header).")
    if len(tokens) > MAX_WAITING_FOR:
        raise BadRequest(f"At most {MAX_WAITING_FOR} seat tokens at once; {len(tokens)} were sent.")
    return tokens


def page_link(at: Cursor) -> str:
    """This listing's URL with the same filters and limit, starting at `at`."""
    query = [(k, v) for k, v in request.args.items(multi=True) if k != "cursor"]
    return f"{request.path}?{urlencode([*query, ('cursor', at.encode())])}"


@games.post("")
@guarded(Caller.PUBLIC, limit="create")
@games.arguments(s.CreateGameSchema())
@games.doc(parameters=[s.IDEMPOTENCY_HEADER])
@games.response(201, s.CreatedSchema)
@documents_problems(400, 413, 415, 422)
def create_game(args: dict[str, Any]) -> ResponseReturnValue:
    """Create a game: one token per named seat, an invite per open seat, a referee token.
    With an `Idempotency-Key`, a retry answers with the same game and stores nothing new;
    its tokens and invites were shown once (only their hashes are kept), so the retry's
    answer has fresh ones, which replace the first answer's: keep the key as secret as them."""
    seed = bytes.fromhex(args["seed"]) if args["seed"] else None
    table = args["seed_source"] == "table"
    if seed is not None and table:
        raise MalformedMove("bad_seed", "A game played at a table has no seed: its outcomes are entered. Leave out `seed`.")
    if args["seed_source"] == "client" and seed is None:
        raise MalformedMove("bad_seed", "`seed_source: client` needs the client's `seed` (64 hex digits).")
    if args["observed"] is not None and not table:
        raise MalformedMove("bad_setup", "`observed` is the opening of a game played at a table: say `seed_source: table`.")
    observed = (args["observed"] or {}) if table else None
    game_id, issued = bots.open_game(lobby(), args["game"], args["players"], args["options"], seed, args["bots"],
                                     args["move_deadline"], observed, args["rated"], idempotency_key())
    created = log.created_of(lobby().caboose.records(game_id, upto=1)[0])
    body = {**lobby().caboose.summary(game_id), "seed_commitment": created.seed_commitment,
            "seat_tokens": {str(k): v for k, v in issued.seat_tokens.items()},
            "invites": {str(k): v for k, v in issued.invites.items()}, "referee_token": issued.referee_token}
    return body, 201, {"Location": f"/api/v1/games/{game_id}"}


@games.post("/<game_id>/join")
@guarded(Caller.INVITE, limit="join")
@games.arguments(s.JoinSchema())
@games.doc(parameters=[s.IDEMPOTENCY_HEADER])
@games.response(201, s.JoinedSchema)
@documents_problems(400, 403, 404, 413, 415, 422)
def join_game(args: dict[str, Any], game_id: str) -> ResponseReturnValue:
    """Claim an open seat with its invite code; returns that seat's token. With an
    `Idempotency-Key`, a retry answers with the same seat and stores nothing new; the token
    was shown once (only its hash is kept), so the retry's is a fresh one, which replaces it."""
    seat, token = lobby().join(game_id, args["invite"], args["name"], idempotency_key())
    return {"game_id": game_id, "seat": seat, "token": token}, 201


@games.get("/<game_id>")
@guarded(Caller.PUBLIC, limit="read")
@games.response(200, s.SummarySchema)
@documents_problems(401, 403, 404, 429)
def get_game(game_id: str, audience: Audience, loaded: Game | None) -> ResponseReturnValue:
    """Show a game's summary: seats, status, whose turn since when, thinking time, scores."""
    summary = lobby().caboose.summary(game_id, loaded, audience)
    return as_built(summary), 200, etag(summary["version"])


@games.get("/<game_id>/state")
@guarded(Caller.PUBLIC, limit="read")
@games.arguments(s.AtQuerySchema(), location="query", as_kwargs=True)
@games.response(200, s.StateSchema)
@documents_problems(400, 401, 403, 404, 429)
def get_state(game_id: str, at: int | None, audience: Audience, loaded: Game | None) -> ResponseReturnValue:
    """Show the game state as the caller may see it, now or at version `at`."""
    view = lobby().caboose.state(game_id, audience, at, loaded)
    return as_built(view), 200, etag(view["version"])


@games.get("/<game_id>/events")
@guarded(Caller.PUBLIC, limit="read")
@games.arguments(s.EventsQuerySchema(), location="query", as_kwargs=True)
@games.response(200, s.EventsSchema)
@documents_problems(400, 401, 403, 404, 429)
def get_events(game_id: str, after: int, limit: int, audience: Audience, loaded: Game | None) -> ResponseReturnValue:
    """List the game's events as the caller may see them."""
    app = lobby().caboose
    loaded = loaded or app.game(game_id)
    events = app.view_records(game_id, audience, after, limit, loaded)
    return as_built({"game_id": game_id, "version": loaded.version, "events": events}), 200, etag(loaded.version)


@games.get("/<game_id>/export")
@guarded(Caller.PUBLIC, limit="expensive")
@games.arguments(s.ExportQuerySchema(), location="query", as_kwargs=True, unknown=RAISE)
@games.response(200, {"type": "string", "description": "One record (FORMAT.md) per line."},
                content_type="application/x-ndjson", description="The record as JSON Lines, or its text form as plain text.")
@documents_problems(400, 401, 403, 404, 422, 429)
def export_game(game_id: str, format: str, audience: Audience, loaded: Game | None) -> ResponseReturnValue:
    """Export one game: its record as the caller may see it (JSON Lines), or its text form
    (`format=text`), as `caboose export [--text]` writes them."""
    app = lobby().caboose
    loaded = loaded or app.game(game_id)
    if format == "text":
        lines = app.text_form(game_id, audience)
        return Response("".join(line + "\n" for line in lines), 200, etag(loaded.version), mimetype="text/plain")
    records = app.view_records(game_id, audience, loaded=loaded)
    proof = proof_line(current_app.extensions["caboose.services"].log, app, game_id, records[-1]["version"])
    body = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in [*records, proof])
    return Response(body, 200, etag(loaded.version), mimetype="application/x-ndjson")


@games.get("/<game_id>/legal-moves")
@guarded(Caller.PLAYER, limit="legal_moves")
@games.arguments(s.SeatQuerySchema(), location="query", as_kwargs=True)
@games.response(200, s.LegalMovesSchema)
@documents_problems(400, 401, 403, 404, 429)
def get_legal_moves(game_id: str, seat: int | None, audience: Audience, loaded: Game | None) -> ResponseReturnValue:
    """List the moves a seat may make now; each is a complete body for POST …/moves."""
    if audience.seat is not None and seat not in (None, audience.seat):
        raise Forbidden(f"Your token is seat {audience.seat}'s; it cannot list seat {seat}'s moves.")
    seat = audience.seat if audience.seat is not None else seat
    if seat is None:
        raise Forbidden("A referee must name the `seat`.")
    version, legal = lobby().caboose.legal_moves_at(game_id, seat, loaded)
    moves = [{"seat": seat, **m} for m in legal]
    return as_built({"game_id": game_id, "version": version, "seat": seat, "moves": moves}), 200, etag(version)


@games.post("/<game_id>/moves")
@guarded(Caller.PLAYER, limit="move")
@games.arguments(s.MoveSchema())
@games.doc(requestBody={"required": True, "content": {"application/json": {"schema": s.MOVE_BODY}}}, parameters=s.MOVE_HEADERS)
@games.response(201, s.MovedSchema)
@games.alt_response(202, schema=s.MovedSchema, description="Stored, and the game (played at a table) now waits for "
                    "an outcome: `waiting_for` says which and who enters it (POST …/outcomes).")
@documents_problems(400, 401, 403, 404, 409, 412, 413, 422, 429)
def post_move(move: dict[str, Any], game_id: str, audience: Audience, loaded: Game | None) -> ResponseReturnValue:
    """Submit a move. `If-Match` (or `expected_version`) refuses it if the game moved on;
    `Idempotency-Key` makes a retry return the first answer and store nothing new."""
    seat = acting_seat(audience, move.pop("seat"))
    versions = expected_versions(move.pop("expected_version"))
    outcomes = move.pop("outcomes", None) or ()
    actor = referee_actor(REFEREE_NAME) if audience.referee else None
    moved = lobby().caboose.execute(Play(game_id, seat, move, tuple(outcomes), actor), expected_version=versions,
                                    idempotency_key=idempotency_key(), loaded=loaded, credential=seat_token(audience, loaded))
    return answered(game_id, moved, audience)


def answered(game_id: str, moved: Moved, audience: Audience) -> ResponseReturnValue:
    """A stored command's answer: its records as the caller may see them and the game now
    (a move that ended the game shows everything, as the game then does: `seen_as`); 202
    when it left a game played at a table waiting for an outcome (saying which)."""
    game, version = moved.game, moved.records[-1]["version"]
    seen = lobby().caboose.seen_as(game_id, audience, game)
    now = {"version": game.version, "status": "finished" if game.is_over else "active",
           "active_seats": sorted(game.decider.active_seats(game.state)), "state": game.decider.view(game.state, seen)}
    waiting = waiting_for(game) if moved.records[-1]["kind"] == AWAITED else None
    events = moved.records if seen.referee else [redact(r, audience) for r in moved.records]
    body = {"game_id": game_id, "version": version, "events": events, "now": now, "waiting_for": waiting}
    return as_built(body), 202 if waiting is not None else 201, etag(version)


def idempotency_key() -> str | None:
    """The request's `Idempotency-Key`, refused in the server's own namespaces (`command_ids`)."""
    return command_ids.from_client(request.headers.get("Idempotency-Key"))

