"""A loopback TCP proxy that can cut a server off, for database outage tests without
stopping the shared database: `cut()` closes every connection and refuses new ones,
`restore()` accepts again on the same port. `hold()` stops forwarding the first client
message longer than a ping, so a test can cut a connection while a query is in flight."""

from __future__ import annotations

import contextlib
import socket
import threading

PING_BYTES = 16
"""A connection check (an empty query) is shorter than this; real queries are longer."""


class CuttableProxy:
    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = 0
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self._holding = False
        self.held = threading.Event()
        """Set when a query was held back (see `hold`)."""
        self.restore()

    def restore(self) -> None:
        """Accept connections (again, on the same port) and forward them."""
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        with self._lock:
            self._listener, self._holding = listener, False
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """Close every connection, both ways, and refuse new ones."""
        with self._lock:
            listener, self._listener = self._listener, None
            sockets, self._sockets = self._sockets, set()
        if listener is not None:
            listener.close()
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def hold(self) -> None:
        """Keep forwarding, except the next client message longer than a ping: hold it
        back (the query is then in flight, unanswered) and set `held`."""
        self.held.clear()
        self._holding = True

    close = cut

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                if self._listener is not listener:
                    client.close()
                    upstream.close()
                    return
                self._sockets |= {client, upstream}
            threading.Thread(target=self._pump, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, False), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, from_client: bool) -> None:
        try:
            while data := source.recv(65536):
                if from_client and self._holding and len(data) > PING_BYTES:
                    self._holding = False
                    self.held.set()
                    continue  # never forwarded: the query waits for an answer that will not come
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
