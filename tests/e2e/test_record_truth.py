"""What the record and the listing say is what happened, over a real HTTP server on SQLite
and PostgreSQL: a seat joined by invite is an event with its name; a game is stored with
its tokens or not at all, and a join with its event or not at all (failures injected in
the database itself); and the smaller refusals (a version or seat the game does not have,
a body that is not JSON, errors titled for what was asked)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import Engine, text

from projections.listing import Filters
from service.application import Caboose
from service.db import make_engine
from service.lobby import Lobby
from service.settings import Settings
from tests.e2e.conftest import Client, serving

SEED = "ab" * 32
TTR = "ticket_to_ride"


@contextmanager
def refused_inserts(app: Caboose, table: str, when: str = "") -> Iterator[None]:
    """Make the database itself refuse inserts into `table` (a trigger), as a full disk or
    a broken constraint would; `when` is the trigger's condition on NEW."""
    engine = make_engine(app.settings.db, app.settings.schema)
    sqlite = engine.dialect.name == "sqlite"
    with engine.begin() as connection:
        if sqlite:
            condition = f"WHEN {when}" if when else ""
            connection.execute(text(f"CREATE TRIGGER refuse_insert BEFORE INSERT ON {table} {condition} "
                                    "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"))
        else:
            connection.execute(text("CREATE FUNCTION refuse_insert() RETURNS trigger AS "
                                    "$$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql"))
            condition = f"WHEN ({when})" if when else ""
            connection.execute(text(f"CREATE TRIGGER refuse_insert BEFORE INSERT ON {table} FOR EACH ROW {condition} "
                                    "EXECUTE FUNCTION refuse_insert()"))
    try:
        yield
    finally:
        with engine.begin() as connection:
            connection.execute(text("DROP TRIGGER refuse_insert" + ("" if sqlite else f" ON {table}")))
            if not sqlite:
                connection.execute(text("DROP FUNCTION refuse_insert()"))
        engine.dispose()


def credential_rows(engine: Engine) -> int:
    with engine.connect() as connection:
        return int(connection.scalar(text("SELECT count(*) FROM caboose_credentials")) or 0)


def problem(reply: Any, status: int) -> dict[str, Any]:
    assert reply.status == status, reply.body
    assert reply.headers["content-type"] == "application/problem+json"
    assert reply.body["detail"]
    return dict(reply.body)


def created(client: Client, players: list[str | None], game: str = TTR, **extra: Any) -> dict[str, Any]:
    reply = client.post("/api/v1/games", {"game": game, "players": players, "seed": SEED, **extra})
    assert reply.status == 201, reply.body
    return dict(reply.body)


@pytest.fixture
def served(app: Caboose) -> Iterator[tuple[Client, Lobby]]:
    lobby = Lobby(app)
    from service.api import create_app

    with serving(app, create_app(app, lobby)) as client:
        yield client, lobby
    lobby.seating.engine.dispose()


# -- a seat joined by invite is in the record ---------------------------------------------

def test_a_seat_joined_by_invite_is_an_event_with_its_name(served: tuple[Client, Lobby], tmp_path: Any) -> None:
    client, lobby = served
    game = created(client, ["Ann", None, "Cy"])
    base, referee = f"/api/v1/games/{game['game_id']}", game["referee_token"]
    before = client.get(f"{base}/events", token=referee).body["version"]
    joined = client.post(f"{base}/join", {"invite": game["invites"]["1"], "name": "Bo"})
    assert joined.status == 201 and joined.body["seat"] == 1
    events = client.get(f"{base}/events?after={before}", token=referee).body["events"]
    assert [(e["kind"], e["actor"], e["data"]) for e in events] == [("SeatJoined", "seat:1", {"seat": 1, "name": "Bo"})]
    assert client.get(base).body["seats"][1] == {"seat": 1, "name": "Bo", "open": False}
    assert client.get(f"{base}/state", token=joined.body["token"]).body["state"]["seats"][1]["name"] == "Bo"
    assert [g["seats"][1]["name"] for g in client.get("/api/v1/games").body["games"]] == ["Bo"]
    # The game goes on as before: the joined seat's token plays its opening choice.
    keep = client.get(f"{base}/legal-moves", token=joined.body["token"]).body["moves"][0]
    assert client.post(f"{base}/moves", keep, token=joined.body["token"]).status == 201
    audit = client.get(f"{base}/audit").body
    assert audit["ok"] and audit["rules"]["ok"], audit
    # The whole record, exported and imported elsewhere, still says who joined.
    records = lobby.caboose.records(game["game_id"])
    elsewhere = Lobby(Caboose(Settings(db=f"sqlite:///{tmp_path}/elsewhere.sqlite")))
    game_id, issued = elsewhere.import_game(records)
    assert elsewhere.caboose.summary(game_id)["seats"][1]["name"] == "Bo"
    referee = elsewhere.seating.audience(game_id, issued.referee_token, elsewhere.caboose.game(game_id))
    assert elsewhere.caboose.state(game_id, referee)["state"]["seats"][1]["name"] == "Bo"
    assert elsewhere.caboose.audit(game_id).ok
    # An invite opens its seat once.
    assert client.post(f"{base}/join", {"invite": game["invites"]["1"], "name": "Eve"}).status == 403


def test_a_rewind_past_a_join_keeps_the_joined_name(client: Client) -> None:
    game = created(client, ["Ann", None])
    base, referee, ann = f"/api/v1/games/{game['game_id']}", game["referee_token"], game["seat_tokens"]["0"]
    opening = client.get(base).body["version"]
    keep = client.get(f"{base}/legal-moves", token=ann).body["moves"][0]
    assert client.post(f"{base}/moves", keep, token=ann).status == 201
    assert client.post(f"{base}/join", {"invite": game["invites"]["1"], "name": "Bo"}).status == 201
    rewound = client.post(f"{base}/rewind", {"referee": "Rita", "to_version": opening, "reason": "Ann misread her tickets"},
                          token=referee)
    assert rewound.status == 201, rewound.body
    assert client.get(f"{base}/state", token=referee).body["state"]["seats"][1]["name"] == "Bo"
    assert client.get(base).body["seats"][1]["name"] == "Bo"
    assert client.get(f"{base}/legal-moves", token=ann).body["moves"]  # Ann chooses again
    audit = client.get(f"{base}/audit").body
    assert audit["ok"], audit


def test_a_join_whose_event_cannot_be_stored_leaves_the_invite_unused(served: tuple[Client, Lobby], app: Caboose) -> None:
    client, _ = served
    game = created(client, ["Ann", None])
    base, invite = f"/api/v1/games/{game['game_id']}", game["invites"]["1"]
    version = client.get(base).body["version"]
    with refused_inserts(app, app.recorder.events_table_name, "NEW.topic LIKE '%Game.Joined'"):
        failed = client.post(f"{base}/join", {"invite": invite, "name": "Bo"})
        assert failed.status >= 400 and failed.headers["content-type"] == "application/problem+json", failed.body
    assert client.get(base).body["version"] == version
    assert client.get(base).body["seats"][1]["open"] is True
    # The invite still opens the seat, and this time the join is recorded.
    joined = client.post(f"{base}/join", {"invite": invite, "name": "Bo"})
    assert joined.status == 201, joined.body
    assert client.get(f"{base}/state", token=joined.body["token"]).status == 200
    assert client.get(base).body["version"] == version + 1 and client.get(base).body["seats"][1]["name"] == "Bo"


def test_a_record_without_joins_imports_and_audits_as_before(app: Caboose, tmp_path: Any) -> None:
    # What every game recorded before joins were events looks like: the open seat's
    # placeholder name in GameCreated, and no SeatJoined.
    game_id = app.create_game("race", ["ann", "open seat 1"], {"goal": 6}, seed=bytes(32))
    for _ in range(40):
        g = app.game(game_id)
        if g.is_over:
            break
        app.play(game_id, min(g.decider.active_seats(g.state)), {"type": "advance", "by": 3})
    records = app.records(game_id)
    assert app.audit(game_id).ok and not any(r["kind"] == "SeatJoined" for r in records)
    elsewhere = Lobby(Caboose(Settings(db=f"sqlite:///{tmp_path}/old.sqlite")))
    imported, _ = elsewhere.import_game(records)
    assert elsewhere.caboose.records(imported) == records and elsewhere.caboose.audit(imported).ok
    assert elsewhere.caboose.summary(imported)["seats"][1]["name"] == "open seat 1"


# -- a game is stored with its tokens, or not at all ---------------------------------------

def test_creation_refused_by_the_credentials_table_stores_nothing(served: tuple[Client, Lobby], app: Caboose) -> None:
    client, lobby = served
    with refused_inserts(app, "caboose_credentials"):
        reply = client.post("/api/v1/games", {"game": TTR, "players": ["Ann", "Ben"], "seed": SEED})
        assert reply.status >= 500 and reply.headers["content-type"] == "application/problem+json", reply.body
    assert app.game_ids() == [] and credential_rows(lobby.seating.engine) == 0
    assert client.get("/api/v1/games").body["games"] == []


def test_creation_refused_by_the_event_store_leaves_no_tokens(served: tuple[Client, Lobby], app: Caboose) -> None:
    client, lobby = served
    with refused_inserts(app, app.recorder.events_table_name):
        reply = client.post("/api/v1/games", {"game": TTR, "players": ["Ann", None], "seed": SEED})
        assert reply.status >= 500 and reply.headers["content-type"] == "application/problem+json", reply.body
        assert client.get("/api/v1/games").body["games"] == []
    assert app.game_ids() == [] and credential_rows(lobby.seating.engine) == 0
    # The same creation, once the store takes it, is stored and listed with its tokens.
    game = created(client, ["Ann", None])
    assert [g["game_id"] for g in client.get("/api/v1/games").body["games"]] == [game["game_id"]]
    assert credential_rows(lobby.seating.engine) == 3


@pytest.mark.postgres
def test_a_nul_in_a_name_on_postgresql_stores_neither_game_nor_tokens(postgres_app: Caboose) -> None:
    # PostgreSQL text cannot hold NUL: the credentials insert fails for real.
    lobby = Lobby(postgres_app)
    with pytest.raises(Exception):  # noqa: B017 - the driver's own error, whatever its class
        lobby.open_game(TTR, ["Ann", "B\x00n"], seed=bytes(32))
    assert postgres_app.game_ids() == [] and credential_rows(lobby.seating.engine) == 0 and lobby.listing(Filters()).games == []
    from service.api import create_app

    with serving(postgres_app, create_app(postgres_app, lobby)) as client:
        reply = client.post("/api/v1/games", {"game": TTR, "players": ["Ann", "B\u0000n"]})
        assert reply.status >= 400 and reply.headers["content-type"] == "application/problem+json", reply.body
        assert client.get("/api/v1/games").body["games"] == []
    assert postgres_app.game_ids() == [] and credential_rows(lobby.seating.engine) == 0
    lobby.seating.engine.dispose()


def test_forks_get_tokens_and_are_listed(served: tuple[Client, Lobby]) -> None:
    client, _ = served
    game = created(client, ["Ann", "Ben"])
    base = f"/api/v1/games/{game['game_id']}"
    version = client.get(base).body["version"]
    fork = client.post(f"{base}/fork", {"referee": "Rita", "at_version": version, "reason": "what if"}, token=game["referee_token"])
    assert fork.status == 201, fork.body
    assert client.get(f"/api/v1/games/{fork.body['game_id']}/legal-moves?seat=0", token=fork.body["referee_token"]).status == 200
    assert {g["game_id"] for g in client.get("/api/v1/games").body["games"]} == {game["game_id"], fork.body["game_id"]}


# -- smaller refusals ----------------------------------------------------------------------

def test_time_travel_past_the_current_version_names_it(client: Client) -> None:
    game = created(client, ["Ann", "Ben", "Cy"])
    base = f"/api/v1/games/{game['game_id']}"
    version = client.get(base).body["version"]
    body = problem(client.get(f"{base}/state?at=99999"), 400)
    assert body["code"] == "bad_version" and body["current_version"] == version and f"version {version}" in body["detail"]
    assert client.get(f"{base}/state?at={version}").status == 200


def test_a_seat_the_game_does_not_have_is_refused(client: Client) -> None:
    game = created(client, ["Ann", "Ben", "Cy"])
    base, referee = f"/api/v1/games/{game['game_id']}", game["referee_token"]
    body = problem(client.get(f"{base}/legal-moves?seat=7", token=referee), 400)
    assert body["code"] == "bad_seat" and "0 to 2" in body["detail"]
    assert client.get(f"{base}/legal-moves?seat=2", token=referee).status == 200


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_body_that_is_not_sent_as_json_says_so(client: Client, content_type: str | None) -> None:
    game = created(client, ["Ann", "Ben"])
    base, ann = f"/api/v1/games/{game['game_id']}", game["seat_tokens"]["0"]
    events = client.get(f"{base}/events", token=game["referee_token"]).body
    move = client.get(f"{base}/legal-moves", token=ann).body["moves"][0]
    headers = {"Content-Type": content_type} if content_type else {"Content-Type": ""}
    for path, body in ((f"{base}/moves", move), ("/api/v1/games", {"game": TTR, "players": ["a", "b"]})):
        reply = client.post(path, raw=json.dumps(body).encode(), headers=headers, token=ann)
        refused = problem(reply, 415)
        assert refused["expected"] == "application/json" and "application/json" in refused["detail"]
    assert client.get(f"{base}/events", token=game["referee_token"]).body == events
    assert len(client.get("/api/v1/games").body["games"]) == 1


def test_errors_are_titled_for_what_was_asked(client: Client) -> None:
    for body, code in (({"game": "chess", "players": ["a", "b"]}, "unknown_game"),
                       ({"game": TTR, "players": ["a"]}, "bad_seats")):
        refused = problem(client.post("/api/v1/games", body), 400)
        assert refused["code"] == code and refused["title"] == "Invalid game settings"
    game = created(client, ["Ann", "Ben"])
    base = f"/api/v1/games/{game['game_id']}"
    move = problem(client.post(f"{base}/moves", {"type": "fly"}, token=game["seat_tokens"]["0"]), 400)
    assert move["title"] == "Malformed move"
    ruling = problem(client.post(f"{base}/disputes/2/ruling", {"referee": "Rita", "text": "x", "outcome": "upheld"},
                                 token=game["referee_token"]), 422)
    assert ruling["title"] == "Refused by the rules" and ruling["code"] == "no_such_dispute"


def test_an_upheld_ruling_is_carried_out_after_it_is_made(client: Client) -> None:
    game = created(client, ["Ann", "Ben"])
    base, referee = f"/api/v1/games/{game['game_id']}", game["referee_token"]
    raised = [client.post(f"{base}/disputes", {"referee": "Rita", "version": 2, "raised_by": "seat:1", "claim": claim},
                          token=referee).body["version"] for claim in ("Ben is owed 2 VP", "Ann is owed 5 VP")]
    for dispute, outcome in zip(raised, ("upheld", "dismissed"), strict=True):
        ruled = client.post(f"{base}/disputes/{dispute}/ruling", {"referee": "Rita", "text": outcome, "outcome": outcome}, token=referee)
        assert ruled.status == 201, ruled.body
    adjust = {"referee": "Rita", "seat": 1, "kind": "vp", "amount": 2, "reason": "as ruled", "dispute": raised[0]}
    carried = client.post(f"{base}/adjustments", adjust, token=referee)
    assert carried.status == 201, carried.body
    version = client.get(base).body["version"]
    refused = problem(client.post(f"{base}/adjustments", {**adjust, "seat": 0, "amount": 5, "dispute": raised[1]}, token=referee), 422)
    assert refused["code"] == "dispute_not_upheld" and "dismissed" in refused["detail"]
    again = problem(client.post(f"{base}/disputes/{raised[0]}/ruling", {"referee": "Rita", "text": "x", "outcome": "dismissed"},
                                token=referee), 422)
    assert again["code"] == "dispute_ruled" and "ruled on at version" in again["detail"]
    assert client.get(base).body["version"] == version
    upheld = next(d for d in client.get(f"{base}/disputes").body["disputes"] if d["dispute"] == raised[0])
    assert upheld["status"] == "ruled" and upheld["actions"] == [{"version": carried.body["version"], "kind": "AdjustmentMade"}]
    assert client.get(f"{base}/audit").body["ok"]
