"""Live updates pushed against polled: N open streams on one game (GET …/stream) against N
pages polling GET …/events?after=N every 2 s (what the viewer did before), through gunicorn
(infra/gunicorn.conf.py) on loopback, on SQLite and PostgreSQL.

    python benchmarks/bench_stream.py [--streams 500] [--moves 20] [--workers 2] [--stores sqlite,postgres]

A move is stored through the API every `--gap` seconds. A record's latency to a client is
the time it arrived there less the record's own `time` (stamped by the server just before
the record is written, so the write is included); the clients run in this one process
(asyncio), on the same cores as the server. Prints JSON per store: for the streams, p50/p99
over every (stream, record) and over every record of the time until *all* streams had it,
also counted from the mover's 201 (a lower bound: the push may beat the answer); for
polling, the same latencies and the requests per minute the pollers made (and their own
p50/p99 answer time); streams make one request each, when they open.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sys
import tempfile
import threading
import time
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.http import Client  # noqa: E402
from tests.support.live_server import LiveServer  # noqa: E402

POLL_SECONDS = 2.0  # the viewer's old POLL_MS
EVENT_ID = re.compile(rb"\nid: (\d+)\n")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1) if ordered else float("nan")


def stamped(record_time: str) -> float:
    return datetime.fromisoformat(record_time.replace("Z", "+00:00")).timestamp()


class Mover:
    """Stores moves through the API, one every `gap` seconds, from a thread of its own."""

    def __init__(self, base: str, game: dict[str, Any], moves: int, gap: float) -> None:
        self.client, self.game, self.moves, self.gap = Client(base, 60), game, moves, gap
        self.stored: dict[int, float] = {}  # version -> the record's time
        self.answered: dict[int, float] = {}  # version -> when the mover had its 201
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        path = f"/api/v1/games/{self.game['game_id']}"
        for _ in range(self.moves):
            time.sleep(self.gap)
            seat = self.client.get(path).body["active_seats"][0]
            token = self.game["seat_tokens"][str(seat)]
            move = self.client.get(f"{path}/legal-moves", token=token).body["moves"][0]
            answer = self.client.post(f"{path}/moves", move, token=token)
            assert answer.status == 201, answer.body
            now = time.time()
            for record in answer.body["events"]:
                self.stored[record["version"]] = stamped(record["time"])
                self.answered[record["version"]] = now


async def request_head(host: str, port: int, path: str, accept: str) -> tuple[int, asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: {accept}\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    await reader.readuntil(b"\r\n\r\n")
    return status, reader, writer


async def stream_client(host: str, port: int, path: str, arrivals: dict[int, float], opened: asyncio.Event,
                        refused: list[int]) -> None:
    while True:
        status, reader, writer = await request_head(host, port, path, "text/event-stream")
        if status == 200:
            break
        refused.append(status)  # a worker holding its streams (503): come back, as a client does
        writer.close()
        await asyncio.sleep(0.2)
    opened.set()
    # Read in chunks and find the ids by pattern: the clients share the server's cores, and
    # a line-by-line reader would add its own time to every latency.
    buffer = b""
    try:
        while chunk := await reader.read(65536):
            now = time.time()
            buffer += chunk
            end = 0
            for found in EVENT_ID.finditer(buffer):
                arrivals.setdefault(int(found[1]), now)
                end = found.end()
            buffer = buffer[end:] if end else buffer[-64:]
    finally:
        writer.close()


async def poll_client(host: str, port: int, path: str, after: int, done: asyncio.Event, arrivals: dict[int, float],
                      answers: list[float]) -> None:
    await asyncio.sleep(random.uniform(0, POLL_SECONDS))  # pages opened at different times
    while not done.is_set():
        started = time.perf_counter()
        status, reader, writer = await request_head(host, port, f"{path}?after={after}&limit=5000", "application/json")
        body = await reader.read()
        writer.close()
        answers.append(time.perf_counter() - started)
        if status == 200:
            now = time.time()
            for record in json.loads(body)["events"]:
                arrivals.setdefault(record["version"], now)
                after = max(after, record["version"])
        await asyncio.sleep(max(0.0, POLL_SECONDS - (time.perf_counter() - started)))


def latencies(stored: dict[int, float], clients: list[dict[int, float]]) -> tuple[list[float], list[float], int]:
    """Every (client, record) latency; per stored record, the time until every client had it; misses."""
    each, all_had, missed = [], [], 0
    for version, at in stored.items():
        got = [c[version] - at for c in clients if version in c]
        missed += len(clients) - len(got)
        each += got
        if len(got) == len(clients):
            all_had.append(max(got))
    return each, all_had, missed


async def run_streams(server: LiveServer, game: dict[str, Any], count: int, moves: int, gap: float) -> dict[str, Any]:
    host, port, path = "127.0.0.1", server.port, f"/api/v1/games/{game['game_id']}/stream?after={game['version']}"
    arrivals: list[dict[int, float]] = [{} for _ in range(count)]
    refused: list[int] = []
    opened = [asyncio.Event() for _ in range(count)]
    started = time.perf_counter()
    tasks = [asyncio.create_task(stream_client(host, port, path, arrivals[i], opened[i], refused)) for i in range(count)]
    for i in range(count):
        await opened[i].wait()
    open_seconds = time.perf_counter() - started
    mover = Mover(server.base, game, moves, gap)
    mover.thread.start()
    while mover.thread.is_alive():
        await asyncio.sleep(0.1)
    deadline = time.time() + 30
    while time.time() < deadline and any(len(a) < len(mover.stored) for a in arrivals):
        await asyncio.sleep(0.1)
    for task in tasks:
        task.cancel()
    each, all_had, missed = latencies(mover.stored, arrivals)
    after_answer, all_after_answer, _ = latencies(mover.answered, arrivals)
    return {"streams": count, "seconds_to_open_all": round(open_seconds, 1), "refused_then_retried": len(refused),
            "records": len(mover.stored), "received": len(each), "missed": missed,
            "latency_ms_p50": pct(each, 0.5), "latency_ms_p99": pct(each, 0.99),
            "all_streams_ms_p50": pct(all_had, 0.5), "all_streams_ms_p99": pct(all_had, 0.99),
            "after_201_ms_p50": pct(after_answer, 0.5), "after_201_ms_p99": pct(after_answer, 0.99),
            "all_streams_after_201_ms_p50": pct(all_after_answer, 0.5),
            "all_streams_after_201_ms_p99": pct(all_after_answer, 0.99),
            "requests": count + len(refused), "requests_per_minute_once_open": 0}


async def run_polling(server: LiveServer, game: dict[str, Any], count: int, moves: int, gap: float) -> dict[str, Any]:
    host, port, path = "127.0.0.1", server.port, f"/api/v1/games/{game['game_id']}/events"
    arrivals: list[dict[int, float]] = [{} for _ in range(count)]
    answers: list[float] = []
    done = asyncio.Event()
    tasks = [asyncio.create_task(poll_client(host, port, path, game["version"], done, arrivals[i], answers))
             for i in range(count)]
    await asyncio.sleep(POLL_SECONDS)  # every page polling before the first move
    mover = Mover(server.base, game, moves, gap)
    mover.thread.start()
    measured_from, measured_requests = time.time(), len(answers)
    while mover.thread.is_alive():
        await asyncio.sleep(0.1)
    minute_rate = (len(answers) - measured_requests) / ((time.time() - measured_from) / 60)
    deadline = time.time() + 120
    while time.time() < deadline and any(len(a) < len(mover.stored) for a in arrivals):
        await asyncio.sleep(0.1)
    done.set()
    for task in tasks:
        task.cancel()
    each, all_had, missed = latencies(mover.stored, arrivals)
    after_answer, _, _ = latencies(mover.answered, arrivals)
    return {"pages": count, "interval_s": POLL_SECONDS, "records": len(mover.stored), "missed": missed,
            "latency_ms_p50": pct(each, 0.5), "latency_ms_p99": pct(each, 0.99),
            "all_pages_ms_p50": pct(all_had, 0.5), "all_pages_ms_p99": pct(all_had, 0.99),
            "after_201_ms_p50": pct(after_answer, 0.5), "after_201_ms_p99": pct(after_answer, 0.99),
            "requests_per_minute": round(minute_rate, 1), "ideal_requests_per_minute": round(count * 60 / POLL_SECONDS),
            "poll_answer_ms_p50": pct(answers, 0.5), "poll_answer_ms_p99": pct(answers, 0.99)}


def new_game(server: LiveServer) -> dict[str, Any]:
    created = server.client().post("/api/v1/games", {"game": "ticket_to_ride", "players": ["ann", "bob"]})
    assert created.status == 201, created.body
    return created.body


def measure(store: str, args: argparse.Namespace) -> dict[str, Any]:
    per_worker = args.streams // args.workers + 20
    env = {"CABOOSE_STREAMS": str(per_worker), "CABOOSE_THREADS": str(per_worker + 8)}
    schema = None
    if store == "sqlite":
        db = f"sqlite:///{tempfile.mkdtemp(prefix='caboose-stream-')}/bench.sqlite"
    else:
        db, schema = args.postgres, f"caboose_bench_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
    try:
        with LiveServer(db, schema=schema, workers=args.workers, threads=per_worker + 8, env=env) as server:
            streams = asyncio.run(run_streams(server, new_game(server), args.streams, args.moves, args.gap))
            polling = asyncio.run(run_polling(server, new_game(server), args.streams, args.moves, args.gap))
    finally:
        if schema:
            with psycopg.connect(db, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")
    return {"store": store, "workers": args.workers, "threads_per_worker": per_worker + 8, "streams": streams,
            "polling": polling,
            "ratio_latency_p50_stream_to_poll": round(streams["latency_ms_p50"] / polling["latency_ms_p50"], 3),
            "ratio_all_p99_stream_to_poll": round(streams["all_streams_ms_p99"] / polling["all_pages_ms_p99"], 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--gap", type=float, default=0.5, help="seconds between moves")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--stores", default="sqlite,postgres")
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test")
    args = parser.parse_args()
    for store in args.stores.split(","):
        print(json.dumps(measure(store, args)), flush=True)


if __name__ == "__main__":
    main()
