"""The application on real stores (SQLite file and PostgreSQL), with the `race` fake."""

from __future__ import annotations

import threading

import pytest

from domain.core.errors import GameOver, IllegalMove, MalformedMove, NotYourTurn, RecordError
from domain.core.events import PUBLIC, Audience
from service.application import Caboose
from service.errors import GameNotFound, VersionConflict
from service.settings import Settings


def new_race(app: Caboose, goal: int = 30) -> str:
    return app.create_game("race", ["ann", "bob"], {"goal": goal}, seed=bytes(range(32)))


def advance(app: Caboose, game_id: str, by: int = 1, **kwargs) -> list[dict]:
    seat = app.summary(game_id)["active_seats"][0]
    return app.play(game_id, seat, {"type": "advance", "by": by}, **kwargs)


def test_create_play_and_finish(app: Caboose) -> None:
    game_id = new_race(app, goal=6)
    while app.summary(game_id)["status"] == "active":
        advance(app, game_id, 3)
    records = app.records(game_id)
    assert records[0]["kind"] == "GameCreated" and records[-1]["kind"] == "SeedRevealed"
    assert [r["version"] for r in records] == list(range(1, len(records) + 1))
    assert app.audit(game_id).ok


def test_two_writers_at_one_version_one_wins(app: Caboose) -> None:
    game_id = new_race(app)
    version = app.game(game_id).version
    advance(app, game_id, expected_version=version)
    with pytest.raises(VersionConflict) as caught:
        advance(app, game_id, expected_version=version)
    assert caught.value.current == version + 1
    assert app.game(game_id).version == version + 1


def test_concurrent_writers_never_store_half_a_move(app: Caboose) -> None:
    game_id = new_race(app, goal=1000)
    start = app.game(game_id).version
    outcomes: list[str] = []

    def writer() -> None:
        for _ in range(10):
            try:
                advance(app, game_id, 1, expected_version=app.game(game_id).version)
                outcomes.append("stored")
            except (VersionConflict, NotYourTurn):
                outcomes.append("refused")

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stored = outcomes.count("stored")
    records = app.records(game_id)
    assert len(records) == start + stored
    assert [r["version"] for r in records] == list(range(1, len(records) + 1))
    assert app.audit(game_id).ok


def test_time_travel_and_snapshots_agree_with_a_replay(app: Caboose) -> None:
    game_id = new_race(app, goal=200)
    for _ in range(25):  # past two snapshot intervals of 10
        advance(app, game_id)
    for at in (1, 4, 9, 10, 11, 20, 28):
        past = app.game(game_id, at=at)
        assert past.version == at
        assert past.state.counter == sum(r["data"]["by"] for r in app.records(game_id, upto=at) if r["kind"] == "CounterAdvanced")
    assert app.snapshots is not None
    assert len(list(app.snapshots.get(app._key(game_id)))) >= 2


@pytest.mark.parametrize("move, error", [
    ({"type": "jump"}, MalformedMove),
    ({"type": "advance", "by": "two"}, MalformedMove),
    ({"type": "advance", "by": 7}, IllegalMove),
])
def test_bad_moves_store_nothing(app: Caboose, move: dict, error: type) -> None:
    game_id = new_race(app)
    before = app.records(game_id)
    seat = app.summary(game_id)["active_seats"][0]
    with pytest.raises(error):
        app.play(game_id, seat, move)
    with pytest.raises(NotYourTurn):
        app.play(game_id, 1 - seat, {"type": "advance", "by": 1})
    assert app.records(game_id) == before


def test_moves_after_the_end_are_refused(app: Caboose) -> None:
    game_id = new_race(app, goal=3)
    advance(app, game_id, 3)
    with pytest.raises(GameOver):
        app.play(game_id, 0, {"type": "advance", "by": 1})


def test_unknown_game(app: Caboose) -> None:
    for bad in ("not-a-uuid", "00000000-0000-0000-0000-000000000000"):
        with pytest.raises(GameNotFound):
            app.summary(bad)


def test_secrets_are_redacted_until_the_end(app: Caboose) -> None:
    game_id = new_race(app, goal=4)
    dealt = [r for r in app.view_records(game_id, Audience(seat=0)) if r["kind"] == "SecretDealt"]
    assert "value" in dealt[0]["secrets"][0] and "value" not in dealt[1]["secrets"][0]
    assert all("value" not in s for r in app.view_records(game_id, PUBLIC) for s in r["secrets"])
    advance(app, game_id, 3)
    advance(app, game_id, 3)
    assert all("value" in s for r in app.view_records(game_id, PUBLIC) for s in r["secrets"])


def test_export_import_round_trip_and_tampering(app: Caboose, tmp_path) -> None:
    sqlite_app = Caboose(Settings(db=f"sqlite:///{tmp_path}/imported.sqlite"))
    game_id = new_race(app, goal=5)
    advance(app, game_id, 2)
    records = app.records(game_id)
    tampered = [dict(r) for r in records]
    tampered[3] = {**tampered[3], "data": {**tampered[3]["data"], "by": 3}}
    with pytest.raises(RecordError) as caught:
        sqlite_app.import_record(tampered)
    assert caught.value.version == 4
    with pytest.raises(GameNotFound):
        sqlite_app.game(game_id)
    assert sqlite_app.import_record(records) == game_id
    assert sqlite_app.records(game_id) == records
    with pytest.raises(RecordError, match="already stored"):
        sqlite_app.import_record(records)
