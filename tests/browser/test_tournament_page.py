"""The tournament page in headless Chromium: in English, Thai and Traditional Chinese, at
1400 px and at a 390 px phone width, a finished and a running tournament show their
standings and their round's tables linking to each game's replay, with no text overflowing,
no English sentence left in a translated page, no error logged and no serious axe finding;
and the page follows the tournament live: a table whose game ends is shown finished, and
the standings move, without reloading; the dispute desk lists a table's dispute for the
referee's token and rules on it, which moves the standings. Screenshots go to test-artifacts/browser/tournament/."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.simulation import played_held
from service.tournament.organiser import Organiser
from tests.browser.accessibility import serious
from tests.browser.support import PHONE, WIDE, Site, shot, watched_page
from tests.browser.test_languages_browser import ENGLISH, OVERFLOWING, VISIBLE_TEXT

PLAYERS = ["Ann", "Ben", "Cleo", "Dara", "Eli", "Fay", "Gus"]
WIDTHS = {"1400": WIDE, "390": PHONE}
TAGS = ["en", "th", "zh-TW"]


def play(organiser: Organiser, tables: list[Any], seed: int) -> None:
    for table in tables:
        played_held(organiser.caboose, organiser.caboose.game(table.game_id), ["random"] * len(table.seats),
                    random.Random(seed), 20_000)


@pytest.fixture(scope="module")
def events(site: Site) -> dict[str, Any]:
    """A finished Swiss event of two rounds and a running one: round 1 paired, a table left playing."""
    organiser = Organiser(site.lobby)
    done = organiser.create("Autumn Swiss", "ticket_to_ride", kind="swiss", rounds=2, table_size=4)
    running = organiser.create("Winter heats", "ticket_to_ride", kind="heats", rounds=2, table_size=4, semifinal=0, final=4)
    for created in (done, running):
        for name in PLAYERS:
            organiser.register(created.tournament_id, name)
    for round_ in (1, 2):
        play(organiser, organiser.pair(done.tournament_id), round_)
    organiser.settle(done.tournament_id)
    opened = organiser.pair(running.tournament_id)
    play(organiser, opened[:1], 3)
    organiser.settle(running.tournament_id)
    return {"organiser": organiser, "finished": done.tournament_id, "running": running.tournament_id, "left": opened[1:],
            "referee": running.referee_token, "done": opened[0]}


@pytest.fixture
def reader(browser: Any) -> Iterator[Any]:
    contexts = []

    def opener(tag: str, url: str, viewport: dict[str, int]) -> Any:
        context = browser.new_context(viewport=viewport, locale=tag, extra_http_headers={"Accept-Language": tag})
        contexts.append(context)
        page = watched_page(context, url)
        page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=30_000)
        return page

    yield opener
    for context in contexts:
        context.close()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("tag", TAGS)
@pytest.mark.parametrize("which", ["finished", "running"])
def test_the_tournament_page(site: Site, events: dict[str, Any], reader: Any, artifacts: Path, which: str, tag: str,
                             width: str) -> None:
    tournament_id = events[which]
    page = reader(tag, f"{site.base}/tournaments/{tournament_id}", WIDTHS[width])
    assert page.locator("#standings tbody tr").count() == len(PLAYERS)
    links = page.locator("#tables a").evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")
    state = events["organiser"].shelf.get(tournament_id).state
    last = max(r.number for r in state.rounds)
    assert links == [f"/games/{t.game_id}/replay" for t in state.round_tables(last)]
    (artifacts / "tournament").mkdir(exist_ok=True)
    shot(page, artifacts, f"tournament/{which}-{tag}-{width}")
    assert page.evaluate(OVERFLOWING) == []
    if tag != "en":
        text = page.evaluate(VISIBLE_TEXT)
        assert [piece for piece in ENGLISH[tag] if piece in text] == []
    assert serious(page) == []
    assert not page.errors, page.errors


def test_the_page_follows_the_tournament_live(site: Site, events: dict[str, Any], reader: Any) -> None:
    organiser, tournament_id = events["organiser"], events["running"]
    page = reader("en", f"{site.base}/tournaments/{tournament_id}", WIDE)
    left = events["left"][0]
    card = page.locator(f'#tables li[data-game-id="{left.game_id}"]')
    assert card.get_attribute("data-status") == "playing"
    games_before = page.locator("#standings tbody").inner_text()
    play(organiser, [left], 4)
    organiser.settle(tournament_id)  # what the server's follower does when a game ends
    page.wait_for_function(f"""() => document.querySelector('#tables li[data-game-id="{left.game_id}"]')
                                      ?.dataset.status === 'finished'""", timeout=20_000)
    assert page.locator("#standings tbody").inner_text() != games_before
    assert not page.errors, page.errors


def test_the_dispute_desk_rules_and_the_standings_move(site: Site, events: dict[str, Any], reader: Any) -> None:
    organiser, tournament_id, table = events["organiser"], events["running"], events["done"]
    organiser.raise_dispute(tournament_id, table.game_id, 5, table.seats[-1], "a route was claimed with too few cards")
    page = reader("en", f"{site.base}/tournaments/{tournament_id}", PHONE)
    page.fill("#desk-token", "not the referee's")
    page.click("#desk-form button")
    page.wait_for_function("() => document.getElementById('notice').dataset.kind === 'error'")
    page.fill("#desk-token", events["referee"])
    page.click("#desk-form button")
    card = page.locator(f'#disputes li[data-game-id="{table.game_id}"]')
    card.wait_for()
    # The ruling puts the table's last player (by the game's places) alone in first place, so
    # the standings move whoever won the random game.
    result = organiser.shelf.get(tournament_id).state.table_of(table.game_id).result
    last = table.seats[max(range(len(table.seats)), key=lambda seat: (result.places[seat], seat))]
    before = page.locator("#standings tbody tr", has_text=last).inner_text()
    ruled = ", ".join("1" if player == last else "2" for player in table.seats)
    card.locator("textarea").fill("the claim is void: the last seat's route stands")
    card.locator("input").fill(ruled)
    card.locator("button").click()
    page.wait_for_function("() => document.querySelectorAll('#disputes li').length === 0", timeout=20_000)
    page.wait_for_function(f"""(before) => [...document.querySelectorAll('#standings tbody tr')]
        .find((row) => row.textContent.includes({last!r}))?.innerText !== before""", arg=before, timeout=20_000)
    assert page.locator("#desk-empty").is_visible()
    assert serious(page) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_lobby_lists_the_tournaments_and_the_ratings(site: Site, events: dict[str, Any], reader: Any, width: str) -> None:
    page = reader("th", f"{site.base}/", WIDTHS[width])
    page.wait_for_selector("#tournaments > li")
    links = page.locator("#tournaments a").evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")
    assert {f"/tournaments/{events['finished']}", f"/tournaments/{events['running']}"} <= set(links)
    page.wait_for_selector("#ratings li")
    assert "Ticket to Ride" in page.locator("#ratings").inner_text()
    assert page.evaluate(OVERFLOWING) == []
    assert serious(page) == []
