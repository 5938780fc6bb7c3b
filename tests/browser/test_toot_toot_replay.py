"""Toot-Toot Train's replay in headless Chromium: the drawn hex map of the game's map, every
track segment on its hex edges, the printed buildings and built factories, one train per
placed seat, and the final scores by source; a segment appears when its event is stepped over
and goes again, and stepping through the game raises no page error. Screenshots at 1400x900
and 390 px wide are kept in test-artifacts/browser/."""

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
