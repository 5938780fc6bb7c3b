"""The pages a person opens first: the lobby at `/` and the API documentation at
`/api/docs`. Both are static pages over the REST API (the lobby's script calls
`/api/v1/...` like any client); nothing here reads or writes a game itself.

No front-end build and nothing from a CDN: templates, CSS and ES modules under `static/`,
and the OpenAPI renderer vendored under `static/vendor/` (its version and licence beside it).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, render_template

from domain import games as rulesets
from service.api.geometry import geometry
from service.api.guard import Caller, guarded
from service.api.offer import rulesets as rulesets_resource
from service.api.openapi import Documented
from service.pages.examples import move_examples

pages = Blueprint("pages", __name__, static_folder="static", static_url_path="/pages/static",
                  template_folder="templates")

MOVES_PATH = "/api/v1/games/{game_id}/moves"


@pages.get("/")
@guarded(Caller.PUBLIC, limit="read")
def lobby_page() -> Response:
    """The lobby: games by status and title, create, join by invite, "my games"."""
    return _page(render_template("lobby.html"))


@pages.get("/tournaments/<tournament_id>")
@guarded(Caller.PUBLIC, limit="read")
def tournament_page(tournament_id: str) -> Response:
    """A tournament: its standings, a round's tables linking to their replays, live."""
    current_app.extensions["caboose.organiser"].shelf.get(tournament_id)  # 404 for an unknown tournament
    return _page(render_template("tournament.html", tournament_id=tournament_id))


@pages.get("/api/docs")
@guarded(Caller.PUBLIC, limit="read")
def api_docs() -> Response:
    """The OpenAPI document, rendered for people."""
    return _page(render_template("api_docs.html"))


def _page(html: str) -> Response:
    return Response(html, mimetype="text/html", headers={"Cache-Control": "no-cache"})


def install(app: Flask, api: Documented) -> None:
    """Register the pages and the rulesets and map resources, and put an example of every move type of
    every game in the OpenAPI document: on each move type's schema, and as the named
    examples of the move request's body."""
    api.register_blueprint(rulesets_resource)
    api.register_blueprint(geometry)
    app.register_blueprint(pages)
    api.documents(lambda: _examples(api))


def _examples(api: Documented) -> None:
    examples = move_examples({name: rulesets.current(name).move_schemas for name in rulesets.names()})
    schemas = api.spec.components.schemas
    for name, shown in examples.items():
        if name in schemas:
            schemas[name]["example"] = shown["value"]
    body = _request_body(api, MOVES_PATH, "post")
    if body is not None:
        body.setdefault("content", {}).setdefault("application/json", {})["examples"] = examples


def _request_body(api: Documented, path: str, method: str) -> dict[str, Any] | None:
    # apispec keeps no public handle on a registered operation; `to_dict` hands out the
    # paths it holds (not a copy), so this is where an operation is amended after the fact.
    operation = api.spec.to_dict()["paths"].get(path, {}).get(method)
    return None if operation is None else operation.get("requestBody")
