"""Marshmallow schemas: they own the validation of every request body and query."""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates


class CreateGameSchema(Schema):
    game = fields.String(required=True, metadata={"description": "Ruleset name, e.g. ticket_to_ride."})
    players = fields.List(fields.String(validate=validate.Length(min=1, max=64)), required=True,
                          validate=validate.Length(min=1, max=8), metadata={"description": "One name per seat, in seat order."})
    options = fields.Dict(keys=fields.String(), load_default=dict)
    seed = fields.String(load_default=None, validate=validate.Regexp(r"^[0-9a-fA-F]{64}$", error="A seed is 64 hex digits."),
                         metadata={"description": "A client-chosen seed (tests, published tournament seeds)."})


class MoveSchema(Schema):
    """A move: the acting seat, the move's `type`, and that type's own fields."""

    class Meta:
        unknown = INCLUDE

    seat = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    type = fields.String(required=True, validate=validate.Length(min=1, max=64))
    expected_version = fields.Integer(strict=True, validate=validate.Range(min=1), load_default=None)


class StateQuerySchema(Schema):
    at = fields.Integer(validate=validate.Range(min=1), load_default=None)
    as_ = fields.String(data_key="as", load_default="public")

    @validates("as_")
    def _audience(self, value: str, **_: Any) -> None:
        if value not in ("public", "referee") and not (value.startswith("seat:") and value[5:].isdigit()):
            raise ValidationError("Use public, referee or seat:N.")


class EventsQuerySchema(StateQuerySchema):
    after = fields.Integer(validate=validate.Range(min=0), load_default=0)
    limit = fields.Integer(validate=validate.Range(min=1, max=5000), load_default=1000)


class SeatQuerySchema(Schema):
    seat = fields.Integer(required=True, validate=validate.Range(min=0))
