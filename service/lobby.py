"""Games as players meet them: created with seat tokens, joined by invite, listed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.core.events import Audience
from service import referee as desk
from service.aggregate import Game
from service.application import Caboose
from service.db import make_engine
from service.errors import GameNotFound
from service.seating import Issued, Seating


class Lobby:
    def __init__(self, caboose: Caboose, seating: Seating | None = None) -> None:
        self.caboose = caboose
        self.seating = seating or Seating(make_engine(caboose.settings.db, caboose.settings.schema))

    def open_game(self, game: str, players: list[str | None], options: Mapping[str, Any] | None = None,
                  seed: bytes | None = None) -> tuple[str, Issued]:
        """Create a game; named seats get tokens, open seats (None) get invite codes."""
        names = [name if name is not None else f"open seat {i}" for i, name in enumerate(players)]
        return self._store(self.caboose.new_game(game, names, options, seed=seed), players)

    def import_game(self, records: Iterable[dict[str, Any]]) -> tuple[str, Issued]:
        """Verify a full record and store it; every seat gets a token, as does its referee."""
        aggregate = self.caboose.imported(records)
        return self._store(aggregate, list(aggregate.seats))

    def fork_game(self, game_id: str, referee_name: str, at_version: int, reason: str,
                  seed: bytes | None = None) -> tuple[str, Issued]:
        """Fork a game at `at_version` (`service.referee.fork`); the fork's seats and referee
        get fresh tokens."""
        aggregate = desk.forked(self.caboose, game_id, referee_name, at_version, reason, seed)
        return self._store(aggregate, list(aggregate.seats))

    def _store(self, aggregate: Game, players: list[str | None]) -> tuple[str, Issued]:
        """Issue a new game's credentials, then store the game. The credentials table is what
        lists games, and a stored event cannot be taken back, so this order lets a failure
        leave nothing half-made: credentials without their game are withdrawn, and are never
        listed meanwhile (`games` skips them)."""
        game_id = str(aggregate.id)
        issued = self.seating.issue(game_id, players)
        try:
            self.caboose._save(aggregate)
        except BaseException:
            self.seating.withdraw(game_id, issued)
            raise
        return game_id, issued

    def join(self, game_id: str, invite: str, name: str) -> tuple[int, str]:
        """Take the open seat `invite` opens, under `name`, and record it in the game
        (`SeatJoined`); if that cannot be stored, the invite stays unused."""
        self.caboose.game(game_id)
        seat, token = self.seating.join(game_id, invite, name)
        try:
            desk.join_seat(self.caboose, game_id, seat, name)
        except BaseException:
            self.seating.reopen(game_id, seat, invite, token)
            raise
        return seat, token

    def summary(self, game_id: str, loaded: Game | None = None) -> dict[str, Any]:
        summary = self.caboose.summary(game_id, loaded)
        claimed = self.seating.names(game_id)
        for seat in summary["seats"]:
            seat["name"] = claimed.get(seat["seat"]) or seat["name"]
            seat["open"] = seat["seat"] in claimed and claimed[seat["seat"]] is None
        return summary

    def games(self, status: str | None = None, game: str | None = None, waiting_for: Audience | None = None,
              token: str | None = None) -> list[dict[str, Any]]:
        """Games, newest activity first, filtered by status, ruleset, or the token's seat being active."""
        candidates = [g for g, _ in self.seating.seats_of(token)] if token is not None else self.seating.game_ids()
        out = []
        for game_id in candidates:
            try:
                summary = self.summary(game_id)
            except GameNotFound:
                continue  # being created, or its creation failed and is being undone
            if (status and summary["status"] != status) or (game and summary["game"] != game):
                continue
            if waiting_for is not None and waiting_for.seat not in summary["active_seats"]:
                continue
            out.append(summary)
        return sorted(out, key=lambda s: s["updated_at"], reverse=True)
