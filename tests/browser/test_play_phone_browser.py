"""Playing on a phone and seeing one's own hand, in headless Chromium over real HTTP.

At 390x844 (a phone, with a touch screen) every game's play page shows its board in the first
screen, and the seat's hand and moves in a sheet at the bottom of the screen, in reach without
scrolling the page past the charts, which come after (the geometry is asserted, and a
screenshot of each game is kept under test-artifacts/browser/phone/). A tap on a place plays
like a click. The board zooms and pans by its buttons, a pinch and a drag, and a drag is no
tap. At 1400x900, with "Your moves" open, the seat's hand is whole and in sight, and its kept
Ticket to Ride tickets are marked on the map, completed ones as such."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from domain import games
from domain.ticket_to_ride.scoring import connected
from service.simulation import game_seed, play_one
from tests.browser.support import PHONE, WIDE, Site, canonical, play_until, shot

GAMES = {"ticket_to_ride": ("claim_route", None), "age_of_steam": ("build", None), "railway_boom": ("lay_rail", None),
         "toot_toot": ("draw_track", {"map": "forest"})}

# Where things are on the screen, with the page scrolled to its top.
GEOMETRY = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
    width: r.width, height: r.height}; };
  const sheet = document.querySelector('#sheet');
  return {scrollY: window.scrollY, height: window.innerHeight, width: document.documentElement.clientWidth,
          pageWidth: document.documentElement.scrollWidth, board: box(document.querySelector('#board')),
          sheet: box(sheet), sheetPosition: getComputedStyle(sheet).position, hand: box(document.querySelector('#my-hand')),
          play: box(document.querySelector('#play')), charts: box(document.querySelector('#charts'))};
}"""

# The element at the middle of `selector`'s first match is that element (nothing covers it).
UNCOVERED = """(selector) => {
  const el = document.querySelector(selector);
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 10));
  return Boolean(hit) && (hit === el || el.contains(hit) || hit.contains(el));
}"""


def test_every_game_is_played_on_a_phone_here() -> None:
    """A game added to Caboose is added here too, with a move its phone page must offer."""
    assert sorted(GAMES) == sorted(rules.name for rules in games.GAMES)


def phone_page(site: Site, seat_page: Any, game: str, seed: int) -> tuple[Any, str, int, list[dict[str, Any]]]:
    wanted, options = GAMES[game]
    game_id, seat, token, legal = play_until(site, game, wanted, seed, options)
    page = seat_page(site, game_id, token, PHONE, touch=True)
    page.wait_for_selector(f'#play[data-version="{site.app.game(game_id).version}"] [data-move]', state="attached")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return page, game_id, seat, legal


@pytest.mark.parametrize("game", GAMES)
def test_the_play_page_on_a_phone_shows_the_board_hand_and_moves_before_the_charts(
        site: Site, seat_page: Any, artifacts: Path, game: str) -> None:
    page, _, _, _ = phone_page(site, seat_page, game, 120)
    (artifacts / "phone").mkdir(exist_ok=True)
    shot_path = artifacts / "phone" / f"play-{game}-390.png"
    page.screenshot(path=str(shot_path))  # the first screen, as a phone shows it
    at = page.evaluate(GEOMETRY)
    assert at["scrollY"] == 0 and at["pageWidth"] <= PHONE["width"], at
    # The board starts in the top half of the first screen and shows at least 200 px of itself
    # above the sheet.
    assert 0 <= at["board"]["top"] < at["height"] / 2, at
    assert min(at["board"]["bottom"], at["sheet"]["top"]) - at["board"]["top"] >= 200, at
    # The hand and the moves are a sheet fixed at the bottom of the screen, within it.
    assert at["sheetPosition"] == "fixed", at
    assert at["sheet"]["bottom"] <= at["height"] + 1 and at["sheet"]["top"] >= at["height"] / 2, at
    assert at["sheet"]["top"] <= at["hand"]["top"] < at["height"], at  # the hand's top in sight
    assert page.evaluate(UNCOVERED, "#my-hand-heading")
    # The charts come after the board, out of the first screen's open part.
    assert at["charts"]["top"] > at["board"]["bottom"] and at["charts"]["top"] >= at["sheet"]["top"], at
    # The moves are reached within the sheet, the page not scrolled: the first control is in
    # sight and nothing covers it.
    first = "#play button.move, #play select, #play input"
    page.eval_on_selector(first, "el => el.scrollIntoView({block: 'nearest'})")
    assert page.evaluate("() => window.scrollY") == 0
    control = page.eval_on_selector(first, "el => { const r = el.getBoundingClientRect(); return [r.top, r.bottom]; }")
    assert at["sheet"]["top"] <= control[0] and control[1] <= at["height"], (control, at)
    assert page.evaluate(UNCOVERED, first)
    # The sheet folds away to its handle and opens again.
    page.tap("#sheet-toggle")
    assert page.eval_on_selector("#sheet", "s => s.getBoundingClientRect().height") < 60
    page.tap("#sheet-toggle")
    assert page.is_visible("#play")
    assert not page.errors, page.errors


def test_a_tap_on_a_hex_plays_like_a_click(site: Site, seat_page: Any, artifacts: Path) -> None:
    page, game_id, seat, legal = phone_page(site, seat_page, "age_of_steam", 121)
    builds = [m for m in legal if m["type"] == "build"]
    sheet_top = page.eval_on_selector("#sheet", "s => s.getBoundingClientRect().top")
    # A hex with builds whose middle is in sight above the sheet.
    centres = page.eval_on_selector_all("#board polygon.hex[data-offers]", """ps => ps.map(p => {
        const r = p.getBoundingClientRect(); return [p.dataset.hex, r.top + r.height / 2]; })""")
    hex_ = next(h for h, y in centres if 0 < y < sheet_top - 10 and any(m["hex"] == h for m in builds))
    page.locator(f'#board polygon.hex[data-hex="{hex_}"]').tap()
    page.wait_for_selector("#offers button.offer")
    shown = [json.loads(m) for m in page.eval_on_selector_all("#offers [data-move]", "ms => ms.map(m => m.dataset.move)")]
    assert sorted(map(canonical, shown)) == sorted(canonical(m) for m in legal if m.get("hex") == hex_)
    box = page.locator("#offers").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] and box["y"] + box["height"] <= PHONE["height"] + 1
    chosen = shown[-1]
    page.locator("#offers button.offer").nth(len(shown) - 1).tap()
    assert json.loads(page.get_attribute("#board .offer-preview", "data-move")) == chosen  # drawn in place
    shot(page, artifacts, "phone/tap-aos-build-390")
    version = site.app.game(game_id).version
    page.tap("#offers button.confirm")
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) > {version}", timeout=15_000)
    stored = site.app.records(game_id, after=version)[0]
    assert stored["actor"] == f"seat:{seat}" and stored["kind"] == "TrackBuilt"
    assert (stored["data"]["hex"], stored["data"]["tile"], stored["data"]["rotation"]) == (hex_, chosen["tile"], chosen["rotation"])
    assert not page.errors, page.errors


def view_box(page: Any) -> list[float]:
    return [float(n) for n in page.get_attribute("#board", "viewBox").split()]


def touch(cdp: Any, kind: str, points: list[tuple[float, float]]) -> None:
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})


def test_the_board_zooms_by_buttons_and_a_pinch_and_pans_by_a_drag(site: Site, seat_page: Any, artifacts: Path) -> None:
    page, game_id, _, _ = phone_page(site, seat_page, "age_of_steam", 122)
    whole = view_box(page)
    page.tap('#zoom [data-zoom="in"]')
    zoomed = view_box(page)
    assert zoomed[2] == pytest.approx(whole[2] / 1.6, rel=1e-3) and zoomed[3] == pytest.approx(whole[3] / 1.6, rel=1e-3)
    assert page.get_attribute("#board", "data-zoom") == "1.60"
    shot(page, artifacts, "phone/zoomed-aos-390")
    # Labels grow with the zoom: a city's name is drawn that much larger on the screen.
    page.tap('#zoom [data-zoom="fit"]')
    assert view_box(page) == pytest.approx(whole)

    board = page.locator("#board").bounding_box()
    assert board
    cx, cy = board["x"] + board["width"] / 2, board["y"] + board["height"] / 2
    cdp = page.context.new_cdp_session(page)
    # A pinch: two fingers spread apart.
    touch(cdp, "touchStart", [(cx - 30, cy), (cx + 30, cy)])
    for step in range(1, 9):
        touch(cdp, "touchMove", [(cx - 30 - 10 * step, cy), (cx + 30 + 10 * step, cy)])
    touch(cdp, "touchEnd", [])
    pinched = view_box(page)
    assert pinched[2] < whole[2] / 1.5, (pinched, whole)  # 60 px apart to 220 px: well over 1.5 times
    # A drag with one finger pans the zoomed board, and is no tap: nothing is offered or sent.
    before = page.evaluate("() => document.querySelectorAll('#offers').length")
    touch(cdp, "touchStart", [(cx, cy)])
    for step in range(1, 9):
        touch(cdp, "touchMove", [(cx + 8 * step, cy + 5 * step)])
    touch(cdp, "touchEnd", [])
    panned = view_box(page)
    assert panned[2] == pytest.approx(pinched[2]) and (panned[0], panned[1]) != (pinched[0], pinched[1])
    assert panned[0] < pinched[0] and panned[1] < pinched[1]  # dragged right and down: the board moves with the finger
    page.wait_for_timeout(200)
    assert page.evaluate("() => document.querySelectorAll('#offers').length") == before == 0
    assert not page.sent
    # Zoomed in, a tap still plays: the hex tapped offers its moves.
    marked = page.eval_on_selector_all("#board polygon.hex[data-offers]", """ps => ps.map(p => {
        const r = p.getBoundingClientRect(); return [p.dataset.hex, r.left + r.width / 2, r.top + r.height / 2]; })""")
    sheet_top = page.eval_on_selector("#sheet", "s => s.getBoundingClientRect().top")
    bottom = min(sheet_top, board["y"] + board["height"])
    hex_, x, y = next(m for m in marked if board["x"] < m[1] < board["x"] + board["width"] - 50 and board["y"] < m[2] < bottom)
    page.touchscreen.tap(x, y)
    page.wait_for_selector("#offers button.offer")
    assert page.get_attribute("#offers", "data-place") == hex_
    shot(page, artifacts, "phone/pinched-aos-390")
    assert site.app.game(game_id).version == int(page.get_attribute("#play", "data-version"))
    assert not page.errors, page.errors


def test_the_seats_hand_is_whole_beside_its_moves_and_its_tickets_are_on_the_map(site: Site, seat_page: Any, artifacts: Path) -> None:
    """1400x900 with "Your moves" open: the hand is in sight and nothing of it is cut off; the
    kept tickets' cities are ringed on the map and joined, completed ones marked so."""
    game_id = play_one(site.app, "ticket_to_ride", 3, game_seed(123, 0), random.Random(123), check=False).game_id
    issued = site.lobby.seating.issue(game_id, ["Ann", "Ben", "Cleo"])
    records = site.app.records(game_id)
    # Late in the game (claims made, tickets kept), before the final scoring; the seat with
    # both a completed and an open ticket then, so that both are drawn.
    last_move = max(r["version"] for r in records if r["kind"] == "RouteClaimed")
    game = site.app.game(game_id, last_move)
    board = game.decider.board

    def done(seat: int) -> list[bool]:
        claims = [board.routes[r] for r, s in game.state.claims.items() if s == seat]
        return [connected(claims, board.tickets[t].a, board.tickets[t].b) for t in game.state.seats[seat].tickets]
    seat = next(s for s in range(3) if set(done(s)) == {True, False})
    page = seat_page(site, game_id, issued.seat_tokens[seat], WIDE)
    page.evaluate(f"() => replay.go({last_move})")
    page.wait_for_selector("#my-hand:not([hidden]) [data-private='hand']")
    hand = page.eval_on_selector("#my-hand", """h => { const r = h.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, clipped: h.scrollHeight > h.clientHeight + 1 || h.scrollWidth > h.clientWidth + 1}; }""")
    assert hand["top"] >= 0 and hand["bottom"] <= WIDE["height"] and not hand["clipped"], hand
    chips = page.eval_on_selector_all("#my-hand .hand .chip, #my-hand [data-ticket]", """cs => cs.map(c => {
        const r = c.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; })""")
    assert chips and all(t >= 0 and b <= WIDE["height"] and left >= 0 and right <= WIDE["width"] for t, b, left, right in chips), chips

    kept = list(game.state.seats[seat].tickets)
    marks = page.eval_on_selector_all("#board .ticket-mark", """ms => ms.map(m => ({ticket: m.dataset.ticket, done: m.dataset.done,
        ends: [...m.querySelectorAll('circle')].map(c => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))])}))""")
    assert kept and sorted(m["ticket"] for m in marks) == sorted(kept), (marks, kept)
    layout = page.evaluate("() => replay.page.map.cities")
    completed = dict(zip(kept, done(seat), strict=True))
    for mark in marks:
        ticket = board.tickets[mark["ticket"]]
        assert mark["ends"] == [[layout[ticket.a]["x"], layout[ticket.a]["y"]], [layout[ticket.b]["x"], layout[ticket.b]["y"]]]
        assert mark["done"] == str(completed[mark["ticket"]]).lower(), mark
    shot(page, artifacts, "hand-ttr-1400")
    # A public viewer sees no one's tickets on the map.
    page.click("#public")
    page.wait_for_function("() => document.querySelector('#audience').dataset.audience === 'public'")
    page.wait_for_function("() => !document.querySelector('#board .ticket-mark') && document.querySelector('#my-hand').hidden")
    assert not page.errors, page.errors
