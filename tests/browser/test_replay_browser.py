"""The replay page in headless Chromium: stepping, deep links, turn and phase jumps, the board
changing under the viewer's eyes, the charts, viewpoints and secrets, live updates, referee
events, and a game with no renderer of its own. Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from domain.core.events import PUBLIC, REFEREE
from service import referee as desk
from service.simulation import game_seed, play_one
from tests.browser.support import Site, keys_anywhere, play_random, shot
from tests.usa import ROUTES, TICKETS

PRIVATE_KEYS = {"hand", "kept_tickets", "offered_tickets", "returning_tickets", "deck_order", "ticket_deck_order",
                "discard_pile"}


def first_event(site: Site, game_id: str, kind: str) -> dict[str, Any]:
    return next(r for r in site.app.records(game_id) if r["kind"] == kind)


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function(f"() => document.querySelector('#board').dataset.version === '{version}'")


def test_stepping_claims_a_route_and_takes_it_back(site: Site, open_page: Any, artifacts: Path) -> None:
    game_id = site.games["finished"]
    claim = first_event(site, game_id, "RouteClaimed")
    version, route = claim["version"], ROUTES[claim["data"]["route"]]
    watched = open_page(site.replay("finished", f"at={version - 1}"))
    page = watched.ready()
    on_board = f'#board [data-claimed-route="{route.id}"]'
    assert watched.position() == version - 1
    assert page.locator("#board .claim").count() == 0

    page.keyboard.press("ArrowRight")
    page.wait_for_selector(on_board, state="attached")
    assert watched.position() == version
    seat = claim["data"]["seat"]
    assert page.get_attribute(on_board, "data-seat") == str(seat)
    # The claim's cars: one path, a closed rectangle a car.
    cars = page.eval_on_selector(f"{on_board} path.car", "(p) => p.getAttribute('d').match(/M/g).length")
    assert cars == route.length
    said = page.text_content("#current-event")
    colour = {"gray": "grey"}.get(route.colour, route.colour)  # the page's words for the card colour
    name = site.app.game(game_id).seats[seat]  # the seat's player, by name
    assert re.search(rf"{name} claimed {route.a}–{route.b} \({route.length}, {colour}\) "
                     rf"for {claim['data']['points']} points?", said), said
    shot(page, artifacts, "ttr-route-claimed")

    page.click("#prev")
    page.wait_for_selector(on_board, state="detached")
    assert watched.position() == version - 1
    page.click("#next")
    page.wait_for_selector(on_board, state="attached")

    final = site.app.game(game_id)
    page.keyboard.press("End")
    wait_version(page, final.version)
    assert page.locator("#board .claim").count() == len(final.state.claims)
    shot(page, artifacts, "ttr-finished")
    page.keyboard.press("Home")
    wait_version(page, 1)
    assert page.locator("#board .claim").count() == 0
    assert page.locator("#event-list li").count() == final.version
    assert not watched.errors, watched.errors


def test_deep_link_slider_and_jumps_by_turn_and_phase(site: Site, open_page: Any) -> None:
    game_id = site.games["finished"]
    last = site.app.game(game_id).version
    watched = open_page(site.replay("finished", "at=123"))
    page = watched.ready()
    assert watched.position() == 123
    assert page.input_value("#slider") == "123"
    assert page.text_content("#position") == f"event 123 of {last}"
    assert page.get_attribute("#event-list li.current", "data-version") == "123"

    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => new URL(location.href).searchParams.get('at') === '124'")
    page.keyboard.press("Shift+ArrowLeft")
    wait_version(page, 114)

    page.eval_on_selector("#slider", "(s) => { s.value = '300'; s.dispatchEvent(new Event('input')); }")
    wait_version(page, 300)

    turn_starts = [r["version"] for r in site.app.records(game_id) if r["kind"] == "TurnStarted"]
    page.select_option("#turn", str(turn_starts[9]))
    wait_version(page, turn_starts[9])
    assert page.eval_on_selector("#turn", "(s) => s.selectedOptions[0].textContent").startswith("Turn 10:")
    page.keyboard.press("PageDown")
    wait_version(page, turn_starts[10])
    page.keyboard.press("PageUp")
    wait_version(page, turn_starts[9])

    scoring = first_event(site, game_id, "TicketScored")["version"]
    page.select_option("#phase", label="Final scoring")
    wait_version(page, scoring)
    page.keyboard.press("[")
    final_round = first_event(site, game_id, "FinalRoundBegan")["version"]
    wait_version(page, final_round)

    # A row far from the list's window is not drawn until the list is scrolled to it, as a
    # person would scroll before clicking it: once the page has brought the current row into
    # sight (in the frame after the step), as a person would look before scrolling.
    page.eval_on_selector("#event-list", """async (list) => {
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        list.scrollTop = 49 * list.querySelector('li.near').offsetHeight;
    }""")
    page.click('#event-list li[data-version="50"]')
    wait_version(page, 50)
    assert not watched.errors, watched.errors


def test_charts_from_the_projections(site: Site, open_page: Any, artifacts: Path) -> None:
    game_id = site.games["finished"]
    watched = open_page(site.replay("finished"))
    page = watched.ready()
    assert page.get_attribute("#chart-vp", "data-source") == "projection"
    assert page.locator("#chart-vp path.line").count() == 3
    page.wait_for_selector("#chart-sources rect[data-source]", state="attached")
    sources = set(page.eval_on_selector_all("#chart-sources rect[data-source]", "(rs) => rs.map((r) => r.dataset.source)"))
    assert {"routes", "tickets"} <= sources
    totals = page.eval_on_selector_all("#chart-sources .bar-total", "(ts) => ts.map((t) => Number(t.textContent))")
    final = site.app.game(game_id)
    assert totals == [final.decider.scores(final.state)[seat] for seat in range(3)]
    assert page.is_hidden("#income-figure")  # Ticket to Ride has no income
    shot(page, artifacts, "ttr-charts")


def test_charts_from_the_events_when_the_projections_are_missing(site: Site, open_page: Any, browser: Any) -> None:
    game_id = site.games["finished"]
    context = browser.new_context()
    try:
        page = context.new_page()
        page.route(re.compile(r".*/api/v1/games/[^/]+/(timeline|scores).*"),
                   lambda route: route.fulfill(status=404, content_type="application/problem+json", body="{}"))
        page.goto(site.replay("finished"))
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        assert page.get_attribute("#chart-vp", "data-source") == "events"
        assert page.locator("#chart-vp path.line").count() == 3
        totals = page.eval_on_selector_all("#chart-sources .bar-total", "(ts) => ts.map((t) => Number(t.textContent))")
        final = site.app.game(game_id)
        assert totals == [final.decider.scores(final.state)[seat] for seat in range(3)]
    finally:
        context.close()


def ticket_labels(state: Any) -> set[str]:
    labels = set()
    chosen = [t for c in (state.sealed.choices.values() if state.sealed else ()) for t in (*c["kept"], *c["returned"])]
    for ticket in (*chosen, *(t for seat in state.seats for t in (*seat.tickets, *seat.offered))):
        t = TICKETS[ticket]
        labels.add(f"{t.a}–{t.b} ({t.points})")
    return labels


def test_the_public_view_of_an_unfinished_game_holds_no_secret(site: Site, open_page: Any, artifacts: Path) -> None:
    game_id = site.games["running"]
    game = site.app.game(game_id)
    assert not game.is_over
    watched = open_page(site.replay("running", "at=20"))
    page = watched.ready()
    for key in ("End", "ArrowLeft", "ArrowLeft", "Home"):
        page.keyboard.press(key)
    # Wait for the background fetch of every view, so every answer is checked below.
    page.wait_for_function(f"() => replay.page.frames.views.size === {game.version}", timeout=30_000)
    assert page.get_attribute("#audience", "data-audience") == "public"

    bodies = watched.bodies()
    fetched = {v["version"] for body in bodies for v in body.get("views", [])}
    assert fetched == set(range(1, game.version + 1))
    events = [e for body in bodies for e in body.get("events", [])]
    assert {e["version"] for e in events} == set(range(1, game.version + 1))
    for body in bodies:
        assert not keys_anywhere(body) & PRIVATE_KEYS
    for event in events:
        assert all("value" not in secret for secret in event["secrets"]), event["version"]

    text = page.inner_text("body")
    for label in ticket_labels(game.state):
        assert label not in text
    assert page.locator("[data-private]").count() == 0
    hands = site.app.state(game_id, REFEREE)["state"]["seats"]
    assert all(hand["hand"] for hand in hands)  # there were hands to hide
    shot(page, artifacts, "ttr-public-unfinished")
    assert not watched.errors, watched.errors


def test_a_seat_sees_its_own_secrets_and_a_referee_all(site: Site, open_page: Any, artifacts: Path) -> None:
    game_id = site.games["running"]
    game = site.app.game(game_id)
    watched = open_page(site.replay("running", f"token={site.tokens['ann']}"))
    page = watched.ready()
    assert "token" not in page.url  # never left in the address bar, so deep links never carry it
    assert page.get_attribute("#audience", "data-audience") == "seat:0"
    assert page.locator('#my-hand .seat[data-seat="0"] [data-private="hand"]').count() == 1  # the seat's own hand, apart
    assert page.locator('#seats .seat[data-seat="1"] [data-private], #seats .seat[data-seat="2"] [data-private]').count() == 0
    for body in watched.bodies():
        for view in body.get("views", []):
            assert all(not keys_anywhere(seat) & PRIVATE_KEYS for seat in view["state"]["seats"][1:])
        for event in body.get("events", []):
            for secret in event["secrets"]:
                assert "value" not in secret or 0 in secret["to"]
    shot(page, artifacts, "ttr-seat-view")

    page.fill("#token", site.tokens["referee"])
    page.click("#viewpoint button[type=submit]")
    page.wait_for_function("() => document.querySelector('#audience').dataset.audience === 'referee'")
    page.wait_for_selector('#seats .seat[data-seat="2"] [data-private="hand"]', state="attached")
    page.click("#public")
    page.wait_for_function("() => document.querySelector('#audience').dataset.audience === 'public'")
    page.wait_for_function("() => document.querySelectorAll('[data-private]').length === 0")
    assert watched.position() == game.version

    page.fill("#token", "not-a-token")
    page.click("#viewpoint button[type=submit]")
    page.wait_for_selector("#error:not([hidden])")
    assert "not valid" in page.text_content("#error")
    assert page.get_attribute("#audience", "data-audience") == "public"


def test_a_viewer_on_a_running_game_sees_new_events_without_reloading(site: Site, open_page: Any) -> None:
    game_id, _ = site.lobby.open_game("ticket_to_ride", ["Ann", "Ben"], seed=game_seed(31, 0))
    play_random(site.app, game_id, 12, random.Random(31))
    before = site.app.game(game_id).version
    watched = open_page(f"{site.base}/games/{game_id}/replay")
    page = watched.ready()
    assert watched.position() == before and page.is_visible("#live")
    play_random(site.app, game_id, 25, random.Random(32))
    after = site.app.game(game_id).version
    assert after > before
    page.wait_for_function(f"() => document.querySelector('#board').dataset.version === '{after}'", timeout=15_000)
    assert page.locator(f'#event-list li[data-version="{after}"]').count() == 1
    assert page.text_content("#position") == f"event {after} of {after}"
    claims = len(site.app.game(game_id).state.claims)
    page.wait_for_function(f"() => document.querySelectorAll('#board .claim').length === {claims}")
    assert page.locator("[data-private]").count() == 0

    # The game ends while watched: everything becomes public, and the page shows it.
    play_random(site.app, game_id, 5000, random.Random(33))
    final = site.app.game(game_id)
    assert final.is_over
    page.wait_for_function("() => document.querySelector('#status').dataset.status === 'finished'", timeout=20_000)
    wait_version(page, final.version)
    assert "everything is public" in page.text_content("#audience")
    page.wait_for_selector('#seats .seat[data-seat="1"] [data-private="hand"]', state="attached")
    page.wait_for_selector("#live", state="hidden")
    assert not watched.errors, watched.errors


def test_referee_events_are_marked_and_a_rewind_restores_the_board(site: Site, open_page: Any, artifacts: Path) -> None:
    app = site.app
    game_id, _ = site.lobby.open_game("ticket_to_ride", ["Ann", "Ben"], seed=game_seed(41, 0))
    play_random(app, game_id, 40, random.Random(41))
    about = app.game(game_id).version
    dispute = desk.raise_dispute(app, game_id, "Rita", about, "seat:1", "Ann paid with the wrong colour")[0]["version"]
    desk.adjust(app, game_id, "Rita", 0, "vp", 2, "a scoring slip", dispute=dispute)
    back_to = about - 8
    rewound = desk.rewind(app, game_id, "Rita", back_to, "replay the disputed turn")[0]["version"]
    desk.rule(app, game_id, "Rita", dispute, "Upheld: the turn is replayed", "upheld")
    play_random(app, game_id, 3, random.Random(42))

    watched = open_page(f"{site.base}/games/{game_id}/replay?at={rewound}")
    page = watched.ready()
    for category in ("dispute", "adjustment", "rewind", "ruling"):
        assert page.locator(f"#event-list li.cat-{category} .tag").count() == 1, category
        assert page.locator(f"#slider-marks .mark.cat-{category}").count() == 1, category
    # The dispute stands; the moves and the adjustment after event `back_to` are undone.
    assert page.locator("#event-list li.undone").count() == rewound - back_to - 2
    assert page.locator("#event-list li.cat-adjustment.undone").count() == 1
    said = page.text_content("#current-event")
    assert f"Referee Rita rewound the game to event {back_to}: replay the disputed turn" in said
    assert "adjusted Ann's VP by +2: a scoring slip" in page.text_content("#event-list li.cat-adjustment")
    claims_then = len(app.game(game_id, back_to).state.claims)
    assert page.locator("#board .claim").count() == claims_then
    shot(page, artifacts, "ttr-referee-events")
    assert not watched.errors, watched.errors


def test_age_of_steam_tiles_appear_in_their_rotation_and_go(site: Site, open_page: Any, artifacts: Path) -> None:
    game_id = site.games["steam"]
    built = first_event(site, game_id, "TrackBuilt")
    version, data = built["version"], built["data"]
    watched = open_page(site.replay("steam", f"at={version - 1}"))
    page = watched.ready()
    tile = f'#board .tile[data-tile-hex="{data["hex"]}"]'
    assert page.locator("#board .tile").count() == 0
    assert page.locator("#board rect.cube").count() > 0  # the starting goods on the cities
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(tile, state="attached")
    assert page.get_attribute(tile, "data-tile") == data["tile"]
    assert page.get_attribute(tile, "data-rotation") == str(data["rotation"])
    assert page.locator(f'{tile} .rail[data-owner="{data["seat"]}"]').count() >= 1
    assert f"built a {data['tile'].replace('_', ' ')}" in page.text_content("#current-event")
    shot(page, artifacts, "aos-track-built")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(tile, state="detached")

    final = site.app.game(game_id)
    page.keyboard.press("End")
    wait_version(page, final.version)
    assert page.locator("#board .tile").count() == len(final.state.board)
    assert page.is_visible("#income-figure")
    assert page.locator("#chart-income path.line").count() == 3
    assert page.locator("#chart-vp path.line").count() == 3
    shot(page, artifacts, "aos-finished")
    assert not watched.errors, watched.errors


def cubes_on_board(page: Any) -> dict[str, list[str]]:
    return page.eval_on_selector_all("#board rect.cube", """cubes => cubes.reduce((at, c) => {
        (at[c.dataset.hex] ||= []).push(c.dataset.cube); return at; }, {})""")


def cubes_in_view(site: Site, game_id: str, version: int) -> dict[str, list[str]]:
    cities = site.app.state(game_id, PUBLIC, version)["state"]["cities"]
    return {hex_id: list(city["goods"]) for hex_id, city in cities.items() if city.get("goods")}


def test_a_delivery_redraws_only_the_cubes_it_moved(site: Site, open_page: Any) -> None:
    game_id = site.games["steam"]
    delivery = first_event(site, game_id, "GoodsDelivered")
    version, source = delivery["version"], delivery["data"]["from"]
    watched = open_page(site.replay("steam", f"at={version - 1}"))
    page = watched.ready()
    assert cubes_on_board(page) == cubes_in_view(site, game_id, version - 1)
    page.evaluate("() => document.querySelectorAll('#board .place, #board .cubes').forEach((n) => { n.kept = true; })")
    page.keyboard.press("ArrowRight")
    wait_version(page, version)
    assert cubes_on_board(page) == cubes_in_view(site, game_id, version)
    redrawn = page.eval_on_selector_all("#board .place, #board .cubes",
                                        "nodes => nodes.filter((n) => !n.kept).map((n) => n.dataset.cubesOf || n.dataset.place)")
    assert redrawn == [source]  # the city the cube left; no label, no other city
    page.keyboard.press("ArrowLeft")
    wait_version(page, version - 1)
    assert cubes_on_board(page) == cubes_in_view(site, game_id, version - 1)
    assert not watched.errors, watched.errors


def test_a_game_without_a_renderer_is_still_replayed(site: Site, open_page: Any) -> None:
    race = play_one(site.app, "race", 2, game_seed(51, 0), random.Random(51), check=False)
    watched = open_page(f"{site.base}/games/{race.game_id}/replay?at=2")
    page = watched.ready()
    assert watched.position() == 2
    assert "No board renderer" in page.text_content("#board")
    assert page.locator("#event-list li").count() == race.events
    page.keyboard.press("End")
    wait_version(page, race.events)
    assert watched.errors == []  # the page asks for no renderer the game has not got


def test_the_title_and_heading_name_the_game(site: Site, open_page: Any) -> None:
    page = open_page(site.replay("finished")).ready()
    names = ", ".join(s["name"] for s in site.app.summary(site.games["finished"])["seats"])
    assert page.title() == f"Ticket to Ride · {names} · Caboose replay"
    assert page.text_content("h1").strip() == "Caboose · Ticket to Ride"
    assert page.text_content("#game-seats") == names
    steam = open_page(site.replay("steam")).ready()
    assert steam.title().startswith("Age of Steam · ") and "Age of Steam" in steam.text_content("h1")
    # A seat's page of a running game is its play page.
    running = open_page(site.replay("running", f"token={site.tokens['ann']}")).ready()
    running.wait_for_function("() => document.title.endsWith(' · Caboose play')")
    assert running.title() == "Ticket to Ride · Ann, Ben, Cleo · Caboose play"
    # A game without a content pack is called by the title its rules declare, not its id.
    race = play_one(site.app, "race", 2, game_seed(52, 0), random.Random(52), check=False)
    plain = open_page(f"{site.base}/games/{race.game_id}/replay").ready()
    assert plain.text_content("#game-title") == "Race" and plain.title().startswith("Race · ")


def test_a_public_first_board_comes_with_the_page_and_a_seats_is_asked_for(site: Site, browser: Any) -> None:
    game_id = site.games["running"]
    version = site.app.game(game_id).version
    first_view, summary = f"/replay/views?from={version}&to={version}", f"/api/v1/games/{game_id}"
    for token, asked in ((None, set()), (site.tokens["ann"], {first_view})):
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        try:
            page = context.new_page()
            requested: list[str] = []
            page.on("request", lambda request, seen=requested: seen.append(request.url))
            page.goto(site.replay("running", f"token={token}" if token else ""))
            page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=20_000)
            wanted = {first_view, summary, "/replay/maps/ticket_to_ride.json"}
            assert {w for w in wanted if any(url.endswith(w) for url in requested)} == asked, requested
            assert page.get_attribute("#board", "data-version") == str(version)
            assert page.get_attribute("#audience", "data-audience") == ("seat:0" if token else "public")
            hands = page.locator('#seats [data-private="hand"], #my-hand [data-private="hand"]').count()
            assert hands == (1 if token else 0)
        finally:
            context.close()
