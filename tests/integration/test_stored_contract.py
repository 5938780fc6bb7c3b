"""The contract between the application's transcoder and mapper (`service/transcoder.py`)
and the eventsourcing library's stored events.

Every record is read through the library's mapper, whose transcoder reads the library's
JSON with orjson and revives the library's transcodings itself. These tests write every
kind of `Game` event (and a snapshot) through the real library, on SQLite and on
PostgreSQL, and check that the transcoder gives exactly what the library's own
`JSONTranscoder` gives for the same bytes, that the fast path was taken where it should
be, and that the standard decoder reads whatever the fast path steps aside from. They are
pinned to the library's minor version: `OrjsonTranscoder` reads `JSONTranscoder`'s
registered transcodings, and `EventMapper` does what `Mapper.to_domain_event` does; an
upgrade fails here until someone has re-checked both and moved the pin."""

from __future__ import annotations

import json
import random
from datetime import datetime
from decimal import Decimal
from enum import IntEnum, StrEnum
from importlib.metadata import version
from uuid import UUID

import pytest
from eventsourcing.persistence import JSONTranscoder, Mapper

from domain.core.canonical import canonical, canonical_text
from domain.core.codec import encode
from domain.core.envelope import group_by_command
from service import referee as desk
from service import stored
from service.application import Caboose
from service.lobby import Lobby
from service.settings import Settings
from service.transcoder import EventMapper, OrjsonTranscoder
from tests.integration.projections.conftest import play_random

PINNED = "9.5"
"""The eventsourcing minor version `service/transcoder.py` was checked against."""


def test_the_installed_library_is_the_one_the_adapter_was_checked_against() -> None:
    installed = ".".join(version("eventsourcing").split(".")[:2])
    assert installed == PINNED, (
        f"eventsourcing {installed} is installed, the transcoder and mapper were checked against {PINNED}: "
        "re-run this file's tests, check service/transcoder.py against the new library, then move PINNED")


def _library_transcoder(app: Caboose) -> JSONTranscoder:
    """The library's own transcoder with the application's transcodings."""
    transcoder = JSONTranscoder()
    app.register_transcodings(transcoder)
    return transcoder


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


def test_the_transcoder_reads_what_the_library_wrote(app: Caboose) -> None:
    game_id = _every_kind_stored(app)
    assert isinstance(app.mapper, EventMapper) and isinstance(app.mapper.transcoder, OrjsonTranscoder)
    library = Mapper(_library_transcoder(app))
    rows = app.recorder.select_events(app._key(game_id))
    events = [library.to_domain_event(row) for row in rows]
    by_library = [e.record for e in events]
    topics = {type(e).__qualname__ for e in events}
    assert topics == {"Game.Created", "Game.Recorded", "Game.Rewound", "Game.Joined"}
    assert all(row.topic in stored.TOPICS for row in rows)
    # Each event decoded alike, attribute by attribute (its time stamp a datetime), and
    # by the fast path: one transcoding, the time stamp, revived without the standard decoder.
    for row, event in zip(rows, events, strict=True):
        mapped = app.mapper.to_domain_event(row)
        assert type(mapped) is type(event) and vars(mapped) == vars(event)
        assert isinstance(mapped.timestamp, datetime)  # type: ignore[attr-defined]
        assert row.state.count(b'"_type_"') == 1

    # The application's own reads (every page of events, replays) give the same records,
    # whole and by range.
    assert app.records(game_id) == by_library
    assert app.records(game_id, after=5, limit=7) == by_library[5:12]
    assert app.records(game_id, after=3, upto=9) == by_library[3:9]
    assert [json.loads(text) for text in stored.texts(app, game_id)] == by_library

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

    # A snapshot holds transcodings one level down (the aggregate's dates): read alike.
    snapshots = app.snapshots.recorder.select_events(app._key(game_id)) if app.snapshots else []
    assert snapshots
    for row in snapshots:
        assert vars(app.mapper.to_domain_event(row)) == vars(library.to_domain_event(row))


@pytest.mark.parametrize("value", [
    {"timestamp": datetime(2026, 1, 2, 3, 4, 5), "record": {"deep": {"at": datetime(2026, 1, 2), "id": UUID(int=7)}}},
    {"timestamp": datetime(2026, 1, 2), "record": {"data": {"_type_": "a key a game may use", "other": 1}}},
    {"timestamp": datetime(2026, 1, 2), "record": {"note": 'a string with "_type_" in it', "big": 2**70}},
    {"timestamp": datetime(2026, 1, 2), "amount": Decimal("1.5"), "list": [{"at": datetime(2026, 1, 3)}]},
    {"plain": [1, 2.5, None, True, "x"]},
    [datetime(2026, 1, 2)],
])
def test_what_the_fast_path_steps_aside_from_is_read_as_the_library_reads_it(value: object) -> None:
    """Transcodings deeper than two levels or inside lists, a `_type_` key of a game's own,
    the word in a string, integers beyond 64 bits (orjson refuses them): each decodes to
    exactly what the library's own transcoder gives."""
    app = Caboose(Settings(db="memory"))
    library = _library_transcoder(app)
    data = library.encode(value)
    assert app.mapper.transcoder.decode(data) == library.decode(data)


ENCODED = [
    {"timestamp": datetime(2026, 1, 2, 3, 4, 5), "record": {"deep": {"at": datetime(2026, 1, 2), "id": UUID(int=7)}}},
    {"b": 1, "a": [1, 2.5, 1e16, 1e-05, -0.0, float("inf"), None, True, 2**70], "c": {"z": (1, 2), 3: "int key"}},
    {"text": 'quotes " and \\ and \n\t\x00\x1f\x7f, Zoë, 李, 🚂', "amount": Decimal("1.5")},
    "a bare string", 7, 0.1, None, [], {},
]


@pytest.mark.parametrize("value", ENCODED)
def test_the_transcoder_writes_exactly_what_the_library_writes(value: object) -> None:
    """The transcoder's encoder is made once, not per event: the bytes must be the
    library's own, whatever the value (key order, floats, escapes, transcodings)."""
    app = Caboose(Settings(db="memory"))
    assert app.mapper.transcoder.encode(value) == _library_transcoder(app).encode(value)


@pytest.mark.parametrize("value", [
    {"b": 1, "a": [1, 2.5, 1e16, 1e-05, -0.0, float("nan"), None, True, 2**70], "c": {"z": (1, 2), "y": {"x": []}}},
    {"text": 'quotes " and \\ and \n\t\x00\x1f\x7f, Zoë, 李, 🚂', "n": {2: "int keys", 1: "as text"}},
    "a bare string", 7, 0.1, None, [], {},
])
def test_canonical_json_is_json_dumps_sorted_and_compact(value: object) -> None:
    """The canonical encoder is made once (`CompactJSON`); its text is `json.dumps`'s, and
    `canonical_text` (a string or an integer written without the encoder) is its text."""
    assert canonical(value) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    assert canonical_text(value).encode() == canonical(value)


class Flag(StrEnum):
    on = "yes"


@pytest.mark.parametrize("value", [True, False, -7, 2**70, -(2**70), 0, IntEnum("Seat", "a b").b, "", "\x7f\u2028",
                                   Flag.on])
def test_canonical_text_of_integers_and_strings_is_json_dumps(value: object) -> None:
    """Booleans and an integer enum are not written as plain integers, nor a string enum as a string."""
    assert canonical_text(value) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_compressed_records_are_read_through_the_library(tmp_path: object) -> None:
    """Compressed (or encrypted) stored events are the library mapper's own business."""
    app = Caboose(Settings(db=f"sqlite:///{tmp_path}/compressed.sqlite"),
                  env={"COMPRESSOR_TOPIC": "eventsourcing.compressor:ZlibCompressor"})
    game_id = _every_kind_stored(app)
    library = Mapper(_library_transcoder(app), compressor=app.mapper.compressor)
    by_library = [library.to_domain_event(row).record for row in app.recorder.select_events(app._key(game_id))]  # type: ignore[attr-defined]
    assert len(by_library) > 10 and app.records(game_id) == by_library


def test_a_part_reads_its_own_originators_notifications_as_the_log_holds_them(app: Caboose) -> None:
    """A rebuild's part reads only its games' events (`notifications_of`): exactly the
    notifications of those originators the whole log holds, in its order, up to the end asked."""
    games = [_every_kind_stored(app) for _ in range(3)]
    whole = app.recorder.select_notifications(start=0, limit=100000, inclusive_of_start=False)
    last: dict[object, int] = {}
    for n in whole:
        last[n.originator_id] = n.originator_version
    assert app.originators() == last  # each originator once, with its number of events
    mine = [app._key(games[0]), app._key(games[2])]
    end = whole[-5].id
    expected = [n for n in whole if n.originator_id in mine and n.id <= end]
    found = app.notifications_of(mine, end)
    assert [(n.id, n.originator_id, n.originator_version, n.topic, bytes(n.state)) for n in found] == \
        [(n.id, n.originator_id, n.originator_version, n.topic, bytes(n.state)) for n in expected]
    assert stored.logged(app, found) == stored.logged(app, expected)
    assert app.notifications_of([], end) == []
