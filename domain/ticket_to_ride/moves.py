"""Moves as clients send them (plain JSON objects), parsed into typed commands.

Parsing only checks shape: a move that names things this game does not have (a move type, a
route, a card kind, a market slot) is malformed. Whether a well-formed move is allowed now is
`legal`'s business.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.core.errors import MalformedMove
from domain.core.events import Event
from domain.core.moves import Fields, is_int, move_type
from domain.ticket_to_ride.board import Board

MARKET = "market"
DECK = "deck"


@dataclass(frozen=True)
class KeepTickets:
    keep: tuple[str, ...]


@dataclass(frozen=True)
class DrawFromMarket:
    slot: int


@dataclass(frozen=True)
class DrawFromDeck:
    pass


@dataclass(frozen=True)
class ClaimRoute:
    route: str
    cards: Mapping[str, int]
    """Card kind -> count, zero counts dropped."""


@dataclass(frozen=True)
class DrawTickets:
    pass


@dataclass(frozen=True)
class Pass:
    pass


Command = KeepTickets | DrawFromMarket | DrawFromDeck | ClaimRoute | DrawTickets | Pass
DrawCard = (DrawFromMarket, DrawFromDeck)
"""Both halves of a train-card draw, for `isinstance`."""

_FIELDS: Fields = {
    "keep_tickets": (("keep",), ()),
    "draw_card": (("source",), ("slot",)),
    "claim_route": (("route", "cards"), ()),
    "draw_tickets": ((), ()),
    "pass": ((), ()),
}


def parse_move(board: Board, move: Any) -> Command:
    kind = move_type(move, _FIELDS)
    if kind == "keep_tickets":
        return _keep_tickets(move)
    if kind == "draw_card":
        return _draw_card(board, move)
    if kind == "claim_route":
        return _claim_route(board, move)
    if kind == "draw_tickets":
        return DrawTickets()
    return Pass()


def _keep_tickets(move: Mapping[str, Any]) -> KeepTickets:
    keep = move["keep"]
    if not isinstance(keep, (list, tuple)) or not all(isinstance(t, str) for t in keep):
        raise MalformedMove("bad_field", "\"keep\" must be a list of ticket ids such as \"Denver|El Paso\".")
    return KeepTickets(tuple(keep))


def _draw_card(board: Board, move: Mapping[str, Any]) -> DrawFromMarket | DrawFromDeck:
    source = move["source"]
    slot = move.get("slot")
    if source == DECK:
        if slot is not None:
            raise MalformedMove("bad_field", "A draw from the deck takes no \"slot\"; slots belong to the market.")
        return DrawFromDeck()
    if source != MARKET:
        raise MalformedMove("bad_field", f"\"source\" must be \"market\" or \"deck\", not {source!r}.")
    if "slot" not in move:
        raise MalformedMove("missing_field", f"A draw from the market needs a \"slot\" (0 to {board.market_size - 1}).")
    if not is_int(slot) or not 0 <= slot < board.market_size:
        raise MalformedMove("bad_field", f"\"slot\" must be a market slot from 0 to {board.market_size - 1}, not {slot!r}.")
    return DrawFromMarket(slot)


def _claim_route(board: Board, move: Mapping[str, Any]) -> ClaimRoute:
    route = move["route"]
    if not isinstance(route, str):
        raise MalformedMove("bad_field", "\"route\" must be a route id such as \"Denver|Omaha\".")
    if route not in board.routes:
        raise MalformedMove("unknown_route", f"There is no route {route!r} on this map.")
    cards = move["cards"]
    if not isinstance(cards, Mapping):
        raise MalformedMove("bad_field", "\"cards\" must be an object of card kind to count, e.g. {\"red\": 3}.")
    for card_kind, count in cards.items():
        if card_kind not in board.card_kinds:
            raise MalformedMove(
                "unknown_card",
                f"There is no card kind {card_kind!r}; the kinds are {', '.join(board.card_kinds)}.",
            )
        if not is_int(count) or count < 0:
            raise MalformedMove("bad_field", f"The count of {card_kind} cards must be a whole number, not {count!r}.")
    return ClaimRoute(route, {k: cards[k] for k in board.card_kinds if cards.get(k)})


def move_of(event: Event) -> dict[str, Any] | None:
    """The move that caused `event` when it is the first event of a seat's move."""
    data = event.data
    if event.kind == "CardDrawn":
        if data["source"] == MARKET:
            return {"type": "draw_card", "source": MARKET, "slot": data["slot"]}
        return {"type": "draw_card", "source": DECK}
    if event.kind == "RouteClaimed":
        return {"type": "claim_route", "route": data["route"], "cards": dict(data["cards"])}
    if event.kind == "TicketsDrawn":
        return {"type": "draw_tickets"}
    if event.kind == "TicketsKept":
        # The choice lives in the seat's secret; a redacted copy cannot say what it was.
        choice = event.secret() if event.secrets else None
        return {"type": "keep_tickets", "keep": list(choice["kept"])} if isinstance(choice, dict) else None
    if event.kind == "TurnPassed":
        return {"type": "pass"}
    return None


def _move(type_: str, properties: dict[str, Any] | None = None, required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"type": {"type": "string", "enum": [type_]}, "seat": {"type": "integer", "minimum": 0}, **(properties or {})},
        "required": ["type", *required],
        "additionalProperties": False,
    }


def move_schemas(board: Board) -> dict[str, dict[str, Any]]:
    """JSON Schema of each move on `board`, for API documents (the parser above is what
    enforces them)."""
    return {
        "keep_tickets": _move("keep_tickets", {"keep": {"type": "array", "items": {"type": "string", "enum": sorted(board.tickets)},
                                                         "minItems": 1, "maxItems": 3, "uniqueItems": True}}, ("keep",)),
        "draw_card_market": _move("draw_card", {"source": {"type": "string", "enum": [MARKET]},
                                                 "slot": {"type": "integer", "minimum": 0, "maximum": board.market_size - 1}},
                                 ("source", "slot")),
        "draw_card_deck": _move("draw_card", {"source": {"type": "string", "enum": [DECK]}}, ("source",)),
        "claim_route": _move("claim_route", {
            "route": {"type": "string", "enum": sorted(board.routes)},
            "cards": {"type": "object", "properties": {k: {"type": "integer", "minimum": 1} for k in board.card_kinds},
                      "additionalProperties": False},
        }, ("route", "cards")),
        "draw_tickets": _move("draw_tickets"),
        "pass": _move("pass"),
    }

