"""Every route of /api/v1/tournaments and /api/v1/ratings over a real HTTP server on a real
SQLite store, as a referee's client meets them: creating, registering, pairing (the tables'
tokens handed out once), playing the tables, standings, tables, the dispute desk, a ruling
that moves the standings, the live stream, export, import, audit, ratings; and the bad
input the issue lists, each a 4xx problem that stores nothing."""

from __future__ import annotations

import http.client
import json
import random
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import pytest

from projections.store import ReadModelError
from service.application import Caboose
from service.settings import RateLimits, Settings
from service.simulation import played_held
from tests.e2e.conftest import Client, serving

PLAYERS = ["Ann", "Ben", "Cleo", "Dan", "Eve"]


@pytest.fixture
def client(store: Caboose) -> Iterator[Client]:
    with serving(store) as client:
        yield client


def play_round(store: Caboose, tables: list[dict[str, Any]]) -> None:
    """The tables' games played to their end by bots, through the application the server uses."""
    for table in tables:
        game = store.game(table["game_id"])
        played_held(store, game, ["random"] * len(table["seats"]), random.Random(table["game_id"]), 20_000)


def new_tournament(client: Client, **body: Any) -> dict[str, Any]:
    reply = client.request("POST", "/api/v1/tournaments", {"name": "Club night", "game": "ticket_to_ride",
                                                          "format": "swiss", "rounds": 2, "table_size": 3, **body})
    assert reply.status == 201, reply.body
    return reply.body  # type: ignore[no-any-return]


def registered(client: Client, created: dict[str, Any], players: list[str] = PLAYERS) -> str:
    tournament_id, token = created["tournament_id"], created["referee_token"]
    for player in players:
        assert client.request("POST", f"/api/v1/tournaments/{tournament_id}/players", {"player": player}, token=token).status == 201
    return tournament_id


def test_a_tournament_over_http_from_creation_to_its_export(client: Client, store: Caboose) -> None:
    created = new_tournament(client)
    assert created["status"] == "registering" and len(created["commitment"]) == 64 and created["secret"] is None
    tournament_id, token = registered(client, created), created["referee_token"]
    listed = client.request("GET", "/api/v1/tournaments").body["tournaments"]
    assert [t["tournament_id"] for t in listed] == [tournament_id]
    paired = client.request("POST", f"/api/v1/tournaments/{tournament_id}/rounds", {}, token=token)
    assert paired.status == 201
    tables = paired.body["tables"]
    assert sorted(s["player"] for t in tables for s in t["seats"]) == sorted(PLAYERS)
    # The seats' tokens play the table's game over the games' own API.
    seat = tables[0]["seats"][0]
    assert client.request("GET", f"/api/v1/games/{tables[0]['game_id']}/legal-moves", token=seat["token"]).status == 200
    summary = client.request("GET", f"/api/v1/games/{tables[0]['game_id']}").body
    assert summary["tournament"] == {"tournament": tournament_id, "round": 1, "table": 1}
    play_round(store, tables)
    assert client.request("POST", f"/api/v1/tournaments/{tournament_id}/rounds", {}, token=token).status == 201
    shown = client.request("GET", f"/api/v1/tournaments/{tournament_id}/tables?round=1").body["tables"]
    assert len(shown) == len(tables) and all(t["replay"] == f"/games/{t['game_id']}/replay" for t in shown)
    play_round(store, client.request("GET", f"/api/v1/tournaments/{tournament_id}/tables?round=2").body["tables"])
    standings = client.request("GET", f"/api/v1/tournaments/{tournament_id}/standings").body
    assert [r["player"] for r in standings["standings"]] and {"met_twice", "least_met_twice"} <= standings.keys()
    # Pairing first records the results of ended games: here the last ones, which end the event.
    refused = client.request("POST", f"/api/v1/tournaments/{tournament_id}/rounds", {}, token=token)
    assert refused.status == 422 and refused.body["code"] in ("all_paired", "finished")
    summary = client.request("GET", f"/api/v1/tournaments/{tournament_id}").body
    assert summary["status"] == "finished" and summary["secret"] is not None
    audit = client.request("GET", f"/api/v1/tournaments/{tournament_id}/audit").body
    assert audit["ok"] and audit["games"]["ok"] and audit["tables"]["ok"], audit
    exported = client.request("GET", f"/api/v1/tournaments/{tournament_id}/export")
    lines = [json.loads(line) for line in exported.body.splitlines()]
    every = client.request("GET", f"/api/v1/tournaments/{tournament_id}/tables").body["tables"]
    assert lines[0]["kind"] == "TournamentCreated" and lines[0]["tournament_id"] == tournament_id
    assert list(dict.fromkeys(r["game_id"] for r in lines if "game_id" in r)) == [t["game_id"] for t in every]
    ratings = client.request("GET", "/api/v1/ratings?game=ticket_to_ride").body["ratings"]["ticket_to_ride"]
    assert sorted(r["player"] for r in ratings) == sorted(PLAYERS)


def test_import_over_http_stores_a_verified_export_and_refuses_a_tampered_one(client: Client, store: Caboose,
                                                                              tmp_path: Any) -> None:
    created = new_tournament(client, rounds=1)
    tournament_id, token = registered(client, created, PLAYERS[:4]), created["referee_token"]
    play_round(store, client.request("POST", f"/api/v1/tournaments/{tournament_id}/rounds", {}, token=token).body["tables"])
    client.request("POST", f"/api/v1/tournaments/{tournament_id}/rounds", {}, token=token)  # settles: the end
    exported = client.request("GET", f"/api/v1/tournaments/{tournament_id}/export").body
    lines = [json.loads(line) for line in exported.splitlines()]
    other = Caboose(Settings(db=f"sqlite:///{tmp_path}/other.sqlite", rate_limits=RateLimits.every("1000000/minute")))
    with serving(other) as elsewhere:
        tampered = json.loads(json.dumps(lines))
        finished = next(r for r in tampered if r.get("kind") == "TableFinished")
        finished["data"]["scores"][0] += 1
        refused = elsewhere.request("POST", "/api/v1/tournaments/import", {"records": tampered})
        assert refused.status == 422 and refused.body["code"] == "record_rejected"
        assert elsewhere.request("GET", "/api/v1/tournaments").body["tournaments"] == []
        stored = elsewhere.request("POST", "/api/v1/tournaments/import", {"records": lines})
        assert stored.status == 201 and stored.body["tournament_id"] == tournament_id
        assert elsewhere.request("GET", f"/api/v1/tournaments/{tournament_id}/audit").body["ok"]
        again = elsewhere.request("POST", "/api/v1/tournaments/import", {"records": lines})
        assert again.status == 422 and again.body["code"] == "tournament_exists"


def test_a_running_tournaments_public_export_is_refused_by_an_import_and_its_referees_is_stored(
        client: Client, store: Caboose, tmp_path: Any) -> None:
    created = new_tournament(client, rounds=2)
    tournament_id, token = registered(client, created, PLAYERS[:4]), created["referee_token"]
    assert client.request("POST", f"/api/v1/tournaments/{tournament_id}/rounds", {}, token=token).status == 201
    public = [json.loads(line) for line in client.request("GET", f"/api/v1/tournaments/{tournament_id}/export").body.splitlines()]
    full = [json.loads(line) for line in
            client.request("GET", f"/api/v1/tournaments/{tournament_id}/export?as=referee", token=token).body.splitlines()]
    other = Caboose(Settings(db=f"sqlite:///{tmp_path}/other.sqlite", rate_limits=RateLimits.every("1000000/minute")))
    with serving(other) as elsewhere:
        refused = elsewhere.request("POST", "/api/v1/tournaments/import", {"records": public})
        assert refused.status == 422 and refused.body["code"] == "secrets_withheld", refused.body
        assert "referee" in refused.body["detail"] and refused.body["first_bad_version"] >= 1
        assert elsewhere.request("GET", "/api/v1/tournaments").body["tournaments"] == []
        stored = elsewhere.request("POST", "/api/v1/tournaments/import", {"records": full})
        assert stored.status == 201 and stored.body["tournament_id"] == tournament_id, stored.body


def test_the_dispute_desk_and_a_ruling_that_moves_the_standings(client: Client, store: Caboose) -> None:
    created = new_tournament(client)
    tournament_id, token = registered(client, created), created["referee_token"]
    tables = client.request("POST", f"/api/v1/tournaments/{tournament_id}/rounds", {}, token=token).body["tables"]
    game_id = tables[0]["game_id"]
    raised = client.request("POST", f"/api/v1/tournaments/{tournament_id}/disputes",
                            {"game_id": game_id, "version": 3, "raised_by": "Ann", "claim": "a card was misdealt"}, token=token)
    assert raised.status == 201
    dispute = raised.body["records"][0]["version"]
    desk = client.request("GET", f"/api/v1/tournaments/{tournament_id}/disputes", token=token).body["disputes"]
    assert [(d["game_id"], d["dispute"], d["status"]) for d in desk] == [(game_id, dispute, "raised")]
    play_round(store, tables)
    client.request("POST", f"/api/v1/tournaments/{tournament_id}/rounds", {}, token=token)  # results in; round 2 paired
    before = {r["player"]: r for r in client.request("GET", f"/api/v1/tournaments/{tournament_id}/standings").body["standings"]}
    seats = [s["player"] for s in tables[0]["seats"]]
    played = client.request("GET", f"/api/v1/tournaments/{tournament_id}/tables?round=1").body["tables"][0]["seats"]
    # The ruling puts the table's last player (by the game's places) alone in first place.
    last = max(range(len(seats)), key=lambda seat: (played[seat]["place"], seat))
    places = [1 if seat == last else 2 for seat in range(len(seats))]
    ruled = client.request("POST", f"/api/v1/tournaments/{tournament_id}/rulings",
                           {"game_id": game_id, "text": "the deal is replayed in the record", "dispute": dispute,
                            "places": places}, token=token)
    assert ruled.status == 201, ruled.body
    assert ruled.body["paired_since"] == [2] and "already paired" in ruled.body["note"]
    assert [r["kind"] for r in ruled.body["tournament"]] == ["ResultRuled"]
    after = {r["player"]: r for r in client.request("GET", f"/api/v1/tournaments/{tournament_id}/standings").body["standings"]}
    assert after[seats[last]]["points"] > before[seats[last]]["points"]
    assert client.request("GET", f"/api/v1/tournaments/{tournament_id}/disputes", token=token).body["disputes"] == []


def test_bad_input_is_refused_and_stores_nothing(client: Client, store: Caboose) -> None:
    created = new_tournament(client, game="age_of_steam")
    tournament_id, token = created["tournament_id"], created["referee_token"]
    base = f"/api/v1/tournaments/{tournament_id}"
    assert client.request("POST", f"{base}/players", {"player": "Ann"}, token=token).status == 201
    twice = client.request("POST", f"{base}/players", {"player": "Ann"}, token=token)
    assert twice.status == 422 and twice.body["code"] == "already_registered"
    few = client.request("POST", f"{base}/rounds", {}, token=token)
    assert few.status == 422 and few.body["code"] == "too_few_players"
    size = client.request("POST", "/api/v1/tournaments", {"name": "x", "game": "age_of_steam", "format": "swiss",
                                                          "rounds": 1, "table_size": 8})
    assert size.status == 400 and size.body["code"] == "bad_table_size"
    for who in (None, "not-a-token"):
        anyone = client.request("POST", f"{base}/rulings", {"game_id": "x", "text": "no", "places": [1]}, token=who)
        assert anyone.status == 401
    for player in ("Ben", "Cleo"):
        client.request("POST", f"{base}/players", {"player": player}, token=token)
    tables = client.request("POST", f"{base}/rounds", {}, token=token).body["tables"]
    playing = client.request("POST", f"{base}/rounds", {}, token=token)
    assert playing.status == 422 and playing.body["code"] == "tables_playing" and tables[0]["game_id"] in playing.body["detail"]
    outsider = store.create_game("age_of_steam", ["x", "y", "z"])
    outside = client.request("POST", f"{base}/rulings", {"game_id": outsider, "text": "no", "places": [1, 2, 3]}, token=token)
    assert outside.status == 422 and outside.body["code"] == "not_in_tournament"
    unknown = client.request("GET", "/api/v1/tournaments/00000000-0000-0000-0000-000000000000/standings")
    assert unknown.status == 404 and unknown.body["code"] == "tournament_not_found"
    seen = client.request("GET", base).body
    assert [p["player"] for p in seen["players"]] == ["Ann", "Ben", "Cleo"] and len(seen["rounds"]) == 1


def test_the_tournament_stream_pushes_its_records(client: Client, store: Caboose) -> None:
    created = new_tournament(client)
    tournament_id, token = created["tournament_id"], created["referee_token"]
    target = urlparse(client.base)
    connection = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
    connection.request("GET", f"/api/v1/tournaments/{tournament_id}/stream?after=1")
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("Content-Type", "").startswith("text/event-stream")
    seen: list[dict[str, Any]] = []
    done = threading.Event()

    def read() -> None:
        while not done.is_set():
            line = response.fp.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                seen.append(json.loads(line[6:]))
                if len(seen) == 2:
                    done.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    for player in ("Ann", "Ben"):
        client.request("POST", f"/api/v1/tournaments/{tournament_id}/players", {"player": player}, token=token)
    assert done.wait(20), seen
    assert [(r["version"], r["data"]["player"]) for r in seen] == [(2, "Ann"), (3, "Ben")]
    connection.close()


def test_withdrawals_a_bot_keeps_the_seat_or_the_player_forfeits(client: Client, store: Caboose) -> None:
    created = new_tournament(client, table_size=5, rounds=1)
    tournament_id, token = registered(client, created), created["referee_token"]
    base = f"/api/v1/tournaments/{tournament_id}"
    table = client.request("POST", f"{base}/rounds", {}, token=token).body["tables"][0]
    seats = [s["player"] for s in table["seats"]]
    kept = client.request("POST", f"{base}/withdrawals", {"player": seats[0], "how": "bot", "level": "greedy",
                                                          "reason": "called away"}, token=token)
    assert kept.status == 201 and kept.body["records"][0]["data"]["how"] == "bot"
    game = client.request("GET", f"/api/v1/games/{table['game_id']}").body
    assert game["bots"] == {"0": "greedy"}
    gone = client.request("POST", f"{base}/withdrawals", {"player": seats[1], "how": "forfeit", "reason": "left"}, token=token)
    assert gone.status == 201
    again = client.request("POST", f"{base}/withdrawals", {"player": seats[1], "how": "forfeit", "reason": "left"}, token=token)
    assert again.status == 422 and again.body["code"] == "already_withdrawn"
    play_round(store, [table])
    client.request("POST", f"{base}/rounds", {}, token=token)  # records the result: the event ends
    result = client.request("GET", f"{base}/tables").body["tables"][0]["seats"]
    assert result[1]["place"] == len(seats)  # the forfeit is last
    # The referee's export shows running games' secrets, so it needs the referee's token.
    assert client.request("GET", f"{base}/export?as=referee").status == 401
    assert client.request("GET", f"{base}/export?as=referee", token=token).status == 200


def test_a_physical_table_is_opened_from_its_opening_as_laid_out(client: Client, store: Caboose) -> None:
    created = new_tournament(client, game="lucky", table_size=2, rounds=1, seed_source="table")
    tournament_id, token = registered(client, created, PLAYERS[:2]), created["referee_token"]
    base = f"/api/v1/tournaments/{tournament_id}"
    paired = client.request("POST", f"{base}/rounds", {}, token=token).body["tables"]
    assert paired[0]["game_id"] is None and paired[0]["referee_token"] is None
    waiting = client.request("GET", f"{base}/tables").body["tables"][0]
    assert waiting["status"] == "waiting" and waiting["replay"] is None
    path = f"{base}/rounds/1/tables/1/opening"
    assert client.request("POST", path, {"observed": {"outcomes": [1]}}).status == 401
    bad = client.request("POST", path, {"observed": {"outcomes": [7]}}, token=token)
    assert bad.status in (400, 422) and client.request("GET", f"{base}/tables").body["tables"][0]["game_id"] is None
    opened = client.request("POST", path, {"observed": {"outcomes": [1]}}, token=token)
    assert opened.status == 201 and opened.body["game_id"]
    game = client.request("GET", f"/api/v1/games/{opened.body['game_id']}").body
    assert game["transcribed"] and [s["name"] for s in game["seats"]] == [s["player"] for s in paired[0]["seats"]]
    assert client.request("GET", f"{base}/tables").body["tables"][0]["status"] == "playing"


def test_a_referees_commands_retried_with_their_idempotency_key_are_stored_once(client: Client, store: Caboose) -> None:
    """Register, pair and rule, each sent twice with one Idempotency-Key (a client retrying
    after a lost answer): the retry is answered with what the first stored, and the record
    holds each command once; the same key with another request is refused."""
    created = new_tournament(client)
    tournament_id, token = created["tournament_id"], created["referee_token"]
    base = f"/api/v1/tournaments/{tournament_id}"

    def count() -> int:
        return int(client.request("GET", base).body["version"])

    for player in PLAYERS:
        key = {"Idempotency-Key": f"register-{player}"}
        first = client.request("POST", f"{base}/players", {"player": player}, headers=key, token=token)
        retry = client.request("POST", f"{base}/players", {"player": player}, headers=key, token=token)
        assert first.status == retry.status == 201 and retry.body == first.body
    assert count() == 1 + len(PLAYERS)
    reused = client.request("POST", f"{base}/players", {"player": "Zed"}, headers={"Idempotency-Key": "register-Ann"},
                            token=token)
    assert reused.status == 422 and reused.body["code"] == "idempotency_key_reused"
    # Without a key, registering twice is refused: the retry above was told apart by its key alone.
    assert client.request("POST", f"{base}/players", {"player": "Ann"}, token=token).body["code"] == "already_registered"
    reserved = client.request("POST", f"{base}/players", {"player": "Zed"}, headers={"Idempotency-Key": "referee:1"},
                              token=token)
    assert reserved.status == 400 and count() == 1 + len(PLAYERS)

    key = {"Idempotency-Key": "pair-round-1"}
    paired = client.request("POST", f"{base}/rounds", {}, headers=key, token=token)
    assert paired.status == 201 and paired.body["replayed"] is False
    version = count()
    again = client.request("POST", f"{base}/rounds", {}, headers=key, token=token)
    assert again.status == 201 and again.body["replayed"] is True and count() == version
    assert [(t["game_id"], [s["player"] for s in t["seats"]]) for t in again.body["tables"]] == [
        (t["game_id"], [s["player"] for s in t["seats"]]) for t in paired.body["tables"]]
    assert all(s["token"] is None for t in again.body["tables"] for s in t["seats"])  # tokens are shown once
    assert all(s["token"] for t in paired.body["tables"] for s in t["seats"])
    assert len(store.game_ids()) == len(paired.body["tables"])  # no table game opened twice

    game_id = paired.body["tables"][0]["game_id"]
    seats = len(paired.body["tables"][0]["seats"])
    ruling = {"game_id": game_id, "text": "Played out at the table; entered by hand.", "places": list(range(1, seats + 1))}
    key = {"Idempotency-Key": "ruling-table-1"}
    ruled = client.request("POST", f"{base}/rulings", ruling, headers=key, token=token)
    retried = client.request("POST", f"{base}/rulings", ruling, headers=key, token=token)
    assert ruled.status == retried.status == 201 and retried.body == ruled.body
    kinds = [json.loads(line)["kind"] for line in client.request("GET", f"{base}/export").body.splitlines()
             if "tournament_id" in json.loads(line)]
    assert kinds.count("ResultRuled") == 1
    other = client.request("POST", f"{base}/rulings", {**ruling, "places": list(range(seats, 0, -1))}, headers=key, token=token)
    assert other.status == 422 and other.body["code"] == "idempotency_key_reused"


def test_a_game_created_rated_counts_in_the_ratings_once_it_ends(client: Client, store: Caboose) -> None:
    rated = client.request("POST", "/api/v1/games", {"game": "ticket_to_ride", "players": ["Ann", "Ben"], "rated": True})
    plain = client.request("POST", "/api/v1/games", {"game": "ticket_to_ride", "players": ["Dan", "Eve"]})
    assert rated.status == plain.status == 201
    assert store.records(rated.body["game_id"], upto=1)[0]["data"]["rated"] is True
    bad = client.request("POST", "/api/v1/games", {"game": "ticket_to_ride", "players": ["Fay", "Gus"], "rated": "maybe"})
    assert bad.status == 400 and bad.body["errors"] == {"rated": ["Not a valid boolean."]}
    assert len(store.game_ids()) == 2  # nothing stored
    assert client.request("GET", "/api/v1/ratings").body["ratings"] == {}
    for game_id in (rated.body["game_id"], plain.body["game_id"]):
        played_held(store, store.game(game_id), ["random", "random"], random.Random(game_id), 20_000)
    shown = client.request("GET", "/api/v1/ratings?game=ticket_to_ride").body["ratings"]["ticket_to_ride"]
    assert sorted((r["player"], r["games"]) for r in shown) == [("Ann", 1), ("Ben", 1)]
    assert shown[0]["rating"] > shown[1]["rating"]


def test_unavailable_read_models_are_a_503_with_what_to_run(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    created = new_tournament(client)

    def unavailable(store: Any, tournament_id: str) -> None:
        raise ReadModelError("The read models' database is not at the latest revision: run `caboose db upgrade`.")

    monkeypatch.setattr("service.tournament.views.stored_standings", unavailable)
    answer = client.request("GET", f"/api/v1/tournaments/{created['tournament_id']}/standings")
    assert answer.status == 503 and answer.body["code"] == "read_model_error" and "caboose db upgrade" in answer.body["detail"]
    assert answer.headers["retry-after"]
