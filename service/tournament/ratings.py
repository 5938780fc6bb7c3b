"""The ratings over the store: read from the ratings read model (`projections/tournaments.py`),
brought up to the end of the log first, so a result just recorded counts; and the same
ratings computed from the records alone (`computed`), what the read model must equal."""

from __future__ import annotations

from typing import Any

from domain.core.envelope import to_event
from domain.core.errors import RuleError
from domain.core.kinds import CORE, GameCreated
from domain.tournament import record as tr
from projections.ratings import Match, Rating, rated, rated_game_match, tournament_matches
from projections.runner import log_caught_up
from projections.tournaments import stored_rating, stored_ratings
from service.application import Caboose
from service.tournament.store import Shelf


class Ratings:
    def __init__(self, caboose: Caboose) -> None:
        self.caboose = caboose

    def all(self, game: str | None = None) -> dict[str, list[Rating]]:
        """Every game title's ratings (one title's with `game`), best first, as of the end of the log."""
        return stored_ratings(log_caught_up(self.caboose), game)

    def of(self, game: str) -> list[Rating]:
        return self.all(game).get(game, [])

    def rating_of(self, game: str, player: str) -> float | None:
        """A player's rating (OpenSkill's ordinal) in a game, None when unrated."""
        found = stored_rating(log_caught_up(self.caboose), game, player)
        return round(found.ordinal, 3) if found is not None else None


def computed(caboose: Caboose, shelf: Shelf) -> dict[str, list[Rating]]:
    """Every game title's ratings made from the records alone: each tournament's tables with
    a result, and each game created rated that has ended."""
    matches: list[Match] = []
    for tournament_id in shelf.ids():
        entries = shelf.records(tournament_id)
        state = tr.folded(entries)
        seats = {t.game_id: t.seats for t in state.tables if t.game_id is not None}
        matches += tournament_matches(entries, seats, state.created.game)
    for game_id in caboose.game_ids():
        records: list[dict[str, Any]] = caboose.records(game_id)
        created = to_event(records[0], CORE)
        if not isinstance(created, GameCreated) or not created.rated:
            continue
        try:
            game = caboose.game(game_id)
        except RuleError:
            continue  # its rules are not installed here: the read model cannot rate it either
        finish = game.decider.finish(game.state) if game.is_over else None
        match = rated_game_match(records, list(game.seats), finish)
        if match is not None:
            matches.append(match)
    return rated(matches)
