"""The contract between `service/stored.py` and the eventsourcing library's stored events.

The read models and the exports read FORMAT.md records straight from the JSON the library
stores (`record_in`, `record_text_in`, `logged`), a layout the library does not promise.
These tests write every kind of `Game` event through the real library, on SQLite and on
PostgreSQL, and read them back through the adapter, checking that the fast path was taken
(not the mapper fallback) and that it gives exactly what the library's own mapper gives.
They are pinned to the library's minor version: an upgrade fails here until someone has
re-checked the layout and moved the pin."""

from __future__ import annotations

import json
import random
from importlib.metadata import version

from domain.core.codec import encode
from domain.core.envelope import group_by_command
from service import referee as desk
from service import stored
from service.application import Caboose
from service.lobby import Lobby
from service.settings import Settings
from tests.integration.projections.conftest import play_random

PINNED = "9.5"
"""The eventsourcing minor version whose stored layout `service/stored.py` was checked against."""


def test_the_installed_library_is_the_one_the_adapter_was_checked_against() -> None:
    installed = ".".join(version("eventsourcing").split(".")[:2])
    assert installed == PINNED, (
        f"eventsourcing {installed} is installed, the stored-event adapter was checked against {PINNED}: "
        "re-run this file's tests, check service/stored.py against the new layout, then move PINNED")


def _every_kind_stored(app: Caboose) -> str:
    """A game with a Created, Recorded, Rewound and Joined event in the store."""
    game_id, issued = Lobby(app).open_game("ticket_to_ride", ["Zoë", None, "李"], seed=bytes(range(32)))
    Lobby(app).join(game_id, issued.invites[1], "Łukasz")
    chooser = random.Random(4)
    for _ in range(12):
        play_random(app, game_id, chooser)
    quiet = [group[-1]["version"] for group in group_by_command(app.records(game_id))]
    desk.rewind(app, game_id, "Rita", quiet[-3], "a rewind")
    play_random(app, game_id, chooser)
    return game_id


def test_the_adapter_reads_what_the_library_wrote(app: Caboose) -> None:
    game_id = _every_kind_stored(app)
    events = list(app.events.get(app._key(game_id)))
    by_library = [e.record for e in events]
    topics = {type(e).__qualname__ for e in events}
    assert topics == {"Game.Created", "Game.Recorded", "Game.Rewound", "Game.Joined"}

    rows = app.recorder.select_events(app._key(game_id))
    assert all(row.topic in stored.TOPICS for row in rows)
    # The fast path, not the fallback: every record is found in the stored JSON ...
    found = [stored.record_in(row.state, row.originator_version) for row in rows]
    assert [f[0] for f in found if f is not None] == by_library
    # ... and every `Recorded` record's text is cut out as stored, and is that record.
    recorded = [(row, record) for row, record in zip(rows, by_library, strict=True) if row.topic == stored.RECORDED]
    assert len(recorded) > 10
    for row, record in recorded:
        text = stored.record_text_in(row.state)
        assert text is not None and json.loads(text) == record

    # The application's own reads (every page of events, replays) give the same records,
    # whole and by range.
    assert app.records(game_id) == by_library
    assert app.records(game_id, after=5, limit=7) == by_library[5:12]
    assert app.records(game_id, after=3, upto=9) == by_library[3:9]

    # The read models' reader gives the same records, and each rewind's stored state.
    notifications = app.recorder.select_notifications(start=0, limit=10000, inclusive_of_start=False)
    logged = stored.logged(app, notifications)
    assert [record for _, record, _ in logged] == by_library
    rewinds = [(rewound, e) for (_, _, rewound), e in zip(logged, events, strict=True) if type(e).__qualname__ == "Game.Rewound"]
    assert rewinds and all(rewound == e.state for rewound, e in rewinds)
    assert all(rewound is None for (_, _, rewound), e in zip(logged, events, strict=True)
               if type(e).__qualname__ != "Game.Rewound")
    # The state a rewind carries is the game state, encoded as a snapshot's.
    assert rewinds[0][0] == encode(app.game(game_id, rewinds[0][1].originator_version).state)


def test_compressed_records_are_read_through_the_library(tmp_path: object) -> None:
    """Compressed (or encrypted) stored events are not plain JSON: the fast path must step aside."""
    app = Caboose(Settings(db=f"sqlite:///{tmp_path}/compressed.sqlite"),
                  env={"COMPRESSOR_TOPIC": "eventsourcing.compressor:ZlibCompressor"})
    game_id = _every_kind_stored(app)
    assert not stored.plain(app)
    by_library = [e.record for e in app.events.get(app._key(game_id))]
    assert len(by_library) > 10 and app.records(game_id) == by_library
