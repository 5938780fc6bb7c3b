"""Games played at a table over a real HTTP server: created with `seed_source: table`, moves
that wait for outcomes (202), outcomes entered by the referee or by the drawing seat, and
every bad outcome refused with nothing stored."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.e2e.conftest import Client

GAMES = "/api/v1/games"


def create(client: Client, **extra: Any) -> dict[str, Any]:
    body = {"game": "lucky", "players": ["Ann", "Ben"], "options": {"goal": 12}, "seed_source": "table",
            "observed": {"outcomes": [1]}, **extra}
    reply = client.post(GAMES, body)
    assert reply.status == 201, reply.body
    return reply.body


def version(client: Client, game_id: str) -> int:
    return client.get(f"{GAMES}/{game_id}").body["version"]


def test_a_table_game_has_no_seed_and_opens_as_observed(client: Client) -> None:
    game = create(client)
    assert game["seed_commitment"] is None and game["transcribed"] is True
    assert game["active_seats"] == [1] and game["waiting_for"] is None
    events = client.get(f"{GAMES}/{game['game_id']}/events").body["events"]
    assert events[0]["data"]["seed_source"] == "table" and events[0]["data"]["seed_commitment"] is None
    # The layout as observed is kept for the referee (it may hold what seats were dealt).
    assert events[1]["kind"] == "OutcomeEntered" and "value" not in events[1]["secrets"][0]


def test_a_move_waits_for_its_outcome_and_the_referee_enters_it(client: Client) -> None:
    game = create(client)
    gid, ben, referee = game["game_id"], game["seat_tokens"]["1"], game["referee_token"]
    moved = client.post(f"{GAMES}/{gid}/moves", {"type": "roll"}, token=ben)
    assert moved.status == 202, moved.body
    assert moved.body["waiting_for"]["outcome"] == "the race dice: 2 dice" and moved.body["waiting_for"]["by"] == "referee"
    summary = client.get(f"{GAMES}/{gid}").body
    assert summary["waiting_for"]["outcome"] == "the race dice: 2 dice"
    listed = client.get(f"{GAMES}?transcribed=true").body["games"]
    assert [g["waiting_for"] for g in listed if g["game_id"] == gid] == [
        {"outcome": "the race dice: 2 dice", "by": "referee", "seat": 1}]
    # While it waits, no move is taken, only the outcome.
    refused = client.post(f"{GAMES}/{gid}/moves", {"type": "roll"}, token=ben)
    assert refused.status == 422 and refused.body["code"] == "outcome_awaited"
    # A seat may not enter the referee's outcome.
    before = version(client, gid)
    forbidden = client.post(f"{GAMES}/{gid}/outcomes", {"outcome": [3, 4]}, token=ben)
    assert forbidden.status == 403 and forbidden.body["code"] == "not_your_outcome"
    entered = client.post(f"{GAMES}/{gid}/outcomes", {"text": "3 4"}, token=referee,
                          headers={"If-Match": f'"{before}"', "Idempotency-Key": "dice-1"})
    assert entered.status == 201, entered.body
    assert [(e["kind"], e["actor"]) for e in entered.body["events"]] == [
        ("OutcomeEntered", "referee:referee"), ("DiceRolled", "seat:1"), ("SecondDie", "system")]
    assert entered.body["events"][0]["data"]["outcome"] == [3, 4] and entered.body["now"]["state"]["counter"] == 7
    again = client.post(f"{GAMES}/{gid}/outcomes", {"text": "3 4"}, token=referee, headers={"Idempotency-Key": "dice-1"})
    assert again.status == 201 and again.body["events"] == entered.body["events"]
    assert client.get(f"{GAMES}/{gid}").body["waiting_for"] is None
    assert [g["waiting_for"] for g in client.get(f"{GAMES}?transcribed=true").body["games"] if g["game_id"] == gid] == [None]


def test_a_seat_enters_its_own_secret_draw_and_others_do_not_see_it(client: Client) -> None:
    game = create(client)
    gid, ann, ben, referee = game["game_id"], game["seat_tokens"]["0"], game["seat_tokens"]["1"], game["referee_token"]
    assert client.post(f"{GAMES}/{gid}/moves", {"type": "roll", "outcomes": [[1, 1]]}, token=referee).status == 403
    moved = client.post(f"{GAMES}/{gid}/moves", {"type": "roll", "seat": 1, "outcomes": [[1, 1]]}, token=referee)
    assert moved.status == 201, moved.body
    waiting = client.post(f"{GAMES}/{gid}/moves", {"type": "draw"}, token=ann)
    assert waiting.status == 202 and waiting.body["waiting_for"]["by"] == "seat:0"
    assert client.post(f"{GAMES}/{gid}/outcomes", {"text": "red"}, token=ben).status == 403
    drawn = client.post(f"{GAMES}/{gid}/outcomes", {"text": "bla"}, token=ann)
    assert drawn.status == 201, drawn.body
    assert [e["actor"] for e in drawn.body["events"]] == ["seat:0", "seat:0"]
    public = client.get(f"{GAMES}/{gid}/events").body["events"]
    assert all("value" not in s for e in public for s in e["secrets"])
    assert client.get(f"{GAMES}/{gid}/state", token=ann).body["state"]["seats"][0]["chips"] == ["black"]


def test_a_seat_may_not_enter_the_referees_outcome_inline(client: Client) -> None:
    game = create(client)
    gid, ben = game["game_id"], game["seat_tokens"]["1"]
    before = version(client, gid)
    reply = client.post(f"{GAMES}/{gid}/moves", {"type": "roll", "outcomes": [[6, 6]]}, token=ben)
    assert reply.status == 403 and reply.body["code"] == "not_your_outcome"
    assert version(client, gid) == before


def test_impossible_and_malformed_outcomes_store_nothing(client: Client) -> None:
    game = create(client)
    gid, ann, ben, referee = game["game_id"], game["seat_tokens"]["0"], game["seat_tokens"]["1"], game["referee_token"]
    assert client.post(f"{GAMES}/{gid}/moves", {"type": "roll"}, token=ben).status == 202
    before = version(client, gid)
    for body, status, code in [
        ({"outcome": [7, 1]}, 422, "impossible_outcome"),
        ({"outcome": [1]}, 422, "impossible_outcome"),
        ({"text": "three"}, 400, "bad_outcome"),
        ({"outcome": [1, 2], "text": "1 2"}, 400, "malformed_request"),
        ({}, 400, "malformed_request"),
        ({"outcome": [1, 2], "colour": "red"}, 400, "malformed_request"),
    ]:
        reply = client.post(f"{GAMES}/{gid}/outcomes", body, token=referee)
        assert (reply.status, reply.body.get("code")) == (status, code), (body, reply.body)
    assert client.post(f"{GAMES}/{gid}/outcomes", {"outcome": [1, 2]}, token=referee,
                       headers={"If-Match": '"1"'}).status == 412
    assert client.post(f"{GAMES}/{gid}/outcomes", {"outcome": [1, 2]}).status == 401
    assert version(client, gid) == before
    # A sixth red chip is refused, naming what the bag holds.
    assert client.post(f"{GAMES}/{gid}/outcomes", {"outcome": [1, 1]}, token=referee).status == 201
    for _ in range(3):
        assert client.post(f"{GAMES}/{gid}/moves", {"type": "draw"}, token=ann).status == 202
        assert client.post(f"{GAMES}/{gid}/outcomes", {"outcome": ["red"]}, token=ann).status == 201
        assert client.post(f"{GAMES}/{gid}/moves", {"type": "roll", "seat": 1, "outcomes": [[1, 1]]},
                           token=referee).status == 201
    assert client.post(f"{GAMES}/{gid}/moves", {"type": "draw"}, token=ann).status == 202
    before = version(client, gid)
    reply = client.post(f"{GAMES}/{gid}/outcomes", {"outcome": ["red"]}, token=ann)
    assert reply.status == 422 and "there are 1 black, 2 blue" in reply.body["detail"]
    assert version(client, gid) == before


def test_bad_table_creations_are_refused_and_store_nothing(client: Client) -> None:
    listed = len(client.get(GAMES).body["games"])
    for extra, code in [
        ({"seed": "ab" * 32}, "bad_seed"),
        ({"observed": {"outcomes": []}}, "bad_setup"),
        ({"observed": {"outcomes": [5]}}, "impossible_outcome"),
        ({"observed": {"outcomes": "seat 1"}}, "bad_setup"),
        ({"seed_source": "dice"}, "malformed_request"),
        ({"seed_source": "server"}, "bad_setup"),
    ]:
        body = {"game": "lucky", "players": ["Ann", "Ben"], "seed_source": "table", "observed": {"outcomes": [1]}, **extra}
        reply = client.post(GAMES, body)
        assert reply.status in (400, 422) and reply.body.get("code") == code, (extra, reply.body)
    assert len(client.get(GAMES).body["games"]) == listed


def test_outcomes_are_refused_in_a_seeded_game(client: Client) -> None:
    reply = client.post(GAMES, {"game": "lucky", "players": ["Ann", "Ben"]})
    gid, referee = reply.body["game_id"], reply.body["referee_token"]
    answer = client.post(f"{GAMES}/{gid}/outcomes", {"outcome": [1, 2]}, token=referee)
    assert answer.status == 422 and answer.body["code"] == "not_a_table_game"


def test_the_text_export_is_the_referees_or_everyones_once_over(client: Client) -> None:
    game = create(client)
    gid, ann, referee = game["game_id"], game["seat_tokens"]["0"], game["referee_token"]
    assert client.post(f"{GAMES}/{gid}/moves", {"type": "roll", "seat": 1, "outcomes": [[3, 4]]}, token=referee).status == 201
    assert client.post(f"{GAMES}/{gid}/moves", {"type": "draw", "outcomes": [["red"]]}, token=ann).status == 201
    text = client.get(f"{GAMES}/{gid}/export?format=text", token=referee)
    assert text.status == 200 and text.body.endswith("\nBen: roll\n3 4\nAnn: draw\nred\n")
    assert text.body.startswith('# lucky (ruleset 1): Ann, Ben; options {"goal": 12}\n# opening as observed: {"outcomes": [1]}\n')
    refused = client.get(f"{GAMES}/{gid}/export?format=text")
    assert refused.status == 422 and refused.body["code"] == "secrets_withheld"
    assert client.get(f"{GAMES}/{gid}/export?format=yaml").status == 400
    public = client.get(f"{GAMES}/{gid}/export")
    assert public.status == 200 and '"red"' not in public.body


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 9) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=8)


def test_random_outcomes_are_refused_and_store_nothing(client: Client) -> None:
    game = create(client)
    gid, ben, referee = game["game_id"], game["seat_tokens"]["1"], game["referee_token"]
    assert client.post(f"{GAMES}/{gid}/moves", {"type": "roll"}, token=ben).status == 202
    before = client.get(f"{GAMES}/{gid}/events", token=referee).body["events"]
    stored: list[Any] = []

    @settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(body=JSON | st.fixed_dictionaries({"outcome": JSON}) | st.fixed_dictionaries({"text": st.text(max_size=12)}),
           who=st.sampled_from(["referee", "seat"]))
    def check(body: Any, who: str) -> None:
        if stored:
            return
        reply = client.post(f"{GAMES}/{gid}/outcomes", body, token=referee if who == "referee" else ben)
        if reply.status < 300:  # only two faces from 1 to 6, from the referee, may pass
            assert who == "referee" and isinstance(body, dict), (body, reply.body)
            stored.append(body)
            return
        assert 400 <= reply.status < 500, (body, reply.status, reply.body)
        assert reply.headers["content-type"] == "application/problem+json" and reply.body["detail"]

    check()
    after = client.get(f"{GAMES}/{gid}/events", token=referee).body["events"]
    assert after[: len(before)] == before
    if not stored:
        assert after == before
    else:
        assert [e["kind"] for e in after[len(before):]] == ["OutcomeEntered", "DiceRolled", "SecondDie"]


def test_a_table_games_refusals_are_worded_in_the_readers_language(client: Client) -> None:
    game = create(client)
    gid, ben, referee = game["game_id"], game["seat_tokens"]["1"], game["referee_token"]
    assert client.post(f"{GAMES}/{gid}/moves", {"type": "roll"}, token=ben).status == 202
    before = version(client, gid)
    for tag, title, impossible in [("th", "ไม่ใช่ผลที่คุณป้อนได้", "ผลนี้เป็นไปไม่ได้ในตอนนี้"),
                                   ("zh-TW", "不是你能輸入的結果", "這個結果目前不可能出現")]:
        language = {"Accept-Language": tag}
        forbidden = client.post(f"{GAMES}/{gid}/outcomes", {"outcome": [3, 4]}, token=ben, headers=language)
        assert forbidden.status == 403 and forbidden.body["code"] == "not_your_outcome"
        assert forbidden.body["title"] == title and "Only the referee" not in forbidden.body["detail"]
        refused = client.post(f"{GAMES}/{gid}/outcomes", {"outcome": [7, 1]}, token=referee, headers=language)
        assert refused.status == 422 and refused.body["code"] == "impossible_outcome"
        assert refused.body["detail"].startswith(impossible), refused.body
    english = client.post(f"{GAMES}/{gid}/outcomes", {"outcome": [3, 4]}, token=ben, headers={"Accept-Language": "en"})
    assert english.body["title"] == "Not your outcome"
    assert version(client, gid) == before


def test_the_referees_state_says_what_a_waiting_table_game_waits_for(client: Client) -> None:
    game = create(client)
    gid, ben, referee = game["game_id"], game["seat_tokens"]["1"], game["referee_token"]
    assert client.get(f"{GAMES}/{gid}/state", token=referee).body["waiting_for"] is None
    waited = client.post(f"{GAMES}/{gid}/moves", {"type": "roll"}, token=ben).body["version"]
    for token in (referee, ben, None):
        state = client.get(f"{GAMES}/{gid}/state", token=token).body
        assert state["waiting_for"]["outcome"] == "the race dice: 2 dice" and state["waiting_for"]["by"] == "referee"
        assert state["waiting_for"]["seat"] == 1
    client.post(f"{GAMES}/{gid}/outcomes", {"text": "3 4"}, token=referee)
    assert client.get(f"{GAMES}/{gid}/state", token=referee).body["waiting_for"] is None
    # Time travel shows the wait at the version it was waiting at.
    then = client.get(f"{GAMES}/{gid}/state?at={waited}", token=referee).body
    assert then["version"] == waited and then["waiting_for"]["outcome"] == "the race dice: 2 dice"
