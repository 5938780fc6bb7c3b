"""No seat's or referee's token reaches the access log: the real gunicorn (infra/gunicorn.conf.py)
writing its access log to a file, and the people's flows in headless Chromium — a game made in
the lobby, its seat and referee opened from "My games", a seat joined by invite and opened
the same way, a play-by-email player's requests, and a link of the older `?token=` form
still opened — then every token and invite is looked for in the log."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import keeping_errors
from tests.support.live_server import LiveServer

WIDE = {"width": 1400, "height": 900}


@pytest.fixture
def logged_server(tmp_path: Path) -> Iterator[tuple[LiveServer, Path]]:
    access_log = tmp_path / "access.log"
    with LiveServer(f"sqlite:///{tmp_path}/logged.sqlite", workers=1, threads=8, log_path=tmp_path / "gunicorn.log",
                    env={"CABOOSE_ACCESS_LOG": str(access_log)}) as server:
        yield server, access_log


def person(browser: Any, contexts: list[Any]) -> Any:
    """A page in a browser context of its own (its own localStorage: another person)."""
    contexts.append(browser.new_context(viewport=WIDE))
    return keeping_errors(contexts[-1].new_page())


def ready(page: Any) -> None:
    page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=30_000)


def held(page: Any) -> list[dict[str, Any]]:
    return json.loads(page.evaluate("() => localStorage.getItem('caboose.lobby.tokens') || '[]'"))


def open_from_my_games(page: Any, game_id: str, who: str) -> str:
    """Follow "Open as <who>" on the game's card; the audience the replay page then shows."""
    card = page.locator(f'#my-games > li[data-game-id="{game_id}"]').filter(has_text=f"Open as {who}")
    card.locator("a", has_text=f"Open as {who}").first.click()
    page.wait_for_url(re.compile(r"/replay"))
    page.wait_for_function("() => (document.querySelector('#audience')?.dataset.audience || 'public') !== 'public'",
                           timeout=30_000)
    assert "token" not in page.url, page.url  # taken out of the address bar at once
    return str(page.get_attribute("#audience", "data-audience"))


def test_no_token_reaches_the_access_log(browser: Any, logged_server: tuple[LiveServer, Path]) -> None:
    server, access_log = logged_server
    contexts: list[Any] = []
    try:
        host = person(browser, contexts)
        host.goto(f"{server.base}/")
        ready(host)
        host.select_option("#create-game", "ticket_to_ride")
        rows = host.locator("#seat-rows > li")
        rows.nth(0).locator("[name=seat-name]").fill("Dora")
        host.click("#create-submit")
        host.wait_for_selector("#created:not([hidden])")
        invite = str(host.get_attribute('#created-list a[data-invite-seat="1"]', "href"))
        game_id = re.search(r"join=([0-9a-f-]+)", invite).group(1)  # type: ignore[union-attr]
        host.wait_for_selector(f'#my-games > li[data-game-id="{game_id}"]')
        links = host.eval_on_selector_all("#my-games a", "links => links.map(a => a.getAttribute('href'))")
        assert links and all("?token=" not in link for link in links), links
        assert open_from_my_games(host, game_id, "Dora") == "seat:0"

        guest = person(browser, contexts)
        guest.goto(invite)
        ready(guest)
        guest.fill("#join-name", "Eli")
        guest.click("#join-form button[type=submit]")
        guest.wait_for_selector(f'#my-games > li[data-game-id="{game_id}"]')
        assert open_from_my_games(guest, game_id, "Eli") == "seat:1"

        tokens = {entry["token"] for entry in held(host) + held(guest)}
        referee = next(e["token"] for e in held(host) if e["seat"] is None)
        # A play-by-email player: the token in its header, as the API asks.
        client = server.client()
        for entry in held(host) + held(guest):
            assert client.get(f"/api/v1/games/{game_id}/state", token=entry["token"]).status == 200
        # A link of the older form still opens as its token's holder; the page drops the token from the address.
        old = person(browser, contexts)
        old.goto(f"{server.base}/games/{game_id}/replay?token={referee}&at=1")
        old.wait_for_function("() => document.querySelector('#audience')?.dataset.audience === 'referee'", timeout=30_000)
        assert "token" not in old.url and "at=1" in old.url
        errors = host.errors + guest.errors + old.errors
    finally:
        for context in contexts:
            context.close()
    server.stop()  # the workers write out what they logged

    assert not errors, errors
    assert len(tokens) == 3  # Dora's, the referee's, Eli's
    secrets = [*tokens, invite.rsplit("invite=", 1)[1]]
    log = access_log.read_text()
    assert f"/games/{game_id}/replay" in log and f"/api/v1/games/{game_id}/state" in log  # the flows were logged
    assert "token=[redacted]" in log  # the old link's request line, without its token
    found = [secret for secret in secrets if secret in log]
    assert found == [], f"{len(found)} tokens in the access log"
    assert str(uuid.UUID(game_id)) in log
