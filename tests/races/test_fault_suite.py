"""The measured fault suite (benchmarks/fault_suite.py, its short form) as a slow test: kill -9
of the server under load, a PostgreSQL outage, kill -9 of `caboose simulate` and of a
projection runner; it fails on any broken promise the suite reports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import POSTGRES_URL

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.postgres
def test_no_fault_breaks_a_promise() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "fault_suite.py"), "--quick", "--json", "--postgres", POSTGRES_URL],
                          cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert done.stdout, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result["failures"] == [], json.dumps(result["report"], indent=1)[:6000]
    assert done.returncode == 0
