"""What each test costs in CPU, for finding the suite's slow parts on a machine shared with
other work (where the wall clock says more about the neighbours than about the test): load it
with `-p tests.support.cpu_seconds` and name a file in CABOOSE_CPU_SECONDS, e.g.

    PYTHONPATH=. CABOOSE_CPU_SECONDS=/tmp/cpu.txt .venv/bin/pytest -n 0 -p tests.support.cpu_seconds tests/e2e

Each test appends one line as it ends: the test process's CPU seconds, its reaped children's
(servers and `caboose` commands it started and waited for), the wall seconds, the load average
and the test's id. Setup and teardown count with the test, so a module's shared fixture counts
with its first test."""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Iterator

import pytest


def _cpu() -> tuple[float, float]:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    path = os.environ.get("CABOOSE_CPU_SECONDS")
    own, children = _cpu()
    started = time.monotonic()
    yield
    if path:
        own_after, children_after = _cpu()
        with open(path, "a", encoding="utf-8") as out:
            out.write(f"{own_after - own:8.2f} {children_after - children:8.2f} {time.monotonic() - started:8.2f} "
                      f"{os.getloadavg()[0]:5.1f} {item.nodeid}\n")
