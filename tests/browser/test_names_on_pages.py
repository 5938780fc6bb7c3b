"""Players' names as people type them, on the lobby and the replay page in headless Chromium:
a 64-character name with no space to break at stays inside its card and the page at a
phone's width, and a name holding a right-to-left override reorders only itself, never the
page's own words around it."""

from __future__ import annotations

from typing import Any

from tests.browser.support import PHONE, WIDE, Site

LONG = "W" * 64
OVERRIDE = "\u202eevil"
"""RIGHT-TO-LEFT OVERRIDE, never closed: everything after it in its paragraph would be drawn
right to left."""


def test_an_unbroken_64_character_name_stays_inside_the_lobby_and_the_replay(site: Site, new_page: Any) -> None:
    game_id, _ = site.lobby.open_game("ticket_to_ride", [LONG, "Bob"])
    for viewport in (PHONE, WIDE):
        lobby = new_page(f"{site.base}/", viewport)
        card = lobby.locator(f'#games > li[data-game-id="{game_id}"]')
        card.wait_for()
        assert LONG in card.text_content()
        inside = card.evaluate("c => [c.scrollWidth, c.clientWidth, c.getBoundingClientRect().right]")
        assert inside[0] <= inside[1] and inside[2] <= viewport["width"], f"the card at {viewport['width']} px: {inside}"
        width = lobby.evaluate("() => document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"the lobby is {width} px wide at {viewport['width']} px"
        replay = new_page(f"{site.base}/games/{game_id}/replay", viewport)
        replay.wait_for_function(f"() => document.querySelector('#seats')?.textContent.includes('{LONG}')")
        width = replay.evaluate("() => document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"the replay page is {width} px wide at {viewport['width']} px"


def test_a_right_to_left_override_in_a_name_reorders_only_that_name(site: Site, new_page: Any) -> None:
    game_id, _ = site.lobby.open_game("ticket_to_ride", [OVERRIDE, "Bob"])
    lobby = new_page(f"{site.base}/", WIDE)
    turn = lobby.locator(f'#games > li[data-game-id="{game_id}"] .turn')
    turn.wait_for()
    # "To move: ‮evil since <time>, Bob since <time>": the page's words after the name are
    # drawn where they are read, to the right of it.
    placed = turn.evaluate("""line => {
        const nodes = [...line.childNodes];
        const name = nodes.find((n) => n.nodeType === Node.TEXT_NODE && n.textContent.includes('evil'));
        const range = document.createRange();
        range.selectNodeContents(name);
        const times = [...line.querySelectorAll('time')].map((t) => t.getBoundingClientRect());
        return {name: range.getBoundingClientRect().right, first: times[0].left, second: times[1].left};
    }""")
    assert placed["name"] <= placed["first"] <= placed["second"], placed
    # The replay page's heading lists the seats: the next seat's name is drawn after the first.
    replay = new_page(f"{site.base}/games/{game_id}/replay", WIDE)
    placed = replay.locator("#game-seats").evaluate("""span => {
        const text = span.firstChild, at = (word) => {
            const range = document.createRange(), start = text.textContent.indexOf(word);
            range.setStart(text, start);
            range.setEnd(text, start + word.length);
            return range.getBoundingClientRect();
        };
        return {evil: at('evil').right, bob: at('Bob').left};
    }""")
    assert placed["evil"] <= placed["bob"], placed
