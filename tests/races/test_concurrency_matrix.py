"""Every concurrency combination against a real gunicorn (4 workers × 4 threads) on SQLite and
PostgreSQL, judged from the store: a client told 2xx must find its own move stored, and
nothing may be stored that no client was told about.

The combinations: one Idempotency-Key shared by every request (retries racing), a key per
request, or no key; with or without If-Match; one seat making different moves at once
(market slot 0 against slot 1 against the deck…), or several seats at once in Ticket to
Ride's sealed opening, where every seat keeps its tickets simultaneously.

The default run fires a few volleys per combination; the `slow` form many more.
"""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

import pytest

from service.application import Caboose
from tests.support.http import Client
from tests.support.ledger import Sent, reconcile
from tests.support.live_server import LiveServer
from tests.support.volley import Game, Shot, keep_openings, legal_moves, new_game, summary, volley

STORES = [pytest.param("sqlite"), pytest.param("postgres", marks=pytest.mark.postgres)]
KEYS = ["same-key", "key-each", "no-key"]
IF_MATCH = ["if-match", "no-if-match"]
SEATS = ["one-seat", "opening"]
ANSWERS = {201, 409, 412, 422}
"""Stored, lost a race, stale If-Match, refused by the rules (e.g. no longer this seat's turn)."""


def racing_moves(moves: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """`count` moves, as different from each other as the position allows, market draws first."""
    def order(move: dict[str, Any]) -> tuple[int, int]:
        if move["type"] == "draw_card":
            return (0, move.get("slot", 99))
        return (1, 0)
    ranked = sorted(moves, key=order)
    return [ranked[i % len(ranked)] for i in range(count)]


def shots_for(keys: str, version: int | None, seat_moves: dict[int, list[dict[str, Any]]]) -> list[Shot]:
    shots = []
    for seat, moves in seat_moves.items():
        if keys == "same-key":
            # Retries of one request: same key, same body.
            key = str(uuid.uuid4())
            shots += [Shot(seat, moves[0], key, version) for _ in moves]
        else:
            shots += [Shot(seat, m, str(uuid.uuid4()) if keys == "key-each" else None, version) for m in moves]
    return shots


def one_seat_volley(client: Client, game: Game, keys: str, if_match: bool, count: int) -> list[Sent] | None:
    """One volley by the seat whose turn it is; None when the game has ended."""
    now = summary(client, game)
    if now["status"] != "active":
        return None
    seat = now["active_seats"][0]
    moves = racing_moves(legal_moves(client, game, seat), count)
    return volley(client, game, shots_for(keys, now["version"] if if_match else None, {seat: moves}))


def opening_volley(client: Client, game: Game, keys: str, if_match: bool, per_seat: int) -> list[Sent]:
    """Every seat keeping its opening tickets at once, `per_seat` requests each."""
    now = summary(client, game)
    seat_moves = {seat: racing_moves(legal_moves(client, game, seat), per_seat) for seat in now["active_seats"]}
    return volley(client, game, shots_for(keys, now["version"] if if_match else None, seat_moves))


def volley_problems(sent: list[Sent], if_match: bool) -> list[str]:
    statuses = Counter(s.status for s in sent)
    problems = []
    if not set(statuses) <= ANSWERS:
        problems.append(f"unexpected answers in one volley: {dict(statuses)}")
    if statuses[201] == 0:
        problems.append(f"a volley stored nothing: {dict(statuses)}")
    acknowledged = {s.key or s.request for s in sent if s.status == 201}
    if if_match and len(acknowledged) > 1:
        # Every request named the same version: only one of them can have been stored.
        problems.append(f"{len(acknowledged)} different requests at one If-Match version were told 201")
    return problems


def check_matrix_cell(server: LiveServer, stored: Caboose, keys: str, if_match: str, seats: str, volleys: int, width: int) -> None:
    client = server.client()
    sent: list[Sent] = []
    games: list[Game] = []
    problems: list[str] = []
    with_if_match = if_match == "if-match"
    for _ in range(volleys):
        if seats == "opening":
            games.append(new_game(client))
            shots = opening_volley(client, games[-1], keys, with_if_match, width)
        else:
            shots = one_seat_volley(client, games[-1], keys, with_if_match, width) if games else None
            if shots is None:
                games.append(new_game(client))
                sent += keep_openings(client, games[-1])
                shots = one_seat_volley(client, games[-1], keys, with_if_match, width)
        assert shots is not None
        problems += volley_problems(shots, with_if_match)
        sent += shots
    findings = reconcile(stored, sent, [g.game_id for g in games])
    problems += findings.problems
    assert problems == [], f"{findings.summary()}\n" + "\n".join(problems[:8])


@pytest.mark.parametrize("server", STORES, indirect=True)
@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("if_match", IF_MATCH)
@pytest.mark.parametrize("keys", KEYS)
def test_every_acknowledged_move_is_stored_as_its_own(server: LiveServer, stored: Caboose, keys: str, if_match: str, seats: str) -> None:
    check_matrix_cell(server, stored, keys, if_match, seats, volleys=4, width=8 if seats == "one-seat" else 3)


@pytest.mark.slow
@pytest.mark.parametrize("server", STORES, indirect=True)
@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("if_match", IF_MATCH)
@pytest.mark.parametrize("keys", KEYS)
def test_every_acknowledged_move_is_stored_as_its_own_at_length(server: LiveServer, stored: Caboose, keys: str, if_match: str,
                                                                  seats: str) -> None:
    check_matrix_cell(server, stored, keys, if_match, seats, volleys=40, width=20 if seats == "one-seat" else 7)
