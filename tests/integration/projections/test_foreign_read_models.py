"""Read models left from another event store (a database restored or swapped beside
them) are detected and rebuilt from the store in hand, instead of answering 503 for
every game: on a real SQLite file put in place of the read models, over HTTP, and on
PostgreSQL."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from projections.runner import PollingRunner, caught_up, mismatch, projection_for
from projections.store import ReadStore, read_db_url, use_read_store
from service.application import Caboose
from service.settings import RateLimits, Settings
from tests.conftest import POSTGRES_URL, fresh_schema
from tests.e2e.conftest import serving
from tests.integration.projections.conftest import everything, finished_games, fresh, unfinished_game

UNLIMITED = RateLimits.every("1000000/minute")


def sqlite_store(folder: Path, games: int, moves: int, seed: int) -> tuple[str, list[str]]:
    """A closed SQLite store with its read models caught up beside it."""
    folder.mkdir()
    db = f"sqlite:///{folder}/caboose.sqlite"
    app = Caboose(Settings(db=db, rate_limits=UNLIMITED))
    ids = [app.import_record(records) for records in finished_games(games, seed=seed)]
    ids.append(unfinished_game(app, moves, seed=seed))
    store = ReadStore(read_db_url(db))
    PollingRunner(app, projection_for(app, store)).catch_up()
    store.close()
    app.close()
    return db, ids


@pytest.mark.parametrize("left_from", ["a longer log", "a shorter log"])
def test_read_models_of_another_sqlite_store_are_rebuilt_and_answer_over_http(left_from: str, tmp_path: Path) -> None:
    other_db, _ = sqlite_store(tmp_path / "other", 3 if left_from == "a longer log" else 0, 30, seed=5)
    db, ids = sqlite_store(tmp_path / "mine", 1 if left_from == "a longer log" else 3, 10, seed=6)
    # The other store's read models, file and all, put in place of this store's.
    shutil.copyfile(read_db_url(other_db).removeprefix("sqlite:///"), read_db_url(db).removeprefix("sqlite:///"))

    app = Caboose(Settings(db=db, rate_limits=UNLIMITED))
    left = ReadStore(read_db_url(db))
    assert mismatch(app, left) is not None
    left.close()
    with serving(app) as client:
        for game_id in ids:
            reply = client.get(f"/api/v1/games/{game_id}/scores")
            assert reply.status == 200, reply.body
            assert reply.body["version"] == app.game(game_id).version
        created = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["Ann", "Ben"]})
        assert created.status == 201
        assert client.get(f"/api/v1/games/{created.body['game_id']}/board").status == 200
    store = ReadStore(read_db_url(db))
    assert everything(store) == fresh(app)
    assert mismatch(app, store) is None
    store.close()
    app.close()


def test_read_models_of_another_store_that_cannot_be_rebuilt_are_reported(tmp_path: Path) -> None:
    other_db, _ = sqlite_store(tmp_path / "other", 1, 10, seed=12)
    db, ids = sqlite_store(tmp_path / "mine", 1, 12, seed=13)
    # The other store's read models, opened read-only: they cannot be rebuilt in place.
    read_only = f"sqlite:///file:{read_db_url(other_db).removeprefix('sqlite:///')}?mode=ro&uri=true"
    before = everything(ReadStore(read_db_url(other_db)))
    app = Caboose(Settings(db=db, rate_limits=UNLIMITED))
    store = ReadStore(read_only)
    use_read_store(app, store)
    with serving(app) as client:
        reply = client.get(f"/api/v1/games/{ids[0]}/board")
    assert reply.status == 503 and reply.headers["retry-after"]
    assert reply.body["code"] == "read_model_error"
    assert "do not match the event store" in reply.body["detail"]
    assert "run `caboose projections rebuild`" in reply.body["detail"]
    store.close()
    app.close()
    assert everything(ReadStore(read_db_url(other_db))) == before


def test_read_models_that_match_are_left_alone(tmp_path: Path) -> None:
    db, ids = sqlite_store(tmp_path / "mine", 2, 10, seed=8)
    app = Caboose(Settings(db=db))
    store = ReadStore(read_db_url(db))
    before = everything(store)
    use_read_store(app, store)
    caught_up(app, ids[0])
    assert everything(store) == before
    store.close()
    app.close()


@pytest.fixture
def other_schema() -> Iterator[str]:
    with fresh_schema() as schema:
        yield schema


@pytest.mark.postgres
def test_read_models_of_another_postgres_store_are_rebuilt(postgres_schema: str, other_schema: str) -> None:
    other = Caboose(Settings(db=POSTGRES_URL, schema=other_schema))
    for records in finished_games(2, seed=9):
        other.import_record(records)
    other_store = ReadStore(read_db_url(POSTGRES_URL, other_schema))
    PollingRunner(other, projection_for(other, other_store)).catch_up()
    other.close()

    mine = Caboose(Settings(db=POSTGRES_URL, schema=postgres_schema))
    game_id = unfinished_game(mine, 12, seed=10)
    # This store pointed at read models the other store made.
    use_read_store(mine, other_store)
    assert mismatch(mine, other_store) is not None
    board = caught_up(mine, game_id).board(game_id)
    assert board["version"] == mine.game(game_id).version
    assert everything(other_store) == fresh(mine)
    other_store.close()
    mine.close()
