"""`/api/docs` in headless Chromium: the vendored renderer draws the OpenAPI document under
the site's CSP (no inline code, nothing from another site), and the move request offers an
example per move type of every game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from domain import games
from tests.browser.support import Site, shot


def test_api_docs_render_with_an_example_per_move_type(site: Site, open_page: Any, artifacts: Path) -> None:
    watched = open_page(f"{site.base}/api/docs")
    page = watched.ready()
    page.wait_for_selector("#swagger-ui .opblock")
    moves = page.locator('.opblock-post:has([data-path="/api/v1/games/{game_id}/moves"])')
    assert moves.count() == 1
    moves.locator(".opblock-summary").click()
    picker = moves.locator(".examples-select select")
    picker.wait_for()
    offered = set(picker.locator("option").all_text_contents())
    for name in games.names():
        for move_type in games.current(name).move_schemas:
            assert f"{name}: {move_type}" in offered, (name, move_type, offered)
    picker.select_option(label="ticket_to_ride: claim_route")
    page.wait_for_function("() => document.querySelector('.opblock-post .body-param__example, .opblock-post .microlight')"
                           "?.textContent.includes('claim_route')")
    outside = [r.url for r in watched.responses if not r.url.startswith(site.base)]
    assert not outside, outside
    assert not watched.errors, watched.errors
    shot(page, artifacts, "api-docs-1400")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, artifacts, "api-docs-390")
