"""HTTP load on loopback: gunicorn with several workers, several client processes, many
games at once, on SQLite and PostgreSQL; against the same moves made straight through the
application layer, on the same store, taking turns with it.

    python benchmarks/load_http.py [--workers 4] [--threads 4] [--clients 4] [--games 16] [--moves 600] [--rounds 3]
                                   [--postgres postgresql://USER@HOST:PORT/DB] [--sqlite-only]

A move is what a bot does: GET the game's summary, GET its legal moves, POST one of them
with `If-Match` and an `Idempotency-Key`. The baseline, "the application alone", does the
same three steps in one process without HTTP (`Caboose.summary`, `legal_moves`, `play` with
the expected version and a key), a commit a move.

How the two are made comparable. Both sides run on the same store, with the same settings
(the same `Caboose` over the same SQLite file in WAL mode at the library's default
`synchronous=FULL`, or the same PostgreSQL schema), and store each move with one commit (on
SQLite, one `fdatasync` a move on both sides, counted with strace). On SQLite that commit's
wait is most of the baseline's time and moves with the disk traffic of whatever else runs
on the machine: by 8x between runs a few minutes apart, when the baseline was measured once,
after the HTTP run. So:
- the sides take turns, `--rounds` times, each round `--moves` moves on each side, and each
  round's ratio is printed beside the pooled one: both sides wait on the same disk weather;
- neither side's clock includes its start-up: both play a warm-up round first (two moves
  per game and server worker: each worker has then loaded the games and checked the tokens
  it is sent, as a server up for a while has), the client processes are started before
  the clock (each then waits at a barrier), and the games are made before any round (the baseline used to make
  its games, and pay its first imports and compiled statements, on its clock; the HTTP
  side used to start its client processes on its clock);
- both sides play the same number of games round-robin (the baseline used to play one game
  to its end before the next), so both hold as many games in their caches;
- CPU is counted beside the wall clock (the server's workers from /proc, the clients' and
  the baseline's own `process_time`): the CPU a move costs over HTTP against the
  application's is a ratio no disk moves, and how much of the baseline's wall clock is CPU
  says how much of it was waiting: on the commit, or for a core (on a loaded machine one
  process gets less of the run queue than the HTTP side's eight).
Nothing is added to the baseline's work that the HTTP path does not also do through the
application (the `Idempotency-Key`'s command id, the expected version).

Prints JSON per store: per round and pooled, moves accepted per second over HTTP and p50/p99
latency of accepted moves, every status seen (only 201 and the expected 409/412 conflicts
are acceptable), the application's rate, the ratio, and CPU milliseconds per move.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
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

TICKS = os.sysconf("SC_CLK_TCK")


def call(base: str | Client, method: str, path: str, token: str | None = None, body: Any = None,
         headers: dict[str, str] | None = None) -> tuple[int, Any]:
    http = base if isinstance(base, Client) else Client(base, timeout=60)
    reply = http.request(method, path, body, headers=headers, token=token)
    return reply.status, reply.body


def client(base_url: str, games: list[dict[str, Any]], moves: int, seed: int, out: Any, keep_alive: bool = True,
           ready: Any = None, rounds: int = 1) -> None:
    """Play the given games round-robin until `moves` moves were accepted, `rounds` times;
    report each round's latencies, statuses and this process's CPU. With `ready` (a
    barrier), each round's clock starts when every client waits there."""
    chooser = random.Random(seed)
    base: Client = Session(base_url, timeout=60) if keep_alive else Client(base_url, timeout=60)
    for _ in range(rounds):
        latencies: list[float] = []
        statuses: Counter[int] = Counter()
        if ready is not None:
            ready.wait()
        cpu = time.process_time()
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
                if len(latencies) >= moves:
                    break
        out.put((latencies, dict(statuses), time.process_time() - cpu))


def server_cpu(server: LiveServer) -> float:
    """CPU seconds the server's master and workers have used so far (/proc, user + system)."""
    assert server.process is not None
    master = server.process.pid
    pids = [master] + [int(p) for task in Path(f"/proc/{master}/task").iterdir()
                       for p in (task / "children").read_text().split()]
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICKS


class Clients:
    """`args.clients` client processes over the server's games, kept for every round (each
    keeps its connection, as a bot does), each round started by the parent at a barrier."""

    def __init__(self, server: LiveServer, games: list[dict[str, Any]], moves: int, rounds: int,
                 args: argparse.Namespace) -> None:
        # Fresh interpreters: nothing of this process's open stores is copied into a client.
        spawn = multiprocessing.get_context("spawn")
        self.server, self.queue, self.ready = server, spawn.Queue(), spawn.Barrier(args.clients + 1)
        self.processes = [spawn.Process(target=client, args=(server.base, games[i::args.clients], moves // args.clients,
                                                             100 + i, self.queue, not args.new_connections, self.ready,
                                                             rounds))
                          for i in range(args.clients)]
        for process in self.processes:
            process.start()

    def round(self) -> dict[str, Any]:
        self.ready.wait()
        started, cpu = time.perf_counter(), server_cpu(self.server)
        results = [self.queue.get() for _ in self.processes]
        elapsed, cpu = time.perf_counter() - started, server_cpu(self.server) - cpu
        latencies = sorted(x for r in results for x in r[0])
        statuses: Counter[int] = Counter()
        for _, counts, _ in results:
            statuses.update({int(k): v for k, v in counts.items()})
        accepted = len(latencies)
        return {"accepted": accepted, "seconds": elapsed, "moves_per_s": round(accepted / elapsed, 1),
                "p50_ms": round(statistics.median(latencies) * 1000, 2),
                "p99_ms": round(latencies[max(0, int(accepted * 0.99) - 1)] * 1000, 2),
                "server_cpu_ms_per_move": round(cpu / accepted * 1000, 3),
                "clients_cpu_ms_per_move": round(sum(r[2] for r in results) / accepted * 1000, 3),
                "statuses": dict(statuses),
                "unexpected_errors": {k: v for k, v in statuses.items() if k not in (201, 409, 412)}}

    def join(self) -> None:
        for process in self.processes:
            process.join()


class Alone:
    """The application alone: the clients' three steps a move, in one process, no HTTP,
    over its own games round-robin."""

    def __init__(self, db: str, schema: str | None, games: int) -> None:
        self.app = Caboose(Settings(db=db, schema=schema))
        self.chooser = random.Random(5)
        self.games = [self.app.create_game("ticket_to_ride", ["a", "b", "c"], seed=game_seed(12, i)) for i in range(games)]

    def play(self, moves: int) -> tuple[int, float, float]:
        """(moves stored, wall seconds, CPU seconds)."""
        app, stored = self.app, 0
        started, cpu = time.perf_counter(), time.process_time()
        while stored < moves and self.games:
            for game_id in list(self.games):
                summary = app.summary(game_id)
                if summary["status"] != "active":
                    self.games.remove(game_id)
                    continue
                seat = self.chooser.choice(summary["active_seats"])
                legal = app.legal_moves(game_id, seat)
                if not legal:
                    continue
                app.play(game_id, seat, self.chooser.choice(legal), expected_version=summary["version"],
                         idempotency_key=str(uuid.uuid4()))
                stored += 1
                if stored >= moves:
                    break
        return stored, time.perf_counter() - started, time.process_time() - cpu


def measure(db: str, schema: str | None, args: argparse.Namespace) -> dict[str, Any]:
    server = LiveServer(db, schema, workers=args.workers, threads=args.threads).start()
    rounds: list[dict[str, Any]] = []
    try:
        games = [call(server.base, "POST", "/api/v1/games", body={"game": "ticket_to_ride", "players": ["a", "b", "c"],
                                                                   "seed": game_seed(11, i).hex()})[1]
                 for i in range(args.games)]
        alone = Alone(db, schema, args.games)
        warm_up = args.games * args.workers * 2
        Clients(server, games, warm_up, 1, args).round()
        alone.play(warm_up)
        clients = Clients(server, games, args.moves, args.rounds, args)
        for number in range(1, args.rounds + 1):
            http = clients.round()
            stored, wall, cpu = alone.play(http["accepted"])
            rounds.append({"round": number, "http": http,
                           "application": {"moves": stored, "seconds": wall, "moves_per_s": round(stored / wall, 1),
                                           "cpu_ms_per_move": round(cpu / stored * 1000, 3),
                                           "cpu_share_of_wall": round(cpu / wall, 3)},
                           "ratio": round(http["moves_per_s"] / (stored / wall), 3)})
        clients.join()
    finally:
        server.stop()
    http_moves = sum(r["http"]["accepted"] for r in rounds)
    http_seconds = sum(r["http"]["seconds"] for r in rounds)
    app_moves = sum(r["application"]["moves"] for r in rounds)
    app_seconds = sum(r["application"]["seconds"] for r in rounds)
    server_cpu_ms = sum(r["http"]["server_cpu_ms_per_move"] * r["http"]["accepted"] for r in rounds) / http_moves
    clients_cpu_ms = sum(r["http"]["clients_cpu_ms_per_move"] * r["http"]["accepted"] for r in rounds) / http_moves
    app_cpu_ms = sum(r["application"]["cpu_ms_per_move"] * r["application"]["moves"] for r in rounds) / app_moves
    for r in rounds:
        for side in ("http", "application"):
            r[side]["seconds"] = round(r[side]["seconds"], 3)
    return {"rounds": rounds,
            "pooled": {"http_moves_per_s": round(http_moves / http_seconds, 1),
                       "application_moves_per_s": round(app_moves / app_seconds, 1),
                       "ratio": round((http_moves / http_seconds) / (app_moves / app_seconds), 3),
                       "ratio_per_round": [r["ratio"] for r in rounds],
                       "cpu_ms_per_move": {"http_server": round(server_cpu_ms, 3), "http_clients": round(clients_cpu_ms, 3),
                                           "application": round(app_cpu_ms, 3)},
                       "ratio_by_cpu_server": round(app_cpu_ms / server_cpu_ms, 3),
                       "ratio_by_cpu_server_and_clients": round(app_cpu_ms / (server_cpu_ms + clients_cpu_ms), 3)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker (the deployment's default: 4)")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--moves", type=int, default=600, help="moves on each side in each round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--new-connections", action="store_true",
                        help="a new TCP connection per request (default: each client keeps its connection, as client libraries do)")
    args = parser.parse_args()
    report = []
    load = [os.getloadavg()]
    with tempfile.TemporaryDirectory() as tmp:
        report.append({"store": "sqlite", **measure(f"sqlite:///{tmp}/load.sqlite", None, args)})
        load.append(os.getloadavg())
    if not args.sqlite_only:
        schema = f"caboose_load_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(args.postgres, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        try:
            report.append({"store": "postgresql", **measure(args.postgres, schema, args)})
            load.append(os.getloadavg())
        finally:
            with psycopg.connect(args.postgres, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")
    print(json.dumps({"workers": args.workers, "threads": args.threads, "clients": args.clients, "games": args.games, "moves": args.moves,
                      "rounds": args.rounds, "connections": "new per request" if args.new_connections else "kept alive",
                      "load_average_1_5_15": [[round(x, 2) for x in la] for la in load], "stores": report}, indent=2))


if __name__ == "__main__":
    main()
