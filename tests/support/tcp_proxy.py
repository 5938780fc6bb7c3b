"""A loopback TCP proxy in front of a real server, whose link can be cut and restored: a
database outage for one service without stopping a database others are using.

`cut()` refuses new connections and drops every open one, as a stopped server does;
`restore()` listens again on the same port.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from types import TracebackType
from typing import Self

from tests.support.live_server import free_port

POLL_SECONDS = 0.1
"""How often the accepting thread looks whether it should stop."""


class TcpProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self._stop = threading.Event()
        self._acceptor: threading.Thread | None = None

    def start(self) -> Self:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(128)
        listener.settimeout(POLL_SECONDS)
        self._listener, self._stop = listener, threading.Event()
        self._acceptor = threading.Thread(target=self._accept, args=(listener, self._stop), daemon=True)
        self._acceptor.start()
        return self

    def cut(self) -> None:
        """Refuse new connections and drop the open ones."""
        self._stop.set()
        if self._acceptor is not None:
            self._acceptor.join(timeout=5)
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        with self._lock:
            dropping, self._open = self._open, set()
        for sock in dropping:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    restore = start

    def _accept(self, listener: socket.socket, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                downstream, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                downstream.close()
                continue
            downstream.settimeout(None)
            upstream.settimeout(None)
            with self._lock:
                self._open.update((downstream, upstream))
            for source, sink in ((downstream, upstream), (upstream, downstream)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            with self._lock:
                self._open.discard(source)
                self._open.discard(sink)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *_: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.cut()
