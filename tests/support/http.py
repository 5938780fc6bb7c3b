"""A small HTTP client on the standard library, for tests and benchmarks against a server
on loopback. It never raises for an HTTP status: every answer, 5xx included, is a `Reply`;
a body that is not JSON (a proxy's or a crashed worker's page) is kept as text."""

from __future__ import annotations

import http.client
import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: Any


def _body(raw: bytes) -> Any:
    try:
        return json.loads(raw or b"null")
    except ValueError:
        return raw.decode("utf-8", "replace")


@dataclass
class Client:
    base: str
    timeout: float = 30.0

    def request(self, method: str, path: str, body: Any = None, raw: bytes | None = None,
                headers: dict[str, str] | None = None, token: str | None = None) -> Reply:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        auth = {"Authorization": f"Bearer {token}"} if token else {}
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json", **auth, **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return Reply(response.status, {k.lower(): v for k, v in response.headers.items()}, _body(response.read()))
        except urllib.error.HTTPError as error:
            return Reply(error.code, {k.lower(): v for k, v in error.headers.items()}, _body(error.read()))

    def get(self, path: str, **kwargs: Any) -> Reply:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Reply:
        return self.request("POST", path, body, **kwargs)


class Session(Client):
    """A client that keeps its connection open between requests (HTTP/1.1 keep-alive), as
    browsers and client libraries (`requests.Session`) do; it reconnects once when the server
    closed the connection in between."""

    def __init__(self, base: str, timeout: float = 30.0) -> None:
        super().__init__(base, timeout)
        parts = urllib.parse.urlsplit(base)
        self._host, self._port = parts.hostname or "127.0.0.1", parts.port or 80
        self._connection: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: Any = None, raw: bytes | None = None,
                headers: dict[str, str] | None = None, token: str | None = None) -> Reply:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        auth = {"Authorization": f"Bearer {token}"} if token else {}
        sent = {"Content-Type": "application/json", **auth, **(headers or {})}
        for attempt in (1, 2):
            if self._connection is None:
                self._connection = http.client.HTTPConnection(self._host, self._port, timeout=self.timeout)
            try:
                self._connection.request(method, path, body=data, headers=sent)
                response = self._connection.getresponse()
                reply = Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, _body(response.read()))
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.close()
                if attempt == 2 or (method != "GET" and "Idempotency-Key" not in sent):
                    raise
                continue
            if reply.headers.get("connection", "").lower() == "close":
                self.close()
            return reply
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


STOP_POLL_SECONDS = 0.05
"""How often a server served on a thread looks whether it was asked to stop: `shutdown()` waits
for it to look (socketserver's default, half a second, was a quarter of a second on average at
the end of every test that served an app)."""


def serve_on_thread(server: Any) -> threading.Thread:
    """Serve `server` (werkzeug's `make_server`, any `socketserver` server) on a daemon thread
    until `server.shutdown()`, which returns within `STOP_POLL_SECONDS`."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": STOP_POLL_SECONDS}, daemon=True)
    thread.start()
    return thread
