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
    context = multiprocessing.get_context("fork")
    failures = context.Queue()
    for attempt in range(12):
        start = context.Barrier(PROCESSES)
        processes = [context.Process(target=_open, args=(str(tmp_path / f"new{attempt}.sqlite"), start, failures))
                     for _ in range(PROCESSES)]
        for process in processes:
            process.start()
        for process in processes:
            process.join(60)
    found = []
    while not failures.empty():
        found.append(failures.get())
    assert found == []
