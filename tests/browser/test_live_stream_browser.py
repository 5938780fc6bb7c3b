"""The replay page follows a running game through the server's stream (GET …/stream), not by
polling: a move stored through the API appears on an open page, and the page asked for no
events meanwhile. When the stream cannot be had, the page falls back to polling."""

from __future__ import annotations

import json
import random
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from service.simulation import game_seed
from tests.browser.support import Site, Watched, play_random


def move_by_api(site: Site, game_id: str, tokens: dict[int, str]) -> int:
    """One move through the REST API, as another player's client makes it; the new version."""
    summary = json.load(urllib.request.urlopen(f"{site.base}/api/v1/games/{game_id}"))
    seat = summary["active_seats"][0]
    auth = {"Authorization": f"Bearer {tokens[seat]}", "Content-Type": "application/json"}
    legal = json.load(urllib.request.urlopen(urllib.request.Request(f"{site.base}/api/v1/games/{game_id}/legal-moves",
                                                                    headers=auth)))
    body = json.dumps(legal["moves"][0]).encode()
    with urllib.request.urlopen(urllib.request.Request(f"{site.base}/api/v1/games/{game_id}/moves", data=body,
                                                       headers=auth, method="POST")) as answer:
        return int(json.load(answer)["version"])


@contextmanager
def replay_page(browser: Any, url: str, stream_broken: bool = False) -> Iterator[tuple[Watched, list[str]]]:
    """The replay page at `url`, with every request it makes to the API recorded."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        if stream_broken:  # as a proxy that refuses long-lived responses would
            page.route("**/stream?*", lambda route: route.fulfill(status=502, body="Bad Gateway"))
        requested: list[str] = []
        watched = Watched(page)
        page.on("request", lambda request: requested.append(request.url) if "/api/v1/" in request.url else None)
        page.on("pageerror", lambda error: watched.errors.append(str(error)))
        page.goto(url)
        yield watched, requested
    finally:
        context.close()


def events_requests(requested: list[str]) -> list[str]:
    return [url for url in requested if "/events?" in url]


def test_a_move_stored_by_the_api_appears_on_an_open_page_without_polling(site: Site, browser: Any) -> None:
    game_id, issued = site.lobby.open_game("ticket_to_ride", ["Ann", "Ben"], seed=game_seed(41, 0))
    play_random(site.app, game_id, 6, random.Random(41))
    before = site.app.game(game_id).version
    # Ann's page: her token goes in the stream's Authorization header, and her secrets come with it.
    with replay_page(browser, f"{site.base}/games/{game_id}/replay?token={issued.seat_tokens[0]}") as (watched, requested):
        page = watched.ready()
        assert watched.position() == before and page.is_visible("#live")
        page.wait_for_function("() => replay.page.stream !== null")
        loaded = len(events_requests(requested))
        for _ in range(3):
            after = move_by_api(site, game_id, issued.seat_tokens)
            page.wait_for_function(f"() => document.querySelector('#board').dataset.version === '{after}'", timeout=15_000)
        page.wait_for_timeout(2500)  # longer than the old polling interval: a poll would have shown by now
        assert page.locator(f'#event-list li[data-version="{after}"]').count() == 1
        assert page.locator("#event-list li[data-version]").count() == after
        assert page.text_content("#position") == f"event {after} of {after}"
        assert len(events_requests(requested)) == loaded, events_requests(requested)[loaded:]
        streams = [url for url in requested if "/stream?" in url]
        assert streams == [f"{site.base}/api/v1/games/{game_id}/stream?after={before}"]
        assert page.get_attribute("#audience", "data-audience") == "seat:0"
        assert not watched.errors, watched.errors


def test_the_page_polls_when_the_stream_cannot_be_had(site: Site, browser: Any) -> None:
    game_id, issued = site.lobby.open_game("ticket_to_ride", ["Ann", "Ben"], seed=game_seed(42, 0))
    play_random(site.app, game_id, 6, random.Random(42))
    with replay_page(browser, f"{site.base}/games/{game_id}/replay", stream_broken=True) as (watched, requested):
        page = watched.ready()
        # Three refused attempts, two seconds apart, then polling every two seconds.
        page.wait_for_function("() => replay.page.polling !== null && replay.page.stream === null", timeout=20_000)
        after = move_by_api(site, game_id, issued.seat_tokens)
        page.wait_for_function(f"() => document.querySelector('#board').dataset.version === '{after}'", timeout=15_000)
        assert len([url for url in requested if "/stream?" in url]) == 3
        assert len(events_requests(requested)) >= 2  # the first load, then at least one poll
        assert page.locator("#event-list li[data-version]").count() == after
