"""The play path evolves each stored event once, and the state it stores is the fold's."""

from __future__ import annotations

import json
import random

import pytest

from domain.core import fold
from domain.core.codec import encode
from domain.core.randomness import SeededRandom
from service.aggregate import Drawn
from service.application import Caboose
from service.settings import Settings
from service.simulation import game_seed
from tests.support.evolves import counting


@pytest.mark.parametrize("game, seats", [("ticket_to_ride", 3), ("age_of_steam", 3)])
def test_each_stored_event_is_evolved_once_and_the_stored_state_is_the_fold(
        sqlite_app: Caboose, game: str, seats: int) -> None:
    chooser = random.Random(5)
    game_id = sqlite_app.create_game(game, [f"p{i}" for i in range(seats)], seed=game_seed(5, seats))
    calls = stored = 0
    for _ in range(60):
        aggregate = sqlite_app.game(game_id)
        if aggregate.is_over:
            break
        seat = chooser.choice(sorted(aggregate.decider.active_seats(aggregate.state)))
        moves = aggregate.decider.legal_moves(aggregate.state, seat)
        with counting(game) as count:
            records = sqlite_app.play(game_id, seat, chooser.choice(moves))
        calls += count[0]
        stored += len([r for r in records if r["kind"] != "SeedRevealed"])
    assert stored > 40
    assert calls == stored
    # The state the move reached, as cached, is the state a fresh fold of the record gives,
    # and the state a fresh application loads from the store.
    folded = fold.replay(sqlite_app.records(game_id)).state
    assert encode(sqlite_app.game(game_id).state) == encode(folded)
    fresh = Caboose(Settings(db=sqlite_app.settings.db))
    loaded = fresh.game(game_id)
    assert encode(loaded.state) == encode(folded)
    live = sqlite_app.game(game_id)
    assert (loaded.waiting_since, loaded.thinking_seconds) == (live.waiting_since, live.thinking_seconds)


@pytest.mark.parametrize("game", ["ticket_to_ride", "age_of_steam", "railway_boom"])
def test_a_games_decision_passes_through_the_states_its_events_fold_to(game: str) -> None:
    app = Caboose(Settings(db="memory"))
    game_id = app.create_game(game, ["a", "b", "c"], seed=game_seed(8, 3))
    chooser = random.Random(8)
    for _ in range(40):
        aggregate = app.game(game_id)
        decider, state = aggregate.decider, aggregate.state
        if aggregate.is_over:
            break
        seat = chooser.choice(sorted(decider.active_seats(state)))
        move = chooser.choice(decider.legal_moves(state, seat))
        drawn = aggregate.randomness()
        assert isinstance(drawn, Drawn)
        decision = decider.decision(state, seat, move, SeededRandom(drawn.seed, drawn.position))
        folded = [state]
        for event in decision.events:
            folded.append(decider.evolve(folded[-1], event))
        assert list(decision.states) == folded
        app.play(game_id, seat, move)


def test_a_moves_recorded_events_keep_the_stored_layout_of_earlier_versions() -> None:
    """`Game.Recorded` is an explicit event class (it was a decorated method's): its topic,
    its fields and their order, hence the bytes stored for it, are the ones stores written
    by earlier versions hold, and folding them leaves the game where a fresh read of the
    store does."""
    app = Caboose(Settings(db="memory"))
    game_id = app.create_game("ticket_to_ride", ["a", "b", "c"], seed=game_seed(9, 3))
    chooser = random.Random(9)
    for _ in range(30):
        game = app.game(game_id)
        seat = chooser.choice(sorted(game.decider.active_seats(game.state)))
        app.play(game_id, seat, chooser.choice(game.decider.legal_moves(game.state, seat)))
    rows = [row for row in app.recorder.select_events(app._key(game_id)) if row.topic.endswith(":Game.Recorded")]
    assert rows and {row.topic for row in rows} == {"service.aggregate:Game.Recorded"}
    for row in rows:
        assert list(json.loads(row.state)) == ["timestamp", "record", "rng_position", "request_digest"]
    game, records = app.game(game_id), app.records(game_id)
    assert (game.version, encode(game.state), game.head) == \
        (records[-1]["version"], encode(fold.replay(records).state), records[-1]["hash"])
