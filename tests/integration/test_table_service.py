"""Games played at a table through the application on real stores (SQLite and PostgreSQL):
what the game waits for survives snapshots and reloads, a bot's move in a table game waits
for its outcome like anyone's, and the referee's full audit (read models included) is OK."""

from __future__ import annotations

import pytest

from service import bots
from service.application import Caboose
from service.commands import EnterOutcomes
from service.lobby import Lobby
from service.referee import full_audit
from service.settings import Settings
from tests.conftest import fresh_schema


def play_a_table_game(app: Caboose) -> str:
    lobby = Lobby(app)
    game_id, _ = bots.open_game(lobby, "lucky", ["Ann", "Ben"], {"goal": 20}, bots={"1": "random"},
                                observed={"outcomes": [1]})
    runner = bots.BotRunner(app)
    runner.run_once()
    game = app.game(game_id)
    assert game.pending is not None, "the bot's move waits for its outcome"
    version = game.version
    assert runner.run_once() == 0 and app.game(game_id).version == version  # no bot enters an outcome
    referee = "referee:Rita"
    while not app.game(game_id).is_over:
        game = app.game(game_id)
        pending = game.pending
        if pending is not None:
            request = pending.request
            value = [2, 3] if request.kind == "roll" else [request.options[0]]
            app.execute(EnterOutcomes(game_id, [value], referee, None))
        elif 0 in game.decider.active_seats(game.state):
            app.play(game_id, 0, {"type": "roll"}, outcomes=[[1, 2]], actor=referee)
        else:
            runner.run_once()
    return game_id


@pytest.mark.parametrize("interval", [1, 3, 100])
def test_a_table_game_on_sqlite_reloads_through_snapshots_and_audits(tmp_path: object, interval: int) -> None:
    app = Caboose(Settings(db=f"sqlite:///{tmp_path}/t.sqlite", snapshot_interval=interval))
    try:
        game_id = play_a_table_game(app)
        fresh = Caboose(Settings(db=f"sqlite:///{tmp_path}/t.sqlite", snapshot_interval=interval))
        try:
            assert fresh.game(game_id).is_over and fresh.game(game_id).is_table
            assert fresh.summary(game_id)["waiting_for"] is None
            report = full_audit(fresh, game_id)
            assert report.ok, report.text()
        finally:
            fresh.close()
    finally:
        app.close()


@pytest.mark.postgres
def test_a_table_game_on_postgres_waits_across_reloads() -> None:
    from tests.conftest import POSTGRES_URL
    with fresh_schema() as schema:
        app = Caboose(Settings(db=POSTGRES_URL, schema=schema, snapshot_interval=2))
        try:
            lobby = Lobby(app)
            game_id, _ = lobby.open_game("lucky", ["Ann", "Ben"], {"goal": 20}, observed={"outcomes": [0]})
            app.play(game_id, 0, {"type": "draw"})
            other = Caboose(Settings(db=POSTGRES_URL, schema=schema, snapshot_interval=2))
            try:
                waiting = other.summary(game_id)["waiting_for"]
                assert waiting is not None and waiting["by"] == "seat:0"
                other.execute(EnterOutcomes(game_id, [["blue"]], "seat:0", 0))
                assert app.summary(game_id)["waiting_for"] is None
                assert app.game(game_id).state.hands[0] == ("blue",)
                assert full_audit(app, game_id).ok
            finally:
                other.close()
        finally:
            app.close()
