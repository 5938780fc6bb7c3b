"""Moves fired at a live server all at once (a barrier releases every client thread
together), each answer written down as a `Sent` for `ledger.reconcile`."""

from __future__ import annotations

import itertools
import threading
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http.client import HTTPException
from typing import Any

from tests.support.http import Client, Reply
from tests.support.ledger import Sent

_requests = itertools.count(1)


@dataclass(frozen=True)
class Game:
    game_id: str
    seat_tokens: dict[int, str]
    referee_token: str

    @property
    def path(self) -> str:
        return f"/api/v1/games/{self.game_id}"

    @classmethod
    def of(cls, body: dict[str, Any]) -> Game:
        """The game a creation's (or a fork's, an import's) answer gives, with every token."""
        return cls(body["game_id"], {int(k): v for k, v in body["seat_tokens"].items()}, body["referee_token"])


@dataclass(frozen=True)
class Shot:
    seat: int
    move: dict[str, Any]
    key: str | None = None
    if_match: int | None = None


def new_game(client: Client, players: Sequence[str] = ("ada", "bo", "cy"), seed: str | None = None) -> Game:
    body = {"game": "ticket_to_ride", "players": list(players), **({"seed": seed} if seed else {})}
    reply = client.post("/api/v1/games", body)
    if reply.status != 201:
        raise AssertionError(f"creating a game answered {reply.status}: {reply.body}")
    return Game.of(reply.body)


def summary(client: Client, game: Game) -> dict[str, Any]:
    reply = client.get(game.path, token=game.referee_token)
    if reply.status != 200:
        raise AssertionError(f"reading game {game.game_id} answered {reply.status}: {reply.body}")
    return dict(reply.body)


def legal_moves(client: Client, game: Game, seat: int) -> list[dict[str, Any]]:
    reply = client.get(f"{game.path}/legal-moves", token=game.seat_tokens[seat])
    if reply.status != 200:
        raise AssertionError(f"legal moves of seat {seat} answered {reply.status}: {reply.body}")
    return [{k: v for k, v in m.items() if k != "seat"} for m in reply.body["moves"]]


def send(client: Client, game: Game, shot: Shot) -> tuple[Sent, Reply | None]:
    """Post one move; an answer that never came (connection refused or cut) is status 0."""
    headers = {**({"Idempotency-Key": shot.key} if shot.key else {}),
               **({"If-Match": f'"{shot.if_match}"'} if shot.if_match is not None else {})}
    request = next(_requests)
    try:
        reply = client.post(f"{game.path}/moves", shot.move, headers=headers, token=game.seat_tokens[shot.seat])
    except (OSError, HTTPException):
        return Sent(game.game_id, shot.seat, shot.key, 0, request=request), None
    events = reply.body.get("events", []) if 200 <= reply.status < 300 and isinstance(reply.body, dict) else []
    return Sent(game.game_id, shot.seat, shot.key, reply.status, events, request), reply


def volley(client: Client, game: Game, shots: Sequence[Shot]) -> list[Sent]:
    """Every shot sent at the same moment, each from its own thread."""
    barrier = threading.Barrier(len(shots))

    def fire(shot: Shot) -> Sent:
        barrier.wait(timeout=60)
        return send(client, game, shot)[0]

    with ThreadPoolExecutor(len(shots)) as pool:
        return list(pool.map(fire, shots))


def keep_openings(client: Client, game: Game) -> list[Sent]:
    """Every seat keeps its first offered ticket choice, one after another."""
    sent = []
    for seat in sorted(summary(client, game)["active_seats"]):
        shot = Shot(seat, legal_moves(client, game, seat)[0], str(uuid.uuid4()))
        result, reply = send(client, game, shot)
        if result.status != 201:
            raise AssertionError(f"seat {seat} keeping its tickets answered {result.status}: {reply and reply.body}")
        sent.append(result)
    return sent
