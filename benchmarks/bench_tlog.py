"""Transparency log benchmarks, each beside its baseline in the same run.

    python benchmarks/bench_tlog.py [--moves 600] [--leaves 1000000] [--proofs 2000] [--postgres URL]

1. Storing moves with the log against without it: Ticket to Ride moves through the
   application (`Caboose.play`, a commit each, as a client's move), in rounds that alternate
   between the log's sequencer running beside them in a thread (sequencing and signing a
   checkpoint every second, as `caboose serve` does) and not running; moves/s of each and
   their ratio (target: with ≥ 0.8 × without).
2. An inclusion proof in a tree of `--leaves` leaves (made directly in the log's tables:
   leaves and every complete subtree, as the sequencer writes them), against the baseline
   of reading one leaf's row by its event; p50 / p95 of each over `--proofs` random events
   (target: p95 < 20 ms).

On the SQLite store (a temporary file), and on PostgreSQL with `--postgres` (a fresh schema,
dropped after). Prints one JSON object. Machines here are noisy: read the ratios.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import psycopg
from sqlalchemy import select

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.core import merkle
from projections.store import read_db_url
from service.bootstrap import bootstrap
from service.databases import upgrade_databases
from service.settings import Settings
from service.tlog.log import LOG_INTERVAL
from service.tlog.tables import HEAD, LEAVES, NODES


def moves_per_second(services: Any, moves: int, seed: int) -> float:
    """Random legal Ticket to Ride moves through `Caboose.play`, new games as they end."""
    app, rng = services.caboose, random.Random(seed)
    done, started = 0, time.perf_counter()
    while done < moves:
        game_id = app.create_game("ticket_to_ride", ["Ann", "Ben"], seed=rng.randbytes(32))
        while done < moves:
            game = app.game(game_id)
            if game.is_over:
                break
            seat = min(game.decider.active_seats(game.state))
            app.play(game_id, seat, rng.choice(game.decider.legal_moves(game.state, seat)))
            done += 1
    return done / (time.perf_counter() - started)


def storing(services: Any, moves: int, rounds: int) -> dict[str, Any]:
    without, with_log = [], []
    for round_ in range(rounds):
        without.append(moves_per_second(services, moves, 2 * round_))
        stop = threading.Event()
        follower = threading.Thread(target=services.log.follow, args=(services.caboose, LOG_INTERVAL, stop), daemon=True)
        follower.start()
        with_log.append(moves_per_second(services, moves, 2 * round_ + 1))
        stop.set()
        follower.join()
    services.log.round(services.caboose)
    a, b = statistics.median(with_log), statistics.median(without)
    return {"moves_per_round": moves, "rounds": rounds, "with_log_moves_per_s": round(a, 1),
            "without_log_moves_per_s": round(b, 1), "ratio": round(a / b, 3), "target": ">= 0.8"}


def grow(services: Any, leaves: int) -> list[tuple[str, int]]:
    """A tree of `leaves` made straight in the log's tables (one synthetic game per 1000
    events); returns the (game, version) of each leaf."""
    log, rng = services.log, random.Random(1)
    events = [(str(uuid.UUID(int=rng.getrandbits(128))), v) for _ in range(leaves // 1000) for v in range(1, 1001)]
    with log.engine.begin() as connection:
        size = int(connection.scalar(select(HEAD.c.size)) or 0)
        nodes = {(lv, ix): bytes(h) for lv, ix, h in connection.execute(select(NODES.c.level, NODES.c.idx, NODES.c.hash))
                 if (lv, ix) in set(merkle.frontier_nodes(size))}  # the tree the storing benchmark left
        for start in range(0, len(events), 20_000):
            chunk = events[start:start + 20_000]
            hashes = [rng.randbytes(32) for _ in chunk]
            made = merkle.appended(size, nodes.__getitem__, [merkle.leaf_hash(h) for h in hashes])
            rows = [{"leaf_index": size + i, "notification_id": -(size + i) - 1, "game_id": g, "version": v, "event_hash": h}
                    for i, ((g, v), h) in enumerate(zip(chunk, hashes, strict=True))]
            connection.execute(LEAVES.insert(), rows)
            connection.execute(NODES.insert(), [{"level": lv, "idx": ix, "hash": h} for (lv, ix), h in made])
            known = {**nodes, **dict(made)}
            nodes = {n: known[n] for n in merkle.frontier_nodes(size + len(chunk))}  # all a later parent can need
            size += len(chunk)
        connection.execute(HEAD.update().values(size=size))
    log.checkpoint()
    return events


def proofs(services: Any, events: list[tuple[str, int]], count: int) -> dict[str, Any]:
    log, rng = services.log, random.Random(2)
    chosen = rng.choices(events, k=count)
    proof_ms, read_ms = [], []
    for game_id, version in chosen:  # interleaved, so the machine's load falls on both alike
        started = time.perf_counter()
        with log.engine.connect() as connection:
            connection.execute(select(LEAVES.c.leaf_index, LEAVES.c.event_hash).where(
                LEAVES.c.game_id == game_id, LEAVES.c.version == version)).one()
        read_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        log.inclusion(game_id, version)
        proof_ms.append((time.perf_counter() - started) * 1000)

    def p(values: list[float], q: float) -> float:
        return round(sorted(values)[min(len(values) - 1, int(q * len(values)))], 3)

    return {"leaves": log.size(), "proofs": count, "proof_p50_ms": p(proof_ms, 0.5), "proof_p95_ms": p(proof_ms, 0.95),
            "leaf_read_p50_ms": p(read_ms, 0.5), "leaf_read_p95_ms": p(read_ms, 0.95),
            "ratio_p95": round(p(proof_ms, 0.95) / p(read_ms, 0.95), 2), "target": "proof p95 < 20 ms"}


def run(settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    services = bootstrap(settings)
    try:
        stored = storing(services, args.moves, args.rounds)
        return {"storing": stored, "inclusion": proofs(services, grow(services, args.leaves), args.proofs)}
    finally:
        services.caboose.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=600, help="Moves per round of the storing benchmark.")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--leaves", type=int, default=1_000_000)
    parser.add_argument("--proofs", type=int, default=2000)
    parser.add_argument("--postgres", default=None, help="Also on this PostgreSQL (a fresh schema, dropped after).")
    args = parser.parse_args()
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        out["sqlite"] = run(Settings(db=f"sqlite:///{folder}/bench.sqlite"), args)
    if args.postgres:
        schema = f"caboose_bench_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(args.postgres, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        try:
            upgrade_databases(Settings(db=args.postgres, schema=schema), read_db_url(args.postgres, schema))
            out["postgres"] = run(Settings(db=args.postgres, schema=schema), args)
        finally:
            with psycopg.connect(args.postgres, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
