"""`--jobs N` against one process, each with its baseline from the same run.

    python benchmarks/bench_jobs.py --store DIR [--rounds 2] [--audit-games 20] [--simulate-games 8]
    python benchmarks/bench_jobs.py --archive DIR [--archive-games 1000] [--rounds 1]

DIR holds an `events.sqlite` of Ticket to Ride games (`bench_projections.py --store DIR`
makes one). Figures, the ways taking turns round by round so they share the machine's load:
- the rebuild: `caboose projections rebuild` (one process, the code path without --jobs),
  `--jobs 1` and `--jobs 2`, events/s, against reading the whole notification log;
- the archive audit: `caboose audit --all --jobs 1` and `--jobs 2` over the first
  `--audit-games` games (a store of its own, copied), games/s, against replaying the same
  games (`fold.replay`) in one process;
- the simulator: `caboose simulate --jobs 1` and `--jobs 2`, games/s.
With `--archive DIR`, only the archive audit, of finished games of every title in turn
(`bench_memory.py`'s games, each played to its end), kept in `DIR/archive.sqlite` between
runs (the first run plays them: about six minutes for 1,000 games, not timed); its read
models are brought up to date before the clock starts. Figures: `caboose audit --all
--jobs 1` and `--jobs 2`, games/s, against replaying the same games (each read and folded,
`fold.replay`) in one process; also each audit's own count of seconds (`audited ... in X s`,
the workers' time without the command's start-up).
Every command is timed from the outside (process start-up included), as a user waits for it.
On a machine whose other work leaves no second core free, the wall clock cannot show a split:
so the rebuild's parts are also timed in one process by CPU time (`rebuild_cpu`): the rebuild
as one process does it, each part of two (`rebuild_part`) and the merge, and the ratio of the
one-process rebuild to the longest path of `--jobs 2` (the slower part plus the merge).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.core import fold
from service.application import Caboose
from service.settings import Settings

CABOOSE = str(Path(sys.executable).with_name("caboose"))


def timed(env: dict[str, str], *args: str) -> float:
    started = time.perf_counter()
    done = subprocess.run([CABOOSE, *args], env={**os.environ, **env}, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"caboose {' '.join(args)} failed: {done.stderr[-2000:]}")
    return time.perf_counter() - started


def raw_read(app: Caboose) -> tuple[int, float]:
    started, count, position = time.perf_counter(), 0, 0
    while notifications := app.recorder.select_notifications(start=position, limit=2000, inclusive_of_start=False):
        count += len(notifications)
        position = notifications[-1].id
    return count, time.perf_counter() - started


def rebuild_cpu(db: str, rounds: int) -> dict[str, Any]:
    """CPU seconds (best of `rounds`) of the one-process rebuild, each part of two, and the merge."""
    from projections.runner import merge_parts, rebuild, rebuild_part, shares
    from projections.store import ReadStore

    app = Caboose(Settings(db=db))
    best: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(rounds):
            spent: dict[str, float] = {}
            target = ReadStore(f"sqlite:///{tmp}/whole-{round_}.sqlite")
            started = time.process_time()
            rebuild(app, target)
            spent["one_process"] = time.process_time() - started
            sources, done = [], []
            position, shared = shares(app, 2)
            for part in range(2):
                source = ReadStore(f"sqlite:///{tmp}/part-{round_}-{part}.sqlite")
                started = time.process_time()
                done.append(rebuild_part(app, source, shared[part], position))
                spent[f"part_{part}_of_2"] = time.process_time() - started
                sources.append(source)
            merged = ReadStore(f"sqlite:///{tmp}/merged-{round_}.sqlite")
            started = time.process_time()
            merge_parts(app, merged, sources, max(p.position for p in done))
            spent["merge"] = time.process_time() - started
            for store in (target, merged, *sources):
                store.close()
            best = {k: min(v, best.get(k, v)) for k, v in spent.items()}
    app.close()
    longest = max(best["part_0_of_2"], best["part_1_of_2"]) + best["merge"]
    return {"cpu_seconds": {k: round(v, 2) for k, v in best.items()},
            "jobs_2_longest_path_ratio_to_one_process": round(best["one_process"] / longest, 3)}


def replay(app: Caboose, ids: list[str]) -> float:
    started = time.perf_counter()
    for game_id in ids:
        fold.replay(app.records(game_id))
    return time.perf_counter() - started


def audited(env: dict[str, str], jobs: str) -> tuple[float, float]:
    """`caboose audit --all --jobs N`: seconds as a user waits for it, and as it counts them
    itself (from its workers' start to the last game, `audited ... in X s`)."""
    started = time.perf_counter()
    done = subprocess.run([CABOOSE, "audit", "--all", "--jobs", jobs], env={**os.environ, **env}, capture_output=True,
                          text=True)
    waited = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"caboose audit --all --jobs {jobs} failed: {done.stderr[-2000:]}")
    counted = re.search(r"^audited \d+ of \d+ games in ([0-9.]+) s", done.stderr, re.MULTILINE)
    return waited, float(counted.group(1)) if counted else float("nan")


def archive_audit(folder: Path, count: int, rounds: int) -> dict[str, Any]:
    """The archive audit of `count` finished games of every title (see the module's note)."""
    from benchmarks.bench_memory import generate
    from projections.runner import log_caught_up

    folder.mkdir(parents=True, exist_ok=True)
    db = f"sqlite:///{folder.resolve()}/archive.sqlite"
    ids = generate(db, count, finished=True)
    app = Caboose(Settings(db=db))
    if len(app.game_ids()) != count:
        raise SystemExit(f"{folder} holds {len(app.game_ids())} games, not {count}: name a fresh folder")
    log_caught_up(app)  # the read models the audit compares with, up to date before the clock starts
    titles: dict[str, int] = {}
    events = 0
    for game_id in ids:
        records = app.records(game_id)
        events += len(records)
        titles[records[0]["data"]["game"]] = titles.get(records[0]["data"]["game"], 0) + 1
        assert records[-1]["kind"] == "SeedRevealed", f"{game_id} is not finished"
    env = {"CABOOSE_DB": db}
    times: dict[str, list[float]] = {}
    load = [os.getloadavg()]
    for _ in range(rounds):  # the ways take turns, so they share what else the machine does
        times.setdefault("replay", []).append(replay(app, ids))
        for jobs in ("1", "2"):
            waited, counted = audited(env, jobs)
            times.setdefault(f"audit_jobs_{jobs}", []).append(waited)
            times.setdefault(f"audit_jobs_{jobs}_own_count", []).append(counted)
        load.append(os.getloadavg())
    best = {k: min(v) for k, v in times.items()}
    return {
        "games": count, "events": events, "games_by_title": titles, "rounds": rounds,
        **{f"{k}_games_per_s": round(count / s, 2) for k, s in best.items()},
        "audit_jobs_1_ratio_to_replay": round(best["replay"] / best["audit_jobs_1"], 4),
        "audit_jobs_2_ratio_to_replay": round(best["replay"] / best["audit_jobs_2"], 4),
        "jobs_2_ratio_to_jobs_1": round(best["audit_jobs_1"] / best["audit_jobs_2"], 3),
        "seconds_measured": round(sum(sum(v) for k, v in times.items() if not k.endswith("own_count")), 1),
        "load_average_before_and_after_each_round": load,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", help="a folder holding events.sqlite (bench_projections.py --store DIR)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--audit-games", type=int, default=20)
    parser.add_argument("--simulate-games", type=int, default=8)
    parser.add_argument("--archive", help="only the archive audit, of the finished games kept in this folder")
    parser.add_argument("--archive-games", type=int, default=1000)
    args = parser.parse_args()
    if args.archive:
        out = {"cores": os.cpu_count(), "archive_audit": archive_audit(Path(args.archive), args.archive_games, args.rounds)}
        print(json.dumps(out, indent=2))
        return
    if not args.store:
        parser.error("name --store DIR (or --archive DIR)")
    db = f"sqlite:///{Path(args.store).resolve()}/events.sqlite"
    app = Caboose(Settings(db=db))
    env = {"CABOOSE_DB": db}
    times: dict[str, list[float]] = {}
    events = 0
    for _ in range(args.rounds):
        events, seconds = raw_read(app)
        times.setdefault("raw_read", []).append(seconds)
        times.setdefault("rebuild", []).append(timed(env, "projections", "rebuild"))
        for jobs in ("1", "2"):
            times.setdefault(f"rebuild_jobs_{jobs}", []).append(timed(env, "projections", "rebuild", "--jobs", jobs))
    best = {k: min(v) for k, v in times.items()}
    rebuild = {"events": events, **{f"{k}_events_per_s": round(events / s) for k, s in best.items()}}
    rebuild["rebuild_ratio_to_raw_read"] = round(best["raw_read"] / best["rebuild"], 3)
    rebuild["jobs_1_ratio_to_raw_read"] = round(best["raw_read"] / best["rebuild_jobs_1"], 3)
    rebuild["jobs_2_ratio_to_jobs_1"] = round(best["rebuild_jobs_1"] / best["rebuild_jobs_2"], 3)
    rebuild["jobs_2_ratio_to_one_process"] = round(best["rebuild"] / best["rebuild_jobs_2"], 3)
    rebuild["rebuild_cpu"] = rebuild_cpu(db, args.rounds)

    with tempfile.TemporaryDirectory() as tmp:
        ids = app.game_ids()[:args.audit_games]
        audit_db = f"sqlite:///{tmp}/audit.sqlite"
        small = Caboose(Settings(db=audit_db))
        for game_id in ids:  # the first games alone, in a store of their own
            small.import_record(app.records(game_id))
        small.close()
        audit_env = {"CABOOSE_DB": audit_db}
        timed(audit_env, "projections", "rebuild")
        audit_app = Caboose(Settings(db=audit_db))
        audit_times: dict[str, list[float]] = {}
        for _ in range(args.rounds):
            audit_times.setdefault("replay", []).append(replay(audit_app, audit_app.game_ids()))
            for jobs in ("1", "2"):
                audit_times.setdefault(f"audit_jobs_{jobs}", []).append(timed(audit_env, "audit", "--all", "--jobs", jobs))
        audit_best = {k: min(v) for k, v in audit_times.items()}
        audit = {"games": len(ids), **{f"{k}_games_per_s": round(len(ids) / s, 2) for k, s in audit_best.items()},
                 "jobs_2_ratio_to_jobs_1": round(audit_best["audit_jobs_1"] / audit_best["audit_jobs_2"], 3),
                 "audit_jobs_1_ratio_to_replay": round(audit_best["replay"] / audit_best["audit_jobs_1"], 4)}

        sim_times: dict[str, list[float]] = {}
        for round_ in range(args.rounds):
            for jobs in ("1", "2"):
                sim_env = {"CABOOSE_SIMULATE_DB": f"sqlite:///{tmp}/sim-{round_}-{jobs}.sqlite"}
                sim_times.setdefault(f"simulate_jobs_{jobs}", []).append(
                    timed(sim_env, "simulate", "ticket_to_ride", "--games", str(args.simulate_games), "--no-check",
                          "--jobs", jobs))
        sim_best = {k: min(v) for k, v in sim_times.items()}
        simulate = {"games": args.simulate_games,
                    **{f"{k}_games_per_s": round(args.simulate_games / s, 2) for k, s in sim_best.items()},
                    "jobs_2_ratio_to_jobs_1": round(sim_best["simulate_jobs_1"] / sim_best["simulate_jobs_2"], 3)}
    out: dict[str, Any] = {"cores": os.cpu_count(), "load_average": os.getloadavg(), "rebuild": rebuild, "audit": audit,
                           "simulate": simulate}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
