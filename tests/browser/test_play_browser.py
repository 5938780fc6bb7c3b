"""The play page in headless Chromium: Ticket to Ride played by two seats in two browser
contexts, each through the legal moves its page offers (`data-move` elements, a choice sent
by "Confirm"), every move sent with If-Match and an Idempotency-Key; a move against a game
that moved on is answered 412 and the page says so and reloads its moves; a move the rules
refuse shows the rule's message."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from service.simulation import game_seed
from tests.browser.accessibility import serious
from tests.browser.support import Site, canonical, shot

MOVES = 14  # through the opening ticket choice and several turns of both seats



def offered(page: Any, version: int) -> list[dict[str, Any]]:
    page.wait_for_selector(f'#play[data-version="{version}"]', timeout=15_000)
    return [json.loads(m) for m in page.eval_on_selector_all("#play [data-move]", "ms => ms.map(m => m.dataset.move)")]


def choose(page: Any, move: dict[str, Any]) -> None:
    """Choose the element offering `move` as a person would: a button is clicked; an option of
    a choice by place is shown by choosing its place first, then checked; an option of a
    drop-down is selected; a choice is then sent with "Confirm"."""
    shown = offered(page, int(page.get_attribute("#play", "data-version")))
    element = page.locator("#play [data-move]").nth(next(i for i, m in enumerate(shown) if m == move))
    group = element.locator("xpath=ancestor::fieldset")
    tag = element.evaluate("e => e.tagName")
    place = element.evaluate("e => { const p = e.closest('.place-moves'); return p && p.hidden ? p.dataset.target : null; }")
    if place is not None:
        group.locator("select.move-place").select_option(place)
    if tag == "OPTION":
        element.locator("xpath=ancestor::select").select_option(element.get_attribute("value"))
    elif tag == "INPUT":
        element.scroll_into_view_if_needed()
        element.check()
    else:
        element.scroll_into_view_if_needed()
        element.click()
        return
    group.locator("button.confirm").click()


def test_two_seats_play_ticket_to_ride_through_their_pages(site: Site, seat_page: Any, artifacts: Path) -> None:
    game_id, pages = play_ticket_to_ride(site, seat_page, MOVES)
    game = site.app.game(game_id)
    mover = pages[sorted(game.decider.active_seats(game.state))[0]]
    offered(mover, game.version)
    shot(mover, artifacts, "play-ttr-1400")
    for page in pages.values():
        assert serious(page) == []
    mover.set_viewport_size({"width": 390, "height": 844})
    assert mover.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert serious(mover) == []
    shot(mover, artifacts, "play-ttr-390")


@pytest.mark.slow
def test_a_whole_ticket_to_ride_game_through_the_play_pages(site: Site, seat_page: Any, artifacts: Path) -> None:
    game_id, pages = play_ticket_to_ride(site, seat_page, None)
    assert site.app.game(game_id).is_over
    pages[0].wait_for_selector("#play", state="hidden")  # nothing left to play
    shot(pages[0], artifacts, "play-ttr-finished")


def play_ticket_to_ride(site: Site, seat_page: Any, limit: int | None) -> tuple[str, dict[int, Any]]:
    """Two seats play `limit` moves (None: to the end) each on its own page; returns the game
    and the pages."""
    app = site.app
    game_id, issued = site.lobby.open_game("ticket_to_ride", ["Ann", "Ben"], seed=game_seed(61, 0))
    pages = {seat: seat_page(site, game_id, issued.seat_tokens[seat]) for seat in (0, 1)}
    chooser, made = random.Random(61), 0
    while limit is None or made < limit:
        game = app.game(game_id)
        if game.is_over:
            break
        active = sorted(game.decider.active_seats(game.state))
        seat = active[0]
        page = pages[seat]
        moves = offered(page, game.version)
        legal = [{"seat": seat, **m} for m in game.decider.legal_moves(game.state, seat)]
        assert sorted(map(canonical, moves)) == sorted(map(canonical, legal))  # exactly the seat's legal moves
        claims = [m for m in moves if m["type"] == "claim_route"]
        move = chooser.choice(claims) if claims else chooser.choice(moves)
        sent_before = len(page.sent)
        choose(page, move)
        # The page reads its moves again after the move; at the end it has none to offer.
        page.wait_for_function(f"() => {{ const p = document.querySelector('#play'); "
                               f"return p.hidden || Number(p.dataset.version) > {game.version}; }}", timeout=15_000)
        request = page.sent[sent_before]
        assert request.headers["if-match"] == f'"{game.version}"'
        assert len(request.headers["idempotency-key"]) >= 8
        first = app.records(game_id, after=game.version)[0]
        assert first["actor"] == f"seat:{seat}"
        for other in pages.values():  # the other seat's page hears of the move too
            other.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) >= {first['version']}",
                                    timeout=15_000)
        made += 1
    keys = [r.headers["idempotency-key"] for p in pages.values() for r in p.sent]
    assert len(set(keys)) == len(keys) == made
    assert not pages[0].errors and not pages[1].errors, (pages[0].errors, pages[1].errors)
    return game_id, pages


def test_a_stale_move_is_a_conflict_and_a_refused_move_shows_the_rule(site: Site, seat_page: Any) -> None:
    app = site.app
    game_id, issued = site.lobby.open_game("ticket_to_ride", ["Ann", "Ben"], seed=game_seed(62, 0))
    page = seat_page(site, game_id, issued.seat_tokens[0])
    version = app.game(game_id).version
    moves = offered(page, version)
    assert moves and all(m["type"] == "keep_tickets" for m in moves)

    # Sent as if chosen at an older version: the server says 412, the page says so and reloads.
    page.route("**/moves", lambda route: route.continue_(headers={**route.request.headers, "if-match": '"1"'}))
    choose(page, moves[0])
    page.wait_for_selector("#play .play-message.conflict")
    assert "moved on" in page.text_content("#play .play-message")
    assert app.game(game_id).version == version  # nothing stored
    page.unroute("**/moves")

    # A move the rules refuse (a ticket never offered): the rule's own words are shown.
    offered_now = offered(page, version)
    foreign = next(t for t in app.game(game_id).decider.board.tickets if t not in offered_now[0]["keep"])

    def swap(route: Any) -> None:
        body = json.loads(route.request.post_data)
        route.continue_(post_data=json.dumps({**body, "keep": [foreign]}))

    page.route("**/moves", swap)
    choose(page, offered_now[0])
    page.wait_for_selector("#play .play-message.refused")
    said = page.text_content("#play .play-message")
    reply = app.game(game_id)
    assert reply.version == version
    assert "refused" in said and len(said) > len("Your move was refused: "), said
    # The browser logs each answer it was sent on purpose here (412, then the rule's refusal).
    answers = [e for e in page.errors if e.startswith("Failed to load resource: the server responded with a status of 4")]
    assert len(answers) == 2 and not [e for e in page.errors if e not in answers], page.errors


def test_a_click_on_a_route_picks_out_its_claims(site: Site, seat_page: Any) -> None:
    app = site.app
    game_id, issued = site.lobby.open_game("ticket_to_ride", ["Ann", "Ben"], seed=game_seed(63, 0))
    chooser = random.Random(63)
    while True:  # play on until the seat to move may claim a route
        game = app.game(game_id)
        seat = sorted(game.decider.active_seats(game.state))[0]
        legal = game.decider.legal_moves(game.state, seat)
        claims = [m for m in legal if m["type"] == "claim_route"]
        if claims:
            break
        app.play(game_id, seat, chooser.choice(legal))
    page = seat_page(site, game_id, issued.seat_tokens[seat])
    offered(page, game.version)
    route = claims[0]["route"]
    for_route = [m for m in claims if m["route"] == route]
    # Each route the seat may claim is a keyboard button on the board, named by its claims.
    assert page.locator("#board [data-offers]").count() == len({m["route"] for m in claims})
    place = page.locator(f'#board .route[data-route="{route}"]')
    assert place.get_attribute("tabindex") == "0" and place.get_attribute("role") == "button"
    label = place.get_attribute("aria-label") or ""
    assert (f"{len(for_route)} choices" in label) if len(for_route) > 1 else (" with " in label), label
    page.locator(f'#board .route[data-route="{route}"] .space').first.dispatch_event("click")
    shown = page.eval_on_selector_all('#play fieldset[data-type="claim_route"] .move-option:not([hidden]) [data-move]',
                                      "ms => ms.map(m => JSON.parse(m.dataset.move))")
    assert sorted(map(canonical, shown)) == sorted(canonical({"seat": seat, **m}) for m in for_route)
    if len(for_route) == 1:  # the only way to claim it is chosen, waiting for "Confirm"
        assert page.is_checked('#play fieldset[data-type="claim_route"] .move-option:not([hidden]) input')


def test_a_full_age_of_steam_turn_through_three_seats_pages(site: Site, seat_page: Any, artifacts: Path) -> None:
    """From the share issue to the next turn's start: every move made on the mover's page, a
    build chosen by clicking its hex on the board (which picks out the tiles and turns that
    may go there) and confirmed."""
    app = site.app
    game_id, issued = site.lobby.open_game("age_of_steam", ["Ann", "Ben", "Cleo"], seed=game_seed(70, 0))
    pages = {seat: seat_page(site, game_id, issued.seat_tokens[seat]) for seat in (0, 1, 2)}
    chooser, built, made = random.Random(0), 0, 0
    while sum(r["kind"] == "TurnBegan" for r in app.records(game_id)) < 2:
        game = app.game(game_id)
        assert not game.is_over and made < 60
        seat = sorted(game.decider.active_seats(game.state))[0]
        page = pages[seat]
        moves = offered(page, game.version)
        legal = game.decider.legal_moves(game.state, seat)
        assert sorted(map(canonical, moves)) == sorted(canonical({"seat": seat, **m}) for m in legal)
        move = game.decider.playout_choice(game.state, seat, legal, chooser) or chooser.choice(legal)
        move = {"seat": seat, **move}
        if move["type"] == "build":
            page.locator(f'#board polygon[data-hex="{move["hex"]}"]').dispatch_event("click")
            # The hex's builds, shown (as options, or a drop-down where there are many), the others not.
            shown = page.eval_on_selector_all('#play fieldset[data-type="build"] [data-move]',
                                              "ms => ms.filter(m => !m.closest('[hidden]')).map(m => JSON.parse(m.dataset.move))")
            assert move in shown and all(m["hex"] == move["hex"] for m in shown)
            built += 1
        choose(page, move)
        page.wait_for_function(f"() => Number(document.querySelector('#play').dataset.version) > {game.version}",
                               timeout=15_000)
        assert app.records(game_id, after=game.version)[0]["actor"] == f"seat:{seat}"
        made += 1
    assert built > 0
    shot(pages[0], artifacts, "play-aos-1400")
    assert serious(pages[0]) == []
    assert not any(p.errors for p in pages.values()), [p.errors for p in pages.values()]
