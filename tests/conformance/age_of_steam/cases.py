"""Age of Steam (Rust Belt) conformance cases, in the spirit of the Diplomacy adjudicator test
cases: each a short position, one move, and the ruling expected, with the rule it tests.

A case is plain data:
- `position`: keyword arguments of `tests.unit.age_of_steam.helpers.table` (the phase, cash,
  income, shares, locomotives, tiles as {hex, tile, rotation, owners}, goods, the auction...).
  Everything not given is at its start value; goods not placed are in the bag.
- `seat`, `move`: the move played.
- `dice` (optional): the die faces the move's automatic steps roll, in order.
- `expect`: either {"error": code} or {"events": [[kind, data subset], ...]}, events that must
  appear in this order (others may come between). "absent" lists kinds that must not appear.

Hexes are "col,row"; edges run clockwise from the north (0 N ... 5 NW). The little network
used by the delivery cases:

    Evansville 9,9 (blue) --9,8-- Indianapolis 10,8 (town) ==11,8 / 11,7== Cincinnati 12,8 (blue)
    Cincinnati --12,7-- Fort Wayne 11,6 (town)
"""

from __future__ import annotations

from typing import Any

Case = dict[str, Any]


def t(hex_: str, tile: str, rotation: int, *owners: int | None) -> dict[str, Any]:
    return {"hex": hex_, "tile": tile, "rotation": rotation, "owners": list(owners)}


def network(ei: int | None = 0, ic_south: int | None = 1, ic_north: int | None = 2, cf: int | None = 0) -> list[dict[str, Any]]:
    return [
        t("9,8", "gentle_curve", 1, ei),
        t("10,8", "town_3_left_leaner", 1, ic_north, ic_south, ei),
        t("11,8", "gentle_curve", 5, ic_south),
        t("11,7", "gentle_curve", 2, ic_north),
        t("12,7", "gentle_curve", 3, cf),
        t("11,6", "town_1", 2, cf),
    ]


EVANSVILLE_INDIANAPOLIS = "10,8:4~9,9:0"
INDIANAPOLIS_CINCINNATI_SOUTH = "10,8:2~12,8:4"
INDIANAPOLIS_CINCINNATI_NORTH = "10,8:1~12,8:5"
CINCINNATI_FORT_WAYNE = "11,6:2~12,8:0"

OWN_SHARP_SE_OF_CHICAGO = t("8,6", "sharp_curve", 4, 0)
"""Seat 0's incomplete track out of Chicago, ending at 8,6's edge 4, facing 7,6."""

MOVING = {"phase": "move", "board": network(), "cubes": {"9,9": ["blue", "red", "yellow"]}, "locomotive": [3, 3, 3]}


def last_pass(**position: Any) -> dict[str, Any]:
    """Moving goods with only seat 2's last pass to come: the move ends the phase."""
    return {"phase": "move", "queue": [2], **position}


def build(hex_: str, tile: str, rotation: int) -> dict[str, Any]:
    return {"type": "build", "hex": hex_, "tile": tile, "rotation": rotation}


def built(cost: int, kind: str) -> dict[str, Any]:
    return {"events": [["TrackBuilt", {"cost": cost, "kind": kind}]]}


def reduction_case(number: int, income: int, cut: int) -> Case:
    return {
        "number": number,
        "title": f"income {income} is reduced by {cut}",
        "rule": "Income reduction: 11-20 -2, 21-30 -4, 31-40 -6, 41-49 -8, 50+ -10 (rules page, phases 6-8)",
        "position": last_pass(cash=[30, 30, 30], income=[income, 0, 0]),
        "seat": 2,
        "move": {"type": "pass_move"},
        "expect": (
            {"events": [["IncomeReduced", {"seat": 0, "before": income, "reduction": cut, "after": income - cut}]]}
            if cut
            else {"events": [["IncomeCollected", {"seat": 0, "amount": income}]], "absent": ["IncomeReduced"]}
        ),
    }


CASES: list[Case] = [
    # --- 1. shares --------------------------------------------------------------------------
    {
        "number": 1,
        "title": "three shares bring $15",
        "rule": "Issue shares: $5 each, in player order (phase 1)",
        "position": {"phase": "shares"},
        "seat": 0,
        "move": {"type": "issue_shares", "count": 3},
        "expect": {"events": [["SharesIssued", {"seat": 0, "count": 3, "total": 5}]]},
    },
    {
        "number": 2,
        "title": "the sixteenth share is refused",
        "rule": "At most 15 shares per player over the game, the 2 at setup included",
        "position": {"phase": "shares", "shares": [14, 2, 2]},
        "seat": 0,
        "move": {"type": "issue_shares", "count": 2},
        "expect": {"error": "share_limit"},
    },
    # --- 2. the auction -------------------------------------------------------------------------
    {
        "number": 3,
        "title": "3 players, drop order 2 then 1",
        "rule": "Auction: the first to drop pays nothing, the last two pay in full",
        "position": {"phase": "auction", "cash": [20, 20, 20], "bids": {0: 5, 1: 4}, "high_bidder": 0,
                     "dropped": [2], "bidders": [0, 1], "current": 1},
        "seat": 1,
        "move": {"type": "drop"},
        "expect": {"events": [["AuctionSettled", {"order": [0, 1, 2], "drop_order": [2, 1],
                                                  "payments": {"0": 5, "1": 4, "2": 0}}]]},
    },
    {
        "number": 4,
        "title": "3 players, the first bidder drops first",
        "rule": "Auction: the first to drop takes the last place and pays nothing, even after bidding",
        "position": {"phase": "auction", "cash": [20, 20, 20], "bids": {0: 3, 1: 7, 2: 6}, "high_bidder": 1,
                     "dropped": [0], "bidders": [1, 2], "current": 2},
        "seat": 2,
        "move": {"type": "drop"},
        "expect": {"events": [["AuctionSettled", {"order": [1, 2, 0], "payments": {"0": 0, "1": 7, "2": 6}}]]},
    },
    {
        "number": 5,
        "title": "4 players, drop order 3, 1, 0",
        "rule": "Auction: droppers between the first and the last two pay half their bid, rounded up",
        "position": {"seats": 4, "phase": "auction", "cash": [20] * 4, "bids": {3: 2, 1: 5, 0: 6, 2: 8},
                     "high_bidder": 2, "dropped": [3, 1], "bidders": [0, 2], "current": 0},
        "seat": 0,
        "move": {"type": "drop"},
        "expect": {"events": [["AuctionSettled", {"order": [2, 0, 1, 3],
                                                  "payments": {"0": 6, "1": 3, "2": 8, "3": 0}}]]},
    },
    {
        "number": 6,
        "title": "4 players, drop order 1, 2, 3",
        "rule": "Auction: payments by drop order (half of 3 rounds up to 2)",
        "position": {"seats": 4, "phase": "auction", "cash": [20] * 4, "bids": {1: 1, 2: 3, 3: 4, 0: 5},
                     "high_bidder": 0, "dropped": [1, 2], "bidders": [0, 3], "current": 3},
        "seat": 3,
        "move": {"type": "drop"},
        "expect": {"events": [["AuctionSettled", {"order": [0, 3, 2, 1],
                                                  "payments": {"0": 5, "1": 0, "2": 2, "3": 4}}]]},
    },
    {
        "number": 7,
        "title": "5 players, drop order 4, 3, 2, 1",
        "rule": "Auction: payments by drop order with 5 players",
        "position": {"seats": 5, "phase": "auction", "cash": [20] * 5, "bids": {4: 1, 3: 3, 2: 5, 1: 6, 0: 7},
                     "high_bidder": 0, "dropped": [4, 3, 2], "bidders": [0, 1], "current": 1},
        "seat": 1,
        "move": {"type": "drop"},
        "expect": {"events": [["AuctionSettled", {"order": [0, 1, 2, 3, 4],
                                                  "payments": {"0": 7, "1": 6, "2": 3, "3": 2, "4": 0}}]]},
    },
    {
        "number": 8,
        "title": "6 players, drop order 0, 5, 1, 4, 2",
        "rule": "Auction: payments by drop order with 6 players",
        "position": {"seats": 6, "phase": "auction", "cash": [20] * 6,
                     "bids": {0: 2, 5: 3, 1: 5, 4: 7, 2: 8, 3: 9}, "high_bidder": 3,
                     "dropped": [0, 5, 1, 4], "bidders": [2, 3], "current": 2},
        "seat": 2,
        "move": {"type": "drop"},
        "expect": {"events": [["AuctionSettled", {"order": [3, 2, 4, 1, 5, 0],
                                                  "payments": {"0": 0, "1": 3, "2": 8, "3": 9, "4": 4, "5": 2}}]]},
    },
    {
        "number": 9,
        "title": "6 players, nobody bids",
        "rule": "Auction: a player who never bid pays $0; the last one left wins without paying",
        "position": {"seats": 6, "phase": "auction", "dropped": [0, 1, 2, 3], "bidders": [4, 5], "current": 4},
        "seat": 4,
        "move": {"type": "drop"},
        "expect": {"events": [["AuctionSettled", {"order": [5, 4, 3, 2, 1, 0],
                                                  "payments": {str(s): 0 for s in range(6)}}]]},
    },
    {
        "number": 10,
        "title": "the Turn Order pass with two bidders left",
        "rule": "Auction: the Turn Order pass may not be used when only two bidders remain",
        "position": {"phase": "auction", "bids": {0: 2}, "high_bidder": 0, "dropped": [2], "bidders": [0, 1],
                     "current": 1, "pass_holder": 1},
        "seat": 1,
        "move": {"type": "turn_order_pass"},
        "expect": {"error": "pass_with_two_bidders"},
    },
    {
        "number": 11,
        "title": "the Turn Order pass with three bidders",
        "rule": "Auction: the Turn Order holder may pass once without bidding and stay in",
        "position": {"phase": "auction", "bids": {0: 2}, "high_bidder": 0, "current": 1, "pass_holder": 1},
        "seat": 1,
        "move": {"type": "turn_order_pass"},
        "expect": {"events": [["TurnOrderPassUsed", {"seat": 1}]], "absent": ["AuctionSettled"]},
    },
    {
        "number": 12,
        "title": "a bid that does not beat the high bid",
        "rule": "Auction: bid higher than the current high bid, by at least $1",
        "position": {"phase": "auction", "bids": {0: 4}, "high_bidder": 0, "current": 1},
        "seat": 1,
        "move": {"type": "bid", "amount": 4},
        "expect": {"error": "bid_too_low"},
    },
    {
        "number": 13,
        "title": "a bid above the bidder's cash",
        "rule": "Auction: no bid may exceed the bidder's cash",
        "position": {"phase": "auction", "cash": [3, 10, 10]},
        "seat": 0,
        "move": {"type": "bid", "amount": 4},
        "expect": {"error": "bid_over_cash"},
    },
    # --- 3. actions -------------------------------------------------------------------------------
    {
        "number": 14,
        "title": "an action already taken",
        "rule": "Select actions: each action by at most one player",
        "position": {"phase": "actions", "queue": [1, 2], "actions": {"engineer": 0}},
        "seat": 1,
        "move": {"type": "select_action", "action": "engineer"},
        "expect": {"error": "action_taken"},
    },
    {
        "number": 15,
        "title": "Locomotive raises the locomotive at once",
        "rule": "Select actions: Locomotive raises the locomotive by 1 link at once (max 6)",
        "position": {"phase": "actions"},
        "seat": 0,
        "move": {"type": "select_action", "action": "locomotive"},
        "expect": {"events": [["ActionSelected", {"seat": 0, "action": "locomotive"}],
                              ["LocomotiveIncreased", {"seat": 0, "before": 1, "after": 2}]]},
    },
    # --- 4. build costs ---------------------------------------------------------------------------
    {
        "number": 16,
        "title": "a simple tile on plain",
        "rule": "Build costs: simple tile on plain $2",
        "position": {},
        "seat": 0,
        "move": build("7,6", "straight", 0),
        "expect": built(2, "new"),
    },
    {
        "number": 17,
        "title": "a simple tile on a river",
        "rule": "Build costs: simple tile on river $3",
        "position": {},
        "seat": 0,
        "move": build("2,3", "straight", 2),
        "expect": built(3, "new"),
    },
    {
        "number": 18,
        "title": "a simple tile on a mountain",
        "rule": "Build costs: simple tile on mountain $4",
        "position": {},
        "seat": 0,
        "move": build("17,7", "gentle_curve", 4),
        "expect": built(4, "new"),
    },
    {
        "number": 19,
        "title": "a coexisting tile on plain",
        "rule": "Build costs: complex coexisting tile on plain $3",
        "position": {"board": [OWN_SHARP_SE_OF_CHICAGO]},
        "seat": 0,
        "move": build("7,6", "straight_sharp", 0),
        "expect": built(3, "new"),
    },
    {
        "number": 20,
        "title": "a crossing tile on plain",
        "rule": "Build costs: complex crossing tile on plain $4",
        "position": {"board": [OWN_SHARP_SE_OF_CHICAGO]},
        "seat": 0,
        "move": build("7,6", "x_crossing", 0),
        "expect": built(4, "new"),
    },
    {
        "number": 21,
        "title": "a coexisting tile on a river",
        "rule": "Build costs: complex coexisting tile on river $4",
        "position": {"board": [t("6,10", "sharp_curve", 5, 0)]},
        "seat": 0,
        "move": build("6,9", "twin_gentle_curves", 1),
        "expect": built(4, "new"),
    },
    {
        "number": 22,
        "title": "a crossing tile on a river",
        "rule": "Build costs: complex crossing tile on river $5",
        "position": {"board": [t("6,10", "sharp_curve", 5, 0)]},
        "seat": 0,
        "move": build("6,9", "x_crossing", 0),
        "expect": built(5, "new"),
    },
    {
        "number": 23,
        "title": "a coexisting tile on a mountain",
        "rule": "Build costs: complex coexisting tile on mountain $5",
        "position": {"board": [t("17,8", "sharp_curve", 5, 0)]},
        "seat": 0,
        "move": build("17,7", "straight_sharp", 3),
        "expect": built(5, "new"),
    },
    {
        "number": 24,
        "title": "a crossing tile on a mountain",
        "rule": "Build costs: complex crossing tile on mountain $6",
        "position": {"board": [t("17,8", "sharp_curve", 5, 0)]},
        "seat": 0,
        "move": build("17,7", "crossed_gentle_curves", 3),
        "expect": built(6, "new"),
    },
    {
        "number": 25,
        "title": "a one-exit town",
        "rule": "Build costs: town tile $1 + $1 per exit",
        "position": {"board": [t("7,4", "straight", 0, 0)]},
        "seat": 0,
        "move": build("7,3", "town_1", 3),
        "expect": built(2, "town"),
    },
    {
        "number": 26,
        "title": "a three-exit town",
        "rule": "Build costs: town tile $1 + $1 per exit, terrain ignored",
        "position": {"board": [t("7,4", "straight", 0, 0)]},
        "seat": 0,
        "move": build("7,3", "town_3_left_leaner", 3),
        "expect": built(4, "town"),
    },
    {
        "number": 27,
        "title": "a two-exit town with a disc",
        "rule": "Towns with 2 or 4 exits use an ordinary tile plus a white town disc",
        "position": {"board": [t("7,4", "straight", 0, 0)]},
        "seat": 0,
        "move": build("7,3", "straight", 0),
        "expect": {"events": [["TrackBuilt", {"cost": 3, "kind": "town", "disc": True, "disc_delta": 1}]]},
    },
    {
        "number": 28,
        "title": "upgrading a simple tile to a crossing",
        "rule": "Upgrade simple -> crossing $3, terrain ignored; the existing track is kept",
        "position": {"board": [t("7,6", "straight", 0, 1), OWN_SHARP_SE_OF_CHICAGO]},
        "seat": 0,
        "move": build("7,6", "x_crossing", 0),
        "expect": {"events": [["TrackBuilt", {"cost": 3, "kind": "upgrade", "owners": [1, 0], "returned": "straight"}]]},
    },
    {
        "number": 29,
        "title": "upgrading a simple tile to coexisting track",
        "rule": "Upgrade simple -> coexisting $2 (ruling 2)",
        "position": {"board": [t("7,6", "straight", 0, 0), OWN_SHARP_SE_OF_CHICAGO]},
        "seat": 0,
        "move": build("7,6", "straight_sharp", 0),
        "expect": built(2, "upgrade"),
    },
    {
        "number": 30,
        "title": "adding exits to a town",
        "rule": "Adding exits to a town $3; the town keeps its exits",
        "position": {"board": [t("7,4", "straight", 0, 0), t("7,3", "town_1", 3, 0)]},
        "seat": 0,
        "move": build("7,3", "town_3_left_leaner", 3),
        "expect": {"events": [["TrackBuilt", {"cost": 3, "kind": "town_upgrade", "returned": "town_1"}]]},
    },
    {
        "number": 31,
        "title": "redirecting one's own loose end",
        "rule": "Redirect $2: incomplete track of one's own may be turned at its loose end",
        "position": {"board": [t("7,6", "straight", 0, 0)]},
        "seat": 0,
        "move": build("7,6", "gentle_curve", 0),
        "expect": built(2, "redirect"),
    },
    # --- 4. placement rules -------------------------------------------------------------------------
    {
        "number": 32,
        "title": "running straight into another player's track",
        "rule": "Track may not run straight into another player's track",
        "position": {"board": [t("7,6", "straight", 0, 1)]},
        "seat": 0,
        "move": build("7,7", "straight", 0),
        "expect": {"error": "into_others_track"},
    },
    {
        "number": 33,
        "title": "redirecting another player's loose end",
        "rule": "Other players' track is always preserved",
        "position": {"board": [t("7,6", "straight", 0, 1)]},
        "seat": 0,
        "move": build("7,6", "gentle_curve", 0),
        "expect": {"error": "redirect_others_track"},
    },
    {
        "number": 34,
        "title": "a loop back to Chicago",
        "rule": "Track may not form a loop back to the city it left",
        "position": {"board": [OWN_SHARP_SE_OF_CHICAGO]},
        "seat": 0,
        "move": build("7,6", "sharp_curve", 0),
        "expect": {"error": "loop"},
    },
    {
        "number": 35,
        "title": "track into Lake Michigan",
        "rule": "Track may not run into a lake",
        "position": {},
        "seat": 0,
        "move": build("7,4", "sharp_curve", 2),
        "expect": {"error": "into_lake"},
    },
    {
        "number": 36,
        "title": "track off the west edge",
        "rule": "Track may not run off the board",
        "position": {},
        "seat": 0,
        "move": build("0,9", "sharp_curve", 3),
        "expect": {"error": "off_board"},
    },
    {
        "number": 37,
        "title": "a tile on Chicago",
        "rule": "No track tile is placed on a city hex",
        "position": {},
        "seat": 0,
        "move": build("7,5", "straight", 0),
        "expect": {"error": "city_hex"},
    },
    {
        "number": 38,
        "title": "a first tile that touches no city",
        "rule": "A player's first tile must be adjacent to a city and connect into it",
        "position": {},
        "seat": 0,
        "move": build("7,7", "straight", 0),
        "expect": {"error": "not_connected"},
    },
    {
        "number": 39,
        "title": "two placements on one hex in a turn",
        "rule": "No two placements on the same hex in one turn",
        "position": {"board": [t("7,6", "straight", 0, 0)], "placed": ["7,6"]},
        "seat": 0,
        "move": build("7,6", "gentle_curve", 0),
        "expect": {"error": "hex_built_this_turn"},
    },
    {
        "number": 40,
        "title": "a fourth tile without the Engineer",
        "rule": "Up to 3 tiles a turn (Engineer: 4)",
        "position": {"placed": ["1,1", "1,3", "0,3"]},
        "seat": 0,
        "move": build("7,6", "straight", 0),
        "expect": {"error": "build_limit"},
    },
    # --- 4. ownership of incomplete track ---------------------------------------------------------------
    {
        "number": 41,
        "title": "unextended incomplete track loses its owner",
        "rule": "Incomplete track stays owned until the end of its owner's next build turn",
        "position": {"board": [t("7,6", "straight", 0, 0)]},
        "seat": 0,
        "move": {"type": "end_build"},
        "expect": {"events": [["BuildEnded", {"seat": 0}], ["TrackAbandoned", {"seat": 0, "segments": [["7,6", 0]]}]]},
    },
    {
        "number": 42,
        "title": "unowned track is taken by the player who extends it",
        "rule": "Track that lost its owner may be extended and taken by another player",
        "position": {"board": [t("7,6", "straight", 0, None)], "queue": [1, 0, 2], "built": [0, 1]},
        "seat": 1,
        "move": build("7,7", "straight", 0),
        "expect": {"events": [["TrackBuilt", {"seat": 1, "owners": [1], "taken": [["7,6", 0]]}]]},
    },
    {
        "number": 43,
        "title": "a completed link is kept for good",
        "rule": "Track that joins two cities/towns is a completed link, owned for good",
        "position": {"board": [t("7,4", "straight", 0, 0), t("7,3", "town_1", 3, 0)]},
        "seat": 0,
        "move": {"type": "end_build"},
        "expect": {"events": [["BuildEnded", {"seat": 0}]], "absent": ["TrackAbandoned"]},
    },
    # --- 5. moving goods --------------------------------------------------------------------------------
    {
        "number": 44,
        "title": "a delivery through another player's link",
        "rule": "For every link a good travels, the link's owner gains +1 income",
        "position": MOVING,
        "seat": 0,
        "move": {"type": "deliver", "city": "9,9", "cube": "blue",
                 "path": [EVANSVILLE_INDIANAPOLIS, INDIANAPOLIS_CINCINNATI_SOUTH]},
        "expect": {"events": [["GoodsDelivered", {"seat": 0, "from": "9,9", "to": "12,8", "income": {"0": 1, "1": 1}}]]},
    },
    {
        "number": 45,
        "title": "a blue good passing a blue city",
        "rule": "A good entering a city of its colour must stop there",
        "position": MOVING,
        "seat": 0,
        "move": {"type": "deliver", "city": "9,9", "cube": "blue",
                 "path": [EVANSVILLE_INDIANAPOLIS, INDIANAPOLIS_CINCINNATI_SOUTH, CINCINNATI_FORT_WAYNE]},
        "expect": {"error": "must_stop_at_colour"},
    },
    {
        "number": 46,
        "title": "a good back through Indianapolis",
        "rule": "A good may pass through each city (and town) at most once",
        "position": MOVING,
        "seat": 0,
        "move": {"type": "deliver", "city": "9,9", "cube": "red",
                 "path": [EVANSVILLE_INDIANAPOLIS, INDIANAPOLIS_CINCINNATI_SOUTH, INDIANAPOLIS_CINCINNATI_NORTH]},
        "expect": {"error": "stop_visited_twice"},
    },
    {
        "number": 47,
        "title": "two links with a one-link locomotive",
        "rule": "A good travels at most as many links as the mover's locomotive",
        "position": {**MOVING, "locomotive": [1, 3, 3]},
        "seat": 0,
        "move": {"type": "deliver", "city": "9,9", "cube": "blue",
                 "path": [EVANSVILLE_INDIANAPOLIS, INDIANAPOLIS_CINCINNATI_NORTH]},
        "expect": {"error": "beyond_locomotive"},
    },
    {
        "number": 48,
        "title": "the locomotive instead of a second move",
        "rule": "Raising the locomotive instead of moving a good: at most once a turn",
        "position": {**MOVING, "loco_upgraded": [0], "queue": [0, 1, 2]},
        "seat": 0,
        "move": {"type": "upgrade_locomotive"},
        "expect": {"error": "locomotive_once_per_turn"},
    },
    # --- 6-8. income, expenses, income reduction ------------------------------------------------------
    reduction_case(49, 10, 0),
    reduction_case(50, 11, 2),
    reduction_case(51, 20, 2),
    reduction_case(52, 21, 4),
    reduction_case(53, 30, 4),
    reduction_case(54, 31, 6),
    reduction_case(55, 40, 6),
    reduction_case(56, 41, 8),
    reduction_case(57, 49, 8),
    reduction_case(58, 50, 10),
    {
        "number": 59,
        "title": "a shortfall costs income",
        "rule": "A player who cannot pay pays what they have and loses $1 of income per $1 not paid",
        "position": last_pass(cash=[0, 10, 10], income=[3, 0, 0], shares=[4, 2, 2], locomotive=[2, 1, 1]),
        "seat": 2,
        "move": {"type": "pass_move"},
        "expect": {"events": [["ExpensesPaid", {"seat": 0, "due": 6, "paid": 3, "income_lost": 3, "income_after": 0}]],
                   "absent": ["PlayerBankrupt"]},
    },
    {
        "number": 60,
        "title": "negative income is bankruptcy",
        "rule": "A player whose income becomes negative is bankrupt and out; their track loses its owner",
        "position": last_pass(cash=[0, 10, 10], income=[1, 0, 0], shares=[4, 2, 2], board=[t("7,6", "straight", 0, 0)]),
        "seat": 2,
        "move": {"type": "pass_move"},
        "expect": {"events": [["ExpensesPaid", {"seat": 0, "income_lost": 4, "income_after": -3}],
                              ["PlayerBankrupt", {"seat": 0}]]},
    },
    # --- 9. goods growth, Production -----------------------------------------------------------------
    {
        "number": 61,
        "title": "goods growth feeds a new city",
        "rule": "A light 3 also feeds new city A once it is on the map; a light 4 does not feed B off the map",
        "position": last_pass(cash=[30, 30, 30], new_cities={"7,3": "A"},
                              display={"L3": ["red", None, None], "A": ["purple", "black"], "B": ["blue", "blue"]}),
        "seat": 2,
        "move": {"type": "pass_move"},
        "dice": [3, 4, 6, 6, 6, 6],
        "expect": {"events": [["GrowthDieRolled", {"half": "light", "value": 3}],
                              ["GoodsGrown", {"column": "L3", "city": "Kansas City", "cube": "red"}],
                              ["GoodsGrown", {"column": "A", "hex": "7,3", "cube": "purple"}],
                              ["TurnBegan", {"turn": 2}]]},
    },
    {
        "number": 62,
        "title": "Production with a full display",
        "rule": "Production draws only as many goods as there are empty display spaces",
        "position": last_pass(cash=[30, 30, 30], actions={"production": 1}),
        "seat": 2,
        "move": {"type": "pass_move"},
        "expect": {"events": [["GrowthDieRolled", {"half": "light", "index": 0}]], "absent": ["ProductionDrawn"]},
    },
    {
        "number": 63,
        "title": "Production onto an empty space",
        "rule": "Production: the holder places each drawn good on an empty display space of their choice",
        "position": {"phase": "production", "actions": {"production": 1}, "production": ["black"],
                     "display": {"L5": [None, "red", "red"]}, "queue": [1]},
        "seat": 1,
        "move": {"type": "place_production", "column": "L5", "space": 0},
        "expect": {"events": [["GoodsProduced", {"seat": 1, "cube": "black", "column": "L5", "space": 0}],
                              ["PhaseBegan", {"phase": "goods_growth"}]]},
    },
    # --- 4. Urbanization ------------------------------------------------------------------------------
    {
        "number": 64,
        "title": "Urbanization on Milwaukee",
        "rule": "Urbanization: a new city on a town, free, before building; unowned track it completes goes to the urbanizer",
        "position": {"actions": {"urbanization": 0}, "board": [t("7,4", "straight", 0, None)]},
        "seat": 0,
        "move": {"type": "urbanize", "hex": "7,3", "city": "C"},
        "expect": {"events": [["CityUrbanized", {"seat": 0, "hex": "7,3", "town": "Milwaukee", "city": "C",
                                                 "colour": "black", "claimed": ["7,4"]}]]},
    },
    {
        "number": 65,
        "title": "Urbanization after building",
        "rule": "Urbanization happens before building",
        "position": {"actions": {"urbanization": 0}, "placed": ["7,6"], "board": [t("7,6", "straight", 0, 0)]},
        "seat": 0,
        "move": {"type": "urbanize", "hex": "7,3", "city": "C"},
        "expect": {"error": "urbanize_before_building"},
    },
    # --- the end --------------------------------------------------------------------------------------
    {
        "number": 66,
        "title": "the last turn ends after income reduction",
        "rule": "3 players play 10 turns; final scoring: 3 x income - 3 x shares + track in completed links",
        "position": last_pass(turn=10, cash=[30, 30, 30], income=[12, 5, 0], shares=[5, 2, 2],
                              board=[t("7,4", "straight", 0, 0), t("7,3", "town_1", 3, 0)]),
        "seat": 2,
        "move": {"type": "pass_move"},
        "expect": {"events": [["IncomeReduced", {"seat": 0, "after": 10}],
                              ["FinalScored", {"seat": 0, "income_vp": 30, "shares_vp": -15, "track_vp": 2, "vp": 17}],
                              ["GameEnded", {"scores": {"0": 17, "1": 9, "2": -6}, "winners": [0]}]],
                   "absent": ["GrowthDieRolled"]},
    },
    {
        "number": 67,
        "title": "a tie broken by cash",
        "rule": "Ties: more cash wins",
        "position": last_pass(turn=10, cash=[30, 31, 10], income=[2, 2, 0]),
        "seat": 2,
        "move": {"type": "pass_move"},
        "expect": {"events": [["GameEnded", {"winners": [1], "decided_by": "cash"}]]},
    },
    {
        "number": 68,
        "title": "a tie broken by track",
        "rule": "Ties: more cash, then more track",
        "position": last_pass(turn=10, cash=[21, 20, 10], income=[2, 2, 0], shares=[3, 2, 2],
                              board=network(ei=0, ic_south=0, ic_north=None, cf=None)),
        "seat": 2,
        "move": {"type": "pass_move"},
        "expect": {"events": [["GameEnded", {"winners": [0], "decided_by": "track"}]]},
    },
    {
        "number": 69,
        "title": "a tie broken by a die",
        "rule": "Ties: more cash, then more track, then a die roll (recorded)",
        "position": last_pass(turn=10, cash=[20, 20, 10], income=[2, 2, 0]),
        "seat": 2,
        "move": {"type": "pass_move"},
        "dice": [6, 3],
        "expect": {"events": [["TieBreakRolled", {"seat": 0, "value": 6}], ["TieBreakRolled", {"seat": 1, "value": 3}],
                              ["GameEnded", {"winners": [0], "decided_by": "dice"}]]},
    },
    {
        "number": 70,
        "title": "the game ends when one player is left",
        "rule": "The game ends at once if at most one player is left; eliminated players do not score",
        "position": last_pass(cash=[0, 0, 10], income=[0, 0, 1]),
        "seat": 2,
        "move": {"type": "pass_move"},
        "expect": {"events": [["PlayerBankrupt", {"seat": 0}], ["PlayerBankrupt", {"seat": 1}],
                              ["GameEnded", {"winners": [2], "eliminated": [0, 1]}]],
                   "absent": ["IncomeReduced", "GrowthDieRolled"]},
    },
    {
        "number": 71,
        "title": "a first tile extending unowned track",
        "rule": "A player's first tile of the game must be adjacent to a city and connect into it",
        "position": {"board": [t("7,6", "straight", 0, None)], "queue": [1, 0, 2]},
        "seat": 1,
        "move": build("7,7", "straight", 0),
        "expect": {"error": "not_connected"},
    },
]
