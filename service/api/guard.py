"""Every route declares who may call it and how often: `@guarded(Caller.PLAYER, limit="move")`.

The declaration is the one place a route's access is decided. For each request, in this
order: the request limit of the route's class (Flask-Limiter; one count per client and
class, per game for the per-game classes, kept where `RateLimits.storage` says so that it
holds across processes and hosts); then the game id is made canonical and the caller's token
resolved to that game's audience, which the view receives as its `audience` argument when it
has one. `install` refuses to build an app with a route that declares nothing, so a new route
cannot forget it.
"""

from __future__ import annotations

import hashlib
import inspect
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, Literal, TypeVar, cast
from uuid import UUID

from flask import Flask, Response, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_smorest import Blueprint
from werkzeug.exceptions import Unauthorized

from service.api import counts
from service.api.auth import Caller, audience_of, bearer_token
from service.api.problems import documents_problems, problem
from service.settings import RateLimits

__all__ = ["Caller", "guarded", "install"]

LimitClass = Literal["read", "legal_moves", "move", "expensive", "create", "join"]
PER_GAME: frozenset[str] = frozenset({"read", "legal_moves", "move"})
"""Classes counted per client per game (a bot in several games has a budget in each)."""
UNGUARDED: frozenset[str] = frozenset({"static", "viewer.static", "pages.static", "api-docs.openapi_json"})
"""Endpoints without a declaration: static files and the OpenAPI document, served as files."""

_WORDS = {"read": "reads", "legal_moves": "legal-move reads", "move": "moves", "expensive": "audits and exports",
          "create": "new games", "join": "joins"}
View = TypeVar("View", bound=Callable[..., Any])
_doc = Blueprint("guard_docs", __name__)


@dataclass(frozen=True)
class Guard:
    caller: Caller
    limit: LimitClass
    game_route: bool

    @property
    def checks_token(self) -> bool:
        """Whether this route refuses a token that is not the game's: only there may a
        token stand for the client (elsewhere made-up tokens would be new clients at will)."""
        return self.game_route and self.caller is not Caller.INVITE

    def key(self) -> Callable[[], str]:
        """Whom a request to this route is counted against."""
        who = client if self.checks_token else address
        if self.limit in PER_GAME and self.game_route:
            return lambda: f"{who()}/game:{canonical_game_id((request.view_args or {})['game_id'])}"
        return who


def guarded(caller: Caller, limit: LimitClass) -> Callable[[View], View]:
    """Declare a view's caller and limit class. Put it right under the route decorator, so
    that a caller is refused before its body is read."""

    def decorate(view: View) -> View:
        parameters = inspect.signature(view).parameters
        wants_audience, game_route = "audience" in parameters, "game_id" in parameters
        needs_token = caller in (Caller.PLAYER, Caller.SEAT, Caller.REFEREE)
        codes = ((401, 403) if needs_token else (401,) if caller is Caller.PUBLIC else ()) if game_route else ()
        view = cast(View, documents_problems(*codes, 429)(view))
        if game_route and caller is not Caller.INVITE:
            # The OpenAPI document says whether the bearer token is required or optional.
            view = _doc.doc(security=[{"bearer": []}] if needs_token else [{}, {"bearer": []}])(view)

        @wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            if "game_id" in kwargs:
                kwargs["game_id"] = canonical_game_id(kwargs["game_id"])
                audience = audience_of(kwargs["game_id"], caller)
                if wants_audience:
                    kwargs["audience"] = audience
            return view(*args, **kwargs)

        checked.guard = Guard(caller, limit, game_route)  # type: ignore[attr-defined]
        return checked  # type: ignore[return-value]

    return decorate


def declared(view: Callable[..., Any]) -> Guard | None:
    guard = getattr(view, "guard", None)
    return guard if isinstance(guard, Guard) else None


def canonical_game_id(raw: str) -> str:
    """The game id as the store writes it: `{…}`, `urn:uuid:…`, upper case and unhyphenated
    forms name the same game (and share its request count); anything else is left for the
    view to answer 404."""
    try:
        return str(UUID(raw))
    except ValueError:
        return raw


def client() -> str:
    """The request's bearer token (normalised, hashed), or its address without one."""
    try:
        token = bearer_token()
    except Unauthorized:
        token = None  # counted by address: a malformed header is no new client
    if token:
        return "token:" + hashlib.sha256(token.encode()).hexdigest()[:32]
    return address()


def address() -> str:
    return "address:" + (request.remote_addr or "unknown")


def install(app: Flask, limits: RateLimits) -> None:
    """Put each route's declared limit in front of it, with counts kept in `limits.storage`."""
    options: dict[str, str | int] = {"socket_connect_timeout": 2, "socket_timeout": 2} if limits.storage.startswith("redis") else {}
    limiter = Limiter(client, storage_uri=counts.storage_uri(limits.storage), storage_options=options, strategy="moving-window",
                      key_prefix=limits.prefix, in_memory_fallback_enabled=True, headers_enabled=False)
    limiter.init_app(app)
    app.extensions["caboose.limiter"] = limiter
    for endpoint, view in list(app.view_functions.items()):
        guard = declared(view)
        if guard is None:
            if endpoint in UNGUARDED:
                continue
            raise RuntimeError(f"route {endpoint!r} declares no guard: add @guarded(Caller…, limit=…) under its route")
        limited = limiter.shared_limit(getattr(limits, guard.limit), scope=guard.limit, key_func=guard.key())(view)
        app.view_functions[endpoint] = cast(Callable[..., Any], limited)

    @app.errorhandler(RateLimitExceeded)
    def too_many(error: RateLimitExceeded) -> Response:
        # The header and the words say the same whole number of seconds, never 0.
        hit = limiter.current_limit
        wait = max(1, math.ceil(hit.window.reset_time - time.time())) if hit else 1
        what = _WORDS.get(str(error.limit.scope), "requests")
        return problem(429, "Too many requests", f"Too many {what} from this client ({error.limit.limit}); "
                       f"try again in {wait} s.", "rate_limited", headers={"Retry-After": str(wait)})

    @app.after_request
    def security_headers(response: Response) -> Response:
        response.headers.update(SECURITY_HEADERS)
        return response


SECURITY_HEADERS = {
    # The pages load their scripts, styles and data from this server only, and run no inline code.
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                               "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
