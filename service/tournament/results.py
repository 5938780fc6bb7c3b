"""Results recorded when a table's game ends, automatically: a follower of the event log
(`caboose serve` runs it beside the bot runner; `caboose bots run` runs it too) that, for
every `GameEnded` of a game played at a tournament table, has the organiser record the
tournament's finished tables (`Organiser.settle`), and its end once the last is in.

Like the bot runner, it reads the last `OVERLAP` notifications again each round: on
PostgreSQL a transaction may commit after one with a later number. Settling twice records
nothing the second time."""

from __future__ import annotations

import logging
import threading

from domain.core.log import GAME_ENDED
from service import stored
from service.background import every
from service.errors import GameNotFound, VersionConflict
from service.tournament.organiser import Organiser

log = logging.getLogger(__name__)
BATCH = 500
OVERLAP = 100


class TableResults:
    def __init__(self, organiser: Organiser) -> None:
        self.organiser = organiser
        self.position = 0

    def run_once(self) -> int:
        """Catch up with the log; returns how many tournament records were stored."""
        recorder = self.organiser.caboose.recorder
        start, due = max(1, self.position - OVERLAP + 1), set()
        while items := recorder.select_notifications(start=start, limit=BATCH, topics=[stored.RECORDED]):
            for item in items:
                record = stored.record_of(self.organiser.caboose.mapper.to_domain_event(item))
                if record is not None and record["kind"] == GAME_ENDED:
                    due.add(record["game_id"])
                self.position = max(self.position, item.id)
            if len(items) < BATCH:
                break
            start = items[-1].id + 1
        stored_count = 0
        for tournament_id in sorted({t for t in map(self._tournament_of, due) if t}):
            try:
                stored_count += len(self.organiser.settle(tournament_id))
            except VersionConflict:
                pass  # another writer settled it first; the next round looks again
            except Exception:  # one tournament's trouble does not stop the others'
                log.warning("results of tournament %s not recorded this round", tournament_id, exc_info=True)
        return stored_count

    def _tournament_of(self, game_id: str) -> str | None:
        try:
            at = self.organiser.caboose.game(game_id).at_table
        except GameNotFound:
            return None
        return at["tournament"] if at else None

    def start(self, interval: float = 1.0) -> threading.Event:
        return every(interval, self.run_once, "tournament-results")
