"""A game's records pushed as they are stored: Server-Sent Events on `GET …/stream`.

The stream is `GET …/events` kept open: the same records, the same redaction for the
caller's token, one SSE event per record (`id:` its version). A reconnect sends the last id
it got as `Last-Event-ID` (a browser's EventSource does so itself) or `?after=`, and the
stream resumes with the next record. Everything that can be refused (an unknown game, a bad
token, a bad id, a process holding all the streams it may) is refused with a problem
document before the stream starts. The records
come from this process's `Feed` (`service/feed.py`), which alone watches the store.

A seat's token is asked again before every write, of the game as it stood at the records
about to be sent: once a referee has handed the seat back with a fresh token, the stream
ends without them, as every other request with that token is refused.
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Response, current_app
from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint
from marshmallow import EXCLUDE, Schema, fields, validate

from domain.core.events import Audience
from service.aggregate import Game
from service.api.auth import lobby, seat_token
from service.api.guard import Caller, guarded
from service.api.problems import documents_problems, problem
from service.api.schemas import VERSION_MAX, Strict
from service.commands import SeatToken
from service.errors import NoSuchVersion, TokenReplaced
from service.feed import Channel, Feed, StreamsFull, capacity_from_env

stream = Blueprint("stream", __name__, url_prefix="/api/v1/games", description="Live: a game's records as they are stored.")

RETRY_MS = 2000
"""How long a client waits before reconnecting after the stream is cut (the SSE `retry:` field)."""


class StreamQuerySchema(Strict):
    after = fields.Integer(validate=validate.Range(min=0, max=VERSION_MAX), load_default=None,
                           metadata={"description": "Start after this version (default: the first record); "
                                                    "a `Last-Event-ID` header takes precedence."})


class StreamHeadersSchema(Schema):
    class Meta:
        unknown = EXCLUDE  # every other header

    last_event_id = fields.Integer(data_key="Last-Event-ID", validate=validate.Range(min=0, max=VERSION_MAX),
                                   load_default=None,
                                   metadata={"description": "The id (version) of the last event received: the stream "
                                                            "resumes after it. EventSource sends it itself when it reconnects."})


EVENT_STREAM = {"200": {"description": "`text/event-stream`: one event per record (`id:` its version, `data:` the "
                                       "record as `GET …/events` shows it to the caller), a comment line as a "
                                       "heartbeat while nothing happens. The stream stays open.",
                        "content": {"text/event-stream": {"schema": {"type": "string"}}}}}


def feed() -> Feed:
    """This process's feed, made by the first stream (a worker that never streams has none).
    Its capacity is the environment's `CABOOSE_STREAMS`, else the app's (set by a server that
    knows its threads: `caboose serve`)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    found = app.extensions.get("caboose.feed")
    if found is None:
        capacity = capacity_from_env() or app.config.get("CABOOSE_STREAMS")
        found = app.extensions.setdefault("caboose.feed", Feed(lobby().caboose, capacity=capacity))
    return found


@stream.get("/<game_id>/stream")
@guarded(Caller.PUBLIC, limit="read")
@stream.arguments(StreamQuerySchema(), location="query", as_kwargs=True)
@stream.arguments(StreamHeadersSchema(), location="headers", as_kwargs=True)
@stream.doc(responses=EVENT_STREAM)
@documents_problems(400, 401, 403, 404, 429, 503)
def get_stream(game_id: str, after: int | None, last_event_id: int | None, audience: Audience,
               loaded: Game | None) -> ResponseReturnValue:
    """Follow the game: each of its records, as the caller may see it, pushed when stored."""
    # The header is what a reconnecting EventSource sends: it wins over the query.
    start = last_event_id if last_event_id is not None else after or 0
    live = feed()
    try:
        channel = live.open(game_id)
    except StreamsFull as full:
        return problem(503, "Streams full", full.message, full.code, headers={"Retry-After": str(RETRY_MS // 1000)})
    speaks = seat_token(audience, loaded)
    try:
        if start > channel.version:
            raise NoSuchVersion(start, channel.version)
        first, game = channel.frames(live.caboose, start, audience)
        if speaks is not None and (game is None or not speaks.holds(game)):
            raise TokenReplaced()
    except BaseException:
        live.close(channel)
        raise
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(pushed(live, channel, audience, start, first, speaks), mimetype="text/event-stream", headers=headers)


def pushed(live: Feed, channel: Channel, audience: Audience, after: int, first: list[tuple[int, bytes]],
           speaks: SeatToken | None = None) -> Iterator[bytes]:
    """The stream's body: the records after `after`, then each new one as it is stored. A
    client gone is noticed at the next write (at the latest the next heartbeat), which
    closes this generator and the channel with it. `speaks`: whether the seat's token still
    speaks for its seat in a game (None: the public's or the referee's stream); asked of the
    game each batch was read with, the stream ends, sending nothing more, once it does not."""
    try:
        yield b"retry: %d\n\n" % RETRY_MS
        batch, last = first, after
        while True:
            if batch:
                # One write for the records of one wake (a move stores several at once).
                yield b"".join(text for _, text in batch)
                last = batch[-1][0]
            if channel.wait(last, live.heartbeat):
                batch, game = channel.frames(live.caboose, last, audience)
                if speaks is not None and (game is None or not speaks.holds(game)):
                    return  # the seat was handed back: its next records are its new holder's
            elif channel.closed:
                return  # the server is stopping: the client reconnects with Last-Event-ID
            else:
                batch = []
                yield b": heartbeat\n\n"
    finally:
        live.close(channel)
