"""The REST API (v1): an app factory and one blueprint per resource; the OpenAPI document
is generated from the marshmallow schemas (flask-smorest) at /api/v1/openapi.json."""

from __future__ import annotations

import re

from flask import Flask
from flask_smorest import Api
from flask_smorest.arguments import ArgumentsMixin

from domain import games as rulesets
from domain.core.moves import portable
from service import i18n, pages
from service.api import bodies, client_address, guard
from service.api.encoding import FastJSON
from service.api.games import games
from service.api.geometry import board_component, board_schemas, map_response
from service.api.health import health
from service.api.log import log
from service.api.notifications import notifications
from service.api.openapi import Documented
from service.api.outcomes import outcomes
from service.api.problems import register_problem_handlers
from service.api.projections import projections
from service.api.referee import referee
from service.api.schemas import MoveSchema, move_body_schemas
from service.api.stream import stream
from service.api.tournaments import ratings_api, tournaments
from service.application import Caboose
from service.bootstrap import Services, bootstrap
from service.lobby import Lobby
from service.notify.notifier import Notifier
from service.settings import DatabaseTimeouts
from service.static_files import StaticFiles, static_folders
from service.tournament.views import Standings
from service.viewer import renderer_files, viewer
from service.waits import RequestBudget

# A request that does not validate is malformed (400), not unprocessable (webargs' 422):
# 422 is kept for moves the rules refuse.
ArgumentsMixin.ARGUMENTS_PARSER.DEFAULT_VALIDATION_STATUS = 400


ALTERNATIVES = {("/api/v1/games/{game_id}/audit", "get"): "The audit report as text (`format=text`).",
                ("/api/v1/games/{game_id}/export", "get"): "The score sheet (`format=text`)."}
"""Answers that come in a second form, as plain text, beside the one their schema gives."""


def document(app: Flask, api: Api) -> None:
    """What the OpenAPI document says beyond the views' own declarations, for programs that
    generate a client from it: an `operationId` for every operation (its view's name), each
    legal move typed as the move body it is, a state as its game's view where the game
    publishes that view's schema, and the plain-text forms of some answers."""
    paths = api.spec.to_dict()["paths"]  # apispec hands out the paths it holds: amended in place
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        for method in rule.methods or ():
            operation = paths.get(path, {}).get(method.lower())
            if operation is not None:
                operation.setdefault("operationId", rule.endpoint.rsplit(".", 1)[-1])
    for (path, method), description in ALTERNATIVES.items():
        answer = paths[path][method]["responses"]["200"]
        answer.setdefault("content", {})["text/plain"] = {"schema": {"type": "string", "description": description}}
    schemas = api.spec.components.schemas
    schemas["LegalMoves"]["properties"]["moves"]["items"] = {"$ref": "#/components/schemas/Move"}
    # A state is the view of its game: typed where the game publishes its view's schema.
    views = []
    for name in sorted(rulesets.names()):
        schema = rulesets.current(name).view_schema
        if schema is not None:
            api.spec.components.schema(f"{name}.view", schema)
            views.append({"$ref": f"#/components/schemas/{name}.view"})
    # A board is its game's: typed by the schema each game declares for it.
    boards = board_schemas()
    for name, schema in boards.items():
        api.spec.components.schema(board_component(name), schema)
    paths["/api/v1/games/{game_id}/map"]["get"]["responses"]["200"] = map_response(boards)
    for holder in ("State", "Now"):
        state = schemas[holder]["properties"]["state"]
        schemas[holder]["properties"]["state"] = {"description": state["description"],
                                                  "anyOf": [*views, {"type": "object", "additionalProperties": {}}]}


def declarations() -> list[object]:
    """What the document reads of the games beyond the views: each game's move bodies and
    view, and the boards (`Documented`: apps whose games declare the same share a document)."""
    return [{name: [rulesets.current(name).move_schemas, rulesets.current(name).view_schema]
             for name in sorted(rulesets.names())}, board_schemas()]


def move_bodies(api: Api) -> None:
    """The bearer scheme, and a move body's schema for every move type of every game."""
    api.spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    envelope = {name: api.ma_plugin.converter.field2property(field)
                for name, field in MoveSchema().fields.items() if name != "type"}
    # Published for every pack of a game: a map's own names are its `…/map`'s, not the default pack's.
    moves = {name: {kind: portable(schema) for kind, schema in rulesets.current(name).move_schemas.items()}
             for name in rulesets.names()}
    for component, schema in move_body_schemas(moves, envelope).items():
        api.spec.components.schema(component, schema)


def create_app(caboose: Caboose | None = None, lobby: Lobby | None = None, notifier: Notifier | None = None,
               services: Services | None = None) -> Flask:
    """The REST API over a deployment's parts (`bootstrap`; from the environment when
    none are given)."""
    services = services or bootstrap(caboose=caboose, lobby=lobby, notifier=notifier)
    caboose, settings = services.caboose, services.settings
    app = Flask(__name__)
    app.json = FastJSON(app)
    app.config.update(
        API_TITLE="Caboose", API_VERSION="v1", OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api/v1", OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
    )
    app.extensions["caboose"] = caboose
    app.extensions["caboose.lobby"] = services.lobby
    app.extensions["caboose.notifier"] = services.notifier
    app.extensions["caboose.services"] = services
    app.extensions["caboose.organiser"] = services.organiser
    app.extensions["caboose.ratings"] = services.ratings
    app.extensions["caboose.standings"] = Standings(services.caboose)
    # The document is written on its first request (service/api/openapi.py), by these steps in order.
    api = Documented(app, declarations, spec_kwargs={"servers": [{"url": "/"}]})
    api.documents(lambda: move_bodies(api))
    api.register_blueprint(games)
    api.register_blueprint(health)
    api.register_blueprint(log)
    api.register_blueprint(notifications)
    api.register_blueprint(outcomes)
    api.register_blueprint(projections)
    api.register_blueprint(referee)
    api.register_blueprint(stream)
    api.register_blueprint(tournaments)
    api.register_blueprint(ratings_api)
    app.register_blueprint(viewer)
    i18n.install(app)
    pages.install(app, api)
    api.documents(lambda: document(app, api))
    bodies.install(app, settings.max_body_bytes)
    register_problem_handlers(app)
    guard.install(app, settings.rate_limits)
    # Every request's waits on the database end together (503 once spent): service/waits.py.
    app.wsgi_app = RequestBudget(app.wsgi_app, DatabaseTimeouts.from_env().request)  # type: ignore[method-assign]
    app.wsgi_app = StaticFiles(app.wsgi_app, static_folders(app), guard.SECURITY_HEADERS,  # type: ignore[method-assign]
                              renderer_files())
    # Behind the deployment's proxies every request comes from a proxy: the client is found
    # in X-Forwarded-For, from the proxies named as trusted only.
    app.wsgi_app = client_address.behind(app.wsgi_app, settings.trusted_proxies)  # type: ignore[method-assign]
    return app
