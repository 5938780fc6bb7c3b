"""Toot-Toot Train's replay in headless Chromium: the drawn hex map of the game's map, every
track segment on its hex edges, the printed buildings and built factories, one train per
placed seat, and the final scores by source; a segment appears when its event is stepped over
and goes again, and stepping through the game raises no page error; at 390 px every event row
in sight has its words and the current one is among them. Screenshots at 1400x900 and 390 px
wide are kept in test-artifacts/browser/."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from service.simulation import game_seed, play_one
from service.viewer.maps import game_map
from tests.browser.support import Site, shot

MAP = "forest"


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function(f"() => document.querySelector('#board').dataset.version === '{version}'")


def drawn(page: Any, what: str) -> int:
    return int(page.locator(f"#board {what}").count())


def test_the_map_track_buildings_and_trains_are_drawn_and_stepped(site: Site, open_page: Any, artifacts: Path) -> None:
    toot = play_one(site.app, "toot_toot", 3, game_seed(71, 0), random.Random(71), check=False, options={"map": MAP})
    records = site.app.records(toot.game_id)
    final = site.app.game(toot.game_id)
    board = game_map(final.decider)
    assert board is not None
    printed = board["maps"][MAP]

    laid = next(r for r in records if r["kind"] == "TrackDrawn")
    watched = open_page(f"{site.base}/games/{toot.game_id}/replay?at={laid['version'] - 1}")
    page = watched.ready()
    page.set_viewport_size({"width": 1400, "height": 900})
    assert drawn(page, "polygon.hex") == len(printed["terrain"])
    assert drawn(page, ".building") == len(printed["buildings"])
    before = drawn(page, ".segment")
    page.keyboard.press("ArrowRight")
    wait_version(page, laid["version"])
    assert drawn(page, ".segment") == before + 1
    page.keyboard.press("ArrowLeft")
    wait_version(page, laid["version"] - 1)
    assert drawn(page, ".segment") == before

    # Step over every event of the opening and the first turns, one key press at a time.
    for version in range(laid["version"], laid["version"] + 60):
        page.keyboard.press("ArrowRight")
        wait_version(page, version)
    # Then visit every tenth version of the rest of the game, and its end.
    for version in [*range(laid["version"] + 60, final.version, 10), final.version]:
        watched.go(version)
        wait_version(page, version)

    state = final.state
    assert drawn(page, ".segment") == sum(len(segments) for segments in state.track.values()) > 0
    assert drawn(page, ".building") == len(printed["buildings"]) + len(state.factories)
    trains = page.locator("#board .train")
    placed = {(i, s.hex) for i, s in enumerate(state.seats) if s.hex is not None}
    assert {(int(trains.nth(i).get_attribute("data-train-seat")), trains.nth(i).get_attribute("data-hex"))
            for i in range(trains.count())} == placed and len(placed) == 3
    # The scores-by-source chart is fetched after the step settles: wait for it to total the final scores.
    totals = [toot.scores[str(seat)] for seat in range(3)]
    page.wait_for_function("(want) => JSON.stringify([...document.querySelectorAll('#chart-sources .bar-total')]"
                           ".map((t) => Number(t.textContent))) === JSON.stringify(want)", arg=totals)
    shot(page, artifacts, "toot-toot-finished-1400")
    page.set_viewport_size({"width": 390, "height": 900})
    page.wait_for_function("() => document.documentElement.clientWidth === 390")
    assert drawn(page, "polygon.hex") == len(printed["terrain"])
    shot(page, artifacts, "toot-toot-finished-390")
    assert not watched.errors, watched.errors


# Each row of the event list inside the list's box: its number, whether its words are drawn
# (not skipped by the browser) and how long they are; and the current row's number.
ROWS_IN_SIGHT = """() => {
    const list = document.querySelector('#event-list');
    const box = list.getBoundingClientRect();
    const rows = [...list.children].filter((li) => {
        const r = li.getBoundingClientRect();
        return r.bottom > box.top + 1 && r.top < box.bottom - 1;
    }).map((li) => {
        const text = li.querySelector('.text');
        return [Number(li.dataset.version), text.checkVisibility({contentVisibilityAuto: true}) && text.getBoundingClientRect().height > 0,
                text.textContent.trim().length];
    });
    return {rows, current: Number(list.querySelector('li.current').dataset.version)};
}"""


def test_every_event_row_in_sight_has_its_words_at_390_px(site: Site, open_page: Any, artifacts: Path) -> None:
    """At phone width the rows wrap: a row off screen must not be left blank when it comes
    into sight (as in a full-page screenshot, taken without scrolling), and the current row
    must be brought into sight however tall the rows above it are."""
    toot = play_one(site.app, "toot_toot", 3, game_seed(71, 1), random.Random(72), check=False, options={"map": MAP})
    last = site.app.game(toot.game_id).version
    watched = open_page(f"{site.base}/games/{toot.game_id}/replay")
    page = watched.ready()
    page.set_viewport_size({"width": 390, "height": 900})
    page.wait_for_function("() => document.documentElement.clientWidth === 390")
    for version in (last, last // 2, 40, last):
        watched.go(version)
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        seen = page.evaluate(ROWS_IN_SIGHT)
        assert seen["current"] == version
        assert len(seen["rows"]) >= 5, seen
        blank = [v for v, drawn, length in seen["rows"] if not drawn or not length]
        assert blank == [], f"blank rows in sight at event {version}: {blank}"
        assert version in [v for v, _, _ in seen["rows"]], f"event {version} is not in sight: {seen['rows']}"
    shot(page, artifacts, "toot-toot-event-list-390")
    assert not watched.errors, watched.errors


# Each row of the event list: its kind and its words.
ROWS = "() => [...document.querySelectorAll('#event-list > li')].map((li) => [li.dataset.kind, li.querySelector('.text').textContent])"
FINAL_WORDS = {
    "en": ("choose which hand orders to supply", "supplied hand orders: B5 1 brick, 1 stone"),
    "th": ("เลือกว่าจะส่งสินค้าให้คำสั่งซื้อในมือใบใด", "ส่งสินค้าให้คำสั่งซื้อในมือ: B5"),
    "zh-TW": ("選擇要交付哪些手中訂單", "交付手中訂單：B5"),
}


def test_the_choice_of_hand_orders_reads_in_every_language(site: Site, browser: Any) -> None:
    """Final scoring's rows (R33): who is asked, and what each chose, in the reader's language."""
    toot = play_one(site.app, "toot_toot", 3, game_seed(71, 1), random.Random(72), check=False, options={"map": MAP})
    supplied = [r for r in site.app.records(toot.game_id) if r["kind"] == "HandOrdersSupplied"]
    assert supplied[0]["data"]["fills"] == [["B5", "brick", 1], ["B5", "stone", 1]]
    for tag, (asked, chose) in FINAL_WORDS.items():
        context = browser.new_context(locale=tag, extra_http_headers={"Accept-Language": tag})
        try:
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
            page.goto(f"{site.base}/games/{toot.game_id}/replay")
            page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=30_000)
            rows = dict(reversed(page.evaluate(ROWS)))  # the first row of each kind
            assert asked in rows["FinalScoringBegan"], rows["FinalScoringBegan"]
            assert chose in rows["HandOrdersSupplied"], rows["HandOrdersSupplied"]
            assert not errors, errors
        finally:
            context.close()
