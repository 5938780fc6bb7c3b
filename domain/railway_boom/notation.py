"""Railway Boom's notation: one line per move in the game's words (docs/notation-railway-boom.md).

    Ann bids 7 converting 2 pairs of money      Ann locks in
    Ann takes L05                               Ann buys C12
    Ann builds a station at B11, raising coal   Ann lays a rail at C12
    Ann uses D07                                Ann chooses row 2
    Ann raises coal                             Ann pays 3 money, 2 coal
    Ann lays a free rail at C12                 Ann lays no free rail
    Ann buys D12 of the two drawn               Ann buys neither drawn card
    Ann ends the turn
    Ann runs L05+C12+C03, S-red; tiles L05 coal; free C12; converting 1 pair of materials

Cards, hexes, cities and tracks are named as the pack names them; rows count from 1 as a
table does. The generic form of every game (`Ann: bid space=7`) is read too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from domain.core.errors import MalformedMove
from domain.core.notation import Line, Notation, generic_parse, split_seat
from domain.railway_boom.content import DRAW_TWO_BUY_ONE, FREE_RAILS, RAISE_INCOME, RESOURCES, TRACKS, Content
from domain.railway_boom.state import State

Move = dict[str, Any]

_CONVERT = re.compile(r"^(.*?)\s+converting\s+(.+)$", re.IGNORECASE)
_PAIRS = re.compile(r"^(\d+)\s+pairs?\s+of\s+(\w+)$", re.IGNORECASE)
_AMOUNT = re.compile(r"^(\d+)\s+(\w+)$")
GENERIC = frozenset({"bid", "lock_in", "take_locomotive", "buy_car", "place_station", "lay_rail", "use_card",
                     "choose_row", "buy_development", "resolve", "pay", "done", "operate"})
"""The move types, which start a line in the generic form."""
EXAMPLES = ("Ann bids 7", "Ann locks in", "Ann takes L05", "Ann buys C12", "Ann builds a station at B11",
            "Ann lays a rail at C12", "Ann chooses row 2", "Ann raises coal", "Ann pays 3 money, 2 coal",
            "Ann ends the turn", "Ann runs L05+C12, S-red; tiles L05 coal")


def _converting(convert: Mapping[str, int] | None) -> str:
    if not convert:
        return ""
    parts = [f"{pairs} {'pair' if pairs == 1 else 'pairs'} of {resource}" for resource, pairs in convert.items()]
    return " converting " + ", ".join(parts)


def _amounts(amounts: Mapping[str, int]) -> str:
    return ", ".join(f"{amount} {resource}" for resource, amount in amounts.items()) or "nothing"


class RailwayBoomNotation(Notation[State]):
    def __init__(self, content: Content) -> None:
        self.content = content
        # A referee may type "l05" or "b11": names are matched without regard to case.
        self._names = {name.lower(): name for name in (*content.trains, *content.developments, *content.hexes,
                                                       *content.station_cards, *TRACKS)}

    # --- writing -------------------------------------------------------------------------

    def format(self, state: State, seats: Sequence[str], seat: int, move: dict[str, Any]) -> str:
        effect = state.pending[0].effect if state.pending else ""
        return f"{seats[seat]} {self.phrase(move, effect)}"

    def phrase(self, move: Move, effect: str = "") -> str:
        """`move` in words; `effect` is the pending effect a `resolve` answers."""
        kind, convert = move["type"], _converting(move.get("convert"))
        if kind == "resolve":
            return _answer(effect, move["choice"]) + convert
        if kind == "bid":
            return f"bids {move['space']}{convert}"
        if kind == "lock_in":
            return "locks in"
        if kind == "take_locomotive":
            return f"takes {move['card']}"
        if kind in ("buy_car", "buy_development"):
            return f"buys {move['card']}{convert}"
        if kind == "place_station":
            raising = f", raising {move['income']}" if move.get("income") else ""
            return f"builds a station at {move['city']}{raising}"
        if kind == "lay_rail":
            return f"lays a rail at {move['hex']}{convert}"
        if kind == "use_card":
            return f"uses {move['card']}"
        if kind == "choose_row":
            return f"chooses row {move['row'] + 1}"
        if kind == "resolve":
            return f"chooses {move['choice']}{convert}"
        if kind == "pay":
            return f"pays {_amounts(move['paid'])}"
        if kind == "done":
            return "ends the turn"
        if kind == "operate":
            return self._operation(move)
        raise MalformedMove("bad_notation", f"Railway Boom has no move {kind!r}")

    def _operation(self, move: Move) -> str:
        runs = ", ".join("+".join(train) for train in move["runs"]) or "nothing"
        parts = [f"runs {runs}"]
        if move.get("tiles"):
            parts.append("tiles " + ", ".join(f"{card} {' '.join(kinds)}" for card, kinds in move["tiles"].items()))
        if move.get("free"):
            parts.append("free " + " ".join(move["free"]))
        if move.get("convert"):
            parts.append(_converting(move["convert"]).strip())
        return "; ".join(parts)

    # --- reading -------------------------------------------------------------------------

    def parse(self, state: State, seats: Sequence[str], text: str, active: frozenset[int] = frozenset()) -> Line:
        seat, rest = split_seat(seats, text, active)
        words = rest.split()
        if words and words[0] in GENERIC:
            return generic_parse(seats, text, active)
        move = self.read(rest)
        if move is not None:
            move = self._named(move)
        if move is None:
            raise MalformedMove("bad_notation", f"cannot read {rest.strip()!r} as a Railway Boom move; lines read like "
                                f"{'; '.join(repr(e) for e in EXAMPLES)} (or the generic form, 'Ann: bid space=7')")
        return Line(seat, move)

    def _name(self, word: str) -> str:
        return self._names.get(word.lower(), word)

    def _named(self, move: Move) -> Move:
        """`move` with every card, hex and track as the pack spells it."""
        for key in ("card", "hex", "city", "choice"):
            if isinstance(move.get(key), str):
                move[key] = self._name(move[key])
        if move["type"] == "operate":
            move["runs"] = [[self._name(c) for c in train] for train in move["runs"]]
            move["tiles"] = {self._name(c): [self._name(k) for k in kinds] for c, kinds in move["tiles"].items()}
            move["free"] = [self._name(c) for c in move["free"]]
        return move

    def read(self, text: str) -> Move | None:
        """The move a phrase (the line without its seat) names, or None if none."""
        text = " ".join(text.strip().rstrip(".").split())
        lowered = text.lower()
        if lowered == "locks in":
            return {"type": "lock_in"}
        if lowered in ("ends the turn", "ends turn", "done"):
            return {"type": "done"}
        if lowered.startswith("runs "):
            return self._read_operation(text[len("runs "):])
        if lowered.startswith("pays "):
            return {"type": "pay", "paid": _read_amounts(text[len("pays "):])}
        body, convert = _split_convert(text)
        verb, _, rest = body.partition(" ")
        verb, rest = verb.lower(), rest.strip()
        move: Move | None = None
        if (answer := _read_answer(body)) is not None:
            move = {"type": "resolve", "choice": answer}
        elif verb == "bids" and rest.isdigit():
            move = {"type": "bid", "space": int(rest)}
        elif verb == "takes" and _one_word(rest):
            move = {"type": "take_locomotive", "card": rest}
        elif verb == "buys" and _one_word(rest):
            kind = "buy_car" if self._name(rest) in self.content.trains else "buy_development"
            move = {"type": kind, "card": rest}
        elif verb == "builds":
            move = _read_station(rest)
        elif verb == "lays":
            match = re.fullmatch(r"a rail (?:at|on) (\S+)", rest, re.IGNORECASE)
            move = {"type": "lay_rail", "hex": match.group(1)} if match else None
        elif verb == "uses" and _one_word(rest):
            move = {"type": "use_card", "card": rest}
        elif verb == "chooses":
            row = re.fullmatch(r"row (\d+)", rest, re.IGNORECASE)
            if row:
                move = {"type": "choose_row", "row": int(row.group(1)) - 1}
            elif _one_word(rest):
                move = {"type": "resolve", "choice": rest}
        if move is None:
            return None
        if convert:
            move["convert"] = convert
        return move

    def _read_operation(self, text: str) -> Move:
        parts = [p.strip() for p in text.split(";")]
        runs_text, extras = parts[0], parts[1:]
        runs = [] if runs_text.lower() == "nothing" else [t.strip().split("+") for t in runs_text.split(",")]
        move: Move = {"type": "operate", "runs": runs, "tiles": {}, "free": [], "convert": {}}
        for part in extras:
            word, _, rest = part.partition(" ")
            word = word.lower()
            if word == "tiles":
                for entry in rest.split(","):
                    card, *kinds = entry.split()
                    move["tiles"][card] = kinds
            elif word == "free":
                move["free"] = rest.split()
            elif word == "converting":
                move["convert"] = _read_pairs(rest)
            else:
                raise MalformedMove("bad_notation", f"a train plan's parts after the runs are 'tiles', 'free' and "
                                    f"'converting', not {part!r}")
        return move


_ANSWERS = {RAISE_INCOME: ("raises {}", "raises no track"), FREE_RAILS: ("lays a free rail at {}", "lays no free rail"),
            DRAW_TWO_BUY_ONE: ("buys {} of the two drawn", "buys neither drawn card")}
"""How a pending effect's answer reads (R22-R25): the choice, or "none"."""


def _answer(effect: str, choice: str) -> str:
    some, none = _ANSWERS.get(effect, ("chooses {}", "chooses none"))
    return none if choice == "none" else some.format(choice)


def _read_answer(text: str) -> str | None:
    lowered = text.lower()
    for some, none in _ANSWERS.values():
        if lowered == none:
            return "none"
        head, tail = some.split("{}")
        if lowered.startswith(head) and lowered.endswith(tail) and _one_word(text[len(head):len(text) - len(tail)]):
            return text[len(head):len(text) - len(tail)]
    return None


def _one_word(text: str) -> bool:
    return bool(text) and " " not in text


def _split_convert(text: str) -> tuple[str, dict[str, int]]:
    match = _CONVERT.match(text)
    if not match:
        return text, {}
    return match.group(1), _read_pairs(match.group(2))


def _read_pairs(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in text.split(","):
        match = _PAIRS.match(part.strip())
        if not match or match.group(2).lower() not in RESOURCES:
            raise MalformedMove("bad_notation", f"a conversion reads '2 pairs of money' (a resource: "
                                f"{', '.join(RESOURCES)}), not {part.strip()!r}")
        out[match.group(2).lower()] = int(match.group(1))
    return out


def _read_amounts(text: str) -> dict[str, int]:
    if text.strip().lower() == "nothing":
        return {}
    out: dict[str, int] = {}
    for part in text.split(","):
        match = _AMOUNT.match(part.strip())
        if not match or match.group(2).lower() not in RESOURCES:
            raise MalformedMove("bad_notation", f"a payment reads '3 money, 2 coal' (resources: {', '.join(RESOURCES)}), "
                                f"not {part.strip()!r}")
        out[match.group(2).lower()] = int(match.group(1))
    return out


def _read_station(text: str) -> Move | None:
    match = re.fullmatch(r"a station (?:at|in) (\S+?)(?:,? raising (\w+))?", text, re.IGNORECASE)
    if not match:
        return None
    move: Move = {"type": "place_station", "city": match.group(1)}
    if match.group(2):
        track = match.group(2).lower()
        if track not in TRACKS:
            raise MalformedMove("bad_notation", f"the income tracks are {', '.join(TRACKS)}, not {match.group(2)!r}")
        move["income"] = track
    return move
