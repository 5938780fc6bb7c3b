"""The replay viewer: `GET /games/{id}/replay`, a page that steps through any game with its
board drawn as SVG, the events in words and the VP/income charts.

No front-end build: plain ES modules, CSS and JSON under `static/`, served by this
blueprint. The page reads the game through the REST API (`/api/v1/...`, with the same
tokens and redaction) and through two helpers of its own here: the views at a run of
versions (`frames.py`, one request per chunk instead of one per step) and each game's
static board (`maps.py`).
"""

from __future__ import annotations

import gzip
import json
from importlib import resources
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request, send_file
from werkzeug.exceptions import BadRequest, NotFound

from domain import games
from domain.core.events import PUBLIC, Audience
from service.aggregate import Game
from service.api.guard import Caller, guarded
from service.application import Caboose
from service.errors import GameNotFound, Withheld
from service.viewer import frames
from service.viewer.maps import board_map, has_board

viewer = Blueprint("viewer", __name__, static_folder="static", static_url_path="/replay/static",
                   template_folder="templates")

RENDERER = "renderer.js"
"""The file in a game's own package that draws its board on the replay page, if it has one
(`static/renderers/README.md`); a game without one is shown by `static/renderers/generic.js`."""

DEFAULT_SPAN = 60
"""Views sent when the page does not say which: enough around the opening position to step
a little while the next chunk is on its way."""


def caboose() -> Caboose:
    return current_app.extensions["caboose"]


@viewer.get("/games/<game_id>/replay")
@guarded(Caller.PUBLIC, limit="read")
def replay_page(game_id: str) -> Response | tuple[str, int]:
    """The page, with what its first board needs in it: the public view at the version
    shown, the game's summary and its board map (`first_board`), each what an anonymous
    request for it would answer. A page with a seat's or the referee's token fetches that
    viewpoint's view instead (boot.js); nothing in the page is more than the public sees."""
    try:
        game = caboose().game(game_id)
    except GameNotFound:
        return render_template("replay_missing.html", game_id=game_id), 404
    has_renderer = renderer_file(game.ruleset) is not None
    html = render_template("replay.html", game_id=game_id, game=game.ruleset, version=game.version,
                           title=game.decider.title, own_title=game.decider.own_title or game.decider.title,
                           has_renderer=has_renderer, has_map=has_board(game.ruleset),
                           transcribed=game.is_table, first_board=first_board(game_id, game))
    return _encoded(html.encode(), "text/html", {"Cache-Control": "no-store"})


def first_board(game_id: str, game: Game) -> list[tuple[str, int | None, Any]]:
    """`(kind, version, body)` for each answer the page's first board would otherwise wait
    a round trip for: they arrive with the page, and the server folds the one view it would
    have folded for the request anyway."""
    boards: list[tuple[str, int | None, Any]] = []
    try:
        boards.append(("summary", None, caboose().summary(game_id, game, PUBLIC)))
    except Withheld:
        pass  # the public may not see this game yet: the page asks with its token, if it has one
    else:
        if "token" not in request.args:  # a link with a token shows that viewpoint's view, not this one
            shown = shown_version(game.version)
            boards.insert(0, ("views", shown, views_body(game_id, game, PUBLIC, shown, shown)))
    board = board_map(game.ruleset)
    if board is not None:
        boards.append(("map", None, board))
    return boards


def shown_version(last: int) -> int:
    """The version the page opens at, as boot.js reads it: `?at=N` within the game, else the
    last."""
    try:
        asked = round(float(request.args.get("at") or 0))
    except (ValueError, OverflowError):
        asked = 0
    return min(last, max(1, asked)) if asked else last


def views_body(game_id: str, game: Game, audience: Audience, first: int, last: int) -> dict[str, Any]:
    return {"game_id": game_id, "game": game.ruleset, "version": game.version, "audience": audience.label,
            "everything_public": caboose().shown_whole(game),
            "views": frames.views(caboose(), game_id, audience, first, last, now=game)}


@viewer.get("/games/<game_id>/replay/views")
@guarded(Caller.PUBLIC, limit="read")
def replay_views(game_id: str, audience: Audience) -> Response:
    """The game's view at versions `from`..`to` (at most `frames.MAX_SPAN`), as the caller's
    token may see it: `{game_id, game, version, audience, everything_public, views:
    [{version, state}]}`. Without `to`, up to the current version."""
    game = caboose().game(game_id)
    last = _int_arg("to", game.version)
    first = _int_arg("from", max(1, last - DEFAULT_SPAN + 1))
    if first > last:
        raise BadRequest("`from` must not be after `to`.")
    body = views_body(game_id, game, audience, first, min(last, first + frames.MAX_SPAN - 1))
    return _json(body, {"Cache-Control": "private, no-store", "ETag": f'"{game.version}"'})


@viewer.get("/games/<game_id>/replay/notation")
@guarded(Caller.PUBLIC, limit="read")
def replay_notation(game_id: str, audience: Audience) -> Response:
    """Each move in the game's notation and each outcome entered at a table as typed, by the
    version it is recorded at: `{game_id, version, lines: {"12": "Ann: roll", ...}}`, for the
    event list. A command with anything the caller may not see has no line (its events are
    worded from what they show), so a line never tells more than the events do."""
    app = caboose()
    game = app.game(game_id)
    seen = app.seen_as(game_id, audience, game)
    lines = {str(v): text for v, text in app.notation_lines(game_id, seen, loaded=game).items()}
    return _json({"game_id": game_id, "version": game.version, "lines": lines}, {"Cache-Control": "private, no-store"})


@viewer.get("/replay/maps/<game>.json")
@guarded(Caller.PUBLIC, limit="read")
def replay_map(game: str) -> Response:
    """A game's static board (cities and routes, hexes and terrain)."""
    board = board_map(game)
    if board is None:
        raise NotFound(f"No board data for {game!r}; the page falls back to its generic renderer.")
    return _json(board, {"Cache-Control": "public, max-age=3600"})


@viewer.get("/replay/renderers/<game>.js")
def replay_renderer(game: str) -> Response:
    """The ES module that draws a game's board, from the game's own package."""
    path = renderer_file(game)
    if path is None:
        raise NotFound(f"No renderer for {game!r}; the page falls back to its generic renderer.")
    return send_file(path, mimetype="text/javascript")


def renderer_file(game: str) -> Path | None:
    """`game`'s renderer (`RENDERER` in its package), or None for a game without one."""
    if game not in games.names():
        return None
    package = games.current_rules(game).module.rpartition(".")[0]
    path = Path(str(resources.files(package).joinpath(RENDERER)))
    return path if path.is_file() else None


def renderer_files() -> dict[str, Path]:
    """Each game's renderer by the URL path it is served under (for `service/static_files.py`)."""
    return {f"/replay/renderers/{name}.js": path for name in games.names() if (path := renderer_file(name))}


def _int_arg(name: str, default: int) -> int:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    if not raw.isdigit() or not 1 <= int(raw) <= 2**31 - 1:
        raise BadRequest(f"`{name}` must be a version number (1 or more).")
    return int(raw)


def _json(body: Any, headers: dict[str, str]) -> Response:
    """JSON, gzipped when the client accepts it: successive views repeat most of their
    content, so a chunk shrinks about twentyfold (the API's own responses are not ours)."""
    return _encoded(json.dumps(body, separators=(",", ":")).encode(), "application/json", headers)


def _encoded(data: bytes, mimetype: str, headers: dict[str, str]) -> Response:
    out_headers = {**headers, "Vary": "Accept-Encoding"}
    if len(data) > 1024 and "gzip" in request.headers.get("Accept-Encoding", ""):
        data = gzip.compress(data, compresslevel=5)
        out_headers["Content-Encoding"] = "gzip"
    return Response(data, mimetype=mimetype, headers=out_headers)
