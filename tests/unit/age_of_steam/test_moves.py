"""Move parsing and `move_of`: every seat event gives back the move that caused it."""

from __future__ import annotations

import pytest

from domain.age_of_steam import actions, auction, build_track, growth, move_goods, shares
from domain.core.errors import MalformedMove
from domain.core.events import Event
from tests.rust_belt import DECIDER

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
    ("event", "move"),
    [
        (shares.SharesIssued(seat=0, count=2, total=4), {"type": "issue_shares", "count": 2}),
        (auction.BidPlaced(seat=0, amount=3), {"type": "bid", "amount": 3}),
        (auction.AuctionDropped(seat=0, place=3, bid=0), {"type": "drop"}),
        (auction.TurnOrderPassUsed(seat=0), {"type": "turn_order_pass"}),
        (actions.ActionSelected(seat=0, action="engineer"), {"type": "select_action", "action": "engineer"}),
        (build_track.TrackBuilt(seat=0, hex="7,6", place="hex 7,6", tile="straight", rotation=0, cost=2, placement="new",
                       owners=(0,), disc=False, disc_delta=0, returned=None, taken=()),
         {"type": "build", "hex": "7,6", "tile": "straight", "rotation": 0}),
        (build_track.CityUrbanized(seat=0, hex="7,3", town="Gary", city="A", colour="red", returned=None, claimed=()),
         {"type": "urbanize", "hex": "7,3", "city": "A"}),
        (build_track.BuildEnded(seat=0, placed=0), {"type": "end_build"}),
        (move_goods.GoodsDelivered(seat=0, round=1, cube="red", source="9,9", to="8,8", stops=("9,9", "8,8"), places=("a", "b"),
                           links=("a~b",), owners=(0,), income={"0": 1}),
         {"type": "deliver", "city": "9,9", "cube": "red", "path": ["a~b"]}),
        (move_goods.LocomotiveUpgradedInsteadOfMove(seat=0, round=1, before=1, after=2), {"type": "upgrade_locomotive"}),
        (move_goods.MovePassed(seat=0, round=2), {"type": "pass_move"}),
        (growth.GoodsProduced(seat=0, cube="red", column="L1", space=0), {"type": "place_production", "column": "L1", "space": 0}),
        (growth.GoodsGrown(half="light", die=1, column="L1", space=0, hex="9,9", city="c", cube="red"), None),
    ],
)
def test_move_of(event: Event, move: dict[str, object] | None) -> None:
    assert DECIDER.move_of(event) == move
