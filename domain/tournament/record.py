"""A tournament's record: FORMAT.md's envelope and hash chain, under `tournament_id`.

A tournament's events are sealed exactly as a game's are (`domain/core/envelope.py`: the
same ten fields, canonical JSON, SHA-256 over everything but the hash, each event linked to
the one before), except that the record's id field is `tournament_id`. They carry no
secrets: the secret is kept beside the record until `SecretRevealed` makes it public.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from domain.core.envelope import SYSTEM, record_hash, verify_chain
from domain.core.errors import RecordError
from domain.core.events import Event
from domain.tournament.events import EVENTS, TournamentCreated
from domain.tournament.state import Tournament, fold

ID = "tournament_id"


def seal(*, tournament_id: str, version: int, time: str, actor: str, command_id: str | None, event: Event,
         prev_hash: str) -> dict[str, Any]:
    record: dict[str, Any] = {
        ID: tournament_id, "version": version, "time": time, "actor": SYSTEM if event.automatic else actor,
        "command_id": command_id, "kind": event.kind, "data": event.data, "secrets": [], "prev_hash": prev_hash,
    }
    record["hash"] = record_hash(record)
    return record


def to_event(record: dict[str, Any]) -> Event:
    """The typed event a tournament's record holds (`RecordError` for data that does not fit its kind)."""
    return EVENTS.event(record["kind"], record["data"], (), record["actor"] == SYSTEM)


def is_tournament(records: Sequence[dict[str, Any]]) -> bool:
    return bool(records) and isinstance(records[0], dict) and ID in records[0]


def verify(records: Iterable[dict[str, Any]]) -> int:
    """Versions, links and hashes (`verify_chain`); `RecordError` names the first bad version."""
    return verify_chain(records, id_field=ID)


def folded(records: Sequence[dict[str, Any]]) -> Tournament:
    """The tournament a whole record holds, every event checked against what came before it."""
    events = []
    for record in records:
        try:
            events.append(to_event(record))
        except RecordError as error:
            raise RecordError(error.code, f"event {record['version']}: {error.message}", record["version"]) from None
    return fold(records[0][ID], events)


def created_of(records: Sequence[dict[str, Any]]) -> TournamentCreated:
    event = to_event(records[0])
    assert isinstance(event, TournamentCreated)
    return event
