"""Moves as clients send them (plain JSON objects), parsed into typed commands.

Parsing only checks shape: a move that names things this game does not have (a move type, a
hex, a tile type, an action, a colour, a display column) is malformed. Whether a well-formed
move is allowed now is `legal`'s business. Links are not checked here: they come and go with
the track, so an unknown link is an illegal move, not a malformed one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.age_of_steam.board import CITY_BY_NAME, COLOURS, COLUMN_SPACES, NEW_CITIES, TERRAIN
from domain.age_of_steam.state import ACTIONS_LIST
from domain.age_of_steam.tiles import TILES
from domain.core.errors import MalformedMove
from domain.core.events import Event
from domain.core.moves import Fields, int_field, move_type, str_field


@dataclass(frozen=True)
class IssueShares:
    count: int


@dataclass(frozen=True)
class Bid:
    amount: int


@dataclass(frozen=True)
class Drop:
    pass


@dataclass(frozen=True)
class TurnOrderPass:
    pass


@dataclass(frozen=True)
class SelectAction:
    action: str


@dataclass(frozen=True)
class Build:
    hex: str
    tile: str
    rotation: int
    cost: int | None
    """A client may echo the listed cost; a different one is refused."""


@dataclass(frozen=True)
class Urbanize:
    hex: str
    city: str


@dataclass(frozen=True)
class EndBuild:
    pass


@dataclass(frozen=True)
class Deliver:
    city: str
    cube: str
    path: tuple[str, ...]


@dataclass(frozen=True)
class UpgradeLocomotive:
    pass


@dataclass(frozen=True)
class PassMove:
    pass


@dataclass(frozen=True)
class PlaceProduction:
    column: str
    space: int


Command = (
    IssueShares | Bid | Drop | TurnOrderPass | SelectAction | Build | Urbanize | EndBuild | Deliver
    | UpgradeLocomotive | PassMove | PlaceProduction
)

_FIELDS: Fields = {
    # type: (required fields, optional fields)
    "issue_shares": (("count",), ()),
    "bid": (("amount",), ()),
    "drop": ((), ()),
    "turn_order_pass": ((), ()),
    "select_action": (("action",), ()),
    "build": (("hex", "tile", "rotation"), ("cost",)),
    "urbanize": (("hex", "city"), ()),
    "end_build": ((), ()),
    "deliver": (("city", "cube", "path"), ()),
    "upgrade_locomotive": ((), ()),
    "pass_move": ((), ()),
    "place_production": (("column", "space"), ()),
}


def _hex(move: Mapping[str, Any], kind: str) -> str:
    hex_ = str_field(move, "hex", kind)
    if hex_ not in TERRAIN:
        raise MalformedMove("unknown_hex", f"There is no hex {hex_!r} on the Rust Belt map; hexes are named \"col,row\".")
    return hex_


def parse_move(move: Any) -> Command:
    kind = move_type(move, _FIELDS)
    if kind == "issue_shares":
        return IssueShares(int_field(move, "count", kind))
    if kind == "bid":
        return Bid(int_field(move, "amount", kind))
    if kind == "select_action":
        action = str_field(move, "action", kind)
        if action not in ACTIONS_LIST:
            raise MalformedMove("unknown_action", f"Unknown action {action!r}; the actions are {', '.join(ACTIONS_LIST)}.")
        return SelectAction(action)
    if kind == "build":
        return _build(move)
    if kind == "urbanize":
        city = str_field(move, "city", kind)
        if city not in NEW_CITIES:
            raise MalformedMove("unknown_new_city", f"New cities are lettered A to H, not {city!r}.")
        return Urbanize(_hex(move, kind), city)
    if kind == "deliver":
        return _deliver(move)
    if kind == "place_production":
        column = str_field(move, "column", kind)
        if column not in COLUMN_SPACES:
            raise MalformedMove("unknown_column", f"There is no display column {column!r}; columns are L1-L6, D1-D6 and A-H.")
        space = int_field(move, "space", kind)
        if not 0 <= space < COLUMN_SPACES[column]:
            raise MalformedMove("bad_field", f"Column {column} has spaces 0 to {COLUMN_SPACES[column] - 1}, not {space}.")
        return PlaceProduction(column, space)
    return {
        "drop": Drop,
        "turn_order_pass": TurnOrderPass,
        "end_build": EndBuild,
        "upgrade_locomotive": UpgradeLocomotive,
        "pass_move": PassMove,
    }[kind]()


def _build(move: Mapping[str, Any]) -> Build:
    hex_ = _hex(move, "build")
    tile = str_field(move, "tile", "build")
    if tile not in TILES:
        raise MalformedMove("unknown_tile", f"Unknown tile {tile!r}; the tiles are {', '.join(TILES)}.")
    rotation = int_field(move, "rotation", "build")
    if not 0 <= rotation < 6:
        raise MalformedMove("bad_field", f"\"rotation\" must be 0 to 5 (clockwise steps of 60 degrees), not {rotation}.")
    cost = int_field(move, "cost", "build") if "cost" in move else None
    return Build(hex_, tile, rotation, cost)


def _deliver(move: Mapping[str, Any]) -> Deliver:
    city = str_field(move, "city", "deliver")
    city = CITY_BY_NAME.get(city, city)
    if city not in TERRAIN:
        raise MalformedMove("unknown_hex", f"There is no city or hex {city!r} on the Rust Belt map.")
    cube = str_field(move, "cube", "deliver")
    if cube not in COLOURS:
        raise MalformedMove("unknown_colour", f"Goods are {', '.join(COLOURS)}, not {cube!r}.")
    path = move["path"]
    if not isinstance(path, (list, tuple)) or not all(isinstance(p, str) for p in path):
        raise MalformedMove("bad_field", "\"path\" must be a list of link ids, as the legal moves list them.")
    return Deliver(city, cube, tuple(path))


def move_of(event: Event) -> dict[str, Any] | None:
    """The move that caused `event` when it is the first event of a seat's move."""
    data = event.data
    kind = event.kind
    if kind == "SharesIssued":
        return {"type": "issue_shares", "count": data["count"]}
    if kind == "BidPlaced":
        return {"type": "bid", "amount": data["amount"]}
    if kind == "AuctionDropped":
        return {"type": "drop"}
    if kind == "TurnOrderPassUsed":
        return {"type": "turn_order_pass"}
    if kind == "ActionSelected":
        return {"type": "select_action", "action": data["action"]}
    if kind == "TrackBuilt":
        return {"type": "build", "hex": data["hex"], "tile": data["tile"], "rotation": data["rotation"]}
    if kind == "CityUrbanized":
        return {"type": "urbanize", "hex": data["hex"], "city": data["city"]}
    if kind == "BuildEnded":
        return {"type": "end_build"}
    if kind == "GoodsDelivered":
        return {"type": "deliver", "city": data["from"], "cube": data["cube"], "path": list(data["links"])}
    if kind == "LocomotiveUpgradedInsteadOfMove":
        return {"type": "upgrade_locomotive"}
    if kind == "MovePassed":
        return {"type": "pass_move"}
    if kind == "GoodsProduced":
        return {"type": "place_production", "column": data["column"], "space": data["space"]}
    return None
