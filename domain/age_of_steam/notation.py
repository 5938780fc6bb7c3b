"""Age of Steam's notation: one line per move, in the words a referee writes on a score sheet
(`docs/notation-age-of-steam.md`). `parse(format(move)) == move` for every legal move.

    Ann issues 2 shares            Bob bids $7             Cat drops out
    Ann passes with Turn Order     Bob takes Engineer      Cat urbanizes Toledo (12,5) as A
    Ann builds gentle_curve at 12,4 r2 for $3               Bob ends building
    Cat moves red Pittsburgh–Cleveland–Detroit              Ann raises locomotive
    Bob passes                     Cat places blue on L3 space 1

Short forms are read too (`Ann 2 shares`, `Bob 7`, `Cat drop`, `Bob engineer`, `Ann b gentle_curve
12,4 r2`, `Bob done`, `Cat red Pittsburgh-Cleveland-Detroit`, `Ann loco`, `Cat L3.1`), and so is
the generic form of every game (`Ann: bid amount=7`). Hexes are the map's `col,row`; a town
may be named instead of its hex. Display spaces count from 1, the top space.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any

from domain.age_of_steam.board import Map
from domain.age_of_steam.build_track import TrackBuilt, build, build_step
from domain.age_of_steam.evolve import evolve
from domain.age_of_steam.goods import stop_graph
from domain.age_of_steam.moves import declare
from domain.age_of_steam.state import ACTIONS_LIST, AUCTION, State
from domain.age_of_steam.steps import Steps
from domain.age_of_steam.tiles import TILES
from domain.age_of_steam.track import Link, network
from domain.core.errors import MalformedMove, RuleError
from domain.core.moves import Moves
from domain.core.notation import Line, Notation, generic_format, generic_parse, split_seat

ACTION_NAMES = {action: action.replace("_", " ").title() for action in ACTIONS_LIST}
"""How an action is written: `First Move`, `Engineer`, `Turn Order`."""
DASHES = re.compile(r"\s*(?:–|—|->|→|-)\s*")
HEX = re.compile(r"^\d+,\d+$")

_SHARES = re.compile(r"^(?:issues?\s+)?(?P<n>\d+|no)\s+shares?$|^(?:issues?\s+)?shares?\s+(?P<m>\d+)$|^\+(?P<k>\d+)$", re.I)
_BID = re.compile(r"^(?:bids?\s+)?\$?(?P<n>\d+)$", re.I)
_DROP = re.compile(r"^drops?(?:\s+out)?$", re.I)
_PASS = re.compile(r"^pass(?:es)?$", re.I)
_TURN_ORDER_PASS = re.compile(r"^(?:pass(?:es)?\s+(?:with\s+)?(?:the\s+)?turn\s*order(?:\s+pass)?|to\s*pass|turn\s+order\s+pass)$", re.I)
_ACTION = re.compile(r"^(?:takes?\s+|selects?\s+)?(?P<action>[a-z_ ]+)$", re.I)
_BUILD = re.compile(r"^(?:builds?|b)\s+(?P<tile>[a-z0-9_ ]+?)\s+(?:(?:at|on)\s+)?(?P<place>\d+,\d+)\s+r(?P<rotation>\d)"
                    r"(?:\s+(?:for\s+)?\$(?P<cost>\d+))?$", re.I)
_BUILDS = re.compile(r"^(?:builds?|b)\s", re.I)
_BUILD_IN_TOWN = re.compile(r"^(?:builds?|b)\s+(?P<tile>[a-z0-9_ ]+?)\s+(?:at|on|in)\s+(?P<place>[a-z.' ]+?)\s+r(?P<rotation>\d)"
                            r"(?:\s+(?:for\s+)?\$(?P<cost>\d+))?$", re.I)
_URBANIZE = re.compile(r"^(?:urbanizes?|u)\s+(?P<place>[a-z0-9.,' ]+?)(?:\s+\((?P<hex>\d+,\d+)\))?\s+(?:as|with)\s+"
                       r"(?:new\s+city\s+)?(?P<letter>[a-h])$", re.I)
_END_BUILD = re.compile(r"^(?:ends?\s+(?:building|build|the\s+build)|done|end)$", re.I)
_LOCO = re.compile(r"^(?:raises?\s+(?:the\s+|(?:his|her|their)\s+)?locomotive|upgrades?\s+locomotive|loco)$", re.I)
_DELIVER = re.compile(r"^(?:moves?\s+|delivers?\s+)?(?P<cube>[a-z]+)\s+(?:from\s+)?(?P<stops>.+?)(?:\s+(?:via|on)\s+(?P<via>.+))?$", re.I)
_PLACE = re.compile(r"^(?:places?\s+)?(?:(?P<cube>[a-z]+)\s+(?:on|in)\s+)?(?P<column>[a-z]\d?)(?:\s+space\s+|[.:/ ])(?P<space>\d)$", re.I)


def _bad(text: str, why: str) -> MalformedMove:
    return MalformedMove("bad_notation", f"{why}: {text.strip()!r}")


class AgeOfSteamNotation(Notation[State]):
    def __init__(self, map_: Map, moves: Moves | None = None) -> None:
        self.map = map_
        self.moves = moves if moves is not None else declare(map_)
        self._town_by_name = {name.lower(): hex_ for hex_, name in map_.towns.items()}
        self._city_by_name = {name.lower(): hex_ for name, hex_ in map_.city_by_name.items()}

    # --- writing ------------------------------------------------------------------------

    def format(self, state: State, seats: Sequence[str], seat: int, move: dict[str, Any]) -> str:
        return f"{seats[seat]} {self.body(state, seats, self._costed(state, seat, move))}"

    def _costed(self, state: State, seat: int, move: dict[str, Any]) -> dict[str, Any]:
        """A build (or a build step) with the cost of each placement, where a move recovered
        from the record leaves every cost out (a client need not send one): the sheet echoes
        them (`for $N`) as the legal moves list them. Laid as the rules lay it, in the order they find."""
        kind = move.get("type")
        placements = [move] if kind == "build" else move.get("placements") or [] if kind == "build_step" else []
        if not placements or state.build is None or any(p.get("cost") is not None for p in placements):
            return move  # costs given (a move as a client sent it) are written as given
        steps = Steps(self.map, state, evolve)
        try:
            command = self.moves.parse(move)
            build_step(steps, seat, command) if kind == "build_step" else build(steps, seat, command)
        except RuleError:  # not what this state allows: written as it is
            return move
        costs = {event.hex: event.cost for event in steps.events if isinstance(event, TrackBuilt)}
        costed = [{**p, "cost": costs[p["hex"]]} if p["hex"] in costs else p for p in placements]
        return costed[0] if kind == "build" else {**move, "placements": costed}

    def body(self, state: State, seats: Sequence[str], move: dict[str, Any]) -> str:
        kind = move.get("type")
        if kind == "issue_shares":
            count = move["count"]
            return "issues no shares" if count == 0 else f"issues {count} share{'' if count == 1 else 's'}"
        if kind == "bid":
            return f"bids ${move['amount']}"
        if kind == "drop":
            return "drops out"
        if kind == "turn_order_pass":
            return "passes with Turn Order"
        if kind == "select_action":
            return f"takes {ACTION_NAMES[move['action']]}"
        if kind == "build":
            return f"builds {self._placement(move)}"
        if kind == "build_step":
            return f"builds {'; '.join(self._placement(placement) for placement in move['placements'])}"
        if kind == "urbanize":
            return f"urbanizes {self.map.towns[move['hex']]} ({move['hex']}) as {move['city']}"
        if kind == "end_build":
            return "ends building"
        if kind == "deliver":
            return self._delivery(state, seats, move)
        if kind == "upgrade_locomotive":
            return "raises locomotive"
        if kind == "pass_move":
            return "passes"
        if kind == "place_production":
            cube = f"{state.production[0]} " if state.production else ""
            return f"places {cube}on {move['column']} space {move['space'] + 1}"
        return generic_format(["_"], 0, move).removeprefix("_: ")

    @staticmethod
    def _placement(move: dict[str, Any]) -> str:
        cost = f" for ${move['cost']}" if move.get("cost") is not None else ""
        return f"{move['tile']} at {move['hex']} r{move['rotation']}{cost}"

    def _delivery(self, state: State, seats: Sequence[str], move: dict[str, Any]) -> str:
        source = self.map.city_by_name.get(move["city"], move["city"])
        net = network(self.map, state.board, state.new_cities)
        graph = stop_graph(net)
        at, stops, hops = source, [source], []
        for link_id in move["path"]:
            link = net.by_id.get(link_id)
            if link is None or at not in (link.a.hex, link.b.hex):
                # Not a path on this board: written in the generic form, which keeps it as it is.
                return generic_format(["_"], 0, move).removeprefix("_: ")
            nxt = link.other(at)
            parallel = [other for other, stop in graph.get(at, ()) if stop == nxt]
            if len(parallel) > 1:
                hops.append(self._which(link, parallel, seats))
            stops.append(nxt)
            at = nxt
        line = f"moves {move['cube']} {'–'.join(self.stop_name(stop) for stop in stops)}"
        # Two completed links join the same two stops: say which, for each such hop in order.
        return f"{line} via {'; '.join(hops)}" if hops else line

    @staticmethod
    def _which(link: Link, parallel: Sequence[Link], seats: Sequence[str]) -> str:
        """How a sheet tells `link` from the others joining the same stops: its owner's
        track, else a hex only it crosses, else its id."""
        if sum(other.owner == link.owner for other in parallel) == 1:
            return "unowned track" if link.owner is None else f"{seats[link.owner]}'s track"
        others = {hex_ for other in parallel if other is not link for hex_ in other.hexes}
        own = [hex_ for hex_ in link.hexes if hex_ not in others]
        return own[0] if own else link.id

    def stop_name(self, hex_: str) -> str:
        """A stop as a sheet names it: the city, or the town (urbanized or not)."""
        if hex_ in self.map.city_at:
            return self.map.city_at[hex_].name
        return self.map.towns.get(hex_, hex_)

    # --- reading ------------------------------------------------------------------------

    def parse(self, state: State, seats: Sequence[str], text: str, active: frozenset[int] = frozenset()) -> Line:
        seat, rest = split_seat(seats, text, active)
        words = " ".join(rest.split())
        first = words.split(" ", 1)[0] if words else ""
        if first in self.moves.by_name and (" " not in words or "=" in words):
            return generic_parse(seats, f"{seats[seat]}: {words}", active)
        move = self._move(state, seats, words)
        if move is None:
            raise _bad(text, "not a line of Age of Steam's notation (see docs/notation-age-of-steam.md)")
        return Line(seat, move)

    def _move(self, state: State, seats: Sequence[str], words: str) -> dict[str, Any] | None:
        # The patterns ignore case; what they capture keeps it, for the messages.
        if not words:
            return None
        if match := _SHARES.fullmatch(words):
            count = next(g for g in match.groups() if g is not None)
            return {"type": "issue_shares", "count": 0 if count.lower() == "no" else int(count)}
        if _DROP.fullmatch(words):
            return {"type": "drop"}
        if _TURN_ORDER_PASS.fullmatch(words):
            return {"type": "turn_order_pass"}
        if _PASS.fullmatch(words):
            # "passes" is the Turn Order pass in the auction, a round of moving goods otherwise.
            return {"type": "turn_order_pass"} if state.phase == AUCTION else {"type": "pass_move"}
        if _END_BUILD.fullmatch(words):
            return {"type": "end_build"}
        if _LOCO.fullmatch(words):
            return {"type": "upgrade_locomotive"}
        if match := _BID.fullmatch(words):
            return {"type": "bid", "amount": int(match["n"])}
        if _BUILDS.match(words) and ";" in words:
            return self._build_step(words)
        if match := _BUILD.fullmatch(words) or _BUILD_IN_TOWN.fullmatch(words):
            return self._build(words, match)
        if match := _URBANIZE.fullmatch(words):
            hex_ = match["hex"] or self._place(words, match["place"], towns_only=True)
            return {"type": "urbanize", "hex": hex_, "city": match["letter"].upper()}
        if match := _PLACE.fullmatch(words):
            return self._production(state, words, match)
        if match := _ACTION.fullmatch(words):
            action = self._action(match["action"].lower())
            if action is not None:
                return {"type": "select_action", "action": action}
        if (match := _DELIVER.fullmatch(words)) and match["cube"].lower() in self.map.colours:
            return self._deliver(state, seats, words, match)
        return None

    def _action(self, written: str) -> str | None:
        key = written.strip().replace(" ", "_")
        if key in ACTIONS_LIST:
            return key
        # An action may be shortened to its initials or a prefix only it has ("fm", "eng").
        initials = [a for a in ACTIONS_LIST if "".join(w[0] for w in a.split("_")) == key]
        prefixed = [a for a in ACTIONS_LIST if a.startswith(key)] if len(key) >= 3 else []
        found = initials or prefixed
        return found[0] if len(found) == 1 else None

    def _place(self, words: str, written: str, towns_only: bool = False) -> str:
        written = written.strip()
        if HEX.match(written):
            return written
        key = written.lower()
        hex_ = self._town_by_name.get(key) or (None if towns_only else self._city_by_name.get(key))
        if hex_ is None:
            raise _bad(words, f"{written!r} is neither a hex (col,row) nor a town of the map")
        return hex_

    def _build(self, words: str, match: re.Match[str]) -> dict[str, Any]:
        tile = match["tile"].strip().lower().replace(" ", "_")
        if tile not in TILES:
            raise _bad(words, f"{tile!r} is not a tile ({', '.join(TILES)})")
        move: dict[str, Any] = {"type": "build", "hex": self._place(words, match["place"]), "tile": tile,
                                "rotation": int(match["rotation"])}
        if match["cost"] is not None:
            move["cost"] = int(match["cost"])
        return move

    def _build_step(self, words: str) -> dict[str, Any]:
        """A whole build step on one line, its placements separated by `;` in any order."""
        placements = []
        for part in (part.strip() for part in words.split(";")):
            text = part if _BUILDS.match(part) else f"builds {part}"
            match = _BUILD.fullmatch(text) or _BUILD_IN_TOWN.fullmatch(text)
            if match is None:
                raise _bad(words, f"{part!r} is not a placement (tile at col,row rN)")
            placement = self._build(words, match)
            del placement["type"]
            placements.append(placement)
        return {"type": "build_step", "placements": placements}

    def _production(self, state: State, words: str, match: re.Match[str]) -> dict[str, Any] | None:
        column = match["column"].upper()
        if column not in self.map.column_spaces:
            return None
        cube = match["cube"].lower() if match["cube"] else None
        if cube is not None and state.production and cube != state.production[0]:
            raise _bad(words, f"the cube to place next is {state.production[0]}, not {cube}")
        space = int(match["space"])
        if space < 1:
            raise _bad(words, "display spaces count from 1, the top space")
        return {"type": "place_production", "column": column, "space": space - 1}

    def _stop(self, words: str, written: str) -> str:
        key = written.strip().lower()
        if HEX.match(key):
            return key
        hex_ = self._city_by_name.get(key) or self._town_by_name.get(key)
        if hex_ is None:
            raise _bad(words, f"{written.strip()!r} is not a city or town of the map")
        return hex_

    def _names(self, link: Link, parallel: Sequence[Link], seats: Sequence[str]) -> set[str]:
        """Every way a sheet may name `link` after `via` (lower case)."""
        names = {link.id, *link.hexes, self._which(link, parallel, seats).lower()}
        owner = "unowned" if link.owner is None else seats[link.owner].lower()
        names |= {owner, f"{owner}'s", f"{owner}'s track", f"{owner} track"}
        return names

    def _deliver(self, state: State, seats: Sequence[str], words: str, match: re.Match[str]) -> dict[str, Any]:
        stops = [self._stop(words, name) for name in DASHES.split(match["stops"].strip()) if name]
        if len(stops) < 2:
            raise _bad(words, "a delivery names the stops it passes, from the source to the destination "
                       "(Pittsburgh–Cleveland–Detroit)")
        source = stops[0]
        cube = match["cube"].lower()
        via = [token.strip() for token in match["via"].split(";")] if match["via"] else []
        graph = stop_graph(network(self.map, state.board, state.new_cities))
        path: list[str] = []
        for at, nxt in itertools.pairwise(stops):
            links = [link for link, other in graph.get(at, ()) if other == nxt]
            if not links:
                raise _bad(words, f"no completed link joins {self.stop_name(at)} and {self.stop_name(nxt)}")
            if len(links) > 1:
                if not via:
                    raise _bad(words, f"{len(links)} completed links join {self.stop_name(at)} and {self.stop_name(nxt)}; "
                               "say which after `via`: "
                               + " or ".join(repr(self._which(link, links, seats)) for link in links))
                token = via.pop(0)
                chosen = [link for link in links if token.lower() in self._names(link, links, seats)]
                if len(chosen) != 1:
                    raise _bad(words, f"{token!r} names none of the links joining {self.stop_name(at)} and "
                               f"{self.stop_name(nxt)}: "
                               + " or ".join(repr(self._which(link, links, seats)) for link in links))
                links = chosen
            path.append(links[0].id)
        if via:
            raise _bad(words, f"`via` says more than the hops it needs to tell apart: {'; '.join(via)}")
        return {"type": "deliver", "city": source, "cube": cube, "path": path}
