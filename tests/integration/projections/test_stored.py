"""Reading records for exports and rebuilds gives exactly the records the application gives,
whatever their kind or origin."""

from __future__ import annotations

import json
import random

from domain.core.envelope import group_by_command, record_hash
from projections.projector import steps_of
from service import referee as desk
from service.application import Caboose
from service.settings import Settings
from service.stored import texts
from tests.integration.projections.conftest import play_random


def test_records_read_for_exports_and_rebuilds_equal_the_applications(app: Caboose) -> None:
    game_id = app.create_game("ticket_to_ride", ["Zoë", "Łukasz", "李"], seed=bytes(range(32)))
    chooser = random.Random(2)
    for _ in range(20):
        play_random(app, game_id, chooser)
    quiet = [group[-1]["version"] for group in group_by_command(app.records(game_id))]
    desk.rewind(app, game_id, "Rita", quiet[-4], "a rewind")
    desk.adjust(app, game_id, "Rita", 0, "vp", 2, "bonus")
    records = app.records(game_id)
    assert [json.loads(text) for text in texts(app, game_id)] == records
    notifications = app.recorder.select_notifications(start=0, limit=10000, inclusive_of_start=False)
    assert [s.record for s in steps_of(app, notifications)] == records
    # An imported record whose keys come in another order is read exactly, in its order.
    memory = Caboose(Settings(db="memory"))
    other = memory.create_game("race", ["a", "b"], {"goal": 4}, seed=bytes(32))
    while memory.summary(other)["status"] == "active":
        memory.play(other, memory.summary(other)["active_seats"][0], {"type": "advance", "by": 2})
    shuffled = [dict(reversed(list(r.items()))) for r in memory.records(other)]
    assert all(record_hash(r) == r["hash"] for r in shuffled)
    app.import_record(shuffled)
    assert [json.loads(text) for text in texts(app, other)] == shuffled
    assert [list(json.loads(text)) for text in texts(app, other)] == [list(r) for r in shuffled]
