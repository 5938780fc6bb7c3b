"""Store benchmarks: Caboose against the eventsourcing library it stands on, same run.

    python benchmarks/bench_store.py [--postgres postgresql://postgres@127.0.0.1:5432/test]
    python benchmarks/bench_store.py --simulate-only [--games 40]

Prints one JSON object with, per store: moves stored per second through the application
layer, full replay of a stored game into its state (events/s, also against reading the same
stored rows undecoded, by the library's read and by one bare SQL query a game), loading a
2,000-event game against a 50-event game (with snapshots), and the library's own append and
replay rates for the same number of events (a bare aggregate with one trivial event type), so
each figure is also a ratio. Also the simulator's complete Ticket to Ride games per second in
memory and through a SQLite store (each game stored in one transaction when it ends, and each
move in its own), against the same games by the rules alone; every stored game is then read
back, its chain verified and audited (untimed). The simulator's games, every way and the rules
alone alike, are played under the batch setting `caboose simulate` plays its own under (the
cyclic collector run less often, `projections.batch`), so the ratios compare like with like.
Machines here are noisy: read the ratios, and run it twice.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import psycopg
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.sqlite import SQLiteAggregateRecorder
from psycopg.sql import SQL, Identifier

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain import games
from domain.core import fold
from domain.core.envelope import verify_chain
from projections.batch import fewer_collections
from projections.store import read_db_url
from service.application import Caboose
from service.databases import upgrade_databases
from service.settings import Settings, persistence_env
from service.simulation import DEFAULT_LEVEL, game_seed, play_in_memory, play_one
from tests.fakes.race import RACE

games.register(RACE)


class Counter(Aggregate):
    """The library's baseline: one trivial event per step."""

    @event("Created")
    def __init__(self) -> None:
        self.count = 0

    @event("Stepped")
    def step(self, by: int) -> None:
        self.count += by


class Baseline(Application[uuid.UUID]):
    name = "baseline"


def library_rates(env: dict[str, str], events: int, per_save: int) -> dict[str, float]:
    app = Baseline({**env, "CREATE_TABLE": "y"})
    counter = Counter()
    app.save(counter)
    started = time.perf_counter()
    for i in range(1, events):
        counter.step(1)
        if i % per_save == 0:
            app.save(counter)
    app.save(counter)
    append = events / (time.perf_counter() - started)
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        app.repository.get(counter.id)
        best = min(best, time.perf_counter() - started)
    return {"append_events_per_s": append, "replay_events_per_s": events / best}


def ttr_moves(app: Caboose, games_count: int) -> tuple[list[str], float, int]:
    """Play random Ticket to Ride games; time only the application's play calls."""
    chooser, spent, stored, ids = random.Random(1), 0.0, 0, []
    for index in range(games_count):
        game_id = app.create_game("ticket_to_ride", ["a", "b", "c", "d"], seed=game_seed(99, index))
        while True:
            game = app.game(game_id)
            active = sorted(game.decider.active_seats(game.state))
            if not active:
                break
            seat = chooser.choice(active)
            move = chooser.choice(game.decider.legal_moves(game.state, seat))
            started = time.perf_counter()
            app.play(game_id, seat, move)
            spent += time.perf_counter() - started
            stored += 1
        ids.append(game_id)
    return ids, stored / spent, sum(app.game(i).version for i in ids)


def replay_once(app: Caboose, ids: list[str]) -> float:
    """Events per second to read every stored game and fold it from its first event."""
    started, events = time.perf_counter(), 0
    for game_id in ids:
        records = app.records(game_id)
        fold.replay(records)
        events += len(records)
    return events / (time.perf_counter() - started)


def replay_copying(app: Caboose, ids: list[str]) -> float:
    """The same replay through the copying fold (`fold.History`, a new state per event): the
    baseline of the transient fold `fold.replay` uses."""
    started, events = time.perf_counter(), 0
    for game_id in ids:
        records = app.records(game_id)
        history = fold.History(records[0])
        for record in records[1:]:
            history.add(record)
        events += len(records)
    return events / (time.perf_counter() - started)


def raw_read(app: Caboose, ids: list[str]) -> float:
    """Events per second to read the same games' stored rows, undecoded: the floor."""
    started, events = time.perf_counter(), 0
    for game_id in ids:
        events += len(app.recorder.select_events(uuid.UUID(game_id)))
    return events / (time.perf_counter() - started)


def bare_rows(app: Caboose, ids: list[str]) -> float:
    """Events per second to fetch the same games' rows with one plain SQL query each (version,
    topic, stored JSON), building nothing from them: the floor below the library's read."""
    recorder, started, events = app.recorder, time.perf_counter(), 0
    table = recorder.events_table_name
    with recorder.datastore.transaction(commit=False) as cursor:
        for game_id in ids:
            if isinstance(recorder, SQLiteAggregateRecorder):
                cursor.execute(f"SELECT originator_version, topic, state FROM {table} WHERE originator_id=? "
                               "ORDER BY originator_version", (uuid.UUID(game_id).hex,))
            else:
                cursor.execute(SQL("SELECT originator_version, topic, state FROM {}.{} WHERE originator_id=%s "
                                   "ORDER BY originator_version").format(Identifier(recorder.datastore.schema), Identifier(table)),
                               (uuid.UUID(game_id),))
            events += len(cursor.fetchall())
    return events / (time.perf_counter() - started)


def race_game(app: Caboose, moves: int) -> str:
    game_id = app.create_game("race", ["a", "b"], {"goal": 10**9}, seed=game_seed(7, moves))
    for _ in range(moves):
        game = app.game(game_id)
        app.play(game_id, min(game.decider.active_seats(game.state)), {"type": "advance", "by": 1})
    return game_id


def load_times(db: str, env: dict[str, str], game_ids: list[str], repeats: int = 20) -> list[float]:
    """Seconds to load each game's current state in a fresh application (no cache), the
    best of `repeats`; the games take turns, so they share what the machine does."""
    best = [float("inf")] * len(game_ids)
    for _ in range(repeats):
        for index, game_id in enumerate(game_ids):
            app = Caboose(Settings(db=db), env={**env, "AGGREGATE_CACHE_MAXSIZE": "0"})
            started = time.perf_counter()
            app.game(game_id)
            best[index] = min(best[index], time.perf_counter() - started)
            app.close()
    return best


def bench_store(label: str, db: str, env: dict[str, str]) -> dict[str, Any]:
    app = Caboose(Settings(db=db), env=env)
    ids, moves_per_s, events = ttr_moves(app, 3)
    events_per_move = events / sum(len([r for r in app.records(i) if r["actor"].startswith("seat:")]) for i in ids)
    # Round by round, each figure beside its baselines, so all share what the machine does.
    rounds = [(replay_once(app, ids), raw_read(app, ids), bare_rows(app, ids), replay_copying(app, ids)) for _ in range(7)]
    replay_rate, raw_rate, bare_rate, copying_rate = (max(r[i] for r in rounds) for i in range(4))
    short, long_ = race_game(app, 48), race_game(app, 1998)
    short_s, long_s = load_times(db, env, [short, long_])
    baseline = library_rates({**persistence_env(db), **env}, sum(len(app.records(i)) for i in ids), max(1, round(events_per_move)))
    return {
        "store": label,
        "moves_stored_per_s": round(moves_per_s, 1),
        "events_per_move": round(events_per_move, 2),
        "library_append_events_per_s": round(baseline["append_events_per_s"], 1),
        "caboose_events_stored_per_s": round(moves_per_s * events_per_move, 1),
        "append_ratio_to_library": round(moves_per_s * events_per_move / baseline["append_events_per_s"], 3),
        "replay_events_per_s": round(replay_rate, 1),
        "copying_replay_events_per_s": round(copying_rate, 1),
        "replay_ratio_to_copying_fold": round(replay_rate / copying_rate, 3),
        "library_replay_events_per_s": round(baseline["replay_events_per_s"], 1),
        "replay_ratio_to_library": round(replay_rate / baseline["replay_events_per_s"], 3),
        "raw_read_events_per_s": round(raw_rate, 1),
        "replay_ratio_to_raw_read": round(replay_rate / raw_rate, 3),
        "bare_rows_events_per_s": round(bare_rate, 1),
        "replay_ratio_to_bare_rows": round(replay_rate / bare_rate, 3),
        "load_50_events_ms": round(short_s * 1000, 2),
        "load_2000_events_ms": round(long_s * 1000, 2),
        "load_ratio_2000_to_50": round(long_s / short_s, 2),
    }


def bench_simulate(games_count: int, sqlite: str) -> dict[str, Any]:
    """Complete random Ticket to Ride games (2–5 seats, the `playout` bots, no per-event
    checks) through the application, against the same games played by the rules alone.
    Each game is played by the application's aggregate and stored when it ends, in one
    transaction (`play_one`); `sqlite_per_move` stores every move in its own transaction
    through `Caboose.play`, the path a client's move takes. The ways take turns game by game,
    so they share what else the machine does, and all of them, the rules alone too, run under
    `caboose simulate`'s batch setting (`fewer_collections`), as that command plays its games.
    Untimed, afterwards: every stored game is read back, its chain verified and the game
    audited."""
    ways = {"memory": ("memory", False), "sqlite": (sqlite, False), "sqlite_per_move": (sqlite + ".per-move", True)}
    apps = {label: Caboose(Settings(db=db)) for label, (db, _) in ways.items()}
    choosers = {label: random.Random(3) for label in [*ways, "rules_alone_no_store"]}
    decider = games.current("ticket_to_ride")
    wall: dict[str, float] = dict.fromkeys(choosers, 0.0)
    cpu: dict[str, float] = dict.fromkeys(choosers, 0.0)
    ids: dict[str, list[str]] = {label: [] for label in ways}
    play_one(Caboose(Settings(db="memory")), "ticket_to_ride", 2, game_seed(3, -1), random.Random(0), check=False)  # warm up
    with fewer_collections():
        for index in range(games_count):
            seats = 2 + index % 4
            for label in choosers:
                started, started_cpu = time.perf_counter(), time.process_time()
                if label in ways:
                    ids[label].append(play_one(apps[label], "ticket_to_ride", seats, game_seed(3, index),
                                               choosers[label], check=False, per_move=ways[label][1]).game_id)
                else:  # the same game by the rules alone, the same bots choosing from the same stream
                    play_in_memory(decider, [DEFAULT_LEVEL] * seats, game_seed(3, index), choosers[label])
                wall[label] += time.perf_counter() - started
                cpu[label] += time.process_time() - started_cpu
    out: dict[str, Any] = {label: round(games_count / spent, 2) for label, spent in wall.items()}
    rules = out["rules_alone_no_store"]
    out.update({f"{label}_ratio_to_rules_alone": round(out[label] / rules, 3) for label in ways})
    out["cpu_time_games_per_s"] = {label: round(games_count / spent, 2) for label, spent in cpu.items()}
    stored = {label: dict(zip(("events", "games_chain_verified", "games_audit_ok"), verified(apps[label], ids[label]), strict=True))
              for label in ("sqlite", "sqlite_per_move")}
    return {"simulate_games_per_s": out, "games": games_count, "stored_games_checked": stored}


def verified(app: Caboose, ids: list[str]) -> tuple[int, int, int]:
    """(events stored, games whose chain verifies, games that audit OK)."""
    events = chained = audited = 0
    for game_id in ids:
        records = app.records(game_id)
        events += len(records)
        chained += verify_chain(records, game_id) == len(records) == app.game(game_id).version
        audited += app.audit(game_id).ok
    return events, chained, audited


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--games", type=int, default=40, help="games for the simulate figure")
    parser.add_argument("--no-simulate", action="store_true", help="Leave out the simulator's figures (a short run).")
    parser.add_argument("--simulate-only", action="store_true",
                        help="Only the simulator's figures (no store figures, no PostgreSQL needed).")
    args = parser.parse_args()
    results: dict[str, Any] = {"load_average": os.getloadavg()}
    if args.simulate_only:
        with tempfile.TemporaryDirectory() as tmp:
            results.update(bench_simulate(args.games, f"sqlite:///{tmp}/simulate.sqlite"))
        print(json.dumps(results, indent=2))
        return
    results["stores"] = []
    with tempfile.TemporaryDirectory() as tmp:
        results["stores"].append(bench_store("sqlite", f"sqlite:///{tmp}/bench.sqlite", {}))
    schema = f"caboose_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(args.postgres, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    upgrade_databases(Settings(db=args.postgres, schema=schema), read_db_url(args.postgres, schema))
    try:
        results["stores"].append(bench_store("postgresql", args.postgres, {"POSTGRES_SCHEMA": schema}))
    finally:
        with psycopg.connect(args.postgres, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
    if not args.no_simulate:
        with tempfile.TemporaryDirectory() as tmp:
            results.update(bench_simulate(args.games, f"sqlite:///{tmp}/simulate.sqlite"))
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
