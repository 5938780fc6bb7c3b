"""Read models beside each real store, and quick ways to fill a store with games."""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from projections import store as store_module
from projections.models import TrackingRow
from projections.runner import rebuild
from projections.store import ReadStore, read_store_for, rows_of
from service.application import Caboose
from service.settings import Settings
from service.simulation import game_seed, play_one


@pytest.fixture(autouse=True)
def _release_connections() -> Iterator[None]:
    """Close every read store a test opened, and let unreachable applications go, so a run
    does not exhaust PostgreSQL's connections."""
    yield
    close_read_stores()


def close_read_stores() -> None:
    for read in list(store_module._STORES.values()):
        read.close()
    gc.collect()


@pytest.fixture
def store(app: Caboose) -> Iterator[ReadStore]:
    """The application's read models (beside the events: a second SQLite file, or the same
    PostgreSQL schema)."""
    read = read_store_for(app)
    yield read
    read.close()


def finished_games(count: int, seed: int = 7) -> list[list[dict[str, Any]]]:
    """Records of random Ticket to Ride games, played in memory (fast) to import anywhere."""
    memory = Caboose(Settings(db="memory"))
    chooser = random.Random(seed)
    ids = [play_one(memory, "ticket_to_ride", chooser.randint(2, 5), game_seed(seed, i), chooser, check=False).game_id
           for i in range(count)]
    return [memory.records(game_id) for game_id in ids]


def unfinished_game(app: Caboose, moves: int, seed: int = 3, players: int = 3) -> str:
    game_id = app.create_game("ticket_to_ride", [f"p{i}" for i in range(players)], seed=game_seed(seed, 0))
    chooser = random.Random(seed)
    for _ in range(moves):
        play_random(app, game_id, chooser)
    return game_id


def play_random(app: Caboose, game_id: str, chooser: random.Random) -> None:
    game = app.game(game_id)
    seat = chooser.choice(sorted(game.decider.active_seats(game.state)))
    app.play(game_id, seat, chooser.choice(game.decider.legal_moves(game.state, seat)))


def everything(store: ReadStore) -> dict[str, Any]:
    """Every row of every game, and the tracking position: two read models that agree on
    this are the same."""
    with store.reading() as session:
        from projections.models import GameRow

        ids = sorted(session.scalars(select(GameRow.game_id)))
        tracked = {row.application_name: row.notification_id for row in session.scalars(select(TrackingRow))}
        return {"tracked": tracked, "games": {game_id: rows_of(session, game_id) for game_id in ids}}


def fresh(app: Caboose) -> dict:
    """What a rebuild from zero gives, in a database of its own."""
    scratch = ReadStore("sqlite://")
    try:
        rebuild(app, scratch)
        return everything(scratch)
    finally:
        scratch.close()
