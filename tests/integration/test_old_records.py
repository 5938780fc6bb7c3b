"""Records exported before content packs (no pack id or digest in `GameCreated`) still
import and audit unchanged, on both stores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.core.audit import audit
from service.application import Caboose

RECORDS = Path(__file__).resolve().parents[1] / "fixtures" / "records"
NAMES = sorted(path.name for path in RECORDS.glob("*.jsonl"))


def _records(name: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in (RECORDS / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_fixtures_are_there() -> None:
    assert NAMES == ["age_of_steam_finished.jsonl", "age_of_steam_unfinished.jsonl",
                     "ticket_to_ride_finished.jsonl", "ticket_to_ride_unfinished.jsonl"]


@pytest.mark.parametrize("name", NAMES)
def test_an_old_record_audits(name: str) -> None:
    records = _records(name)
    assert "content" not in records[0]["data"]
    report = audit(records)
    assert report.ok, report.first_problem
    assert report.events == len(records)


@pytest.mark.parametrize("name", NAMES)
def test_an_old_record_imports_unchanged(app: Caboose, name: str) -> None:
    records = _records(name)
    game_id = app.import_record(records)
    assert app.records(game_id) == records
    assert app.audit(game_id).ok
