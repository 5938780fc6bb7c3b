"""`caboose serve` started as the README's run command starts it: the installed console
script, on the embedded SQLite store, its notifier and bot runner in the same process, on a
loopback port. What it prints (the lobby's address, the demo's links) is kept for the test."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import Self

from tests.support.http import Client
from tests.support.live_server import free_port

CABOOSE = Path(sys.executable).parent / "caboose"
ROOT = Path(__file__).resolve().parents[2]
BOOT_SECONDS = 240.0
"""`--demo` plays eight bots' games before the server answers: about half a minute alone."""


class Served:
    """`caboose serve [--demo]` in a process of its own, until the `with` block ends."""

    def __init__(self, folder: Path, demo: bool = False, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.db = f"sqlite:///{folder}/caboose.sqlite"
        self.log_path = folder / "serve.log"
        self.args = [str(CABOOSE), "serve", "--port", str(self.port), "--db", self.db, *(["--demo"] if demo else [])]
        self.env = {**{k: v for k, v in os.environ.items() if not k.startswith("CABOOSE_")}, **(env or {})}
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Self:
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(self.args, env=self.env, cwd=self.log_path.parent, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        started, probe = time.monotonic(), Client(self.base, timeout=5)
        while time.monotonic() - started < BOOT_SECONDS:
            if self.process.poll() is not None:
                raise RuntimeError(f"caboose serve exited:\n{self.output()[-3000:]}")
            try:
                if probe.get("/api/v1/health").status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"caboose serve did not answer within {BOOT_SECONDS} s:\n{self.output()[-3000:]}")

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.stop()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)

    def client(self, timeout: float = 30.0) -> Client:
        return Client(self.base, timeout)

    def output(self) -> str:
        """Everything the server printed so far (stdout and stderr)."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")
