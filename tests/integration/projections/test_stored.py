"""Reading records straight from the stored events (exports, rebuilds) gives exactly the
records the application gives, whatever their kind or origin."""

from __future__ import annotations

import json
import random

from domain.core.envelope import group_by_command, record_hash
from projections.projector import steps_of
from service import referee as desk
from service.application import Caboose
from service.settings import Settings
from service.stored import record_text_in, record_texts, texts
from tests.integration.projections.conftest import play_random


def test_stored_records_read_fast_equal_the_applications(app: Caboose) -> None:
    game_id = app.create_game("ticket_to_ride", ["Zoë", "Łukasz", "李"], seed=bytes(range(32)))
    chooser = random.Random(2)
    for _ in range(20):
        play_random(app, game_id, chooser)
    quiet = [group[-1]["version"] for group in group_by_command(app.records(game_id))]
    desk.rewind(app, game_id, "Rita", quiet[-4], "a rewind")
    desk.adjust(app, game_id, "Rita", 0, "vp", 2, "bonus")
    records = app.records(game_id)
    assert [json.loads(text) for text in texts(app, game_id)] == records
    assert [record for record, _ in record_texts(app, game_id)] == records
    notifications = app.recorder.select_notifications(start=0, limit=10000, inclusive_of_start=False)
    assert [s.record for s in steps_of(app, notifications)] == records
    # An imported record whose keys come in another order is still read exactly (parsed).
    memory = Caboose(Settings(db="memory"))
    other = memory.create_game("race", ["a", "b"], {"goal": 4}, seed=bytes(32))
    while memory.summary(other)["status"] == "active":
        memory.play(other, memory.summary(other)["active_seats"][0], {"type": "advance", "by": 2})
    shuffled = [dict(reversed(list(r.items()))) for r in memory.records(other)]
    assert all(record_hash(r) == r["hash"] for r in shuffled)
    app.import_record(shuffled)
    assert [json.loads(text) for text in texts(app, other)] == shuffled


def test_the_text_is_cut_out_only_when_the_layout_is_the_expected_one() -> None:
    record = {"game_id": "g", "version": 2, "kind": "X", "data": {"note": '","rng_position":1}'}, "hash": "a" * 64}
    body = json.dumps(record, separators=(",", ":"))
    stored = ('{"timestamp":{"_type_":"datetime_iso","_data_":"2025-01-01T00:00:00+00:00"},"record":' + body
              + ',"rng_position":7,"request_digest":null}').encode()
    assert record_text_in(stored) == body
    assert record_text_in(stored.replace(b',"request_digest":null}', b',"request_digest":null,"more":1}')) is None
    assert record_text_in(stored.replace(b'"hash":"' + b"a" * 64 + b'"', b'"hash":"x"')) is None
