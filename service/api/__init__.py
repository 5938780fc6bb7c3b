"""The REST API (v1): an app factory and one blueprint per resource."""

from __future__ import annotations

from flask import Flask

from service.api.games import games
from service.api.problems import register_problem_handlers
from service.application import Caboose

MAX_BODY_BYTES = 256 * 1024


def create_app(caboose: Caboose | None = None) -> Flask:
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.extensions["caboose"] = caboose or Caboose()
    app.register_blueprint(games, url_prefix="/api/v1/games")
    register_problem_handlers(app)
    return app
