"""Ratings: OpenSkill's Plackett–Luce model (the `openskill` package) per game title, from
the places of finished tournament tables and of games created rated, in the order they
finished.

A player is known by name within a game title. Each result is one match of one-player
teams ranked by place (shared places are ties); a ruling's places replace the game's. The
rating shown is OpenSkill's ordinal, mu - 3 sigma: what the model is fairly sure the player
is at least.

The matches are rated in the order of `Match.key`: when they finished, then the
tournament, round and table (the tables one settlement records share its time). The read
model (`projections/tournaments.py`) keeps, beside each match, every player's rating just
before it: a new match is rated onto the ratings as they are, and a match that lands earlier
in that order, a ruling that changes one already rated, or one taken away has the matches
from that point on rated again, from the ratings kept there. Either way the ratings are
those `rated` gives for all the matches at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from domain.core import log
from domain.core.envelope import to_event
from domain.core.kinds import CORE, REWINDS, ForkedFrom, GameCreated
from domain.tournament import record as tr
from domain.tournament.events import ResultRuled, TableFinished
from domain.tournament.points import places as places_of
from projections.index import sortable_time


@dataclass(frozen=True)
class Match:
    """One rated result: its game (the table's or the rated game's id), game title, order
    key, players and their places."""

    id: str
    game: str
    key: str
    players: tuple[str, ...]
    places: tuple[int, ...]


def match_key(time: str, game_id: str, tournament_id: str | None = None, round_: int = 0, table: int = 0) -> str:
    """The order the matches are rated in (see the module's docstring)."""
    return f"{sortable_time(time)}|{tournament_id or ''}|{round_:05d}|{table:05d}|{game_id}"


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


_MODEL = PlackettLuce()


def rate_one(now: dict[str, Rating], match: Match) -> None:
    """Rate one match onto `now` (each player's rating; a player not in it starts at the
    model's default), in place."""
    teams = [[_MODEL.rating(mu=now[p].mu, sigma=now[p].sigma, name=p) if p in now else _MODEL.rating(name=p)]
             for p in match.players]
    after = _MODEL.rate(teams, ranks=[float(place) for place in match.places])  # type: ignore[arg-type]
    for player, team in zip(match.players, after, strict=True):
        now[player] = Rating(player, team[0].mu, team[0].sigma, (now[player].games if player in now else 0) + 1)


def rate_onto(known: Mapping[str, Rating], matches: Iterable[Match]) -> dict[str, Rating]:
    """The ratings after `matches` (one game title, in their order), from `known` (each
    player's rating before them)."""
    now = dict(known)
    for match in matches:
        rate_one(now, match)
    return now


def best_first(ratings: Iterable[Rating]) -> list[Rating]:
    return sorted(ratings, key=lambda rating: (-rating.ordinal, rating.player))


def rated(matches: Iterable[Match]) -> dict[str, list[Rating]]:
    """Every player's rating per game title, best first."""
    by_game: dict[str, list[Match]] = {}
    for match in sorted(matches, key=lambda m: m.key):
        by_game.setdefault(match.game, []).append(match)
    return {game: best_first(rate_onto({}, found).values()) for game, found in sorted(by_game.items())}


def ranking(ratings: Sequence[Rating]) -> list[dict[str, object]]:
    return [{"rank": rank, **r.to_json()} for rank, r in enumerate(ratings, start=1)]


# -- the matches, from the records alone (what the read model keeps, and what a test redoes) --


def tournament_matches(records: Sequence[dict[str, Any]], tables: Mapping[str, tuple[str, ...]], game: str) -> list[Match]:
    """A tournament's rated results: each table with a result, at the time its first result
    was recorded (its game's end, or a ruling), with the places last recorded or ruled.
    `tables`: each table game's players in seat order."""
    found: dict[str, Match] = {}
    for record in records:
        event = tr.to_event(record)
        if not isinstance(event, (TableFinished, ResultRuled)):
            continue
        earlier = found.get(event.game_id)
        key = earlier.key if earlier is not None else match_key(record["time"], event.game_id, record["tournament_id"],
                                                                event.round, event.table)
        found[event.game_id] = Match(event.game_id, game, key, tables[event.game_id], tuple(event.places))
    return list(found.values())


def rated_game_match(records: Sequence[dict[str, Any]], seats: Sequence[str], finish: Mapping[int, Sequence[int]] | None) -> Match | None:
    """A game created rated, once it has ended: its places by the game's order of finish
    (`finish`, None while it is not over), at the time of the end that stands (a rewind to
    before the end takes it back)."""
    if finish is None:
        return None
    events = [to_event(record, CORE) for record in records]  # the core's kinds typed, the game's untyped
    created = events[0]
    if not isinstance(created, GameCreated) or not created.rated or any(isinstance(event, ForkedFrom) for event in events):
        return None  # a fork copies its origin's GameCreated, but a what-if is never rated
    ended: dict[str, Any] | None = None
    for record, event in zip(records, events, strict=True):
        if event.kind == log.GAME_ENDED:
            ended = record
        elif isinstance(event, REWINDS) and ended is not None and event.to_version < ended["version"]:
            ended = None
    if ended is None:
        return None
    keys = [tuple(finish[seat]) for seat in range(len(seats))]
    return Match(ended["game_id"], created.game, match_key(ended["time"], ended["game_id"]), tuple(seats),
                 places_of(keys))
