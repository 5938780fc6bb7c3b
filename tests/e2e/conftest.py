"""A real HTTP server (werkzeug's threaded server on a loopback port) in front of a real
SQLite store."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from service.api import create_app
from service.application import Caboose
from service.settings import RateLimits, Settings


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: Any


@dataclass
class Client:
    base: str

    def request(self, method: str, path: str, body: Any = None, raw: bytes | None = None,
                headers: dict[str, str] | None = None, token: str | None = None) -> Reply:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        auth = {"Authorization": f"Bearer {token}"} if token else {}
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json", **auth, **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return Reply(response.status, {k.lower(): v for k, v in response.headers.items()}, json.loads(response.read() or b"null"))
        except urllib.error.HTTPError as error:
            return Reply(error.code, {k.lower(): v for k, v in error.headers.items()}, json.loads(error.read() or b"null"))

    def get(self, path: str, **kwargs: Any) -> Reply:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Reply:
        return self.request("POST", path, body, **kwargs)


@pytest.fixture
def store(tmp_path: object) -> Caboose:
    return Caboose(Settings(db=f"sqlite:///{tmp_path}/api.sqlite", rate_limits=RateLimits.every("1000000/minute")))


@contextmanager
def serving(store: Caboose, app: Flask | None = None) -> Iterator[Client]:
    server = make_server("127.0.0.1", 0, app or create_app(store), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Client(f"http://127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()


@pytest.fixture
def client(store: Caboose) -> Iterator[Client]:
    with serving(store) as client:
        yield client
