"""Webhooks may not point into the server's own networks (server-side request forgery):
refused when set, with a problem naming the address class, and again at every delivery,
connecting only to the address that was checked. The operator may allow networks."""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterator

import pytest
from flask import Flask
from sqlalchemy.orm import Session

from service.api import create_app
from service.application import Caboose
from service.lobby import Lobby
from service.notify.notifier import Notifier
from service.notify.senders import post_webhook
from service.notify.store import Subscription
from service.notify.targets import TargetRefused, WebhookTargets, address_class
from service.settings import RateLimits, Settings
from tests.e2e.conftest import serving
from tests.support.receiver import Receiver, receiving


@pytest.mark.parametrize(("address", "expected"), [
    ("127.0.0.1", "loopback"), ("127.8.9.10", "loopback"), ("::1", "loopback"), ("::ffff:127.0.0.1", "loopback"),
    ("10.1.2.3", "private"), ("172.16.0.1", "private"), ("192.168.1.1", "private"), ("fd00::1", "private"),
    ("::ffff:192.168.1.1", "private"), ("169.254.169.254", "link-local"), ("fe80::1", "link-local"),
    ("224.0.0.1", "multicast"), ("ff02::1", "multicast"), ("0.0.0.0", "unspecified"), ("::", "unspecified"),
    ("240.0.0.1", "reserved"), ("100.64.0.1", "reserved"), ("93.184.216.34", None), ("2606:4700::1111", None),
    ("::ffff:93.184.216.34", None),
])
def test_address_classes(address: str, expected: str | None) -> None:
    assert address_class(ipaddress.ip_address(address)) == expected


def test_allowed_networks_open_exactly_those_addresses() -> None:
    targets = WebhookTargets.allowing("127.0.0.0/8, ::1/128")
    targets.check_url("http://127.0.0.1:9/hook")
    targets.check_url("http://[::1]:9/hook")
    targets.check_url("http://[::ffff:127.0.0.1]:9/hook")
    with pytest.raises(TargetRefused) as refused:
        targets.check_url("http://10.0.0.1/hook")
    assert refused.value.address_class == "private"
    with pytest.raises(ValueError, match="CABOOSE_WEBHOOK_ALLOW_NETWORKS"):
        WebhookTargets.allowing("not a network")


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving() as server:
        yield server


def served(tmp_path: object, allow: tuple[str, ...] = ()) -> tuple[Caboose, Notifier, Lobby, Flask]:
    store = Caboose(Settings(db=f"sqlite:///{tmp_path}/hooks.sqlite", rate_limits=RateLimits.every("1000000/minute"),
                             webhook_allow_networks=allow))
    lobby = Lobby(store)
    notifier = Notifier(store, lobby.seating.engine)
    return store, notifier, lobby, create_app(store, lobby, notifier)


REFUSED = [("http://127.0.0.1:8000/hook", "loopback"), ("http://localhost:8000/hook", "loopback"),
           ("http://[::1]/hook", "loopback"), ("http://[::ffff:7f00:1]/hook", "loopback"),
           ("http://10.0.0.5/hook", "private"), ("https://192.168.0.10/hook", "private"),
           ("http://169.254.169.254/latest/meta-data", "link-local"), ("http://[fe80::1]/hook", "link-local"),
           ("http://224.0.0.251/hook", "multicast"), ("http://0.0.0.0:8000/hook", "unspecified"),
           ("http://240.0.0.1/hook", "reserved"),
           # Names that are this machine by definition, however written (no resolver is asked).
           ("http://LOCALHOST./hook", "loopback"), ("http://localhost./hook", "loopback"), ("http://api.localhost/hook", "loopback"),
           # IPv6 addresses that carry an IPv4 one: 6to4 of 127.0.0.1 and of 10.0.0.1, Teredo's client, NAT64.
           ("http://[2002:7f00:1::]/hook", "loopback"), ("http://[2002:a00:1::1]/hook", "private"),
           ("http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook", "loopback"), ("http://[64:ff9b::a9fe:a9fe]/hook", "link-local")]


@pytest.mark.parametrize(("url", "klass"), REFUSED)
def test_setting_a_webhook_into_the_servers_networks_is_refused(tmp_path: object, url: str, klass: str) -> None:
    store, _, _, app = served(tmp_path)
    with serving(store, app) as client:
        created = client.post("/api/v1/games", {"game": "race", "players": ["ann", "bob"]}).body
        path, token = f"/api/v1/games/{created['game_id']}/notifications", created["seat_tokens"]["0"]
        assert client.request("PUT", path, {"email": "ann@example.test"}, token=token).status == 200
        reply = client.request("PUT", path, {"webhook_url": url, "email": "other@example.test"}, token=token)
        assert reply.status == 400 and reply.headers["content-type"] == "application/problem+json"
        assert reply.body["code"] == "webhook_target_refused" and reply.body["address_class"] == klass
        assert f"a {klass} address" in reply.body["detail"]
        # Nothing changed: the earlier subscription stands.
        assert client.get(path, token=token).body["email"] == "ann@example.test"
        assert client.get(path, token=token).body["webhook_url"] is None


@pytest.mark.parametrize("url", ["http://example.test:99999/hook", "https://[2606:4700::1111]:65536/hook"])
def test_a_webhook_with_no_port_a_server_can_have_is_refused(tmp_path: object, url: str) -> None:
    store, _, _, app = served(tmp_path)
    with serving(store, app) as client:
        created = client.post("/api/v1/games", {"game": "race", "players": ["ann", "bob"]}).body
        path, token = f"/api/v1/games/{created['game_id']}/notifications", created["seat_tokens"]["0"]
        reply = client.request("PUT", path, {"webhook_url": url}, token=token)
        assert reply.status == 400 and reply.headers["content-type"] == "application/problem+json", reply.body
        assert "port" in json.dumps(reply.body)
        assert client.get(path, token=token).body["webhook_url"] is None


def test_the_operator_may_allow_loopback(tmp_path: object) -> None:
    store, _, _, app = served(tmp_path, allow=("127.0.0.0/8", "::1/128"))
    with serving(store, app) as client:
        created = client.post("/api/v1/games", {"game": "race", "players": ["ann", "bob"]}).body
        path, token = f"/api/v1/games/{created['game_id']}/notifications", created["seat_tokens"]["0"]
        assert client.request("PUT", path, {"webhook_url": "http://127.0.0.1:9/hook"}, token=token).status == 200
        assert client.request("PUT", path, {"webhook_url": "http://10.0.0.5/hook"}, token=token).status == 400


def test_a_webhook_that_resolves_into_the_servers_networks_at_delivery_is_not_sent(tmp_path: object, receiver: Receiver) -> None:
    # Set when the name was acceptable (written straight into the table: a name that
    # resolves elsewhere by the time of delivery), delivered never.
    store, notifier, _, _ = served(tmp_path)
    game_id = store.create_game("race", ["ann", "bob"], {"goal": 5})
    with Session(notifier.engine) as session, session.begin():
        session.add(Subscription(game_id=game_id, seat=0, webhook_url=f"http://localhost:{receiver.server_port}/hook",
                                 webhook_secret="s" * 64))
        session.add(Subscription(game_id=game_id, seat=1, webhook_url=f"http://localhost:{receiver.server_port}/hook",
                                 webhook_secret="s" * 64))
    notifier.run_once()
    deliveries = notifier.status(game_id, 0)["deliveries"] + notifier.status(game_id, 1)["deliveries"]
    assert deliveries and all(d["status"] == "failed" and "loopback" in d["last_error"] for d in deliveries), deliveries
    assert receiver.hosts == []


def test_a_delivery_connects_to_the_checked_address_and_names_the_host(receiver: Receiver) -> None:
    targets = WebhookTargets.allowing(["127.0.0.0/8"])
    post_webhook(f"http://localhost:{receiver.server_port}/hook", "secret", {"event": "your_turn"}, targets)
    assert receiver.hosts == [f"localhost:{receiver.server_port}"]
    with pytest.raises(TargetRefused):
        post_webhook(f"http://localhost:{receiver.server_port}/hook", "secret", {"event": "your_turn"}, WebhookTargets())
    assert len(receiver.hosts) == 1
