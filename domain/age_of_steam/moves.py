"""Moves as clients send them (plain JSON objects), parsed into typed commands.

Parsing only checks shape: a move that names things this game does not have (a move type, a
hex, a tile type, an action, a colour, a display column) is malformed. Whether a well-formed
move is allowed now is `legal`'s business. Links are not checked here: they come and go with
the track, so an unknown link is an illegal move, not a malformed one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from domain.age_of_steam.board import Map
from domain.age_of_steam.state import ACTIONS_LIST
from domain.age_of_steam.tiles import TILES
from domain.core.errors import MalformedMove
from domain.core.moves import Field, Moves, MoveType


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
class BuildStep:
    """Several placements of one build step, written in any order (a score sheet's line)."""

    placements: tuple[Build, ...]


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
    IssueShares | Bid | Drop | TurnOrderPass | SelectAction | Build | BuildStep | Urbanize | EndBuild | Deliver
    | UpgradeLocomotive | PassMove | PlaceProduction
)

def _place_production(map_: Map) -> Callable[[Mapping[str, Any]], PlaceProduction]:
    def parse(values: Mapping[str, Any]) -> PlaceProduction:
        column, space = values["column"], values["space"]
        # The spaces depend on the column: a rule across two fields, so checked here.
        spaces = map_.column_spaces[column]
        if not space < spaces:
            raise MalformedMove("bad_field", f"\"space\" of a place_production move: column {column} has spaces "
                                f"0 to {spaces - 1}, not {space}.", "space")
        return PlaceProduction(column, space)
    return parse


def _deliver(map_: Map) -> Callable[[Mapping[str, Any]], Deliver]:
    def parse(values: Mapping[str, Any]) -> Deliver:
        city = values["city"]
        return Deliver(map_.city_by_name.get(city, city), values["cube"], tuple(values["path"]))
    return parse


PLACEMENT_KEYS = ("hex", "tile", "rotation", "cost")


def _build_step(build: MoveType) -> Callable[[Mapping[str, Any]], BuildStep]:
    def parse(values: Mapping[str, Any]) -> BuildStep:
        placements = values["placements"]
        if not placements:
            raise MalformedMove("bad_field", "\"placements\" of a build_step move lists at least one placement.",
                                "placements")
        # Each placement is a build move's fields, checked as one.
        return BuildStep(tuple(build.parse({"type": "build", **placement}) for placement in placements))
    return parse


def _recover_build_step(event: Any) -> dict[str, Any]:
    return {"type": "build_step", "placements": [
        {"hex": hex_, "tile": tile, "rotation": rotation} for hex_, tile, rotation in event.data["placements"]]}


def _no_fields(command: type) -> Callable[[Mapping[str, Any]], Any]:
    return lambda values: command()


def declare(map_: Map) -> Moves:
    """Every move of Age of Steam on `map_`, declared once (parser, JSON Schema, `move_of`)."""
    hexes = tuple(sorted(map_.terrain))

    def hex_field() -> Field:
        return Field("hex", "string", "A hex of the map, named \"col,row\".", enum=hexes, unknown="unknown_hex", of_pack=True)

    build = MoveType("build", "Build or upgrade a track tile.", (
        hex_field(),
        Field("tile", "string", "A track tile type.", enum=tuple(TILES), unknown="unknown_tile"),
        Field("rotation", "integer", "Clockwise steps of 60 degrees, 0 to 5.", minimum=0, maximum=5),
        Field("cost", "integer", "The cost the legal moves list, echoed: a different one is refused.",
              optional=True, recorded=False),
    ), lambda v: Build(v["hex"], v["tile"], v["rotation"], v["cost"]), event="TrackBuilt")
    return Moves((
        MoveType("issue_shares", "Issue shares for $5 each before the turn-order auction.", (
            Field("count", "integer", "How many shares to issue."),
        ), lambda v: IssueShares(v["count"]), event="SharesIssued"),
        MoveType("bid", "Bid for turn order.", (
            Field("amount", "integer", "The bid, in dollars."),
        ), lambda v: Bid(v["amount"]), event="BidPlaced"),
        MoveType("drop", "Drop out of the turn-order auction.", (), _no_fields(Drop), event="AuctionDropped"),
        MoveType("turn_order_pass", "Use the Turn Order Pass action.", (), _no_fields(TurnOrderPass),
                 event="TurnOrderPassUsed"),
        MoveType("select_action", "Select a special action for this turn.", (
            Field("action", "string", "A special action.", enum=tuple(ACTIONS_LIST), unknown="unknown_action"),
        ), lambda v: SelectAction(v["action"]), event="ActionSelected"),
        build,
        MoveType("build_step", "Several placements of one build step, written in any order: they are laid in the "
                 "first order, from the one written, in which each is legal when it is laid.", (
            Field("placements", "array", "The placements, each the fields of a build move.",
                  items=Field("placement", "object", "One placement: hex, tile, rotation and optionally cost.",
                              keys=Field("field", "string", "A field of a build move.", enum=PLACEMENT_KEYS),
                              shape=build.fields)),
        ), _build_step(build), event="BuildStepWritten", recover=_recover_build_step),
        MoveType("urbanize", "Place a new city (the Urbanization action).", (
            hex_field(),
            Field("city", "string", "A new city, by its letter.", enum=tuple(map_.new_city),
                  unknown="unknown_new_city", of_pack=True),
        ), lambda v: Urbanize(v["hex"], v["city"]), event="CityUrbanized"),
        MoveType("end_build", "End the build step.", (), _no_fields(EndBuild), event="BuildEnded"),
        MoveType("deliver", "Move a goods cube along links to a city of its colour.", (
            Field("city", "string", "The city or hex the cube leaves: a city's name or a hex \"col,row\".",
                  enum=tuple(sorted({*map_.city_by_name, *map_.terrain})), unknown="unknown_hex", recorded_as="from",
                  of_pack=True),
            Field("cube", "string", "The cube's colour.", enum=map_.colours, unknown="unknown_colour", of_pack=True),
            Field("path", "array", "The link ids, as the legal moves list them.",
                  items=Field("link", "string", "A link id."), recorded_as="links"),
        ), _deliver(map_), event="GoodsDelivered"),
        MoveType("upgrade_locomotive", "Upgrade the locomotive instead of a delivery.", (),
                 _no_fields(UpgradeLocomotive), event="LocomotiveUpgradedInsteadOfMove"),
        MoveType("pass_move", "Pass a delivery.", (), _no_fields(PassMove), event="MovePassed"),
        MoveType("place_production", "Place a goods cube drawn for Production on the goods display.", (
            Field("column", "string", "A goods display column: L1-L6, D1-D6 or a new city's letter.",
                  enum=tuple(map_.column_spaces), unknown="unknown_column", of_pack=True),
            Field("space", "integer", "A space of that column, from 0.", minimum=0,
                  maximum=max(map_.column_spaces.values()) - 1),
        ), _place_production(map_), event="GoodsProduced"),
    ))
