"""Errors as `application/problem+json` (RFC 9457): type, title, status, detail, and for
a rule's refusal its stable `code`. A caller that asks for another language
(`Accept-Language`, or the pages' language cookie) gets `title` and `detail` in it: the
detail is the code's sentence (`service.i18n.rules`), the code itself unchanged."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from typing import Any

import eventsourcing.persistence as es
import psycopg
import psycopg_pool
import sqlalchemy.exc as sa_exc
from flask import Flask, Response, json, request
from flask_babel import gettext
from flask_smorest import Blueprint
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from domain.core.errors import IllegalMove, MalformedMove, RecordError, RuleError
from domain.core.transcription import NOT_YOURS
from service import i18n
from service.api.schemas import ProblemSchema
from service.errors import (
    GameNotFound,
    IdempotencyKeyReused,
    NoSuchSeat,
    NoSuchVersion,
    ServiceError,
    StoreInconsistent,
    TokenReplaced,
    TokenShownOnce,
    VersionConflict,
    Withheld,
)
from service.i18n.rules import sentence
from service.input_limits import InputRefused
from service.migrate import SchemaMissing
from service.notify.targets import TargetRefused
from service.seating import InviteInvalid

PROBLEM_BASE = "https://caboose.invalid/problems/"
PROBLEM_JSON = "application/problem+json"
_DESCRIPTIONS = {
    400: "Malformed request or move", 401: "Missing or invalid token", 403: "Not allowed for this token",
    404: "Unknown game", 409: "Lost a race with another writer", 412: "Stale version (If-Match)",
    413: "Body too large", 415: "The body is not JSON (Content-Type: application/json)",
    422: "Illegal move, or a request the rules refuse", 429: "Too many requests",
    503: "The database is unavailable or too slow: try again after Retry-After seconds",
}
_doc = Blueprint("problem_docs", __name__)

RETRY_AFTER = 5
"""Seconds a client is asked to wait when the database is unavailable (503)."""
DATABASE_ERRORS: tuple[type[Exception], ...] = (
    es.OperationalError, es.InterfaceError, es.DatabaseError, es.PersistenceError,
    sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.DBAPIError, sa_exc.TimeoutError,
    psycopg.OperationalError, psycopg.InterfaceError, psycopg_pool.PoolTimeout, sqlite3.OperationalError,
)
"""Errors of a database that is down, cut off, locked or too slow: 503, never a 500."""
INTEGRITY_ERRORS = (es.IntegrityError, sa_exc.IntegrityError)
"""A broken constraint is not an outage: a bug if it reaches the API."""


def documents_problems(*codes: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Document the problem responses a view may give in the OpenAPI document."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        documented = view
        for code in codes:
            documented = _doc.alt_response(code, schema=ProblemSchema, content_type=PROBLEM_JSON,
                                           description=_DESCRIPTIONS[code])(documented)
        # Only the documentation is kept: each of those wrappers would only call through, on
        # every request, once per code.
        view._apidoc = documented._apidoc  # type: ignore[attr-defined]
        return view

    return decorate


def problem(status: int, title: str, detail: str, code: str | None = None, headers: dict[str, str] | None = None,
            params: Mapping[str, Any] | None = None, **extra: Any) -> Response:
    if i18n.current() is not i18n.ENGLISH:
        title, detail = gettext(title), sentence(code or "", detail, params or {}, gettext)
    body = {"type": PROBLEM_BASE + (code or str(status)), "title": title, "status": status, "detail": detail,
            **({"code": code} if code else {}), **{k: v for k, v in extra.items() if v is not None}}
    return Response(json.dumps(body), status=status, mimetype=PROBLEM_JSON, headers=headers)


# The rules' errors are worded for moves; on other routes they are about other requests.
_TITLES = {
    "games.post_move": ("Malformed move", "Illegal move"),
    "games.create_game": ("Invalid game settings", "Refused by the rules"),
    "games.join_game": ("Invalid join", "Refused by the rules"),
}
_OTHER_TITLES = ("Malformed request", "Refused by the rules")
JSON = "application/json"


def _titles() -> tuple[str, str]:
    return _TITLES.get(request.endpoint or "", _OTHER_TITLES)


def _pointer(field: str | None) -> str | None:
    """A move's field as the domain names it (`cards.red`, `keep[1]`), as a JSON Pointer."""
    if field is None:
        return None
    return "/" + field.replace("[", ".").replace("]", "").replace("~", "~0").replace("/", "~1").replace(".", "/")


def register_problem_handlers(app: Flask) -> None:
    @app.errorhandler(ValidationError)
    def invalid_body(error: ValidationError) -> Response:
        return problem(400, "Malformed request", "The request is not valid: see `errors`.", "malformed_request",
                       errors=error.messages if isinstance(error.messages, dict) else {"_schema": error.messages})

    @app.errorhandler(InputRefused)
    def input_refused(error: InputRefused) -> Response:
        return problem(400, "Malformed request", error.message, error.code, path=error.path)

    @app.errorhandler(TargetRefused)
    def webhook_refused(error: TargetRefused) -> Response:
        return problem(400, "Webhook target refused", error.message, "webhook_target_refused", address_class=error.address_class)

    @app.errorhandler(MalformedMove)
    def malformed_move(error: MalformedMove) -> Response:
        return problem(400, _titles()[0], error.message, error.code, params=error.params, field=error.field,
                       path=_pointer(error.field))

    @app.errorhandler(IllegalMove)
    def illegal_move(error: IllegalMove) -> Response:
        if error.code == NOT_YOURS:  # a seat entering an outcome that is not its own secret draw
            return problem(403, "Not your outcome", error.message, error.code, params=error.params)
        return problem(422, _titles()[1], error.message, error.code, params=error.params)

    @app.errorhandler(RecordError)
    def bad_record(error: RecordError) -> Response:
        return problem(422, "Record does not verify", error.message, error.code, params=error.params,
                       first_bad_version=error.version)

    @app.errorhandler(RuleError)
    def rule_error(error: RuleError) -> Response:
        return problem(422, "Refused by the rules", error.message, error.code, params=error.params)

    @app.errorhandler(GameNotFound)
    def not_found(error: GameNotFound) -> Response:
        return problem(404, "Game not found", error.message, error.code)

    @app.errorhandler(InviteInvalid)
    def invite_invalid(error: InviteInvalid) -> Response:
        return problem(403, "Invite not valid", str(error), "invite_invalid")

    @app.errorhandler(VersionConflict)
    def conflict(error: VersionConflict) -> Response:
        status = 412 if error.expected is not None else 409
        return problem(status, "Version conflict", error.message, error.code, headers={"ETag": f'"{error.current}"'},
                       current_version=error.current)

    @app.errorhandler(TokenShownOnce)
    def token_shown_once(error: TokenShownOnce) -> Response:
        return problem(409, "Conflict", error.message, error.code)

    @app.errorhandler(IdempotencyKeyReused)
    def key_reused(error: IdempotencyKeyReused) -> Response:
        return problem(422, "Idempotency key reused", error.message, error.code)

    @app.errorhandler(StoreInconsistent)
    def inconsistent(error: StoreInconsistent) -> Response:
        app.logger.error("store inconsistent: %s", error.message)
        return problem(500, "Store inconsistent", f"{error.message}; nothing is answered from it.", error.code)

    @app.errorhandler(NoSuchVersion)
    def no_such_version(error: NoSuchVersion) -> Response:
        return problem(400, "No such version", error.message, error.code, current_version=error.current)

    @app.errorhandler(TokenReplaced)
    def token_replaced(error: TokenReplaced) -> Response:
        return problem(401, "Missing or invalid token", error.message, error.code)

    @app.errorhandler(Withheld)
    def withheld(error: Withheld) -> Response:
        return problem(403, "Not shown yet", error.message, error.code, running_game=error.running)

    @app.errorhandler(NoSuchSeat)
    def no_such_seat(error: NoSuchSeat) -> Response:
        return problem(400, "No such seat", error.message, error.code)

    @app.errorhandler(ServiceError)
    def service_error(error: ServiceError) -> Response:
        return problem(400, "Bad request", error.message, error.code)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        status = error.code or 500
        data = getattr(error, "data", None) or {}
        messages = data.get("messages")
        if messages is not None:
            # webargs' validation errors: {location: {field: [messages]}}
            errors: dict[str, Any] = {}
            for where, found in messages.items():
                errors.update(found if isinstance(found, dict) else {f"_{where}": found})
            return problem(400, "Malformed request", "The request is not valid: see `errors`.", "malformed_request", errors=errors)
        # The exception's own headers (405's Allow, 429's and 503's Retry-After); the body is ours.
        headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
        return problem(status, error.name, error.description or error.name, headers=headers)

    @app.errorhandler(SchemaMissing)
    def schema_missing(error: SchemaMissing) -> Response:
        app.logger.error("%s", error.message)
        return problem(503, "Service unavailable", error.message, error.code, headers={"Retry-After": str(RETRY_AFTER)})

    def database_unavailable(error: Exception) -> Response:
        if isinstance(error, INTEGRITY_ERRORS):
            return unexpected(error)
        # One line, no traceback: an outage is an operator's matter, not a bug.
        app.logger.warning("database unavailable: %s: %s", type(error).__name__, str(error).strip()[:300])
        return problem(503, "Database unavailable",
                       "The database did not answer in time; nothing more was stored by this request. Try again shortly.",
                       "database_unavailable", headers={"Retry-After": str(RETRY_AFTER)})

    for kind in DATABASE_ERRORS:
        app.register_error_handler(kind, database_unavailable)

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        app.logger.exception("unexpected error")
        return problem(500, "Internal Server Error", "Something went wrong on our side; nothing was stored by this request.")
