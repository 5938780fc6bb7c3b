"""The OpenAPI document, written when it is first asked for and then kept, as its text.

flask-smorest documents each view as its blueprint is registered, deep-copying every view's
declarations (marshmallow schemas included): three quarters of what making an app cost, paid
by every app although most never serve their document (each test's app, each worker). Here the
views are registered at once and documented later: the first request for `openapi.json` writes
the document, in the order it was always written, and keeps its text. A later app of the same
process whose games declare the same moves, views and boards serves that same text, written
once; the text is a string, so nothing an app or a request could change is shared."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import flask
import orjson
from flask_smorest import Api, Blueprint

Step = Callable[[], None]

_WRITTEN: dict[bytes, str] = {}
"""The document's text by what it was written from (`Documented.inputs`), for this process."""
_WRITING = threading.Lock()


class Documented(Api):
    """flask-smorest's `Api`, its document's steps kept in order and run on the first request
    for it. `inputs` says what the steps read beyond the views themselves (the games'
    declarations): two apps with the same inputs have the same document."""

    def __init__(self, app: flask.Flask, inputs: Callable[[], Any], **options: Any) -> None:
        self._steps: list[Step] = []
        self._inputs = inputs
        self._text: str | None = None
        super().__init__(app, **options)

    def documents(self, step: Step) -> None:
        """Add a step to the document, run after those added before it."""
        self._steps.append(step)

    def register_blueprint(self, blp: Blueprint, *, parameters: Any = None, **options: Any) -> None:
        # What `Api.register_blueprint` does, its views' documentation made a step.
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)

        def views() -> None:
            blp.register_views_in_doc(self, self._app, self.spec, name=name, parameters=parameters)
            self.spec.tag({"name": name, "description": blp.description})

        self.documents(views)

    def document_text(self) -> str:
        """The document as served (`/api/v1/openapi.json`)."""
        if self._text is None:
            key = orjson.dumps(self._inputs(), option=orjson.OPT_SORT_KEYS, default=repr)
            with _WRITING:
                if key not in _WRITTEN:
                    for step in self._steps:
                        step()
                    _WRITTEN[key] = flask.json.dumps(self.spec.to_dict(), indent=2, sort_keys=False)
                self._text = _WRITTEN[key]
        return self._text

    def _openapi_json(self) -> flask.Response:
        return flask.current_app.response_class(self.document_text(), mimetype="application/json")
