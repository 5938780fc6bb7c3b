"""A game played at a table in the replay viewer (real Chromium): the page marks it as
transcribed, the event list marks each entered outcome and who entered it, and shows moves
and outcomes as written at the table; a seat's secret draw stays hidden from the public."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from werkzeug.serving import make_server

from service.api import create_app
from service.application import Caboose
from service.commands import EnterOutcomes
from service.lobby import Lobby
from service.settings import RateLimits, Settings
from tests.support.http import serve_on_thread


@pytest.fixture
def table_site(tmp_path: Any) -> Iterator[tuple[str, str, str]]:
    app = Caboose(Settings(db=f"sqlite:///{tmp_path}/t.sqlite", rate_limits=RateLimits.every("1000000/minute")))
    lobby = Lobby(app)
    game_id, issued = lobby.open_game("lucky", ["Ann", "Ben"], {"goal": 20}, observed={"outcomes": [1]})
    app.play(game_id, 1, {"type": "roll"})
    app.execute(EnterOutcomes(game_id, [[3, 4]], "referee:Rita", None))
    app.play(game_id, 0, {"type": "draw"}, outcomes=[["black"]])
    app.play(game_id, 1, {"type": "roll"})
    server = make_server("127.0.0.1", 0, create_app(app, lobby), threaded=True)
    serve_on_thread(server)
    try:
        yield f"http://127.0.0.1:{server.server_port}", game_id, issued.referee_token
    finally:
        server.shutdown()


def rows(page: Any) -> list[str]:
    page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=30_000)
    return page.eval_on_selector_all("#event-list li", "(items) => items.map((li) => li.textContent)")


def test_a_transcribed_game_is_marked_with_its_entered_outcomes(table_site: tuple[str, str, str], open_page: Any) -> None:
    base, game_id, _ = table_site
    watched = open_page(f"{base}/games/{game_id}/replay")
    listed = rows(watched.page)
    assert watched.page.inner_text("#transcribed") == "transcribed"
    assert any("played at a table" in row for row in listed)
    assert any("Ben: roll" in row and "waits for the race dice: 2 dice" in row for row in listed)
    assert any("3 4" in row and "entered by Referee Rita" in row for row in listed)
    # Ann's own draw: the public sees that a chip was entered, not which.
    drawn = [row for row in listed if "a chip from the bag" in row]
    assert drawn and all("black" not in row for row in drawn) and "(secret)" in drawn[0]
    assert not watched.errors


def test_the_referee_sees_the_secret_draw_in_notation(table_site: tuple[str, str, str], open_page: Any) -> None:
    base, game_id, referee = table_site
    watched = open_page(f"{base}/games/{game_id}/replay?token={referee}")
    listed = rows(watched.page)
    assert any(row.count("black") >= 2 and "entered by Ann" in row for row in listed)
    assert any("Ann: draw" in row for row in listed)
    assert not watched.errors


def test_a_seeded_game_has_no_badge(tmp_path: Any, open_page: Any) -> None:
    app = Caboose(Settings(db=f"sqlite:///{tmp_path}/s.sqlite", rate_limits=RateLimits.every("1000000/minute")))
    game_id = app.create_game("lucky", ["Ann", "Ben"])
    server = make_server("127.0.0.1", 0, create_app(app, Lobby(app)), threaded=True)
    serve_on_thread(server)
    try:
        watched = open_page(f"http://127.0.0.1:{server.server_port}/games/{game_id}/replay")
        rows(watched.page)
        assert watched.page.query_selector("#transcribed") is None
    finally:
        server.shutdown()
