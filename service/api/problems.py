"""Errors as `application/problem+json` (RFC 9457): type, title, status, detail, and for
a rule's refusal its stable `code`."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, json
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from domain.core.errors import IllegalMove, MalformedMove, RecordError, RuleError
from service.errors import GameNotFound, ServiceError, VersionConflict

PROBLEM_BASE = "https://caboose.invalid/problems/"


def problem(status: int, title: str, detail: str, code: str | None = None, **extra: Any) -> Response:
    body = {"type": PROBLEM_BASE + (code or title.lower().replace(" ", "-")), "title": title,
            "status": status, "detail": detail, **({"code": code} if code else {}), **extra}
    return Response(json.dumps(body), status=status, mimetype="application/problem+json")


def register_problem_handlers(app: Flask) -> None:
    @app.errorhandler(ValidationError)
    def invalid_body(error: ValidationError) -> Response:
        return problem(400, "Malformed request", "The request body is not valid: see `errors`.",
                       "malformed_request", errors=error.messages)

    @app.errorhandler(MalformedMove)
    def malformed_move(error: MalformedMove) -> Response:
        return problem(400, "Malformed move", error.message, error.code)

    @app.errorhandler(IllegalMove)
    def illegal_move(error: IllegalMove) -> Response:
        return problem(422, "Illegal move", error.message, error.code)

    @app.errorhandler(RecordError)
    def bad_record(error: RecordError) -> Response:
        return problem(422, "Record does not verify", error.message, error.code, first_bad_version=error.version)

    @app.errorhandler(RuleError)
    def rule_error(error: RuleError) -> Response:
        return problem(422, "Refused by the rules", error.message, error.code)

    @app.errorhandler(GameNotFound)
    def not_found(error: GameNotFound) -> Response:
        return problem(404, "Game not found", error.message, error.code)

    @app.errorhandler(VersionConflict)
    def conflict(error: VersionConflict) -> Response:
        status = 412 if error.expected is not None else 409
        response = problem(status, "Version conflict", error.message, error.code, current_version=error.current)
        response.headers["ETag"] = f'"{error.current}"'
        return response

    @app.errorhandler(ServiceError)
    def service_error(error: ServiceError) -> Response:
        return problem(400, "Bad request", error.message, error.code)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        return problem(error.code or 500, error.name, error.description or error.name)
