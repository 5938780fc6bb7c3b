"""The ratings read model against rating every match at once: rated games ending (at any
point of the order, as an import brings older results), their places changed by a ruling,
and their ends taken back, a few to a transaction; after each transaction the ratings kept
equal `projections/ratings.rated` of the matches there are then, to the last bit."""

from __future__ import annotations

import random

import service  # noqa: F401  (provisions the read models' database)
from projections.ratings import Match, match_key, rated
from projections.store import ReadStore
from projections.tournaments import TournamentProjection, stored_ratings

PLAYERS = [f"P{number}" for number in range(1, 13)]


def places_for(chooser: random.Random, seats: int) -> list[int]:
    scores = [chooser.randint(0, 4) for _ in range(seats)]
    return [1 + sum(other > mine for other in scores) for mine in scores]


def test_the_ratings_kept_equal_rating_every_match_at_once() -> None:
    store = ReadStore("sqlite://")
    projection = TournamentProjection(None)
    chooser = random.Random(29)
    matches: dict[str, Match] = {}
    redone = 0
    for step in range(150):
        with store.writing() as session:
            pending = projection.pending(session)
            for _ in range(chooser.randint(1, 3)):
                choice = chooser.random()
                if matches and choice < 0.15:  # an end taken back
                    game_id = chooser.choice(sorted(matches))
                    projection.rated_game(pending, game_id, "g", [], None, {"time": "", "version": 9}, rewound_to=0)
                    del matches[game_id]
                elif matches and choice < 0.35:  # places ruled again
                    game_id = chooser.choice(sorted(matches))
                    old = matches[game_id]
                    places = places_for(chooser, len(old.players))
                    projection.rated_game(pending, game_id, "g", list(old.players), places, {"time": "", "version": 1})
                    matches[game_id] = Match(game_id, "g", old.key, old.players, tuple(places))
                    redone += 1
                else:  # a game ends, at any point of the order
                    game_id = f"game-{step}-{len(matches)}-{chooser.randint(0, 10**6)}"
                    seats = chooser.sample(PLAYERS, chooser.randint(2, 5))
                    places = places_for(chooser, len(seats))
                    time = f"2026-12-{chooser.randint(1, 28):02d}T10:00:00.000000Z"
                    record = {"time": time, "version": 7}
                    projection.rated_game(pending, game_id, "g", seats, places, record)
                    matches[game_id] = Match(game_id, "g", match_key(time, game_id), tuple(seats), tuple(places))
            projection.flush(pending)
        assert stored_ratings(store) == rated(matches.values()), step
    assert redone > 20 and len(matches) > 50
    store.close()
