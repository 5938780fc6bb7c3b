"""A referee hands a seat to a bot over the API while someone watches the game's replay: the
page shows the takeover and then the bot's move arriving, like any other move (Debian
chromium via Playwright)."""

from __future__ import annotations

import json
import random
import urllib.request
from pathlib import Path
from typing import Any

from service.bots import BotRunner
from service.simulation import game_seed
from tests.browser.support import Site, play_random, shot


def post(url: str, body: dict[str, Any], token: str) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 201
        return json.loads(response.read())


def test_the_replay_shows_a_bot_moving_for_a_seat_the_referee_handed_over(site: Site, open_page: Any, artifacts: Path) -> None:
    app = site.app
    game_id, issued = site.lobby.open_game("ticket_to_ride", ["Ann", "Ben"], seed=game_seed(51, 0))
    play_random(app, game_id, 6, random.Random(51))
    game = app.game(game_id)
    seat = min(game.decider.active_seats(game.state))
    name = game.seats[seat]
    before = game.version

    watched = open_page(f"{site.base}/games/{game_id}/replay")
    page = watched.ready()
    assert watched.position() == before and page.is_visible("#live")

    taken = post(f"{site.base}/api/v1/games/{game_id}/seats/{seat}/bot", {"level": "playout", "reason": f"{name} dropped out"},
                 issued.referee_token)
    takeover = taken["version"]
    # The runner, as `caboose serve` runs it, follows the store and moves for the seat.
    stop = BotRunner(app).start(interval=0.1)
    try:
        page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) > {takeover}", timeout=20_000)
    finally:
        stop.set()
    after = app.game(game_id)
    bot_move = app.records(game_id, after=takeover)
    assert bot_move and bot_move[0]["actor"] == f"seat:{seat}"
    assert seat not in after.decider.active_seats(after.state)  # the bot moved; the person's seat is next
    page.wait_for_function(f"() => document.querySelector('#board').dataset.version === '{after.version}'", timeout=20_000)

    marked = page.locator(f'#event-list li[data-version="{takeover}"]')
    assert marked.count() == 1
    assert f"handed {name}'s seat to the playout bot: {name} dropped out" in marked.text_content()
    assert page.locator(f'#event-list li.cat-bot[data-version="{takeover}"]').count() == 1
    moved = page.locator(f'#event-list li[data-version="{bot_move[0]["version"]}"]')
    assert moved.count() == 1 and moved.text_content().strip()
    assert page.text_content("#position") == f"event {after.version} of {after.version}"
    shot(page, artifacts, "ttr-bot-takes-a-seat")
    assert not watched.errors, watched.errors


def test_the_lobby_creates_a_game_with_a_bot_seat_and_a_deadline(site: Site, open_page: Any, artifacts: Path) -> None:
    watched = open_page(f"{site.base}/")
    page = watched.page
    page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=20_000)
    page.select_option("#create-game", "ticket_to_ride")
    rows = page.locator("#seat-rows > li")
    rows.nth(0).locator("[name=seat-name]").fill("Gil")
    levels = rows.nth(1).locator("[name=seat-bot] option").evaluate_all("options => options.map(o => o.value)")
    assert levels[0] == "" and {"random", "playout"} <= set(levels[1:])  # a person, or each level the game offers
    rows.nth(1).locator("[name=seat-bot]").select_option("playout")
    assert rows.nth(1).locator("[name=seat-open]").is_disabled() and not rows.nth(1).locator("[name=seat-open]").is_checked()
    page.fill("#create-deadline", "24")
    page.click("#create-submit")
    page.wait_for_selector("#created:not([hidden])")
    game_id = page.text_content("#created-list dd").strip()
    summary = site.app.summary(game_id)
    assert summary["bots"] == {"1": "playout"} and summary["move_deadline"] == 86400
    assert [s["name"] for s in summary["seats"]] == ["Gil", "playout bot"]
    shot(page, artifacts, "lobby-bot-seat")
    assert not watched.errors, watched.errors
