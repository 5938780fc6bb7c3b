"""The replay page's server side, over HTTP without a browser: the page, the views at a run
of versions (which must be the API's `/state?at=N`, version for version and viewpoint for
viewpoint, rewinds included), and each game's static board."""

from __future__ import annotations

import gzip
import json
import random
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from service import referee as desk
from service.simulation import game_seed
from service.viewer import frames
from tests.browser.support import Site, play_random
from tests.usa import CITIES, ROUTES

ROOT = Path(__file__).resolve().parents[2]


def fetch(url: str, token: str | None = None, gzipped: bool = False) -> tuple[int, dict[str, str], Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if gzipped:
        headers["Accept-Encoding"] = "gzip"
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, head, raw = response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        status, head, raw = error.code, dict(error.headers), error.read()
    if head.get("Content-Encoding") == "gzip":
        raw = gzip.decompress(raw)
    text = raw.decode()
    return status, head, (json.loads(text) if "json" in head.get("Content-Type", "") else text)


def views(site: Site, game_id: str, first: int, last: int, token: str | None = None) -> dict[str, Any]:
    status, _, body = fetch(f"{site.base}/games/{game_id}/replay/views?from={first}&to={last}", token)
    assert status == 200, body
    return body


def state_at(site: Site, game_id: str, version: int, token: str | None = None) -> dict[str, Any]:
    status, _, body = fetch(f"{site.base}/api/v1/games/{game_id}/state?at={version}", token)
    assert status == 200, body
    return body["state"]


@pytest.mark.parametrize("who", [None, "ann", "referee"])
def test_views_are_the_api_state_at_each_version(site: Site, who: str | None) -> None:
    game_id = site.games["running"]
    token = site.tokens[who] if who else None
    version = site.app.game(game_id).version
    body = views(site, game_id, 1, version, token)
    assert body["audience"] == {None: "public", "ann": "seat:0", "referee": "referee"}[who]
    assert body["everything_public"] is False
    assert [v["version"] for v in body["views"]] == list(range(1, version + 1))
    for item in body["views"]:
        assert item["state"] == state_at(site, game_id, item["version"], token), item["version"]


def test_views_follow_a_rewind_like_the_api(site: Site) -> None:
    game_id, issued = site.lobby.open_game("ticket_to_ride", ["Ann", "Ben"], seed=game_seed(21, 0))
    play_random(site.app, game_id, 30, random.Random(21))
    before = site.app.game(game_id).version
    desk.rewind(site.app, game_id, "Rita", before - 6, "a misplayed turn")
    play_random(site.app, game_id, 4, random.Random(22))
    version = site.app.game(game_id).version
    body = views(site, game_id, before - 10, version, issued.seat_tokens[1])
    assert len(body["views"]) == version - before + 11
    for item in body["views"]:
        assert item["state"] == state_at(site, game_id, item["version"], issued.seat_tokens[1]), item["version"]
    rewound = next(v for v in body["views"] if v["version"] == before + 1)["state"]
    assert rewound == state_at(site, game_id, before - 6, issued.seat_tokens[1])


def test_a_finished_game_is_shown_whole_to_everyone(site: Site) -> None:
    body = views(site, site.games["finished"], 40, 41)
    assert body["everything_public"] is True
    assert "hand" in body["views"][0]["state"]["seats"][1]


def test_views_are_chunked_gzipped_and_checked(site: Site) -> None:
    game_id = site.games["finished"]
    status, head, body = fetch(f"{site.base}/games/{game_id}/replay/views?from=1&to=5000", gzipped=True)
    assert status == 200 and head["Content-Encoding"] == "gzip"
    assert len(body["views"]) == frames.MAX_SPAN
    for query in ("from=0", "from=x", "from=9&to=3", "to=-1"):
        status, head, problem = fetch(f"{site.base}/games/{game_id}/replay/views?{query}")
        assert status == 400 and head["Content-Type"] == "application/problem+json", query
        assert problem["status"] == 400
    status, _, problem = fetch(f"{site.base}/games/{game_id}/replay/views", token="not-a-token")
    assert status == 401 and problem["status"] == 401
    status, _, _ = fetch(f"{site.base}/games/00000000-0000-0000-0000-000000000000/replay/views")
    assert status == 404
    # Another game's token is refused, as by the API.
    status, _, _ = fetch(f"{site.base}/games/{game_id}/replay/views", token=site.tokens["ann"])
    assert status == 401


def first_board_in(html: str) -> dict[str, tuple[int | None, Any]]:
    """What the page carries for its first board: kind -> (version, body)."""
    found = re.findall(r'<script type="application/json" data-first-board="(\w+)"(?: data-version="(\d+)")?>(.*?)</script>',
                       html, re.S)
    return {kind: (int(version) if version else None, json.loads(body)) for kind, version, body in found}


def test_the_page_names_the_game_and_holds_no_game_data_the_public_may_not_see(site: Site) -> None:
    status, head, html = fetch(site.replay("running"))
    assert status == 200 and head["Content-Type"].startswith("text/html")
    assert 'data-game="ticket_to_ride"' in html and "/replay/static/js/main.js" in html
    # No seat's hand nor tickets: the page holds the public view only.
    assert '"hand"' not in html and "kept_tickets" not in html
    game_id = site.games["running"]
    assert '"hand"' in json.dumps(views(site, game_id, 1, 1, site.tokens["ann"]))  # which a seat's own view has
    status, _, html = fetch(f"{site.base}/games/not-a-game/replay")
    assert status == 404 and "No such game" in html


@pytest.mark.parametrize(("query", "shown"), [("", None), ("?at=3", 3), ("?at=2.6", 3), ("?at=999999", None),
                                              ("?at=0", None), ("?at=-4", 1), ("?at=junk", None), ("?at=nan", None)])
def test_the_page_carries_its_first_board_as_an_anonymous_request_would_get_it(site: Site, query: str,
                                                                                  shown: int | None) -> None:
    game_id = site.games["running"]
    version = site.app.game(game_id).version
    shown = shown or version
    status, _, html = fetch(site.replay("running") + query)
    assert status == 200
    board = first_board_in(html)
    assert set(board) == {"views", "summary", "map"}
    assert board["views"] == (shown, views(site, game_id, shown, shown))
    assert board["views"][1]["audience"] == "public"
    assert board["summary"] == (None, fetch(f"{site.base}/api/v1/games/{game_id}")[2])
    assert board["map"] == (None, fetch(f"{site.base}/replay/maps/ticket_to_ride.json")[2])


def test_a_page_linked_with_a_token_carries_no_public_view(site: Site) -> None:
    # That page shows the token's own view (boot.js asks for it): the public one would be folded for nothing.
    status, _, html = fetch(site.replay("running", f"token={site.tokens['ann']}"))
    assert status == 200
    assert set(first_board_in(html)) == {"summary", "map"}


def test_each_game_has_its_board(site: Site) -> None:
    status, _, ttr = fetch(f"{site.base}/replay/maps/ticket_to_ride.json")
    assert status == 200
    assert set(ttr["cities"]) == set(CITIES) and {r["id"] for r in ttr["routes"]} == set(ROUTES)
    assert all(0 <= c["x"] <= ttr["width"] and 0 <= c["y"] <= ttr["height"] for c in ttr["cities"].values())
    status, _, steam = fetch(f"{site.base}/replay/maps/age_of_steam.json")
    assert status == 200 and len(steam["hexes"]) == 189 and len(steam["cities"]) == 12
    status, _, _ = fetch(f"{site.base}/replay/maps/no_such_game.json")
    assert status == 404


def test_static_files_are_served(site: Site) -> None:
    for path in ("js/main.js", "js/api.js", "renderers/generic.js", "css/replay.css"):
        status, _, _ = fetch(f"{site.base}/replay/static/{path}")
        assert status == 200, path


def test_each_games_renderer_is_served_from_its_own_package(site: Site) -> None:
    for name in ("ticket_to_ride", "age_of_steam", "railway_boom", "toot_toot"):
        request = urllib.request.Request(f"{site.base}/replay/renderers/{name}.js")
        with urllib.request.urlopen(request, timeout=30) as answer:
            body = answer.read().decode()
            assert answer.status == 200 and answer.headers["Content-Type"].startswith("text/javascript"), name
        assert body == (ROOT / "domain" / name / "renderer.js").read_text(encoding="utf-8")
        assert 'from "../' not in body, f"{name}: a relative import would resolve outside /replay/static"
    for missing in ("generic", "no_such_game", "pebbles"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{site.base}/replay/renderers/{missing}.js", timeout=30)
        assert refused.value.code == 404, missing
