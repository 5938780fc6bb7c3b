"""A request loads its game once: the guard's load is the one the view decides and
answers from (`service/api/guard.py` hands it to the view as `loaded`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from service.api import create_app
from service.application import Caboose
from service.settings import Settings


@pytest.fixture
def counted(tmp_path: object) -> Iterator[tuple[Any, list[str]]]:
    caboose = Caboose(Settings(db=f"sqlite:///{tmp_path}/one.sqlite"))
    loads: list[str] = []
    original = caboose.game

    def game(game_id: str, at: int | None = None) -> Any:
        loads.append(f"{game_id}@{at}")
        return original(game_id, at)

    caboose.game = game  # type: ignore[method-assign]
    yield create_app(caboose).test_client(), loads
    caboose.close()


def test_a_move_and_each_read_load_the_game_once(counted: tuple[Any, list[str]]) -> None:
    client, loads = counted
    created = client.post("/api/v1/games", json={"game": "ticket_to_ride", "players": ["a", "b"]}).get_json()
    game_id, token = created["game_id"], created["seat_tokens"]["0"]
    auth = {"Authorization": f"Bearer {token}"}
    legal = None
    for path in ("", "/state", "/events", "/legal-moves"):
        loads.clear()
        answer = client.get(f"/api/v1/games/{game_id}{path}", headers=auth)
        assert answer.status_code == 200, answer.get_json()
        assert loads == [f"{game_id}@None"], path
        if path == "/legal-moves":
            legal = answer.get_json()["moves"][0]
    assert legal is not None
    loads.clear()
    moved = client.post(f"/api/v1/games/{game_id}/moves", json=legal, headers=auth)
    assert moved.status_code == 201, moved.get_json()
    assert loads == [f"{game_id}@None"]
