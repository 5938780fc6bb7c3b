"""A request's body: JSON only, held to the input limits before any view reads it, and read
to its end before the answer goes out, even when the answer did not need it (a body too
large, a token refused, a rate limit).

A client sends its whole body before it reads the answer. A server that answers without
reading it and closes the connection leaves the unread bytes in its socket, and the system
answers them with a reset: the client sees its connection reset instead of the 413 (or 401,
or 429) it was given. gunicorn reads at most 64 KB of what the application left unread; a
5 MB body got a reset. So every response first reads what is left of its request's body, up
to `DRAIN_AT_MOST` bytes and `DRAIN_SECONDS`: beyond those (a body far larger than any this
server takes, or one sent too slowly) the connection is closed unread, as before.
"""

from __future__ import annotations

import contextlib
import json
import time

from flask import Flask, Response, request
from webargs.flaskparser import is_json_request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wsgi import get_input_stream

from service.api.problems import JSON, problem
from service.input_limits import check, loads

DRAIN_AT_MOST = 16 * 1024 * 1024
"""Bytes of an unread body read and dropped, at most, so that its client reads the answer."""
DRAIN_SECONDS = 10.0
CHUNK = 64 * 1024


def whole() -> bytes:
    """The request's body, refused (413) when it is over the limit: one sent in chunks, with
    no length said up front, is cut at the limit by the stream it is read through, so what
    follows the cut is looked for."""
    body = request.get_data(cache=True)
    limit = request.max_content_length
    if request.content_length is None and limit is not None and len(body) >= limit and request.environ["wsgi.input"].read(1):
        raise RequestEntityTooLarge()
    return body


def drain() -> None:
    """Read and drop what is left of the request's body (bounded)."""
    length = request.content_length
    chunked = "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    if (not length and not chunked) or (length or 0) > DRAIN_AT_MOST:
        return
    try:
        stream = request.stream
    except RequestEntityTooLarge:
        # Refused by its declared length before a byte was read.
        stream = get_input_stream(request.environ, max_content_length=None)
    read, until = 0, time.monotonic() + DRAIN_SECONDS
    while read < DRAIN_AT_MOST and time.monotonic() < until:
        try:
            chunk = stream.read(CHUNK)
        except RequestEntityTooLarge:
            # A chunked body past the limit: what is left of it is in the server's own stream.
            stream = request.environ["wsgi.input"]
            continue
        except OSError:
            return  # the client is gone
        if not chunk:
            return
        read += len(chunk)


def check_input() -> None:
    """Every JSON body and query string is held to the input limits before any view reads
    it. The body parsed here is parsed again by the view's schema: a move is a few hundred
    bytes, and one check for every route beats one per parser."""
    check(request.args.to_dict(flat=False))
    body = whole() if is_json_request(request) else b""
    if body.strip():
        # Text that is not JSON at all is left to the view's parser, which says so.
        with contextlib.suppress(json.JSONDecodeError, UnicodeDecodeError):
            loads(body)


def json_only() -> Response | None:
    """A body sent as anything but JSON is refused as such (415), rather than read as no
    body at all and answered with the schema's "missing field" messages."""
    has_body = bool(request.content_length) or request.headers.get("Transfer-Encoding") is not None
    if has_body and not request.is_json:
        sent = request.content_type or "no Content-Type"
        return problem(415, "Unsupported media type", f"The body must be JSON, sent as Content-Type: {JSON}; it came as {sent}.",
                       "unsupported_media_type", expected=JSON)
    return None


def install(app: Flask, max_body_bytes: int) -> None:
    app.before_request(check_input)
    app.before_request(json_only)

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(_: RequestEntityTooLarge) -> Response:
        return problem(413, "Request Entity Too Large", f"The body is larger than this server takes ({max_body_bytes} bytes).",
                       "body_too_large", max_bytes=max_body_bytes)

    @app.after_request
    def read_to_its_end(response: Response) -> Response:
        drain()
        return response
