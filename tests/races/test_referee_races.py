"""A referee's actions race the seats' moves on a real gunicorn (4 workers × 4 threads), on
SQLite and PostgreSQL: disputes, deadlines, takeovers and hand-backs sent without a version
while every seat is moving are judged again against the game as it now is, never refused for
losing the race; each carries an Idempotency-Key, and its retry answers with the first
answer's records and stores nothing. Judged from the store: every 2xx the referee got is
stored as that request's own."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter
from typing import Any

import pytest

from service.application import Caboose
from tests.support.http import Client, Reply
from tests.support.live_server import LiveServer
from tests.support.volley import keep_openings, new_game

STORES = [pytest.param("sqlite"), pytest.param("postgres", marks=pytest.mark.postgres)]
ROUNDS = 8
"""Rounds of the referee's three actions: a dispute, a new deadline, a takeover or a hand-back."""
BOT_SEAT = 2


class Seats:
    """The seats' tokens, as the referee's hand-backs replace seat 2's."""

    def __init__(self, tokens: dict[int, str], referee: str) -> None:
        self.tokens, self.referee, self.lock = dict(tokens), referee, threading.Lock()

    def token(self, seat: int, held_by_bot: bool) -> str:
        with self.lock:
            return self.referee if held_by_bot else self.tokens[seat]

    def replace(self, seat: int, token: str) -> None:
        with self.lock:
            self.tokens[seat] = token


def mover(client: Client, path: str, seats: Seats, done: threading.Event, statuses: Counter[int], index: int) -> None:
    """Moves for whichever seat is to act (the referee's token for a seat a bot holds) until `done`."""
    chooser = random.Random(index)
    while not done.is_set():
        now = client.get(path, token=seats.referee).body
        if now["status"] != "active":
            return
        seat = now["active_seats"][0]
        token = seats.token(seat, str(seat) in now["bots"])
        legal = client.get(f"{path}/legal-moves?seat={seat}", token=token)
        statuses[legal.status] += 1
        if legal.status != 200 or not legal.body["moves"]:
            continue
        moved = client.post(f"{path}/moves", chooser.choice(legal.body["moves"]), token=token,
                            headers={"Idempotency-Key": str(uuid.uuid4())})
        statuses[moved.status] += 1
        time.sleep(0.02)


def actions(path: str) -> list[tuple[str, str, dict[str, Any]]]:
    """The referee's requests, in order: (method, path, body)."""
    sent = []
    for i in range(ROUNDS):
        sent.append(("POST", f"{path}/disputes", {"referee": "Rita", "version": 2, "raised_by": "seat:0", "claim": f"claim {i}"}))
        sent.append(("PUT", f"{path}/deadline", {"referee": "Rita", "move_deadline": f"PT{i + 1}H"}))
        sent.append(("POST", f"{path}/seats/{BOT_SEAT}/" + ("bot" if i % 2 == 0 else "hand-back"),
                     {"referee": "Rita", **({"level": "random"} if i % 2 == 0 else {})}))
    return sent


def referee_acts(client: Client, path: str, seats: Seats) -> list[tuple[str, Reply, Reply]]:
    """Each action, then its retry with the same key: (key, first answer, retry's answer)."""
    answered = []
    for method, where, body in actions(path):
        key = str(uuid.uuid4())
        first = client.request(method, where, body, token=seats.referee, headers={"Idempotency-Key": key})
        if first.status == 201 and "token" in first.body:
            seats.replace(BOT_SEAT, first.body["token"])
        again = client.request(method, where, body, token=seats.referee, headers={"Idempotency-Key": key})
        if again.status == 201 and "token" in again.body:
            seats.replace(BOT_SEAT, again.body["token"])  # a hand-back's token is shown once: its retry gives another
        answered.append((key, first, again))
        time.sleep(0.05)
    return answered


def stored_as(stored: Caboose, game_id: str, key: str) -> list[tuple[int, str]]:
    return [(r["version"], r["hash"]) for r in stored.records(game_id) if r["command_id"] == key]


@pytest.mark.parametrize("server", STORES, indirect=True)
def test_referee_actions_racing_moving_seats_are_stored_as_their_own(server: LiveServer, stored: Caboose) -> None:
    client = server.client()
    game = new_game(client, players=("ada", "bo", "cy"))
    keep_openings(client, game)
    seats = Seats(game.seat_tokens, game.referee_token)
    done, statuses = threading.Event(), Counter[int]()
    movers = [threading.Thread(target=mover, args=(server.client(), game.path, seats, done, statuses, i)) for i in range(3)]
    for thread in movers:
        thread.start()
    try:
        time.sleep(0.5)  # the seats are moving before the referee starts
        answered = referee_acts(server.client(), game.path, seats)
    finally:
        done.set()
        for thread in movers:
            thread.join(timeout=120)

    problems = []
    for key, first, again in answered:
        if first.status != 201:
            problems.append(f"{key}: the referee was answered {first.status}: {first.body}")
            continue
        told = [(e["version"], e["hash"]) for e in first.body["events"]]
        if stored_as(stored, game.game_id, key) != told:
            problems.append(f"{key}: told {told}, stored {stored_as(stored, game.game_id, key)}")
        retold = [(e["version"], e["hash"]) for e in again.body.get("events", [])] if again.status == 201 else again.status
        if retold != told:
            problems.append(f"{key}: the retry was answered {retold}, not the first answer {told}")
    assert problems == [], "\n".join(problems)
    assert all(status < 500 for status in statuses), statuses
    assert statuses[201] > len(answered), f"the seats hardly moved while the referee acted: {statuses}"
    assert stored.audit(game.game_id).ok
