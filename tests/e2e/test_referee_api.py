"""Projections, referee tools, audit and bulk export over a real HTTP server: the shapes
viewers and referees rely on, and bad input refused with a problem and nothing stored."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from typing import Any

import pytest

from projections.listing import Filters
from service.application import Caboose
from service.bulk import import_lines
from service.lobby import Lobby
from service.seating import Issued
from service.settings import Settings
from service.simulation import game_seed, play_one
from tests.e2e.conftest import Client

REF = "Rita"
ISSUED: dict[str, Issued] = {}


def tokens_for(store: Caboose, game_id: str, seats: list[str]) -> Issued:
    ISSUED[game_id] = Lobby(store).seating.issue(game_id, list(seats))
    return ISSUED[game_id]


def referee(game_id: str) -> str:
    return ISSUED[game_id].referee_token


def seat(game_id: str, number: int) -> str:
    return ISSUED[game_id].seat_tokens[number]


def ttr_game(store: Caboose, moves: int, seed: int = 1) -> str:
    game_id = store.create_game("ticket_to_ride", ["ann", "bob", "cy"], seed=game_seed(seed, 0))
    tokens_for(store, game_id, ["ann", "bob", "cy"])
    chooser = random.Random(seed)
    for _ in range(moves):
        game = store.game(game_id)
        seat = chooser.choice(sorted(game.decider.active_seats(game.state)))
        store.play(game_id, seat, chooser.choice(game.decider.legal_moves(game.state, seat)))
    return game_id


def raw(client: Client, path: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(client.base + path, timeout=60) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


def test_projections_answer_now_and_at_any_version(client: Client, store: Caboose) -> None:
    game_id = ttr_game(store, 60)
    base = f"/api/v1/games/{game_id}"
    now = store.game(game_id).version
    scores = client.get(f"{base}/scores")
    assert scores.status == 200 and scores.body["version"] == now and scores.headers["etag"] == f'"{now}"'
    assert [set(s) for s in scores.body["seats"]] == [{"seat", "total", "by_source"}] * 3
    for at in (1, now // 3, now // 2, now):
        past = store.game(game_id, at=at)
        body = client.get(f"{base}/scores?at={at}").body
        assert body["version"] == at
        assert [s["total"] for s in body["seats"]] == [past.decider.scores(past.state)[i] for i in range(3)]
        assert all(s["total"] == sum(s["by_source"].values()) for s in body["seats"])
        assert client.get(f"{base}/board?at={at}").body["board"] == dict(sorted(past.state.claims.items()))
        income = client.get(f"{base}/income?at={at}").body["seats"]
        assert [s["tracks"]["trains"] for s in income] == [seat.trains for seat in past.state.seats]
    timeline = client.get(f"{base}/timeline").body["points"]
    assert timeline[0]["version"] == 1 and set(timeline[0]["seats"]) == {"0", "1", "2"}
    assert set(timeline[-1]["seats"]["0"]) == {"vp", "income"}
    assert [p["version"] for p in timeline] == sorted({p["version"] for p in timeline})
    assert timeline[-1]["seats"] == {str(s["seat"]): {"vp": s["total"], "income": None} for s in scores.body["seats"]}


@pytest.mark.parametrize("query, status", [
    ("?at=0", 400), ("?at=-3", 400), ("?at=abc", 400), ("?at=1.5", 400), ("?at=999999", 400), ("?when=3", 400),
])
def test_bad_queries_get_a_problem(client: Client, store: Caboose, query: str, status: int) -> None:
    game_id = ttr_game(store, 5)
    for what in ("board", "income", "scores", "timeline"):
        reply = client.get(f"/api/v1/games/{game_id}/{what}{query}")
        assert reply.status == status and reply.headers["content-type"] == "application/problem+json", (what, reply.body)
        assert reply.body["status"] == status and reply.body["detail"]
    assert client.get("/api/v1/games/00000000-0000-0000-0000-000000000000/scores").status == 404
    assert client.get("/api/v1/games/not-a-game/board").status == 404


def test_a_referee_takes_a_dispute_from_raised_to_ruled(client: Client, store: Caboose) -> None:
    game_id = ttr_game(store, 40)
    base = f"/api/v1/games/{game_id}"
    version = store.game(game_id).version
    dispute = client.post(f"{base}/disputes", {"referee": REF, "version": version, "raised_by": "seat:1", "claim": "miscount"},
                          token=referee(game_id))
    assert dispute.status == 201 and dispute.body["events"][0]["kind"] == "DisputeRaised", dispute.body
    raised = dispute.body["version"]
    assert client.get(f"{base}/disputes").body["disputes"][0]["status"] == "raised"
    target = next(v for v in range(version - 10, 0, -1) if store.records(game_id, upto=v + 1)[-1]["command_id"]
                  != store.records(game_id, upto=v)[-1]["command_id"])
    scores_then = client.get(f"{base}/scores?at={target}").body["seats"]
    rewind = client.post(f"{base}/rewind", {"referee": REF, "to_version": target, "reason": "upheld", "dispute": raised},
                         headers={"If-Match": f'"{raised}"'}, token=referee(game_id))
    assert rewind.status == 201 and rewind.body["events"][0]["actor"] == f"referee:{REF}", rewind.body
    assert client.get(f"{base}/scores").body["seats"] == scores_then
    adjust = client.post(f"{base}/adjustments", {"referee": REF, "seat": 2, "kind": "vp", "amount": 2, "reason": "time penalty on others",
                                                 "dispute": raised}, token=referee(game_id))
    assert adjust.status == 201
    assert client.get(f"{base}/scores").body["seats"][2]["by_source"]["adjustment"] == 2
    ruling = client.post(f"{base}/disputes/{raised}/ruling", {"referee": REF, "text": "Upheld.", "outcome": "upheld"},
                         token=referee(game_id))
    assert ruling.status == 201
    entry = client.get(f"{base}/disputes").body["disputes"][0]
    assert entry["status"] == "ruled" and [a["kind"] for a in entry["actions"]] == ["GameRewound", "AdjustmentMade"]
    audit = client.get(f"{base}/audit")
    assert audit.status == 200 and audit.body["ok"], audit.body
    assert {"ok", "chain", "rules", "seed", "projections", "first_problem"} <= set(audit.body)
    assert audit.body["projections"]["ok"] and audit.body["first_problem"] is None
    status, content_type, text = raw(client, f"{base}/audit?format=text")
    assert status == 200 and content_type.startswith("text/plain") and text.startswith("OK:") and "projections" in text
    events = client.get(f"{base}/events?limit=5000").body["events"]
    assert [e["kind"] for e in events[-4:]] == ["DisputeRaised", "GameRewound", "AdjustmentMade", "RulingMade"]


def bad_bodies(version: int) -> list[tuple[str, Any, int]]:
    return [
        ("rewind", {"to_version": 10, "reason": "no referee"}, 400),
        ("rewind", {"referee": REF, "to_version": "10", "reason": "string version"}, 400),
        ("rewind", {"referee": REF, "to_version": 10, "reason": ""}, 400),
        ("rewind", {"referee": REF, "to_version": 10, "reason": "x", "extra": 1}, 400),
        ("rewind", {"referee": REF, "to_version": 1, "reason": "before the opening"}, 422),
        ("rewind", {"referee": REF, "to_version": version + 5, "reason": "the future"}, 422),
        ("rewind", {"referee": "bad\nname", "to_version": 10, "reason": "x"}, 400),
        ("rewind", {"referee": REF, "to_version": 10, "reason": "x", "expected_version": 2}, 412),
        ("fork", {"referee": REF, "at_version": 0, "reason": "x"}, 400),
        ("fork", {"referee": REF, "at_version": version + 1, "reason": "x"}, 422),
        ("fork", {"referee": REF, "at_version": 10, "reason": "x", "seed": "zz"}, 400),
        ("takebacks", {"seat": "0"}, 400),
        ("takebacks", {"seat": 9}, 400),
        ("takebacks/answer", {"accept": "yes", "seat": 1}, 400),
        ("takebacks/answer", {"accept": True, "seat": 1}, 422),
        ("takebacks/answer", {"accept": True}, 400),
        ("disputes", {"referee": REF, "version": version + 9, "raised_by": "seat:0", "claim": "x"}, 422),
        ("disputes", {"referee": REF, "version": 3, "raised_by": "seat:0"}, 400),
        ("disputes/5/ruling", {"referee": REF, "text": "x", "outcome": "upheld"}, 422),
        ("disputes/5/ruling", {"referee": REF, "text": "x", "outcome": "maybe"}, 400),
        ("adjustments", {"referee": REF, "seat": 0, "kind": "cash", "amount": 5, "reason": "no cash here"}, 422),
        ("adjustments", {"referee": REF, "seat": 0, "kind": "vp", "amount": 0, "reason": "nothing"}, 400),
        ("adjustments", {"referee": REF, "seat": 0, "kind": "vp", "amount": 1.5, "reason": "fraction"}, 400),
        ("adjustments", {"referee": REF, "seat": 7, "kind": "vp", "amount": 1, "reason": "no seat"}, 400),
        ("adjustments", {"referee": REF, "seat": 0, "kind": "piece", "amount": 0, "reason": "x", "detail": {"route": "Nowhere"}}, 400),
    ]


def test_bad_referee_requests_get_a_problem_and_store_nothing(client: Client, store: Caboose) -> None:
    game_id = ttr_game(store, 30)
    base = f"/api/v1/games/{game_id}"
    before = client.get(f"{base}/events?limit=5000").body["events"]
    for path, body, status in bad_bodies(len(before)):
        reply = client.post(f"{base}/{path}", body, token=referee(game_id))
        assert reply.status == status, (path, body, reply.status, reply.body)
        assert reply.headers["content-type"] == "application/problem+json"
    for raw_body in (b"{not json", b"[]", b""):
        assert client.post(f"{base}/rewind", raw=raw_body, token=referee(game_id)).status == 400
    rewind = {"referee": REF, "to_version": 10, "reason": "x"}
    assert client.post(f"{base}/rewind", rewind).status == 401
    assert client.post(f"{base}/rewind", rewind, token="not-a-token").status == 401
    assert client.post(f"{base}/rewind", rewind, token=seat(game_id, 0)).status == 403
    assert client.post(f"{base}/takebacks", {"seat": 1}, token=seat(game_id, 0)).status == 403
    assert client.post("/api/v1/games/00000000-0000-0000-0000-000000000000/rewind",
                       {"referee": REF, "to_version": 10, "reason": "x"}, token=referee(game_id)).status == 404
    assert client.get(f"{base}/events?limit=5000").body["events"] == before
    assert client.get(f"{base}/audit").body["ok"]


def test_fork_and_takebacks_over_http(client: Client, store: Caboose) -> None:
    game_id = ttr_game(store, 30)
    at = next(v for v in range(25, 0, -1) if store.records(game_id, upto=v + 1)[-1]["command_id"]
              != store.records(game_id, upto=v)[-1]["command_id"])
    fork = client.post(f"/api/v1/games/{game_id}/fork", {"referee": REF, "at_version": at, "reason": "what if"},
                       token=referee(game_id))
    assert set(fork.body["seat_tokens"]) == {"0", "1", "2"} and fork.body["referee_token"]
    assert client.get(f"/api/v1/games/{fork.body['game_id']}/legal-moves", token=fork.body["seat_tokens"]["0"]).status == 200
    assert fork.status == 201 and fork.headers["location"] == f"/api/v1/games/{fork.body['game_id']}"
    assert fork.body["forked_from"] == {"game_id": game_id, "version": at} and fork.body["version"] == at + 1
    assert client.get(f"/api/v1/games/{fork.body['game_id']}/scores", token=fork.body["referee_token"]).body["seats"] == \
        client.get(f"/api/v1/games/{game_id}/scores?at={at}").body["seats"]
    # The origin is still running: the fork's play would show its hidden cards, so the public waits.
    assert client.get(f"/api/v1/games/{fork.body['game_id']}/scores").body["code"] == "withheld"
    race = store.create_game("race", ["ann", "bob"], {"goal": 20}, seed=bytes(32))
    tokens_for(store, race, ["ann", "bob"])
    mover = store.summary(race)["active_seats"][0]
    store.play(race, mover, {"type": "advance", "by": 2})
    asked = client.post(f"/api/v1/games/{race}/takebacks", {"seat": mover}, token=seat(race, mover))
    assert asked.status == 201 and asked.body["events"][0]["kind"] == "TakebackRequested"
    refused = client.post(f"/api/v1/games/{race}/takebacks/answer", {"accept": False, "seat": 1 - mover, "reason": "no"},
                          token=seat(race, 1 - mover))
    assert refused.status == 201 and refused.body["events"][0]["kind"] == "TakebackRefused"
    client.post(f"/api/v1/games/{race}/takebacks", {"seat": mover}, token=seat(race, mover))
    accepted = client.post(f"/api/v1/games/{race}/takebacks/answer", {"accept": True, "referee": REF}, token=referee(race))
    assert [e["kind"] for e in accepted.body["events"]] == ["TakebackAccepted", "MoveTakenBack"]
    assert store.game(race).state.counter == 0


def test_bulk_export_streams_json_lines_that_import_and_verify(client: Client, store: Caboose, tmp_path: Any) -> None:
    ids = [play_one(store, "ticket_to_ride", 2, game_seed(30, i), random.Random(i), check=False).game_id for i in range(3)]
    live = ttr_game(store, 10, seed=31)
    status, content_type, text = raw(client, "/api/v1/games/export?status=finished")
    assert status == 200 and content_type.startswith("application/jsonl")
    lines = text.splitlines()
    assert [json.loads(line)["game_id"] for line in lines if json.loads(line)["version"] == 1] == ids
    other = Caboose(Settings(db=f"sqlite:///{tmp_path}/archive.sqlite"))
    archive = Lobby(other)
    results = import_lines(archive, lines)
    assert [(r.game_id, r.ok) for r in results] == [(game_id, True) for game_id in ids]
    assert sorted(g["game_id"] for g in archive.listing(Filters()).games) == sorted(ids)  # imported games are listed
    assert all(other.audit(game_id).ok for game_id in ids)
    _, _, one = raw(client, f"/api/v1/games/export?ids={live}")
    assert {json.loads(line)["game_id"] for line in one.splitlines()} == {live}
    assert all("value" not in s for line in one.splitlines() for s in json.loads(line)["secrets"])  # active: public view
    assert raw(client, "/api/v1/games/export?ids=nope")[0] == 400
    assert raw(client, "/api/v1/games/export?ids=00000000-0000-0000-0000-000000000000")[0] == 404
    assert raw(client, "/api/v1/games/export?status=paused")[0] == 400
    assert raw(client, "/api/v1/games/export?limit=0")[0] == 400
    assert raw(client, "/api/v1/games/export?after=00000000-0000-0000-0000-000000000000")[0] == 404
    _, _, paged = raw(client, f"/api/v1/games/export?status=finished&after={ids[0]}&limit=1")
    assert {json.loads(line)["game_id"] for line in paged.splitlines()} == {ids[1]}


def test_the_openapi_document_describes_the_new_endpoints(client: Client) -> None:
    paths = client.get("/api/v1/openapi.json").body["paths"]
    for path in ("/api/v1/games/{game_id}/scores", "/api/v1/games/{game_id}/timeline", "/api/v1/games/{game_id}/rewind",
                 "/api/v1/games/{game_id}/fork", "/api/v1/games/{game_id}/audit", "/api/v1/games/export"):
        assert path in paths, path
