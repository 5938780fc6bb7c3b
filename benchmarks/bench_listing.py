"""The game listing's latency with 100 and with 10,000 stored games, on SQLite and PostgreSQL.

    python benchmarks/bench_listing.py [--small 100] [--large 10000] [--requests 300]
                                       [--postgres postgresql://postgres@127.0.0.1:5432/test]

For each database, two stores of real Ticket to Ride games (`--postgres ''` skips PostgreSQL):
- the small one: `--small` games created through the lobby (tokens and all) and a fifth of
  them played a few random moves through the application, so stages and turns vary;
- the large one: the same, plus games made in bulk up to `--large` (each a real game with its
  recorded opening, created by the application and saved 250 to a transaction).
The game index is then written by the projection (`caboose projections rebuild`'s code) from
the stored events. A real HTTP server (werkzeug, threaded, in this process) answers
`GET /api/v1/games` (the first page, 50 games), the same with a filter (`status=running&
player=…`) and a page deep in the listing (by its cursor); each is timed `--requests` times
from a client in the same process after a warm-up. The ratio large : small of the same
figure is the target (≤ 2, and p95 < 50 ms at 10,000); the small store is the baseline,
measured in the same run.

Prints JSON. Machines here are noisy (2 cores shared with other work): read the ratios.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg
from werkzeug.serving import make_server

from projections.runner import rebuild
from projections.store import read_db_url, read_store_for
from service.api import create_app
from service.application import Caboose
from service.databases import upgrade_databases
from service.lobby import Lobby
from service.settings import RateLimits, Settings
from service.simulation import game_seed

GAME = "ticket_to_ride"
NAMES = ["Ann", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]


def fill(app: Caboose, games: int, played: int, seed: int) -> None:
    """`played` games through the lobby (a fifth with a few moves), the rest in bulk."""
    lobby, chooser = Lobby(app), random.Random(seed)
    for index in range(played):
        seats = chooser.sample(NAMES, chooser.randint(2, 5))
        game_id, _ = lobby.open_game(GAME, list(seats), seed=game_seed(seed, index))
        if index % 5 == 0:
            for _ in range(chooser.randint(1, 6)):
                seat = app.summary(game_id)["active_seats"][0]
                app.play(game_id, seat, chooser.choice(app.legal_moves(game_id, seat)))
    made = played
    while made < games:
        batch = [app.new_game(GAME, chooser.sample(NAMES, chooser.randint(2, 5)), seed=game_seed(seed, made + i))
                 for i in range(min(250, games - made))]
        app.save(*batch)
        made += len(batch)
        print(f"  {made} games stored", file=sys.stderr, end="\r")


class CpuTimed:
    """The app, with the CPU time of each request's own thread recorded: its cost without
    the time it waited for a core (the machine is shared), or for PostgreSQL's process."""

    def __init__(self, app: Any) -> None:
        self.app, self.cpu_ms = app, []

    def __call__(self, environ: Any, start_response: Any) -> Any:
        start = time.thread_time()
        try:
            return list(self.app(environ, start_response))
        finally:
            self.cpu_ms.append((time.thread_time() - start) * 1000)


@contextmanager
def served(app: Caboose) -> Iterator[tuple[str, CpuTimed]]:
    timed = CpuTimed(create_app(app))
    server = make_server("127.0.0.1", 0, timed, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", timed
    finally:
        server.shutdown()


def get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=30) as response:
        assert response.status == 200
        return json.loads(response.read())


def urls(base: str, games: int) -> dict[str, str]:
    """The first page, a filtered first page, and a page deep in the listing (by its cursor)."""
    first = get(f"{base}/api/v1/games?limit=50")
    assert len(first["games"]) == min(50, games), "not every game is listed"
    deep, page = first, 0
    while deep["next"] and page < 20:  # a page 1,000 games in (or the last)
        deep, page = get(base + deep["next"]), page + 1
    return {"first_page": f"{base}/api/v1/games?limit=50",
            "filtered": f"{base}/api/v1/games?limit=50&status=running&player=ann",
            "deep_page": base + deep["prev"] if deep["prev"] else f"{base}/api/v1/games?limit=50"}


def percentiles(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {"p50": round(statistics.median(values), 2), "p95": round(values[int(len(values) * 0.95) - 1], 2)}


def interleaved(targets: dict[str, tuple[dict[str, str], CpuTimed]], requests: int) -> dict[str, Any]:
    """Each figure timed on every store in turn, request by request, so the stores share
    whatever else the machine is doing at each moment."""
    out: dict[str, Any] = {label: {} for label in targets}
    for figure in ("first_page", "filtered", "deep_page"):
        wall: dict[str, list[float]] = {label: [] for label in targets}
        cpu: dict[str, list[float]] = {label: [] for label in targets}
        for round_ in range(requests + 10):
            for label, (addresses, timed) in targets.items():
                start = time.perf_counter()
                get(addresses[figure])
                elapsed = (time.perf_counter() - start) * 1000
                if round_ >= 10:  # the first rounds warm up connections and caches
                    wall[label].append(elapsed)
                    cpu[label].append(timed.cpu_ms[-1])
        for label in targets:
            out[label][figure] = {"wall_ms": percentiles(wall[label]), "server_cpu_ms": percentiles(cpu[label])}
    return out


def run(kind: str, db: str, postgres: bool, small: int, large: int, requests: int,
        large_schema: str | None = None, keep_large: bool = False) -> dict[str, Any]:
    """`db`: a SQLite file's URL (each store a file beside it) or a PostgreSQL URL (a fresh
    schema for each store, dropped afterwards). `large_schema`: a PostgreSQL schema a
    previous run or a script filled and projected (`--large-schema`), used as the large store as it is."""
    out: dict[str, Any] = {"database": kind}
    apps, schemas, targets = [], [], {}
    try:
        with ExitStack() as servers:
            for label, games in (("small", small), ("large", large)):
                kept = large_schema if label == "large" and postgres else None
                schema = kept or (fresh(db) if postgres else None)
                if schema and not kept and not (keep_large and label == "large"):
                    schemas.append(schema)
                elif schema and label == "large":
                    print(f"{kind} large: schema {schema} is kept (--large-schema {schema})", file=sys.stderr)
                where = db if postgres else db.replace(".sqlite", f"-{label}.sqlite")
                app = Caboose(Settings(db=where, schema=schema, rate_limits=RateLimits.every("10000000/minute")))
                apps.append(app)
                stored = projected = 0.0
                if not kept:
                    start = time.perf_counter()
                    fill(app, games, min(games, small), seed=7)
                    stored = time.perf_counter() - start
                    start = time.perf_counter()
                    rebuild(app, read_store_for(app))
                    projected = time.perf_counter() - start
                print(f"{kind} {label}: {games} games stored in {stored:.0f} s, projected in {projected:.0f} s", file=sys.stderr)
                out[label] = {"games": len(app.game_ids()), "stored_s": round(stored, 1), "projected_s": round(projected, 1)}
                base, timed = servers.enter_context(served(app))
                targets[label] = (urls(base, games), timed)
            measured = interleaved(targets, requests)
    finally:
        for app in apps:
            app.close()
        for schema in schemas:
            with psycopg.connect(db, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")
    for label in targets:
        out[label].update(measured[label])
    out["ratio_large_to_small"] = {
        f"{figure}.{kind_}.{stat}": round(out["large"][figure][kind_][stat] / out["small"][figure][kind_][stat], 2)
        for figure in ("first_page", "filtered", "deep_page") for kind_ in ("wall_ms", "server_cpu_ms") for stat in ("p50", "p95")}
    return out


def fresh(url: str) -> str:
    schema = f"caboose_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    upgrade_databases(Settings(db=url, schema=schema), read_db_url(url, schema))
    return schema


def main() -> None:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--large", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test",
                        help="Also run against this PostgreSQL (fresh schemas); '' to skip.")
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only.")
    parser.add_argument("--large-schema", default=None,
                        help="On PostgreSQL, use this schema (filled and projected by an earlier run or by hand) as the large "
                             "store instead of filling a fresh one; it is left as it is.")
    parser.add_argument("--keep-large", action="store_true",
                        help="On PostgreSQL, keep the large store's schema for later runs' --large-schema (its name is printed).")
    args = parser.parse_args()
    results = []
    if not args.no_sqlite:
        with tempfile.TemporaryDirectory() as folder:
            results.append(run("sqlite", f"sqlite:///{folder}/listing.sqlite", False, args.small, args.large, args.requests))
    if args.postgres:
        results.append(run("postgresql", args.postgres, True, args.small, args.large, args.requests, args.large_schema, args.keep_large))
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
