"""Move parsing and `move_of`: every seat event gives back the move that caused it."""

from __future__ import annotations

import pytest

from domain.age_of_steam import DECIDER
from domain.core.errors import MalformedMove
from domain.core.events import Untyped

from .helpers import refused, table


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ("bid", "not_an_object"),
        ({"type": "bid", "amount": 1, "extra": 2}, "unexpected_field"),
        ({"type": "bid", "amount": True}, "bad_field"),
        ({"type": "select_action", "action": 3}, "bad_field"),
        ({"type": "urbanize", "hex": "7,3", "city": "Z"}, "unknown_new_city"),
        ({"type": "deliver", "city": "Atlantis", "cube": "red", "path": []}, "unknown_hex"),
        ({"type": "deliver", "city": "7,5", "cube": "red", "path": "7,5"}, "bad_field"),
        ({"type": "place_production", "column": "Q9", "space": 0}, "unknown_column"),
        ({"type": "place_production", "column": "A", "space": 2}, "bad_field"),
    ],
)
def test_malformed_moves(move: object, code: str) -> None:
    assert refused(table(), 0, move, MalformedMove).code == code  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kind", "data", "move"),
    [
        ("SharesIssued", {"seat": 0, "count": 2, "total": 4}, {"type": "issue_shares", "count": 2}),
        ("BidPlaced", {"seat": 0, "amount": 3}, {"type": "bid", "amount": 3}),
        ("AuctionDropped", {"seat": 0, "place": 3, "bid": 0}, {"type": "drop"}),
        ("TurnOrderPassUsed", {"seat": 0}, {"type": "turn_order_pass"}),
        ("ActionSelected", {"seat": 0, "action": "engineer"}, {"type": "select_action", "action": "engineer"}),
        ("TrackBuilt", {"seat": 0, "hex": "7,6", "tile": "straight", "rotation": 0, "cost": 2},
         {"type": "build", "hex": "7,6", "tile": "straight", "rotation": 0}),
        ("CityUrbanized", {"seat": 0, "hex": "7,3", "city": "A"}, {"type": "urbanize", "hex": "7,3", "city": "A"}),
        ("BuildEnded", {"seat": 0, "placed": 0}, {"type": "end_build"}),
        ("GoodsDelivered", {"seat": 0, "cube": "red", "from": "9,9", "links": ["a~b"]},
         {"type": "deliver", "city": "9,9", "cube": "red", "path": ["a~b"]}),
        ("LocomotiveUpgradedInsteadOfMove", {"seat": 0}, {"type": "upgrade_locomotive"}),
        ("MovePassed", {"seat": 0}, {"type": "pass_move"}),
        ("GoodsProduced", {"seat": 0, "column": "L1", "space": 0}, {"type": "place_production", "column": "L1", "space": 0}),
        ("GoodsGrown", {}, None),
    ],
)
def test_move_of(kind: str, data: dict[str, object], move: dict[str, object] | None) -> None:
    assert DECIDER.move_of(Untyped(kind, data)) == move
