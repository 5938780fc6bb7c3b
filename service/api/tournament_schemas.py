"""The answers of /api/v1/tournaments and /api/v1/ratings, as the OpenAPI document describes
them (the views send them as built, `as_built`; the schema conformance tests check them)."""

from __future__ import annotations

from marshmallow import Schema, fields

from service.api.schemas import CheckSchema


class Answer(Schema):
    pass


class FormatSchema(Answer):
    kind = fields.String(metadata={"description": "heats, swiss or schedule"})
    rounds = fields.Integer()
    table_size = fields.Integer()
    semifinal = fields.Integer(metadata={"description": "Heats: players advancing to the semifinal (0: none)."})
    final = fields.Integer(metadata={"description": "Heats: the final table's size."})
    seeding = fields.String(metadata={"description": "draw or rating"})


class ScoringSchema(Answer):
    place_points = fields.List(fields.Float())
    tie_breaks = fields.List(fields.String(), metadata={"description": "The ladder in force, the draw last."})
    bye_points = fields.Float()


class EntrantSchema(Answer):
    player = fields.String()
    draw = fields.String(metadata={"description": "Derived from the secret and the name: the last tie-break."})
    rating = fields.Float(allow_none=True)
    late = fields.Boolean()
    withdrawn = fields.String(allow_none=True, metadata={"description": "forfeit or bot, once withdrawn"})


class RoundSchema(Answer):
    round = fields.Integer()
    stage = fields.String(metadata={"description": "heat, semifinal, final or round"})
    byes = fields.List(fields.String())
    repeats = fields.Integer(metadata={"description": "Pairs seated together this round who had met before."})
    tables = fields.Integer()


class TournamentSchema(Answer):
    tournament_id = fields.String()
    name = fields.String()
    game = fields.String()
    ruleset_version = fields.String()
    format = fields.Nested(FormatSchema)
    scoring = fields.Nested(ScoringSchema)
    table_sizes = fields.List(fields.Integer())
    seed_source = fields.String(metadata={"description": "server (seeds derived from the secret) or table (physical)"})
    commitment = fields.String(metadata={"description": "SHA-256 of the secret, published at creation."})
    secret = fields.String(allow_none=True, metadata={"description": "The secret, once the tournament has ended."})
    move_deadline = fields.Integer(allow_none=True)
    status = fields.String(metadata={"description": "registering, running or finished"})
    version = fields.Integer()
    created_at = fields.String()
    updated_at = fields.String()
    players = fields.List(fields.Nested(EntrantSchema))
    rounds = fields.List(fields.Nested(RoundSchema))
    next = fields.String(allow_none=True, metadata={"description": "The stage of the round to pair next, or null."})
    playing = fields.List(fields.String(), metadata={"description": "The games of tables still playing."})
    met_twice = fields.Integer(metadata={"description": "Pairs of players who met more than once."})
    least_met_twice = fields.Integer(metadata={"description": "The least number of those pairs possible for these rounds "
                                                              "(their players and table sizes), or a lower bound on it."})
    least_met_twice_exact = fields.Boolean(metadata={"description": "True: `least_met_twice` is the least possible (the "
                                                                    "rounds reached a counting bound, or every seating was "
                                                                    "tried); false: only a lower bound."})


class CreatedTournamentSchema(TournamentSchema):
    referee_token = fields.String(metadata={"description": "Shown once: every write needs it."})


class ListedSchema(Answer):
    tournament_id = fields.String()
    name = fields.String()
    game = fields.String()
    format = fields.String()
    status = fields.String()
    players = fields.Integer()
    rounds = fields.Integer()
    updated_at = fields.String()


class TournamentListSchema(Answer):
    tournaments = fields.List(fields.Nested(ListedSchema))


class RowSchema(Answer):
    rank = fields.Integer()
    player = fields.String()
    points = fields.Float()
    wins = fields.Integer()
    games = fields.Integer()
    place_points = fields.Float()
    winner_percentage = fields.Float()
    score_sum = fields.Integer()
    draw = fields.String()
    byes = fields.Integer()
    withdrawn = fields.String(allow_none=True)
    reached = fields.String()


class StandingsSchema(Answer):
    tournament_id = fields.String()
    version = fields.Integer()
    status = fields.String()
    ladder = fields.List(fields.String())
    standings = fields.List(fields.Nested(RowSchema))
    met_twice = fields.Integer()
    least_met_twice = fields.Integer()
    least_met_twice_exact = fields.Boolean()


class SeatResultSchema(Answer):
    seat = fields.Integer()
    player = fields.String()
    place = fields.Integer(allow_none=True)
    score = fields.Integer(allow_none=True)
    points = fields.Float(allow_none=True)


class TableSchema(Answer):
    round = fields.Integer()
    table = fields.Integer()
    stage = fields.String()
    game_id = fields.String(allow_none=True, metadata={"description": "Null at a physical table until its opening is entered."})
    status = fields.String(metadata={"description": "waiting (a physical table's opening), playing or finished"})
    seats = fields.List(fields.Nested(SeatResultSchema))
    seed_commitment = fields.String(allow_none=True)
    ruled_by = fields.String(allow_none=True)
    ruling = fields.String(allow_none=True)
    replay = fields.String(allow_none=True, metadata={"description": "The game's replay page."})


class TablesSchema(Answer):
    tables = fields.List(fields.Nested(TableSchema))


class SeatTokenSchema(Answer):
    seat = fields.Integer()
    player = fields.String()
    token = fields.String(allow_none=True)


class OpenedSchema(Answer):
    round = fields.Integer()
    table = fields.Integer()
    game_id = fields.String(allow_none=True, metadata={"description": "Null at a physical table until its opening is entered."})
    seats = fields.List(fields.Nested(SeatTokenSchema), metadata={"description": "Shown once."})
    referee_token = fields.String(allow_none=True, metadata={"description": "The table game's referee token, shown once."})


class PairedSchema(Answer):
    tables = fields.List(fields.Nested(OpenedSchema))
    replayed = fields.Boolean(metadata={"description": "True: a retry with the Idempotency-Key of a pairing already "
                                                       "stored; its tables as paired then, their tokens not shown again."})


class StoredRecordsSchema(Answer):
    records = fields.List(fields.Dict(), metadata={"description": "The records stored (FORMAT.md)."})


class RuledSchema(Answer):
    game = fields.List(fields.Dict(), metadata={"description": "The records stored in the table's game."})
    tournament = fields.List(fields.Dict(), metadata={"description": "The records stored in the tournament."})
    paired_since = fields.List(fields.Integer(), metadata={"description": "Rounds paired after the table's, which stand."})
    note = fields.String(allow_none=True)


class DisputeEntrySchema(Answer):
    round = fields.Integer()
    table = fields.Integer()
    game_id = fields.String()
    dispute = fields.Integer()
    status = fields.String()
    about_version = fields.Integer()
    raised_by = fields.String()
    claim = fields.String()
    referee = fields.String()
    time = fields.String()
    actions = fields.List(fields.Dict())
    ruling = fields.Dict(allow_none=True)


class DisputeDeskSchema(Answer):
    disputes = fields.List(fields.Nested(DisputeEntrySchema))


class ImportedSchema(Answer):
    tournament_id = fields.String()
    referee_token = fields.String()
    games = fields.Dict(keys=fields.String(), values=fields.Dict(), metadata={"description": "Each game's fresh tokens."})


class TournamentAuditSchema(Answer):
    ok = fields.Boolean()
    events = fields.Integer()
    chain = fields.Nested(CheckSchema)
    rules = fields.Nested(CheckSchema)
    seed = fields.Nested(CheckSchema)
    pairing = fields.Nested(CheckSchema)
    standing = fields.Nested(CheckSchema)
    games = fields.Nested(CheckSchema)
    tables = fields.Nested(CheckSchema)
    unchecked = fields.List(fields.String())
    first_problem = fields.Dict(allow_none=True)


class RatingSchema(Answer):
    rank = fields.Integer()
    player = fields.String()
    rating = fields.Float(metadata={"description": "OpenSkill's ordinal, mu - 3 sigma."})
    mu = fields.Float()
    sigma = fields.Float()
    games = fields.Integer()


class RatingsSchema(Answer):
    ratings = fields.Dict(keys=fields.String(), values=fields.List(fields.Nested(RatingSchema)),
                          metadata={"description": "Each game title's ratings, best first."})
