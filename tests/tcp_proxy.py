"""A loopback TCP proxy that can cut a server off, for database outage tests without
stopping the shared database:
- `cut()` closes every connection and refuses new ones (a host that went down and says so);
- `blackhole()` is a silent outage: nothing is refused or reset, but nothing gets through
  either way any more — what either side sends is dropped, and new connections are accepted
  and then held, unanswered (packets dropped by a network, or a middlebox that accepts and
  forwards nothing);
- `restore()` forwards again (accepting again on the same port after a cut). After a
  blackhole, a connection that lost data on the way, or that was accepted meanwhile, is
  reset: its byte stream has a hole, as a TCP connection whose peer never acknowledged
  that data would have been dropped by now. An idle one carries on;
- `hold()` stops forwarding the first client message longer than a ping, so a test can cut
  a connection while a query is in flight.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from dataclasses import dataclass, field

PING_BYTES = 16
"""A connection check (an empty query) is shorter than this; real queries are longer."""


@dataclass(eq=False)
class Pair:
    client: socket.socket
    upstream: socket.socket | None
    """None for a connection accepted during a blackhole: never forwarded."""
    lost: bool = False
    """Data was dropped on the way (in a blackhole)."""
    sockets: tuple[socket.socket, ...] = field(init=False)

    def __post_init__(self) -> None:
        self.sockets = (self.client, self.upstream) if self.upstream is not None else (self.client,)


def reset(sock: socket.socket) -> None:
    """Close with a reset (RST), as a peer that gave up on the connection does."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


class CuttableProxy:
    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = 0
        self._lock = threading.Lock()
        self._pairs: set[Pair] = set()
        self._listener: socket.socket | None = None
        self._holding = False
        self._silent = False
        self.held = threading.Event()
        """Set when a query was held back (see `hold`)."""
        self.restore()

    def restore(self) -> None:
        """Forward again: accept connections (again, on the same port, after a cut); after a
        blackhole, reset the connections that lost data or were never forwarded."""
        with self._lock:
            self._silent = self._holding = False
            broken = {p for p in self._pairs if p.lost or p.upstream is None}
            self._pairs -= broken
            listening = self._listener is not None
        for pair in broken:
            for sock in pair.sockets:
                reset(sock)
        if listening:
            return
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        with self._lock:
            self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """Close every connection, both ways, and refuse new ones."""
        with self._lock:
            listener, self._listener = self._listener, None
            pairs, self._pairs = self._pairs, set()
            self._silent = False
        if listener is not None:
            listener.close()
        for pair in pairs:
            for sock in pair.sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()

    def blackhole(self) -> None:
        """From now on forward nothing, refuse nothing, reset nothing: drop it all."""
        with self._lock:
            self._silent = True

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
            upstream = None
            if not self._silent:
                try:
                    upstream = socket.create_connection(self.target, timeout=5)
                except OSError:
                    client.close()
                    continue
                upstream.settimeout(None)
            pair = Pair(client, upstream)
            with self._lock:
                if self._listener is not listener:
                    for sock in pair.sockets:
                        sock.close()
                    return
                self._pairs.add(pair)
            if upstream is None:
                continue  # accepted and held: nothing is read or answered until restored
            threading.Thread(target=self._pump, args=(pair, client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(pair, upstream, client, False), daemon=True).start()

    def _pump(self, pair: Pair, source: socket.socket, sink: socket.socket, from_client: bool) -> None:
        try:
            while data := source.recv(65536):
                if self._silent:
                    pair.lost = True
                    continue  # dropped on the way
                if from_client and self._holding and len(data) > PING_BYTES:
                    self._holding = False
                    self.held.set()
                    continue  # never forwarded: the query waits for an answer that will not come
                sink.sendall(data)
        except OSError:
            pass
        if self._silent:
            pair.lost = True  # a close, like anything else, does not get through
            return
        for sock in (source, sink):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
