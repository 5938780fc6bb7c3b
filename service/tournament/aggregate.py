"""The `Tournament` aggregate: one per tournament, in the same event store as the games.

Each stored library event holds exactly one tournament record (under `entry`, so the
game's readers of the log, which look for a `record`, pass it by), so the aggregate's version
is the record's. The secret is kept beside the records in the creation's library event,
never inside a record, until `SecretRevealed` makes it public.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.core.envelope import GENESIS_HASH
from domain.core.events import Event
from domain.tournament import record as tr
from domain.tournament.events import TournamentCreated
from domain.tournament.state import Tournament as Folded
from domain.tournament.state import evolve, start


class Tournament(Aggregate):
    opening: tuple[tuple[Any, Any], ...] = ()
    """The table games its pending events open (each a `Game` not yet stored, with the
    credentials issued for it), stored with them in one transaction (`Shelf.commit`): as the
    library keeps pending events beside an aggregate until they are saved. Never stored."""

    @staticmethod
    def create_id(entry: dict[str, Any], **_: Any) -> UUID:
        return UUID(entry[tr.ID])

    @event("Created")
    def __init__(self, entry: dict[str, Any], secret: str | None, request_digest: str | None = None) -> None:
        created = tr.to_event(entry)
        assert isinstance(created, TournamentCreated)
        self.secret = secret
        self.head = entry["hash"]
        self.created_at = self.updated_at = entry["time"]
        self.commands: dict[str, tuple[int, int, str | None]] = \
            {entry["command_id"]: (1, 1, request_digest)} if entry["command_id"] else {}
        """Each command's first and last version, and the digest of the request that gave it
        (a client's retry with its Idempotency-Key is answered from these)."""
        self.folded = start(entry[tr.ID], created)

    @event("Recorded")
    def _record(self, entry: dict[str, Any], digest: str | None = None) -> None:
        self.folded = evolve(self.folded, tr.to_event(entry), entry["version"])
        self.head = entry["hash"]
        self.updated_at = entry["time"]
        if entry["command_id"]:
            first, _, _ = self.commands.get(entry["command_id"], (entry["version"], entry["version"], None))
            self.commands = {**self.commands, entry["command_id"]: (first, entry["version"], digest)}

    @property
    def state(self) -> Folded:
        return self.folded

    @property
    def secret_bytes(self) -> bytes | None:
        return bytes.fromhex(self.secret) if self.secret else None

    def append(self, events: Sequence[Event], actor: str, command_id: str, now: str,
               digest: str | None = None) -> list[dict[str, Any]]:
        """Seal and record `events`, each checked by the fold as it is recorded; `digest`
        identifies the request, for its retries."""
        entries = []
        for e in events:
            entry = tr.seal(tournament_id=str(self.id), version=self.version + 1, time=now, actor=actor,
                            command_id=command_id, event=e, prev_hash=self.head)
            self._record(entry, digest)
            entries.append(entry)
        return entries

    def restore(self, entries: Sequence[dict[str, Any]]) -> None:
        """Store already verified records as they are (import)."""
        for entry in entries:
            self._record(entry)


def opened(tournament_id: str, created: TournamentCreated, secret: bytes, command_id: str, now: str, actor: str,
           digest: str | None = None) -> Tournament:
    """A new tournament, its creation sealed as version 1 (`digest`: of the request that made
    it under a client's Idempotency-Key, `command_id`, for its retries)."""
    entry = tr.seal(tournament_id=tournament_id, version=1, time=now, actor=actor, command_id=command_id,
                    event=created, prev_hash=GENESIS_HASH)
    return Tournament(entry=entry, secret=secret.hex(), request_digest=digest)
