"""A real webhook receiver on a loopback port, for the notification tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.support.http import serve_on_thread


class Receiver(ThreadingHTTPServer):
    """Records every delivery (lower-cased headers, body); fails its first `failures`
    requests with HTTP 500."""

    def __init__(self, failures: int = 0) -> None:
        self.received: list[tuple[dict, bytes]] = []
        self.failures = failures
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if receiver.failures > 0:
                    receiver.failures -= 1
                    self.send_response(500)
                else:
                    receiver.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
                    self.send_response(204)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)

    @property
    def hosts(self) -> list[str]:
        """The Host header of each delivery received."""
        return [headers["host"] for headers, _ in self.received]


@contextmanager
def receiving(failures: int = 0) -> Iterator[Receiver]:
    server = Receiver(failures)
    serve_on_thread(server)
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
