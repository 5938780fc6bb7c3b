"""The deployment's one entry: a small round-robin HTTP reverse proxy in front of the API
processes (`infra/Procfile`).

    python infra/proxy.py --listen 127.0.0.1:8000 --backends 127.0.0.1:8001,127.0.0.1:8002

Each request goes to the next backend in turn. The proxy reads only the request's head: it
drops the hop-by-hop headers, asks the backend to close after answering (`Connection:
close`), appends the client's address to `X-Forwarded-For` (the API trusts it with
`CABOOSE_TRUSTED_PROXIES=1`, so rate limits count clients, not the proxy) and then copies
bytes both ways until the backend closes. Bodies, chunked or not, and streamed answers
(Server-Sent Events) pass through as they come, unbuffered. One request per client
connection: the answer says `Connection: close`, and clients open the next connection.

A backend that refuses a connection is left out for `--rest` seconds and the request goes to
the next one, so stopping one API process (an upgrade, a crash) costs no request that had not
reached it yet; when none accepts, the answer is a 503 problem document with `Retry-After`.
A request already handed to a backend that then dies gets no answer: it is not sent twice,
since a move must not be (clients retry with the same `Idempotency-Key`).

Standard library only, so it runs wherever Python does; a real site can put nginx or HAProxy
here instead (docs/deployment.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import logging
import signal
import sys
import time
from dataclasses import dataclass, field

HEAD_LIMIT = 64 * 1024
"""A request head (request line and headers) longer than this is refused (431)."""
HOP_BY_HOP = frozenset({"connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade",
                        "proxy-authorization", "proxy-authenticate"})
"""Headers that describe one connection, not the request: never forwarded (RFC 9110 7.6.1)."""
CHUNK = 64 * 1024

log = logging.getLogger("caboose.proxy")


@dataclass
class Backend:
    host: str
    port: int
    resting_until: float = 0.0
    """A backend that refused a connection is not tried again before this (monotonic) time."""

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"


@dataclass
class Backends:
    members: list[Backend]
    rest: float = 2.0
    connect_timeout: float = 5.0
    _turn: itertools.count[int] = field(default_factory=itertools.count)

    def in_turn(self) -> list[Backend]:
        """Every backend once, starting from the next in turn; the resting ones last."""
        start = next(self._turn) % len(self.members)
        ordered = self.members[start:] + self.members[:start]
        now = time.monotonic()
        return [b for b in ordered if b.resting_until <= now] + [b for b in ordered if b.resting_until > now]

    async def connect(self) -> tuple[Backend, asyncio.StreamReader, asyncio.StreamWriter] | None:
        for backend in self.in_turn():
            try:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(backend.host, backend.port), self.connect_timeout)
            except (OSError, TimeoutError) as error:
                if backend.resting_until <= time.monotonic():
                    log.warning("backend %s refused a connection (%s): resting it %.1f s", backend, error, self.rest)
                backend.resting_until = time.monotonic() + self.rest
                continue
            backend.resting_until = 0.0
            return backend, reader, writer
        return None


class BadHead(ValueError):
    def __init__(self, status: int, title: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.title, self.detail = status, title, detail


def forwarded_head(head: bytes, client: str) -> bytes:
    """The request head as the backend gets it: hop-by-hop headers dropped (and those the
    `Connection` header names), `Connection: close`, the client appended to `X-Forwarded-For`."""
    try:
        text = head.decode("latin-1")
    except UnicodeDecodeError as error:  # latin-1 decodes every byte; kept for clarity
        raise BadHead(400, "Bad request", "the request head is not text") from error
    request_line, *lines = text.split("\r\n")
    if len(request_line.split(" ")) != 3 or not request_line.split(" ")[2].startswith("HTTP/"):
        raise BadHead(400, "Bad request", "the request line is not METHOD TARGET HTTP/VERSION")
    headers: list[tuple[str, str]] = []
    for line in lines:
        if not line:
            continue
        name, colon, value = line.partition(":")
        if not colon or not name or name != name.strip():
            raise BadHead(400, "Bad request", f"a header line is not NAME: VALUE: {line[:80]!r}")
        headers.append((name, value.strip()))
    named_by_connection = {v.strip().lower() for n, value in headers if n.lower() == "connection" for v in value.split(",")}
    dropped = HOP_BY_HOP | named_by_connection
    forwarded_for = [v for n, v in headers if n.lower() == "x-forwarded-for"]
    kept = [(n, v) for n, v in headers if n.lower() not in dropped and n.lower() != "x-forwarded-for"]
    kept.append(("X-Forwarded-For", ", ".join([*forwarded_for, client])))
    if not any(n.lower() == "x-forwarded-proto" for n, _ in kept):
        kept.append(("X-Forwarded-Proto", "http"))
    kept.append(("Connection", "close"))
    return (request_line + "\r\n" + "".join(f"{n}: {v}\r\n" for n, v in kept) + "\r\n").encode("latin-1")


def problem(status: int, title: str, detail: str, retry_after: int | None = None) -> bytes:
    """A problem document (RFC 9457), as the API answers its own errors."""
    body = json.dumps({"type": "about:blank", "title": title, "status": status, "detail": detail}).encode()
    extra = f"Retry-After: {retry_after}\r\n" if retry_after is not None else ""
    return (f"HTTP/1.1 {status} {title}\r\nContent-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n"
            f"{extra}Connection: close\r\n\r\n").encode() + body


async def pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy bytes until the reader's end; then say so to the other side."""
    while chunk := await reader.read(CHUNK):
        writer.write(chunk)
        await writer.drain()
    with contextlib.suppress(OSError):
        if writer.can_write_eof():
            writer.write_eof()


class Proxy:
    def __init__(self, backends: Backends) -> None:
        self.backends = backends
        self.serving: set[asyncio.Task[None]] = set()
        """Requests in progress. asyncio holds a connection's task only weakly once the client
        has hung up, and a task nobody holds is destroyed mid-way: held here until done."""

    async def handle(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self.serving.add(task)
            task.add_done_callback(self.serving.discard)
        peer = client_writer.get_extra_info("peername")
        client = str(peer[0]) if peer else "unknown"
        upstream: asyncio.StreamWriter | None = None
        try:
            try:
                head = await client_reader.readuntil(b"\r\n\r\n")
                forwarded = forwarded_head(head, client)
            except asyncio.IncompleteReadError:
                return  # the client went away before sending a whole head
            except asyncio.LimitOverrunError:
                client_writer.write(problem(431, "Request header fields too large", f"the request head exceeds {HEAD_LIMIT} bytes"))
                return
            except BadHead as bad:
                client_writer.write(problem(bad.status, bad.title, bad.detail))
                return
            chosen = await self.backends.connect()
            if chosen is None:
                client_writer.write(problem(503, "Service unavailable", "no API process accepts connections", retry_after=1))
                return
            _, upstream_reader, upstream = chosen
            upstream.write(forwarded)
            to_backend = asyncio.create_task(pump(client_reader, upstream))
            try:
                # The answer ends when the backend closes (it was asked to): then the request is done.
                await pump(upstream_reader, client_writer)
            finally:
                to_backend.cancel()
                with contextlib.suppress(asyncio.CancelledError, OSError):
                    await to_backend
        except (OSError, asyncio.IncompleteReadError):
            pass  # either side hung up mid-way: nothing left to answer to
        finally:
            for writer in (upstream, client_writer):
                if writer is not None:
                    writer.close()
                    with contextlib.suppress(OSError, TimeoutError):
                        await asyncio.wait_for(writer.wait_closed(), 5)


def address(text: str) -> tuple[str, int]:
    host, colon, port = text.strip().rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT")
    return host.strip("[]"), int(port)


def backend_list(text: str) -> list[Backend]:
    members = [Backend(*address(part)) for part in text.split(",") if part.strip()]
    if not members:
        raise argparse.ArgumentTypeError("name at least one backend: HOST:PORT[,HOST:PORT…]")
    return members


async def serve(listen: tuple[str, int], backends: Backends) -> None:
    proxy = Proxy(backends)
    server = await asyncio.start_server(proxy.handle, listen[0], listen[1], limit=HEAD_LIMIT, backlog=1024, reuse_address=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    log.info("proxy on %s:%d, round robin over %s", listen[0], listen[1], ", ".join(map(str, backends.members)))
    async with server:
        await stop.wait()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listen", type=address, required=True, help="HOST:PORT the entry listens on")
    parser.add_argument("--backends", type=backend_list, required=True, help="the API processes: HOST:PORT,HOST:PORT…")
    parser.add_argument("--rest", type=float, default=2.0, help="seconds a backend that refused a connection is left out")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s %(levelname)s %(message)s", stream=sys.stdout)
    asyncio.run(serve(args.listen, Backends(args.backends, rest=args.rest)))


if __name__ == "__main__":
    main()
