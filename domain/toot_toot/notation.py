"""Toot-Toot Train's notation: one line per move in the game's words (docs/notation-toot-toot.md).

    Ann starts at 0,3                          Ann draws 4,5 0-3
    Ann stops drawing                          Ann drives to 5,3 facing 2
    Ann turns to face 4                        Ann takes from wood_site
    Ann processes paper_from_wood at factory@4,4
    Ann sells at yellow_city: Y3 steel; Y8 wood, 2 coal
    Ann passes                                 Ann spends coal, drives to 5,3 facing 2
    Ann spends iron, draws 4,5 0-3             Ann builds a paper_mill at 4,4 exit 2 for 2 stone
    Ann upgrades max_wood                      Ann ends the turn
    Ann supplies hand orders: B1 coal; Y4 wood  Ann supplies no hand orders

Hexes are "col,row", edges 0-5 clockwise from east, buildings, recipes and abilities as the
pack names them. The generic form of every game (`Ann: drive hex=5,3 facing=2`) is read too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from domain.core.errors import MalformedMove
from domain.core.notation import Line, Notation, generic_parse, split_seat
from domain.toot_toot.content import Content
from domain.toot_toot.state import State

Move = dict[str, Any]

HEX = r"(\d+,\d+)"
EDGE = r"([0-5])"
PAYMENTS = {"stone": "for 2 stone", "shovel": "with the shovel", "penalty": "for a penalty token"}
GENERIC = frozenset({"choose_start", "draw_track", "stop_drawing", "drive", "turn", "take", "process", "sell",
                     "pass_location", "fuel_move", "iron_track", "build_factory", "upgrade", "end_turn",
                     "supply_hand_orders"})
EXAMPLES = ("Ann starts at 0,3", "Ann draws 4,5 0-3", "Ann stops drawing", "Ann drives to 5,3 facing 2",
            "Ann turns to face 4", "Ann takes from wood_site", "Ann processes paper_from_wood at factory@4,4",
            "Ann sells at yellow_city: Y3 steel; Y8 wood, 2 coal", "Ann passes",
            "Ann spends coal, drives to 5,3 facing 2", "Ann spends iron, draws 4,5 0-3",
            "Ann builds a paper_mill at 4,4 exit 2 for 2 stone", "Ann upgrades max_wood", "Ann ends the turn",
            "Ann supplies hand orders: B1 coal; Y4 wood", "Ann supplies no hand orders")

_PATTERNS: tuple[tuple[str, str], ...] = (
    ("choose_start", rf"starts at {HEX}"),
    ("draw_track", rf"draws {HEX} {EDGE}-{EDGE}"),
    ("stop_drawing", r"stops drawing"),
    ("drive", rf"drives to {HEX} facing {EDGE}"),
    ("turn", rf"turns to face {EDGE}"),
    ("take", r"takes from (\S+)"),
    ("process", r"processes (\S+) at (\S+)"),
    ("pass_location", r"passes"),
    ("fuel_move", rf"spends (wood|coal),? drives to {HEX} facing {EDGE}"),
    ("iron_track", rf"spends iron,? draws {HEX} {EDGE}-{EDGE}"),
    ("build_factory", rf"builds an? (\S+) at {HEX} exit {EDGE} (for 2 stone|with the shovel|for a penalty token)"),
    ("upgrade", r"upgrades (\S+)"),
    ("end_turn", r"ends the turn|ends turn"),
    ("supply_hand_orders", r"supplies no hand orders?"),
)
SALE, SUPPLY = "sells at ", "supplies hand orders:"


class TootNotation(Notation[State]):
    def __init__(self, content: Content) -> None:
        self.content = content
        # A referee may type "y3" for order Y3: names are matched without regard to case.
        self._orders = {order.lower(): order for order in content.order}

    def format(self, state: State, seats: Sequence[str], seat: int, move: dict[str, Any]) -> str:
        return f"{seats[seat]} {phrase(move)}"

    def parse(self, state: State, seats: Sequence[str], text: str, active: frozenset[int] = frozenset()) -> Line:
        seat, rest = split_seat(seats, text, active)
        words = rest.split()
        if words and words[0] in GENERIC:
            return generic_parse(seats, text, active)
        move = read(rest)
        if move is not None and move["type"] in ("sell", "supply_hand_orders"):
            move["fills"] = {self._orders.get(o.lower(), o): units for o, units in move["fills"].items()}
        if move is None:
            raise MalformedMove("bad_notation", f"cannot read {rest.strip()!r} as a Toot-Toot Train move; lines read like "
                                f"{'; '.join(repr(e) for e in EXAMPLES)} (or the generic form, 'Ann: drive hex=5,3 facing=2')")
        return Line(seat, move)


def _an(word: str) -> str:
    return f"an {word}" if word[:1].lower() in "aeiou" else f"a {word}"


def phrase(move: Move) -> str:
    kind = move["type"]
    if kind == "choose_start":
        return f"starts at {move['hex']}"
    if kind == "draw_track":
        return f"draws {move['hex']} {move['from']}-{move['to']}"
    if kind == "stop_drawing":
        return "stops drawing"
    if kind == "drive":
        return f"drives to {move['hex']} facing {move['facing']}"
    if kind == "turn":
        return f"turns to face {move['facing']}"
    if kind == "take":
        return f"takes from {move['site']}"
    if kind == "process":
        return f"processes {move['recipe']} at {move['factory']}"
    if kind == "sell":
        return f"sells at {move['city']}: {_fills(move['fills'])}"
    if kind == "supply_hand_orders":
        return f"supplies hand orders: {_fills(move['fills'])}" if move["fills"] else "supplies no hand orders"
    if kind == "pass_location":
        return "passes"
    if kind == "fuel_move":
        return f"spends {move['fuel']}, drives to {move['hex']} facing {move['facing']}"
    if kind == "iron_track":
        return f"spends iron, draws {move['hex']} {move['from']}-{move['to']}"
    if kind == "build_factory":
        return f"builds {_an(move['kind'])} at {move['hex']} exit {move['exit']} {PAYMENTS[move['payment']]}"
    if kind == "upgrade":
        return f"upgrades {move['ability']}"
    if kind == "end_turn":
        return "ends the turn"
    raise MalformedMove("bad_notation", f"Toot-Toot Train has no move {kind!r}")


def _fills(fills: dict[str, dict[str, int]]) -> str:
    return "; ".join(f"{order} " + ", ".join(good if n == 1 else f"{n} {good}" for good, n in units.items())
                     for order, units in fills.items())


def read(text: str) -> Move | None:
    """The move a phrase (the line without its seat) names, or None if none."""
    text = " ".join(text.strip().rstrip(".").split())
    if text.lower().startswith(SALE):
        return _read_sale(text[len(SALE):])
    if text.lower().startswith(SUPPLY):
        return {"type": "supply_hand_orders", "fills": _read_fills(text[len(SUPPLY):], "of a supply", "supplied")}
    for kind, pattern in _PATTERNS:
        match = re.fullmatch(pattern, text, re.IGNORECASE)
        if match:
            return _move(kind, match.groups())
    return None


def _move(kind: str, groups: tuple[str, ...]) -> Move:
    if kind in ("choose_start",):
        return {"type": kind, "hex": groups[0]}
    if kind == "draw_track":
        return {"type": kind, "hex": groups[0], "from": int(groups[1]), "to": int(groups[2])}
    if kind == "drive":
        return {"type": kind, "hex": groups[0], "facing": int(groups[1])}
    if kind == "turn":
        return {"type": kind, "facing": int(groups[0])}
    if kind == "take":
        return {"type": kind, "site": groups[0]}
    if kind == "process":
        return {"type": kind, "recipe": groups[0], "factory": groups[1]}
    if kind == "fuel_move":
        return {"type": kind, "fuel": groups[0].lower(), "hex": groups[1], "facing": int(groups[2])}
    if kind == "iron_track":
        return {"type": kind, "hex": groups[0], "from": int(groups[1]), "to": int(groups[2])}
    if kind == "build_factory":
        payment = next(p for p, words in PAYMENTS.items() if words == groups[3].lower())
        return {"type": kind, "kind": groups[0], "hex": groups[1], "exit": int(groups[2]), "payment": payment}
    if kind == "upgrade":
        return {"type": kind, "ability": groups[0]}
    if kind == "supply_hand_orders":
        return {"type": kind, "fills": {}}
    return {"type": kind}


def _read_sale(text: str) -> Move:
    city, colon, rest = text.partition(":")
    if not colon or not city.strip() or " " in city.strip():
        raise MalformedMove("bad_notation", f"a sale reads 'sells at yellow_city: Y3 steel; Y8 wood, 2 coal', "
                            f"not 'sells at {text}'")
    return {"type": "sell", "city": city.strip(), "fills": _read_fills(rest, "of a sale", "sold")}


def _read_fills(text: str, of: str, verb: str) -> dict[str, dict[str, int]]:
    """Orders and the goods each is supplied: 'Y3 steel; Y8 wood, 2 coal'."""
    fills: dict[str, dict[str, int]] = {}
    for part in text.split(";"):
        order, _, goods = part.strip().partition(" ")
        if not order or not goods:
            raise MalformedMove("bad_notation", f"each order {of} reads 'Y8 wood, 2 coal', not {part.strip()!r}")
        units: dict[str, int] = {}
        for item in goods.split(","):
            match = re.fullmatch(r"(?:(\d+) )?(\w+)", item.strip())
            if not match:
                raise MalformedMove("bad_notation", f"goods {verb} read 'wood' or '2 coal', not {item.strip()!r}")
            units[match.group(2).lower()] = int(match.group(1) or 1)
        fills[order] = units
    return fills
