"""A 200-player Swiss tournament at tables of 4: how long pairing one round takes, and how
fast its standings are answered over HTTP.

    python benchmarks/bench_tournament.py [--players 200] [--rounds 6] [--requests 300] [--db sqlite|memory]

Pairing: the event is played through the organiser on a real store (each table's game
created with its derived seed and seat order, its result a referee's ruling of random places
so that 300 games need not be played out), and each round's `pair` is timed as a whole (its
results settled, the assignment solved, 50 games created and stored with the round in one
transaction). Beside it, in the same run: the assignment alone (networkx's min-cost flow,
`service/tournament/assign.py`) and the baseline, the same round's tables formed as
consecutive groups of the standing without avoiding repeats. Target: a round under 1 s.

Standings: once every round is played, a real HTTP server (werkzeug, threaded, in this
process) answers `GET /api/v1/tournaments/{id}/standings` `--requests` times, after a
warm-up (whose first request projects the whole log into the read models); the baselines are
`GET /api/v1/health` on the same server in the same run, and the standings folded from the
tournament's events in the process (`views.computed`, what the read model holds). Target:
p95 under 50 ms. Also the first answer after each new record (a ruling): the read model
catches up with the log (one record projected, its standings made again) before answering.

Prints JSON. Machines here are noisy (2 cores shared with other work): read the baselines.
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
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from werkzeug.serving import make_server

from domain.tournament import decide
from domain.tournament import pairing as p
from projections.tournaments import meetings
from service.api import create_app
from service.application import Caboose
from service.lobby import Lobby
from service.settings import RateLimits, Settings
from service.tournament import assign, views
from service.tournament.organiser import Organiser


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"p50_ms": ms(statistics.median(ordered)), "p95_ms": ms(ordered[int(len(ordered) * 0.95) - 1]),
            "max_ms": ms(ordered[-1])}


def rule_results(organiser: Organiser, tournament_id: str, chooser: random.Random) -> None:
    """Every table of the round still playing gets random places by a referee's ruling."""
    state = organiser.shelf.get(tournament_id).state
    for table in state.playing():
        scores = [chooser.randint(0, 150) for _ in table.seats]
        places = [1 + sum(o > s for o in scores) for s in scores]
        organiser.rule(tournament_id, table.game_id, "referee", "benchmark result", places=places)


def play(organiser: Organiser, players: int, rounds: int, seed: int) -> tuple[str, list[dict[str, Any]]]:
    created = organiser.create("Benchmark Swiss", "ticket_to_ride", kind="swiss", rounds=rounds, table_size=4)
    tournament_id, chooser = created.tournament_id, random.Random(seed)
    for number in range(1, players + 1):
        organiser.register(tournament_id, f"player {number:03d}")
    figures = []
    for _ in range(rounds):
        state = organiser.shelf.get(tournament_id).state
        secret = organiser.shelf.get(tournament_id).secret_bytes
        assert secret is not None
        # Wall time, and this process's CPU time: on a shared machine the CPU time is what
        # the work costs, the wall time what a referee waits.
        started, cpu = time.perf_counter(), time.process_time()
        baseline = decide.plans(state, secret, p.consecutive)[0]
        consecutive, consecutive_cpu = time.perf_counter() - started, time.process_time() - cpu
        started, cpu = time.perf_counter(), time.process_time()
        solved = decide.plans(state, secret, assign.solve)[0]
        solving, solving_cpu = time.perf_counter() - started, time.process_time() - cpu
        started, cpu = time.perf_counter(), time.process_time()
        opened = organiser.pair(tournament_id)
        whole, whole_cpu = time.perf_counter() - started, time.process_time() - cpu
        figures.append({"round": solved.round, "tables": len(opened), "pair_ms": ms(whole), "pair_cpu_ms": ms(whole_cpu),
                        "assignment_ms": ms(solving), "assignment_cpu_ms": ms(solving_cpu),
                        "baseline_consecutive_ms": ms(consecutive), "baseline_consecutive_cpu_ms": ms(consecutive_cpu),
                        "repeats": solved.repeats, "baseline_repeats": baseline.repeats})
        rule_results(organiser, tournament_id, chooser)
    return tournament_id, figures


def timed_get(url: str, count: int) -> list[float]:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        with urllib.request.urlopen(url) as answer:
            answer.read()
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--db", choices=["sqlite", "memory"], default="sqlite")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{folder}/bench.sqlite" if args.db == "sqlite" else "memory"
        app = Caboose(Settings(db=db, rate_limits=RateLimits.every("100000000/minute")))
        lobby = Lobby(app)
        organiser = Organiser(lobby)
        tournament_id, rounds = play(organiser, args.players, args.rounds, args.seed)
        state = organiser.shelf.get(tournament_id).state
        server = make_server("127.0.0.1", 0, create_app(app, lobby), threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        standings_url = f"{base}/api/v1/tournaments/{tournament_id}/standings"
        timed_get(standings_url, 20)
        timed_get(f"{base}/api/v1/health", 20)
        standings = timed_get(standings_url, args.requests)
        health = timed_get(f"{base}/api/v1/health", args.requests)
        # In the process, wall and CPU time: the read model's answer (caught up with the log,
        # then its row read) against folding the tournament's events for it.
        in_process: dict[str, dict[str, list[float]]] = {"read_model": {"wall": [], "cpu": []},
                                                         "folded": {"wall": [], "cpu": []}}
        standings_of = views.Standings(app)
        for _ in range(args.requests):
            for name, answer in (("read_model", lambda: standings_of.of(organiser.shelf, tournament_id)),
                                 ("folded", lambda: views.computed(organiser.shelf.get(tournament_id)))):
                started, cpu = time.perf_counter(), time.process_time()
                answer()
                in_process[name]["wall"].append(time.perf_counter() - started)
                in_process[name]["cpu"].append(time.process_time() - cpu)
        # The first answer after a new record: the read model is folded again for that version.
        fresh = []
        for index in range(10):
            organiser.rule(tournament_id, state.tables[index].game_id, "referee", "benchmark re-ruling",
                           places=list(range(1, len(state.tables[index].seats) + 1)))
            fresh += timed_get(standings_url, 1)
        server.shutdown()
        pairing = [r["pair_ms"] for r in rounds[1:]]
        print(json.dumps({
            "players": args.players, "rounds": args.rounds, "store": args.db,
            "pairing": {"rounds": rounds, "slowest_round_ms": max(pairing), "target_ms": 1000},
            "standings": {"requests": args.requests, **summary(standings), "target_p95_ms": 50,
                          "after_a_new_record": summary(fresh)},
            "baseline_health": summary(health),
            "in_process": {name: {"wall": summary(times["wall"]), "cpu": summary(times["cpu"])}
                           for name, times in in_process.items()},
            **meetings(organiser.shelf.get(tournament_id).state),
        }, indent=2))


if __name__ == "__main__":
    main()
