"""How cities, cards, tickets and routes are named at the table, in full and in short, and
how a name written on a score sheet is read back. Derived from the map itself, so every pack
gets them without a line of its own.

City codes are three letters: a one-word name's first three ("Denver" DEN), otherwise the
words' initials, topped up from the last word ("El Paso" EPA, "Salt Lake City" SLC); two
cities that would share a code get longer ones until they differ. A card kind is one
letter, its first, except black (`k`, as blue has `b`) and the locomotive (`L`); a kind that
would clash with another keeps its whole name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from domain.core.errors import MalformedMove
from domain.ticket_to_ride.board import LOCOMOTIVE, Board, Route

DASHES = "-–—"
"""A route or ticket joins its cities with a hyphen, an en dash or an em dash."""
_PREFERRED_LETTER = {"black": "k", LOCOMOTIVE: "L"}


@dataclass(frozen=True)
class Names:
    """The names of one map's cities and cards, both ways."""

    code: Mapping[str, str]
    """City -> its code."""
    city_of: Mapping[str, str]
    """A city's name or code, lower case -> the city."""
    letter: Mapping[str, str]
    """Card kind -> its short form."""
    kind_of: Mapping[str, str]
    """A card kind's name, plural or short form -> the kind (short forms as written: `L` is
    not `l`)."""

    def city(self, text: str) -> str:
        found = self.city_of.get(" ".join(text.split()).lower())
        if found is None:
            raise MalformedMove("bad_notation", f"no city is called {text.strip()!r} on this map")
        return found

    def kind(self, text: str) -> str:
        word = text.strip()
        found = self.kind_of.get(word) or self.kind_of.get(word.lower())
        if found is None:
            raise MalformedMove("bad_notation", f"no train card is called {word!r} "
                                f"(cards: {', '.join(f'{k} ({v})' for k, v in self.letter.items())})")
        return found


@cache
def names_of(board: Board) -> Names:
    return Names(_codes(board.cities), _cities_by_name(board.cities), _letters(board.card_kinds),
                 _kinds_by_name(board.card_kinds))


def _letters_only(word: str) -> str:
    return re.sub(r"[^A-Za-z]", "", word).upper()


def _code(city: str, length: int) -> str:
    words = [_letters_only(w) for w in city.split() if _letters_only(w)]
    if len(words) == 1:
        return words[0][:length]
    initials = "".join(w[0] for w in words)
    return (initials + words[-1][1:])[:max(length, len(initials))]


def _codes(cities: Iterable[str]) -> dict[str, str]:
    cities = tuple(cities)
    length = dict.fromkeys(cities, 3)
    while True:
        codes = {city: _code(city, length[city]) for city in cities}
        clashing = [city for city in cities if list(codes.values()).count(codes[city]) > 1]
        grown = [city for city in clashing if len(_code(city, length[city] + 1)) > len(codes[city])]
        if not grown:
            return codes
        for city in grown:
            length[city] += 1


def _cities_by_name(cities: Iterable[str]) -> dict[str, str]:
    codes = _codes(cities)
    out = {code.lower(): city for city, code in codes.items()}
    out.update({city.lower(): city for city in codes})
    return out


def _letters(kinds: Iterable[str]) -> dict[str, str]:
    kinds = tuple(kinds)
    wanted = {kind: _PREFERRED_LETTER.get(kind, kind[:1]) for kind in kinds}
    return {kind: short if list(wanted.values()).count(short) == 1 else kind for kind, short in wanted.items()}


def _kinds_by_name(kinds: Iterable[str]) -> dict[str, str]:
    kinds = tuple(kinds)
    out: dict[str, str] = {}
    for kind, short in _letters(kinds).items():
        out[short] = kind
        out[kind] = out[kind.lower()] = out[kind.lower() + "s"] = kind
    for kind, short in _letters(kinds).items():
        # A capital short form may be written small where that names no other kind ("1l").
        out.setdefault(short.lower(), kind)
    out["loco"] = out["locos"] = LOCOMOTIVE
    return out


# --- routes and tickets ------------------------------------------------------------------


def split_pair(text: str) -> tuple[str, str]:
    """"Denver–Omaha" (or with a hyphen or em dash) -> ("Denver", "Omaha")."""
    parts = re.split(f"\\s*[{DASHES}]\\s*", text.strip())
    if len(parts) != 2 or not all(parts):
        raise MalformedMove("bad_notation", f"name two cities joined by a dash, such as Denver–Omaha, not {text.strip()!r}")
    return parts[0], parts[1]


def cities_of(board: Board, text: str) -> frozenset[str]:
    a, b = split_pair(text)
    names = names_of(board)
    return frozenset((names.city(a), names.city(b)))


def ticket_of(board: Board, text: str, among: Iterable[str] = ()) -> str:
    """The ticket `text` names by its two cities (in either order, in full or by code), or
    by its id; one of `among` (the seat's offered tickets) first."""
    if text.strip() in board.tickets:
        return text.strip()
    pair = cities_of(board, text)
    matches = [t for t in (*among, *sorted(board.tickets)) if frozenset((board.tickets[t].a, board.tickets[t].b)) == pair]
    if not matches:
        raise MalformedMove("bad_notation", f"no destination ticket joins {' and '.join(sorted(pair))} on this map")
    return matches[0]


def ticket_text(board: Board, ticket: str, short: bool = False) -> str:
    t = board.tickets[ticket]
    if short:
        codes = names_of(board).code
        return f"{codes[t.a]}-{codes[t.b]}"
    return f"{t.a}–{t.b}"


def routes_between(board: Board, pair: frozenset[str]) -> list[Route]:
    """The routes joining two cities, by lane."""
    return list(_routes_by_pair(board).get(pair, ()))


@cache
def _routes_by_pair(board: Board) -> dict[frozenset[str], tuple[Route, ...]]:
    out: dict[frozenset[str], list[Route]] = {}
    for route in board.routes.values():
        out.setdefault(frozenset((route.a, route.b)), []).append(route)
    return {pair: tuple(sorted(routes, key=lambda r: r.lane)) for pair, routes in out.items()}


def route_text(board: Board, route: Route, short: bool = False) -> str:
    if short:
        codes = names_of(board).code
        return f"{codes[route.a]}-{codes[route.b]}"
    return f"{route.a}–{route.b}"
