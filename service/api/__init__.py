"""The REST API (v1): an app factory and one blueprint per resource; the OpenAPI document
is generated from the marshmallow schemas (flask-smorest) at /api/v1/openapi.json."""

from __future__ import annotations

import contextlib
import json

from flask import Flask, request
from flask_smorest import Api
from flask_smorest.arguments import ArgumentsMixin
from webargs.flaskparser import is_json_request

from domain import games as rulesets
from service import i18n, pages
from service.api import bodies, client_address, guard
from service.api.encoding import FastJSON
from service.api.games import games
from service.api.health import health
from service.api.log import log
from service.api.notifications import notifications
from service.api.outcomes import outcomes
from service.api.problems import register_problem_handlers, require_json_bodies
from service.api.projections import projections
from service.api.referee import referee
from service.api.schemas import MoveSchema, move_body_schemas
from service.api.stream import stream
from service.api.tournaments import ratings_api, tournaments
from service.application import Caboose
from service.bootstrap import Services, bootstrap
from service.input_limits import check, loads
from service.lobby import Lobby
from service.notify.notifier import Notifier
from service.settings import DatabaseTimeouts
from service.static_files import StaticFiles, static_folders
from service.tournament.views import Standings
from service.viewer import viewer
from service.waits import RequestBudget

# A request that does not validate is malformed (400), not unprocessable (webargs' 422):
# 422 is kept for moves the rules refuse.
ArgumentsMixin.ARGUMENTS_PARSER.DEFAULT_VALIDATION_STATUS = 400


def check_input() -> None:
    """Every JSON body and query string is held to the input limits before any view reads
    it. The body parsed here is parsed again by the view's schema: a move is a few hundred
    bytes, and one check for every route beats one per parser."""
    check(request.args.to_dict(flat=False))
    body = bodies.whole() if is_json_request(request) else b""
    if body.strip():
        # Text that is not JSON at all is left to the view's parser, which says so.
        with contextlib.suppress(json.JSONDecodeError, UnicodeDecodeError):
            loads(body)


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
    app.extensions["caboose.standings"] = Standings()
    api = Api(app, spec_kwargs={"servers": [{"url": "/"}]})
    api.spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    envelope = {name: api.ma_plugin.converter.field2property(field)
                for name, field in MoveSchema().fields.items() if name != "type"}
    moves = {name: rulesets.current(name).move_schemas for name in rulesets.names()}
    for component, schema in move_body_schemas(moves, envelope).items():
        api.spec.components.schema(component, schema)
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
    app.before_request(check_input)
    register_problem_handlers(app)
    require_json_bodies(app)
    bodies.install(app, settings.max_body_bytes)
    guard.install(app, settings.rate_limits)
    # Every request's waits on the database end together (503 once spent): service/waits.py.
    app.wsgi_app = RequestBudget(app.wsgi_app, DatabaseTimeouts.from_env().request)  # type: ignore[method-assign]
    app.wsgi_app = StaticFiles(app.wsgi_app, static_folders(app), guard.SECURITY_HEADERS)  # type: ignore[method-assign]
    # Behind the deployment's proxies every request comes from a proxy: the client is found
    # in X-Forwarded-For, from the proxies named as trusted only.
    app.wsgi_app = client_address.behind(app.wsgi_app, settings.trusted_proxies)  # type: ignore[method-assign]
    return app
