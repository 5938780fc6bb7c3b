"""The API app calls its views and hooks as plain functions (`SyncFlask`): so it refuses, when
made, an `async def` view or hook anywhere a decorator may have wrapped it."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from service.api import SyncFlask, create_app, refuse_coroutines, registered
from service.application import Caboose
from service.settings import Settings


@pytest.fixture(scope="module")
def app() -> SyncFlask:
    made = create_app(Caboose(Settings(db="memory")))
    assert isinstance(made, SyncFlask)
    return made


def test_every_view_and_hook_of_the_app_is_looked_at(app: SyncFlask) -> None:
    seen = set(registered(app))
    assert app.view_functions["games.post_move"] in seen
    assert all(hook in seen for hooks in app.before_request_funcs.values() for hook in hooks)
    assert all(hook in seen for hooks in app.after_request_funcs.values() for hook in hooks)
    # The view under its guard and flask-smorest's wrappers.
    assert any(getattr(func, "__name__", "") == "post_move" and not hasattr(func, "__wrapped__") for func in seen)


def test_an_async_view_under_decorators_is_refused() -> None:
    app = SyncFlask(__name__)

    async def view() -> str:
        return "never awaited"

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return view(*args, **kwargs)

    app.add_url_rule("/x", "x", wrapper)
    with pytest.raises(RuntimeError, match="view is a coroutine function"):
        refuse_coroutines(app)


def test_an_async_hook_is_refused() -> None:
    app = SyncFlask(__name__)

    @app.after_request
    async def late(response: Any) -> Any:
        return response

    with pytest.raises(RuntimeError, match="late is a coroutine function"):
        refuse_coroutines(app)


def test_plain_functions_pass() -> None:
    app = SyncFlask(__name__)
    app.add_url_rule("/x", "x", lambda: "ok")
    refuse_coroutines(app)
    assert app.test_client().get("/x").get_data(as_text=True) == "ok"
