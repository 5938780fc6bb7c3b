"""Railway Boom's replay in headless Chromium: the hex board is drawn from the pack, a
station and a rail appear in their seat's colour as their events are stepped over and go
again, and the panel shows who is still to submit in the sealed operation phase."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from domain.core.events import REFEREE
from service.simulation import game_seed, play_one
from tests.browser.support import Site, shot


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function(f"() => document.querySelector('#board').dataset.version === '{version}'")


def test_stations_and_rails_appear_by_seat_and_go(site: Site, open_page: Any, artifacts: Path) -> None:
    boom = play_one(site.app, "railway_boom", 3, game_seed(61, 0), random.Random(61), check=False)
    records = site.app.records(boom.game_id)
    built = next(r for r in records if r["kind"] == "StationBuilt")
    version, city, seat = built["version"], built["data"]["city"], built["data"]["seat"]
    watched = open_page(f"{site.base}/games/{boom.game_id}/replay?at={version - 1}")
    page = watched.ready()
    assert page.locator("#board polygon.hex").count() == 192
    assert page.locator("#board .rb-station").count() == 0
    page.keyboard.press("ArrowRight")
    station = f'#board .rb-station[data-station="{city}"][data-seat="{seat}"]'
    page.wait_for_selector(station, state="attached")
    assert f"built a station at {city}" in page.text_content("#current-event")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(station, state="detached")

    sealed = next(r for r in records if r["kind"] == "SubmissionSealed")
    page.goto(f"{site.base}/games/{boom.game_id}/replay?at={sealed['version']}")
    page = watched.ready()
    assert "Still to submit" in page.text_content("body")

    final = site.app.game(boom.game_id)
    page.keyboard.press("End")
    wait_version(page, final.version)
    assert page.locator("#board .rb-station").count() == len(final.state.stations)
    assert page.locator("#board .rb-rail").count() == sum(len(s) for s in final.state.rails.values())
    # The income chart is drawn from the projection's income (what each income phase pays).
    assert page.locator("#income-figure").is_visible()
    assert page.get_attribute("#chart-income", "data-source") == "projection"
    shot(page, artifacts, "boom-finished")
    # The end is worded and marked by the viewer as for every game: the scores and the winners
    # by name, and the phases from the setup to "Game over".
    ended = next(r for r in records if r["kind"] == "GameEnded")
    names = {seat["seat"]: seat["name"] for seat in records[0]["data"]["seats"]}
    said = page.text_content(f'#event-list li[data-version="{ended["version"]}"]') or ""
    winners = [names[seat] for seat in ended["data"]["winners"]]
    assert "Game over: " in said and f"; winner {winners[0]}" in said, said
    phases = page.eval_on_selector_all("#phase option", "os => os.map(o => [o.value, o.textContent])")
    assert phases[1] == ["1", "Setup"] and phases[-1] == [str(ended["version"]), "Game over"], phases
    assert not watched.errors, watched.errors


def test_a_chosen_row_is_counted_from_1_as_its_notation_line_counts_it(site: Site, open_page: Any) -> None:
    boom = play_one(site.app, "railway_boom", 3, game_seed(61, 0), random.Random(61), check=False)
    chosen = next(r for r in site.app.records(boom.game_id) if r["kind"] == "RowChosen")
    line = site.app.notation_lines(boom.game_id, REFEREE)[chosen["version"]]
    row = chosen["data"]["row"] + 1  # the record counts from 0; people, the sheet and the page from 1
    assert f"chooses row {row}" in line, line
    watched = open_page(f"{site.base}/games/{boom.game_id}/replay?at={chosen['version']}")
    page = watched.ready()
    sentence = page.text_content("#current-event") or ""
    # The card is named as its pack names it ("card D70" where the pack gives it no name).
    assert f"chose row {row} and took " in sentence and chosen["data"]["card"] in sentence, sentence
    assert not watched.errors, watched.errors
