"""Reading records back into events and values takes shortcuts for speed (the catalogue builds
an event without its dataclass `__init__`, the codec works a hint's decoder out once): they
must give exactly what the plain ways give, for every shipped game's real records, and refuse
what those refuse."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from domain import games
from domain.core import codec, fold
from domain.core.catalogue import _readers
from domain.core.codec import encode
from domain.core.envelope import to_event
from domain.core.errors import RecordError
from domain.core.events import Event
from service.application import Caboose
from service.settings import Settings
from service.simulation import game_seed, play_one

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "records"


def played_records() -> list[list[dict[str, Any]]]:
    app = Caboose(Settings(db="memory"))
    out = [[json.loads(line) for line in path.read_text().splitlines() if line.strip()] for path in sorted(FIXTURES.glob("*.jsonl"))]
    for index, name in enumerate(games.names()):
        playout = play_one(app, name, games.current(name).min_seats, game_seed(97, index), random.Random(index),
                           check=False, stop_after=60)
        out.append(app.records(playout.game_id))
    return out


def by_init(record: dict[str, Any], catalogue: Any) -> Event:
    """The event as the kind's dataclass `__init__` builds it, values decoded the plain way."""
    cls = catalogue.kinds[record["kind"]]
    values = {}
    for key, value in record["data"].items():
        name, hint = _readers(cls)[key]
        values[name] = value if hint is None else codec._decode(hint, value)
    return cls(**values, secrets=tuple(to_event(record).secrets), automatic=record["actor"] == "system")


def test_every_record_reads_as_its_dataclass_would_build_it() -> None:
    checked = 0
    for records in played_records():
        catalogue = fold.History(records[0]).decider.catalogue
        for record in records:
            if record["kind"] not in catalogue:
                continue
            fast = to_event(record, catalogue)
            plain = by_init(record, catalogue)
            assert fast == plain and type(fast) is type(plain), record["kind"]
            assert {f.name: getattr(fast, f.name) for f in dataclasses.fields(fast)} == vars(plain)
            assert encode(fast.data) == record["data"]
            checked += 1
    assert checked > 500


def test_every_state_decodes_as_the_plain_decoder_would() -> None:
    for records in played_records():
        replayed = fold.replay(records)
        encoded, state_type = encode(replayed.state), replayed.decider.state_type
        assert codec.decode(state_type, encoded) == codec._decode(state_type, encoded) == replayed.state


def test_a_record_missing_a_field_or_with_a_wrong_one_is_refused() -> None:
    records = [json.loads(line) for line in (FIXTURES / "ticket_to_ride_finished.jsonl").read_text().splitlines()]
    catalogue = fold.History(records[0]).decider.catalogue
    with_data = next(r for r in records[1:] if r["data"] and r["kind"] in catalogue)
    for data in ({}, {**with_data["data"], "no_such_field": 1}):
        with pytest.raises(RecordError) as refused:
            to_event({**with_data, "data": data}, catalogue)
        assert refused.value.code == "bad_event_data" and refused.value.version == with_data["version"]
