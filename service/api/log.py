"""`/api/v1/log`: the transparency log (docs/transparency.md) — its signed checkpoints, its
verifier key, inclusion and consistency proofs (RFC 9162), and witnesses' cosignatures.

Everything here is public: a leaf is an event's hash, which the public record shows too."""

from __future__ import annotations

import base64

from flask import Response, current_app
from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from service.api.guard import Caller, guarded
from service.api.problems import PROBLEM_JSON, documents_problems, problem
from service.api.schemas import ProblemSchema
from service.tlog import TransparencyLog
from service.tlog.log import LogError
from service.tlog.notes import NoteError

log = Blueprint("log", __name__, url_prefix="/api/v1/log",
                description="The transparency log: every stored event a leaf of one Merkle tree, signed checkpoints and proofs.")

TEXT = "text/plain; charset=utf-8"


def transparency() -> TransparencyLog:
    return current_app.extensions["caboose.services"].log  # type: ignore[no-any-return]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


class InclusionQuery(Schema):
    game = fields.UUID(required=True, metadata={"description": "The game's id."})
    version = fields.Integer(required=True, validate=validate.Range(min=1), metadata={"description": "The event's version."})
    size = fields.Integer(validate=validate.Range(min=1, max=2**62), metadata={
        "description": "The tree size to prove it in (a checkpoint's); default: the newest checkpoint's."})


class ConsistencyQuery(Schema):
    from_ = fields.Integer(required=True, data_key="from", validate=validate.Range(min=1),
                           metadata={"description": "The earlier tree's size."})
    to = fields.Integer(required=True, validate=validate.Range(min=1), metadata={"description": "The later tree's size."})

    @validates_schema
    def ordered(self, data: dict[str, int], **_: object) -> None:
        if data["from_"] > data["to"]:
            raise ValidationError("`from` must not be larger than `to`.", "from")


class InclusionSchema(Schema):
    leaf_index = fields.Integer(required=True, metadata={"description": "The event's leaf, from 0."})
    tree_size = fields.Integer(required=True)
    leaf_hash = fields.String(required=True, metadata={"description": "base64 SHA-256(0x00 ‖ the event's 32-byte hash)."})
    hashes = fields.List(fields.String(), required=True, metadata={"description": "The audit path (RFC 9162 §2.1.3), base64."})


class ConsistencySchema(Schema):
    from_ = fields.Integer(required=True, data_key="from")
    to = fields.Integer(required=True)
    hashes = fields.List(fields.String(), required=True, metadata={"description": "The proof (RFC 9162 §2.1.4), base64."})


class CosignatureBody(Schema):
    checkpoint = fields.String(required=True, validate=validate.Length(min=1, max=16_000), metadata={
        "description": "One of this log's checkpoints as a signed note, with the witness's cosignature line added."})


class CosignedSchema(Schema):
    witnesses = fields.String(required=True, metadata={"description": "The witnesses whose cosignatures were kept."})


def text(body: str) -> Response:
    return Response(body, 200, content_type=TEXT, headers={"Cache-Control": "no-cache"})


def refused(error: LogError | NoteError) -> Response:
    if isinstance(error, LogError):
        return problem(404, "Not in the log", str(error), error.code)
    return problem(422, "Note refused", str(error), "note_refused")


_TEXT_DOC = {"200": {"description": "A C2SP signed note.", "content": {"text/plain": {"schema": {"type": "string"}}}}}


@log.get("/checkpoint")
@guarded(Caller.PUBLIC, limit="read")
@log.doc(responses=_TEXT_DOC)
@documents_problems(404, 429)
def checkpoint() -> ResponseReturnValue:
    """The log's published checkpoint (C2SP tlog-checkpoint), with its witnesses' cosignatures."""
    try:
        return text(transparency().published().note)
    except LogError as error:
        return refused(error)


@log.get("/checkpoint/latest")
@guarded(Caller.PUBLIC, limit="read")
@log.doc(responses=_TEXT_DOC)
@documents_problems(404, 429)
def latest_checkpoint() -> ResponseReturnValue:
    """The newest checkpoint the log signed, cosigned or not: what witnesses fetch."""
    try:
        return text(transparency().published(latest=True).note)
    except LogError as error:
        return refused(error)


@log.get("/key")
@guarded(Caller.PUBLIC, limit="read")
@log.doc(responses={"200": {"description": "A C2SP verifier key.", "content": {"text/plain": {"schema": {"type": "string"}}}}})
@documents_problems(429)
def key() -> ResponseReturnValue:
    """The log's verifier key, in the signed-note verifier key format."""
    return text(f"{transparency().verifier}\n")


@log.get("/proof/inclusion")
@guarded(Caller.PUBLIC, limit="read")
@log.arguments(InclusionQuery, location="query", as_kwargs=True)
@log.response(200, InclusionSchema)
@documents_problems(400, 404, 429)
def inclusion(game: object, version: int, size: int | None = None) -> ResponseReturnValue:
    """Prove that one event is a leaf of the tree of a given size."""
    try:
        found = transparency().inclusion(str(game), version, size)
    except LogError as error:
        return refused(error)
    return {"leaf_index": found.leaf_index, "tree_size": found.tree_size, "leaf_hash": b64(found.leaf_hash),
            "hashes": [b64(h) for h in found.hashes]}


@log.get("/proof/consistency")
@guarded(Caller.PUBLIC, limit="read")
@log.arguments(ConsistencyQuery, location="query", as_kwargs=True)
@log.response(200, ConsistencySchema)
@documents_problems(400, 404, 429)
def consistency(from_: int, to: int) -> ResponseReturnValue:
    """Prove that the tree of `to` leaves extends the tree of `from` leaves."""
    try:
        hashes = transparency().consistency(from_, to)
    except LogError as error:
        return refused(error)
    return {"from_": from_, "to": to, "hashes": [b64(h) for h in hashes]}


@log.post("/cosignatures")
@guarded(Caller.PUBLIC, limit="create")
@log.arguments(CosignatureBody, as_kwargs=True)
@log.response(201, CosignedSchema)
@log.alt_response(422, schema=ProblemSchema, content_type=PROBLEM_JSON, description="Not a cosignature this log takes")
@documents_problems(400, 429)
def cosign(checkpoint: str) -> ResponseReturnValue:
    """Hand in a witness's cosignature of one of this log's checkpoints."""
    try:
        return {"witnesses": transparency().cosign(checkpoint)}, 201
    except NoteError as error:
        return refused(error)
