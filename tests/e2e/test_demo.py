"""The demo (`caboose serve --demo`) on a real SQLite file: a finished and a running game of
every game Caboose records, played by each game's strongest bots, the finished Ticket to Ride
game a real-looking one, and the running games open to their first seat's token over HTTP."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain import games
from service.api import create_app
from service.bootstrap import Services, bootstrap
from service.demo import Demo, demo_lines, play_demo
from service.people import FIRST_NAMES
from service.referee import full_audit
from service.settings import RateLimits, Settings
from service.simulation import best_level
from tests.e2e.conftest import serving


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Services, list[Demo]]:
    db = f"sqlite:///{tmp_path_factory.mktemp('demo')}/demo.sqlite"
    services = bootstrap(Settings(db=db, rate_limits=RateLimits.every("1000000/minute")))
    return services, play_demo(services.lobby)


def test_every_game_has_a_finished_and_a_running_game_by_its_strongest_bots(demo: tuple[Services, list[Demo]]) -> None:
    services, demos = demo
    app = services.caboose
    assert [d.game for d in demos] == [rules.name for rules in games.GAMES]
    for d in demos:
        assert d.level == best_level(games.current(d.game))
        assert set(d.finished.levels) == set(d.running.levels) == {d.level}
        finished, running = app.game(d.finished.game_id), app.game(d.running.game_id)
        assert finished.decider.is_over(finished.state), d.game
        assert not running.decider.is_over(running.state) and running.decider.active_seats(running.state), d.game
        # Well into the game, not just dealt: half as many moves as the finished game took, and
        # then on until Ann, whose token is printed, is to move; the bots play her opponents.
        assert d.running.moves >= d.finished.moves // 2 > 10, d.game
        assert 0 in running.decider.active_seats(running.state), d.game
        assert running.held_by_bots == {seat: d.level for seat in range(1, len(running.seats))}, d.game
        # Every seat a person's name (Ann's game, and the bots' finished one), never "player 2".
        assert running.seats[:1] == ["Ann"] and len(set(finished.seats)) == len(finished.seats), d.game
        assert set(running.seats) | set(finished.seats) <= set(FIRST_NAMES), (d.game, finished.seats)


def test_the_finished_ticket_to_ride_game_looks_like_a_real_game(demo: tuple[Services, list[Demo]]) -> None:
    services, demos = demo
    ttr = next(d for d in demos if d.game == "ticket_to_ride")
    assert ttr.level == "planner" and len(ttr.finished.levels) == 4
    records = services.caboose.records(ttr.finished.game_id)
    ended = next(r for r in records if r["kind"] == "GameEnded")["data"]
    assert all(score > 0 for score in ended["scores"].values()), ended["scores"]
    scored = [r["data"] for r in records if r["kind"] == "TicketScored"]
    assert sum(t["completed"] for t in scored) > len(scored) / 2
    # The bots' moves re-adjudicate in the audit like anyone's.
    assert full_audit(services.caboose, ttr.finished.game_id).ok


def test_the_running_games_answer_their_first_seat_s_token(demo: tuple[Services, list[Demo]]) -> None:
    services, demos = demo
    lines = "\n".join(demo_lines(demos, "http://demo.example", services.caboose.settings.db))
    assert lines.splitlines()[0] == "Lobby (every game, new games, joining by invite): http://demo.example/"
    for d in demos:
        for played in (d.finished, d.running):
            assert played.issued is not None and f"referee token: {played.issued.referee_token}" in lines, d.game
        token = d.running.issued.seat_tokens[0] if d.running.issued else ""
        assert f"play as Ann (it is Ann's move; the {d.level} bots play the others): " \
               f"http://demo.example/games/{d.running.game_id}/replay#token={token}" in lines, d.game
    assert "?token=" not in lines
    with serving(services.caboose, create_app(services=services)) as client:
        for d in demos:
            assert d.finished.game_id in lines and d.running.game_id in lines
            assert d.running.issued is not None
            token = d.running.issued.seat_tokens[0]
            assert token in lines
            # The replay link carries the token in its fragment, which no server or proxy logs.
            assert f"http://demo.example/games/{d.running.game_id}/replay#token={token}" in lines
            summary = client.get(f"/api/v1/games/{d.running.game_id}", token=token)
            assert summary.status == 200 and "Ann" in json.dumps(summary.body), d.game
            legal = client.get(f"/api/v1/games/{d.running.game_id}/legal-moves", token=token)
            assert legal.status == 200 and legal.body["seat"] == 0, (d.game, legal.body)
        assert "?token=" not in lines


def test_ann_moves_and_the_bots_play_on_in_every_running_demo(demo: tuple[Services, list[Demo]]) -> None:
    """The printed token plays: Ann makes a move over HTTP, and the bot runner (which `caboose
    serve` runs beside the API) moves for her opponents until she is to move again or the
    game ends."""
    from service.bots import BotRunner

    services, demos = demo
    runner = BotRunner(services.caboose)
    with serving(services.caboose, create_app(services=services)) as client:
        for d in demos:
            assert d.running.issued is not None
            token, game_id = d.running.issued.seat_tokens[0], d.running.game_id
            move = client.get(f"/api/v1/games/{game_id}/legal-moves", token=token).body["moves"][0]
            assert client.post(f"/api/v1/games/{game_id}/moves", move, token=token).status == 201, d.game
            for _ in range(200):
                game = services.caboose.game(game_id)
                if game.is_over or 0 in game.decider.active_seats(game.state):
                    break
                runner.run_once()
            game = services.caboose.game(game_id)
            assert game.is_over or 0 in game.decider.active_seats(game.state), d.game


def test_caboose_serve_prints_the_lobbys_address(tmp_path: Any) -> None:
    from tests.support.served import Served

    with Served(tmp_path) as served:
        lobby = served.client().get("/")
        printed = served.output()
    assert lobby.status == 200 and f"Caboose on {served.base}/  (the lobby: open it in a browser" in printed, printed
