"""Faults, measured: what clients were told against what the store holds, on SQLite and
PostgreSQL, under load from several client processes against gunicorn (4 workers × 4 threads).

    python benchmarks/fault_suite.py [--quick] [--json] [--postgres URL]

The faults:
- kill -9 of the gunicorn master and every worker under load, then a restart on the same store;
- a PostgreSQL outage under load: a loopback TCP proxy between the server and PostgreSQL is
  cut and restored (the shared PostgreSQL server itself is never stopped);
- a silent PostgreSQL outage under load: the same proxy drops everything either way and
  refuses nothing (packets dropped, no reset), then forwards again; every request and
  every health check (asked every quarter second, as a load balancer does) must be
  answered within the documented limit (`CABOOSE_DB_REQUEST_TIMEOUT` and libpq's shortest
  connect timeout), with 503, Retry-After and a problem document while it lasts;
- kill -9 of `caboose simulate` mid-work: the database opens and every game audits;
- kill -9 of a projection runner (`caboose projections follow`) mid-work: it resumes to read
  models equal to a rebuild from zero;
- the bot-key attack (benchmarks/bot_key_attack.py): a seat sends moves under the keys the bot
  runner will use, and the store holds such keys from an older server; every seat is then
  handed to a bot, and `caboose bots run` must play the game out.
- attacks on a running game's hidden cards (tests/support/attacks.py): a fork of a running
  game finished by bots (`caboose bots run`), read through every route, stream, page and
  export as the public and as other seats' tokens, and its original's next draw predicted
  from it; and a seat's live stream kept open across a hand-back to a bot and back, the new
  holder's secret draws looked for in it.

Clients play random legal moves in 3-seat Ticket to Ride games. Every move carries an
Idempotency-Key (a client that retries needs one), half carry If-Match, one in ten is sent
twice; a move that got no answer, a 503, or a gateway's 502 or 504 is retried with the same
key until answered.
Afterwards every answer is checked against the stored records (tests/support/ledger.py).
Exits 1 if any figure that must be 0 is not, or a game does not audit.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import multiprocessing.dummy
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from http.client import HTTPException
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import bot_key_attack  # noqa: E402
from projections.runner import log_end  # noqa: E402
from projections.store import ReadStore, read_db_url  # noqa: E402
from service.application import Caboose  # noqa: E402
from service.settings import Settings  # noqa: E402
from service.waits import CONNECT_FLOOR  # noqa: E402
from tests.support.attacks import fork_attack, stream_attack  # noqa: E402
from tests.support.http import Client, Reply  # noqa: E402
from tests.support.ledger import Sent, reconcile  # noqa: E402
from tests.support.live_server import LiveServer  # noqa: E402
from tests.support.volley import Game, Shot, new_game, send  # noqa: E402
from tests.tcp_proxy import CuttableProxy  # noqa: E402

PROBLEM_JSON = "application/problem+json"
RETRY_GRACE = 30.0
"""After the run's end, how long a client keeps retrying a move that got no answer yet."""
WAIT_LIMIT = 90.0
"""The longest any wait in this suite lasts before it gives up."""


@dataclass(frozen=True)
class Size:
    games: int
    clients: int
    seconds: float
    """Length of one load run."""
    outage: float
    """Seconds PostgreSQL stays unreachable."""
    simulated: int
    silent: float = 0.0
    """Seconds PostgreSQL stays silent (packets dropped, nothing refused)."""


QUICK = Size(games=6, clients=4, seconds=16, outage=8, simulated=6, silent=12)
FULL = Size(games=20, clients=8, seconds=60, outage=15, simulated=30, silent=45)


# -- the clients ------------------------------------------------------------------------------

def well_formed(reply: Reply) -> bool:
    """A server error a client can act on: a problem document, no stack trace, and for a 503
    the Retry-After that says when to come back."""
    return (reply.headers.get("content-type", "").startswith(PROBLEM_JSON) and isinstance(reply.body, dict)
            and reply.body.get("status") == reply.status and "Traceback" not in json.dumps(reply.body)
            and (reply.status != 503 or "retry-after" in reply.headers))


def player(base: str, games: list[Game], seconds: float, index: int, out_path: str, ready: Any) -> None:
    """Play random legal moves in `games` for `seconds` once every client is ready; write every answer.
    Every client plays every game, so moves in one game race each other."""
    chooser, client = random.Random(index), Client(base, timeout=10)
    ready.wait(timeout=WAIT_LIMIT)
    until = time.time() + seconds
    with open(out_path, "a", encoding="utf-8") as out:
        def note(method: str, reply: Reply | None, started: float) -> None:
            status = reply.status if reply else 0
            out.write(json.dumps({"answer": {"t": time.time(), "method": method, "status": status, "took": time.time() - started,
                                             "well_formed": well_formed(reply) if reply and status >= 500 else None}}) + "\n")
            out.flush()

        def get(path: str, token: str) -> Reply | None:
            started = time.time()
            try:
                reply = client.get(path, token=token)
            except (OSError, HTTPException):
                reply = None
            note("GET", reply, started)
            return reply if reply and reply.status == 200 else None

        def post(game: Game, shot: Shot) -> None:
            """Send until answered with anything but a 503 or a gateway's 502/504 (same key each
            time: those leave it unknown whether the move was stored), within bounds."""
            pause = 0.1
            while True:
                started = time.time()
                sent, reply = send(client, game, shot)
                sent.request = index * 10_000_000 + sent.request
                note("POST", reply, started)
                out.write(json.dumps({"sent": sent.to_json(), "t": time.time()}) + "\n")
                out.flush()
                if sent.status not in (0, 502, 503, 504) or time.time() > until + RETRY_GRACE:
                    return
                time.sleep(pause)
                pause = min(pause * 2, 1.0)

        games = list(games)
        while games and time.time() < until:
            game = chooser.choice(games)
            summary = get(game.path, game.referee_token)
            if summary is None:
                time.sleep(0.1)
                continue
            if summary.body["status"] != "active":
                games.remove(game)
                continue
            seat = chooser.choice(summary.body["active_seats"])
            legal = get(f"{game.path}/legal-moves", game.seat_tokens[seat])
            if legal is None or not legal.body["moves"]:
                continue
            move = {k: v for k, v in chooser.choice(legal.body["moves"]).items() if k != "seat"}
            shot = Shot(seat, move, str(uuid.uuid4()), legal.body["version"] if chooser.random() < 0.5 else None)
            post(game, shot)
            if chooser.random() < 0.1:
                post(game, shot)


def first_201_since(answers: list[dict[str, Any]], moment: float) -> float | None:
    """Seconds from `moment` until a client was next told a move was stored."""
    times = [a["t"] for a in answers if a["method"] == "POST" and a["status"] == 201 and a["t"] >= moment]
    return min(times) - moment if times else None


@contextmanager
def load(base: str, games: list[Game], size: Size, folder: Path, start: str = "spawn") -> Iterator[list[Any]]:
    """Client processes playing for `size.seconds` from the moment this yields; joined on exit.
    Spawned by default: a forked client would hold an in-process proxy's sockets open
    (`start="fork"` is quicker where the caller holds none; `"thread"`, threads of this
    process, quicker still for a few clients)."""
    spawn = multiprocessing.dummy if start == "thread" else multiprocessing.get_context(start)
    ready = spawn.Barrier(size.clients + 1)
    processes = [spawn.Process(target=player, args=(base, games, size.seconds, i,
                                                    str(folder / f"client-{i}.jsonl"), ready))
                 for i in range(size.clients)]
    for p in processes:
        p.start()
    ready.wait(timeout=WAIT_LIMIT)
    try:
        yield processes
    finally:
        for p in processes:
            p.join(timeout=size.seconds + RETRY_GRACE + WAIT_LIMIT)
            if p.is_alive() and start != "thread":
                p.kill()


def read_load(folder: Path) -> tuple[list[Sent], list[dict[str, Any]]]:
    sent, answers = [], []
    for path in sorted(folder.glob("client-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            if "sent" in item:
                sent.append(Sent.from_json(item["sent"]))
            else:
                answers.append(item["answer"])
    return sent, answers


def ledger_figures(db: str, schema: str | None, sent: list[Sent], games: list[Game]) -> dict[str, Any]:
    app = Caboose(Settings(db=db, schema=schema))
    try:
        findings = reconcile(app, sent, [g.game_id for g in games])
    finally:
        app.close()
    summary = findings.summary()
    summary["games"] = len(games)
    summary["games_audit_ok"] = len(games) - len(findings.audit_failed)
    summary["201s"] = findings.statuses[201]
    summary["problems"] = findings.problems[:10]
    return summary


# -- the faults ----------------------------------------------------------------------------------

def server_kill(db: str, schema: str | None, size: Size, folder: Path) -> dict[str, Any]:
    """kill -9 of master and workers a third of the way into the load; restart after a second."""
    server = LiveServer(db, schema, log_path=folder / "gunicorn-kill.log").start()
    try:
        games = [new_game(server.client()) for _ in range(size.games)]
        with load(server.base, games, size, folder):
            time.sleep(size.seconds / 3)
            server.kill()
            killed = time.time()
            time.sleep(1.0)
            restarted = time.time()
            server.start()
            serving = time.time()
        sent, answers = read_load(folder)
    finally:
        server.stop()
    figures = ledger_figures(db, schema, sent, games)
    figures["restart_to_serving_s"] = round(serving - restarted, 2)
    recovered = first_201_since(answers, restarted)
    figures["restart_to_first_201_s"] = round(recovered, 2) if recovered is not None else None
    figures["no_answer_while_down"] = sum(1 for a in answers if a["status"] == 0 and killed <= a["t"] <= serving + 1)
    figures["5xx"] = sum(1 for a in answers if a["status"] >= 500)  # reads too, not only moves
    return figures


def postgres_outage(postgres: str, schema: str, size: Size, folder: Path, silent: bool = False,
                    env: dict[str, str] | None = None, workers: int = 4, start: str = "spawn") -> dict[str, Any]:
    """The link to PostgreSQL cut for `size.outage` seconds under load (`silent`: dropping
    everything, refusing nothing, for `size.silent` seconds), then restored; a load
    balancer's health check asks the server every quarter second meanwhile. The load lasts
    at least twice the outage, which begins a quarter of the way in. `env`: more settings
    for the server; `workers`: its gunicorn workers; `start`: the clients' (`load`)."""
    outage = size.silent if silent else size.outage
    size = replace(size, seconds=max(size.seconds, 2 * outage))
    host, port = postgres_address(postgres)
    proxy = CuttableProxy((host, port))
    health = HealthChecks()
    try:
        through_proxy = postgres.replace(f"{host}:{port}", f"127.0.0.1:{proxy.port}", 1)
        server = LiveServer(through_proxy, schema, workers=workers, env=env, log_path=folder / "gunicorn-outage.log").start()
        try:
            games = [new_game(server.client()) for _ in range(size.games)]
            with health.asking(server.base), load(server.base, games, size, folder, start):
                time.sleep(size.seconds / 4)
                proxy.blackhole() if silent else proxy.cut()
                cut = time.time()
                time.sleep(outage)
                proxy.restore()
                restored = time.time()
                health.until_healthy_since(restored)
            sent, answers = read_load(folder)
            log = server.log()
        finally:
            server.stop()
    finally:
        proxy.cut()
    figures = ledger_figures(postgres, schema, sent, games)
    # Requests in flight at any moment while the link was cut, whenever their answer came.
    during = [a for a in answers if a["t"] - a["took"] <= restored and a["t"] >= cut]
    checks = [a for a in health.answers if a["t"] - a["took"] <= restored and a["t"] >= cut]
    errors = [a for a in answers if a["status"] >= 500]
    recovered = first_201_since(answers, restored)
    healthy = [a["t"] - restored for a in health.answers if a["status"] == 200 and a["t"] - a["took"] >= restored]
    limit = answer_limit(env)
    figures.update({
        "outage_s": outage,
        "silent": silent,
        "requests_during_outage": len(during),
        "longest_wait_during_outage_s": round(max((a["took"] for a in during), default=0.0), 2),
        "limit_s": limit,
        "answers_over_limit": sum(1 for a in [*during, *checks] if a["took"] > limit + LIMIT_MARGIN),
        "503_during_outage": sum(1 for a in during if a["status"] == 503),
        "503_well_formed": sum(1 for a in errors if a["status"] == 503 and a["well_formed"]),
        "500_or_other_5xx": sum(1 for a in errors if a["status"] != 503),
        "5xx_not_a_problem_document": sum(1 for a in errors if not a["well_formed"]),
        "no_answer_during_outage": sum(1 for a in during if a["status"] == 0),
        "health_checks_during_outage": len(checks),
        "health_503_during_outage": sum(1 for a in checks if a["status"] == 503 and a["well_formed"]),
        "longest_health_check_during_outage_s": round(max((a["took"] for a in checks), default=0.0), 2),
        "restore_to_healthy_s": round(min(healthy), 2) if healthy else None,
        "restore_to_first_201_s": round(recovered, 2) if recovered is not None else None,
        "tracebacks_in_server_log": log.count("Traceback"),
    })
    return figures


LIMIT_MARGIN = 2.0
"""Seconds an answer may come after the documented limit on this shared 2-core machine
(client, server and PostgreSQL on the same cores) before it counts as over the limit."""


def answer_limit(env: dict[str, str] | None) -> float:
    """The documented limit of a request's waits on the database (docs/deployment.md):
    `CABOOSE_DB_REQUEST_TIMEOUT`, and libpq's shortest connect timeout for a connection
    begun near its end."""
    settings = {**os.environ, **(env or {})}
    return float(settings.get("CABOOSE_DB_REQUEST_TIMEOUT", "5")) + CONNECT_FLOOR


class HealthChecks:
    """`GET /api/v1/health` every quarter second on a thread, as a load balancer checks."""

    def __init__(self) -> None:
        self.answers: list[dict[str, Any]] = []
        self._stop = threading.Event()

    @contextmanager
    def asking(self, base: str) -> Iterator[None]:
        thread = threading.Thread(target=self._ask, args=(Client(base, timeout=30),), daemon=True)
        thread.start()
        try:
            yield
        finally:
            self._stop.set()
            thread.join(timeout=WAIT_LIMIT)

    def until_healthy_since(self, moment: float) -> None:
        """Return once a check asked after `moment` was answered 200 (or WAIT_LIMIT passed)."""
        deadline = time.time() + WAIT_LIMIT
        while time.time() < deadline and not any(a["status"] == 200 and a["t"] - a["took"] >= moment for a in self.answers):
            time.sleep(0.05)

    def _ask(self, client: Client) -> None:
        while not self._stop.wait(0.25):
            started = time.time()
            try:
                reply: Reply | None = client.get("/api/v1/health")
            except (OSError, HTTPException):
                reply = None
            self.answers.append({"t": time.time(), "took": time.time() - started, "status": reply.status if reply else 0,
                                 "well_formed": well_formed(reply) if reply and reply.status >= 500 else None})


def postgres_address(url: str) -> tuple[str, int]:
    parsed = urlparse(url)
    return parsed.hostname or "127.0.0.1", parsed.port or 5432


def caboose_cli() -> list[str]:
    """The `caboose` command installed beside this Python."""
    return [str(Path(sys.executable).parent / "caboose")]


def wait_for(condition: Any, what: str) -> None:
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > WAIT_LIMIT:
            raise TimeoutError(f"gave up waiting for {what} after {WAIT_LIMIT} s")
        time.sleep(0.05)


def simulate_kill(db: str, schema: str | None, size: Size, env: dict[str, str]) -> dict[str, Any]:
    """kill -9 of `caboose simulate` once it has stored a few hundred events."""
    subprocess.run([*caboose_cli(), "db", "upgrade", "--db", db], env=env, cwd=ROOT, check=True, capture_output=True, timeout=120)
    app = Caboose(Settings(db=db, schema=schema))
    try:
        process = subprocess.Popen([*caboose_cli(), "simulate", "ticket_to_ride", "--games", str(size.simulated),
                                    "--players", "3", "--no-check", "--db", db], env=env, cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            wait_for(lambda: len(app.game_ids()) > size.simulated // 2 or process.poll() is not None, "the simulation to store games")
        finally:
            finished_first = process.poll() is not None
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
        games = app.game_ids()
        audited = [app.audit(g).ok for g in games]
        finished = sum(1 for g in games if app.summary(g)["status"] == "finished")
        return {"games_stored": len(games), "finished": finished, "games_audit_ok": sum(audited),
                "killed_mid_work": not finished_first, "events": log_end(app)}
    finally:
        app.close()


def runner_kill(db: str, schema: str | None, env: dict[str, str], rebuilt_read_db: str) -> dict[str, Any]:
    """kill -9 of `caboose projections follow` mid-work; `follow --once` resumes it; the read
    models then equal a rebuild from zero into another database."""
    app = Caboose(Settings(db=db, schema=schema))
    read_db = read_db_url(db, schema, env={})
    store = ReadStore(read_db)
    try:
        end = log_end(app)
        process = subprocess.Popen([*caboose_cli(), "projections", "follow", "--poll", "--batch", "5", "--interval", "0.01",
                                    "--db", db, "--read-db", read_db], env=env, cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            wait_for(lambda: (store.max_tracking_id(app.name) or 0) >= min(50, end // 3) or process.poll() is not None,
                     "the runner to start")
        finally:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
        at_kill = store.max_tracking_id(app.name) or 0
        resumed = subprocess.run([*caboose_cli(), "projections", "follow", "--once", "--db", db, "--read-db", read_db],
                                 env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
        subprocess.run([*caboose_cli(), "db", "upgrade", "--db", db, "--read-db", rebuilt_read_db], env=env, cwd=ROOT,
                       check=True, capture_output=True, timeout=120)
        rebuilt = subprocess.run([*caboose_cli(), "projections", "rebuild", "--db", db, "--read-db", rebuilt_read_db],
                                 env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
        fresh = ReadStore(rebuilt_read_db)
        try:
            games = app.game_ids()
            equal = sum(1 for g in games if store.rows_of(g) == fresh.rows_of(g))
        finally:
            fresh.close()
        return {"log_end": end, "tracked_at_kill": at_kill, "killed_mid_work": 0 < at_kill < end,
                "resumed_ok": resumed.returncode == 0, "rebuild_ok": rebuilt.returncode == 0,
                "tracked_after_resume": store.max_tracking_id(app.name) or 0,
                "games": len(games), "games_equal_to_rebuild": equal,
                **({"resume_error": resumed.stderr[-500:]} if resumed.returncode else {})}
    finally:
        store.close()
        app.close()


def secret_attacks(db: str, schema: str | None, folder: Path, env: dict[str, str]) -> dict[str, Any]:
    """The fork and stream attacks against the deployed server (several workers: a stream, a
    hand-back and a move may each land on another), with a bot runner of its own."""
    # A stream whose client left is noticed at its next heartbeat: soon, so the attacks' many
    # short reads do not hold every stream a worker may keep.
    server = LiveServer(db, schema, env={"CABOOSE_STREAM_HEARTBEAT": "1"}, log_path=folder / "gunicorn-attacks.log").start()
    bots = subprocess.Popen([*caboose_cli(), "bots", "run", "--interval", "0.05", "--db", db],
                            env={**env, **({"CABOOSE_DB_SCHEMA": schema} if schema else {})}, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        fork = fork_attack(server.client(), random.Random(35)).to_json()
        stream = stream_attack(server.client(), random.Random(36)).to_json()
        log = server.log()
    finally:
        os.killpg(bots.pid, signal.SIGKILL)
        bots.wait(timeout=30)
        server.stop()
    return {"fork": fork, "stream": stream, "tracebacks_in_server_log": log.count("Traceback")}


# -- the run ---------------------------------------------------------------------------------------

def new_schema(postgres: str, prefix: str) -> str:
    schema = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(postgres, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return schema


def drop_schemas(postgres: str, schemas: list[str]) -> None:
    with psycopg.connect(postgres, autocommit=True, connect_timeout=5) as conn:
        for schema in schemas:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def timed(fault: Any, *args: Any) -> dict[str, Any]:
    """One fault's figures and how long it took; a fault that could not be run says why."""
    started = time.monotonic()
    try:
        figures = fault(*args)
    except Exception as error:  # a broken fault is reported with the others, not lost
        figures = {"error": f"{type(error).__name__}: {error}"}
    return {**figures, "seconds": round(time.monotonic() - started, 1)}


def run(size: Size, postgres: str, keep: bool = False) -> dict[str, Any]:
    report: dict[str, Any] = {}
    base_env = {**os.environ, "PYTHONPATH": str(ROOT)}
    schemas: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="caboose-faults-"))
    try:
        def phase(name: str) -> Path:
            path = folder / name
            path.mkdir()
            return path

        sqlite = f"sqlite:///{folder}/faults.sqlite"
        sqlite_cli = f"sqlite:///{folder}/simulated.sqlite"
        report["sqlite"] = {
            "server_kill": timed(server_kill, sqlite, None, size, phase("sqlite-kill")),
            "simulate_kill": timed(simulate_kill, sqlite_cli, None, size, base_env),
            "runner_kill": timed(runner_kill, sqlite_cli, None, base_env, f"sqlite:///{folder}/rebuilt.projections.sqlite"),
            "bot_keys": timed(bot_key_attack.attack, f"sqlite:///{folder}/bot-keys.sqlite", None, phase("sqlite-bot-keys"), base_env),
            "attacks": timed(secret_attacks, f"sqlite:///{folder}/attacks.sqlite", None, phase("sqlite-attacks"), base_env),
        }
        try:
            for what in ("kill", "outage", "silent", "cli", "rebuilt", "botkeys", "attacks"):
                schemas.append(new_schema(postgres, f"caboose_faults_{what}"))
            kill_schema, outage_schema, silent_schema, cli_schema, rebuilt_schema, bot_keys_schema, attacks_schema = schemas
            pg_env = {**base_env, "CABOOSE_DB_SCHEMA": cli_schema}
            report["postgresql"] = {
                "server_kill": timed(server_kill, postgres, kill_schema, size, phase("pg-kill")),
                "outage": timed(postgres_outage, postgres, outage_schema, size, phase("pg-outage")),
                "silent_outage": timed(postgres_outage, postgres, silent_schema, size, phase("pg-silent"), True),
                "simulate_kill": timed(simulate_kill, postgres, cli_schema, size, pg_env),
                "runner_kill": timed(runner_kill, postgres, cli_schema, pg_env, f"{postgres}?schema={rebuilt_schema}"),
                "bot_keys": timed(bot_key_attack.attack, postgres, bot_keys_schema, phase("pg-bot-keys"),
                                  {**base_env, "CABOOSE_DB_SCHEMA": bot_keys_schema}),
                "attacks": timed(secret_attacks, postgres, attacks_schema, phase("pg-attacks"), base_env),
            }
        finally:
            drop_schemas(postgres, schemas)
    finally:
        if keep:
            report["kept"] = str(folder)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return report


MUST_BE_ZERO = ("acknowledged_but_missing", "acknowledged_to_several", "stored_without_2xx", "duplicate_versions")


def failures(report: dict[str, Any]) -> list[str]:
    found = []
    for store, faults in report.items():
        for fault, figures in faults.items():
            where = f"{store} {fault}"
            if "error" in figures:
                found.append(f"{where}: could not be run: {figures['error']}")
                continue
            found += [f"{where}: {k} = {figures[k]}" for k in MUST_BE_ZERO if figures.get(k)]
            if fault == "server_kill" and figures["5xx"]:
                found.append(f"{where}: {figures['5xx']} answers were 5xx")
            if fault in ("outage", "silent_outage"):
                found += [f"{where}: {problem}" for problem in outage_failures(figures)]
            if fault == "server_kill" and not figures["moves_stored"]:
                found.append(f"{where}: no move was stored: the load never ran")
            if fault in ("simulate_kill", "runner_kill") and not figures["killed_mid_work"]:
                found.append(f"{where}: the kill did not land mid-work")
            if "games_audit_ok" in figures and figures["games_audit_ok"] != figures.get("games", figures.get("games_stored")):
                found.append(f"{where}: only {figures['games_audit_ok']} games audit OK")
            if fault == "bot_keys":
                found += bot_key_attack.failures(where, figures)
            if fault == "runner_kill" and (figures["games_equal_to_rebuild"] != figures["games"] or not figures["resumed_ok"]):
                found.append(f"{where}: {figures['games_equal_to_rebuild']} of {figures['games']} games equal a rebuild")
            if fault == "attacks":
                found += attack_failures(where, figures)
    return found


def attack_failures(where: str, figures: dict[str, Any]) -> list[str]:
    fork, stream = figures["fork"], figures["stream"]
    found = [f"{where}: {kind} attack read {f['leak_count']} hidden cards, e.g. {f['leaks'][:3]}"
             for kind, f in (("fork", fork), ("stream", stream)) if f["leak_count"]]
    if not fork["control_finds_hidden_cards"]:
        found.append(f"{where}: the fork attack's detector found nothing even as the fork's referee: it proves nothing")
    if fork["prediction_right"]:
        found.append(f"{where}: the original's next draw was predicted from its fork")
    if not stream["old_stream_ended"]:
        found.append(f"{where}: the old token's stream did not end after the hand-back")
    if figures["tracebacks_in_server_log"]:
        found.append(f"{where}: {figures['tracebacks_in_server_log']} tracebacks in the server log")
    return found


def outage_failures(figures: dict[str, Any]) -> list[str]:
    """The promises an outage's figures break (`postgres_outage`): every answer a problem
    document, a 503 with Retry-After while the database is away, every request and health
    check answered within the documented limit, and moves stored again once it is back."""
    found = []
    if figures["500_or_other_5xx"] or figures["5xx_not_a_problem_document"]:
        found.append(f"{figures['500_or_other_5xx']} 5xx other than 503, "
                     f"{figures['5xx_not_a_problem_document']} 5xx without a problem document")
    if not figures["503_during_outage"]:
        found.append(f"no 503 while PostgreSQL was unreachable (the longest wait for an answer was "
                     f"{figures['longest_wait_during_outage_s']} s)")
    if figures["answers_over_limit"] or figures["no_answer_during_outage"]:
        found.append(f"{figures['answers_over_limit']} answers came later than the documented {figures['limit_s']} s "
                     f"(and {LIMIT_MARGIN} s more), {figures['no_answer_during_outage']} none within the client's 10 s: the "
                     f"longest took {figures['longest_wait_during_outage_s']} s, the longest health check "
                     f"{figures['longest_health_check_during_outage_s']} s")
    if not figures["health_503_during_outage"]:
        found.append(f"no health check answered 503 while PostgreSQL was unreachable ({figures['health_checks_during_outage']} asked)")
    if not figures["moves_stored"]:
        found.append("no move was stored: the load never ran")
    if figures["restore_to_first_201_s"] is None or figures["restore_to_healthy_s"] is None:
        found.append("no move was stored, or no health check answered 200, after PostgreSQL came back")
    return found


OUTAGE_ROWS = [
    ("seconds unreachable", "outage_s"), ("requests sent", "requests"), ("201s", "201s"), ("moves stored", "moves_stored"),
    ("acknowledged but missing", "acknowledged_but_missing"), ("one move acknowledged to several", "acknowledged_to_several"),
    ("stored without 2xx", "stored_without_2xx"), ("duplicate versions", "duplicate_versions"),
    ("503s during the outage", "503_during_outage"), ("503s well formed", "503_well_formed"),
    ("500s / other 5xx", "500_or_other_5xx"), ("5xx without problem doc", "5xx_not_a_problem_document"),
    ("requests in flight during the outage", "requests_during_outage"), ("no answer within 10 s", "no_answer_during_outage"),
    ("longest wait for an answer (s)", "longest_wait_during_outage_s"), ("documented limit (s)", "limit_s"),
    ("answers over the limit", "answers_over_limit"),
    ("health checks asked", "health_checks_during_outage"), ("health checks answered 503", "health_503_during_outage"),
    ("longest health check (s)", "longest_health_check_during_outage_s"),
    ("restore to healthy (s)", "restore_to_healthy_s"), ("restore to first 201 (s)", "restore_to_first_201_s"),
    ("games audit OK", "games_audit_ok"),
]
"""What the table shows of each outage, cut and silent."""


def table(report: dict[str, Any]) -> str:
    rows = [
        ("move requests sent (retries included)", "server_kill", "requests"), ("201s", "server_kill", "201s"),
        ("moves stored", "server_kill", "moves_stored"), ("acknowledged but missing", "server_kill", "acknowledged_but_missing"),
        ("one move acknowledged to several", "server_kill", "acknowledged_to_several"),
        ("stored without 2xx", "server_kill", "stored_without_2xx"), ("duplicate versions", "server_kill", "duplicate_versions"),
        ("5xx", "server_kill", "5xx"), ("restart to serving (s)", "server_kill", "restart_to_serving_s"),
        ("restart to first 201 (s)", "server_kill", "restart_to_first_201_s"),
        ("no answer while the server was down", "server_kill", "no_answer_while_down"),
        ("games audit OK after kill -9", "server_kill", "games_audit_ok"), ("games", "server_kill", "games"),
        *((f"outage: {label}", "outage", key) for label, key in OUTAGE_ROWS),
        *((f"silent outage: {label}", "silent_outage", key) for label, key in OUTAGE_ROWS),
        ("simulate kill -9: games audit OK", "simulate_kill", "games_audit_ok"),
        ("simulate kill -9: games stored", "simulate_kill", "games_stored"),
        ("runner kill -9: games equal to rebuild", "runner_kill", "games_equal_to_rebuild"),
        ("runner kill -9: games", "runner_kill", "games"),
        ("runner kill -9: tracked at kill / log end", "runner_kill", "tracked_at_kill"),
        ("bot keys: moves under a bot's key stored", "bot_keys", "attack_2xx"),
        ("bot keys: of them refused (400)", "bot_keys", "attack_refused_400"),
        ("bot keys: planted keys met / planted", "bot_keys", "planted_keys_met"),
        ("bot keys: bot moves", "bot_keys", "bot_moves"), ("bot keys: game played out", "bot_keys", "game_finished"),
        ("bot keys: tracebacks in the runner's log", "bot_keys", "runner_tracebacks"),
        ("fork attack: hidden cards read", "attacks", ("fork", "leak_count")),
        ("fork attack: requests tried", "attacks", ("fork", "requests_tried")),
        ("fork attack: next draw predicted", "attacks", ("fork", "prediction_right")),
        ("stream attack: frames after the hand-back", "attacks", ("stream", "frames_after_hand_back")),
        ("stream attack: old stream ended", "attacks", ("stream", "old_stream_ended")),
    ]
    stores = list(report)
    lines = [f"{'':46}" + "".join(f"{s:>12}" for s in stores)]
    for label, fault, key in rows:
        cells = [cell(report[s].get(fault, {}), key) for s in stores]
        lines.append(f"{label:46}" + "".join(f"{'n/a' if c is None else str(c):>12}" for c in cells))
    return "\n".join(lines)


def cell(figures: dict[str, Any], key: str | tuple[str, str]) -> Any:
    if isinstance(key, tuple):
        return figures.get(key[0], {}).get(key[1], "n/a")
    return figures.get(key, "n/a")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", default=os.environ.get("CABOOSE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--quick", action="store_true", help="A short run (about a minute and a half).")
    parser.add_argument("--json", action="store_true", help="Print the report as JSON.")
    parser.add_argument("--keep", action="store_true", help="Keep the databases, server logs and client logs.")
    args = parser.parse_args()
    size = QUICK if args.quick else FULL
    report = run(size, args.postgres, args.keep)
    kept = report.pop("kept", None)
    found = failures(report)
    if args.json:
        print(json.dumps({"size": size.__dict__, "report": report, "failures": found}, indent=2))
    else:
        print(table(report))
        print("\n".join(["", "FAILED:", *found] if found else ["", "all promises kept"]))
    if kept:
        print(f"kept in {kept}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
