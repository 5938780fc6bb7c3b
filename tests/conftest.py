"""Shared fixtures: the `race` fake ruleset and the `pebbles` toy game, stores on SQLite and
PostgreSQL; how the tests are shared among parallel workers; and the suite's own time,
printed at its end (CI shows it)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

if os.environ.get("PYTHONDONTWRITEBYTECODE") or sys.dont_write_bytecode:
    # Where the environment forbids writing bytecode beside the sources, every process the suite
    # starts (each `caboose` command, each server, each worker) compiled the project's modules
    # again, a fifth of a second of every command's start. They keep it under pytest's own cache
    # instead, the source tree untouched, compiled once for the whole run and the next.
    _BYTECODE = Path(__file__).resolve().parent.parent / ".pytest_cache" / "bytecode"
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(_BYTECODE)
    sys.dont_write_bytecode, sys.pycache_prefix = False, str(_BYTECODE)

import json
import time
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest

from domain import games
from projections.store import read_db_url
from service.application import Caboose
from service.databases import upgrade_databases
from service.settings import Settings
from tests.fakes.lucky import LUCKY
from tests.fakes.pebbles.rules import RULES as PEBBLES
from tests.fakes.race import RACE

POSTGRES_URL = os.environ.get("CABOOSE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")

games.register(RACE)
# A game with dice and a bag, for games played at a table (`seed_source: "table"`).
games.register(LUCKY)
# The toy game, registered as domain/games.py registers a shipped game (docs/adding-a-game.md).
games.register(PEBBLES)


@pytest.fixture
def sqlite_app(tmp_path: object) -> Iterator[Caboose]:
    app = Caboose(Settings(db=f"sqlite:///{tmp_path}/caboose.sqlite", snapshot_interval=10))
    yield app
    app.close()


@contextmanager
def fresh_schema() -> Iterator[str]:
    """A fresh schema in the test PostgreSQL, upgraded as `caboose db upgrade` does, dropped
    afterwards; fails if PostgreSQL is unreachable."""
    schema = f"caboose_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    upgrade_databases(Settings(db=POSTGRES_URL, schema=schema), read_db_url(POSTGRES_URL, schema))
    try:
        yield schema
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def postgres_schema() -> Iterator[str]:
    with fresh_schema() as schema:
        yield schema


@pytest.fixture
def postgres_app(postgres_schema: str) -> Iterator[Caboose]:
    # Closed after each test: PostgreSQL allows only so many connections.
    app = Caboose(Settings(db=POSTGRES_URL, snapshot_interval=10, schema=postgres_schema))
    yield app
    app.close()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def app(request: pytest.FixtureRequest) -> Caboose:
    """The application on each real store."""
    return request.getfixturevalue(f"{request.param}_app")


_STARTED = pytest.StashKey[float]()


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[_STARTED] = time.monotonic()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """The suite's wall-clock time and how many workers ran it (pytest-xdist's `-n`), on the
    run's controlling process (workers have `workerinput`), before pytest's closing line."""
    if hasattr(config, "workerinput") or _STARTED not in config.stash:
        return
    seconds = time.monotonic() - config.stash[_STARTED]
    workers = getattr(config.option, "numprocesses", None) or 0
    where = f"{workers} parallel workers" if workers else "one process"
    terminalreporter.write_line(f"the test suite took {seconds / 60:.1f} min ({seconds:.0f} s) on {where}, {os.cpu_count()} cores")


SERVERS_ON_POSTGRES = "servers on PostgreSQL"
"""The modules whose servers hold many PostgreSQL connections at once (gunicorn with several
workers, `infra/run`) form one unit of work: one worker runs them all, one after another, so a
parallel run never holds more of the server's `max_connections` than a run in one process.
A new module of that kind adds its path here."""

SERVER_MODULES = frozenset({
    "tests/races/test_concurrency_matrix.py", "tests/races/test_fault_suite.py", "tests/e2e/test_gunicorn_start.py",
    "tests/e2e/test_deployment.py", "tests/e2e/test_stream_server.py",
})


MODULE_SECONDS = Path(__file__).with_name("module_seconds.json")
"""What each module took, in seconds, in a run in one process (`pytest -n 0
--record-module-seconds`, which rewrites this file): the workers take the longest work first."""

UNMEASURED_TEST_SECONDS = {"tests/browser/": 2.0, "": 0.5}
"""A module not in MODULE_SECONDS counts this much for each of its tests, by the first folder
its path starts with: a browser test opens pages and plays in them (about 2 s a test in one
process), most others take well under a second."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--record-module-seconds", action="store_true",
                     help=f"write what each module took (setup, call and teardown) to {MODULE_SECONDS.name}")


_RECORDED: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # On the controlling process the reports of every worker come here too.
    module = report.nodeid.split("::", 1)[0]
    _RECORDED[module] = _RECORDED.get(module, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    if config.getoption("record_module_seconds") and not hasattr(config, "workerinput") and _RECORDED:
        recorded = {**module_seconds(), **{module: round(seconds, 1) for module, seconds in _RECORDED.items()}}
        MODULE_SECONDS.write_text(json.dumps(dict(sorted(recorded.items())), indent=1) + "\n", encoding="utf-8")


def module_seconds() -> dict[str, float]:
    try:
        return {str(k): float(v) for k, v in json.loads(MODULE_SECONDS.read_text(encoding="utf-8")).items()}
    except FileNotFoundError:
        return {}


def scope_seconds(nodeids: Iterable[str], measured: dict[str, float]) -> float:
    """The expected seconds of a unit of work: its modules' measured time, or an estimate by
    their number of tests for a module not measured yet."""
    counts: dict[str, int] = {}
    for nodeid in nodeids:
        module = nodeid.split("::", 1)[0]
        counts[module] = counts.get(module, 0) + 1
    return sum(measured.get(module, count * next(seconds for folder, seconds in UNMEASURED_TEST_SECONDS.items()
                                                  if module.startswith(folder)))
               for module, count in counts.items())


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """With several workers (`-n`), each module is one unit of work, run whole by one worker,
    so a fixture it shares (a server, games played once) is made once; the server modules
    above are one unit together. A free worker takes the longest unit left (by
    MODULE_SECONDS): the suite ends when its last unit does, so a long unit started last
    would leave the other workers idle while it runs (pytest-xdist's own order is by number of
    tests, which put an 80-second module of one test behind hundreds of quick ones)."""
    from xdist.scheduler import LoadScopeScheduling

    measured = module_seconds()

    class LongestFirst(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return SERVERS_ON_POSTGRES if module in SERVER_MODULES else module

        def _assign_work_unit(self, node: Any) -> None:
            longest = max(self.workqueue, key=lambda scope: scope_seconds(self.workqueue[scope], measured))
            self.workqueue.move_to_end(longest, last=False)
            super()._assign_work_unit(node)

    return LongestFirst(config, log)
