"""The replay viewer in a real browser: headless Chromium from Debian's `chromium` package,
driven by Playwright, against a real HTTP server on loopback in front of a real SQLite
store. No browser is ever downloaded: Playwright launches `/usr/bin/chromium`.

A machine without Chromium fails these tests (it does not skip them): install it with
`apt-get install -y chromium` (CI's `.ci/run` does).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from service.api import create_app
from service.application import Caboose
from service.lobby import Lobby
from service.settings import RateLimits, Settings
from service.simulation import game_seed, play_one
from tests.browser.support import WIDE, Site, Watched, keeping_errors, play_random
from tests.support.http import serve_on_thread
from tests.support.loopback_mail import hooks, mailbox  # noqa: F401  (the journeys' fixtures)

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: the browser tests need Debian's `chromium` "
                    "package (`apt-get install -y chromium`, as .ci/run does).", pytrace=False)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("The `playwright` Python package is missing: `pip install -e '.[test]'`.", pytrace=False)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A finished 3-seat Ticket to Ride game, one in progress (Ann, Ben, Cleo, with tokens)
    and a finished Age of Steam game, served on a loopback port. Tests that change a game
    make a game of their own on `site.app`."""
    tmp_path = tmp_path_factory.mktemp("replay")
    app = Caboose(Settings(db=f"sqlite:///{tmp_path}/v.sqlite", rate_limits=RateLimits.every("1000000/minute")))
    lobby = Lobby(app)
    finished = play_one(app, "ticket_to_ride", 3, game_seed(11, 0), random.Random(11), check=False)
    lobby.seating.issue(finished.game_id, list(app.game(finished.game_id).seats))
    running, issued = lobby.open_game("ticket_to_ride", ["Ann", "Ben", "Cleo"], seed=game_seed(11, 1))
    play_random(app, running, 45, random.Random(12))
    steam = play_one(app, "age_of_steam", 3, game_seed(11, 2), random.Random(13), check=False)
    server = make_server("127.0.0.1", 0, create_app(app, lobby), threaded=True)
    serve_on_thread(server)
    try:
        yield Site(f"http://127.0.0.1:{server.server_port}", app, lobby,
                   games={"finished": finished.game_id, "running": running, "steam": steam.game_id},
                   tokens={"ann": issued.seat_tokens[0], "ben": issued.seat_tokens[1], "referee": issued.referee_token})
    finally:
        server.shutdown()


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    contexts = []

    def opener(url: str) -> Watched:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        contexts.append(context)
        page = context.new_page()
        watched = Watched(page)

        def keep(response: Any) -> None:
            if "json" in (response.headers.get("content-type") or ""):
                watched.responses.append(response)

        page.on("response", keep)
        page.on("pageerror", lambda error: watched.errors.append(str(error)))
        page.on("console", lambda message: watched.errors.append(message.text) if message.type == "error" else None)
        page.goto(url)
        return watched

    yield opener
    for context in contexts:
        context.close()


def opened(browser: Any, contexts: list[Any], url: str, viewport: dict[str, int], touch: bool,
           language: str | None = None) -> Any:
    """`url` in a browser context of its own (`touch`: a phone's touch screen; `language`: the
    browser's language), once the page is ready. The page keeps what went wrong in it
    (`page.errors`: uncaught errors and console errors) and the moves it sent (`page.sent`:
    the POST requests to `/moves`)."""
    languages = {"locale": language, "extra_http_headers": {"Accept-Language": language}} if language else {}
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch, **languages)
    contexts.append(context)
    page = context.new_page()
    page.errors, page.sent = [], []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
    page.on("request", lambda r: page.sent.append(r) if r.method == "POST" and r.url.endswith("/moves") else None)
    page.goto(url)
    page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=60_000)
    return page


@pytest.fixture
def seat_page(browser: Any) -> Iterator[Any]:
    """Opens a game's page with a seat's token (`opened`)."""
    contexts: list[Any] = []
    yield lambda site, game_id, token, viewport=WIDE, touch=False: opened(
        browser, contexts, f"{site.base}/games/{game_id}/replay?token={token}", viewport, touch)
    for context in contexts:
        context.close()


@pytest.fixture
def reader(browser: Any) -> Iterator[Any]:
    """Opens `url` in a browser whose language is `language` (its Accept-Language and locale),
    at `viewport` (a phone's, with a touch screen, when narrow), once the page is ready."""
    contexts: list[Any] = []
    yield lambda language, url, viewport=WIDE: opened(browser, contexts, url, viewport, viewport["width"] < 600, language)
    for context in contexts:
        context.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """A page in a browser context of its own (its own localStorage: another person), at a
    viewport of its own, once the page is ready; it keeps its errors (`page.errors`)."""
    with ExitStack() as opened:
        def opener(url: str, viewport: dict[str, int] = WIDE) -> Any:
            context = browser.new_context(viewport=viewport)
            opened.callback(context.close)
            page = keeping_errors(context.new_page())
            page.goto(url)
            page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=20_000)
            return page

        yield opener
