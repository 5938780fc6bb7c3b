"""The multi-process deployment under load: `infra/run` (supervisord: HAProxy in front of N API
processes, the projection runner, the notifier, the bot runner) on a fresh PostgreSQL schema
and Redis, with N = 1, 2 and 4, and client processes playing many three-seat Ticket to Ride
games on loopback through HAProxy.

    python benchmarks/load_deploy.py [--processes 1,2,4] [--rounds 1] [--games 24] [--clients 6] [--seconds 30] [--json]

The clients are the fault suite's (benchmarks/fault_suite.py): each picks a game, reads its
summary and a seat's legal moves, and posts one of them with an Idempotency-Key (half with
If-Match, one in ten sent twice). After the load every answer is checked against the store
(tests/support/ledger.py): every 2xx stored as that request's own, nothing stored unanswered,
no duplicate version, every game audits. Then the projection lag: seconds from the load's end
until the runner has followed the whole log and every game's index entry is at its version.

Prints, per N: moves stored per second (and its ratio to N = 1 in the same run), p50/p99 of
an accepted move's POST, the statuses, 5xx, lost moves, the projection lag, and the CPU time
the deployment's own processes spent per move (from /proc: a figure the other work sharing
the machine disturbs far less than a rate); with --rounds R, the counts are run R times
interleaved and the medians printed. Exits 1 if a
figure that must be 0 is not, a game does not audit, or the read models did not catch up.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fault_suite import MUST_BE_ZERO, Size, drop_schemas, ledger_figures, load, new_schema, read_load  # noqa: E402
from tests.support.deployment import Deployment, projection_lag  # noqa: E402
from tests.support.volley import new_game  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def run_once(postgres: str, processes: int, size: Size, folder: Path) -> dict[str, Any]:
    """One deployment of `processes` API processes on a fresh schema, loaded for `size.seconds`."""
    schema = new_schema(postgres, "caboose_deploy")
    try:
        deployment = Deployment(postgres, schema, processes, log_path=folder / "deployment.log")
        booted = time.monotonic()
        with deployment:
            boot_s = time.monotonic() - booted
            client = deployment.client()
            games = [new_game(client) for _ in range(size.games)]
            cpu_before = deployment.cpu_seconds()
            with load(deployment.base, games, size, folder):
                pass
            cpu = {k: round(v - cpu_before.get(k, 0.0), 2) for k, v in deployment.cpu_seconds().items()}
            lag = projection_lag(postgres, schema)
            tracebacks = deployment.log().count("Traceback")
        sent, answers = read_load(folder)
        ledger = ledger_figures(postgres, schema, sent, games)
    finally:
        drop_schemas(postgres, [schema])
    # The load's own window, from the first request sent to the last answer (not the client
    # processes' start or exit).
    elapsed = max(a["t"] for a in answers) - min(a["t"] - a["took"] for a in answers)
    accepted = [a["took"] for a in answers if a["method"] == "POST" and a["status"] == 201]
    statuses: dict[str, int] = {}
    for a in answers:
        key = f"{a['method']} {a['status']}"
        statuses[key] = statuses.get(key, 0) + 1
    return {
        "api_processes": processes, "boot_s": round(boot_s, 1), "load_s": round(elapsed, 1),
        "moves_stored": ledger["moves_stored"], "moves_per_s": round(ledger["moves_stored"] / elapsed, 1),
        "deployment_cpu_s": cpu,
        "deployment_cpu_ms_per_move": round(sum(cpu.values()) * 1000 / ledger["moves_stored"], 1) if ledger["moves_stored"] else None,
        "requests": len(answers), "requests_per_s": round(len(answers) / elapsed, 1),
        "p50_ms": round(statistics.median(accepted) * 1000, 1) if accepted else None,
        "p99_ms": round(percentile(accepted, 0.99) * 1000, 1) if accepted else None,
        "statuses": dict(sorted(statuses.items())),
        "5xx": sum(1 for a in answers if a["status"] >= 500), "no_answer": sum(1 for a in answers if a["status"] == 0),
        "lost": ledger["acknowledged_but_missing"],
        **{k: ledger[k] for k in MUST_BE_ZERO if k != "acknowledged_but_missing"},
        "games": ledger["games"], "games_audit_ok": ledger["games_audit_ok"],
        "projection": lag, "tracebacks_in_logs": tracebacks, "problems": ledger["problems"],
    }


def failures(runs: list[dict[str, Any]]) -> list[str]:
    found = []
    for run in runs:
        where = f"{run['api_processes']} API process(es)"
        found += [f"{where}: {k} = {run[k]}" for k in ("lost", "5xx", "no_answer", *MUST_BE_ZERO[1:]) if run.get(k)]
        if not run["moves_stored"]:
            found.append(f"{where}: no move was stored: the load never ran")
        if run["games_audit_ok"] != run["games"]:
            found.append(f"{where}: only {run['games_audit_ok']} of {run['games']} games audit OK")
        projection = run["projection"]
        if not projection["caught_up"] or projection["games_indexed_at_their_version"] != projection["games"]:
            found.append(f"{where}: the read models did not catch up: {projection}")
    return found


def per_move(run: dict[str, Any], role: str) -> float | None:
    moves = run["moves_stored"]
    return round(run["deployment_cpu_s"].get(role, 0.0) * 1000 / moves, 1) if moves else None


def medians(runs: list[dict[str, Any]], counts: list[int]) -> dict[int, dict[str, float]]:
    """Per API process count, the median over the rounds (the first count is the baseline)."""
    out: dict[int, dict[str, float]] = {}
    for n in counts:
        mine = [r for r in runs if r["api_processes"] == n]
        out[n] = {"moves_per_s": round(statistics.median(r["moves_per_s"] for r in mine), 1),
                  "p50_ms": round(statistics.median(r["p50_ms"] or 0 for r in mine), 1),
                  "p99_ms": round(statistics.median(r["p99_ms"] or 0 for r in mine), 1),
                  "projection_lag_s": round(statistics.median(r["projection"]["lag_s"] for r in mine), 2),
                  "cpu_ms_per_move": round(statistics.median(r["deployment_cpu_ms_per_move"] or 0 for r in mine), 1)}
    base = out[counts[0]]["moves_per_s"]
    for figures in out.values():
        figures["ratio_to_first"] = round(figures["moves_per_s"] / base, 2) if base else 0.0
    return out


def table(runs: list[dict[str, Any]], baseline: float) -> str:
    rows = [("moves stored per second", lambda r: r["moves_per_s"]),
            ("ratio to 1 API process", lambda r: round(r["moves_per_s"] / baseline, 2) if baseline else "n/a"),
            ("requests per second (GET summary, GET legal moves, POST)", lambda r: r["requests_per_s"]),
            ("accepted move POST p50 / p99 (ms)", lambda r: f"{r['p50_ms']} / {r['p99_ms']}"),
            ("moves stored", lambda r: r["moves_stored"]),
            ("deployment CPU per move (ms; API, HAProxy, runners, notifier)", lambda r: r["deployment_cpu_ms_per_move"]),
            *((f"  of which {role} (ms)", lambda r, role=role: per_move(r, role))
              for role in ("api", "haproxy", "projections", "notify", "bots", "supervisor")),
            ("lost (2xx not stored as its own)", lambda r: r["lost"]),
            ("5xx / no answer", lambda r: f"{r['5xx']} / {r['no_answer']}"),
            ("games audit OK", lambda r: f"{r['games_audit_ok']} of {r['games']}"),
            ("projection lag after the load (s)", lambda r: r["projection"]["lag_s"]),
            ("events behind when the load stopped", lambda r: r["projection"]["behind_at_stop"]),
            ("deployment start to serving (s)", lambda r: r["boot_s"])]
    lines = [f"{'':58}" + "".join(f"{str(r['api_processes']) + ' API':>14}" for r in runs)]
    for label, cell in rows:
        lines.append(f"{label:58}" + "".join(f"{cell(r)!s:>14}" for r in runs))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", default=os.environ.get("CABOOSE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--processes", default="1,2,4", help="API process counts to run, comma-separated (the first is the baseline)")
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=1, help="Run every count this many times, interleaved; report medians.")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", action="store_true", help="Keep the deployments' logs and the clients' answers.")
    args = parser.parse_args()
    counts = [int(n) for n in args.processes.split(",")]
    size = Size(games=args.games, clients=args.clients, seconds=args.seconds, outage=0, simulated=0)
    machine = {"cores": os.cpu_count(), "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
               "shared": "clients, HAProxy, API processes, runner, notifier, PostgreSQL and Redis all on these cores"}
    top = Path(tempfile.mkdtemp(prefix="caboose-load-deploy-"))
    runs = []
    try:
        for _ in range(args.rounds):
            for n in counts:
                folder = top / f"api-{n}-{uuid.uuid4().hex[:6]}"
                folder.mkdir()
                runs.append(run_once(args.postgres, n, size, folder))
    finally:
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)
    baseline = runs[0]["moves_per_s"]
    for run in runs:
        run["ratio_to_first"] = round(run["moves_per_s"] / baseline, 3) if baseline else None
    found = failures(runs)
    summary = medians(runs, counts)
    machine["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        print(json.dumps({"machine": machine, "size": size.__dict__, "rounds": args.rounds, "medians": summary, "runs": runs,
                          "failures": found}, indent=2))
    else:
        print(f"{machine['cores']} cores (load average {machine['load_average_at_start']} at start), shared by {machine['shared']}; "
              f"{size.games} games, {size.clients} client processes, {size.seconds:g} s of load per run\n")
        print(table(runs, baseline))
        print(f"\nmedians over {args.rounds} round(s), load average {machine['load_average_at_end']} at the end:")
        for n, figures in summary.items():
            print(f"  {n} API: {figures}")
        print("\n".join(["", "FAILED:", *found] if found else ["", "all promises kept"]))
    if args.keep:
        print(f"kept in {top}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
