"""The ratings read model over the store: every tournament's finished tables
(`projections/ratings.py`), rebuilt when the event log has moved on since it was last built."""

from __future__ import annotations

import threading
from typing import Any

from projections.ratings import Match, Rating, rated
from service.application import Caboose
from service.tournament.store import Shelf


class Ratings:
    def __init__(self, caboose: Caboose, shelf: Shelf | None = None) -> None:
        self.caboose = caboose
        self._shelf = shelf
        self._built: tuple[int, dict[str, list[Rating]]] | None = None
        self._lock = threading.Lock()

    def use(self, shelf: Shelf) -> None:
        self._shelf = shelf

    def all(self) -> dict[str, list[Rating]]:
        """Every game title's ratings, best first, as of the end of the log."""
        end = self.caboose.recorder.max_notification_id() or 0
        with self._lock:
            if self._built is None or self._built[0] != end:
                self._built = (end, rated(self._matches()))
            return self._built[1]

    def of(self, game: str) -> list[Rating]:
        return self.all().get(game, [])

    def rating_of(self, game: str, player: str) -> float | None:
        """A player's rating (OpenSkill's ordinal) in a game, None when unrated."""
        found = next((r for r in self.of(game) if r.player == player), None)
        return round(found.ordinal, 3) if found is not None else None

    def _matches(self) -> list[Match]:
        if self._shelf is None:
            return []
        out: list[Match] = []
        for tournament_id in self._shelf.ids():
            records: list[dict[str, Any]] = self._shelf.records(tournament_id)
            state = self._shelf.get(tournament_id).state
            finished = {r["data"]["game_id"]: r["time"] for r in records if r["kind"] == "TableFinished"}
            for table in state.tables:
                if table.result is not None:
                    out.append(Match(state.created.game, finished.get(table.game_id, records[-1]["time"]),
                                     table.seats, table.result.places))
        return out
