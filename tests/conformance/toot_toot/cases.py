"""Toot-Toot Train conformance cases: each a short position on the reference pack's
"harbour" map, one move, and the ruling expected, with the rule (docs/rules/toot_toot.md) it
tests.

A case is plain data:
- `position`: keyword arguments of `tests.unit.toot_toot.helpers.table` (trains as
  (hex, facing), goods, hands, public orders, extra track, factories, upgrades...).
- `seat`, `move`: the move played.
- `expect`: either {"error": code, "says": [words the refusal must hold]} or
  {"events": [[kind, data subset], ...]}: events that must appear in this order (others may
  come between); "absent" lists kinds that must not appear; "after" holds attributes of the
  state after the move.

The harbour map (hexes "col,row"; odd rows shifted right; edges 0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE):

    row 0   0,0 1,0 2,0 3,0 4,0 5,0 6,0 7,0 8,0 9,0      (starts at 2,0 4,0 6,0 8,0 facing 1)
    row 1    0,1 1,1 2,1 3,1 4,1 YEL 6,1 7,1 8,1 9,1     (starts at 0,1 0,3 0,5 0,7 facing 0)
    row 2   0,2 1,2 2,2 WOO ### 5,2 6,2 COA 8,2 9,2
    row 3    0,3 1,3 2,3 3,3 PAP 5,3 6,3 7,3 8,3 9,3
    row 4   0,4 1,4 GRE GRE 4,4 5,4 ### 7,4 RED RED
    row 5    0,5 1,5 ### 3,5 4,5 IRO 6,5 BRI 8,5 9,5
    row 6   0,6 1,6 STO 3,6 4,6 5,6 6,6 7,6 SUL 9,6
    row 7    0,7 1,7 2,7 3,7 4,7 BLU BLU 7,7 8,7 9,7

Opening positions used below: green city 1,3 and 4,4; wood site 3,3; paper mill 5,3 (its west
side, towards 3,3, is closed).
"""

from __future__ import annotations

from typing import Any

Case = dict[str, Any]

AT_GREEN = {"trains": [("1,3", 0), ("8,2", 0)]}
AT_WOOD = {"trains": [("3,3", 0), ("8,2", 0)]}
AT_MILL = {"trains": [("5,3", 0), ("8,2", 0)]}
ROW3 = {"trains": [("0,3", 0), ("8,2", 0)], "track": {"1,3": [(3, 0), (3, 5)], "2,3": [(3, 0)], "2,2": [(2, 5)]}}
ROW0 = {"trains": [("0,0", 0), ("8,2", 3)], "track": {f"{c},0": [(0, 3)] for c in range(1, 9)}}
BY_CORNER = {"trains": [("6,6", 3), ("1,1", 0)], "current": 0}
NORTH_WEST = {"trains": [("1,1", 0), ("0,2", 0)]}
LAST_TURN = {**AT_GREEN, "step": "after", "current": 1, "round": 7, "last_round": 7,
             "hands": [["G1"], []], "kept": [["G2"], ["R1"]], "goods": [{"wood": 1, "coal": 3}, {}],
             "score": [10, 12], "penalties": [0, 2], "upgrades": [{}, {"pairs": 1}]}
"""Seat 1 is to end the last turn of the last round; seat 0 holds the wood its hand order G1 wants."""
LAST_TURN_SCORED = [["FinalScored", {"seat": 0, "line": "hand_orders", "points": 1}],
                    ["FinalScored", {"seat": 0, "line": "leftover_goods", "points": 1}],
                    ["FinalScored", {"seat": 0, "line": "influence_green", "points": 4}],
                    ["FinalScored", {"seat": 1, "line": "influence_red", "points": 2}],
                    ["FinalScored", {"seat": 1, "line": "penalties", "points": -6}],
                    ["GameEnded", {"scores": {"0": 16, "1": 8}, "winners": [0]}]]
"""LAST_TURN's final scoring once G1 is supplied, under either ruleset."""
SCORING_FOR_0 = {**AT_GREEN, "phase": "scoring", "choosing": (0,), "current": 1, "round": 7, "last_round": 7}
"""Final scoring, seat 0 to choose which hand orders to supply."""
ISSUE = {**SCORING_FOR_0, "hands": [["B6", "B1"], []], "goods": [{"coal": 1}, {}], "kept": [[], ["B2"]],
         "score": [20, 20]}
"""Issue 36's example: 1 coal, a hand order wanting coal and tools (B6, dealt first) and one
wanting coal only (B1); the other seat holds one blue card."""
THREE_LAST_TURN = {"seats": 3, "trains": [("1,3", 0), ("8,2", 0), ("0,0", 0)], "step": "after", "current": 2,
                   "round": 7, "last_round": 7, "hands": [["B6"], ["R1"], ["G1"]],
                   "goods": [{"wood": 1}, {"iron": 1}, {"wood": 1}]}
WORKED_SALE = {"trains": [("1,3", 0), ("8,2", 0)], "public": ["G4", "G5", "Y1"], "hands": [["G6"], ["R1"]],
               "goods": [{"wood": 1, "paper": 1, "stone": 1, "brick": 1}, {}]}
EMPTY_DECK = {"trains": [("7,3", 0), ("1,1", 0)], "goods": [{"iron": 2}, {}], "public": ["R1", "Y1", "Y2"],
              "hands": [["R7"], []], "discard": ["G1", "G2"], "deck": [], "step": "location",
              "kept": [[], [f"{c}{n}" for c in "BGRY" for n in range(1, 10)
                            if f"{c}{n}" not in ("R1", "R7", "Y1", "Y2", "G1", "G2")]]}
"""Seat 0 at the red city's north-west opening (7,3) with 2 iron, R1 (iron) public and R7
(iron, paper) in its hand; the deck is empty, G1 and G2 are the discards, and seat 1 keeps
every other card, so each order card is in one place."""


def draw(hex_: str, a: int, b: int) -> dict[str, Any]:
    return {"type": "draw_track", "hex": hex_, "from": a, "to": b}


def error(code: str, *says: str) -> dict[str, Any]:
    return {"error": code, "says": list(says)}



CASES: list[Case] = [
    # --- track (R1, R2) ----------------------------------------------------------------
    {"title": "a straight segment is drawn", "rule": "R1, R2: opposite edges make a straight segment",
     "position": AT_GREEN, "seat": 0, "move": draw("6,3", 3, 0),
     "expect": {"events": [["TrackDrawn", {"hex": "6,3", "edges": [3, 0], "action": "main"}]],
                "after": {"step": "drawing", "line": ("6,3", 0, 1)}}},
    {"title": "a gentle curve is drawn", "rule": "R1: edges one apart from opposite make a gentle curve",
     "position": AT_GREEN, "seat": 0, "move": draw("6,3", 3, 1),
     "expect": {"events": [["TrackDrawn", {"edges": [3, 1]}]]}},
    {"title": "neighbouring edges are not a segment", "rule": "R1: a segment never joins neighbouring edges",
     "position": AT_GREEN, "seat": 0, "move": draw("6,3", 0, 1), "expect": error("bad_segment", "neighbours")},
    {"title": "no track on a building", "rule": "R2: no track on a hex with a building",
     "position": AT_GREEN, "seat": 0, "move": draw("3,2", 0, 3), "expect": error("no_track_here", "3,2")},
    {"title": "no track on blocked terrain", "rule": "R2: a segment lies in a hex with no blocked terrain",
     "position": AT_GREEN, "seat": 0, "move": draw("4,2", 0, 3), "expect": error("no_track_here", "blocked")},
    {"title": "an existing segment is not drawn again", "rule": "R2: a segment must not repeat an existing one",
     "position": {**AT_GREEN, "track": {"6,3": [(0, 3)]}}, "seat": 0, "move": draw("6,3", 3, 0),
     "expect": error("track_exists")},
    {"title": "a line goes on across its last segment's end", "rule": "R2: segment k+1 starts at the edge across segment k's end",
     "position": {**AT_GREEN, "step": "drawing", "line": ("6,3", 0, 1), "track": {"6,3": [(3, 0)]}},
     "seat": 0, "move": draw("8,3", 3, 0), "expect": error("line_broken", "7,3")},
    {"title": "the third segment ends action A", "rule": "R2: action A draws up to 3 connected segments",
     "position": {**AT_GREEN, "step": "drawing", "line": ("7,3", 0, 2), "track": {"6,3": [(3, 0)], "7,3": [(3, 0)]}},
     "seat": 0, "move": draw("8,3", 3, 0),
     "expect": {"events": [["TrackDrawn", {"hex": "8,3"}]], "absent": ["LineEnded"], "after": {"step": "location"}}},
    {"title": "a line at the border ends by itself", "rule": "R2: a segment may end on the border, but the line cannot go on off the map",
     "position": AT_GREEN, "seat": 0, "move": draw("9,3", 3, 0),
     "expect": {"events": [["TrackDrawn", {"hex": "9,3"}], ["LineEnded", {"segments": 1}]], "after": {"step": "location"}}},
    {"title": "no extra action inside action A", "rule": "R18: extra actions never inside an action",
     "position": {**AT_GREEN, "step": "drawing", "line": ("6,3", 0, 1), "track": {"6,3": [(3, 0)]},
                  "goods": [{"iron": 1}, {}]},
     "seat": 0, "move": {"type": "iron_track", "hex": "1,0", "from": 0, "to": 3}, "expect": error("not_now")},
    {"title": "iron draws one segment anywhere", "rule": "R2 and extra action b: 1 iron, 1 segment",
     "position": {**AT_GREEN, "goods": [{"iron": 1}, {}]}, "seat": 0,
     "move": {"type": "iron_track", "hex": "9,7", "from": 0, "to": 3},
     "expect": {"events": [["TrackDrawn", {"hex": "9,7", "action": "iron"}], ["GoodsPaid", {"good": "iron", "count": 1}]],
                "after": {"step": "main"}}},
    {"title": "the iron action needs iron", "rule": "extra action b: spend 1 iron",
     "position": AT_GREEN, "seat": 0, "move": {"type": "iron_track", "hex": "9,7", "from": 0, "to": 3},
     "expect": error("missing_goods", "iron")},
    # --- moving and turning (R3-R5) ----------------------------------------------------
    {"title": "a move follows the track the way the train faces", "rule": "R4: a step leaves by the facing edge",
     "position": ROW3, "seat": 0, "move": {"type": "drive", "hex": "2,3", "facing": 0},
     "expect": {"events": [["TrainMoved", {"path": [["1,3", 0], ["2,3", 0]]}]], "after": {"step": "location"}}},
    {"title": "at a junction the mover chooses", "rule": "R4: the mover chooses at a junction",
     "position": ROW3, "seat": 0, "move": {"type": "drive", "hex": "2,2", "facing": 5},
     "expect": {"events": [["TrainMoved", {"path": [["1,3", 5], ["2,2", 5]]}]]}},
    {"title": "a move never goes backwards", "rule": "R4: moves never reverse",
     "position": {**ROW3, "trains": [("2,3", 0), ("8,2", 0)]}, "seat": 0,
     "move": {"type": "drive", "hex": "1,3", "facing": 3}, "expect": error("unreachable")},
    {"title": "a move may not end on another train", "rule": "R4: not ending any move on a train",
     "position": {**ROW3, "trains": [("0,3", 0), ("2,3", 0)]}, "seat": 0,
     "move": {"type": "drive", "hex": "2,3", "facing": 0}, "expect": error("unreachable", "another train")},
    {"title": "a move passes through another train", "rule": "R4: trains do not block the way",
     "position": {**ROW3, "trains": [("0,3", 0), ("1,3", 5)]}, "seat": 0,
     "move": {"type": "drive", "hex": "2,3", "facing": 0},
     "expect": {"events": [["TrainMoved", {"path": [["1,3", 0], ["2,3", 0]]}]]}},
    {"title": "wood moves up to 5 steps", "rule": "R4, extra action a: 1 wood or coal, 1 to 5 steps",
     "position": {**ROW0, "goods": [{"wood": 1}, {}]}, "seat": 0,
     "move": {"type": "fuel_move", "fuel": "wood", "hex": "5,0", "facing": 0},
     "expect": {"events": [["TrainMoved", {"fuel": "wood"}], ["GoodsPaid", {"good": "wood", "count": 1}]],
                "after": {"step": "main"}}},
    {"title": "not 6 steps for a wood", "rule": "R4: each wood or coal moves 1-5 steps",
     "position": {**ROW0, "goods": [{"coal": 1}, {}]}, "seat": 0,
     "move": {"type": "fuel_move", "fuel": "coal", "hex": "6,0", "facing": 0}, "expect": error("unreachable", "5 steps")},
    {"title": "a turn costs a penalty token", "rule": "R5: turn to another edge where a segment ends, 1 penalty token",
     "position": ROW3, "seat": 0, "move": {"type": "turn", "facing": 3},
     "expect": {"events": [["TrainTurned", {"facing": 3}], ["PenaltyTaken", {"reason": "turned"}]],
                "after": {"step": "location", "penalties_out": 1}}},
    {"title": "a turn needs a segment at the new facing", "rule": "R5: the new facing is an edge where a segment ends",
     "position": ROW3, "seat": 0, "move": {"type": "turn", "facing": 2}, "expect": error("cannot_turn")},
    {"title": "no turn once the penalty supply is out", "rule": "R6: option penalty_supply=5",
     "position": {**ROW3, "penalty_supply": 5, "penalties": [3, 2]}, "seat": 0, "move": {"type": "turn", "facing": 3},
     "expect": error("no_penalty_tokens")},
    # --- factories (R8-R10) --------------------------------------------------------------
    {"title": "a factory paid with 2 stone", "rule": "R8: three ways to pay; 2 stone",
     "position": {**NORTH_WEST, "goods": [{"stone": 2}, {}]}, "seat": 0,
     "move": {"type": "build_factory", "hex": "1,0", "kind": "brickworks", "exit": 3, "payment": "stone"},
     "expect": {"events": [["FactoryBuilt", {"hex": "1,0", "factory": "brickworks", "exit": 3}],
                           ["GoodsPaid", {"good": "stone", "count": 2}]]}},
    {"title": "a factory paid with the shovel", "rule": "R10: paying with the shovel sets it aside",
     "position": NORTH_WEST, "seat": 0,
     "move": {"type": "build_factory", "hex": "2,1", "kind": "toolworks", "exit": 0, "payment": "shovel"},
     "expect": {"events": [["FactoryBuilt", {"payment": "shovel"}], ["ShovelSpent", {"seat": 0}]]}},
    {"title": "no shovel, no shovel payment", "rule": "R10: at most 1 shovel, held from the start",
     "position": {**NORTH_WEST, "shovel": [False, True]}, "seat": 0,
     "move": {"type": "build_factory", "hex": "2,1", "kind": "toolworks", "exit": 0, "payment": "shovel"},
     "expect": error("no_shovel")},
    {"title": "not on an opening position", "rule": "R8: not across an open side of a building",
     "position": {**NORTH_WEST, "trains": [("2,1", 0), ("0,2", 0)]}, "seat": 0,
     "move": {"type": "build_factory", "hex": "3,1", "kind": "toolworks", "exit": 0, "payment": "shovel"},
     "expect": error("bad_factory_site")},
    {"title": "not in front of another train", "rule": "R8: not across another train's facing edge",
     "position": NORTH_WEST, "seat": 0,
     "move": {"type": "build_factory", "hex": "1,2", "kind": "toolworks", "exit": 3, "payment": "shovel"},
     "expect": error("bad_factory_site", "another train")},
    {"title": "the exit faces a hex a train could use", "rule": "R8: the exit must face an on-map hex without building",
     "position": NORTH_WEST, "seat": 0,
     "move": {"type": "build_factory", "hex": "1,0", "kind": "toolworks", "exit": 5, "payment": "shovel"},
     "expect": error("bad_factory_exit")},
    {"title": "a factory that would split the map is refused, naming the region",
     "rule": "R9: a placement may not increase the number of connected groups of trackable hexes",
     "position": BY_CORNER, "seat": 0,
     "move": {"type": "build_factory", "hex": "7,6", "kind": "toolworks", "exit": 3, "payment": "shovel"},
     "expect": error("splits_map", "7,6", "cutting off", "6 hexes", "7,7", "8,7", "9,7", "sulfur_site")},
    # --- location actions (R7, R11-R13, R19, R24) ---------------------------------------
    {"title": "take 1 at a site's opening, as action D", "rule": "R11: taking gives 1; D is one extra location action",
     "position": AT_WOOD, "seat": 0, "move": {"type": "take", "site": "wood_site"},
     "expect": {"events": [["ResourceTaken", {"good": "wood", "count": 1, "main": True}]], "absent": ["PenaltyTaken"],
                "after": {"step": "location"}}},
    {"title": "MAX takes as many as fit", "rule": "R11: MAX takes as many as fit",
     "position": {**AT_WOOD, "step": "location", "upgrades": [{"max_wood": 1}, {}], "goods": [{"coal": 1}, {}]},
     "seat": 0, "move": {"type": "take", "site": "wood_site"},
     "expect": {"events": [["ResourceTaken", {"count": 3, "main": False}]], "after": {"step": "after"}}},
    {"title": "nothing to take with a full store", "rule": "R11: a player holds at most 4 goods",
     "position": {**AT_WOOD, "goods": [{"coal": 4}, {}], "step": "location"}, "seat": 0,
     "move": {"type": "take", "site": "wood_site"}, "expect": error("storage_full")},
    {"title": "a location action needs the train next to the building", "rule": "R7: the train stands on an opening position",
     "position": AT_GREEN, "seat": 0, "move": {"type": "take", "site": "coal_site"}, "expect": error("not_at_location")},
    {"title": "processing at a factory's opening", "rule": "R12: one recipe of your own card",
     "position": {**AT_MILL, "goods": [{"wood": 1}, {}], "step": "location"}, "seat": 0,
     "move": {"type": "process", "factory": "paper_mill_printed", "recipe": "paper_from_wood"},
     "expect": {"events": [["GoodsProcessed", {"recipe": "paper_from_wood"}], ["GoodsPaid", {"good": "wood"}],
                           ["GoodsGained", {"good": "paper", "count": 1}]], "absent": ["PenaltyTaken"]}},
    {"title": "a closed side costs a penalty token", "rule": "R7: using another side costs 1 penalty token",
     "position": {**AT_WOOD, "goods": [{"stone": 1}, {}], "step": "location"}, "seat": 0,
     "move": {"type": "process", "factory": "paper_mill_printed", "recipe": "paper_from_stone"},
     "expect": {"events": [["GoodsProcessed", {"ignore_exit": True}], ["PenaltyTaken", {"seat": 0}]]}},
    {"title": "[good]+1 adds output, beyond the limit it is lost", "rule": "R12: each [good]+1 adds 1; output beyond the limit is lost",
     "position": {**AT_MILL, "goods": [{"wood": 1, "coal": 3}, {}], "upgrades": [{"plus_paper": 2}, {}], "step": "location"},
     "seat": 0, "move": {"type": "process", "factory": "paper_mill_printed", "recipe": "paper_from_wood"},
     "expect": {"events": [["GoodsProcessed", {"lost": 2}], ["GoodsGained", {"good": "paper", "count": 1}]]}},
    {"title": "a recipe of another factory is refused", "rule": "R12: at a factory of the right kind",
     "position": {**AT_MILL, "goods": [{"stone": 1, "coal": 1}, {}], "step": "location"}, "seat": 0,
     "move": {"type": "process", "factory": "paper_mill_printed", "recipe": "brick"}, "expect": error("wrong_recipe")},
    {"title": "the rules' worked sale: 8 points, one order kept, the secret one discarded, one left half done",
     "rule": "R13, R15, R16: the selling example of the rules page",
     "position": {**WORKED_SALE, "step": "location"}, "seat": 0,
     "move": {"type": "sell", "city": "green_city",
              "fills": {"G4": {"wood": 1}, "G5": {"paper": 1, "stone": 1}, "G6": {"brick": 1}}},
     "expect": {"events": [["GoodsSold", {"city": "green_city"}],
                           ["IconsFilled", {"order": "G4", "icons": [0]}], ["ScoreGained", {"points": 1, "order": "G4"}],
                           ["IconsFilled", {"order": "G5", "icons": [0, 1]}], ["ScoreGained", {"points": 4, "order": "G5"}],
                           ["OrderCompleted", {"order": "G5", "seat": 0}],
                           ["SecretOrderPlayed", {"order": "G6"}], ["IconsFilled", {"order": "G6", "icons": [0]}],
                           ["ScoreGained", {"points": 3, "order": "G6"}], ["OrderDiscarded", {"order": "G6"}],
                           ["TokensGained", {"count": 4, "gears": [2, 4, 6, 8]}], ["PublicOrderRevealed", {}]],
                "after": {"public": ("G4", "Y1", "Y2"), "filled": {"G4": (0,)}}}},
    {"title": "an order of another colour is refused", "rule": "R13: a good fills an icon of that city's colour",
     "position": {**WORKED_SALE, "step": "location"}, "seat": 0,
     "move": {"type": "sell", "city": "green_city", "fills": {"Y1": {"stone": 1}}}, "expect": error("wrong_colour")},
    {"title": "no more units than unfilled icons", "rule": "R13: a good fills an unfilled icon",
     "position": {**WORKED_SALE, "step": "location", "filled": {"G4": [0]}}, "seat": 0,
     "move": {"type": "sell", "city": "green_city", "fills": {"G4": {"wood": 1}}}, "expect": error("not_wanted")},
    {"title": "Sell+1 adds a point per good of its colour", "rule": "R13: value + 1 per Sell+1 for that colour",
     "position": {**WORKED_SALE, "step": "location", "upgrades": [{"sell_green": 1}, {}]}, "seat": 0,
     "move": {"type": "sell", "city": "green_city", "fills": {"G5": {"paper": 1, "stone": 1}}},
     "expect": {"events": [["ScoreGained", {"points": 6}], ["OrderCompleted", {"order": "G5"}]]}},
    {"title": "a sale reaching 25 triggers the end", "rule": "R21: a track score of 25 or more; finish the round and 2 more",
     "position": {**WORKED_SALE, "step": "location", "score": [24, 0], "round": 5}, "seat": 0,
     "move": {"type": "sell", "city": "green_city", "fills": {"G4": {"wood": 1}}},
     "expect": {"events": [["ScoreGained", {"points": 1}], ["EndTriggered", {"score": 25, "last_round": 7}]]}},
    {"title": "at most 10 technology tokens", "rule": "R16: each gear gives 1 token, at most 10 per game",
     "position": {**WORKED_SALE, "step": "location", "tokens": [9, 0]}, "seat": 0,
     "move": {"type": "sell", "city": "green_city", "fills": {"G5": {"paper": 1, "stone": 1}}},
     "expect": {"events": [["TokensGained", {"count": 1, "gears": [2]}]]}},
    {"title": "no pass while a location action is possible", "rule": "R24, R30: the location action is skipped only if none is possible",
     "position": {**AT_WOOD, "step": "location"}, "seat": 0, "move": {"type": "pass_location"}, "expect": error("must_act")},
    {"title": "a pass when only a penalty would allow a location action", "rule": "R24 with R7: a penalty is never forced",
     "position": {**AT_WOOD, "step": "location", "goods": [{"stone": 4}, {}]}, "seat": 0, "move": {"type": "pass_location"},
     "expect": {"events": [["LocationPassed", {"main": False}]], "after": {"step": "after"}}},
    {"title": "2!=2: the second location action is of another kind", "rule": "R19: two location actions of different kinds",
     "position": {**AT_WOOD, "step": "second", "done": ["take"], "upgrades": [{"double": 1}, {}]}, "seat": 0,
     "move": {"type": "take", "site": "wood_site"}, "expect": error("same_kind")},
    {"title": "2!=2 opens a second location action", "rule": "R19: with 2!=2 step 2 is two different location actions",
     "position": {**AT_WOOD, "step": "location", "upgrades": [{"double": 1}, {}]}, "seat": 0,
     "move": {"type": "take", "site": "wood_site"},
     "expect": {"events": [["ResourceTaken", {"main": False}]], "after": {"step": "second", "done": ("take",)}}},
    # --- upgrades (R17, R10, R20) --------------------------------------------------------
    {"title": "column 2 needs 2 tokens in column 1", "rule": "R17: column thresholds",
     "position": {**AT_GREEN, "tokens": [1, 0]}, "seat": 0, "move": {"type": "upgrade", "ability": "waterway"},
     "expect": error("cannot_upgrade")},
    {"title": "the Order ability draws a secret order", "rule": "R17: Order acts when placed",
     "position": {**AT_GREEN, "tokens": [1, 0]}, "seat": 0, "move": {"type": "upgrade", "ability": "order"},
     "expect": {"events": [["Upgraded", {"ability": "order"}], ["SecretOrderDealt", {"seat": 0, "reason": "order ability"}]]}},
    {"title": "the Shovel ability returns the shovel", "rule": "R10: the Shovel ability returns it",
     "position": {**AT_GREEN, "tokens": [1, 0], "shovel": [False, True]}, "seat": 0,
     "move": {"type": "upgrade", "ability": "shovel"}, "expect": {"events": [["Upgraded", {}], ["ShovelGained", {"seat": 0}]]}},
    {"title": "1Turn gives one extra turn", "rule": "R20: the extra turn follows the turn it was placed in",
     "position": {**AT_GREEN, "step": "after", "extra_turn": True}, "seat": 0, "move": {"type": "end_turn"},
     "expect": {"events": [["TurnEnded", {"seat": 0}], ["ExtraTurnBegan", {"seat": 0}]],
                "after": {"current": 0, "in_extra": True}}},
    # --- turns and the end (R18, R21-R23) -----------------------------------------------
    {"title": "only the seat whose turn it is moves", "rule": "A turn: play passes clockwise",
     "position": AT_GREEN, "seat": 1, "move": draw("6,3", 3, 0), "expect": error("not_your_turn")},
    # --- final scoring (R22, R23, R33): ruleset 2 asks, ruleset 1 filled by itself -----------
    {"title": "the last turn of the last round asks the seat holding goods its hand order wants",
     "rule": "R21, R33: after the last turn, final scoring asks in turn order the seats with something to supply; "
             "round and turn counters stop",
     "position": LAST_TURN, "seat": 1, "move": {"type": "end_turn"},
     "expect": {"events": [["TurnEnded", {"seat": 1}], ["FinalScoringBegan", {"choosing": [0]}]],
                "absent": ["SecretOrderPlayed", "FinalScored", "GameEnded"],
                "after": {"phase": "scoring", "choosing": (0,), "round": 7, "current": 1}}},
    {"title": "ruleset 1: the last turn of the last round scores the game, hand orders filled by themselves",
     "rule": "R21, R22, R23 and ruleset 1's R33: hand orders filled in the order dealt; leftovers, influence, "
             "penalties, technology; ties shared",
     "ruleset": "1",
     # Seat 0: 10 + 1 (G1's wood) + 1 (3 coal left: 3 points, 1 per full 3) + 4 (2 green cards,
     # the most: 2 x 2) = 16. Seat 1: 12 + 2 (1 red card, the most: 2 x 1) - 6 (2 penalty
     # tokens) + 0 (1pt/2 cards with 1 card) = 8.
     "position": LAST_TURN, "seat": 1, "move": {"type": "end_turn"},
     "expect": {"events": [["SecretOrderPlayed", {"seat": 0, "order": "G1"}], ["OrderCompleted", {"seat": 0, "order": "G1"}],
                           *LAST_TURN_SCORED],
                "absent": ["FinalScoringBegan"],
                "after": {"phase": "over", "round": 7, "current": 1, "totals": {0: 16, 1: 8}, "winners": (0,)}}},
    {"title": "the seat supplies its hand order and the game is scored",
     "rule": "R22, R23, R33: a completed hand order is kept as influence and counts in step 3; the state keeps "
             "the totals and the winners",
     # The same arithmetic as ruleset 1's: seat 0 10 + 1 + 1 + 4 = 16; seat 1 12 + 2 - 6 = 8.
     "position": {**LAST_TURN, **SCORING_FOR_0}, "seat": 0,
     "move": {"type": "supply_hand_orders", "fills": {"G1": {"wood": 1}}},
     "expect": {"events": [["HandOrdersSupplied", {"seat": 0, "fills": [["G1", "wood", 1]]}],
                           ["SecretOrderPlayed", {"seat": 0, "order": "G1"}], ["IconsFilled", {"order": "G1", "icons": [0]}],
                           ["GoodsPaid", {"seat": 0, "good": "wood", "count": 1, "reason": "hand order"}],
                           ["OrderCompleted", {"seat": 0, "order": "G1"}], *LAST_TURN_SCORED],
                "after": {"phase": "over", "choosing": (), "round": 7, "totals": {0: 16, 1: 8}, "winners": (0,)}}},
    {"title": "the issue's example: supplying the coal-only order completes it, ties blue and wins",
     "rule": "R22: any subset of the hand orders' icons may be supplied; a completed one is influence (step 3)",
     # Seat 0 holds 1 coal, B6 (coal, tools) and B1 (coal). B1 completed: seat 0 has 1 blue card,
     # tied with seat 1's B2, so both score 2 x 1. Seat 0: 20 + 1 (coal) + 2 = 23; seat 1:
     # 20 + 2 = 22. Seat 0 wins.
     "position": ISSUE, "seat": 0, "move": {"type": "supply_hand_orders", "fills": {"B1": {"coal": 1}}},
     "expect": {"events": [["HandOrdersSupplied", {"seat": 0, "fills": [["B1", "coal", 1]]}],
                           ["SecretOrderPlayed", {"order": "B1"}], ["OrderCompleted", {"seat": 0, "order": "B1"}],
                           ["FinalScored", {"seat": 0, "line": "hand_orders", "points": 1}],
                           ["FinalScored", {"seat": 0, "line": "influence_blue", "points": 2}],
                           ["FinalScored", {"seat": 1, "line": "influence_blue", "points": 2}],
                           ["GameEnded", {"scores": {"0": 23, "1": 22}, "winners": [0]}]],
                "absent": ["OrderDiscarded"], "after": {"totals": {0: 23, 1: 22}, "winners": (0,)}}},
    {"title": "the issue's example: supplying the coal-and-tools order instead discards it, and seat 1 wins",
     "rule": "R22: an order supplied in part scores and is discarded",
     # Seat 0: 20 + 1 (coal on B6, discarded) + 0 (no blue card) = 21; seat 1: 20 + 2 (1 blue
     # card, the most) = 22. Seat 1 wins: the choice decides the winner.
     "position": ISSUE, "seat": 0, "move": {"type": "supply_hand_orders", "fills": {"B6": {"coal": 1}}},
     "expect": {"events": [["SecretOrderPlayed", {"order": "B6"}], ["IconsFilled", {"order": "B6", "icons": [0]}],
                           ["OrderDiscarded", {"seat": 0, "order": "B6"}],
                           ["FinalScored", {"seat": 0, "line": "hand_orders", "points": 1}],
                           ["FinalScored", {"seat": 1, "line": "influence_blue", "points": 2}],
                           ["GameEnded", {"scores": {"0": 21, "1": 22}, "winners": [1]}]],
                "absent": ["OrderCompleted"], "after": {"totals": {0: 21, 1: 22}, "winners": (1,)}}},
    {"title": "ruleset 1 filled the issue's example in the order dealt: B6, discarded, and seat 1 won",
     "rule": "ruleset 1's R33: each hand order in the order dealt, with as many icons as the goods allow",
     # B6 was dealt first and takes the coal: seat 0 20 + 1 = 21; seat 1 20 + 2 = 22.
     "ruleset": "1", "position": {**ISSUE, "phase": "play", "choosing": (), "step": "after"}, "seat": 1,
     "move": {"type": "end_turn"},
     "expect": {"events": [["SecretOrderPlayed", {"order": "B6"}], ["OrderDiscarded", {"seat": 0, "order": "B6"}],
                           ["GameEnded", {"scores": {"0": 21, "1": 22}, "winners": [1]}]],
                "absent": ["FinalScoringBegan", "OrderCompleted"]}},
    {"title": "nobody holds a good a hand order wants: nobody is asked, the game is scored at once",
     "rule": "R33: the only subset is the empty one, so nothing is asked; counters stop at the last round",
     # Seat 0: 5 + 0 (2 wood: 2 points, no full 3) = 5; seat 1: 6 + 0 = 6.
     "position": {**LAST_TURN, "hands": [["B6"], ["R1"]], "kept": [[], []], "goods": [{"wood": 2}, {"coal": 1}],
                  "score": [5, 6], "penalties": [0, 0], "upgrades": [{}, {}]},
     "seat": 1, "move": {"type": "end_turn"},
     "expect": {"events": [["TurnEnded", {"seat": 1}], ["GameEnded", {"scores": {"0": 5, "1": 6}, "winners": [1]}]],
                "absent": ["FinalScoringBegan", "HandOrdersSupplied", "SecretOrderPlayed", "FinalScored"],
                "after": {"phase": "over", "round": 7, "current": 1, "totals": {0: 5, 1: 6}, "winners": (1,)}}},
    {"title": "only the seats with something to supply are asked, in turn order",
     "rule": "R33, R32: in turn order from the first player; seat 0's hand order wants no good it holds",
     "position": THREE_LAST_TURN, "seat": 2, "move": {"type": "end_turn"},
     "expect": {"events": [["FinalScoringBegan", {"choosing": [1, 2]}]], "after": {"choosing": (1, 2), "round": 7}}},
    {"title": "a choice is recorded and the next seat chooses, seeing the orders supplied",
     "rule": "R33: seats choose in turn; a hand order supplied is shown as it leaves the hand (R29)",
     "position": {**THREE_LAST_TURN, "phase": "scoring", "choosing": (1, 2), "step": "main"}, "seat": 1,
     "move": {"type": "supply_hand_orders", "fills": {"R1": {"iron": 1}}},
     "expect": {"events": [["HandOrdersSupplied", {"seat": 1}], ["SecretOrderPlayed", {"seat": 1, "order": "R1"}],
                           ["OrderCompleted", {"seat": 1, "order": "R1"}],
                           ["FinalScored", {"seat": 1, "line": "hand_orders", "points": 1}]],
                "absent": ["GameEnded"], "after": {"phase": "scoring", "choosing": (2,)}}},
    {"title": "a seat chooses only when it is its turn to choose", "rule": "R33: seats choose in turn order",
     "position": {**THREE_LAST_TURN, "phase": "scoring", "choosing": (1, 2), "step": "main"}, "seat": 2,
     "move": {"type": "supply_hand_orders", "fills": {"G1": {"wood": 1}}}, "expect": error("not_your_turn")},
    {"title": "any subset, the empty one too: nothing supplied, the goods count as leftovers",
     "rule": "R22: any subset of the icons may be supplied; step 2 counts the goods left",
     # Seat 0: 10 + 1 (3 wood left: 1 per full 3) = 11; seat 1: 10.
     "position": {**SCORING_FOR_0, "hands": [["G1"], []], "goods": [{"wood": 3}, {}], "score": [10, 10]}, "seat": 0,
     "move": {"type": "supply_hand_orders", "fills": {}},
     "expect": {"events": [["HandOrdersSupplied", {"seat": 0, "fills": []}],
                           ["FinalScored", {"seat": 0, "line": "leftover_goods", "points": 1}],
                           ["GameEnded", {"scores": {"0": 11, "1": 10}, "winners": [0]}]],
                "absent": ["SecretOrderPlayed", "OrderDiscarded", "OrderCompleted"]}},
    {"title": "a completed hand order counts for 1pt/2 cards and the colour's order scoring",
     "rule": "R22: cards kept in step 1 count in steps 3 and 5",
     # B1 completed: 2 blue cards. Seat 0: 0 + 1 (coal) + 4 (influence, 2 x 2) + 3 (order
     # scoring: one pair) + 1 (1pt/2 cards: 2 cards) = 9; seat 1: 0.
     "position": {**SCORING_FOR_0, "hands": [["B1"], []], "kept": [["B3"], []], "goods": [{"coal": 1}, {}],
                  "upgrades": [{"pairs": 1, "scoring_blue": 1}, {}]}, "seat": 0,
     "move": {"type": "supply_hand_orders", "fills": {"B1": {"coal": 1}}},
     "expect": {"events": [["FinalScored", {"seat": 0, "line": "hand_orders", "points": 1}],
                           ["FinalScored", {"seat": 0, "line": "influence_blue", "points": 4}],
                           ["FinalScored", {"seat": 0, "line": "order_scoring_blue", "points": 3}],
                           ["FinalScored", {"seat": 0, "line": "completed_pairs", "points": 1}],
                           ["GameEnded", {"scores": {"0": 9, "1": 0}, "winners": [0]}]]}},
    {"title": "Sell+1 applies to hand orders, and no tokens are gained",
     "rule": "R22: Sell+1 applies, but no tokens are gained",
     # B1's coal: 1 + 1 (Sell+1 blue) = 2, passing the gear at 2 with no token.
     "position": {**ISSUE, "upgrades": [{"sell_blue": 1}, {}], "score": [0, 0]}, "seat": 0,
     "move": {"type": "supply_hand_orders", "fills": {"B1": {"coal": 1}}},
     "expect": {"events": [["FinalScored", {"seat": 0, "line": "hand_orders", "points": 2}]],
                "absent": ["TokensGained", "EndTriggered"]}},
    {"title": "only your own hand orders are supplied", "rule": "R22: step 1 uses only your own hand orders",
     "position": {**ISSUE, "public": ["B4"]}, "seat": 0,
     "move": {"type": "supply_hand_orders", "fills": {"B4": {"coal": 1}}},
     "expect": error("not_in_hand", "not one of your hand orders", "B6, B1")},
    {"title": "no more goods than held", "rule": "R22: by the selling rules, from the goods held",
     "position": ISSUE, "seat": 0, "move": {"type": "supply_hand_orders", "fills": {"B6": {"coal": 1}, "B1": {"coal": 1}}},
     "expect": error("missing_goods", "coal")},
    {"title": "no more units than the order has icons", "rule": "R22, R13: a good fills an icon of the order",
     "position": {**ISSUE, "goods": [{"coal": 2}, {}]}, "seat": 0,
     "move": {"type": "supply_hand_orders", "fills": {"B1": {"coal": 2}}}, "expect": error("not_wanted", "B1")},
    {"title": "an order named with no goods is refused", "rule": "R22: an order supplied takes at least one good",
     "position": ISSUE, "seat": 0, "move": {"type": "supply_hand_orders", "fills": {"B1": {}}},
     "expect": error("nothing_supplied", "B1")},
    {"title": "no other move in final scoring", "rule": "R17, R33: nothing but the choice of hand orders after the last turn",
     "position": {**ISSUE, "tokens": [1, 0]}, "seat": 0, "move": {"type": "upgrade", "ability": "order"},
     "expect": error("not_now", "final scoring")},
    {"title": "hand orders are not supplied during play", "rule": "R22: step 1 of final scoring",
     "position": AT_GREEN, "seat": 0, "move": {"type": "supply_hand_orders", "fills": {}},
     "expect": error("not_now", "final scoring")},
    # --- the order deck (R15, R35) ---------------------------------------------------------
    {"title": "a sale's discarded hand order is shuffled into the deck its refill reshuffles",
     "rule": "R15, R35: the refill draws from the discards as the sale left them; every order card stays in one place",
     # R1: 1 iron, 1 point, completed and kept; R7: 1 iron, 1 point, filled in part and
     # discarded. 0 + 2 = 2 passes the gear at 2: 1 token. The row was 3 (2 seats + 1), R1
     # left it: 2, so 1 card is turned up; the deck is empty, so the discards G1, G2 and R7 (3
     # cards; ruleset 2 shuffled only G1 and G2, and R7 was lost) make the new deck; R7 comes
     # out on top and is turned up, its icons forgotten; G1 and G2 are the deck.
     "position": EMPTY_DECK, "seat": 0,
     "move": {"type": "sell", "city": "red_city", "fills": {"R1": {"iron": 1}, "R7": {"iron": 1}}},
     "expect": {"events": [["ScoreGained", {"points": 1, "order": "R1"}], ["OrderCompleted", {"seat": 0, "order": "R1"}],
                           ["SecretOrderPlayed", {"order": "R7"}], ["ScoreGained", {"points": 1, "order": "R7"}],
                           ["OrderDiscarded", {"seat": 0, "order": "R7"}], ["TokensGained", {"count": 1, "gears": [2]}],
                           ["OrdersShuffled", {"cards": 3, "reshuffle": True}, {"random": {"shuffle": ["R7", "G1", "G2"]}}],
                           ["PublicOrderRevealed", {"order": "R7"}]],
                "after": {"public": ("Y1", "Y2", "R7"), "deck": ("G1", "G2"), "discard": (), "filled": {}}}},
]

for _number, _case in enumerate(CASES, 1):
    _case["number"] = _number
