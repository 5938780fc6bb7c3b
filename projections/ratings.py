"""Ratings: OpenSkill's Plackett–Luce model (the `openskill` package) per game title, from
the places of finished tournament tables, in the order they finished.

A player is known by name within a game title. Each table is one match of one-player
teams ranked by place (shared places are ties); a ruling's places replace the game's. The
rating shown is OpenSkill's ordinal, mu - 3 sigma: what the model is fairly sure the player
is at least."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce


@dataclass(frozen=True)
class Match:
    """One finished table: its game title, when it finished, its players and their places."""

    game: str
    time: str
    players: tuple[str, ...]
    places: tuple[int, ...]


@dataclass(frozen=True)
class Rating:
    player: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, object]:
        return {"player": self.player, "rating": round(self.ordinal, 3), "mu": round(self.mu, 3),
                "sigma": round(self.sigma, 3), "games": self.games}


def rated(matches: Iterable[Match]) -> dict[str, list[Rating]]:
    """Every player's rating per game title, best first."""
    model = PlackettLuce()
    by_game: dict[str, dict[str, tuple[object, int]]] = {}
    for match in sorted(matches, key=lambda m: m.time):
        known = by_game.setdefault(match.game, {})
        teams = [[known[p][0] if p in known else model.rating(name=p)] for p in match.players]
        after = model.rate(teams, ranks=[float(place) for place in match.places])  # type: ignore[arg-type]
        for player, team in zip(match.players, after, strict=True):
            known[player] = (team[0], known.get(player, (None, 0))[1] + 1)
    return {game: sorted((Rating(p, r.mu, r.sigma, n) for p, (r, n) in players.items()),  # type: ignore[attr-defined]
                         key=lambda rating: -rating.ordinal)
            for game, players in by_game.items()}


def ranking(ratings: Sequence[Rating]) -> list[dict[str, object]]:
    return [{"rank": rank, **r.to_json()} for rank, r in enumerate(ratings, start=1)]
