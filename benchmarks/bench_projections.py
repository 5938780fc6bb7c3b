"""Projection benchmarks (issue #4, "Speed"), each figure with its baseline from the same run.

    python benchmarks/bench_projections.py [--games 1000] [--store DIR] [--postgres URL]

- Rebuild every read model from zero for N stored random Ticket to Ride games: events per
  second, against the raw read rate of the same notification log (rows fetched, and rows
  fetched and decoded into library events) in the same run. Target: 20,000 events/s on
  SQLite.
- A historical query (`at=N`) of a 2,000-event game (a long game the referee rewound many
  times) for many N: board, scores, income and timeline, straight from the read models
  and through the HTTP stack (Flask test client). Target: under 50 ms for any N.
- Bulk export of the N games as JSON Lines: games per second, against reading their
  records alone. Target: 200 games/s.

Generating the games (random playouts in memory, then stored without re-auditing) is
not timed; `--store DIR` keeps the generated store for the next run. Machines here are
noisy: read the ratios, and run it twice.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.core import fold
from domain.core.envelope import group_by_command
from projections.runner import PollingRunner, projection_for, rebuild
from projections.store import ReadStore, read_db_url, use_read_store
from service import referee as desk
from service.aggregate import Game
from service.application import Caboose
from service.bulk import export_lines
from service.databases import upgrade_databases
from service.settings import Settings
from service.simulation import game_seed, play_one


def generate(app: Caboose, games: int) -> list[str]:
    """Random games played in memory, then stored as they are (they were adjudicated as
    they were played; re-auditing each on the way in would only slow the set-up)."""
    memory = Caboose(Settings(db="memory"))
    chooser = random.Random(2024)
    ids, batch = [], []
    for index in range(games):
        game_id = play_one(memory, "ticket_to_ride", chooser.randint(2, 5), game_seed(2024, index), chooser, check=False).game_id
        records = memory.records(game_id)
        aggregate = Game(record=records[0], seed=None)
        aggregate.restore_all(records[1:], fold.History(records[0]))
        batch.append(aggregate)
        ids.append(game_id)
        if len(batch) == 10 or index == games - 1:
            app.save(*batch)
            batch = []
        if index % 100 == 99:
            print(f"  generated {index + 1} games", file=sys.stderr)
    return ids


def game_ids(app: Caboose) -> list[str]:
    seen: dict[str, None] = {}
    position = 0
    while notifications := app.recorder.select_notifications(start=position, limit=5000, inclusive_of_start=False):
        for n in notifications:
            seen.setdefault(str(n.originator_id), None)
        position = notifications[-1].id
    return list(seen)


def raw_read(app: Caboose, decode: bool, batch: int = 2000) -> tuple[int, float, float]:
    """(rows, rows per second of wall-clock time, rows per second of this process's CPU time)."""
    started, started_cpu, count, position = time.perf_counter(), time.process_time(), 0, 0
    while notifications := app.recorder.select_notifications(start=position, limit=batch, inclusive_of_start=False):
        if decode:
            for n in notifications:
                app.mapper.to_domain_event(n)
        count += len(notifications)
        position = notifications[-1].id
    return count, count / (time.perf_counter() - started), count / (time.process_time() - started_cpu)


def bench_rebuild(app: Caboose, read_url: str) -> dict[str, Any]:
    """The rebuild against reading the same log, by the wall clock and by this process's CPU
    time: the machine is shared, and a rebuild runs for minutes while the read takes seconds,
    so the wall-clock ratio depends on what else ran meanwhile; on SQLite (the store and the
    read models in this process) the CPU-time ratio does not."""
    reads = [raw_read(app, False) for _ in range(3)]
    rows, raw_rate, raw_cpu = reads[0][0], max(r[1] for r in reads), max(r[2] for r in reads)
    decoded = [raw_read(app, True) for _ in range(2)]
    decoded_rate = max(r[1] for r in decoded)
    store = ReadStore(read_url)
    started, started_cpu = time.perf_counter(), time.process_time()
    count = rebuild(app, store)
    rate, cpu_rate = count / (time.perf_counter() - started), count / (time.process_time() - started_cpu)
    use_read_store(app, store)
    return {"events": rows, "rebuild_events_per_s": round(rate), "raw_read_events_per_s": round(raw_rate),
            "raw_read_and_decode_events_per_s": round(decoded_rate),
            "rebuild_ratio_to_raw_read": round(rate / raw_rate, 3), "rebuild_ratio_to_read_and_decode": round(rate / decoded_rate, 3),
            "cpu_time": {"rebuild_events_per_s": round(cpu_rate), "raw_read_events_per_s": round(raw_cpu),
                         "rebuild_ratio_to_raw_read": round(cpu_rate / raw_cpu, 3)},
            "target_events_per_s": 20000}


def long_game(app: Caboose, events: int = 2000) -> str:
    """A game a referee rewound again and again until it had `events` events."""
    game_id = app.create_game("ticket_to_ride", ["a", "b", "c", "d"], seed=game_seed(77, 0))
    chooser = random.Random(77)
    while app.game(game_id).version < events:
        for _ in range(30):
            game = app.game(game_id)
            if game.is_over or game.version >= events:
                break
            seat = chooser.choice(sorted(game.decider.active_seats(game.state)))
            app.play(game_id, seat, chooser.choice(game.decider.legal_moves(game.state, seat)))
        if app.game(game_id).is_over or app.game(game_id).version >= events:
            break
        quiet = [g[-1]["version"] for g in group_by_command(app.records(game_id))]
        # Back further than the 30 moves played: the game lengthens without ending.
        desk.rewind(app, game_id, "bench", quiet[max(1, len(quiet) - 26)], "benchmark: a long, much disputed game")
    return game_id


def bench_history(app: Caboose, read_url: str) -> dict[str, Any]:
    from service.api import create_app

    game_id = long_game(app)
    store = ReadStore(read_url)
    use_read_store(app, store)
    PollingRunner(app, projection_for(app, store)).catch_up()
    version = app.game(game_id).version
    chooser = random.Random(5)
    versions = [chooser.randint(1, version) for _ in range(200)]
    timings: dict[str, list[float]] = {}
    for what in ("board", "scores", "income", "timeline"):
        for at in versions:
            started = time.perf_counter()
            getattr(store, what)(game_id, at)
            timings.setdefault(what, []).append(time.perf_counter() - started)
    client = create_app(app).test_client()
    for at in versions[:100]:
        started = time.perf_counter()
        assert client.get(f"/api/v1/games/{game_id}/scores?at={at}").status_code == 200
        timings.setdefault("http_scores", []).append(time.perf_counter() - started)
    started = time.perf_counter()
    for at in versions[:20]:
        app.game(game_id, at=at)
    fold_ms = (time.perf_counter() - started) / 20 * 1000
    out: dict[str, Any] = {"game_events": version, "queries_per_kind": len(versions), "target_ms": 50,
                           "baseline_state_at_n_from_events_ms": round(fold_ms, 2)}
    for what, values in timings.items():
        out[f"{what}_ms"] = {"median": round(statistics.median(values) * 1000, 2), "max": round(max(values) * 1000, 2)}
    store.close()
    return out


def bench_export(app: Caboose, ids: list[str]) -> dict[str, Any]:
    started = time.perf_counter()
    for game_id in ids:
        app.records(game_id)
    read_rate = len(ids) / (time.perf_counter() - started)
    started, size = time.perf_counter(), 0
    for chunk in export_lines(app, ids):
        size += len(chunk)
    rate = len(ids) / (time.perf_counter() - started)
    return {"games": len(ids), "export_games_per_s": round(rate, 1), "read_records_games_per_s": round(read_rate, 1),
            "export_ratio_to_read": round(rate / read_rate, 3), "megabytes": round(size / 1e6, 1), "target_games_per_s": 200}


def run(label: str, db: str, env: dict[str, str], read_url: str, games: int, rebuild_only: bool = False) -> dict[str, Any]:
    app = Caboose(Settings(db=db, snapshot_interval=100), env=env)
    ids = game_ids(app)
    if len(ids) < games:
        started = time.perf_counter()
        ids += generate(app, games - len(ids))
        print(f"  {label}: generated in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    ids = ids[:games]
    if rebuild_only:
        return {"store": label, "rebuild": bench_rebuild(app, read_url)}
    return {"store": label, "rebuild": bench_rebuild(app, read_url), "export": bench_export(app, ids),
            "historical_query": bench_history(app, read_url)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--store", default=None, help="Directory for the SQLite event store (kept between runs).")
    parser.add_argument("--postgres", default=None, help="Also run against this PostgreSQL (a fresh schema).")
    parser.add_argument("--rebuild-only", action="store_true", help="Only the rebuild figures (no export, no historical queries).")
    args = parser.parse_args()
    folder = Path(args.store or tempfile.mkdtemp(prefix="caboose-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    read_url = f"sqlite:///{folder}/read-{uuid.uuid4().hex[:8]}.sqlite"
    results = [run("sqlite", f"sqlite:///{folder}/events.sqlite", {}, read_url, args.games, args.rebuild_only)]
    if args.postgres:
        schema = f"caboose_bench_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(args.postgres, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        upgrade_databases(Settings(db=args.postgres, schema=schema), read_db_url(args.postgres, schema))
        try:
            pg_read = f"{args.postgres}?schema={schema}"
            results.append(run("postgres", args.postgres, {"POSTGRES_SCHEMA": schema}, pg_read, args.games, args.rebuild_only))
        finally:
            with psycopg.connect(args.postgres, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")
    for leftover in folder.glob("read-*.sqlite*"):
        leftover.unlink()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
