"""Games as players meet them: created with seat tokens, joined by invite, listed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.events import Audience
from service.application import Caboose
from service.db import make_engine
from service.seating import Issued, Seating


class Lobby:
    def __init__(self, caboose: Caboose, seating: Seating | None = None) -> None:
        self.caboose = caboose
        self.seating = seating or Seating(make_engine(caboose.settings.db, caboose.settings.schema))

    def open_game(self, game: str, players: list[str | None], options: Mapping[str, Any] | None = None,
                  seed: bytes | None = None) -> tuple[str, Issued]:
        """Create a game; named seats get tokens, open seats (None) get invite codes."""
        names = [name if name is not None else f"open seat {i}" for i, name in enumerate(players)]
        game_id = self.caboose.create_game(game, names, options, seed=seed)
        return game_id, self.seating.issue(game_id, players)

    def join(self, game_id: str, invite: str, name: str) -> tuple[int, str]:
        self.caboose.game(game_id)
        return self.seating.join(game_id, invite, name)

    def summary(self, game_id: str) -> dict[str, Any]:
        summary = self.caboose.summary(game_id)
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
            summary = self.summary(game_id)
            if (status and summary["status"] != status) or (game and summary["game"] != game):
                continue
            if waiting_for is not None and waiting_for.seat not in summary["active_seats"]:
                continue
            out.append(summary)
        return sorted(out, key=lambda s: s["updated_at"], reverse=True)
