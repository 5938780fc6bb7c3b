"""Tournaments in the event store: loading one (kept per id, newer events folded onto a
copy, as `GameCache` keeps games), its records, every tournament's id, and storing a
tournament together with the table games it opens, in one transaction."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import get_topic

from service.aggregate import Game
from service.application import Caboose
from service.errors import ServiceError, VersionConflict
from service.seating import Issued, Seating
from service.tournament.aggregate import Tournament

CREATED = get_topic(Tournament.Created)  # type: ignore[attr-defined]


class TournamentNotFound(ServiceError):
    code = "tournament_not_found"

    def __init__(self, tournament_id: str) -> None:
        super().__init__(f"No tournament with id {tournament_id!r}.")


class Shelf:
    """The tournaments of one event store, as this process has loaded them."""

    def __init__(self, caboose: Caboose, seating: Seating) -> None:
        self.caboose, self.seating = caboose, seating
        self._kept: dict[UUID, Tournament] = {}
        self._ids: list[str] = []
        self._position = 0
        self._lock = threading.Lock()

    def key(self, tournament_id: str) -> UUID:
        try:
            return UUID(str(tournament_id))
        except ValueError:
            raise TournamentNotFound(str(tournament_id)) from None

    def get(self, tournament_id: str) -> Tournament:
        """The tournament now: the caller's own copy."""
        key = self.key(tournament_id)
        kept = self._kept.get(key)
        if kept is None:
            try:
                found: Any = self.caboose.repository.get(key)
            except AggregateNotFoundError:
                raise TournamentNotFound(tournament_id) from None
            if not isinstance(found, Tournament):
                raise TournamentNotFound(tournament_id)
            latest = found
        else:
            newer = list(self.caboose.events.get(key, gt=kept.version))
            latest = _copy(kept)
            for stored in newer:
                latest = stored.mutate(latest)  # type: ignore[attr-defined]
        if len(self._kept) > 1000:
            self._kept.clear()
        self._kept[key] = latest
        return _copy(latest)

    def records(self, tournament_id: str) -> list[dict[str, Any]]:
        """The tournament's records, in version order."""
        key = self.key(tournament_id)
        entries = [getattr(e, "entry", None) for e in self.caboose.events.get(key)]
        found = [e for e in entries if isinstance(e, dict)]
        if not found:
            raise TournamentNotFound(tournament_id)
        return found

    # -- the shelf as the pipeline asks of it (`commands.Stream`) -----------------------

    def load(self, stream_id: str) -> Tournament:
        return self.get(stream_id)

    def recorded(self, stream_id: str, first: int, last: int) -> list[dict[str, Any]]:
        return self.records(stream_id)[first - 1:last]

    def commit(self, tournament: Tournament) -> bool:
        """Store the tournament's pending events with the table games they open
        (`Tournament.opening`), in one transaction; False when another writer stored that
        version first (the games' credentials are withdrawn then, as on any failure)."""
        opening = tournament.opening
        try:
            self.save(tournament, [game for game, _ in opening], [(str(game.id), issued) for game, issued in opening])
        except VersionConflict:
            return False
        return True

    def save(self, tournament: Tournament, games: Sequence[Game] = (), issued: Sequence[tuple[str, Issued]] = ()) -> None:
        """Store a tournament's new events and the games it opened, in one transaction; the
        games' credentials (issued first) are withdrawn if that fails."""
        try:
            self.caboose.save(tournament, *games)
        except IntegrityError:
            self._withdraw(issued)
            raise VersionConflict(None, self.get(str(tournament.id)).version) from None
        except BaseException:
            self._withdraw(issued)
            raise
        self._kept[tournament.id] = _copy(tournament)

    def _withdraw(self, issued: Sequence[tuple[str, Issued]]) -> None:
        for game_id, credentials in issued:
            self.seating.withdraw(game_id, credentials)

    def ids(self) -> list[str]:
        """Every tournament in the store, oldest first (followed from the log by its creations)."""
        with self._lock:
            while batch := self.caboose.recorder.select_notifications(start=self._position + 1, limit=1000,
                                                                      topics=[CREATED]):
                self._ids += [str(item.originator_id) for item in batch]
                self._position = batch[-1].id
            return list(self._ids)


def _copy(tournament: Tournament) -> Tournament:
    """A copy sharing nothing that changes: the folded state is immutable, the commands are replaced, never changed."""
    copy = object.__new__(Tournament)
    copy.__dict__.update(tournament.__dict__)
    copy.__dict__["_pending_events"] = []
    copy.__dict__.pop("opening", None)
    return copy
