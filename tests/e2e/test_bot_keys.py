"""The bot runner's idempotency keys are the server's own, over a real HTTP server: a seat
that sends its move under the key the runner will use for a bot's next move (`bot:GAME:V`,
predictable by design) is refused before anything is stored, so the bot it meant to freeze
still moves; every other reserved prefix is refused the same way, on moves, outcomes and
referee actions alike."""

from __future__ import annotations

import logging

import pytest

from service import command_ids
from service.application import Caboose
from service.bots import BotRunner
from tests.e2e.conftest import Client


def race(client: Client) -> tuple[str, dict[str, str], str]:
    reply = client.post("/api/v1/games", {"game": "race", "players": ["Ann", "Bob"], "options": {"goal": 40}})
    assert reply.status == 201, reply.body
    return f"/api/v1/games/{reply.body['game_id']}", reply.body["seat_tokens"], reply.body["referee_token"]


def test_a_seat_cannot_take_the_key_of_a_bot_s_next_move(client: Client, store: Caboose,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    base, tokens, referee = race(client)
    game_id = base.rsplit("/", 1)[1]
    summary = client.get(base).body
    mover, version = summary["active_seats"][0], summary["version"]
    other = 1 - mover
    # The attack: the mover's own move, sent under the key the runner will use once the
    # referee has handed the other seat to a bot, two versions from now.
    planted = command_ids.bot_move(game_id, version + 2)
    refused = client.post(f"{base}/moves", {"type": "advance", "by": 1}, token=tokens[str(mover)],
                          headers={"Idempotency-Key": planted})
    assert refused.status == 400, refused.body
    assert refused.body["code"] == "idempotency_key_reserved" and "'bot:'" in refused.body["detail"]
    assert refused.headers["content-type"] == "application/problem+json"
    assert client.get(base).body["version"] == version  # nothing stored

    assert client.post(f"{base}/moves", {"type": "advance", "by": 1}, token=tokens[str(mover)]).status == 201
    taken = client.post(f"{base}/seats/{other}/bot", {"level": "random"}, token=referee)
    assert taken.status == 201 and taken.body["version"] == version + 2, taken.body

    with caplog.at_level(logging.WARNING):
        assert BotRunner(store).run_once() >= 1
    assert not [r for r in caplog.records if r.exc_info], "the runner logged a traceback"
    moved = client.get(f"{base}/events?after={version + 2}", token=referee).body["events"]
    assert moved[0]["actor"] == f"seat:{other}" and moved[0]["command_id"] == planted


@pytest.mark.parametrize("key", ["bot:x", "BOT:x", "Bot:anything", "referee:1", "create:1", "fork:1", "system:1"])
def test_every_reserved_prefix_is_refused_and_nothing_is_stored(client: Client, key: str) -> None:
    base, tokens, referee = race(client)
    summary = client.get(base).body
    seat = str(summary["active_seats"][0])
    sent = [
        client.post(f"{base}/moves", {"type": "advance", "by": 1}, token=tokens[seat], headers={"Idempotency-Key": key}),
        client.post(f"{base}/disputes", {"referee": "Rita", "version": 1, "raised_by": "seat:0", "claim": "a slip"},
                    token=referee, headers={"Idempotency-Key": key}),
        client.request("PUT", f"{base}/deadline", {"move_deadline": "PT1H"}, token=referee, headers={"Idempotency-Key": key}),
        client.post(f"{base}/outcomes", {"outcome": 1}, token=referee, headers={"Idempotency-Key": key}),
    ]
    for reply in sent:
        assert reply.status == 400 and reply.body["code"] == "idempotency_key_reserved", reply.body
        assert key.split(":")[0].lower() + ":" in reply.body["detail"]
    assert client.get(base).body["version"] == summary["version"]
    # A key that merely contains a reserved word is the client's own.
    fine = client.post(f"{base}/moves", {"type": "advance", "by": 1}, token=tokens[seat], headers={"Idempotency-Key": "my-bot:1"})
    assert fine.status == 201, fine.body


def test_a_hand_back_retried_with_its_key_answers_its_records_and_a_token_that_works(client: Client) -> None:
    """A token is kept only as its hash: the retry answers with the first records and another
    fresh token (the first one stops), while the seat is as that hand-back left it; once the
    seat has changed hands again, the retry is refused (409) and changes nothing."""
    base, _, referee = race(client)
    assert client.post(f"{base}/seats/1/bot", {"level": "random"}, token=referee).status == 201
    key = {"Idempotency-Key": "hand-back-cleo"}
    first = client.post(f"{base}/seats/1/hand-back", {"reason": "back"}, token=referee, headers=key)
    again = client.post(f"{base}/seats/1/hand-back", {"reason": "back"}, token=referee, headers=key)
    assert first.status == again.status == 201, (first.body, again.body)
    assert again.body["events"] == first.body["events"] and again.body["token"] != first.body["token"]
    assert client.get(f"{base}/legal-moves", token=first.body["token"]).status == 401
    assert client.get(f"{base}/legal-moves", token=again.body["token"]).status == 200
    other = client.post(f"{base}/seats/1/hand-back", {"reason": "another"}, token=referee, headers=key)
    assert other.status == 422 and other.body["code"] == "idempotency_key_reused", other.body

    assert client.post(f"{base}/seats/1/bot", {"level": "random"}, token=referee).status == 201
    version = client.get(base).body["version"]
    late = client.post(f"{base}/seats/1/hand-back", {"reason": "back"}, token=referee, headers=key)
    assert late.status == 409 and late.body["code"] == "token_shown_once", late.body
    assert client.get(base).body["version"] == version
    assert client.get(f"{base}/legal-moves", token=again.body["token"]).status == 200  # still the seat's token
