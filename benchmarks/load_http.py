"""HTTP load on loopback: gunicorn with several workers, several client processes, many
games at once, on SQLite and PostgreSQL; against the same number of moves stored straight
through the application layer in the same run.

    python benchmarks/load_http.py [--workers 4] [--clients 4] [--games 16] [--moves 1500]

Prints JSON per store: moves accepted per second over HTTP, p50/p99 latency of accepted
moves, every status seen (only 201 and the expected 409/412 conflicts are acceptable), the
application layer's own rate for the same number of moves, and the ratio.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.application import Caboose  # noqa: E402
from service.settings import Settings  # noqa: E402
from service.simulation import game_seed  # noqa: E402
from tests.support.http import Client, Session  # noqa: E402
from tests.support.live_server import LiveServer  # noqa: E402


def call(base: str | Client, method: str, path: str, token: str | None = None, body: Any = None,
         headers: dict[str, str] | None = None) -> tuple[int, Any]:
    http = base if isinstance(base, Client) else Client(base, timeout=60)
    reply = http.request(method, path, body, headers=headers, token=token)
    return reply.status, reply.body


def client(base_url: str, games: list[dict[str, Any]], moves: int, seed: int, out: Any, keep_alive: bool = True) -> None:
    """Play the given games round-robin until `moves` moves were accepted; report latencies."""
    chooser, latencies, statuses = random.Random(seed), [], Counter()
    base: Client = Session(base_url, timeout=60) if keep_alive else Client(base_url, timeout=60)
    while len(latencies) < moves and games:
        for game in list(games):
            base_path = f"/api/v1/games/{game['game_id']}"
            status, summary = call(base, "GET", base_path, game["referee_token"])
            if summary.get("status") != "active":
                games.remove(game)
                continue
            seat = chooser.choice(summary["active_seats"])
            token = game["seat_tokens"][str(seat)]
            _, listed = call(base, "GET", f"{base_path}/legal-moves", token)
            if not listed.get("moves"):
                continue
            started = time.perf_counter()
            status, _ = call(base, "POST", f"{base_path}/moves", token, chooser.choice(listed["moves"]),
                             {"If-Match": f'"{listed["version"]}"', "Idempotency-Key": str(uuid.uuid4())})
            statuses[status] += 1
            if status == 201:
                latencies.append(time.perf_counter() - started)
    out.put((latencies, dict(statuses)))


def over_http(db: str, env_extra: dict[str, str], args: argparse.Namespace) -> dict[str, Any]:
    server = LiveServer(db, env_extra.get("CABOOSE_DB_SCHEMA"), workers=args.workers).start()
    base = server.base
    try:
        games = [call(base, "POST", "/api/v1/games", body={"game": "ticket_to_ride", "players": ["a", "b", "c"],
                                                            "seed": game_seed(11, i).hex()})[1] for i in range(args.games)]
        per_client = args.moves // args.clients
        queue: Any = multiprocessing.Queue()
        workers = [multiprocessing.Process(target=client, args=(base, games[i::args.clients], per_client, i, queue,
                                                                not args.new_connections))
                   for i in range(args.clients)]
        started = time.perf_counter()
        for w in workers:
            w.start()
        results = [queue.get() for _ in workers]
        elapsed = time.perf_counter() - started
        for w in workers:
            w.join()
    finally:
        server.stop()
    latencies = sorted(x for r in results for x in r[0])
    statuses: Counter[int] = Counter()
    for _, counts in results:
        statuses.update({int(k): v for k, v in counts.items()})
    unexpected = {k: v for k, v in statuses.items() if k not in (201, 409, 412)}
    return {"accepted": len(latencies), "moves_per_s": round(len(latencies) / elapsed, 1),
            "p50_ms": round(statistics.median(latencies) * 1000, 2),
            "p99_ms": round(latencies[int(len(latencies) * 0.99) - 1] * 1000, 2),
            "statuses": dict(statuses), "unexpected_errors": unexpected}


def through_application(db: str, env_extra: dict[str, str], moves: int) -> float:
    """The clients' work per move (summary, legal moves, play), in one process, no HTTP."""
    app = Caboose(Settings(db=db, schema=env_extra.get("CABOOSE_DB_SCHEMA")))
    chooser, stored, index = random.Random(5), 0, 0
    started = time.perf_counter()
    while stored < moves:
        game_id = app.create_game("ticket_to_ride", ["a", "b", "c"], seed=game_seed(12, index))
        index += 1
        while stored < moves:
            summary = app.summary(game_id)
            if summary["status"] != "active":
                break
            seat = chooser.choice(summary["active_seats"])
            move = chooser.choice(app.legal_moves(game_id, seat))
            app.play(game_id, seat, move, expected_version=summary["version"])
            stored += 1
    return stored / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--moves", type=int, default=1500)
    parser.add_argument("--new-connections", action="store_true",
                        help="a new TCP connection per request (default: each client keeps its connection, as client libraries do)")
    args = parser.parse_args()
    report = []
    with tempfile.TemporaryDirectory() as tmp:
        stores = [("sqlite", f"sqlite:///{tmp}/load.sqlite", {})]
        schema = f"caboose_load_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(args.postgres, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        stores.append(("postgresql", args.postgres, {"CABOOSE_DB_SCHEMA": schema}))
        try:
            for label, db, env in stores:
                http = over_http(db, env, args)
                direct = through_application(db, env, http["accepted"])
                report.append({"store": label, "http": http, "application_moves_per_s": round(direct, 1),
                               "http_to_application_ratio": round(http["moves_per_s"] / direct, 3)})
        finally:
            with psycopg.connect(args.postgres, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")
    print(json.dumps({"workers": args.workers, "clients": args.clients, "games": args.games,
                      "connections": "new per request" if args.new_connections else "kept alive", "stores": report}, indent=2))


if __name__ == "__main__":
    main()
