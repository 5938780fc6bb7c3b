"""The deployment's HAProxy, configured by `infra/run --write-config` from the same settings
as the deployment and run as it runs it, in front of real HTTP servers on loopback: requests
go to each backend in turn, a backend that is down is passed over, none up is a 503 problem
document with Retry-After, a streamed answer is not held back, and the client's address
reaches the API, which counts a client that writes its own X-Forwarded-For as the address
HAProxy saw."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from werkzeug.serving import make_server

from service.api import create_app
from service.application import Caboose
from service.bootstrap import bootstrap
from service.settings import RateLimits, Settings
from tests.support.deployment import ROOT
from tests.support.http import Client, serve_on_thread
from tests.support.ports import free_port

Wsgi = Callable[[dict[str, Any], Callable[..., Any]], Any]


@contextmanager
def backend(app: Wsgi) -> Iterator[int]:
    server = make_server("127.0.0.1", 0, app, threaded=True)
    serve_on_thread(server)
    try:
        yield server.server_port
    finally:
        server.shutdown()


@contextmanager
def entry(*ports: int) -> Iterator[str]:
    """HAProxy in front of these loopback ports, configured by infra/run; yields its base URL
    once it accepts."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="caboose-haproxy-") as folder:
        env = {**os.environ, "CABOOSE_HOST": "127.0.0.1", "CABOOSE_PORT": str(port),
               "CABOOSE_BACKENDS": ",".join(f"127.0.0.1:{p}" for p in ports)}
        written = subprocess.run([sys.executable, str(ROOT / "infra" / "run"), "--write-config", folder], env=env,
                                 capture_output=True, text=True, timeout=60)
        assert written.returncode == 0, written.stderr
        process = subprocess.Popen([shutil.which("haproxy") or "/usr/sbin/haproxy", "-db", "-f", f"{folder}/haproxy.cfg"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise AssertionError(f"HAProxy did not start: {process.stderr.read() if process.stderr else ''}") from None
                    time.sleep(0.05)
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            process.wait(timeout=10)


def named(name: str) -> Wsgi:
    """A backend that answers its name, the address it saw and the X-Forwarded-For it got."""
    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        size = int(environ.get("CONTENT_LENGTH") or 0)
        body = json.dumps({"backend": name, "forwarded_for": environ.get("HTTP_X_FORWARDED_FOR"),
                           "connection": environ.get("HTTP_CONNECTION"), "echo": environ["wsgi.input"].read(size).decode()})
        start_response("200 OK", [("Content-Type", "application/json")])
        return [body.encode()]
    return app


def test_requests_go_to_each_backend_in_turn_with_the_client_address_appended() -> None:
    with backend(named("a")) as a, backend(named("b")) as b, entry(a, b) as base:
        client = Client(base, timeout=10)
        answers = [client.post("/anything", {"n": i}, headers={"X-Forwarded-For": "203.0.113.9"}).body for i in range(6)]
    assert [x["backend"] for x in answers] in (list("ababab"), list("bababa"))
    # HAProxy adds its own X-Forwarded-For line after the client's; the server joins them.
    assert all([a.strip() for a in x["forwarded_for"].split(",")] == ["203.0.113.9", "127.0.0.1"] for x in answers), answers
    assert all(x["connection"] == "close" for x in answers)
    assert [json.loads(x["echo"])["n"] for x in answers] == list(range(6))


def test_a_backend_that_is_down_is_passed_over_and_none_up_is_a_503_problem() -> None:
    down = free_port()
    with backend(named("up")) as up, entry(down, up) as base:
        client = Client(base, timeout=10)
        assert [client.get("/").body["backend"] for _ in range(4)] == ["up"] * 4
    with entry(free_port(), free_port()) as base:
        reply = Client(base, timeout=10).get("/api/v1/health")
    assert reply.status == 503
    assert reply.headers["content-type"] == "application/problem+json" and reply.headers["retry-after"] == "1"
    assert reply.body["status"] == 503 and "no API process" in reply.body["detail"]


def test_a_streamed_answer_reaches_the_client_while_the_backend_is_still_sending() -> None:
    first_read = threading.Event()

    def stream(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterator[bytes]:
        start_response("200 OK", [("Content-Type", "text/event-stream")])
        yield b"data: one\n\n"
        # The second event is only sent once the client has read the first through HAProxy.
        yield b"data: two\n\n" if first_read.wait(timeout=20) else b"data: never read\n\n"

    with backend(stream) as port, entry(port) as base:
        connection = http.client.HTTPConnection(base.removeprefix("http://"), timeout=30)
        connection.request("GET", "/stream")
        response = connection.getresponse()
        assert response.readline() == b"data: one\n"
        first_read.set()
        rest = response.read()
        connection.close()
    assert rest == b"\ndata: two\n\n"


def create_from(source: str, base: str, spoofed: str | None = None) -> int:
    """POST a new game through HAProxy from the loopback address `source` (Linux answers on
    all of 127.0.0.0/8): the status."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
    try:
        connection.request("POST", "/api/v1/games", json.dumps({"game": "ticket_to_ride", "players": ["a", "b"]}),
                           {"Content-Type": "application/json", **({"X-Forwarded-For": spoofed} if spoofed else {})})
        return connection.getresponse().status
    finally:
        connection.close()


@pytest.mark.parametrize("trusted", [1, 0])
def test_a_client_is_counted_by_the_address_haproxy_saw(tmp_path: object, trusted: int) -> None:
    """With CABOOSE_TRUSTED_PROXIES=1 (as infra/run sets it) the API counts each client by the
    address HAProxy saw: two clients have a budget each, and a client that writes a new
    X-Forwarded-For on every request is still one client. Without it, every client behind
    HAProxy is HAProxy, and shares one budget."""
    settings = Settings(db=f"sqlite:///{tmp_path}/proxy.sqlite", trusted_proxies=trusted,
                        rate_limits=RateLimits(create="3/minute"))
    app = create_app(services=bootstrap(caboose=Caboose(settings)))
    with backend(app) as port, entry(port) as base:
        first = [create_from("127.0.0.2", base, spoofed=f"198.51.100.{i}") for i in range(4)]
        second = [create_from("127.0.0.3", base) for _ in range(3)]
    assert first == [201, 201, 201, 429]
    assert second == ([201, 201, 201] if trusted else [429, 429, 429])
