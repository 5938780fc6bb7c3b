"""The event list draws only the rows around its window, however long the game: a step lays
out and paints a few dozen rows, while the list scrolls as if every row were drawn. And the
Ticket to Ride panel's cards keep their colours, which come from the page's CSS."""

from __future__ import annotations

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


def test_the_event_list_draws_the_rows_around_its_window_only(site: Site, open_page: Any) -> None:
    last = site.app.game(site.games["finished"]).version
    watched = open_page(site.replay("finished"))
    page = watched.ready()
    for version in (last, last // 2, 1):
        watched.go(version)
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        seen = page.evaluate(LIST)
        assert seen["rows"] == last and seen["current"] == version
        # The rows in sight and a few on either side; not the whole game.
        assert version in seen["inSight"], seen
        assert len(seen["drawn"]) < len(seen["inSight"]) + 15, seen
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
