"""Every kind of write (to a game or a tournament), retried from the client's side over a real HTTP server.

The client sends a write with an `Idempotency-Key` and hangs up before the answer comes
(the answer is lost on the way); the server stores the write all the same. The client then
sends the same request again under the same key, twice: both answers are the first
attempt's records, exactly as stored, and the store holds that command once; the same key
with another request is refused and stores nothing. Each kind goes through the one command
pipeline (`Caboose.execute`, `commands.decided_once`), so each is held to the same guarantees,
on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from service.application import Caboose
from service.settings import RateLimits, Settings
from service.simulation import game_seed
from tests.conftest import POSTGRES_URL
from tests.e2e.conftest import Client, Reply, serving

GAMES = "/api/v1/games"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Caboose]:
    """The server's store, on each real database."""
    limits = RateLimits.every("1000000/minute")
    if request.param == "sqlite":
        yield Caboose(Settings(db=f"sqlite:///{tmp_path}/api.sqlite", rate_limits=limits))
        return
    app = Caboose(Settings(db=POSTGRES_URL, schema=request.getfixturevalue("postgres_schema"), rate_limits=limits))
    yield app
    app.close()
REF = "Rita"


def stored_in_time(stored: Callable[[], Any], what: str) -> None:
    """Wait, up to 20 s, until `stored()` says the write whose answer was lost is stored."""
    deadline = time.monotonic() + 20
    while not stored():
        assert time.monotonic() < deadline, f"the {what} whose answer was lost was never stored"
        time.sleep(0.05)


def hang_up(client: Client, method: str, path: str, body: Any, token: str, key: str) -> None:
    """Send the request and close the connection without reading a byte of the answer
    (`token` "": sent without one)."""
    where = urlsplit(client.base)
    data = json.dumps(body).encode()
    head = (f"{method} {path} HTTP/1.1\r\nHost: {where.netloc}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n{f'Authorization: Bearer {token}' + chr(13) + chr(10) if token else ''}"
            f"Idempotency-Key: {key}\r\n"
            "Connection: close\r\n\r\n").encode()
    with socket.create_connection((where.hostname, where.port), timeout=10) as conn:
        conn.sendall(head + data)


def stored_under(store: Caboose, game_id: str, key: str) -> list[tuple[int, str]]:
    return [(r["version"], r["hash"]) for r in store.records(game_id) if r["command_id"] == key]


def told(reply: Reply) -> list[tuple[int, str]]:
    return [(e["version"], e["hash"]) for e in reply.body["events"]]


@dataclass(frozen=True)
class Write:
    """One write: its method, path and body, the token it is sent with, and another body
    the same key may not be reused for (None where the token can ask for nothing else)."""

    method: str
    path: str
    body: dict[str, Any]
    token: str
    other: dict[str, Any] | None


def retried(client: Client, store: Caboose, game_id: str, write: Write) -> Reply:
    """The write sent and its answer lost, then retried twice under the same key."""
    key = f"retry-{uuid.uuid4()}"
    before = store.game(game_id).version
    hang_up(client, write.method, write.path, write.body, write.token, key)
    stored_in_time(lambda: stored_under(store, game_id, key), "write")
    first = client.request(write.method, write.path, write.body, token=write.token, headers={"Idempotency-Key": key})
    again = client.request(write.method, write.path, write.body, token=write.token, headers={"Idempotency-Key": key})
    assert first.status in (201, 202), first.body
    assert again.status == first.status and again.body["events"] == first.body["events"]
    assert told(first) == stored_under(store, game_id, key)
    assert told(first)[0][0] == before + 1  # stored once, right after what was there
    after = store.game(game_id).version
    if write.other is not None:
        reused = client.request(write.method, write.path, write.other, token=write.token, headers={"Idempotency-Key": key})
        assert reused.status == 422 and reused.body["code"] == "idempotency_key_reused", reused.body
        assert store.game(game_id).version == after
    assert store.audit(game_id).ok
    return first


def created(client: Client, body: dict[str, Any]) -> dict[str, Any]:
    reply = client.post(GAMES, body)
    assert reply.status == 201, reply.body
    return dict(reply.body)


def race(client: Client) -> dict[str, Any]:
    return created(client, {"game": "race", "players": ["Ann", "Bob"], "options": {"goal": 20}, "seed": "00" * 32})


def ticket_to_ride(client: Client, store: Caboose) -> dict[str, Any]:
    """A game of Ticket to Ride with every seat's opening tickets kept."""
    game = created(client, {"game": "ticket_to_ride", "players": ["Ann", "Bob", "Cy"], "seed": game_seed(3, 0).hex()})
    aggregate = store.game(game["game_id"])
    for seat in sorted(aggregate.decider.active_seats(aggregate.state)):
        now = store.game(game["game_id"])
        store.play(game["game_id"], seat, now.decider.legal_moves(now.state, seat)[0])
    return game


def advance(client: Client, game: dict[str, Any]) -> int:
    """Move the active seat of a race by 2; returns the seat that moved."""
    mover = client.get(f"{GAMES}/{game['game_id']}").body["active_seats"][0]
    reply = client.post(f"{GAMES}/{game['game_id']}/moves", {"type": "advance", "by": 2},
                        token=game["seat_tokens"][str(mover)])
    assert reply.status == 201, reply.body
    return int(mover)


def test_a_move(client: Client, store: Caboose) -> None:
    game = race(client)
    mover = client.get(f"{GAMES}/{game['game_id']}").body["active_seats"][0]
    token = game["seat_tokens"][str(mover)]
    path = f"{GAMES}/{game['game_id']}/moves"
    first = retried(client, store, game["game_id"], Write("POST", path, {"type": "advance", "by": 2}, token,
                                                          {"type": "advance", "by": 1}))
    assert first.body["events"][0]["actor"] == f"seat:{mover}"


def test_a_referees_move_for_a_seat(client: Client, store: Caboose) -> None:
    game = race(client)
    mover = client.get(f"{GAMES}/{game['game_id']}").body["active_seats"][0]
    path = f"{GAMES}/{game['game_id']}/moves"
    first = retried(client, store, game["game_id"], Write("POST", path, {"seat": mover, "type": "advance", "by": 2},
                                                          game["referee_token"], {"seat": mover, "type": "advance", "by": 1}))
    assert first.body["events"][0]["actor"] == "referee:referee"


def test_an_outcome_entered_at_a_table(client: Client, store: Caboose) -> None:
    game = created(client, {"game": "lucky", "players": ["Ann", "Ben"], "options": {"goal": 12}, "seed_source": "table",
                            "observed": {"outcomes": [1]}})
    rolled = client.post(f"{GAMES}/{game['game_id']}/moves", {"type": "roll"}, token=game["seat_tokens"]["1"])
    assert rolled.status == 202, rolled.body
    path = f"{GAMES}/{game['game_id']}/outcomes"
    first = retried(client, store, game["game_id"], Write("POST", path, {"text": "3 4"}, game["referee_token"],
                                                          {"text": "2 2"}))
    assert first.body["events"][0]["kind"] == "OutcomeEntered"


def test_a_move_at_a_table_with_its_outcome(client: Client, store: Caboose) -> None:
    game = created(client, {"game": "lucky", "players": ["Ann", "Ben"], "options": {"goal": 12}, "seed_source": "table",
                            "observed": {"outcomes": [1]}})
    path = f"{GAMES}/{game['game_id']}/moves"
    first = retried(client, store, game["game_id"], Write("POST", path, {"seat": 1, "type": "roll", "outcomes": [[3, 4]]},
                                                          game["referee_token"],
                                                          {"seat": 1, "type": "roll", "outcomes": [[2, 2]]}))
    assert [e["kind"] for e in first.body["events"]][:2] == ["OutcomeEntered", "DiceRolled"]


def test_a_rewind(client: Client, store: Caboose) -> None:
    game = race(client)
    advance(client, game)
    advance(client, game)
    to = store.game(game["game_id"]).version - 1
    path = f"{GAMES}/{game['game_id']}/rewind"
    first = retried(client, store, game["game_id"], Write("POST", path, {"referee": REF, "to_version": to, "reason": "misread"},
                                                          game["referee_token"],
                                                          {"referee": REF, "to_version": to, "reason": "another"}))
    assert first.body["events"][0]["kind"] == "GameRewound"


def test_a_takeback_asked_and_answered(client: Client, store: Caboose) -> None:
    game = race(client)
    mover = advance(client, game)
    gid = game["game_id"]
    asked = retried(client, store, gid, Write("POST", f"{GAMES}/{gid}/takebacks", {"seat": mover},
                                              game["seat_tokens"][str(mover)], None))
    assert asked.body["events"][0]["kind"] == "TakebackRequested"
    answer = {"accept": True, "seat": 1 - mover}
    answered = retried(client, store, gid, Write("POST", f"{GAMES}/{gid}/takebacks/answer", answer,
                                                 game["seat_tokens"][str(1 - mover)], {**answer, "accept": False}))
    assert [e["kind"] for e in answered.body["events"]] == ["TakebackAccepted", "MoveTakenBack"]


def test_a_dispute_and_its_ruling(client: Client, store: Caboose) -> None:
    game = race(client)
    advance(client, game)
    gid, referee = game["game_id"], game["referee_token"]
    dispute = {"referee": REF, "version": 2, "raised_by": "seat:1", "claim": "miscount"}
    raised = retried(client, store, gid, Write("POST", f"{GAMES}/{gid}/disputes", dispute, referee,
                                               {**dispute, "claim": "another"}))
    at = raised.body["events"][0]["version"]
    ruling = {"referee": REF, "text": "Dismissed.", "outcome": "dismissed"}
    ruled = retried(client, store, gid, Write("POST", f"{GAMES}/{gid}/disputes/{at}/ruling", ruling, referee,
                                              {**ruling, "text": "Upheld.", "outcome": "upheld"}))
    assert ruled.body["events"][0]["kind"] == "RulingMade"


def test_an_adjustment(client: Client, store: Caboose) -> None:
    game = ticket_to_ride(client, store)
    adjust = {"referee": REF, "seat": 1, "kind": "vp", "amount": 2, "reason": "time penalty"}
    first = retried(client, store, game["game_id"], Write("POST", f"{GAMES}/{game['game_id']}/adjustments", adjust,
                                                          game["referee_token"], {**adjust, "amount": 3}))
    assert first.body["events"][0]["kind"] == "AdjustmentMade"


def test_a_seat_handed_to_a_bot_and_back_and_a_deadline(client: Client, store: Caboose) -> None:
    game = ticket_to_ride(client, store)
    gid, referee = game["game_id"], game["referee_token"]
    deadline = retried(client, store, gid, Write("PUT", f"{GAMES}/{gid}/deadline", {"referee": REF, "move_deadline": "PT24H"},
                                                 referee, {"referee": REF, "move_deadline": "PT12H"}))
    assert deadline.body["events"][0]["kind"] == "MoveDeadlineSet"
    bot = retried(client, store, gid, Write("POST", f"{GAMES}/{gid}/seats/2/bot", {"referee": REF, "level": "random"},
                                            referee, {"referee": REF, "level": "playout"}))
    assert bot.body["events"][0]["kind"] == "SeatTakenOver"
    back = retried(client, store, gid, Write("POST", f"{GAMES}/{gid}/seats/2/hand-back", {"referee": REF, "reason": "back"},
                                             referee, {"referee": REF, "reason": "another"}))
    assert back.body["events"][0]["kind"] == "SeatHandedBack"


def test_a_fork(client: Client, store: Caboose) -> None:
    # A fork makes a new game: a retry answers with the same fork and stores nothing new.
    # Its tokens were shown once (only their hashes are kept): each answer has fresh ones,
    # which replace the ones before, so the tokens of the last answer are the fork's.
    game = race(client)
    advance(client, game)
    gid, referee = game["game_id"], game["referee_token"]
    at = store.game(gid).version
    body = {"referee": REF, "at_version": at, "reason": "what if"}
    key = f"retry-{uuid.uuid4()}"
    games_before = len(store.game_ids())
    hang_up(client, "POST", f"{GAMES}/{gid}/fork", body, referee, key)
    stored_in_time(lambda: len(store.game_ids()) != games_before, "fork")
    first = client.post(f"{GAMES}/{gid}/fork", body, token=referee, headers={"Idempotency-Key": key})
    again = client.post(f"{GAMES}/{gid}/fork", body, token=referee, headers={"Idempotency-Key": key})
    assert first.status == again.status == 201, (first.body, again.body)
    fork_id = first.body["game_id"]
    assert again.body["game_id"] == fork_id and again.body["version"] == first.body["version"] == at + 1
    assert again.body["forked_from"] == first.body["forked_from"] == {"game_id": gid, "version": at}
    assert len(store.game_ids()) == games_before + 1
    assert [r["kind"] for r in store.records(fork_id)].count("ForkedFrom") == 1
    assert first.body["referee_token"] != again.body["referee_token"]
    for answer, valid in ((first, False), (again, True)):
        seen = client.get(f"{GAMES}/{fork_id}/legal-moves", token=answer.body["seat_tokens"]["0"])
        assert (seen.status == 200) is valid, seen.body
        refused = client.post(f"{GAMES}/{fork_id}/disputes", {"referee": REF, "version": 2, "raised_by": "seat:0",
                                                              "claim": "x"}, token=answer.body["referee_token"])
        assert (refused.status == 201) is valid, refused.body
    reused = client.post(f"{GAMES}/{gid}/fork", {**body, "reason": "another"}, token=referee, headers={"Idempotency-Key": key})
    assert reused.status == 422 and reused.body["code"] == "idempotency_key_reused", reused.body
    assert len(store.game_ids()) == games_before + 1
    assert store.audit(fork_id).ok


def test_a_join(client: Client, store: Caboose) -> None:
    # A join hands out the seat's token: a retry answers with the same seat and a fresh
    # token, which replaces the first answer's; the invite opens the seat to nobody else.
    game = created(client, {"game": "race", "players": ["Ann", None], "options": {"goal": 20}, "seed": "00" * 32})
    gid, invite = game["game_id"], game["invites"]["1"]
    path, body, key = f"{GAMES}/{gid}/join", {"invite": invite, "name": "Bo"}, f"retry-{uuid.uuid4()}"
    hang_up(client, "POST", path, body, "", key)
    stored_in_time(lambda: stored_under(store, gid, key), "join")
    first = client.post(path, body, headers={"Idempotency-Key": key})
    again = client.post(path, body, headers={"Idempotency-Key": key})
    assert first.status == again.status == 201, (first.body, again.body)
    assert first.body["seat"] == again.body["seat"] == 1 and first.body["token"] != again.body["token"]
    assert [r["kind"] for r in store.records(gid)].count("SeatJoined") == 1
    assert client.get(f"{GAMES}/{gid}/legal-moves", token=first.body["token"]).status == 401
    assert client.get(f"{GAMES}/{gid}/legal-moves", token=again.body["token"]).status == 200
    version = store.game(gid).version
    reused = client.post(path, {**body, "name": "Cy"}, headers={"Idempotency-Key": key})
    assert reused.status == 422 and reused.body["code"] == "idempotency_key_reused", reused.body
    unkeyed = client.post(path, body)
    other_key = client.post(path, body, headers={"Idempotency-Key": f"retry-{uuid.uuid4()}"})
    assert unkeyed.status == 403 and other_key.status in (403, 422), (unkeyed.body, other_key.body)
    assert store.game(gid).version == version
    assert client.get(f"{GAMES}/{gid}/legal-moves", token=again.body["token"]).status == 200
    assert store.audit(gid).ok


def test_a_game_created(client: Client, store: Caboose) -> None:
    # A creation makes a new game, with its bots and deadline in the same command: a retry
    # answers with the same game and stores nothing new. Its tokens and invites were shown
    # once (only their hashes are kept): each answer has fresh ones, which replace the ones
    # before, so those of the last answer are the game's.
    body = {"game": "race", "players": ["Ann", "Bob", None], "options": {"goal": 20}, "bots": {"1": "random"},
            "move_deadline": "PT24H"}
    key = f"retry-{uuid.uuid4()}"
    games_before = len(store.game_ids())
    hang_up(client, "POST", GAMES, body, "", key)
    stored_in_time(lambda: len(store.game_ids()) != games_before, "creation")
    first = client.post(GAMES, body, headers={"Idempotency-Key": key})
    again = client.post(GAMES, body, headers={"Idempotency-Key": key})
    assert first.status == again.status == 201, (first.body, again.body)
    gid = first.body["game_id"]
    assert again.body["game_id"] == gid and again.body["version"] == first.body["version"]
    assert again.body["seed_commitment"] == first.body["seed_commitment"]
    assert len(store.game_ids()) == games_before + 1
    kinds = [r["kind"] for r in store.records(gid)]
    assert kinds.count("GameCreated") == kinds.count("SeatTakenOver") == kinds.count("MoveDeadlineSet") == 1
    assert store.records(gid)[0]["command_id"] == key  # the opening, under the client's key
    assert first.body["referee_token"] != again.body["referee_token"]
    assert first.body["invites"]["2"] != again.body["invites"]["2"]
    for answer, valid in ((first, False), (again, True)):
        seen = client.get(f"{GAMES}/{gid}/legal-moves", token=answer.body["seat_tokens"]["0"])
        assert (seen.status == 200) is valid, seen.body
    joined = client.post(f"{GAMES}/{gid}/join", {"invite": first.body["invites"]["2"], "name": "Cy"})
    assert joined.status == 403, joined.body
    version = store.game(gid).version
    reused = client.post(GAMES, {**body, "bots": {}}, headers={"Idempotency-Key": key})
    assert reused.status == 422 and reused.body["code"] == "idempotency_key_reused", reused.body
    assert len(store.game_ids()) == games_before + 1 and store.game(gid).version == version
    assert client.post(f"{GAMES}/{gid}/join", {"invite": again.body["invites"]["2"], "name": "Cy"}).status == 201
    assert store.audit(gid).ok


def test_a_game_at_a_table_created(client: Client, store: Caboose) -> None:
    # A game played at a table has no seed: its opening, as observed, is what the key's
    # request holds, and a retry answers with the opening the first attempt stored.
    body = {"game": "lucky", "players": ["Ann", "Ben"], "options": {"goal": 12}, "seed_source": "table",
            "observed": {"outcomes": [1]}}
    key = f"retry-{uuid.uuid4()}"
    first = client.post(GAMES, body, headers={"Idempotency-Key": key})
    again = client.post(GAMES, body, headers={"Idempotency-Key": key})
    assert first.status == again.status == 201, (first.body, again.body)
    assert first.body["game_id"] == again.body["game_id"] and first.body["version"] == again.body["version"]
    reused = client.post(GAMES, {**body, "observed": {"outcomes": [0]}}, headers={"Idempotency-Key": key})
    assert reused.status == 422 and reused.body["code"] == "idempotency_key_reused", reused.body
    assert store.audit(first.body["game_id"]).ok


TOURNAMENTS = "/api/v1/tournaments"


def tournament_records(client: Client, tournament_id: str) -> list[dict[str, Any]]:
    """The tournament's own records, as its export gives them (its tables' games follow them)."""
    body = client.get(f"{TOURNAMENTS}/{tournament_id}/export").body
    records = [body] if isinstance(body, dict) else list(map(json.loads, body.splitlines()))  # one line reads as JSON
    return [r for r in records if "tournament_id" in r]


def retried_on_tournament(client: Client, tournament_id: str, path: str, body: dict[str, Any], token: str,
                          other: dict[str, Any] | None) -> Reply:
    """A tournament's command sent and its answer lost, then retried twice under the same key:
    both answers are the same, the tournament holds the command once, right after what was
    there, and the key with another request is refused and stores nothing."""
    key = f"retry-{uuid.uuid4()}"
    before = len(tournament_records(client, tournament_id))
    hang_up(client, "POST", path, body, token, key)
    stored_in_time(lambda: [r for r in tournament_records(client, tournament_id) if r["command_id"] == key], "command")
    first = client.request("POST", path, body, token=token, headers={"Idempotency-Key": key})
    again = client.request("POST", path, body, token=token, headers={"Idempotency-Key": key})
    assert first.status == again.status == 201, (first.body, again.body)
    assert again.body == first.body
    stored = tournament_records(client, tournament_id)
    under = [r["version"] for r in stored if r["command_id"] == key]
    assert under and under[0] == before + 1 and under == list(range(under[0], under[-1] + 1))
    if other is not None:
        reused = client.request("POST", path, other, token=token, headers={"Idempotency-Key": key})
        assert reused.status == 422 and reused.body["code"] == "idempotency_key_reused", reused.body
        assert len(tournament_records(client, tournament_id)) == len(stored)
    return first


def test_a_tournament_created(client: Client) -> None:
    # A retry answers with the same tournament and stores nothing new; its referee token was
    # shown once (only its hash is kept), so each answer has a fresh one, which replaces the one before.
    body = {"name": "Club night", "game": "ticket_to_ride", "format": "swiss", "rounds": 2, "table_size": 3}
    key = f"retry-{uuid.uuid4()}"
    hang_up(client, "POST", TOURNAMENTS, body, "", key)
    stored_in_time(lambda: client.get(TOURNAMENTS).body["tournaments"], "creation")
    first = client.post(TOURNAMENTS, body, headers={"Idempotency-Key": key})
    again = client.post(TOURNAMENTS, body, headers={"Idempotency-Key": key})
    assert first.status == again.status == 201, (first.body, again.body)
    tid = first.body["tournament_id"]
    assert again.body["tournament_id"] == tid and again.body["commitment"] == first.body["commitment"]
    assert [t["tournament_id"] for t in client.get(TOURNAMENTS).body["tournaments"]] == [tid]
    assert len(tournament_records(client, tid)) == 1
    assert first.body["referee_token"] != again.body["referee_token"]
    refused = client.post(f"{TOURNAMENTS}/{tid}/players", {"player": "Ann"}, token=first.body["referee_token"])
    assert refused.status in (401, 403), refused.body
    reused = client.post(TOURNAMENTS, {**body, "rounds": 3}, headers={"Idempotency-Key": key})
    assert reused.status == 422 and reused.body["code"] == "idempotency_key_reused", reused.body
    assert len(client.get(TOURNAMENTS).body["tournaments"]) == 1
    assert client.post(f"{TOURNAMENTS}/{tid}/players", {"player": "Ann"}, token=again.body["referee_token"]).status == 201


def test_a_tournaments_commands(client: Client, store: Caboose) -> None:
    created = created_tournament(client)
    tid, token = created["tournament_id"], created["referee_token"]
    base = f"{TOURNAMENTS}/{tid}"
    for player in ["Ann", "Ben", "Cleo", "Dan", "Eve"]:
        retried_on_tournament(client, tid, f"{base}/players", {"player": player}, token, {"player": "Zed"})
    withdrawal = {"player": "Eve", "how": "forfeit", "reason": "ill"}
    retried_on_tournament(client, tid, f"{base}/withdrawals", withdrawal, token, {**withdrawal, "reason": "away"})
    games_before = len(store.game_ids())
    paired = client.post(f"{base}/rounds", {}, token=token, headers={"Idempotency-Key": "round-1"})
    assert paired.status == 201 and paired.body["replayed"] is False, paired.body
    again = client.post(f"{base}/rounds", {}, token=token, headers={"Idempotency-Key": "round-1"})
    assert again.status == 201 and again.body["replayed"] is True
    assert [t["game_id"] for t in again.body["tables"]] == [t["game_id"] for t in paired.body["tables"]]
    assert len(store.game_ids()) == games_before + len(paired.body["tables"])  # no table opened twice
    reused = client.post(f"{base}/rounds", {"entrants": ["Ann", "Ben", "Cleo"]}, token=token,
                         headers={"Idempotency-Key": "round-1"})
    assert reused.status == 422 and reused.body["code"] == "idempotency_key_reused", reused.body
    game_id = paired.body["tables"][0]["game_id"]
    dispute = {"game_id": game_id, "version": 2, "raised_by": "seat:1", "claim": "miscount"}
    key = f"retry-{uuid.uuid4()}"
    hang_up(client, "POST", f"{base}/disputes", dispute, token, key)
    # A tournament's dispute is recorded in its table's game.
    stored_in_time(lambda: stored_under(store, game_id, key), "dispute")
    first = client.post(f"{base}/disputes", dispute, token=token, headers={"Idempotency-Key": key})
    assert first.status == 201 and [(r["version"], r["hash"]) for r in first.body["records"]] == stored_under(store, game_id, key)
    assert client.post(f"{base}/disputes", {**dispute, "claim": "other"}, token=token,
                       headers={"Idempotency-Key": key}).status == 422
    seats = len(paired.body["tables"][0]["seats"])
    ruling = {"game_id": game_id, "text": "Played out at the table.", "places": list(range(1, seats + 1))}
    retried_on_tournament(client, tid, f"{base}/rulings", ruling, token, {**ruling, "places": list(range(seats, 0, -1))})
    assert store.audit(game_id).ok


def test_a_physical_tables_opening(client: Client, store: Caboose) -> None:
    created = created_tournament(client, game="lucky", table_size=2, rounds=1, seed_source="table")
    tid, token = created["tournament_id"], created["referee_token"]
    base = f"{TOURNAMENTS}/{tid}"
    for player in ["Ann", "Ben"]:
        assert client.post(f"{base}/players", {"player": player}, token=token).status == 201
    assert client.post(f"{base}/rounds", {}, token=token).status == 201
    games_before = len(store.game_ids())
    path = f"{base}/rounds/1/tables/1/opening"
    key = f"retry-{uuid.uuid4()}"
    hang_up(client, "POST", path, {"observed": {"outcomes": [1]}}, token, key)
    stored_in_time(lambda: len(store.game_ids()) != games_before, "opening")
    first = client.post(path, {"observed": {"outcomes": [1]}}, token=token, headers={"Idempotency-Key": key})
    assert first.status == 201 and first.body["replayed"] is True, first.body  # its tokens were shown once
    assert len(store.game_ids()) == games_before + 1 and store.game_ids()[-1] == first.body["game_id"]
    assert [r["kind"] for r in tournament_records(client, tid)].count("TableOpened") == 1
    reused = client.post(path, {"observed": {"outcomes": [0]}}, token=token, headers={"Idempotency-Key": key})
    assert reused.status == 422 and reused.body["code"] == "idempotency_key_reused", reused.body
    assert store.audit(first.body["game_id"]).ok


def test_a_tournament_imported(client: Client, tmp_path: Path) -> None:
    # An export imported into another store: a retry answers with the same tournament and
    # fresh tokens, which replace the first answer's; nothing is stored twice.
    created = created_tournament(client)
    tid, token = created["tournament_id"], created["referee_token"]
    for player in ["Ann", "Ben", "Cleo"]:
        assert client.post(f"{TOURNAMENTS}/{tid}/players", {"player": player}, token=token).status == 201
    assert client.post(f"{TOURNAMENTS}/{tid}/rounds", {}, token=token).status == 201
    export = client.get(f"{TOURNAMENTS}/{tid}/export?as=referee", token=token).body  # a running table's secrets too
    lines = [json.loads(line) for line in export.splitlines()]
    other = Caboose(Settings(db=f"sqlite:///{tmp_path}/other.sqlite", rate_limits=RateLimits.every("1000000/minute")))
    with serving(other) as there:
        path, body, key = f"{TOURNAMENTS}/import", {"records": lines}, f"retry-{uuid.uuid4()}"
        hang_up(there, "POST", path, body, "", key)
        stored_in_time(lambda: there.get(TOURNAMENTS).body["tournaments"], "import")
        first = there.post(path, body, headers={"Idempotency-Key": key})
        again = there.post(path, body, headers={"Idempotency-Key": key})
        assert first.status == again.status == 201, (first.body, again.body)
        assert first.body["tournament_id"] == again.body["tournament_id"] == tid
        assert sorted(first.body["games"]) == sorted(again.body["games"]) and len(other.game_ids()) == len(first.body["games"])
        assert tournament_records(there, tid) == tournament_records(client, tid)
        assert first.body["referee_token"] != again.body["referee_token"]
        unkeyed = there.post(path, body)
        reused = there.post(path, {"records": lines[:-1]}, headers={"Idempotency-Key": key})
        assert unkeyed.status == 422 and unkeyed.body["code"] == "tournament_exists", unkeyed.body
        assert reused.status in (400, 422) and reused.body["code"] in ("idempotency_key_reused", "record_rejected"), reused.body
        assert tournament_records(there, tid) == tournament_records(client, tid)
        for answer, valid in ((first, False), (again, True)):
            desk = there.get(f"{TOURNAMENTS}/{tid}/disputes", token=answer.body["referee_token"])
            assert (desk.status == 200) is valid, desk.body


def created_tournament(client: Client, **body: Any) -> dict[str, Any]:
    reply = client.post(TOURNAMENTS, {"name": "Club night", "game": "ticket_to_ride", "format": "swiss", "rounds": 2,
                                      "table_size": 3, **body})
    assert reply.status == 201, reply.body
    return dict(reply.body)


def twice_at_once(client: Client, method: str, path: str, body: dict[str, Any], token: str, key: str) -> list[Reply]:
    """The same request sent twice under the same key at the same moment, as a client that
    retries before its first attempt was answered."""
    barrier = threading.Barrier(2)

    def send() -> Reply:
        barrier.wait(timeout=30)
        return client.request(method, path, body, token=token or None, headers={"Idempotency-Key": key})

    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(lambda _: send(), range(2)))


@pytest.mark.parametrize("kind", ["move", "dispute", "fork", "join", "create"])
def test_the_same_write_sent_twice_at_once_is_stored_once(client: Client, store: Caboose, kind: str) -> None:
    key = f"twice-{uuid.uuid4()}"
    if kind == "create":
        before = len(store.game_ids())
        replies = twice_at_once(client, "POST", GAMES, {"game": "race", "players": ["Ann", "Bob"], "options": {"goal": 20}},
                                "", key)
        assert [r.status for r in replies] == [201, 201], [r.body for r in replies]
        assert len({r.body["game_id"] for r in replies}) == 1 and len(store.game_ids()) == before + 1
        # One of the two answers' tokens was replaced by the other's; exactly one speaks for the seat.
        gid = replies[0].body["game_id"]
        valid = [client.get(f"{GAMES}/{gid}/legal-moves", token=r.body["seat_tokens"]["0"]).status == 200 for r in replies]
        assert sorted(valid) == [False, True]
        return
    if kind == "join":
        game = created(client, {"game": "race", "players": ["Ann", None], "options": {"goal": 20}, "seed": "00" * 32})
        gid = game["game_id"]
        replies = twice_at_once(client, "POST", f"{GAMES}/{gid}/join", {"invite": game["invites"]["1"], "name": "Bo"}, "",
                                key)
        assert [r.status for r in replies] == [201, 201], [r.body for r in replies]
        assert {r.body["seat"] for r in replies} == {1}
        assert [r["kind"] for r in store.records(gid)].count("SeatJoined") == 1
        # One of the two tokens was replaced by the other; exactly one speaks for the seat.
        valid = [client.get(f"{GAMES}/{gid}/legal-moves", token=r.body["token"]).status == 200 for r in replies]
        assert sorted(valid) == [False, True]
        return
    game = race(client)
    gid = game["game_id"]
    if kind == "fork":
        advance(client, game)
        before = len(store.game_ids())
        replies = twice_at_once(client, "POST", f"{GAMES}/{gid}/fork", {"referee": REF, "at_version": 2, "reason": "what if"},
                                game["referee_token"], key)
        assert [r.status for r in replies] == [201, 201], [r.body for r in replies]
        assert len({r.body["game_id"] for r in replies}) == 1 and len(store.game_ids()) == before + 1
        return
    if kind == "move":
        mover = client.get(f"{GAMES}/{gid}").body["active_seats"][0]
        replies = twice_at_once(client, "POST", f"{GAMES}/{gid}/moves", {"type": "advance", "by": 2},
                                game["seat_tokens"][str(mover)], key)
    else:
        replies = twice_at_once(client, "POST", f"{GAMES}/{gid}/disputes",
                                {"referee": REF, "version": 2, "raised_by": "seat:1", "claim": "miscount"},
                                game["referee_token"], key)
    assert [r.status for r in replies] == [201, 201], [r.body for r in replies]
    assert told(replies[0]) == told(replies[1]) == stored_under(store, gid, key)
    assert store.audit(gid).ok
