"""Notifications reach a real local SMTP server (aiosmtpd) and a real local webhook
receiver; a mail server that is down never stops a move, and deliveries are retried."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from email import message_from_bytes

import pytest
from aiosmtpd.controller import Controller

from service.api import create_app
from service.application import Caboose
from service.lobby import Lobby
from service.notify.notifier import Backoff, Notifier
from service.notify.senders import SIGNATURE_HEADER, SmtpSettings, signature
from service.settings import RateLimits, Settings
from tests.e2e.conftest import Client, serving
from tests.support.ports import free_port
from tests.support.receiver import Receiver, receiving

# The receivers here listen on loopback, which webhooks may reach only when the operator
# allows it.
LOOPBACK_ALLOWED = ("127.0.0.0/8", "::1/128")


@pytest.fixture
def store(tmp_path: object) -> Caboose:
    return Caboose(Settings(db=f"sqlite:///{tmp_path}/api.sqlite", rate_limits=RateLimits.every("1000000/minute"),
                            webhook_allow_networks=LOOPBACK_ALLOWED))


class Mailbox:
    def __init__(self) -> None:
        self.messages: list = []

    async def handle_DATA(self, server, session, envelope) -> str:
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving(failures=1) as server:
        yield server


def play_opening(client: Client, base: str, tokens: dict[str, str]) -> None:
    for seat in ("0", "1"):
        move = client.get(f"{base}/legal-moves", token=tokens[seat]).body["moves"][0]
        assert client.post(f"{base}/moves", move, token=tokens[seat]).status == 201


def until(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)


def test_webhook_and_email_deliveries_with_retries(store: Caboose, receiver: Receiver) -> None:
    smtp_port = free_port()
    mailbox = Mailbox()
    lobby = Lobby(store)
    notifier = Notifier(store, lobby.seating.engine, SmtpSettings(port=smtp_port), Backoff(first_seconds=0.05))
    with serving(store, create_app(store, lobby, notifier)) as client:
        created = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["ann", "bob"], "seed": "01" * 32}).body
        base, tokens = f"/api/v1/games/{created['game_id']}", created["seat_tokens"]
        hook = client.request("PUT", f"{base}/notifications", {"webhook_url": f"http://127.0.0.1:{receiver.server_port}/hook"},
                              token=tokens["0"]).body
        assert len(hook["webhook_secret"]) == 64
        assert client.request("PUT", f"{base}/notifications", {"email": "bob@example.test"}, token=tokens["1"]).status == 200
        assert client.request("PUT", f"{base}/notifications", {"email": "not an email"}, token=tokens["1"]).status == 400

        # The mail server is down: moves are stored all the same.
        play_opening(client, base, tokens)
        first = client.get(base).body["active_seats"][0]
        notifier.run_once()
        # The receiver answers 500 once and the mail server is down: each failure is
        # recorded and visible to its seat, and will be retried.
        seat0 = client.get(f"{base}/notifications", token=tokens["0"]).body["deliveries"]
        assert any("500" in (d["last_error"] or "") and d["status"] == "pending" for d in seat0), seat0
        seat1 = client.get(f"{base}/notifications", token=tokens["1"]).body["deliveries"]
        assert seat1 and all(d["channel"] == "email" and d["last_error"] and d["status"] == "pending" for d in seat1), seat1

        controller = Controller(mailbox, hostname="127.0.0.1", port=smtp_port)
        controller.start()
        try:
            # Drive both seats until each has been told it is its turn.
            seat = first
            for _ in range(4):
                move = {"type": "draw_card", "source": "deck"}
                assert client.post(f"{base}/moves", move, token=tokens[str(seat)]).status == 201
                seat = client.get(base).body["active_seats"][0]

            def delivered() -> bool:
                notifier.run_once()
                return bool(receiver.received) and bool(mailbox.messages)

            until(delivered)
        finally:
            controller.stop()
    headers, body = receiver.received[0]
    assert headers[SIGNATURE_HEADER.lower()] == signature(hook["webhook_secret"], body)
    payload = json.loads(body)
    assert payload["event"] == "your_turn" and payload["seat"] == 0 and payload["game_id"] == created["game_id"]
    mail = mailbox.messages[0]
    assert mail["To"] == "bob@example.test" and "your turn" in mail["Subject"]
    assert created["game_id"] in mail.get_payload()
    statuses = client_statuses(store, lobby, notifier, created["game_id"])
    assert "delivered" in statuses[0] and "delivered" in statuses[1]


def client_statuses(store: Caboose, lobby: Lobby, notifier: Notifier, game_id: str) -> dict[int, list[str]]:
    return {seat: [d["status"] for d in notifier.status(game_id, seat)["deliveries"]] for seat in (0, 1)}


@pytest.mark.parametrize("raw", [b"", b"{}", b'{"email": "' + b"a" * 10_000 + b'@example.test"}',
                                 b'{"email": "' + b"a" * 243 + b'@example.test"}'],  # 256 characters: two past the longest
                         ids=["empty", "neither", "10 KB address", "256-character address"])
def test_a_subscription_that_says_nothing_or_too_much_is_refused(store: Caboose, raw: bytes) -> None:
    """An empty body or one naming neither channel says nothing (400, not a silent 200 that
    turns both off); an address longer than mail can carry (254 characters) is refused.
    Either way the seat's subscription is left as it was."""
    with serving(store, create_app(store, Lobby(store))) as client:
        created = client.post("/api/v1/games", {"game": "race", "players": ["ann", "bob"]}).body
        path, token = f"/api/v1/games/{created['game_id']}/notifications", created["seat_tokens"]["0"]
        assert client.request("PUT", path, {"email": "ann@example.test"}, token=token).status == 200
        reply = client.request("PUT", path, raw=raw, token=token)
        assert reply.status == 400 and reply.headers["content-type"] == "application/problem+json", (reply.status, reply.body)
        assert reply.body["code"] == "malformed_request" and reply.body["errors"], reply.body
        assert client.get(path, token=token).body["email"] == "ann@example.test"
