"""Every page a person uses, in headless Chromium at 1400x900 and at a 390 px phone width: the
lobby, the replay page and the play page of every game with a renderer, and the API docs.
Each is saved as a screenshot (test-artifacts/browser/pages/), none is wider than the phone's
screen, none logs an error, and axe finds no serious or critical violation on the lobby and
the play pages."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.simulation import game_seed
from tests.browser.accessibility import serious
from tests.browser.support import PHONE, WIDE, Site, play_random, shot, watched_page

GAMES = ["ticket_to_ride", "age_of_steam", "railway_boom", "toot_toot"]
WIDTHS = {"1400": WIDE, "390": PHONE}


@pytest.fixture(scope="module")
def running(site: Site) -> dict[str, tuple[str, str]]:
    """A game of each kind some moves in, and the token of a seat that is to move in it."""
    out = {}
    for index, game in enumerate(GAMES):
        game_id, issued = site.lobby.open_game(game, ["Ann", "Ben", "Cleo"], seed=game_seed(90, index))
        play_random(site.app, game_id, 12, random.Random(90 + index))
        state = site.app.game(game_id)
        assert not state.is_over
        seat = sorted(state.decider.active_seats(state.state))[0]
        out[game] = (game_id, issued.seat_tokens[seat])
    return out


@pytest.fixture
def page_at(browser: Any) -> Iterator[Any]:
    contexts = []

    def opener(url: str, viewport: dict[str, int]) -> Any:
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        return watched_page(context, url)

    yield opener
    for context in contexts:
        context.close()


def fits(page: Any, viewport: dict[str, int]) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"{page.url} is {width} px wide at {viewport['width']} px"


def kept(page: Any, artifacts: Path, name: str) -> None:
    (artifacts / "pages").mkdir(exist_ok=True)
    shot(page, artifacts, f"pages/{name}")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_lobby(site: Site, page_at: Any, artifacts: Path, width: str) -> None:
    page = page_at(f"{site.base}/", WIDTHS[width])
    page.wait_for_selector("#games > li")
    fits(page, WIDTHS[width])
    kept(page, artifacts, f"lobby-{width}")
    assert serious(page) == []
    assert not page.errors, page.errors


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", GAMES)
def test_the_play_page(site: Site, running: dict[str, tuple[str, str]], page_at: Any, artifacts: Path,
                       game: str, width: str) -> None:
    game_id, token = running[game]
    page = page_at(f"{site.base}/games/{game_id}/replay?token={token}", WIDTHS[width])
    page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=30_000)
    page.wait_for_selector(f'#play[data-version="{site.app.game(game_id).version}"] [data-move]', state="attached")
    fits(page, WIDTHS[width])
    kept(page, artifacts, f"play-{game}-{width}")
    assert serious(page) == []
    assert not page.errors, page.errors


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", GAMES)
def test_the_replay_page(site: Site, running: dict[str, tuple[str, str]], page_at: Any, artifacts: Path,
                         game: str, width: str) -> None:
    game_id, _ = running[game]
    page = page_at(f"{site.base}/games/{game_id}/replay", WIDTHS[width])
    page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=30_000)
    fits(page, WIDTHS[width])
    kept(page, artifacts, f"replay-{game}-{width}")
    assert not page.errors, page.errors


@pytest.mark.parametrize("width", WIDTHS)
def test_the_api_docs(site: Site, page_at: Any, artifacts: Path, width: str) -> None:
    page = page_at(f"{site.base}/api/docs", WIDTHS[width])
    page.wait_for_selector("#swagger-ui .opblock")
    fits(page, WIDTHS[width])
    kept(page, artifacts, f"api-docs-{width}")
    assert not page.errors, page.errors
