"""Outcomes from a table: what a game played at a table (`seed_source: "table"`) waits for,
entered by the referee, or by a seat for its own secret draw (`domain/core/transcription.py`)."""

from __future__ import annotations

from typing import Any

from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint

from domain.core.events import Audience
from domain.core.referee import referee_actor
from service.aggregate import Game
from service.api import schemas as s
from service.api.auth import lobby, seat_token
from service.api.games import answered, idempotency_key
from service.api.guard import Caller, guarded
from service.api.preconditions import expected_versions
from service.api.problems import documents_problems
from service.commands import EnterOutcomes
from service.seating import REFEREE_NAME

outcomes = Blueprint("outcomes", __name__, url_prefix="/api/v1/games", description="Outcomes entered at a table.")


@outcomes.post("/<game_id>/outcomes")
@guarded(Caller.PLAYER, limit="move")
@outcomes.arguments(s.OutcomeSchema())
@outcomes.doc(parameters=s.MOVE_HEADERS)
@outcomes.response(201, s.MovedSchema)
@outcomes.alt_response(202, schema=s.MovedSchema, description="Stored; the move needs a further outcome (`waiting_for`).")
@documents_problems(400, 401, 403, 404, 409, 412, 413, 422, 429)
def post_outcome(args: dict[str, Any], game_id: str, audience: Audience, loaded: Game | None) -> ResponseReturnValue:
    """Enter the random outcome a game played at a table waits for (`waiting_for` in its
    summary), in the game's terms: as JSON (`outcome`) or as typed at the table (`text`).
    The referee's token enters any outcome; a seat's token only its own secret draw (403
    otherwise). An impossible outcome is refused (422, saying what there is) and nothing is
    stored. `If-Match` and `Idempotency-Key` work as for moves."""
    app = lobby().caboose
    values = [args["outcome"]] if args["text"] is None else []
    actor = referee_actor(REFEREE_NAME) if audience.referee else f"seat:{audience.seat}"
    command = EnterOutcomes(game_id, values, actor, None if audience.referee else audience.seat, args["text"])
    moved = app.execute(command, expected_version=expected_versions(args["expected_version"]),
                        idempotency_key=idempotency_key(), loaded=loaded, credential=seat_token(audience, loaded))
    return answered(game_id, moved, audience)
