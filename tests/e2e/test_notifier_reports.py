"""The notifier says what it swallows (a WARNING per failed delivery, with the game, seat,
channel and error), and its links lead to the page a person opens — the game's replay —
on the address the service is actually served at."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from service.api import create_app
from service.application import Caboose
from service.lobby import Lobby
from service.notify.notifier import Notifier
from service.notify.senders import SmtpSettings
from service.settings import RateLimits, Settings, served_url
from tests.e2e.conftest import Client, serving
from tests.e2e.test_notifications import LOOPBACK_ALLOWED, free_port
from tests.support.receiver import Receiver, receiving


class RefusingMailbox:
    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        return "554 5.7.1 Refused by this test's mail server"


@pytest.fixture
def failing_receiver() -> Iterator[Receiver]:
    with receiving(failures=10**6) as server:
        yield server


def race_with_subscriptions(client: Client, hook: str, email: str) -> tuple[str, dict[str, str], int]:
    """A race game whose seats are told by webhook (seat 0) and email (seat 1); returns the
    game, the tokens and the seat whose turn it is."""
    created = client.post("/api/v1/games", {"game": "race", "players": ["ann", "bob"], "options": {"goal": 9}}).body
    base, tokens = f"/api/v1/games/{created['game_id']}", created["seat_tokens"]
    assert client.request("PUT", f"{base}/notifications", {"webhook_url": hook}, token=tokens["0"]).status == 200
    assert client.request("PUT", f"{base}/notifications", {"email": email}, token=tokens["1"]).status == 200
    return created["game_id"], tokens, client.get(base).body["active_seats"][0]


def advance_twice(client: Client, game_id: str, tokens: dict[str, str], seat: int) -> None:
    """Two moves, so each seat becomes active once after it subscribed."""
    for _ in range(2):
        assert client.post(f"/api/v1/games/{game_id}/moves", {"type": "advance", "by": 1}, token=tokens[str(seat)]).status == 201
        seat = 1 - seat


def test_every_failed_delivery_is_logged(tmp_path: Path, failing_receiver: Receiver, caplog: pytest.LogCaptureFixture) -> None:
    smtp_port = free_port()
    controller = Controller(RefusingMailbox(), hostname="127.0.0.1", port=smtp_port)
    controller.start()
    try:
        store = Caboose(Settings(db=f"sqlite:///{tmp_path}/n.sqlite", rate_limits=RateLimits.every("1000000/minute"),
                                 webhook_allow_networks=LOOPBACK_ALLOWED))
        lobby = Lobby(store)
        notifier = Notifier(store, lobby.seating.engine, SmtpSettings(port=smtp_port))
        with serving(store, create_app(store, lobby, notifier)) as client:
            hook = f"http://127.0.0.1:{failing_receiver.server_port}/hook"
            game_id, tokens, seat = race_with_subscriptions(client, hook, "bob@example.test")
            advance_twice(client, game_id, tokens, seat)
            with caplog.at_level(logging.WARNING, logger="service.notify.notifier"):
                notifier.run_once()
    finally:
        controller.stop()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING and r.name == "service.notify.notifier"]
    webhook = [m for m in warnings if "webhook" in m]
    email = [m for m in warnings if "email" in m]
    assert webhook and all(game_id in m and "seat 0" in m and "HTTP 500" in m for m in webhook), warnings
    assert email and all(game_id in m and "seat 1" in m and "554" in m for m in email), warnings


def test_links_lead_to_the_seats_play_page_and_the_replay_at_the_base_url(tmp_path: Path) -> None:
    store = Caboose(Settings(db=f"sqlite:///{tmp_path}/n.sqlite", base_url="https://caboose.example.org/"))
    notifier = Notifier(store, Lobby(store).seating.engine)
    assert notifier.links("abc", 1) == {
        "link": "https://caboose.example.org/#play=abc&seat=1", "replay": "https://caboose.example.org/games/abc/replay",
        "legal_moves": "https://caboose.example.org/api/v1/games/abc/legal-moves",
        "moves": "https://caboose.example.org/api/v1/games/abc/moves", "docs": "https://caboose.example.org/api/docs"}
    assert notifier.links("abc", None) == {"link": "https://caboose.example.org/games/abc/replay",
                                            "replay": "https://caboose.example.org/games/abc/replay"}


@pytest.mark.parametrize(("host", "port", "url"), [("127.0.0.1", 8123, "http://127.0.0.1:8123"), ("::1", 9000, "http://[::1]:9000"),
                                                   ("localhost", 80, "http://localhost:80")])
def test_the_served_address_is_the_one_people_open(host: str, port: int, url: str) -> None:
    assert served_url(host, port) == url


def test_the_every_interface_address_becomes_the_machines_name() -> None:
    assert "0.0.0.0" not in served_url("0.0.0.0", 8000)


@pytest.fixture
def hook_receiver() -> Iterator[Receiver]:
    with receiving() as server:
        yield server


def test_caboose_serve_links_to_the_seats_play_page_on_its_own_port(tmp_path: Path, hook_receiver: Receiver) -> None:
    port = free_port()
    env = {**os.environ, "CABOOSE_WEBHOOK_ALLOW_NETWORKS": "127.0.0.0/8", "CABOOSE_RATE_LIMIT": "100000/60"}
    env.pop("CABOOSE_BASE_URL", None)
    # The race game is registered by the tests' conftest; the served process registers it too.
    code = ("import sys; from domain import games; from tests.fakes.race import RACE; games.register(RACE); "
            "from cli.main import cli; sys.exit(cli())")
    output = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen([sys.executable, "-c", code, "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path}/s.sqlite"],
                              env=env, cwd=Path(__file__).parents[2], stdout=output, stderr=subprocess.STDOUT)
    try:
        client = Client(f"http://127.0.0.1:{port}")
        for _ in range(300):  # until the server answers
            try:
                urllib.request.urlopen(f"{client.base}/api/v1/openapi.json", timeout=5).close()
                break
            except OSError:
                time.sleep(0.1)
        game_id, tokens, seat = race_with_subscriptions(client, f"http://127.0.0.1:{hook_receiver.server_port}/hook", "x@example.test")
        advance_twice(client, game_id, tokens, seat)
        for _ in range(600):  # the notifier thread runs once a second
            if hook_receiver.received:
                break
            time.sleep(0.1)
        assert hook_receiver.received, "no notification arrived"
        told = json.loads(hook_receiver.received[0][1])
        assert told["link"] == f"http://127.0.0.1:{port}/#play={game_id}&seat={told['seat']}"
        assert told["replay"] == f"http://127.0.0.1:{port}/games/{game_id}/replay"
        for link in (told["link"], told["replay"]):
            with urllib.request.urlopen(link, timeout=10) as page:
                assert page.status == 200 and page.headers.get_content_type() == "text/html"
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        output.close()


def test_a_turn_notice_says_which_game_what_happened_since_and_how_to_play(tmp_path: Path, hook_receiver: Receiver) -> None:
    store = Caboose(Settings(db=f"sqlite:///{tmp_path}/n.sqlite", rate_limits=RateLimits.every("1000000/minute"),
                             webhook_allow_networks=LOOPBACK_ALLOWED, base_url="http://caboose.test"))
    lobby = Lobby(store)
    notifier = Notifier(store, lobby.seating.engine)
    with serving(store, create_app(store, lobby, notifier)) as client:
        created = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["Ann", "Ben"]}).body
        game_id, tokens = created["game_id"], created["seat_tokens"]
        base = f"/api/v1/games/{game_id}"
        hook = f"http://127.0.0.1:{hook_receiver.server_port}/hook"
        assert client.request("PUT", f"{base}/notifications", {"webhook_url": hook}, token=tokens["1"]).status == 200
        for seat in ("0", "1"):  # the opening: each seat keeps its tickets, in secret
            move = client.get(f"{base}/legal-moves", token=tokens[seat]).body["moves"][0]
            assert client.post(f"{base}/moves", move, token=tokens[seat]).status == 201
        ann_drew = False  # turns go round (either may have the first) until Ben is to move after Ann has
        while (active := client.get(base).body["active_seats"]) != [1] or not ann_drew:
            ann_drew = active == [0]
            assert client.post(f"{base}/moves", {"type": "draw_card", "source": "deck"}, token=tokens[str(active[0])]).status == 201
        notifier.run_once()
    told = [json.loads(body) for _, body in hook_receiver.received]
    turn = [t for t in told if t["event"] == "your_turn"][-1]
    assert turn["summary"] == "It is your turn in Ticket to Ride with Ann, Ben"
    assert turn["seat"] == 1 and turn["seat_name"] == "Ben" and turn["players"] == ["Ann", "Ben"]
    # What happened since Ben's last move: Ann's two blind draws (her ticket choice stays hers).
    assert turn["since"] == ["Ann draws blind", "Ann draws blind"], turn["since"]
    assert turn["link"] == f"http://caboose.test/#play={game_id}&seat=1"
    assert turn["legal_moves"] == f"http://caboose.test{base}/legal-moves" and turn["moves"] == f"http://caboose.test{base}/moves"
    assert all("keeps" not in line for t in told for line in t.get("since", [])), told
