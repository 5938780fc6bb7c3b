"""Moves as clients send them (plain JSON objects), parsed into typed commands.

Parsing only checks shape: a move that names things this game does not have (a move type, a
route, a card kind, a market slot) is malformed. Whether a well-formed move is allowed now is
for its mechanism's checks (`tickets`, `train_cards`, `claim_route`, `last_round`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from domain.core.events import Event
from domain.core.moves import Field, Moves, MoveType
from domain.ticket_to_ride.board import Board

MARKET: Final = "market"
DECK: Final = "deck"


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



def _keep_tickets_of(event: Event) -> dict[str, Any] | None:
    # The choice lives in the seat's secret; a redacted copy cannot say what it was.
    choice = event.secret() if event.secrets else None
    return {"type": "keep_tickets", "keep": list(choice["kept"])} if isinstance(choice, dict) else None


def _draw_card(values: Mapping[str, Any]) -> DrawFromMarket | DrawFromDeck:
    return DrawFromMarket(values["slot"]) if values["source"] == MARKET else DrawFromDeck()


def declare(board: Board) -> Moves:
    """Every move of Ticket to Ride on `board`, declared once."""
    card = Field("kind", "string", "A card kind of this map.", enum=board.card_kinds, unknown="unknown_card", of_pack=True)
    return Moves((
        MoveType("keep_tickets", "Keep some of the destination tickets you were offered.", (
            Field("keep", "array", "The ids of the offered tickets to keep, such as \"Denver|El Paso\".",
                  items=Field("ticket", "string", "A destination ticket id of this map.",
                              enum=tuple(sorted(board.tickets)), unknown="unknown_ticket", of_pack=True)),
        ), lambda v: KeepTickets(tuple(v["keep"])), event="TicketsKept", recover=_keep_tickets_of),
        MoveType("draw_card", "Draw a train card from the face-up market or the deck.", (
            Field("source", "string", "Where the card comes from.", enum=(MARKET, DECK)),
            Field("slot", "integer", f"The market slot, 0 to {board.market_size - 1}.", minimum=0,
                  maximum=board.market_size - 1, when=("source", MARKET)),
        ), _draw_card, event="CardDrawn"),
        MoveType("claim_route", "Claim a route, paying for it with train cards.", (
            Field("route", "string", "A route id of this map, such as \"Denver|Omaha\".",
                  enum=tuple(sorted(board.routes)), unknown="unknown_route", of_pack=True),
            Field("cards", "object", "The cards paid: card kind to a count of at least 1, e.g. {\"red\": 3}.",
                  keys=card, values=Field("count", "integer", "How many cards of that kind.", minimum=1)),
        ), lambda v: ClaimRoute(v["route"], {k: v["cards"][k] for k in board.card_kinds if k in v["cards"]}),
            event="RouteClaimed"),
        MoveType("draw_tickets", "Draw destination tickets to choose from.", (), lambda v: DrawTickets(),
                 event="TicketsDrawn"),
        MoveType("pass", "Pass: only when no other move is possible.", (), lambda v: Pass(), event="TurnPassed"),
    ))


_DECLARED: dict[int, tuple[Board, Moves]] = {}
"""The moves of each board seen, by identity: a board is immutable, and bound once per pack."""


def moves_of(board: Board) -> Moves:
    known = _DECLARED.get(id(board))
    if known is None or known[0] is not board:
        known = _DECLARED[id(board)] = (board, declare(board))
    return known[1]


def parse_move(board: Board, move: Any) -> Command:
    return moves_of(board).parse(move)
