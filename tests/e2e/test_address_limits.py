"""Limits counted on the caller's address before any token is looked up, over a real HTTP
server, as a client meets them from several loopback addresses (Linux answers on all of
127.0.0.0/8): made-up bearer tokens are no new clients, an address is counted across every
token it sends, valid tokens keep budgets of their own, and X-Forwarded-For is read only from
the proxies named as trusted."""

from __future__ import annotations

import http.client
import json
import secrets
from collections import Counter
from typing import Any

import pytest

from service.api import create_app
from service.application import Caboose
from service.bootstrap import bootstrap
from service.lobby import Lobby
from service.settings import RateLimits, Settings
from tests.e2e.conftest import Reply, serving


def from_address(base: str, source: str, method: str, path: str, body: Any = None, token: str | None = None,
                 forwarded: str | None = None) -> Reply:
    """One request sent from the loopback address `source`."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {}),
               **({"X-Forwarded-For": forwarded} if forwarded else {})}
    try:
        connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = connection.getresponse()
        raw = response.read()
        return Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, json.loads(raw) if raw else None)
    finally:
        connection.close()


def store(tmp_path: object, limits: RateLimits, **settings: Any) -> Caboose:
    return Caboose(Settings(db=f"sqlite:///{tmp_path}/limits.sqlite", rate_limits=limits, **settings))


def race(app: Caboose) -> tuple[str, dict[int, str], str]:
    game_id, issued = Lobby(app).open_game("race", ["Ann", "Bob"], {"goal": 40})
    return game_id, issued.seat_tokens, issued.referee_token


def test_made_up_tokens_are_refused_on_the_address_before_any_lookup(tmp_path: object) -> None:
    """The attack of 300 reads with random tokens under a 60/minute limit: after the address's
    60, every one is refused (429) before its token or game is looked up, even for a game that
    does not exist; a real seat elsewhere reads on, and this address's public reads too."""
    app = store(tmp_path, RateLimits(read="60/minute"))
    game_id, tokens, _ = race(app)
    with serving(app) as client:
        replies = [from_address(client.base, "127.0.0.5", "GET", f"/api/v1/games/{game_id}", token=secrets.token_urlsafe(24))
                   for _ in range(300)]
        statuses = Counter(r.status for r in replies)
        assert statuses == {401: 60, 429: 240}, statuses
        refused = replies[-1]
        assert int(refused.headers["retry-after"]) >= 1 and refused.body["code"] == "rate_limited"
        # Refused before the game is looked up: an unknown game is not even found missing.
        unknown = from_address(client.base, "127.0.0.5", "GET", "/api/v1/games/00000000-0000-4000-8000-000000000000",
                               token=secrets.token_urlsafe(24))
        assert unknown.status == 429, unknown.body
        # Another address is another client; the flooding address still reads in public.
        assert from_address(client.base, "127.0.0.6", "GET", f"/api/v1/games/{game_id}", token=tokens[0]).status == 200
        assert from_address(client.base, "127.0.0.5", "GET", f"/api/v1/games/{game_id}").status == 200


def test_an_address_is_counted_across_every_token_it_sends(tmp_path: object) -> None:
    """Each valid token keeps its own count; together, one address may make as many
    requests as `clients_per_address` clients, and no more."""
    app = store(tmp_path, RateLimits(read="3/minute", clients_per_address=2))
    game_id, tokens, referee = race(app)
    with serving(app) as client:
        def read(token: str, source: str = "127.0.0.7") -> int:
            return from_address(client.base, source, "GET", f"/api/v1/games/{game_id}", token=token).status

        assert [read(tokens[0]) for _ in range(4)] == [200, 200, 200, 429]  # the token's own limit
        assert [read(tokens[1]) for _ in range(2)] == [200, 200]
        over = from_address(client.base, "127.0.0.7", "GET", f"/api/v1/games/{game_id}", token=referee)
        assert over.status == 429 and "from this address" in over.body["detail"], over.body
        assert read(referee, source="127.0.0.8") == 200


@pytest.mark.parametrize("trusted", [("127.0.0.2",), ("127.0.0.0/30",)])
def test_x_forwarded_for_is_read_only_from_a_trusted_proxy(tmp_path: object, trusted: tuple[str, ...]) -> None:
    """Behind a proxy at 127.0.0.2 (CABOOSE_TRUSTED_PROXIES=127.0.0.2): each client the proxy
    forwards has its own count, a chain of trusted proxies is walked back to the client, and a
    client that reaches the API directly is its own address whatever header it writes."""
    app = store(tmp_path, RateLimits(create="2/minute"), trusted_proxies=trusted)
    body = {"game": "race", "players": ["a", "b"]}
    with serving(app, create_app(services=bootstrap(caboose=app))) as client:
        def create(source: str, forwarded: str | None = None) -> int:
            return from_address(client.base, source, "POST", "/api/v1/games", body, forwarded=forwarded).status

        assert [create("127.0.0.2", "198.51.100.1") for _ in range(3)] == [201, 201, 429]
        assert create("127.0.0.2", "198.51.100.2") == 201
        assert [create("127.0.0.2", "203.0.113.9, 127.0.0.2") for _ in range(3)] == [201, 201, 429]
        # Written by the client itself: a new X-Forwarded-For on every request is still one client.
        assert [create("127.0.0.9", f"192.0.2.{i}") for i in range(3)] == [201, 201, 429]
        # ...and naming a client the proxy forwarded spends nothing of that client's.
        assert create("127.0.0.9", "198.51.100.3") == 429
        assert create("127.0.0.2", "198.51.100.3") == 201


def test_the_trusted_proxies_setting_is_a_count_or_the_proxies_networks(monkeypatch: pytest.MonkeyPatch) -> None:
    for given, read in [("", 0), ("1", 1), ("127.0.0.1", ("127.0.0.1/32",)), ("10.0.0.0/24, ::1", ("10.0.0.0/24", "::1/128"))]:
        monkeypatch.setenv("CABOOSE_TRUSTED_PROXIES", given)
        assert Settings.from_env().trusted_proxies == read
    monkeypatch.setenv("CABOOSE_TRUSTED_PROXIES", "the proxy")
    with pytest.raises(ValueError, match="CABOOSE_TRUSTED_PROXIES"):
        Settings.from_env()
