"""Moves on the play page in the game's words, in headless Chromium over real HTTP.

Every game offers the seat exactly its legal moves, each an element holding the move's JSON in
`data-move` (and no `data-move` anywhere empty, the board's preview included); a long choice is
a place to pick (on the board or in the list) and then that place's moves (a drop-down where
one place holds many), so no list ever shows more than a dozen options at once (Age of Steam's hundreds of builds, Toot-Toot Train's
thousand track segments); and no move is shown as ids, field names or JSON: Age of Steam's
tiles by their shape (drawn, and their track edge to edge in words), Toot-Toot Train's
headings by the compass, Railway Boom's cards by what they are and do and its conversions by
the goods converted. Railway Boom's cards are played from the card itself, in the panel."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.browser.support import Site, canonical, play_until

MOST_SHOWN = 12
# Field syntax or JSON in a move's words: `card: C06`, `facing: 4`, `{"coal":4}`.
RAW = re.compile(r'[{}\[\]"]|\b(card|convert|facing|rotation|hex|fills|runs|choice|paid|slot|source|ability|kind|exit|payment|'
                 r'from|to|space|row):\s')
CASES = {
    "age_of_steam": ("build", None, 201), "toot_toot": ("draw_track", {"map": "forest"}, 202),
    "railway_boom": ("buy_development", None, 203), "ticket_to_ride": ("claim_route", None, 204),
}

# Every option a reader sees at once in each choice, and the words of every move offered.
SHOWN = """() => [...document.querySelectorAll('#play fieldset.move-group')].map((g) => ({
  type: g.dataset.type,
  shown: [...g.querySelectorAll('.move-option')].filter((o) => !o.closest('[hidden]')).length,
  words: [...g.querySelectorAll('.move-option, select.move-choice option[data-move]')].map((o) => o.textContent.trim()),
}))"""


def all_moves(page: Any) -> list[dict[str, Any]]:
    return [json.loads(m) for m in page.eval_on_selector_all("#play [data-move]", "ms => ms.map(m => m.dataset.move)")]


def every_data_move(page: Any) -> list[str]:
    return page.eval_on_selector_all("[data-move]", "ms => ms.map(m => m.getAttribute('data-move'))")


@pytest.mark.parametrize("game", CASES)
def test_every_game_offers_its_moves_in_words_a_few_at_a_time(site: Site, seat_page: Any, game: str) -> None:
    wanted, options, seed = CASES[game]
    game_id, _, token, legal = play_until(site, game, wanted, seed, options)
    page = seat_page(site, game_id, token)
    page.wait_for_selector(f'#play[data-version="{site.app.game(game_id).version}"] [data-move]', state="attached")
    assert sorted(map(canonical, all_moves(page))) == sorted(map(canonical, legal))
    groups = page.evaluate(SHOWN)
    assert groups and all(g["shown"] <= MOST_SHOWN for g in groups), [(g["type"], g["shown"]) for g in groups]
    # Each choice by place shows that place's moves, a few, once a place is chosen.
    for select in page.query_selector_all("#play select.move-place"):
        select.select_option(index=1)
    shown = page.evaluate(SHOWN)
    assert all(g["shown"] <= MOST_SHOWN for g in shown), [(g["type"], g["shown"]) for g in shown]
    words = [w for g in groups for w in g["words"]] + page.eval_on_selector_all("#play button.move", "bs => bs.map(b => b.textContent)")
    assert words and not [w for w in words if RAW.search(w)], [w for w in words if RAW.search(w)][:5]
    # Open a place's moves on the board (or a card's in the panel), then close them: the
    # preview left behind holds no empty `data-move`.
    page.locator("#board [data-offers], #table [data-offers], #my-hand [data-offers]").first.dispatch_event("click")
    page.wait_for_selector("#offers button.offer")
    offered = page.eval_on_selector_all("#offers button.offer", "bs => bs.map(b => b.textContent.trim())")
    assert not [w for w in offered if RAW.search(w)], offered
    page.locator("#offers button.offer").first.click()
    page.locator("#offers .offers-close").click()
    assert page.locator("#offers").count() == 0
    kept = every_data_move(page)
    assert kept and all(isinstance(json.loads(m), dict) and "type" in json.loads(m) for m in kept), [m for m in kept if not m][:3]
    assert not page.errors, page.errors


def test_age_of_steam_builds_are_drawn_and_worded_by_their_shape(site: Site, seat_page: Any) -> None:
    game_id, _, token, legal = play_until(site, "age_of_steam", "build", 205)
    page = seat_page(site, game_id, token)
    page.wait_for_selector('#play fieldset[data-type="build"] select.move-place')
    at: dict[str, int] = {}
    for m in legal:
        if m["type"] == "build":
            at[m["hex"]] = at.get(m["hex"], 0) + 1
    hex_ = next(h for h, n in at.items() if 1 < n <= MOST_SHOWN)  # a few builds there: each an option, drawn
    page.select_option('#play fieldset[data-type="build"] select.move-place', hex_)
    options = page.eval_on_selector_all('#play fieldset[data-type="build"] .move-option:not([hidden])', """os => os.map(o => ({
        move: JSON.parse(o.querySelector('input').dataset.move), words: o.textContent,
        drawn: o.querySelector('svg .tile') && [o.querySelector('svg .tile').dataset.tile,
                                                Number(o.querySelector('svg .tile').dataset.rotation)]}))""")
    assert sorted(canonical(o["move"]) for o in options) == sorted(canonical(m) for m in legal if m.get("hex") == hex_)
    for option in options:
        move = option["move"]
        assert option["drawn"] == [move["tile"], move["rotation"]]  # the tile, turned as the move says
        assert move["tile"].replace("_", " ").split()[0] in option["words"] and "rotation" not in option["words"]
        assert re.search(r"\b(north|south)", option["words"]), option["words"]  # its track, edge to edge
    # Choosing one in the list draws it on the board.
    page.locator('#play fieldset[data-type="build"] .move-option:not([hidden]) input').first.check()
    drawn = page.eval_on_selector("#board .offer-preview .tile", "t => [t.dataset.tileHex, t.dataset.tile]")
    assert drawn == [hex_, options[0]["move"]["tile"]]


def test_railway_boom_cards_are_played_from_the_card_in_the_panel(site: Site, seat_page: Any) -> None:
    game_id, seat, token, legal = play_until(site, "railway_boom", "buy_development", 206)
    page = seat_page(site, game_id, token)
    buys = [m for m in legal if m["type"] == "buy_development"]
    card = buys[0]["card"]
    place = page.locator(f'#table [data-place="card:{card}"]')
    assert place.get_attribute("role") == "button" and int(place.get_attribute("data-offers")) == sum(m["card"] == card for m in buys)
    place.click()
    page.wait_for_selector("#offers button.offer")
    shown = [json.loads(m) for m in page.eval_on_selector_all("#offers [data-move]", "ms => ms.map(m => m.dataset.move)")]
    assert sorted(map(canonical, shown)) == sorted(canonical(m) for m in buys if m["card"] == card)
    words = page.eval_on_selector_all("#offers button.offer", "bs => bs.map(b => b.textContent)")
    assert all("technology" in w for w in words), words  # its price, in the game's words
    card_data = page.evaluate(f"() => replay.page.map.cards['{card}']")
    effect = {"gain_resource": "gain", "gain_vp": "VP", "raise_income": "raise", "free_rails": "rail", "draw_two_buy_one": "draw",
              "extra_power": "power", "free_car_run": "car", "vp_per_rail_on_terrain": "rail", "train_tile_bonus": "tile"}
    assert all(effect[card_data["effect"]["type"]] in w for w in words), (card_data, words)
    converted = [m for m in buys if m.get("convert")]
    for move in converted:
        text = page.locator("#offers button.offer").nth(shown.index(move)).text_content()
        assert all(resource in text for resource in move["convert"]) and "convert" in text, text
    page.locator("#offers button.offer").first.click()
    assert "previewed" in (place.get_attribute("class") or "")  # the card stands out as the move shown
    version = site.app.game(game_id).version
    page.click("#offers button.confirm")
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) > {version}", timeout=15_000)
    stored = site.app.records(game_id, after=version)[0]
    assert stored["actor"] == f"seat:{seat}" and stored["kind"] == "DevelopmentBought" and stored["data"]["card"] == shown[0]["card"]
    assert not page.errors, page.errors


def test_toot_toot_headings_are_words_of_the_compass(site: Site, seat_page: Any) -> None:
    game_id, _, token, legal = play_until(site, "toot_toot", "turn", 207, {"map": "forest"})
    page = seat_page(site, game_id, token)
    page.wait_for_selector("#play [data-move]", state="attached")
    turns = page.eval_on_selector_all("#play [data-move]", """ms => ms.filter(m => JSON.parse(m.dataset.move).type === 'turn')
        .map(m => [JSON.parse(m.dataset.move).facing, (m.closest('label, button, option') || m).textContent])""")
    assert len(turns) == sum(m["type"] == "turn" for m in legal) > 0
    compass = ["east", "south-east", "south-west", "west", "north-west", "north-east"]
    for facing, words in turns:
        assert compass[facing] in words and "facing:" not in words, words
    # A turn is made on the train: its hex offers the turns.
    train = page.get_attribute("#board .train[data-train-seat]", "data-hex") if page.locator("#board .train").count() else None
    assert train
    page.locator(f'#board polygon.hex[data-hex="{train}"]').dispatch_event("click")
    page.wait_for_selector("#offers button.offer")
    offered = [json.loads(m) for m in page.eval_on_selector_all("#offers [data-move]", "ms => ms.map(m => m.dataset.move)")]
    assert {m["facing"] for m in offered if m["type"] == "turn"} == {m["facing"] for m in legal if m["type"] == "turn"}
    assert not page.errors, page.errors
