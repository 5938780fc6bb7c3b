"""A real multi-worker server: gunicorn (several workers, threads) from infra/gunicorn.conf.py
on a loopback port, in front of a SQLite file or a PostgreSQL schema.

The tables are made once by `caboose db upgrade` before gunicorn starts, as a deployment
does. The server runs in its own process
group: `kill()` is a kill -9 of the master and every worker at once, as a crash or a power
cut would leave them; `start()` again serves the same store on the same port.

    with LiveServer("sqlite:///tmp/x.sqlite") as server:
        server.client().get("/api/v1/games")
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Self

from tests.support.http import Client
from tests.support.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
BOOT_SECONDS = 60.0
"""How long a server may take to answer its first request before it counts as not starting."""


class ServerDidNotStart(RuntimeError):
    pass


class LiveServer:
    def __init__(self, db: str, schema: str | None = None, workers: int = 4, threads: int = 4,
                 env: dict[str, str] | None = None, log_path: Path | None = None) -> None:
        self.db, self.schema, self.workers, self.threads = db, schema, workers, threads
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path or Path(tempfile.mkstemp(prefix="caboose-gunicorn-", suffix=".log")[1])
        self.env = {
            **os.environ, "PYTHONPATH": str(ROOT), "CABOOSE_DB": db, "CABOOSE_BIND": f"127.0.0.1:{self.port}",
            "CABOOSE_WORKERS": str(workers), "CABOOSE_THREADS": str(threads),
            # The concurrency under test is the store's, not the rate limiter's.
            "CABOOSE_RATE_LIMIT": "100000000/60",
            # No access log: a line formatted for every request, even one written to /dev/null,
            # was a sixth of gunicorn's own time per request.
            "CABOOSE_ACCESS_LOG": "",
            **({"CABOOSE_DB_SCHEMA": schema} if schema else {}), **(env or {}),
        }
        self.process: subprocess.Popen[bytes] | None = None
        self._tables_made = False

    def client(self, timeout: float = 30.0) -> Client:
        return Client(self.base, timeout)

    def create_tables(self) -> None:
        """Every table the service uses, made once by `caboose db upgrade` before any worker
        starts, as a deployment does."""
        done = subprocess.run([str(Path(sys.executable).parent / "caboose"), "db", "upgrade"],
                              env=self.env, cwd=ROOT, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise ServerDidNotStart(f"`caboose db upgrade` failed:\n{done.stderr[-3000:]}")
        self._tables_made = True

    def start(self) -> Self:
        if not self._tables_made:
            self.create_tables()
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "infra" / "gunicorn.conf.py"), "service.wsgi:app"],
                env=self.env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
        self.wait_until_serving()
        return self

    def wait_until_serving(self) -> float:
        """Seconds until the server answered; raises if it exits or takes too long."""
        started = time.monotonic()
        probe = self.client(timeout=2)
        while time.monotonic() - started < BOOT_SECONDS:
            if self.process is None or self.process.poll() is not None:
                raise ServerDidNotStart(f"gunicorn exited:\n{self.log()[-3000:]}")
            try:
                if probe.get("/api/v1/openapi.json").status == 200:
                    return time.monotonic() - started
            except OSError:
                pass
            time.sleep(0.05)
        self.kill()
        raise ServerDidNotStart(f"gunicorn did not answer within {BOOT_SECONDS} s:\n{self.log()[-3000:]}")

    def stop(self) -> None:
        """A graceful stop (SIGTERM: workers finish their requests), else kill -9."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                self.kill()
        self._reap()

    def kill(self) -> None:
        """kill -9 of the master and all its workers at once."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self._reap()

    def _reap(self) -> None:
        # Workers orphaned by a killed master are in the same process group.
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        self.process = None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *_: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.stop()
