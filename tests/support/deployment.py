"""The multi-process deployment, started as an operator starts it: `infra/run` (supervisord
running HAProxy in front of N API processes, the projection runner, the notifier, the bot
runner) on a PostgreSQL schema and Redis, on loopback ports; for the deployment's tests and
its load benchmark (benchmarks/load_deploy.py).

    with Deployment(POSTGRES_URL, schema, api_processes=2) as deployment:
        deployment.client().get("/api/v1/health")

`stop()` is what Ctrl-C does (SIGTERM to supervisord, which stops every process), then a
kill -9 of any of the deployment's processes left.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from types import TracebackType
from typing import Self

from projections.runner import log_end
from projections.store import ReadStore, read_db_url
from service.application import Caboose
from service.settings import Settings
from tests.support.http import Client
from tests.support.ports import free_ports

ROOT = Path(__file__).resolve().parents[2]
BOOT_SECONDS = 90.0
"""How long the deployment may take to make its tables and answer through every API process."""


class DeploymentDidNotStart(RuntimeError):
    pass


class Deployment:
    def __init__(self, db: str, schema: str, api_processes: int, redis: str | None = None,
                 env: dict[str, str] | None = None, log_path: Path | None = None) -> None:
        self.db, self.schema, self.api_processes = db, schema, api_processes
        self.port = free_ports(api_processes + 1)
        self.base = f"http://127.0.0.1:{self.port}"
        self.backends = [f"http://127.0.0.1:{p}" for p in range(self.port + 1, self.port + 1 + api_processes)]
        self.log_path = log_path or Path(tempfile.mkstemp(prefix="caboose-deploy-", suffix=".log")[1])
        self.run_dir = Path(tempfile.mkdtemp(prefix="caboose-run-"))
        self.env = {
            **os.environ, "CABOOSE_DB": db, "CABOOSE_DB_SCHEMA": schema,
            "CABOOSE_REDIS": redis or os.environ.get("CABOOSE_TEST_REDIS", "redis://127.0.0.1:6379/0"),
            "CABOOSE_API_PROCESSES": str(api_processes), "CABOOSE_PORT": str(self.port),
            # The load under test is the store's and the processes', not the rate limiter's;
            # the counts still go through Redis, under a prefix of this run's own.
            "CABOOSE_RATE_LIMIT": "100000000/60", "CABOOSE_RATE_LIMIT_PREFIX": f"caboose-deploy-{uuid.uuid4().hex[:8]}",
            "CABOOSE_ACCESS_LOG": "", "CABOOSE_RUN_DIR": str(self.run_dir),
            **(env or {}),
        }
        self.env.pop("CABOOSE_READ_DB", None)
        self.process: subprocess.Popen[bytes] | None = None

    def client(self, timeout: float = 30.0) -> Client:
        return Client(self.base, timeout)

    def start(self) -> Self:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen([sys.executable, str(ROOT / "infra" / "run")], env=self.env, cwd=ROOT,
                                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.wait_until_serving()
        return self

    def wait_until_serving(self) -> float:
        """Seconds until every API process and the entry answered their health check."""
        started = time.monotonic()
        waiting = [*self.backends, self.base]
        while waiting:
            if self.process is None or self.process.poll() is not None:
                raise DeploymentDidNotStart(f"infra/run exited:\n{self.log()[-4000:]}")
            if time.monotonic() - started > BOOT_SECONDS:
                self.stop()
                raise DeploymentDidNotStart(f"not every process answered within {BOOT_SECONDS} s ({waiting}):\n{self.log()[-4000:]}")
            try:
                if Client(waiting[0], timeout=2).get("/api/v1/health").status == 200:
                    waiting.pop(0)
                    continue
            except OSError:
                pass
            time.sleep(0.1)
        return time.monotonic() - started

    def stop(self) -> None:
        if self.process is None:
            return
        started = {pid: started_at(pid) for pid in self.processes()}
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=40)
        # Whatever supervisord left behind (it was killed, or a process ignored SIGTERM): only a
        # process that is still the one started (same start time), never a reused pid.
        for pid, since in started.items():
            if started_at(pid) == since:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        self.process = None
        shutil.rmtree(self.run_dir, ignore_errors=True)

    def processes(self) -> dict[int, tuple[str, float]]:
        """The deployment's live processes (supervisord and all below it): pid → (role, CPU
        seconds used so far, user + system)."""
        if self.process is None:
            return {}
        tick = os.sysconf("SC_CLK_TCK")
        found: dict[int, tuple[int, str, float]] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
                cmdline = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue  # exited meanwhile
            found[int(stat.parent.name)] = (int(fields[1]), cmdline, (int(fields[11]) + int(fields[12])) / tick)
        ours, grew = {self.process.pid}, True
        while grew:
            below = {pid for pid, (parent, _, _) in found.items() if parent in ours} - ours
            ours |= below
            grew = bool(below)
        return {pid: (role(found[pid][1]), found[pid][2]) for pid in ours if pid in found}

    def cpu_seconds(self) -> dict[str, float]:
        """CPU seconds used so far by the deployment's live processes, by role. PostgreSQL and
        Redis are shared servers outside the deployment and not counted."""
        used: dict[str, float] = {}
        for name, seconds in self.processes().values():
            used[name] = round(used.get(name, 0.0) + seconds, 2)
        return used

    def pid(self, program: str) -> int | None:
        """The pid supervisord gives for one of its programs (`haproxy`, `api-1`, `notify`…);
        None while it is not running."""
        asked = subprocess.run([str(Path(sys.executable).parent / "supervisorctl"), "-c", str(self.run_dir / "supervisord.conf"),
                                "pid", program], capture_output=True, text=True, timeout=30)
        text = asked.stdout.strip()
        return int(text) if text.isdigit() and int(text) > 0 else None

    def kill(self, program: str) -> int:
        """kill -9 of one program and everything it started (a gunicorn master and its
        workers: supervisord starts each program in a process group of its own); its pid."""
        pid = self.pid(program)
        if pid is None:
            raise AssertionError(f"{program} is not running:\n{self.log()[-3000:]}")
        os.killpg(pid, signal.SIGKILL)
        return pid

    def back(self, program: str, killed: int, limit: float = BOOT_SECONDS) -> int:
        """The pid of `program` once supervisord has started it again after `killed`."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            pid = self.pid(program)
            if pid is not None and pid != killed:
                return pid
            time.sleep(0.2)
        raise AssertionError(f"{program} was not started again within {limit} s:\n{self.log()[-3000:]}")

    def supervise(self, *command: str) -> str:
        """supervisorctl's answer to `command` (`stop api-1`, `start api-1`, `status`…)."""
        asked = subprocess.run([str(Path(sys.executable).parent / "supervisorctl"), "-c", str(self.run_dir / "supervisord.conf"),
                                *command], capture_output=True, text=True, timeout=90)
        return asked.stdout

    def server_status(self, server: str) -> str:
        """What HAProxy says of one API process (`api-1`…): UP, DOWN, NOLB, MAINT, or
        "UP 1/2" and the like while a check is changing its mind (its stats socket)."""
        with socket.socket(socket.AF_UNIX) as control:
            control.settimeout(10)
            control.connect(str(self.run_dir / "haproxy.sock"))
            control.sendall(b"show stat\n")
            answer = b""
            while chunk := control.recv(65536):
                answer += chunk
        header, *rows = answer.decode().splitlines()
        columns = header.lstrip("# ").split(",")
        for row in rows:
            fields = dict(zip(columns, row.split(","), strict=False))
            if fields.get("pxname") == "api" and fields.get("svname") == server:
                return fields["status"]
        raise AssertionError(f"HAProxy has no server {server}: {answer.decode()}")

    def until_status(self, server: str, status: str, limit: float = BOOT_SECONDS) -> None:
        deadline = time.monotonic() + limit
        while (now := self.server_status(server)) != status:
            if time.monotonic() > deadline:
                raise AssertionError(f"HAProxy still says {server} is {now}, not {status}, after {limit} s")
            time.sleep(0.2)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *_: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.stop()


def started_at(pid: int) -> int | None:
    """A process's start time (clock ticks since boot), which tells it from a later one with
    the same pid; None once it has gone."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def role(cmdline: str) -> str:
    """Which of the deployment's processes a command line is."""
    for word, name in (("supervisord", "supervisor"), ("gunicorn", "api"), ("haproxy", "haproxy"), ("projections", "projections"),
                       ("notify", "notify"), ("bots", "bots")):
        if word in cmdline:
            return name
    return "other"


def projection_lag(db: str, schema: str, limit: float = 120.0) -> dict[str, float | int | bool]:
    """From now (the load has stopped), seconds until the deployment's projection runner has
    followed the whole log, and whether every game's index entry is at its stored version."""
    app = Caboose(Settings(db=db, schema=schema))
    store = ReadStore(read_db_url(db, schema, env={}))
    try:
        started, end = time.monotonic(), log_end(app)
        behind_at_stop = end - (store.max_tracking_id(app.name) or 0)
        while (store.max_tracking_id(app.name) or 0) < end and time.monotonic() - started < limit:
            time.sleep(0.02)
        lag = time.monotonic() - started
        tracked = store.max_tracking_id(app.name) or 0
        games = app.game_ids()
        indexed = {entry["game_id"]: entry["version"] for entry in store.games(limit=len(games) + 1)}
        at_version = sum(1 for g in games if indexed.get(g) == len(app.records(g)))
        return {"log_end": end, "behind_at_stop": behind_at_stop, "lag_s": round(lag, 3), "caught_up": tracked >= end,
                "games": len(games), "games_indexed_at_their_version": at_version}
    finally:
        store.close()
        app.close()
