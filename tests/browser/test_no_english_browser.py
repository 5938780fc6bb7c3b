"""No English on a Thai or a Traditional Chinese page of any game, in headless Chromium over
real HTTP: the replay of a finished game, stepped through, and the play page with its moves
opened (a place chosen in the list and on the board). Every word of Latin letters a reader
meets there — the text, the board's labels and tooltips, the labels for screen readers — is
a proper name the page marks as such (`translate="no"` or a `lang` of its own: the service's
name, a game's own name beside its translation, the languages in the picker), a player's
name, or a key's name; never a word of the game left in English (a phase, a tile, a map, a
building, a good, an upgrade, a card, a colour inside a sentence, the notation). The same
look-out finds English on the English pages: it can see."""

from __future__ import annotations

import random
from typing import Any

import pytest

from service.simulation import game_seed, play_one
from tests.browser.english import english_on
from tests.browser.support import Site, play_until

TRANSLATED = ["th", "zh-TW"]
GAMES = {"ticket_to_ride": ("claim_route", None), "age_of_steam": ("build", None), "railway_boom": ("buy_car", None),
         "toot_toot": ("draw_track", {"map": "forest"})}


@pytest.fixture(scope="module")
def finished(site: Site) -> dict[str, str]:
    out = {}
    for index, (game, (_, options)) in enumerate(GAMES.items()):
        played = play_one(site.app, game, 3, game_seed(181, index), random.Random(181 + index), check=False, options=options)
        site.lobby.seating.issue(played.game_id, ["Ann", "Ben", "Cleo"])  # players' names, as a lobby game has
        out[game] = played.game_id
    return out


@pytest.fixture(scope="module")
def running(site: Site) -> dict[str, tuple[str, str]]:
    out = {}
    for index, (game, (wanted, options)) in enumerate(GAMES.items()):
        game_id, _, token, _ = play_until(site, game, wanted, 182 + index, options)
        out[game] = (game_id, token)
    return out


def stepped(page: Any) -> dict[str, str]:
    """The English met while stepping a replay from its first event to its last."""
    last = int(page.get_attribute("#board", "data-version"))
    left: dict[str, str] = {}
    for version in sorted({1, 2, 5, last // 4, last // 2, 3 * last // 4, last - 1, last}):
        page.evaluate("(v) => replay.go(v)", max(1, version))
        left.update(english_on(page))
    return left


def opened(page: Any) -> dict[str, str]:
    """The English met with the seat's moves opened: each choice by place shown at its first
    place, and the moves of a place on the board (or a card in the panels) in their panel."""
    page.wait_for_selector("#play:not([hidden]) [data-move]", state="attached")
    left = english_on(page)
    for select in page.query_selector_all("#play select.move-place"):
        select.select_option(index=1)
        left.update(english_on(page))
    place = page.query_selector("#board [data-offers], #table [data-offers], #my-hand [data-offers]")
    if place:
        place.dispatch_event("click")
        page.wait_for_selector("#offers button.offer")
        left.update(english_on(page))
    return left


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("game", GAMES)
def test_a_finished_game_stepped_through_reads_without_english(site: Site, finished: dict[str, str], reader: Any,
                                                               game: str, language: str) -> None:
    page = reader(language, f"{site.base}/games/{finished[game]}/replay")
    assert page.evaluate("() => document.documentElement.lang") == language
    assert stepped(page) == {}
    assert not page.errors, page.errors


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("game", GAMES)
def test_the_play_page_with_its_moves_open_reads_without_english(site: Site, running: dict[str, tuple[str, str]], reader: Any,
                                                                 game: str, language: str) -> None:
    game_id, token = running[game]
    page = reader(language, f"{site.base}/games/{game_id}/replay?token={token}")
    assert opened(page) == {}
    assert not page.errors, page.errors


@pytest.mark.parametrize("game", GAMES)
def test_the_look_out_finds_english_on_english_pages(site: Site, finished: dict[str, str], running: dict[str, tuple[str, str]],
                                                     reader: Any, game: str) -> None:
    replay = reader("en", f"{site.base}/games/{finished[game]}/replay")
    assert len(stepped(replay)) > 20
    game_id, token = running[game]
    assert len(opened(reader("en", f"{site.base}/games/{game_id}/replay?token={token}"))) > 10
