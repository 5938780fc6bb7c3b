"""Hostile JSON at every entry point, over a real HTTP server on SQLite and PostgreSQL:
nesting 1,000 deep, a lone surrogate, a NUL, a number that is not finite. Each gets a 400
problem naming the problem (and the offending value's JSON Pointer where there is one),
and the store holds exactly what it held before."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, select

from service.api import create_app
from service.application import Caboose
from service.seating import Base
from tests.e2e.conftest import Client, serving

DEEP = "[" * 1000 + "]" * 1000


def store_contents(app: Caboose, engine: Engine) -> tuple[Any, ...]:
    """Every stored event, and every row of the service's own tables."""
    events = [(n.id, str(n.originator_id), n.originator_version, n.topic, bytes(n.state))
              for n in app.recorder.select_notifications(start=1, limit=1_000_000)]
    with engine.connect() as connection:
        rows = {table.name: sorted(map(repr, connection.execute(select(table)).all())) for table in Base.metadata.sorted_tables}
    return events, rows


class Table:
    """A game with an open seat, its tokens and invite, served over HTTP."""

    def __init__(self, client: Client, engine: Engine, app: Caboose) -> None:
        self.client, self.engine, self.app = client, engine, app
        created = client.post("/api/v1/games", {"game": "race", "players": ["ann", None], "options": {"goal": 9}})
        assert created.status == 201, created.body
        self.game_id = created.body["game_id"]
        self.ann, self.referee, self.invite = created.body["seat_tokens"]["0"], created.body["referee_token"], created.body["invites"]["1"]

    def send(self, method: str, path: str, raw: str, token: str | None = None) -> Any:
        before = store_contents(self.app, self.engine)
        reply = self.client.request(method, path.format(game=self.game_id), raw=raw.encode("utf-8", "surrogatepass"),
                                    token={"ann": self.ann, "referee": self.referee}.get(token or ""))
        assert reply.status == 400, (reply.status, reply.body)
        assert reply.headers["content-type"] == "application/problem+json"
        assert store_contents(self.app, self.engine) == before
        return reply.body


@pytest.fixture
def table(app: Caboose) -> Iterator[Table]:
    flask_app = create_app(app)
    with serving(app, flask_app) as client:
        yield Table(client, flask_app.extensions["caboose.lobby"].seating.engine, app)


# (method, path, body with a {value} slot, token): every entry point that takes a body.
ENTRY_POINTS = {
    "create game": ("POST", "/api/v1/games", '{{"game": "race", "players": ["ann", {value}]}}', None),
    "join": ("POST", "/api/v1/games/{game}/join", '{{"invite": "x", "name": {value}}}', None),
    "move": ("POST", "/api/v1/games/{game}/moves", '{{"type": "advance", "by": 1, "note": {value}}}', "ann"),
    "notifications": ("PUT", "/api/v1/games/{game}/notifications", '{{"webhook_url": null, "email": {value}}}', "ann"),
    "dispute": ("POST", "/api/v1/games/{game}/disputes",
                '{{"referee": "rita", "version": 1, "raised_by": "seat:0", "claim": {value}}}', "referee"),
    "adjustment": ("POST", "/api/v1/games/{game}/adjustments",
                   '{{"referee": "rita", "seat": 0, "kind": "vp", "amount": 1, "reason": "r", "detail": {{"why": {value}}}}}',
                   "referee"),
}
# (the value as JSON text, the problem's code, the pointer's last part or None).
HOSTILE = {
    "nested 1,000 deep": (DEEP, "too_deep"),
    "lone surrogate": ('"ann \\ud800"', "lone_surrogate"),
    "raw lone surrogate": ('"ann \ud800"', "lone_surrogate"),
    "NUL": ('"ann\\u0000"', "nul_character"),
    "not finite": ("1e999", "not_a_number"),
}


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_json_is_refused_and_nothing_is_stored(table: Table, entry: str, hostile: str) -> None:
    method, path, template, token = ENTRY_POINTS[entry]
    value, code = HOSTILE[hostile]
    if value.startswith('"ann \ud800'):
        # Not even UTF-8: a surrogate sent as raw bytes.
        problem = table.send(method, path, template.format(value=value), token)
        assert problem["status"] == 400
        return
    problem = table.send(method, path, template.format(value=value), token)
    assert problem["code"] == code, problem
    if code != "too_deep":
        assert problem["path"] is not None and problem["path"].split("/")[1] in template, problem
        assert problem["path"].split("/")[1] in problem["detail"]


def test_a_nul_in_a_players_name_points_at_it(table: Table) -> None:
    problem = table.send("POST", "/api/v1/games", '{"game": "race", "players": ["ann", "b\\u0000b"]}')
    assert problem["code"] == "nul_character" and problem["path"] == "/players/1"
    assert "/players/1" in problem["detail"] and "NUL" in problem["detail"]


def test_a_nul_in_a_key_is_shown_escaped(table: Table) -> None:
    problem = table.send("POST", "/api/v1/games/{game}/moves", '{"type": "advance", "by": 1, "k\\u0000": 1}', "ann")
    assert problem["path"] == "/k\\u0000"


@pytest.mark.parametrize("query", ["/api/v1/games?game=rac%00e", "/api/v1/games/{game}/events?after=%00",
                                   "/api/v1/games/{game}/legal-moves?seat=%00", "/api/v1/games/{game}/replay/views?from=1%00"])
def test_hostile_query_strings_are_refused(table: Table, query: str) -> None:
    # (A surrogate cannot arrive in a query string: its UTF-8 bytes are invalid, and are
    # read as U+FFFD.)
    problem = table.send("GET", query.replace("/api/v1/games/{game}/replay", "/games/{game}/replay"), "")
    assert problem["status"] == 400


def test_the_game_still_plays_after_every_refusal(table: Table) -> None:
    table.send("POST", "/api/v1/games/{game}/moves", '{"type": "advance", "by": 1, "note": ' + DEEP + "}", "ann")
    joined = table.client.post(f"/api/v1/games/{table.game_id}/join", {"invite": table.invite, "name": "bob"})
    assert joined.status == 201, joined.body
    summary = table.client.get(f"/api/v1/games/{table.game_id}")
    assert summary.status == 200 and [s["name"] for s in summary.body["seats"]] == ["ann", "bob"]
    assert json.dumps(summary.body)
