"""Ticket to Ride's notation: one line per move, as a referee writes it on a score sheet
(docs/notation-ticket-to-ride.md).

    Ann claims Denver–Omaha with 4 red        Ann DEN-OMA 4r
    Ann claims Atlanta–Raleigh (lane 2) with 1 red and 1 locomotive    Ann ATL-RAL/2 1r1L
    Bob draws blind                           Bob blind
    Bob takes green                           Bob g
    Bob takes green from slot 4               Bob g@4
    Cat draws tickets                         Cat tickets
    Cat keeps Denver–El Paso, Boston–Miami    Cat keeps DEN-EPA, BOS-MIA
    Dan passes

The long form is what `format` writes; `parse` reads both, and the generic form
(`Ann: claim_route route=Denver|Omaha cards={"red":4}`) too. A face-up card is named by its
colour: the first slot holding it, unless a slot is given (1 to 5, as the cards lie). A
double route is named by its cities; its lane is written only when the cards paid and the
lanes already taken do not tell it (the first lane open to that colour is meant).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from domain.core.errors import IllegalMove, MalformedMove
from domain.core.notation import Line, Notation, generic_format, generic_parse, split_seat
from domain.ticket_to_ride.board import GRAY, LOCOMOTIVE, Board, Route
from domain.ticket_to_ride.moves import DECK, MARKET, moves_of
from domain.ticket_to_ride.names import (
    DASHES,
    cities_of,
    names_of,
    route_text,
    routes_between,
    ticket_of,
    ticket_text,
)
from domain.ticket_to_ride.state import State

_BLIND = re.compile(r"^(?:draws?\s+)?(?:blind|from\s+the\s+deck)$", re.IGNORECASE)
_TICKETS = re.compile(r"^(?:draws?\s+)?tickets$", re.IGNORECASE)
_PASS = re.compile(r"^pass(?:es)?$", re.IGNORECASE)
_KEEP = re.compile(r"^keeps?\s+(.+)$", re.IGNORECASE)
_TAKE = re.compile(r"^takes?\s+(\S+)(?:\s+(?:from\s+)?slot\s+(\d+))?$", re.IGNORECASE)
_TAKE_SHORT = re.compile(r"^([A-Za-z]+)(?:@(\d+))?$")
_CLAIM = re.compile(r"^claims?\s+(.+?)(?:\s*\(\s*lane\s+(\d+)\s*\))?\s+with\s+(.+)$", re.IGNORECASE)
_CLAIM_SHORT = re.compile(rf"^([A-Za-z.]+\s*[{DASHES}]\s*[A-Za-z.]+)(?:/(\d+))?\s+(\d.*)$")
_CARDS = re.compile(r"(\d+)\s*([A-Za-z]+)")
_CARD_SEPARATORS = re.compile(r"(?:\s|,|\+|\band\b)+", re.IGNORECASE)
_LIST = re.compile(r"\s*(?:,|;|\band\b)\s*", re.IGNORECASE)


class TicketToRideNotation(Notation[State]):
    """The notation on one map. `short` makes `format` write the short forms."""

    def __init__(self, board: Board, short: bool = False) -> None:
        self.board = board
        self.short = short

    # --- writing ---------------------------------------------------------------------------

    def format(self, state: State, seats: Sequence[str], seat: int, move: dict[str, Any]) -> str:
        try:
            return self._format(state, seats, seat, move)
        except (KeyError, IndexError, TypeError, AttributeError, ValueError):
            # A move that names nothing on this map (a client's malformed one) is still shown.
            return generic_format(seats, seat, move)

    def _format(self, state: State, seats: Sequence[str], seat: int, move: dict[str, Any]) -> str:
        board, short, name = self.board, self.short, seats[seat]
        kind = move.get("type")
        if kind == "keep_tickets":
            return f"{name} keeps {', '.join(ticket_text(board, t, short) for t in move['keep'])}"
        if kind == "draw_card" and move.get("source") == DECK:
            return f"{name} {'blind' if short else 'draws blind'}"
        if kind == "draw_card" and move.get("source") == MARKET:
            return f"{name} {self._face_up(state, move['slot'])}"
        if kind == "claim_route":
            return f"{name} {self._claim(state, move)}"
        if kind == "draw_tickets":
            return f"{name} {'tickets' if short else 'draws tickets'}"
        if kind == "pass":
            return f"{name} passes"
        return generic_format(seats, seat, move)

    def _face_up(self, state: State, slot: int) -> str:
        card = state.market[slot]
        if card is None:
            raise ValueError("an empty slot has no card to name")
        first = state.market.index(card) == slot
        if self.short:
            return names_of(self.board).letter[card] + ("" if first else f"@{slot + 1}")
        return f"takes {card}" + ("" if first else f" from slot {slot + 1}")

    def _claim(self, state: State, move: Mapping[str, Any]) -> str:
        board = self.board
        route = board.routes[move["route"]]
        cards = {kind: move["cards"][kind] for kind in sorted(move["cards"], key=board.card_kinds.index)}
        lane = "" if _default_route(board, state, frozenset((route.a, route.b)), cards) == route else route.lane + 1
        if self.short:
            letters = names_of(board).letter
            paid = "".join(f"{count}{letters.get(kind, kind)}" for kind, count in cards.items())
            return f"{route_text(board, route, short=True)}{f'/{lane}' if lane else ''} {paid}"
        paid = " and ".join(f"{count} {_plural(kind, count)}" for kind, count in cards.items())
        return f"claims {route_text(board, route)}{f' (lane {lane})' if lane else ''} with {paid}"

    # --- reading ---------------------------------------------------------------------------

    def parse(self, state: State, seats: Sequence[str], text: str, active: frozenset[int] = frozenset()) -> Line:
        seat, rest = split_seat(seats, text, active)
        rest = rest.strip()
        first = rest.split(maxsplit=1)[0] if rest else ""
        if first in moves_of(self.board).by_name:
            return generic_parse(seats, text, active)
        return Line(seat, self._move(state, seat, rest, text))

    def _move(self, state: State, seat: int, rest: str, text: str) -> dict[str, Any]:
        if _BLIND.match(rest):
            return {"type": "draw_card", "source": DECK}
        if _TICKETS.match(rest):
            return {"type": "draw_tickets"}
        if _PASS.match(rest):
            return {"type": "pass"}
        if match := _KEEP.match(rest):
            offered = state.seats[seat].offered
            return {"type": "keep_tickets",
                    "keep": [ticket_of(self.board, t, offered) for t in _LIST.split(match.group(1)) if t.strip()]}
        if match := _CLAIM.match(rest) or _CLAIM_SHORT.match(rest):
            return self._claim_of(state, match.group(1), match.group(2), match.group(3))
        if match := _TAKE.match(rest):
            return self._take_of(state, match.group(1), match.group(2))
        if (match := _TAKE_SHORT.match(rest)) and match.group(1) in _short_kinds(self.board):
            return self._take_of(state, match.group(1), match.group(2))
        raise MalformedMove("bad_notation", f"cannot read {text.strip()!r}: write a move such as "
                            "'Ann claims Denver–Omaha with 4 red', 'Ann draws blind', 'Ann takes green', "
                            "'Ann draws tickets', 'Ann keeps Denver–El Paso, Boston–Miami' or 'Ann passes'")

    def _take_of(self, state: State, card_text: str, slot_text: str | None) -> dict[str, Any]:
        card = names_of(self.board).kind(card_text)
        showing = ", ".join(c or "(empty)" for c in state.market)
        if slot_text is not None:
            slot = int(slot_text) - 1
            if not 0 <= slot < len(state.market):
                raise MalformedMove("bad_notation", f"the market has slots 1 to {len(state.market)}, not {slot_text}")
            if state.market[slot] != card:
                raise IllegalMove("not_face_up", f"slot {slot + 1} holds {state.market[slot] or 'no card'}, "
                                  f"not {card} (the market shows {showing})")
            return {"type": "draw_card", "source": MARKET, "slot": slot}
        if card not in state.market:
            raise IllegalMove("not_face_up", f"no {card} card lies face up (the market shows {showing})")
        return {"type": "draw_card", "source": MARKET, "slot": state.market.index(card)}

    def _claim_of(self, state: State, cities: str, lane: str | None, paid: str) -> dict[str, Any]:
        board = self.board
        pair = cities_of(board, cities)
        cards = _cards_of(board, paid)
        routes = routes_between(board, pair)
        if not routes:
            raise IllegalMove("no_such_route", f"no route joins {' and '.join(sorted(pair))} on this map")
        if lane is None:
            route = _default_route(board, state, pair, cards)
        else:
            lanes = [r for r in routes if r.lane + 1 == int(lane)]
            if not lanes:
                raise MalformedMove("bad_notation", f"{route_text(board, routes[0])} has no lane {lane} "
                                    f"(lanes: {', '.join(str(r.lane + 1) for r in routes)})")
            route = lanes[0]
        return {"type": "claim_route", "route": route.id, "cards": cards}


def _short_kinds(board: Board) -> set[str]:
    """The words a face-up card may be taken by in the short form: a kind's letter or name."""
    names = names_of(board)
    return set(names.kind_of)


def _plural(kind: str, count: int) -> str:
    return f"{kind}s" if kind == LOCOMOTIVE and count != 1 else kind


def _cards_of(board: Board, text: str) -> dict[str, int]:
    """"3 red and 1 locomotive", "3r1L", "2 locos" -> {"red": 3, "locomotive": 1}."""
    names = names_of(board)
    found = _CARDS.findall(text)
    if not found or _CARD_SEPARATORS.sub("", _CARDS.sub("", text)):
        raise MalformedMove("bad_notation", f"cannot read the cards paid in {text.strip()!r}: "
                            "write counts and kinds, such as '4 red', '3 red and 1 locomotive' or '3r1L'")
    cards: dict[str, int] = {}
    for count, word in found:
        kind = names.kind(word)
        cards[kind] = cards.get(kind, 0) + int(count)
    return cards


def _default_route(board: Board, state: State, pair: frozenset[str], cards: Mapping[str, int]) -> Route:
    """The lane a claim without one means: of the lanes the cards' colour fits, the first
    still open, else the first. `pair` has a route."""
    routes = routes_between(board, pair)
    colours = {kind for kind in cards if kind != LOCOMOTIVE}
    fitting = [r for r in routes if r.colour == GRAY or not colours or r.colour in colours] or routes
    open_ = [r for r in fitting if r.id not in state.claims]
    return (open_ or fitting)[0]
