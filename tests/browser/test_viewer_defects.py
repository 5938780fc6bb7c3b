"""The replay page's small defects, each seen where the page shows it: whole turns on the
income chart, the turn selector agreeing with "to move" after a rewind, the current event
in sight at 1400×900, completed tickets marked at the end, a loading indicator, claimed
routes told apart by more than colour, and no sideways scrolling at 390 px."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from service import referee as desk
from service.simulation import game_seed, play_one
from tests.browser.support import Site, play_random, shot

WIDE = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def viewer(browser: Any) -> Iterator[Any]:
    """A replay page in a context of its own, at a given window size; `ready` waits for the board."""
    contexts = []

    def opener(url: str, viewport: dict[str, int] = WIDE, ready: bool = True, hold: list[Any] | None = None) -> Any:
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        if hold is not None:
            # The views are held back until the test lets them through.
            page.route(re.compile(r".*/replay/views.*"), lambda route: hold.append(route))
        page.goto(url)
        if ready:
            page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=30_000)
        return page

    yield opener
    for context in contexts:
        context.close()


def at(page: Any, version: int) -> None:
    page.evaluate("(v) => replay.go(v)", version)
    page.wait_for_function(f"() => document.querySelector('#board').dataset.version === '{version}'")


def test_income_chart_counts_whole_turns(site: Site, viewer: Any) -> None:
    game_id, _ = site.lobby.open_game("age_of_steam", ["Ann", "Ben", "Cleo"], seed=game_seed(5, 0))
    play_random(site.app, game_id, 200, random.Random(5))  # this seed's game ends, all bankrupt, in turn 1
    turns = {r["data"]["turn"] for r in site.app.records(game_id) if r["kind"] == "TurnBegan"}
    assert len(turns) < 3  # few turns: where a scale for events would draw 1.2, 1.4…
    page = viewer(f"{site.base}/games/{game_id}/replay")
    page.wait_for_selector("#chart-income path.line", state="attached")
    ticks = page.locator("#chart-income .axes text[text-anchor=middle]").all_text_contents()
    assert ticks and all(re.fullmatch(r"\d+", t) for t in ticks), ticks
    values = page.locator("#chart-income .axes text[text-anchor=end]").all_text_contents()
    assert values and all(re.fullmatch(r"-?\d+", t) for t in values), values


def test_after_a_rewind_the_turn_selector_names_who_is_to_move(site: Site, viewer: Any) -> None:
    app = site.app
    game_id, _ = site.lobby.open_game("ticket_to_ride", ["Ann", "Ben"], seed=game_seed(43, 0))
    play_random(app, game_id, 40, random.Random(43))
    records = app.records(game_id)
    now = app.game(game_id)
    to_move_now = now.decider.active_seats(now.state)
    ends = [r["version"] for r, after in pairwise(records) if r["command_id"] != after["command_id"]]
    started = [r["version"] for r in records if r["kind"] == "TurnStarted"]

    def active_at(version: int) -> object:
        then = app.game(game_id, version)
        return then.decider.active_seats(then.state)

    back_to = next(v for v in reversed(ends) if v > started[0] and active_at(v) != to_move_now)
    rewound = desk.rewind(app, game_id, "Rita", back_to, "a misplayed turn")[0]["version"]

    page = viewer(f"{site.base}/games/{game_id}/replay?at={rewound}")
    to_move = page.text_content("#seats .seat.active .seat-name").replace(" to move", "").strip()
    assert to_move in ("Ann", "Ben")
    chosen = page.eval_on_selector("#turn", "s => s.selectedOptions[0].textContent")
    assert to_move in chosen, (to_move, chosen)


def test_the_current_event_stays_in_sight_at_1400_by_900(site: Site, viewer: Any) -> None:
    last = site.app.game(site.games["finished"]).version
    page = viewer(site.replay("finished"))
    for version in (last, last // 2, 3):
        at(page, version)
        page.wait_for_timeout(50)  # the list scrolls in the next animation frame
        page.wait_for_function("() => { const r = document.querySelector('#event-list li.current').getBoundingClientRect();"
                               " const l = document.querySelector('#event-list').getBoundingClientRect();"
                               " return r.top >= l.top - 1 && r.bottom <= l.bottom + 1; }")
        box = page.eval_on_selector("#event-list li.current", "r => { const b = r.getBoundingClientRect(); "
                                    "return {top: b.top, bottom: b.bottom, scrolled: window.scrollY}; }")
        assert box["scrolled"] == 0 and box["top"] >= 0 and box["bottom"] <= WIDE["height"], (version, box)


def test_a_finished_game_marks_each_ticket_completed_or_failed(site: Site, viewer: Any, artifacts: Path) -> None:
    game_id = play_one(site.app, "ticket_to_ride", 2, game_seed(50, 2), random.Random(52), check=False).game_id
    scored = [r["data"] for r in site.app.records(game_id) if r["kind"] == "TicketScored"]
    assert {s["completed"] for s in scored} == {True, False}  # this seed's game has both
    page = viewer(f"{site.base}/games/{game_id}/replay")
    for s in scored:
        mark = page.locator(f'#seats .seat[data-seat="{s["seat"]}"] [data-ticket="{s["ticket"]}"]')
        assert mark.count() == 1, s
        assert mark.get_attribute("data-completed") == ("true" if s["completed"] else "false")
        assert ("✓" if s["completed"] else "✗") in mark.text_content()
    shot(page, artifacts, "ttr-finished-tickets")
    # Before the final scoring nothing is marked yet.
    first = next(r["version"] for r in site.app.records(game_id) if r["kind"] == "TicketScored")
    at(page, first - 1)
    assert page.locator("#seats [data-completed]").count() == 0


def test_a_loading_indicator_shows_until_the_board_arrives(site: Site, viewer: Any) -> None:
    # A seat's first board is its own view, asked for as the page loads (a public page has
    # its first board in it: see test_replay_data).
    held: list[Any] = []
    page = viewer(site.replay("running", f"token={site.tokens['ann']}"), ready=False, hold=held)
    page.wait_for_selector("#loading", state="visible")
    assert "Loading" in page.text_content("#loading")
    while not held:
        page.wait_for_timeout(20)
    while held:
        held.pop().continue_()
    page.unroute(re.compile(r".*/replay/views.*"))
    page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=30_000)
    page.wait_for_selector("#loading", state="hidden")


def test_claimed_routes_carry_a_seat_pattern_and_outline(site: Site, viewer: Any, artifacts: Path) -> None:
    page = viewer(site.replay("finished"))
    claims = page.locator("#board .claim")
    assert claims.count() > 0
    patterns = page.eval_on_selector_all("#board .claim", """claims => claims.map(c => ({
        seat: c.dataset.seat,
        marks: [...c.querySelectorAll('.car-mark')].map(m => m.getAttribute('fill')),
        marked: [...c.querySelectorAll('.car-mark')].map(m => m.getAttribute('d')),
        cars: [...c.querySelectorAll('.car')].map(m => m.getAttribute('d')) }))""")
    by_seat: dict[str, set[str]] = {}
    for claim in patterns:
        # Every car carries the pattern: the marks cover the cars, shape for shape.
        assert claim["marks"] and claim["marked"] == claim["cars"], claim
        by_seat.setdefault(claim["seat"], set()).update(claim["marks"])
    assert all(len(marks) == 1 for marks in by_seat.values()), by_seat
    shapes = {seat: page.eval_on_selector(marks.pop().replace("url(", "").replace(")", ""), "p => p.innerHTML")
              for seat, marks in by_seat.items()}
    assert len(set(shapes.values())) == len(shapes), "each seat's pattern has a shape of its own"
    # The seat panel's swatch shows the same pattern as the board.
    for seat in by_seat:
        assert page.locator(f'#seats .seat[data-seat="{seat}"] .swatch[data-pattern="{seat}"]').count() == 1
    shot(page, artifacts, "ttr-claim-patterns")


@pytest.mark.parametrize("game", ["finished", "steam"])
def test_the_replay_page_fits_a_390_px_screen(site: Site, viewer: Any, artifacts: Path, game: str) -> None:
    page = viewer(site.replay(game), PHONE)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide at 390 px"
    shot(page, artifacts, f"replay-{game}-390")
