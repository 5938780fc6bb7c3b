"""A real HTTP server (werkzeug's threaded server on a loopback port) in front of a real
SQLite store."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from werkzeug.serving import make_server

from service.api import create_app
from service.application import Caboose
from service.settings import RateLimits, Settings
from tests.support.http import Client, Reply, serve_on_thread
from tests.support.loopback_mail import hooks, mailbox  # noqa: F401  (the journeys' fixtures)

__all__ = ["Client", "Reply", "serving"]


@pytest.fixture
def store(tmp_path: object) -> Caboose:
    return Caboose(Settings(db=f"sqlite:///{tmp_path}/api.sqlite", rate_limits=RateLimits.every("1000000/minute")))


@contextmanager
def serving(store: Caboose, app: Flask | None = None) -> Iterator[Client]:
    server = make_server("127.0.0.1", 0, app or create_app(store), threaded=True)
    serve_on_thread(server)
    try:
        yield Client(f"http://127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()


@pytest.fixture
def client(store: Caboose) -> Iterator[Client]:
    with serving(store) as client:
        yield client
