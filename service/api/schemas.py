"""Marshmallow schemas: they own the validation of every request body and query, and the
OpenAPI document is generated from them."""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

from domain import games as rulesets
from projections.listing import MAX_WAITING_FOR, STATUSES, BadCursor, Cursor

VERSION_MAX = 2**31 - 1  # beyond any game's length, and within every database's integers
SEED = validate.Regexp(r"^[0-9a-fA-F]{64}$", error="A seed is 64 hex digits.")


class Strict(Schema):
    """Unknown fields are refused with a message naming them."""


class PlayerSchema(Strict):
    name = fields.String(required=True, validate=validate.Length(min=1, max=64))


class CreateGameSchema(Strict):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64),
                         metadata={"description": "Ruleset name, as `GET /api/v1/rulesets` lists them."})
    players = fields.List(fields.String(allow_none=True, validate=validate.Length(min=1, max=64)), required=True,
                          validate=validate.Length(min=1, max=8),
                          metadata={"description": "One name per seat, in seat order; null leaves a seat open (with an invite code)."})
    options = fields.Dict(keys=fields.String(), load_default=dict)
    seed = fields.String(load_default=None, allow_none=True, validate=SEED,
                         metadata={"description": "A client-chosen seed (tests, published tournament seeds)."})
    bots = fields.Dict(keys=fields.String(validate=validate.Regexp(r"^[0-9]{1,2}$", error="A seat number, e.g. \"2\".")),
                       values=fields.String(validate=validate.Length(min=1, max=32)), load_default=dict,
                       metadata={"description": "Seats a bot plays from the start, by seat: its level, e.g. {\"2\": \"greedy\"}."})
    move_deadline = fields.Raw(load_default=None, allow_none=True, metadata={
        "description": "How long the game may wait for a seat before the strongest bot moves for it: seconds, or an "
                       "ISO 8601 duration such as \"PT24H\"; null: no deadline."})
    seed_source = fields.String(load_default="server", validate=validate.OneOf(["server", "client", "table"]), metadata={
        "description": "`table`: a game played at a table and entered here; no seed, every random outcome entered "
                       "(POST …/outcomes). `client` with `seed`; `server` (the default) draws its own."})
    observed = fields.Dict(keys=fields.String(), load_default=None, allow_none=True, metadata={
        "description": "With `seed_source: table`: the opening as laid out at the table, in the game's own form "
                       "(docs/transcription.md); by default `{\"outcomes\": [...]}`, the setup's outcomes in order."})
    rated = fields.Boolean(load_default=False, metadata={
        "description": "A rated game: once it ends, its places count in the ratings (`GET /api/v1/ratings`), as a "
                       "tournament table's do. Recorded in its GameCreated."})


class JoinSchema(Strict):
    invite = fields.String(required=True, validate=validate.Length(min=1, max=64))
    name = fields.String(required=True, validate=validate.Length(min=1, max=64))


class MoveSchema(Schema):
    """The envelope of a move: optionally the acting `seat` (a seat token acts for its own
    seat) and the version the client saw. The move itself, its `type` and that type's own
    fields, is read by the game's parser (`domain/core/moves.py`), which refuses an unknown
    or mistyped field by name, for the CLI as for the API; the OpenAPI document publishes each
    move type's schema (`move_body_schemas`)."""

    class Meta:
        unknown = INCLUDE  # the move's own fields, each checked by the game's parser

    type = fields.String(required=True, validate=validate.Length(min=1, max=64))
    seat = fields.Integer(strict=True, validate=validate.Range(min=0, max=64), load_default=None)
    expected_version = fields.Integer(strict=True, validate=validate.Range(min=1, max=VERSION_MAX), load_default=None)
    outcomes = fields.List(fields.Raw(allow_none=False), load_default=None, validate=validate.Length(max=64), metadata={
        "description": "A game played at a table: the random outcomes the move needs, in the order the rules ask "
                       "for them, in the game's terms (die faces, an item, the items drawn). The referee enters any; "
                       "a seat only its own secret draws. Left out: the move waits for them (202)."})


class OutcomeSchema(Strict):
    """An outcome a game played at a table waits for: as JSON in the game's terms, or as
    typed at the table (`text`, e.g. "red" or "3 5")."""

    outcome = fields.Raw(load_default=None, allow_none=True, metadata={
        "description": "The outcome in the game's terms: die faces [3, 5], an item \"red\", the items drawn [\"red\"]."})
    text = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=500), metadata={
        "description": "The outcome as typed at the table, read against what the game waits for."})
    expected_version = fields.Integer(strict=True, validate=validate.Range(min=1, max=VERSION_MAX), load_default=None)

    @validates_schema
    def one_form(self, data: dict[str, Any], **_: Any) -> None:
        if (data.get("outcome") is None) == (data.get("text") is None):
            raise ValidationError("Give the outcome either as `outcome` (JSON) or as `text` (as typed), not both.")


MOVE_BODY = {"$ref": "#/components/schemas/Move"}
"""The request body of POST …/moves in the OpenAPI document (see `move_body_schemas`)."""
IDEMPOTENCY_HEADER = {
    "in": "header", "name": "Idempotency-Key", "required": False, "schema": {"type": "string", "minLength": 1, "maxLength": 200},
    "description": "A retry with the same key returns the first answer and stores nothing new. Keys beginning with "
                   "bot:, create:, fork:, referee: or system: are the server's own and refused (400)."}
MOVE_HEADERS = [
    {"in": "header", "name": "If-Match", "required": False, "schema": {"type": "string"},
     "description": "The ETag of the version the move was made against (`\"12\"`, a list, or `*`): "
                    "the move is refused with 412 if the game has moved on."},
    IDEMPOTENCY_HEADER,
]


def move_body_schemas(games: dict[str, dict[str, dict[str, Any]]], envelope: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The OpenAPI components of a move body, from each game's move schemas (by game, then
    by move type): one per move type with the `envelope` fields added, one per game (a
    `oneOf` discriminated by `type`), and `Move`, one of the games' moves."""
    components: dict[str, dict[str, Any]] = {}
    per_game = []
    for game, schemas in games.items():
        if not schemas:
            continue  # a game that publishes no move schemas has no part in the document
        mapping = {}
        for move_type, schema in schemas.items():
            name = f"{game}.{move_type}"
            components[name] = {**schema, "properties": {**schema["properties"], **envelope}}
            mapping[move_type] = f"#/components/schemas/{name}"
        components[f"{game}.move"] = {"oneOf": [{"$ref": ref} for ref in mapping.values()],
                                      "discriminator": {"propertyName": "type", "mapping": mapping},
                                      "description": f"A move of {game}, by its `type`."}
        per_game.append({"$ref": f"#/components/schemas/{game}.move"})
    components["Move"] = {"oneOf": per_game, "description": "A move of the game's ruleset (see the game's `game` field)."}
    return components


class AtQuerySchema(Strict):
    at = fields.Integer(validate=validate.Range(min=1, max=VERSION_MAX), load_default=None,
                        metadata={"description": "The version to show (time travel); omitted means now."})


class ExportQuerySchema(Strict):
    format = fields.String(load_default="jsonl", validate=validate.OneOf(["jsonl", "text"]), metadata={
        "description": "`jsonl`: the record (FORMAT.md) as the caller may see it; `text`: one line per move in the "
                       "game's notation and one per entered outcome (a score sheet; the full record is needed: the "
                       "referee's token, or anyone once the game is over)."})


class EventsQuerySchema(Strict):
    after = fields.Integer(validate=validate.Range(min=0, max=VERSION_MAX), load_default=0)
    limit = fields.Integer(validate=validate.Range(min=1, max=5000), load_default=1000)


class SeatQuerySchema(Strict):
    seat = fields.Integer(validate=validate.Range(min=0, max=64), load_default=None,
                          metadata={"description": "Referees name the seat; a seat token lists its own."})


def known_ruleset(name: str) -> None:
    if name not in rulesets.names():
        raise ValidationError(f"No game {name!r} is played here; the games are: {', '.join(sorted(rulesets.names()))}.")


class CursorField(fields.String):
    """The listing's opaque cursor (a string in the OpenAPI document), read back into its
    position (`projections.listing.Cursor`)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Cursor:  # type: ignore[override]
        text = super()._deserialize(value, attr, data, **kwargs)
        if len(text) > 300:
            raise ValidationError("Not a cursor of this listing: too long.")
        try:
            return Cursor.decode(text)
        except BadCursor as error:
            raise ValidationError(str(error)) from None


class ListQuerySchema(Strict):
    limit = fields.Integer(validate=validate.Range(min=1, max=200), load_default=50,
                           metadata={"description": "Games on a page (1–200)."})
    cursor = CursorField(load_default=None, metadata={
        "description": "Where the page starts: as given in the `next` or `prev` link of the previous answer (opaque)."})
    status = fields.String(validate=validate.OneOf(STATUSES), load_default=None, metadata={
        "description": "`waiting` for players (a seat still open), `running`, `finished`; `active` is waiting or running."})
    game = fields.String(validate=[validate.Length(min=1, max=64), known_ruleset], load_default=None,
                         metadata={"description": "Only games of this ruleset (a name `GET /api/v1/rulesets` lists)."})
    player = fields.String(validate=validate.Length(min=1, max=64), load_default=None,
                           metadata={"description": "Only games with a seat of this name (any case)."})
    forked_from = fields.UUID(load_default=None, metadata={"description": "Only the forks of this game."})
    transcribed = fields.Boolean(load_default=None, metadata={
        "description": "Only games played at a table and entered here (true), or only games played here (false)."})
    waiting_for = fields.String(validate=validate.OneOf(["me"]), load_default=None, metadata={
        "description": "`me`: only the games where a seat of the request's tokens is to act. The tokens are the "
                       "bearer token and those of the `Seat-Tokens` header (several, comma-separated), never in the URL."})
    waiting_for_me = fields.Boolean(load_default=False, metadata={"description": "The same as `waiting_for=me` (older clients)."})


class SeatTokensHeaderSchema(Schema):
    seat_tokens = fields.String(data_key="Seat-Tokens", load_default="", validate=validate.Length(max=100 * 64), metadata={
        "description": f"Seat tokens, comma-separated (at most {MAX_WAITING_FOR} with the bearer token), for `waiting_for=me`."})


# -- responses ------------------------------------------------------------------------

class CheckSchema(Schema):
    """One check of an audit (a game's or a tournament's)."""
    ok = fields.Boolean(required=True, allow_none=True, metadata={"description": "null: the check could not be made."})
    detail = fields.String(required=True)


class SeatSchema(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    open = fields.Boolean()


class WaitingForSchema(Schema):
    outcome = fields.String(required=True, metadata={"description": "What the rules need, e.g. `goods growth: 6 dice`."})
    by = fields.String(required=True, metadata={"description": "`referee`, or `seat:N` for that seat's own secret draw."})
    seat = fields.Integer(metadata={"description": "The seat whose move waits."})
    needed = fields.Dict(metadata={"description": "The request in full: kind, what, count, options, labels, by."})


class AtTableSchema(Schema):
    tournament = fields.String(required=True)
    round = fields.Integer(required=True)
    table = fields.Integer(required=True)


class SummarySchema(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    ruleset_version = fields.String(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))
    active_seats = fields.List(fields.Integer(), required=True)
    scores = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    created_at = fields.String(required=True)
    updated_at = fields.String(required=True)
    waiting_since = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                                metadata={"description": "For each active seat, since when it has been its turn."})
    thinking_seconds = fields.Dict(keys=fields.String(), values=fields.Float(), required=True,
                                   metadata={"description": "Each seat's total time to act, from event times."})
    bots = fields.Dict(keys=fields.String(), values=fields.String(),
                       metadata={"description": "The seats bots hold, and each bot's level (docs/bots.md)."})
    move_deadline = fields.Integer(allow_none=True, metadata={
        "description": "Seconds the game may wait for a seat before the strongest bot moves for it; null: no deadline."})
    transcribed = fields.Boolean(metadata={"description": "Played at a table and entered here (seed source `table`)."})
    waiting_for = fields.Nested(WaitingForSchema, allow_none=True, metadata={
        "description": "A game played at a table that waits for a random outcome before any move: what, and who enters it."})
    tournament = fields.Nested(AtTableSchema, allow_none=True, metadata={
        "description": "The tournament table the game is played at (docs/tournaments.md); null for a game on its own."})


class ListedSeatSchema(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    open = fields.Boolean(required=True, metadata={"description": "Left open at creation; nobody has joined it yet."})


class ForkOriginSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)


class UnreadSchema(Schema):
    code = fields.String(required=True, metadata={"description": "`content_missing`, `content_mismatch`, `unknown_ruleset`."})
    detail = fields.String(required=True, metadata={"description": "What is missing, in the reader's language."})


class ListedGameSchema(Schema):
    """A game as the game index holds it."""

    game_id = fields.String(required=True)
    game = fields.String(required=True)
    ruleset_version = fields.String(required=True)
    title = fields.String(required=True, metadata={"description": "Its content pack's title, else its ruleset's name."})
    seats = fields.List(fields.Nested(ListedSeatSchema), required=True)
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))
    stage = fields.String(required=True, validate=validate.OneOf(["waiting", "running", "finished"]),
                          metadata={"description": "`waiting` for players while a seat is open, then `running`, then `finished`."})
    active_seats = fields.List(fields.Integer(), required=True)
    since = fields.String(required=True, metadata={"description": "When the active seats became the active seats."})
    since_version = fields.Integer(required=True)
    waiting_since = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                                metadata={"description": "For each active seat, since when it has been its turn."})
    version = fields.Integer(required=True)
    created_at = fields.String(required=True)
    updated_at = fields.String(required=True, metadata={"description": "The last activity: its latest event's time."})
    forked_from = fields.Nested(ForkOriginSchema, required=True, allow_none=True)
    transcribed = fields.Boolean(required=True, metadata={"description": "Played at a table and entered here (seed source `table`)."})
    waiting_for = fields.Nested(WaitingForSchema, required=True, allow_none=True, metadata={
        "description": "A game played at a table waiting for a random outcome: what, who enters it, whose move waits; "
                       "else null."})
    scores = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True, allow_none=True,
                         metadata={"description": "The final scores by seat, once finished."})
    rewinds = fields.Integer(required=True)
    open_disputes = fields.Integer(required=True)
    problem = fields.Nested(UnreadSchema, required=True, allow_none=True, metadata={
        "description": "Why this server cannot read the game (its content pack or its ruleset is not installed): it "
                       "is listed with what its records say (seats, activity, finished or not), and no seat is shown "
                       "as to act; null for every game read in full."})


class GameListSchema(Schema):
    games = fields.List(fields.Nested(ListedGameSchema), required=True,
                        metadata={"description": "Newest activity first; ties in game id order, descending."})
    limit = fields.Integer(required=True)
    next = fields.String(required=True, allow_none=True,
                         metadata={"description": "The next (older) page, with the same filters; null on the last page."})
    prev = fields.String(required=True, allow_none=True,
                         metadata={"description": "The previous (newer) page; null on the first page."})


class CreatedSchema(SummarySchema):
    seed_commitment = fields.String(required=True, allow_none=True, metadata={
        "description": "SHA-256 of the seed; null for a game played at a table (no seed)."})
    seat_tokens = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                              metadata={"description": "Bearer token per named seat. Shown once; only hashes are stored."})
    invites = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                          metadata={"description": "Invite code per open seat, for POST …/join."})
    referee_token = fields.String(required=True)


class JoinedSchema(Schema):
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    token = fields.String(required=True)


class SecretSchema(Schema):
    to = fields.List(fields.Integer(), required=True)
    salt = fields.String()
    value = fields.Raw(allow_none=True)
    digest = fields.String()


class RecordSchema(Schema):
    """One event of the game record (FORMAT.md)."""

    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    time = fields.String(required=True)
    actor = fields.String(required=True)
    command_id = fields.String(required=True, allow_none=True)
    kind = fields.String(required=True)
    data = fields.Dict(required=True)
    secrets = fields.List(fields.Nested(SecretSchema), required=True)
    prev_hash = fields.String(required=True)
    hash = fields.String(required=True)


class AsStored(fields.Nested):
    """A record, documented by its schema but sent as it was stored: a record is already the
    JSON it was sealed as (and its hash is over exactly that), so dumping it field by field
    would only spend time, and could only change it."""

    # marshmallow's Field and Nested name the first parameter differently; Nested's is kept.
    def _serialize(self, nested_obj: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return nested_obj


class EventsSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    events = fields.List(AsStored(RecordSchema), required=True)


class NowSchema(Schema):
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))
    active_seats = fields.List(fields.Integer(), required=True, metadata={"description": "The seats that may move now."})
    state = fields.Dict(required=True, metadata={"description": "The game's view for the caller, as `GET …/state` gives it."})


class MovedSchema(EventsSchema):
    """A stored move: its records as the mover may see them, and the game as it now is, so a
    client needs no second request to know whose turn it is or to draw the board."""

    waiting_for = fields.Nested(WaitingForSchema, allow_none=True, metadata={
        "description": "A game played at a table: the outcome it now waits for (answered 202), else null."})

    now = fields.Nested(NowSchema, required=True, metadata={
        "description": "The game after the move (after a retried request: as it is now, which may be later)."})


class StateSchema(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    version = fields.Integer(required=True)
    state = fields.Dict(required=True, metadata={"description": "The game's view for the caller (see the game's rules)."})
    waiting_for = fields.Nested(WaitingForSchema, required=True, allow_none=True, metadata={
        "description": "A game played at a table that waits, at this version, for a random outcome before any move: "
                       "what, who enters it, whose move waits; else null."})


class LegalMovesSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    moves = fields.List(fields.Dict(), required=True,
                        metadata={"description": "Each entry is a complete body for POST …/moves."})


class ProblemSchema(Schema):
    """RFC 9457 problem details."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    code = fields.String()
    errors = fields.Dict()
    current_version = fields.Integer()
    first_bad_version = fields.Integer(allow_none=True)
    path = fields.String(metadata={"description": "The JSON Pointer of the offending value (RFC 6901), where there is one."})
    field = fields.String(metadata={"description": "The move's offending field, as its refusal names it (e.g. `cards.red`)."})
    address_class = fields.String(allow_none=True, metadata={"description": "Why a webhook target was refused: loopback, private…"})


class SubscribeSchema(Strict):
    """Where the seat is told from now on: both channels, a missing one turned off; a body
    that names neither says nothing and is refused (`null` turns a channel off)."""

    webhook_url = fields.Url(load_default=None, allow_none=True, schemes={"http", "https"}, require_tld=False,
                             validate=validate.Length(max=2048),
                             metadata={"description": "POSTed a JSON body signed with HMAC-SHA256 (header X-Caboose-Signature)."})
    email = fields.Email(load_default=None, allow_none=True, validate=validate.Length(max=254),
                         metadata={"description": "At most 254 characters, the longest address mail can carry (RFC 5321)."})

    @validates_schema(pass_original=True)
    def says_something(self, _: dict[str, Any], original: Any, **__: Any) -> None:
        if not isinstance(original, dict) or not {"webhook_url", "email"} & set(original):
            raise ValidationError("Say where this seat is told: `webhook_url` and/or `email` (null turns one off).")


class DeliverySchema(Schema):
    id = fields.Integer(required=True)
    channel = fields.String(required=True)
    event = fields.String(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True)
    attempts = fields.Integer(required=True)
    last_error = fields.String(allow_none=True)
    next_attempt_at = fields.String(allow_none=True)
    delivered_at = fields.String(allow_none=True)


class NotificationsSchema(Schema):
    webhook_url = fields.String(allow_none=True)
    webhook_secret = fields.String(allow_none=True, metadata={"description": "Shown only when set or changed."})
    email = fields.String(allow_none=True)
    deliveries = fields.List(fields.Nested(DeliverySchema))
