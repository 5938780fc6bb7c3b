"""The event list draws only the rows around its window, however long the game: a step lays
out and paints a few dozen rows, while the list scrolls as if every row were drawn. And the
Ticket to Ride panel's cards keep their colours, which come from the page's CSS."""

from __future__ import annotations

import math
from typing import Any

from tests.browser.support import Site

LIST = """() => {
    const list = document.querySelector('#event-list');
    const rows = [...list.children];
    const drawn = rows.filter((li) => li.getBoundingClientRect().height > 0);
    const row = drawn[0].getBoundingClientRect().height;
    const box = list.getBoundingClientRect();
    const inSight = drawn.filter((li) => {
        const r = li.getBoundingClientRect();
        return r.bottom > box.top + 1 && r.top < box.bottom - 1;
    });
    return {rows: rows.length, drawn: drawn.map((li) => Number(li.dataset.version)), row, scrollHeight: list.scrollHeight,
            height: list.clientHeight, inSight: inSight.map((li) => Number(li.dataset.version)),
            current: Number(list.querySelector('li.current').dataset.version)};
}"""
# A row's place from the top of the list's scrolled content.
ROW_TOP = """(li) => {
    const list = li.parentElement;
    return li.getBoundingClientRect().top - list.getBoundingClientRect().top - list.clientTop + list.scrollTop;
}"""


def margin(seen: dict[str, Any]) -> int:
    """The rows drawn beyond each edge of the list's window: half the window and a row."""
    return max(5, math.ceil(seen["height"] / seen["row"] / 2) + 1)


def test_the_event_list_draws_the_rows_around_its_window_only(site: Site, open_page: Any) -> None:
    last = site.app.game(site.games["finished"]).version
    watched = open_page(site.replay("finished"))
    page = watched.ready()
    for version in (last, last // 2, 1):
        watched.go(version)
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        seen = page.evaluate(LIST)
        assert seen["rows"] == last and seen["current"] == version
        # The rows in sight and a margin on either side (half the window and a row, and the
        # rows cut at each edge); not the whole game.
        assert version in seen["inSight"], seen
        assert len(seen["drawn"]) <= len(seen["inSight"]) + 2 * margin(seen) + 2, seen
        assert seen["drawn"] == list(range(seen["drawn"][0], seen["drawn"][-1] + 1)), seen
        # The list scrolls over every row, each where it would be were all drawn.
        assert abs(seen["scrollHeight"] - last * seen["row"]) <= 1, seen
        top = page.eval_on_selector(f'#event-list li[data-version="{version}"]', ROW_TOP)
        assert abs(top - (version - 1) * seen["row"]) <= 1
    # A row brought into sight by scrolling is drawn there.
    page.eval_on_selector("#event-list", "(list) => { list.scrollTop = list.scrollHeight / 3; }")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    seen = page.evaluate(LIST)
    assert len(seen["inSight"]) >= seen["height"] // seen["row"] - 1, seen
    assert not watched.errors, watched.errors


def test_the_train_cards_keep_their_colours(site: Site, open_page: Any) -> None:
    watched = open_page(site.replay("finished"))
    page = watched.ready()
    colours = page.eval_on_selector_all("#table .market .chip[data-card], #seats .hand .chip[data-card]",
                                        "(chips) => chips.map((c) => [c.dataset.card, getComputedStyle(c).backgroundColor, "
                                        "getComputedStyle(c).backgroundImage])")
    want = {"red": "rgb(216, 52, 44)", "blue": "rgb(47, 111, 206)", "green": "rgb(58, 154, 58)", "yellow": "rgb(240, 196, 25)",
            "black": "rgb(34, 34, 34)", "white": "rgb(244, 244, 244)", "orange": "rgb(240, 138, 36)", "pink": "rgb(232, 123, 181)"}
    assert len({card for card, _, _ in colours} & set(want)) >= 3, colours
    for card, background, image in colours:
        if card == "locomotive":
            assert "linear-gradient" in image, (card, image)
        elif card in want:
            assert background == want[card], (card, background)
    assert not watched.errors, watched.errors


# A step far down the list: the page scrolls the list in the next frame, and the reader
# scrolls it elsewhere in that same frame, right after the page (a wheel turned while
# stepping). The browser sends one scroll event for both, in the frame after. The panels
# above the list are held at their height, so the list keeps its size (a list that changes
# size brings the current row back into sight, by design).
SCROLLED_IN_THE_PAGES_FRAME = """async ({far, near}) => {
    for (const id of ['seats', 'table', 'current-event']) {
        const panel = document.getElementById(id);
        panel.style.height = `${panel.getBoundingClientRect().height}px`;
        panel.style.overflow = 'hidden';
    }
    const list = document.querySelector('#event-list');
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    await frame();
    const row = list.querySelector('li.near').getBoundingClientRect().height;
    await replay.go(far);  // drawn at once (its view is held); the list is scrolled in the next frame,
    await frame();         // just before this callback
    list.scrollTop = (near - 1) * row;
    for (let i = 0; i < 4; i++) await frame();
    return list.scrollTop / row;
}"""


def test_a_scroll_in_the_frame_of_the_pages_own_scroll_is_followed(site: Site, open_page: Any) -> None:
    last = site.app.game(site.games["finished"]).version
    watched = open_page(site.replay("finished", "at=1"))
    page = watched.ready()
    for version in (last - 5, 1):  # the views at both ends held, the list at its top
        watched.go(version)
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    rows_scrolled = page.evaluate(SCROLLED_IN_THE_PAGES_FRAME, {"far": last - 5, "near": 50})
    assert round(rows_scrolled) == 49, "the reader's scroll was undone"
    seen = page.evaluate(LIST)
    # The rows in sight where the reader scrolled are drawn, not left out of the window.
    assert 50 in seen["inSight"], seen
    assert len(seen["inSight"]) >= seen["height"] // seen["row"] - 1, seen
    assert not watched.errors, watched.errors


# Steps forward one at a time, looking at the list in the frame each step is drawn in (after
# the page's own scroll, when it makes one) and, after a scroll, two frames later.
STEPPED = """async ({start, steps}) => {
    const look = (""" + LIST.strip() + """);
    const list = document.querySelector('#event-list');
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    await replay.go(start);
    await frame(); await frame();
    const seen = [];
    for (let v = start + 1; v <= start + steps; v++) {
        const before = list.scrollTop;
        await replay.go(v);
        await frame();  // after the page's scroll, made in this frame's callbacks before this one
        const scrolled = list.scrollTop !== before;
        const now = look();
        let later = null;
        if (scrolled) { await frame(); await frame(); later = look(); }
        seen.push({v, scrolled, now, later});
    }
    return seen;
}"""


def test_a_step_that_scrolls_the_list_shows_drawn_rows_and_draws_the_margin_after(site: Site, open_page: Any) -> None:
    last = site.app.game(site.games["finished"]).version
    watched = open_page(site.replay("finished", "at=1"))
    page = watched.ready()
    seen = page.evaluate(STEPPED, {"start": last // 3, "steps": 40})
    scrolls = [s for s in seen if s["scrolled"]]
    assert scrolls, "forty steps never scrolled the list"
    for step in seen:
        now = step["now"]
        # No row in sight is blank in the step's own frame, and the current row is among them.
        assert now["current"] == step["v"] and step["v"] in now["inSight"], step
        assert len(now["inSight"]) >= now["height"] // now["row"] - 1, step
    for step in scrolls:
        later = step["later"]
        # In the step's frame the rows in sight were drawn already (the margin held them); a
        # frame after the scroll, the margin around the new window is drawn on both sides.
        assert step["now"]["drawn"] != later["drawn"], step
        assert later["drawn"][0] <= max(1, later["inSight"][0] - margin(later)), step
        assert later["drawn"][-1] >= min(last, later["inSight"][-1] + margin(later)), step
    assert not watched.errors, watched.errors
