"""Moves offered on the board, in headless Chromium: a click on an Age of Steam hex opens a
panel of the tiles and turns that may go there, each drawn in place (a thumbnail, and on the
board while hovered or chosen), and "Confirm" builds the one chosen; a click on a city's goods
cube offers that cube's deliveries, the path of the one chosen drawn over the track it takes;
Railway Boom's rails and Toot-Toot Train's track are offered on their hexes the same way.
Every offer is an element carrying its move in `data-move`, exactly the seat's legal moves
for that place; what is sent is what the server stores. Screenshots at 1400x900 and 390 px
are kept in test-artifacts/browser/, and axe finds no serious violation with the panel open."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from domain.age_of_steam.track import network
from service.simulation import game_seed
from tests.browser.accessibility import serious
from tests.browser.support import PHONE, Site, canonical, play_until, shot


def offers(page: Any) -> list[dict[str, Any]]:
    page.wait_for_selector("#offers button.offer")
    return [json.loads(m) for m in page.eval_on_selector_all("#offers [data-move]", "ms => ms.map(m => m.dataset.move)")]


def offer(page: Any, move: dict[str, Any]) -> Any:
    shown = offers(page)
    return page.locator("#offers button.offer").nth(next(i for i, m in enumerate(shown) if m == move))


def confirm_on_board(site: Site, page: Any, game_id: str, move: dict[str, Any]) -> dict[str, Any]:
    """Choose `move` in the board's panel and confirm it; returns the first record it stored."""
    version = site.app.game(game_id).version
    offer(page, move).click()
    assert offer(page, move).get_attribute("aria-pressed") == "true"
    sent_before = len(page.sent)
    page.click("#offers button.confirm")
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) > {version}", timeout=15_000)
    request = page.sent[sent_before]
    assert json.loads(request.post_data) == move  # the move as offered, nothing else
    assert request.headers["if-match"] == f'"{version}"' and len(request.headers["idempotency-key"]) >= 8
    first: dict[str, Any] = site.app.records(game_id, after=version)[0]
    assert first["actor"] == f"seat:{move['seat']}"
    assert page.locator("#offers").count() == 0  # the panel is gone with the move
    return first


def test_an_age_of_steam_build_chosen_from_a_hex_and_its_tiles_drawn_in_place(site: Site, seat_page: Any, artifacts: Path) -> None:
    game_id, seat, token, legal = play_until(site, "age_of_steam", "build", 81)
    builds = [m for m in legal if m["type"] == "build"]
    towns = site.app.game(game_id).decider.map.towns
    # A hex with several ways to build (and no town circle over its middle).
    by_hex: dict[str, list[dict[str, Any]]] = {}
    for m in builds:
        by_hex.setdefault(m["hex"], []).append(m)
    hex_ = max((h for h in by_hex if h not in towns), key=lambda h: len(by_hex[h]))
    here = by_hex[hex_]
    assert len(here) > 1
    page = seat_page(site, game_id, token)
    page.locator(f'#board polygon.hex[data-hex="{hex_}"]').click()

    shown = offers(page)
    assert sorted(map(canonical, shown)) == sorted(map(canonical, here))  # exactly the builds there
    # Each offer is drawn: its tile, turned as the move says, in a thumbnail of the hex.
    thumbs = page.eval_on_selector_all("#offers button.offer", "bs => bs.map(b => { const t = b.querySelector('svg .tile'); "
                                       "return t && [t.dataset.tileHex, t.dataset.tile, Number(t.dataset.rotation)]; })")
    assert thumbs == [[m["hex"], m["tile"], m["rotation"]] for m in shown]
    # Hovering an offer draws it on the board, on its hex; choosing one keeps it there.
    chosen = shown[-1]
    offer(page, shown[0]).hover()
    preview = "#board .offer-preview .tile"
    assert page.eval_on_selector(preview, "t => [t.dataset.tileHex, t.dataset.tile, Number(t.dataset.rotation)]") == \
        [hex_, shown[0]["tile"], shown[0]["rotation"]]
    offer(page, chosen).click()
    page.mouse.move(1, 1)
    assert page.eval_on_selector(preview, "t => [t.dataset.tileHex, t.dataset.tile, Number(t.dataset.rotation)]") == \
        [hex_, chosen["tile"], chosen["rotation"]]
    assert page.locator(f"{preview} .rail[data-owner='{seat}']").count() > 0
    # The list agrees: the same move is the one marked there.
    assert json.loads(page.get_attribute('#play fieldset[data-type="build"] input:checked', "data-move")) == chosen
    shot(page, artifacts, "board-offers-aos-build-1400")
    assert serious(page) == []
    # On a phone the panel opens under the hex, within the screen, the same moves in it.
    page.set_viewport_size(PHONE)
    page.wait_for_function("() => document.documentElement.clientWidth === 390")
    page.keyboard.press("Escape")
    assert page.locator("#offers").count() == 0
    hexagon = page.locator(f'#board polygon.hex[data-hex="{hex_}"]')
    hexagon.scroll_into_view_if_needed()
    hexagon.click()
    assert sorted(map(canonical, offers(page))) == sorted(map(canonical, here))
    box = page.locator("#offers").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    offer(page, chosen).click()
    shot(page, artifacts, "board-offers-aos-build-390")
    assert serious(page) == []

    built = confirm_on_board(site, page, game_id, chosen)
    assert built["kind"] == "TrackBuilt"
    assert (built["data"]["hex"], built["data"]["tile"], built["data"]["rotation"]) == (hex_, chosen["tile"], chosen["rotation"])
    page.wait_for_selector(f'#board .aos-track .tile[data-tile-hex="{hex_}"][data-tile="{chosen["tile"]}"]'
                           f'[data-rotation="{chosen["rotation"]}"]')
    assert not page.errors, page.errors


def test_an_age_of_steam_delivery_chosen_from_a_city_cube_with_its_path_drawn(site: Site, seat_page: Any, artifacts: Path) -> None:
    game_id, _, token, legal = play_until(site, "age_of_steam", "deliver", 82)
    state = site.app.game(game_id)
    deliveries = [m for m in legal if m["type"] == "deliver"]
    first = deliveries[0]
    cities = state.decider.map.city_at
    city = first["city"] if first["city"] in cities else next(h for h, c in cities.items() if c.name == first["city"])
    here = [m for m in deliveries if m["city"] == first["city"] and m["cube"] == first["cube"]]
    page = seat_page(site, game_id, token)
    page.locator(f'#board rect.cube[data-hex="{city}"][data-cube="{first["cube"]}"]').first.click()

    shown = offers(page)
    assert sorted(map(canonical, shown)) == sorted(map(canonical, here))  # that cube's deliveries, no others
    net = network(state.decider.map, state.state.board, state.state.new_cities)
    for move in shown:
        offer(page, move).hover()
        drawn = page.eval_on_selector("#board .offer-preview path.offer-path", "p => [p.dataset.path, p.dataset.hexes]")
        assert drawn[0] == " ".join(move["path"])
        # The path runs over the track of its links, from the cube's city to the last stop.
        hexes = drawn[1].split()
        links = [net.by_id[link] for link in move["path"]]
        over = {h for link in links for h, _ in link.segments} | {end.hex for link in links for end in (link.a, link.b)}
        assert hexes[0] == city and set(hexes) == over, (hexes, over)
    chosen = shown[-1]
    offer(page, chosen).click()
    page.mouse.move(1, 1)
    assert page.get_attribute("#board .offer-preview path.offer-path", "data-path") == " ".join(chosen["path"])
    shot(page, artifacts, "board-offers-aos-deliver-1400")
    assert serious(page) == []

    delivered = confirm_on_board(site, page, game_id, chosen)
    assert delivered["kind"] == "GoodsDelivered" and delivered["data"]["cube"] == chosen["cube"]
    assert delivered["data"]["links"] == chosen["path"]
    assert not page.errors, page.errors


def test_a_railway_boom_rail_laid_from_its_hex_on_a_phone(site: Site, seat_page: Any, artifacts: Path) -> None:
    game_id, seat, token, legal = play_until(site, "railway_boom", "lay_rail", 83)
    rail = next(m for m in legal if m["type"] == "lay_rail")
    page = seat_page(site, game_id, token, PHONE)
    polygon = page.locator(f'#board polygon.hex[data-hex="{rail["hex"]}"]')
    polygon.scroll_into_view_if_needed()
    polygon.click()
    shown = offers(page)
    tied = [m for m in legal if m.get("hex") == rail["hex"] or m.get("city") == rail["hex"]]
    assert sorted(map(canonical, shown)) == sorted(map(canonical, tied))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    box = page.locator("#offers").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]  # the panel fits the phone
    offer(page, rail).click()
    assert page.locator("#board .offer-preview .rb-rail").count() == 1
    shot(page, artifacts, "board-offers-railway-boom-390")
    assert serious(page) == []
    laid = confirm_on_board(site, page, game_id, rail)
    assert laid["kind"] == "RailLaid" and laid["data"]["hex"] == rail["hex"]
    page.wait_for_selector(f'#board .rb-rail[data-rail="{rail["hex"]}"][data-seat="{seat}"]')
    assert not page.errors, page.errors


def test_toot_toot_track_drawn_from_its_hex(site: Site, seat_page: Any, artifacts: Path) -> None:
    game_id, _, token, legal = play_until(site, "toot_toot", "draw_track", 84, options={"map": "forest"})
    first = next(m for m in legal if m["type"] == "draw_track")
    page = seat_page(site, game_id, token)
    page.locator(f'#board polygon.hex[data-hex="{first["hex"]}"]').dispatch_event("click")
    shown = offers(page)
    assert sorted(map(canonical, shown)) == sorted(canonical(m) for m in legal if m.get("hex") == first["hex"])
    chosen = next(m for m in shown if m["type"] == "draw_track")
    offer(page, chosen).click()
    assert page.locator("#board .offer-preview path.segment-offer").count() == 1
    shot(page, artifacts, "board-offers-toot-toot-1400")
    drawn = confirm_on_board(site, page, game_id, chosen)
    assert drawn["kind"] == "TrackDrawn" and drawn["data"]["hex"] == chosen["hex"]
    assert not page.errors, page.errors


def test_a_click_where_the_seat_has_no_move_offers_nothing(site: Site, seat_page: Any) -> None:
    game_id, _, token, legal = play_until(site, "age_of_steam", "build", 85)
    page = seat_page(site, game_id, token)
    offered_hexes = {m["hex"] for m in legal if "hex" in m}
    hexes = page.eval_on_selector_all("#board polygon.hex", "ps => ps.map(p => p.dataset.hex)")
    bare = next(h for h in hexes if h not in offered_hexes)
    page.locator(f'#board polygon.hex[data-hex="{bare}"]').dispatch_event("click")
    page.wait_for_timeout(200)
    assert page.locator("#offers").count() == 0
    assert site.app.game(game_id).version == int(page.get_attribute("#play", "data-version"))  # nothing sent


def test_a_game_without_board_hooks_offers_its_moves_as_the_list_only(site: Site, seat_page: Any) -> None:
    game_id, issued = site.lobby.open_game("race", ["Ann", "Ben"], seed=game_seed(86, 0))
    state = site.app.game(game_id)
    seat = sorted(state.decider.active_seats(state.state))[0]
    legal = [{"seat": seat, **m} for m in state.decider.legal_moves(state.state, seat)]
    page = seat_page(site, game_id, issued.seat_tokens[seat])
    page.wait_for_selector(f'#play[data-version="{state.version}"]')
    listed = [json.loads(m) for m in page.eval_on_selector_all("#play [data-move]", "ms => ms.map(m => m.dataset.move)")]
    assert sorted(map(canonical, listed)) == sorted(map(canonical, legal))
    page.locator("#board").dispatch_event("click")
    page.wait_for_timeout(200)
    assert page.locator("#offers").count() == 0  # nothing on the board: the list is the way to move
    assert page.errors == []  # nor is a renderer the game has not got asked for


def test_a_click_while_looking_at_an_earlier_event_offers_the_moves_on_the_board_of_now(site: Site, seat_page: Any) -> None:
    game_id, _, token, legal = play_until(site, "age_of_steam", "build", 87)
    version = site.app.game(game_id).version
    build = next(m for m in legal if m["type"] == "build")
    page = seat_page(site, game_id, token)
    page.wait_for_selector(f'#play[data-version="{version}"]')
    page.evaluate("() => replay.go(5)")
    assert page.get_attribute("#board", "data-version") == "5"
    page.locator(f'#board polygon.hex[data-hex="{build["hex"]}"]').dispatch_event("click")
    assert build in offers(page)
    assert page.get_attribute("#board", "data-version") == str(version)  # the board of the moves
    assert not page.errors, page.errors


FOCUSED_PLACE = "() => document.activeElement.closest('#board [data-offers]') ? document.activeElement.dataset.hex : null"


def test_places_with_moves_are_reached_named_and_played_from_the_keyboard(site: Site, seat_page: Any, artifacts: Path) -> None:
    """Every hex where the seat may build is a button on the board (Tab reaches it, its name
    says the move or how many there are, a ring shows it focused); Enter opens its moves,
    Space chooses one, Escape closes the panel back to the hex, and Confirm sends the move."""
    game_id, seat, token, legal = play_until(site, "age_of_steam", "build", 81)
    version = site.app.game(game_id).version
    tied: dict[str, list[dict[str, Any]]] = {}
    for m in legal:
        if m["type"] in ("build", "urbanize"):
            tied.setdefault(m["hex"], []).append(m)
    page = seat_page(site, game_id, token)
    page.wait_for_selector(f'#play[data-version="{version}"]')
    marked = page.eval_on_selector_all("#board [data-offers]", """es => es.map(e => ({hex: e.dataset.hex,
        tabindex: e.getAttribute('tabindex'), role: e.getAttribute('role'), label: e.getAttribute('aria-label'),
        count: Number(e.dataset.offers)}))""")
    assert {m["hex"]: m["count"] for m in marked} == {h: len(ms) for h, ms in tied.items()}  # those places, no others
    assert all(m["tabindex"] == "0" and m["role"] == "button" for m in marked)
    for m in marked:
        if m["count"] == 1:
            assert tied[m["hex"]][0]["tile" if tied[m["hex"]][0]["type"] == "build" else "city"].replace("_", " ") in m["label"], m
        else:
            assert f"{m['count']} choices" in m["label"], m
    assert page.get_attribute("#board", "role") == "group"

    page.evaluate("() => document.activeElement?.blur()")
    for _ in range(200):  # from the top of the page, as a keyboard user comes to the board
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED_PLACE):
            break
    hex_ = page.evaluate(FOCUSED_PLACE)
    assert hex_ == marked[0]["hex"]
    ring = page.locator("#board .focus-ring")
    assert ring.count() == 1 and (ring.bounding_box() or {}).get("width", 0) > 10
    shot(page, artifacts, "board-keyboard-focus-1400")

    page.keyboard.press("Enter")
    shown = offers(page)
    assert sorted(map(canonical, shown)) == sorted(map(canonical, tied[hex_]))
    page.keyboard.press("Escape")
    assert page.locator("#offers").count() == 0
    assert page.evaluate(FOCUSED_PLACE) == hex_  # back where the panel was opened from

    page.keyboard.press(" ")
    offers(page)
    page.keyboard.press(" ")  # the first option has the focus: Space chooses it
    chosen = json.loads(page.evaluate("() => document.activeElement.dataset.move"))
    assert page.evaluate("() => document.activeElement.getAttribute('aria-pressed')") == "true"
    for _ in range(len(shown) + 2):
        if page.evaluate("() => document.activeElement.classList.contains('confirm')"):
            break
        page.keyboard.press("Tab")
    sent_before = len(page.sent)
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) > {version}", timeout=15_000)
    assert json.loads(page.sent[sent_before].post_data) == chosen
    stored = site.app.records(game_id, after=version)[0]
    assert stored["actor"] == f"seat:{seat}" and stored["data"]["hex"] == hex_
    assert serious(page) == []
    assert not page.errors, page.errors
