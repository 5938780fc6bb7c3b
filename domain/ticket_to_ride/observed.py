"""The opening of a game played at a table, as it was laid out there (`Decider.table_setup`),
checked against the rules of setup (docs/notation-ticket-to-ride.md, "Setup as observed"):

    {"hands":   {"Ann": ["red", "red", "blue", "locomotive"], "Bob": [...]},
     "market":  ["green", "white", "locomotive", "black", "red"],
     "tickets": {"Ann": ["Denver-El Paso", "Boston-Miami", "Seattle-New York"], "Bob": [...]},
     "first":   "Bob",
     "wiped":   [["locomotive", "locomotive", "locomotive", "red", "blue"]]}

Hands and tickets are by seat name (or a list in seat order); a ticket is named by its two
cities (either order, in full or by code, any dash) or by its id. `wiped` (optional) lists the
markets turned up and wiped for showing three or more locomotives, in order, before the one
that stayed. The setup is then the seeded setup answered by these outcomes, so the events are
the same kinds in the same order as in any game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from domain.core.errors import MalformedMove
from domain.core.events import Event
from domain.core.table import ImpossibleOutcome, OutcomeNeeded, TableRandom
from domain.ticket_to_ride import decide
from domain.ticket_to_ride.board import LOCOMOTIVE, Board
from domain.ticket_to_ride.names import names_of, ticket_of
from domain.ticket_to_ride.options import MAX_MARKET_WIPES
from domain.ticket_to_ride.state import State

KEYS = ("hands", "market", "tickets", "first", "wiped")


def _bad(message: str) -> MalformedMove:
    return MalformedMove("bad_setup", f"observed setup: {message}")


def table_setup(board: Board, state: State, observed: Mapping[str, Any]) -> list[Event]:
    if not isinstance(observed, Mapping):
        raise _bad('a JSON object with "hands", "market", "tickets" and "first"')
    unknown = sorted(set(observed) - set(KEYS))
    missing = [key for key in KEYS[:4] if key not in observed]
    if unknown or missing:
        raise _bad(f"expected {', '.join(KEYS[:4])} (and optionally wiped); "
                   + "; ".join(filter(None, [f"unknown: {', '.join(unknown)}" if unknown else "",
                                             f"missing: {', '.join(missing)}" if missing else ""])))
    names = tuple(seat.name for seat in state.seats)
    hands = [_cards(board, hand, f"{names[seat]}'s hand") for seat, hand in enumerate(_by_seat(observed["hands"], names, "hands"))]
    for seat, hand in enumerate(hands):
        if len(hand) != board.starting_hand:
            raise _bad(f"{names[seat]} was dealt {len(hand)} train cards; every seat is dealt {board.starting_hand}")
    market = _cards(board, observed["market"], "the market")
    wiped = observed.get("wiped", [])
    if not isinstance(wiped, list):
        raise _bad("wiped is a list of the markets wiped at the setup, each a list of cards")
    wiped_markets = [_cards(board, cards, f"wiped market {n}") for n, cards in enumerate(wiped, start=1)]
    for label, cards in [*((f"wiped market {n}", m) for n, m in enumerate(wiped_markets, start=1)), ("the market", market)]:
        if len(cards) != board.market_size:
            raise _bad(f"{label} shows {len(cards)} cards; the market has {board.market_size} slots")
    _check_wipes(board, wiped_markets, market)
    _check_deck(board, [*hands, *wiped_markets, market])
    tickets = [_tickets(board, seat_tickets, names[seat])
               for seat, seat_tickets in enumerate(_by_seat(observed["tickets"], names, "tickets"))]
    _check_tickets(board, names, tickets)
    first = observed["first"]
    if first not in names:
        raise _bad(f"first is the name of the seat that plays first ({', '.join(names)}), not {first!r}")
    outcomes: list[Any] = [*hands, *([card] for m in (*wiped_markets, market) for card in m), *tickets, first]
    try:
        return decide.setup(board, state, TableRandom(outcomes))
    except OutcomeNeeded as needed:  # the checks above should leave nothing unanswered
        raise _bad(f"nothing says {needed.request.describe()}") from None


def _by_seat(value: Any, names: Sequence[str], key: str) -> list[Any]:
    if isinstance(value, list):
        if len(value) != len(names):
            raise _bad(f"{key}: one entry per seat ({len(names)}), not {len(value)}")
        return value
    if not isinstance(value, Mapping):
        raise _bad(f"{key}: an object by seat name ({', '.join(names)}) or a list in seat order")
    strangers = sorted(set(value) - set(names))
    absent = [name for name in names if name not in value]
    if strangers or absent:
        raise _bad(f"{key}: one entry for each seat ({', '.join(names)})"
                   + (f"; no seat is called {', '.join(map(repr, strangers))}" if strangers else "")
                   + (f"; nothing for {', '.join(absent)}" if absent else ""))
    return [value[name] for name in names]


def _cards(board: Board, value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(card, str) for card in value):
        raise _bad(f"{what} is a list of train cards, such as [\"red\", \"locomotive\"]")
    try:
        return [names_of(board).kind(card) for card in value]
    except MalformedMove as error:
        raise _bad(f"{what}: {error.message}") from None


def _check_wipes(board: Board, wiped: Sequence[Sequence[str]], market: Sequence[str]) -> None:
    # Ruling 1: a market showing enough locomotives is wiped and dealt again, at most
    # MAX_MARKET_WIPES times in a row; only the last may keep them.
    if len(wiped) > MAX_MARKET_WIPES:
        raise _bad(f"{len(wiped)} markets wiped; the market is wiped at most {MAX_MARKET_WIPES} times in a row")
    for n, cards in enumerate(wiped, start=1):
        if cards.count(LOCOMOTIVE) < board.wipe_locomotives:
            raise _bad(f"wiped market {n} shows {cards.count(LOCOMOTIVE)} locomotive(s); only a market with "
                       f"{board.wipe_locomotives} or more is wiped")
    if market.count(LOCOMOTIVE) >= board.wipe_locomotives and len(wiped) < MAX_MARKET_WIPES:
        raise _bad(f"the market shows {market.count(LOCOMOTIVE)} locomotives: a market with {board.wipe_locomotives} "
                   "or more is wiped and dealt again; list the wiped market under wiped and give the one that stayed")


def _check_deck(board: Board, dealt: Sequence[Sequence[str]]) -> None:
    counts = Counter(card for cards in dealt for card in cards)
    for kind, count in counts.items():
        if count > board.card_counts[kind]:
            raise ImpossibleOutcome(f"observed setup: {count} {kind} cards are dealt and face up, but the "
                                    f"{sum(board.card_counts.values())} train cards hold only {board.card_counts[kind]}")


def _tickets(board: Board, value: Any, name: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise _bad(f"{name}'s tickets are a list of tickets, such as [\"Denver-El Paso\"]")
    if len(value) != board.opening_tickets:
        raise _bad(f"{name} was dealt {len(value)} tickets; every seat is dealt {board.opening_tickets}")
    try:
        return [ticket_of(board, t) for t in value]
    except MalformedMove as error:
        raise _bad(f"{name}'s tickets: {error.message}") from None


def _check_tickets(board: Board, names: Sequence[str], tickets: Sequence[Sequence[str]]) -> None:
    holders: dict[str, list[str]] = {}
    for name, dealt in zip(names, tickets, strict=True):
        for ticket in dealt:
            holders.setdefault(ticket, []).append(name)
    twice = {t: who for t, who in holders.items() if len(who) > 1}
    if twice:
        ticket, who = sorted(twice.items())[0]
        raise ImpossibleOutcome(f"observed setup: the {len(board.tickets)} destination tickets hold one "
                                f"{board.tickets[ticket].a}-{board.tickets[ticket].b}, dealt here to {' and '.join(who)}")
