"""The REST API (v1): an app factory and one blueprint per resource; the OpenAPI document
is generated from the marshmallow schemas (flask-smorest) at /api/v1/openapi.json."""

from __future__ import annotations

from flask import Flask
from flask_smorest import Api
from flask_smorest.arguments import ArgumentsMixin

from domain import games as rulesets
from service.api import guard
from service.api.games import games
from service.api.notifications import notifications
from service.api.problems import register_problem_handlers, require_json_bodies
from service.api.projections import projections
from service.api.referee import referee
from service.application import Caboose
from service.lobby import Lobby
from service.notify.notifier import Notifier
from service.settings import Settings
from service.viewer import viewer

# A request that does not validate is malformed (400), not unprocessable (webargs' 422):
# 422 is kept for moves the rules refuse.
ArgumentsMixin.ARGUMENTS_PARSER.DEFAULT_VALIDATION_STATUS = 400


def create_app(caboose: Caboose | None = None, lobby: Lobby | None = None, notifier: Notifier | None = None) -> Flask:
    caboose = caboose or Caboose(Settings.from_env())
    settings = caboose.settings
    app = Flask(__name__)
    app.config.update(
        API_TITLE="Caboose", API_VERSION="v1", OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api/v1", OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
    )
    app.extensions["caboose"] = caboose
    lobby = lobby or Lobby(caboose)
    app.extensions["caboose.lobby"] = lobby
    app.extensions["caboose.notifier"] = notifier or Notifier(caboose, lobby.seating.engine, settings.smtp)
    api = Api(app, spec_kwargs={"servers": [{"url": "/"}]})
    api.spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for name in rulesets.names():
        for move_type, schema in getattr(rulesets.current(name), "move_schemas", {}).items():
            api.spec.components.schema(f"{name}.{move_type}", schema)
    api.register_blueprint(games)
    api.register_blueprint(notifications)
    api.register_blueprint(projections)
    api.register_blueprint(referee)
    app.register_blueprint(viewer)
    register_problem_handlers(app)
    require_json_bodies(app)
    guard.install(app, settings.rate_limits)
    return app
