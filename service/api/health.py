"""`GET /api/v1/health`: whether this API process serves and reaches its event store, for a
load balancer's or a process manager's health check (docs/deployment.md).

200 with the notification log's end when the store answers; when it does not, the same 503
with `Retry-After` as any request that needs the database (service/api/problems.py). It
waits on the database for at most `HEALTH_SECONDS`, and answers 503 at once while the
database is known silent and a request is trying it (service/waits.py): a check is never
held up behind the requests of an outage."""

from __future__ import annotations

from flask import current_app
from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from service.api.guard import Caller, guarded
from service.waits import request_budget

HEALTH_SECONDS = 2.0
"""The longest a health check waits on the database (less when the request's budget is)."""

health = Blueprint("health", __name__, url_prefix="/api/v1/health",
                   description="Whether this API process serves and reaches its event store.")


class HealthSchema(Schema):
    status = fields.String(required=True, metadata={"description": "`ok`."})
    log_end = fields.Integer(required=True, metadata={"description": "The id of the last stored event (0: none yet)."})


@health.get("")
@guarded(Caller.PUBLIC, limit="read")
@health.response(200, HealthSchema)
def check() -> ResponseReturnValue:
    """Answer 200 if this process reaches its event store (503 when it cannot)."""
    recorder = current_app.extensions["caboose"].recorder
    with request_budget(HEALTH_SECONDS):
        return {"status": "ok", "log_end": recorder.max_notification_id() or 0}
