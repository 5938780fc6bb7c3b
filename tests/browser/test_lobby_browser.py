"""The lobby at `/` in headless Chromium: games by status and title a page at a time, whose
turn and since when, a game created from the lobby and joined by invite from a second
browser, "My games" from the tokens each browser holds; usable at 390 px and without serious
accessibility violations. Screenshots at 1400×900 and 390 px go to test-artifacts/browser/."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from projections.listing import Filters
from tests.browser.accessibility import serious
from tests.browser.support import Site, shot

WIDE = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}


def cards(page: Any, where: str = "#games") -> list[str]:
    return page.eval_on_selector_all(f"{where} > li", "items => items.map(i => i.dataset.gameId)")


def test_create_a_game_and_join_it_by_invite_from_another_browser(site: Site, new_page: Any, artifacts: Path) -> None:
    host = new_page(f"{site.base}/")
    host.select_option("#create-game", "ticket_to_ride")
    rows = host.locator("#seat-rows > li")
    assert rows.count() == 2  # Ticket to Ride's fewest seats
    rows.nth(0).locator("[name=seat-name]").fill("Dora")
    assert rows.nth(1).locator("[name=seat-open]").is_checked()
    host.click("#create-submit")
    host.wait_for_selector("#created:not([hidden])")
    invite = host.get_attribute('#created-list a[data-invite-seat="1"]', "href")
    game_id = re.search(r"join=([0-9a-f-]+)", invite).group(1)

    summary = site.lobby.caboose.summary(game_id)
    assert [(s["name"], s["open"]) for s in summary["seats"]] == [("Dora", False), ("open seat 1", True)]
    host.wait_for_selector(f'#my-games > li[data-game-id="{game_id}"]')
    # One card for the game: the host's own seat first, the referee's view (every secret) last.
    assert host.locator(f'#my-games > li[data-game-id="{game_id}"]').count() == 1
    links = host.locator(f'#my-games > li[data-game-id="{game_id}"] .actions a').all_text_contents()
    assert links == ["Open as Dora", "Open as referee (every seat's secrets)"], links
    # Seats are numbered as the API and the record number them: the open seat is "open seat 1".
    assert "Invite for seat 1" in host.text_content("#created-list") and "(seat 0)" in host.text_content("#created-list")
    assert host.get_attribute("#seat-rows", "start") == "0"
    # The message is beside the button pressed, not at the top of the page.
    assert host.is_hidden("#notice") and "Ticket to Ride created." in host.text_content("#create-notice")
    gap = host.evaluate("""() => document.querySelector('#create-notice').getBoundingClientRect().top
                                 - document.querySelector('#create-submit').getBoundingClientRect().bottom""")
    assert 0 <= gap < 80, gap

    guest = new_page(invite, PHONE)
    assert guest.input_value("#join-game") == game_id
    assert guest.input_value("#join-invite") != ""
    assert cards(guest, "#my-games") == []
    guest.fill("#join-name", "Eli")
    guest.click("#join-form button[type=submit]")
    guest.wait_for_selector(f'#my-games > li[data-game-id="{game_id}"]')
    assert "You joined Ticket to Ride as Eli (seat 1)" in guest.text_content("#join-notice")
    assert "Open as Eli" in guest.text_content(f'#my-games > li[data-game-id="{game_id}"]')
    assert [(s["name"], s["open"]) for s in site.lobby.caboose.summary(game_id)["seats"]] == [("Dora", False), ("Eli", False)]
    assert "#" not in guest.url  # the used invite is out of the address bar

    # The same invite cannot seat anyone else.
    third = new_page(invite, PHONE)
    third.fill("#join-name", "Fay")
    third.click("#join-form button[type=submit]")
    third.wait_for_function("() => document.querySelector('#join-notice').dataset.kind === 'error'")
    assert "Could not join" in third.text_content("#join-notice")
    assert cards(third, "#my-games") == []

    host.reload()
    host.wait_for_function("() => document.body.dataset.ready === 'true'")
    assert "Dora, Eli" in host.text_content(f'#my-games > li[data-game-id="{game_id}"]')
    assert not host.errors and not guest.errors, (host.errors, guest.errors)
    shot(host, artifacts, "lobby-1400")
    shot(guest, artifacts, "lobby-390")


def test_each_game_is_called_by_its_publishers_name_in_english(site: Site, new_page: Any) -> None:
    """Toot-Toot Train, as its publisher writes it, not its id in words ("Toot Toot")."""
    page = new_page(f"{site.base}/")
    offered = page.eval_on_selector_all("#create-game option", "os => os.map(o => o.textContent)")
    assert "Toot-Toot Train" in offered and "Toot Toot" not in offered, offered
    assert "Toot-Toot Train" in page.eval_on_selector_all("#filter-game option", "os => os.map(o => o.textContent)")


def listed(site: Site, **filters: Any) -> list[str]:
    """Every game the listing gives for these filters, newest activity first (through the API's use case)."""
    ids, page = [], site.lobby.listing(Filters(**filters), 200)
    while True:
        ids += [g["game_id"] for g in page.games]
        if page.next is None:
            return ids
        page = site.lobby.listing(Filters(**filters), 200, page.next)


def showing(page: Any, first: str | None) -> None:
    """Wait until the games list is redrawn starting with `first` (None: empty)."""
    script = "first => { const li = document.querySelector('#games > li'); return (li ? li.dataset.gameId : null) === first; }"
    page.wait_for_function(script, arg=first)


def test_games_by_status_and_title_a_page_at_a_time(site: Site, new_page: Any) -> None:
    for game, players in [("ticket_to_ride", ["Gus", "Hal"])] * 3 + [("age_of_steam", ["Ida", "Jo", None])] * 2:
        site.lobby.open_game(game, players)
    page = new_page(f"{site.base}/?per_page=2")
    running = listed(site, status="running")
    page.select_option("#filter-status", "running")
    showing(page, running[0])
    assert page.text_content("#page-of") == "page 1" and page.is_disabled("#prev-page")
    assert page.eval_on_selector_all("#games > li", "items => items.every(li => li.dataset.status === 'active')")
    seen = cards(page)
    while page.is_enabled("#next-page"):
        page.click("#next-page")
        showing(page, running[len(seen)])
        seen += cards(page)
    assert seen == running  # newest activity first, each once, every one
    assert page.text_content("#page-of") == f"page {-(-len(running) // 2)}"
    # A game made meanwhile goes to the front; going back by the `prev` links ends on the newest page.
    made, _ = site.lobby.open_game("ticket_to_ride", ["Kim", "Lu"])
    while page.is_enabled("#prev-page"):
        before = cards(page)
        page.click("#prev-page")
        page.wait_for_function("before => document.querySelector('#games > li').dataset.gameId !== before", arg=before[0])
    showing(page, made)
    assert cards(page) == [made, running[0]] and page.text_content("#page-of") == "page 1"

    page.select_option("#filter-status", "waiting")
    page.select_option("#filter-game", "age_of_steam")
    expected = listed(site, status="waiting", game="age_of_steam")
    assert len(expected) >= 2
    showing(page, expected[0])
    assert cards(page) == expected[:2]
    assert all(t.startswith("Age of Steam") for t in page.locator("#games h3").all_text_contents())
    assert not page.errors, page.errors


def test_waiting_for_me_lists_the_games_where_a_seat_this_browser_holds_is_to_act(site: Site, new_page: Any) -> None:
    # The test's `race` game: one seat to act at a time.
    mine, issued = site.lobby.open_game("race", ["Mo", "Ned"])
    to_act = site.lobby.caboose.summary(mine)["active_seats"]
    idle, idle_issued = site.lobby.open_game("race", ["Oz", "Pam"])
    idle_seat = next(s for s in range(2) if s not in site.lobby.caboose.summary(idle)["active_seats"])
    page = new_page(f"{site.base}/")
    held = [{"game_id": mine, "seat": to_act[0], "token": issued.seat_tokens[to_act[0]], "name": "Mo", "game": "race"},
            {"game_id": idle, "seat": idle_seat, "token": idle_issued.seat_tokens[idle_seat], "name": "Oz", "game": "race"}]
    page.evaluate("held => localStorage.setItem('caboose.lobby.tokens', JSON.stringify(held))", held)
    page.check("#filter-mine")
    showing(page, mine)
    assert cards(page) == [mine]
    assert page.get_attribute(f'#games > li[data-game-id="{mine}"]', "data-yours") == "true"
    page.uncheck("#filter-mine")
    page.wait_for_function("() => document.querySelectorAll('#games > li').length > 1")
    assert not page.errors, page.errors


def test_whose_turn_and_since_when(site: Site, new_page: Any) -> None:
    running = site.lobby.caboose.summary(site.games["running"])
    page = new_page(f"{site.base}/?per_page=100")
    item = page.locator(f'#games > li[data-game-id="{running["game_id"]}"]')
    names = {s["seat"]: s["name"] for s in running["seats"]}
    turn = item.locator(".turn")
    for seat in running["active_seats"]:
        assert names[seat] in turn.text_content()
        since = running["waiting_since"][str(seat)]
        assert turn.locator(f'time[datetime="{since}"]').count() == 1


def test_lobby_fits_a_phone_and_has_no_serious_accessibility_violations(site: Site, new_page: Any) -> None:
    for viewport in (WIDE, PHONE):
        page = new_page(f"{site.base}/", viewport)
        page.click("#create-options summary")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"the lobby is {width} px wide at {viewport['width']} px"
        assert serious(page) == []


def choosable(site: Site) -> list[tuple[str, str | None, Any]]:
    """(game, option, value) for every value of every option a game lets the lobby choose,
    as GET /api/v1/rulesets types them (None: the game with no option changed)."""
    from tests.conformance.contract import option_values
    from tests.support.http import Client

    out: list[tuple[str, str | None, Any]] = []
    for ruleset in Client(site.base).get("/api/v1/rulesets").body["rulesets"]:
        out.append((ruleset["game"], None, None))
        for name, schema in ruleset["option_types"].items():
            if name != ruleset["pack_option"]:
                out += [(ruleset["game"], name, value) for value in option_values(schema)]
    return out


def test_every_game_can_be_created_from_the_lobby_with_every_option(site: Site, new_page: Any) -> None:
    """Each option is offered in its own type (a box to tick, a list of its values with "no
    limit" for null, a number within its bounds) and sent typed: the game is created and its
    record holds the value chosen, as JSON."""
    cases = choosable(site)
    assert ("toot_toot", "penalty_supply", None) in cases and ("toot_toot", "penalty_supply", 5) in cases
    assert {game for game, _, _ in cases} >= {"ticket_to_ride", "age_of_steam", "railway_boom", "toot_toot"}
    page = new_page(f"{site.base}/")
    made = 0
    for game, option, value in cases:
        page.select_option("#create-game", game)
        for index, row in enumerate(page.locator("#seat-rows > li").all()):
            if row.locator("[name=seat-open]").is_checked():
                row.locator("[name=seat-open]").uncheck()
            row.locator("[name=seat-name]").fill(f"P{index}")
        shown = page.locator("#option-fields [data-option]").evaluate_all("labels => labels.map(l => l.dataset.option)")
        if option is not None:
            if page.is_hidden("#create-options[open]"):
                page.click("#create-options summary")
            field = page.locator(f'#option-fields [name="{option}"]')
            kind = field.evaluate("f => f.tagName === 'SELECT' ? 'select' : f.type")
            if kind == "checkbox":
                field.set_checked(value)
            elif kind == "select":
                assert field.evaluate("f => [...f.options].map(o => JSON.parse(o.value))") == \
                    [v for g, o, v in cases if (g, o) == (game, option)]
                field.select_option(json.dumps(value))
            else:
                assert kind == "number", kind
                field.fill(str(value))
        before = page.text_content("#create-notice")
        page.click("#create-submit")
        page.wait_for_function("before => { const n = document.querySelector('#create-notice'); "
                               "return !n.hidden && n.textContent !== before; }", arg=before)
        assert page.get_attribute("#create-notice", "data-kind") == "info", (game, option, value, page.text_content("#create-notice"))
        game_id = page.text_content("#created-list dd")
        recorded = site.lobby.caboose.records(game_id, upto=1)[0]["data"]["options"]
        if option is not None:
            assert recorded[option] == value and type(recorded[option]) is type(value), (option, recorded[option], value)
            assert option in shown
        made += 1
        page.evaluate("() => { document.querySelector('#create-notice').textContent = ''; }")
    assert made == len(cases) and not page.errors, page.errors


def test_a_turn_notices_link_opens_the_seats_play_page_in_the_browser_that_holds_its_token(site: Site, new_page: Any) -> None:
    game_id = site.games["running"]
    page = new_page(f"{site.base}/")
    page.evaluate("held => localStorage.setItem('caboose.lobby.tokens', JSON.stringify(held))",
                  [{"game_id": game_id, "seat": 1, "token": site.tokens["ben"], "name": "Ben", "game": "ticket_to_ride"}])
    page = page.context.new_page()  # the link opened in a new tab of the same browser
    page.goto(f"{site.base}/#play={game_id}&seat=1")
    page.wait_for_url(f"{site.base}/games/{game_id}/replay*")
    page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=20_000)
    assert page.get_attribute("#audience", "data-audience") == "seat:1"
    assert "token" not in page.url  # taken out of the address bar at once

    other = new_page(f"{site.base}/#play={game_id}&seat=0")  # a browser that holds no token for it
    assert other.get_attribute("#notice", "data-kind") == "error"
    assert "keeps no token for seat 0" in other.text_content("#notice")
    assert other.get_attribute("#play-elsewhere", "href") == f"/games/{game_id}/replay"
