"""Every route declares who may call it and how often: `@guarded(Caller.PLAYER, limit="move")`.

The declaration is the one place a route's access is decided. For each request, in this
order: the request's address is counted against its share of the route's class
(`counts.RequestCounts`, kept where `RateLimits.storage` says so that it holds across
processes and hosts): the class's limit times `RateLimits.clients_per_address`, before any
token is looked up. A request without a token is then counted against the address itself;
one with a token is first refused if its address has spent the requests no token spoke for.
Then the game id is made canonical and the caller's token resolved to that game's audience
(the request's one load of its game), which the view receives as its `audience` argument
when it has one, with the game so loaded as its `loaded` argument (None where no token was
checked): a token that is valid is then counted as its own client, one that is not
against its address. Per-game classes count per game. `install` refuses to build an app with
a route that declares nothing, so a new route cannot forget it.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, Literal, TypeVar, cast
from uuid import UUID

from flask import Flask, Response, current_app, request
from flask_smorest import Blueprint
from werkzeug.exceptions import Forbidden, Unauthorized

from domain.core.events import Audience
from service.aggregate import Game
from service.api import counts
from service.api.auth import Caller, audience_of, bearer_token
from service.api.counts import ADDRESS, RequestCounts
from service.api.problems import documents_problems, problem
from service.errors import GameNotFound
from service.settings import RateLimits

__all__ = ["Caller", "guarded", "install"]

LimitClass = Literal["read", "legal_moves", "move", "expensive", "create", "join"]
PER_GAME: frozenset[str] = frozenset({"read", "legal_moves", "move"})
"""Classes counted per client per game (a bot in several games has a budget in each)."""
UNGUARDED: frozenset[str] = frozenset({"static", "viewer.static", "viewer.replay_renderer", "pages.static",
                                         "api-docs.openapi_json"})
"""Endpoints without a declaration: static files (a game's renderer among them) and the OpenAPI
document, served as files."""

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

    def scoped(self, who: str) -> str:
        """`who`, counted per game on a game's route of a per-game class."""
        if self.limit in PER_GAME and self.game_route:
            return f"{who}/game:{canonical_game_id((request.view_args or {})['game_id'])}"
        return who

    def admit(self, counts: RequestCounts, view_kwargs: dict[str, Any]) -> tuple[Audience | None, Game | None]:
        """Count the request, resolve its token to the game's audience (None off a game's
        route) and canonicalise `view_kwargs`' game id; raises what the caller is told.
        Returns the audience, and the game as the token was checked against (the request's
        own copy, which its view answers from; None where none was loaded)."""
        here = address()
        refuse(counts.hit(self.limit + ADDRESS, self.scoped(here)))
        token = presented_token() if self.checks_token else None
        # A token is no client of its own until a game knows it: until then its requests are
        # its address's, and an address that spent those is refused before any lookup.
        refuse(counts.hit(self.limit, self.scoped(here)) if token is None else counts.spent(self.limit, here))
        if "game_id" not in view_kwargs:
            return None, None
        game_id = view_kwargs["game_id"] = canonical_game_id(view_kwargs["game_id"])
        try:
            audience, game = audience_of(game_id, self.caller)
        except (Unauthorized, GameNotFound):
            if token is not None:
                refuse(counts.hit(self.limit, here))
            raise
        except Forbidden:
            if token is not None:
                refuse(counts.hit(self.limit, self.scoped(token_client(token))))
            raise
        if token is not None:
            refuse(counts.hit(self.limit, self.scoped(token_client(token))))
        return audience, game


def guarded(caller: Caller, limit: LimitClass) -> Callable[[View], View]:
    """Declare a view's caller and limit class. Put it right under the route decorator, so
    that a caller is refused before its body is read."""

    def decorate(view: View) -> View:
        parameters = inspect.signature(view).parameters
        wants_audience, wants_game, game_route = "audience" in parameters, "loaded" in parameters, "game_id" in parameters
        needs_token = caller in (Caller.PLAYER, Caller.SEAT, Caller.REFEREE)
        codes = ((401, 403) if needs_token else (401,) if caller is Caller.PUBLIC else ()) if game_route else ()
        view = cast(View, documents_problems(*codes, 429)(view))
        if game_route and caller is not Caller.INVITE:
            # The OpenAPI document says whether the bearer token is required or optional.
            view = _doc.doc(security=[{"bearer": []}] if needs_token else [{}, {"bearer": []}])(view)

        guard = Guard(caller, limit, game_route)

        @wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            audience, loaded = guard.admit(current_app.extensions["caboose.counts"], kwargs)
            if wants_audience:
                kwargs["audience"] = audience
            if wants_game:
                kwargs["loaded"] = loaded
            return view(*args, **kwargs)

        checked.guard = guard  # type: ignore[attr-defined]
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


def presented_token() -> str | None:
    """The request's bearer token (a malformed header is none: the address counts)."""
    try:
        return bearer_token()
    except Unauthorized:
        return None


def token_client(token: str) -> str:
    """A valid token as a client: normalised by `bearer_token`, hashed."""
    return "token:" + hashlib.sha256(token.encode()).hexdigest()[:32]


def address() -> str:
    """The request's address: the peer's, or where `CABOOSE_TRUSTED_PROXIES` says so the
    address the first trusted proxy saw (`client_address.py`)."""
    return "address:" + (request.remote_addr or "unknown")


def refuse(refused: counts.Refused | None) -> None:
    if refused is not None:
        raise TooManyRequests(refused)


class TooManyRequests(Exception):
    def __init__(self, refused: counts.Refused) -> None:
        super().__init__(f"over {refused.limit} ({refused.scope})")
        self.refused = refused


def install(app: Flask, limits: RateLimits) -> None:
    """Count every route's requests against its declared limit, in `limits.storage`; refuse
    to build an app with a route that declares nothing."""
    app.extensions["caboose.counts"] = counts.RequestCounts(limits)
    for endpoint, view in app.view_functions.items():
        if declared(view) is None and endpoint not in UNGUARDED:
            raise RuntimeError(f"route {endpoint!r} declares no guard: add @guarded(Caller…, limit=…) under its route")

    @app.errorhandler(TooManyRequests)
    def too_many(error: TooManyRequests) -> Response:
        # The header and the words say the same whole number of seconds, never 0.
        refused = error.refused
        what, who = _WORDS.get(refused.scope, "requests"), "address" if refused.address else "client"
        return problem(429, "Too many requests", f"Too many {what} from this {who} ({refused.limit}); "
                       f"try again in {refused.wait} s.", "rate_limited", headers={"Retry-After": str(refused.wait)})

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
