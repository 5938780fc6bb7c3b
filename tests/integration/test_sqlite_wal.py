"""Several processes opening a new embedded database together (gunicorn's workers, CLI
commands started at once): each one's switch to WAL waits its turn instead of failing with
"database is locked"."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

from sqlalchemy import text

from service.db import make_engine
from service.settings import DatabaseTimeouts

PROCESSES = 8


def _open(path: str, start: Any, failures: Any) -> None:
    engine = make_engine(f"sqlite:///{path}", timeouts=DatabaseTimeouts(busy=10))
    start.wait()
    try:
        with engine.connect() as connection:
            mode = connection.execute(text("PRAGMA journal_mode")).scalar()
            if mode != "wal":
                failures.put(f"journal mode {mode}")
    except Exception as error:
        failures.put(repr(error))


def test_processes_opening_a_new_file_together_all_get_wal(tmp_path: Path) -> None:
    # Forked from a fresh single-threaded server, not from this test process: earlier tests
    # leave threads running here (stream feeds, runners), and a fork taken while one of them
    # held a lock leaves the child stuck on it for good.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["service.db"])
    failures = context.Queue()
    stuck = []
    for attempt in range(12):
        start = context.Barrier(PROCESSES)
        processes = [context.Process(target=_open, args=(str(tmp_path / f"new{attempt}.sqlite"), start, failures), daemon=True)
                     for _ in range(PROCESSES)]
        for process in processes:
            process.start()
        for process in processes:
            process.join(60)
            if process.is_alive():
                stuck.append(f"attempt {attempt}: a process still opening after 60 s")
                process.kill()
    found = []
    while not failures.empty():
        found.append(failures.get())
    assert found == [] and stuck == []
