"""Reading FORMAT.md records straight from the stored `Game` events, for the bulk paths
(rebuilds, exports) where building a library event object per record dominated the cost.

Each stored `Game` event is the library's JSON of the event's attributes, one of which is
the record (`"record":{...}`). The record is parsed from there with the standard JSON
decoder, and its text is kept as stored, so an export need not encode it again; where only
the record is wanted (replays, rebuilds) the stored JSON is parsed by orjson, a third of the
standard decoder's time. Anything unexpected (a cipher or compressor configured, another
layout, JSON orjson refuses) falls back to the standard decoder or the mapper.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.sqlite import SQLiteAggregateRecorder
from eventsourcing.utils import get_topic

from service.aggregate import Game

RECORD_KEY = '"record":'
_DECODER = json.JSONDecoder()
CREATED, RECORDED, REWOUND, JOINED = (get_topic(cls) for cls in (Game.Created, Game.Recorded, Game.Rewound,  # type: ignore[attr-defined]
                                                                   Game.Joined))  # type: ignore[attr-defined]
TOPICS = frozenset({CREATED, RECORDED, REWOUND, JOINED})


def plain(app: Any) -> bool:
    """Whether the stored events are plain JSON (no cipher, no compressor)."""
    return app.mapper.cipher is None and app.mapper.compressor is None


def record_in(state: bytes, version: int | None = None) -> tuple[dict[str, Any], str] | None:
    """The record a stored event holds and its JSON text, or None if it is not there."""
    text = state.decode("utf-8")
    start = text.find(RECORD_KEY)
    if start < 0:
        return None
    start += len(RECORD_KEY)
    try:
        record, end = _DECODER.raw_decode(text, start)
    except ValueError:
        return None
    if not isinstance(record, dict) or (version is not None and record.get("version") != version):
        return None
    return record, text[start:end]


def record_of(state: bytes, version: int | None = None) -> dict[str, Any] | None:
    """The record a stored event holds, or None if it is not there. orjson refuses some
    JSON the standard decoder reads (integers beyond 64 bits, lone surrogates, NaN): that is
    read as before."""
    try:
        held = orjson.loads(state)
    except orjson.JSONDecodeError:
        found = record_in(state, version)
        return found[0] if found is not None else None
    record = held.get("record") if isinstance(held, dict) else None
    if not isinstance(record, dict) or (version is not None and record.get("version") != version):
        return None
    return record


# What follows the record in a stored `Game.Recorded` event: `_record`'s other parameters.
_TAIL = ',"rng_position":'
_TAIL_KEYS = frozenset({"rng_position", "request_digest"})
_HASH_MEMBER = len('"hash":"') + 64 + len('"}')


def record_text_in(state: bytes) -> str | None:
    """The JSON text of the record a stored `Game.Recorded` event holds, cut out without
    parsing the record; None when the layout is not the expected one (then parse it).

    The record runs from its key to the last `,"rng_position":`, and what follows must be
    exactly `_record`'s other parameters (parsed, a few bytes); a record sealed here ends
    with its hash, so its last member is checked to be the hash (parsed too)."""
    text = state.decode("utf-8")
    start = text.find(RECORD_KEY)
    tail = text.rfind(_TAIL)
    if start < 0 or tail < start:
        return None
    try:
        rest, last = json.loads("{" + text[tail + 1:]), json.loads("{" + text[tail - _HASH_MEMBER:tail])
    except ValueError:
        return None
    position, digest = rest.get("rng_position"), rest.get("request_digest")
    if set(rest) - _TAIL_KEYS or not isinstance(position, int) or isinstance(position, bool) \
            or not (digest is None or isinstance(digest, str)):
        return None
    if set(last) != {"hash"} or not isinstance(last["hash"], str) or len(last["hash"]) != 64 \
            or last["hash"].strip("0123456789abcdef"):
        return None
    return text[start + len(RECORD_KEY):tail]


def logged(app: Any, notifications: Sequence[Any]) -> list[tuple[int, dict[str, Any], Any]]:
    """(notification id, record, the state a rewind restores or None) for each `Game`
    event of a stretch of the notification log, read straight from the stored JSON where
    possible, else through the library's mapper; anything else in the log is left out."""
    fast = plain(app)
    found: list[tuple[int, dict[str, Any], Any]] = []
    for notification in notifications:
        if fast and notification.topic in TOPICS:
            record = record_of(notification.state)
            if record is not None:
                rewound = rewound_state(app, notification.state) if notification.topic == REWOUND else None
                found.append((notification.id, record, rewound))
                continue
        domain_event = app.mapper.to_domain_event(notification)
        record = getattr(domain_event, "record", None)
        if isinstance(record, dict) and "game_id" in record:
            found.append((notification.id, record, getattr(domain_event, "state", None) if notification.topic == REWOUND else None))
    return found


def rewound_state(app: Any, state: bytes) -> Any:
    """The encoded game state a `Game.Rewound` event carries beside its record."""
    return app.mapper.transcoder.decode(state)["state"]


def record_texts(app: Any, game_id: str) -> Iterator[tuple[dict[str, Any], str]]:
    """A game's records, each with its JSON text, in version order."""
    stored = app.recorder.select_events(UUID(game_id))
    if not plain(app):
        yield from _slow(app, stored)
        return
    for item in stored:
        found = record_in(item.state, item.originator_version) if item.topic in TOPICS else None
        if found is None:
            yield from _slow(app, [item])
        else:
            yield found


def _stored_events(app: Any, game_id: str | UUID, gt: int | None = None, lte: int | None = None,
                   limit: int | None = None) -> Sequence[Any]:
    """A game's stored events (after version `gt`, up to `lte`, at most `limit`). On SQLite
    they are selected here, the library's own query without building an id object per row,
    which was a third of an export's time and half of reading a game's rows."""
    recorder = app.recorder
    key = game_id if isinstance(game_id, UUID) else UUID(game_id)
    if isinstance(recorder, SQLiteAggregateRecorder) and isinstance(getattr(recorder, "events_table_name", None), str):
        sql = [f"SELECT originator_version, topic, state FROM {recorder.events_table_name} WHERE originator_id=?"]
        params: list[str | int] = [key.hex]
        for clause, value in ((" AND originator_version>?", gt), (" AND originator_version<=?", lte)):
            if value is not None:
                sql.append(clause)
                params.append(value)
        sql.append(" ORDER BY originator_version")
        if limit is not None:
            sql.append(" LIMIT ?")
            params.append(limit)
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute("".join(sql), params)
            return [_Row(row[0], row[1], row[2]) for row in cursor.fetchall()]
    return recorder.select_events(key, gt=gt, lte=lte, limit=limit)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class _Row:
    originator_version: int
    topic: str
    state: bytes


def texts(app: Any, game_id: str) -> Iterator[str]:
    """A game's records as JSON texts, in version order: the fastest path, for exports."""
    if not plain(app):
        yield from (text for _, text in _slow(app, app.recorder.select_events(UUID(game_id))))
        return
    stored = _stored_events(app, game_id)
    for item in stored:
        text = record_text_in(item.state) if item.topic == RECORDED else None
        if text is None:
            found = record_in(item.state, item.originator_version) if item.topic in TOPICS else None
            yield found[1] if found else next((t for _, t in _slow(app, app.recorder.select_events(
                UUID(game_id), gt=item.originator_version - 1, lte=item.originator_version))), "")
        else:
            yield text


def _slow(app: Any, stored: Sequence[Any]) -> Iterator[tuple[dict[str, Any], str]]:
    for item in stored:
        record = getattr(app.mapper.to_domain_event(item), "record", None)
        if isinstance(record, dict):
            yield record, json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def records(app: Any, game_id: UUID, after: int | None = None, upto: int | None = None,
            limit: int | None = None) -> list[dict[str, Any]]:
    """A game's records after version `after` (up to `upto`, at most `limit`), parsed
    straight from the stored JSON: the library's mapper built an event object per record
    only for the record to be taken out of it again."""
    if not plain(app):
        return [record for record, _ in _slow(app, app.recorder.select_events(game_id, gt=after, lte=upto, limit=limit))]
    found: list[dict[str, Any]] = []
    for item in _stored_events(app, game_id, after, upto, limit):
        record = record_of(item.state, item.originator_version) if item.topic in TOPICS else None
        if record is not None:
            found.append(record)
        else:
            found.extend(record for record, _ in _slow(app, app.recorder.select_events(
                game_id, gt=item.originator_version - 1, lte=item.originator_version)))
    return found
