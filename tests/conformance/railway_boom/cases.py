"""Railway Boom conformance cases: each a short position, one move, the ruling expected and
the rule it tests (`docs/rules/railway_boom.md`, rulings R1-R37).

A case is plain data:
- `position`: keyword arguments of `tests.unit.railway_boom.helpers.table` (3 players by
  default, a first game on the reference pack: round 1, the trains auction, discs on the
  white spaces in the order 2, 0, 1, so seat 2 bids first). Everything not given is as dealt.
- `seat`, `move`: the move played.
- `expect`: either {"error": code} or {"events": [[kind, data subset], ...]}, events that
  must appear in this order (others may come between); "absent" lists kinds that must not.

The map around B11 is drawn in `tests/unit/railway_boom/helpers.py`. Cards of the reference
pack used here: D01 gain 4 money (price 2), D04 gain 3 VP (3), D05 raise money income (3),
D07 raise a chosen income (4), D08 two free rails (3), D09 draw two buy one at 1 less (1),
D10 1 VP per rail on a mountain (3), D12 1 VP per tile on a running train (4), D13 3 extra
power once a round (2), D14 a free car run once a round (3); S-red starting locomotive
(coal 1, VP 1, 1 slot), L01 locomotive (coal 1, VP 1), C01 car (cost 2, coal 1, VP 1),
C02 car (cost 3, VP 2, gains 1 material), C05 car (cost 6).
"""

from __future__ import annotations

from typing import Any

Case = dict[str, Any]

TRAINS_ACT = {"phase": "trains", "step": "act", "acting": [0, 1, 2], "offer": ["L01", "L02", "L03", "C01", "C02", "C05"]}
BUILD = {"phase": "expansion", "step": "act", "acting": [0, 1, 2], "offer": ["ST97"], "stations": {"B11": 0},
         "turn": {"station": "B11"}, "seats": {0: {"power": 3}}}
ROWS = {"phase": "development", "step": "act", "acting": [0, 1, 2]}
NOTHING = {"runs": [], "tiles": {}, "free": [], "convert": {}}
OPERATE = {"operation": True, "submitted": {1: NOTHING, 2: NOTHING}}


def operate(*runs: list[str], tiles: dict[str, list[str]] | None = None, free: list[str] | None = None) -> dict[str, Any]:
    return {"type": "operate", "runs": list(runs), "tiles": tiles or {}, "free": free or [], "convert": {}}


def with_seat0(base: dict[str, Any], **spec: Any) -> dict[str, Any]:
    seats = {**base.get("seats", {})}
    seats[0] = {**seats.get(0, {}), **spec}
    return {**base, "seats": seats}


def goals_bid(**extra: Any) -> dict[str, Any]:
    return {"phase": "goals", "step": "bid", "bid_resource": "money", "round": 1, **extra}


CASES: list[Case] = [
    # --- the auction (R7-R13) ---------------------------------------------------------------
    {"number": 1, "title": "the left-most disc moves to an empty higher space it can hold", "rule": "R7, R8",
     "position": {}, "seat": 2, "move": {"type": "bid", "space": 3},
     "expect": {"events": [["BidRaised", {"seat": 2, "space": 3, "resource": "materials", "holding": 8}]]}},
    {"number": 2, "title": "only the left-most unlocked disc may act", "rule": "R8",
     "position": {}, "seat": 0, "move": {"type": "bid", "space": 3}, "expect": {"error": "not_your_turn"}},
    {"number": 3, "title": "a space holding a disc cannot be taken: bids never tie", "rule": "R7",
     "position": {"bids": {0: 5}}, "seat": 2, "move": {"type": "bid", "space": 5}, "expect": {"error": "space_not_free"}},
    {"number": 4, "title": "a bid above what you hold is refused", "rule": "R13",
     "position": {}, "seat": 2, "move": {"type": "bid", "space": 10}, "expect": {"error": "not_enough_materials"}},
    {"number": 5, "title": "converting 2:1 into the phase's resource just before bidding", "rule": "R11",
     "position": {}, "seat": 2, "move": {"type": "bid", "space": 10, "convert": {"money": 2}},
     "expect": {"events": [["BidRaised", {"seat": 2, "space": 10, "holding": 10, "convert": {"money": 2}}]]}},
    {"number": 6, "title": "a conversion needs 2 of the resource per pair", "rule": "R11",
     "position": {}, "seat": 2, "move": {"type": "bid", "space": 12, "convert": {"money": 5}},
     "expect": {"error": "cannot_convert"}},
    {"number": 7, "title": "seats that can reach no higher space lock in by themselves", "rule": "R8",
     "position": {"seats": {0: {"resources": {"materials": 0, "money": 1, "technology": 1, "coal": 1}},
                            1: {"resources": {"materials": 0, "money": 0, "technology": 0, "coal": 0}}}},
     "seat": 2, "move": {"type": "lock_in"},
     "expect": {"events": [["BidLocked", {"seat": 2}], ["BidLocked", {"seat": 0}], ["BidLocked", {"seat": 1}],
                           ["ActionOrderSet", {}]]}},
    {"number": 8, "title": "4 players pay full, full, half rounded up, nothing", "rule": "R10",
     "position": {"players": 4, "order": [3, 0, 1, 2], "bids": {0: 7, 1: 5, 2: 3}, "locked": [0, 1, 2]},
     "seat": 3, "move": {"type": "lock_in"},
     "expect": {"events": [["BidPaid", {"seat": 0, "rank": 1, "paid": {"materials": 7}}],
                           ["BidPaid", {"seat": 1, "rank": 2, "paid": {"materials": 5}}],
                           ["BidPaid", {"seat": 2, "rank": 3, "share": "half", "paid": {"materials": 2}}],
                           ["BidPaid", {"seat": 3, "rank": 4, "paid": {}}]]}},
    {"number": 9, "title": "3 players pay full, half, nothing", "rule": "R10",
     "position": {"bids": {0: 6, 1: 5}, "locked": [0, 1]}, "seat": 2, "move": {"type": "lock_in"},
     "expect": {"events": [["BidPaid", {"seat": 0, "rank": 1, "paid": {"materials": 6}}],
                           ["BidPaid", {"seat": 1, "rank": 2, "share": "half", "paid": {"materials": 3}}],
                           ["BidPaid", {"seat": 2, "rank": 3, "share": "none", "paid": {}}]]}},
    {"number": 10, "title": "2 players: the winner pays in full, the discs return rank 1 right-most", "rule": "R9, R10",
     "position": {"players": 2, "order": [1, 0], "bids": {0: 4}, "locked": [0]}, "seat": 1, "move": {"type": "lock_in"},
     "expect": {"events": [["BidPaid", {"seat": 0, "rank": 1, "paid": {"materials": 4}}],
                           ["ActionOrderSet", {"ranks": [0, 1], "order": [1, 0]}]]}},
    {"number": 11, "title": "a \"?\" bid counts the four resources together", "rule": "R12",
     "position": goals_bid(bid_resource="any"), "seat": 2, "move": {"type": "bid", "space": 30},
     "expect": {"events": [["BidRaised", {"seat": 2, "space": 30, "resource": "any", "holding": 32}]]}},
    {"number": 12, "title": "a \"?\" bid has nothing to convert", "rule": "R12",
     "position": goals_bid(bid_resource="any"), "seat": 2, "move": {"type": "bid", "space": 4, "convert": {"money": 1}},
     "expect": {"error": "cannot_convert"}},
    {"number": 13, "title": "goal cubes go on the highest free unblocked space, in rank order", "rule": "R29, setup 6",
     "position": goals_bid(bids={0: 3}, locked=[0, 1]), "seat": 2, "move": {"type": "lock_in"},
     "expect": {"events": [["GoalReserved", {"seat": 0, "space": 0, "multiplier": 4}],
                           ["GoalReserved", {"seat": 1, "space": 1, "multiplier": 3}],
                           ["GoalReserved", {"seat": 2, "space": 3, "multiplier": 1}], ["CardsStoodUp", {}]]}},
    # --- phase 1: trains (R14) --------------------------------------------------------------
    {"number": 14, "title": "the locomotive is taken free", "rule": "R14",
     "position": TRAINS_ACT, "seat": 0, "move": {"type": "take_locomotive", "card": "L01"},
     "expect": {"events": [["LocomotiveTaken", {"seat": 0, "card": "L01"}]], "absent": ["ResourcePaid"]}},
    {"number": 15, "title": "cars only after the locomotive", "rule": "R14",
     "position": TRAINS_ACT, "seat": 0, "move": {"type": "buy_car", "card": "C01"}, "expect": {"error": "locomotive_first"}},
    {"number": 16, "title": "a car costs its printed materials", "rule": "R14",
     "position": {**TRAINS_ACT, "turn": {"locomotive": "L01"}}, "seat": 0, "move": {"type": "buy_car", "card": "C01"},
     "expect": {"events": [["CarBought", {"seat": 0, "card": "C01", "price": 2}]]}},
    {"number": 17, "title": "at most 2 cars a turn", "rule": "R14",
     "position": {**TRAINS_ACT, "turn": {"locomotive": "L01", "cars": ["C03", "C04"]}}, "seat": 0,
     "move": {"type": "buy_car", "card": "C01"}, "expect": {"error": "two_cars"}},
    {"number": 18, "title": "converting to pay for a car", "rule": "R11",
     "position": with_seat0({**TRAINS_ACT, "turn": {"locomotive": "L01"}}, resources={"materials": 2}), "seat": 0,
     "move": {"type": "buy_car", "card": "C05", "convert": {"coal": 4}},
     "expect": {"events": [["CarBought", {"card": "C05", "price": 6, "convert": {"coal": 4}}]]}},
    {"number": 19, "title": "the turn cannot end before the locomotive", "rule": "R14",
     "position": TRAINS_ACT, "seat": 0, "move": {"type": "done"}, "expect": {"error": "turn_not_done"}},
    {"number": 20, "title": "a move of another step is refused with the moves of this one", "rule": "R8",
     "position": TRAINS_ACT, "seat": 0, "move": {"type": "bid", "space": 3}, "expect": {"error": "wrong_step"}},
    # --- phase 2: expansion (R15-R19) ---------------------------------------------------------
    {"number": 21, "title": "a station raises its tile's income and gives the city's power", "rule": "R15, R16",
     "position": {**BUILD, "stations": {}, "turn": None}, "seat": 0, "move": {"type": "place_station", "city": "B11"},
     "expect": {"events": [["StationBuilt", {"seat": 0, "city": "B11", "card": "ST97"}],
                           ["IncomeRaised", {"track": "coal", "level": 2}], ["PowerGained", {"amount": 3}]]}},
    {"number": 22, "title": "only a marked city", "rule": "R15",
     "position": {**BUILD, "stations": {}, "turn": None}, "seat": 0, "move": {"type": "place_station", "city": "C13"},
     "expect": {"error": "city_not_marked"}},
    {"number": 23, "title": "a station on your own rail takes it back and raises any one income too", "rule": "phase 2, step 1",
     "position": {**BUILD, "stations": {}, "turn": None, "rails": {"B11": [0]}}, "seat": 0,
     "move": {"type": "place_station", "city": "B11", "income": "vp"},
     "expect": {"events": [["StationBuilt", {"rail_returned": True, "income": "vp"}], ["IncomeRaised", {"track": "coal"}],
                           ["IncomeRaised", {"track": "vp", "level": 2}]]}},
    {"number": 24, "title": "a rail pays the hex's power cost from this turn's power", "rule": "R17",
     "position": BUILD, "seat": 0, "move": {"type": "lay_rail", "hex": "C12"},
     "expect": {"events": [["RailLaid", {"hex": "C12", "cost": 1, "surcharge": 0, "power": 1, "money": 0}]]}},
    {"number": 25, "title": "+1 power per other player's piece on the hex", "rule": "R17",
     "position": {**BUILD, "rails": {"C12": [1, 2]}}, "seat": 0, "move": {"type": "lay_rail", "hex": "C12"},
     "expect": {"events": [["RailLaid", {"hex": "C12", "cost": 1, "surcharge": 2, "power": 3, "money": 0}]]}},
    {"number": 26, "title": "missing power is paid in money 1:1", "rule": "phase 2; R17",
     "position": with_seat0(BUILD, power=1), "seat": 0, "move": {"type": "lay_rail", "hex": "B12"},
     "expect": {"events": [["RailLaid", {"hex": "B12", "cost": 2, "power": 1, "money": 1}]]}},
    {"number": 27, "title": "no rails at sea", "rule": "phase 2",
     "position": BUILD, "seat": 0, "move": {"type": "lay_rail", "hex": "A12"}, "expect": {"error": "rail_not_allowed"}},
    {"number": 28, "title": "rails extend only from this turn's station or rails", "rule": "R17, R19",
     "position": BUILD, "seat": 0, "move": {"type": "lay_rail", "hex": "D12"}, "expect": {"error": "rail_not_allowed"}},
    {"number": 29, "title": "one piece per player per hex", "rule": "phase 2",
     "position": {**BUILD, "rails": {"C12": [0]}, "turn": {"station": "B11", "laid": ["C12"]}}, "seat": 0,
     "move": {"type": "lay_rail", "hex": "C12"}, "expect": {"error": "rail_not_allowed"}},
    {"number": 30, "title": "a rail on a normal city gains its resource tile", "rule": "R18",
     "position": {**BUILD, "rails": {"B12": [0]}, "turn": {"station": "B11", "laid": ["B12"]}}, "seat": 0,
     "move": {"type": "lay_rail", "hex": "C13"}, "expect": {"events": [["RailLaid", {}], ["TileGained", {"hex": "C13", "tile": "coal"}]]}},
    {"number": 31, "title": "a rail on a tourist city triggers its effect at once (gain VP)", "rule": "phase 2; R22 gain_vp",
     "position": {**BUILD, "rails": {"B12": [0]}, "turn": {"station": "B11", "laid": ["B12"]}, "city_tiles": {"A13": "T01"}},
     "seat": 0, "move": {"type": "lay_rail", "hex": "A13"},
     "expect": {"events": [["TouristVisited", {"tile": "T01"}], ["VPScored", {"amount": 2, "source": "tourist:A13"}]]}},
    {"number": 32, "title": "extra power: a once-per-round card used in the build", "rule": "R21; R22 extra_power",
     "position": with_seat0(BUILD, developments=["D13"]), "seat": 0, "move": {"type": "use_card", "card": "D13"},
     "expect": {"events": [["CardUsed", {"card": "D13"}], ["PowerGained", {"amount": 3, "source": "D13"}]]}},
    {"number": 33, "title": "a sideways card cannot be used again this round", "rule": "R21",
     "position": with_seat0(BUILD, developments=["D13"], sideways=["D13"]), "seat": 0,
     "move": {"type": "use_card", "card": "D13"}, "expect": {"error": "card_not_usable"}},
    {"number": 34, "title": "VP per rail laid on a terrain (automatic)", "rule": "R21; R22 vp_per_rail_on_terrain",
     "position": with_seat0({**BUILD, "rails": {"B12": [0]}, "turn": {"station": "B11", "laid": ["B12"]}}, developments=["D10"]),
     "seat": 0, "move": {"type": "lay_rail", "hex": "C13"},
     "expect": {"events": [["RailLaid", {"hex": "C13"}], ["VPScored", {"amount": 1, "source": "D10"}]]}},
    {"number": 35, "title": "an income raise entering an icon fires it", "rule": "R24",
     "position": with_seat0({**BUILD, "stations": {}, "turn": None}, income={"coal": 2}), "seat": 0,
     "move": {"type": "place_station", "city": "B11"},
     "expect": {"events": [["IncomeRaised", {"track": "coal", "level": 3}], ["IconReached", {"track": "coal", "level": 3}],
                           ["VPScored", {"amount": 2, "source": "icon:coal:3"}]]}},
    # --- phase 3: development (R20-R22, R25) --------------------------------------------------
    {"number": 36, "title": "choosing a row takes its cheapest card free; gain resource acts at once",
     "rule": "R20; R22 gain_resource", "position": {**ROWS, "rows": [["D01", "D04", "D12"], ["D02", "D05", "D07"], ["D03", "D06", "D08"]]},
     "seat": 0, "move": {"type": "choose_row", "row": 0},
     "expect": {"events": [["RowChosen", {"row": 0, "card": "D01"}], ["ResourceGained", {"resource": "money", "amount": 4}]],
                "absent": ["DevelopmentBought"]}},
    {"number": 37, "title": "the others of the row are bought with technology; gain VP", "rule": "phase 3; R22 gain_vp",
     "position": {**ROWS, "rows": [["D04", "D12"], ["D02", "D05", "D07"], ["D03", "D06", "D08"]], "chosen_rows": [0],
                  "turn": {"row": 0}}, "seat": 0, "move": {"type": "buy_development", "card": "D04"},
     "expect": {"events": [["DevelopmentBought", {"card": "D04", "price": 3}], ["VPScored", {"amount": 3, "source": "D04"}]]}},
    {"number": 38, "title": "a named income raise", "rule": "R22 raise_income",
     "position": {**ROWS, "rows": [["D05", "D12"], ["D02", "D07"], ["D03", "D08"]], "chosen_rows": [0], "turn": {"row": 0}},
     "seat": 0, "move": {"type": "buy_development", "card": "D05"},
     "expect": {"events": [["IncomeRaised", {"track": "money", "level": 2, "source": "D05"}]]}},
    {"number": 39, "title": "a chosen income raise waits for the owner's choice", "rule": "R22 raise_income (chosen)",
     "position": {**ROWS, "rows": [["D07", "D12"], ["D02", "D05"], ["D03", "D08"]], "chosen_rows": [0], "turn": {"row": 0}},
     "seat": 0, "move": {"type": "buy_development", "card": "D07"},
     "expect": {"events": [["ChoiceAwaited", {"effect": "raise_income", "card": "D07"}]], "absent": ["IncomeRaised"]}},
    {"number": 40, "title": "answering the chosen raise", "rule": "R22 raise_income (chosen)",
     "position": {**ROWS, "turn": {"row": 0}, "chosen_rows": [0], "rows": [["D12"], [], []],
                  "pending": [{"seat": 0, "effect": "raise_income", "card": "D07"}]},
     "seat": 0, "move": {"type": "resolve", "choice": "technology"},
     "expect": {"events": [["ChoiceMade", {"choice": "technology"}], ["IncomeRaised", {"track": "technology", "level": 2}]]}},
    {"number": 41, "title": "a free rail costs nothing and goes next to any piece of yours", "rule": "R25; R22 free_rails",
     "position": {**ROWS, "turn": {"row": 0}, "chosen_rows": [0], "rows": [["D12"], [], []], "stations": {"B11": 0},
                  "seats": {0: {"resources": {"money": 0}}}, "pending": [{"seat": 0, "effect": "free_rails", "card": "D08", "amount": 2}]},
     "seat": 0, "move": {"type": "resolve", "choice": "B12"},
     "expect": {"events": [["RailLaid", {"hex": "B12", "free": True, "cost": 0, "money": 0}]]}},
    {"number": 42, "title": "a free rail still obeys placement", "rule": "R25",
     "position": {**ROWS, "turn": {"row": 0}, "chosen_rows": [0], "rows": [["D12"], [], []], "stations": {"B11": 0},
                  "pending": [{"seat": 0, "effect": "free_rails", "card": "D08", "amount": 2}]},
     "seat": 0, "move": {"type": "resolve", "choice": "A12"}, "expect": {"error": "bad_choice"}},
    {"number": 43, "title": "draw two, buy one at 1 less; the other goes under the deck", "rule": "R25; R22 draw_two_buy_one",
     "position": {**ROWS, "turn": {"row": 0}, "chosen_rows": [0], "rows": [["D12"], [], []],
                  "pending": [{"seat": 0, "effect": "draw_two_buy_one", "card": "D09", "amount": 1, "drawn": ["D04", "D01"]}]},
     "seat": 0, "move": {"type": "resolve", "choice": "D04"},
     "expect": {"events": [["ChoiceMade", {"choice": "D04", "price": 2}], ["VPScored", {"amount": 3, "source": "D04"}]]}},
    {"number": 44, "title": "the last seat's turn ends the phase: leftovers under the deck, then income", "rule": "phase 3; R23",
     "position": {**ROWS, "acting": [2], "turn": {"row": 0}, "chosen_rows": [0, 1, 2], "rows": [["D12"], [], []]},
     "seat": 2, "move": {"type": "done"},
     "expect": {"events": [["CardsUnderDeck", {"count": 1}], ["PhaseStarted", {"phase": "income"}],
                           ["ResourceGained", {"seat": 0, "resource": "money", "amount": 3, "source": "income"}],
                           ["PhaseStarted", {"phase": "operation"}]]}},
    # --- phase 5: operation (R26-R28) ---------------------------------------------------------
    {"number": 45, "title": "a sealed plan reveals nothing until all are in", "rule": "R26",
     "position": {"operation": True}, "seat": 0, "move": operate(["S-red"]),
     "expect": {"events": [["SubmissionSealed", {"seat": 0, "phase": "operation"}]],
                "absent": ["SubmissionsRevealed", "TrainFormed", "CardRan"]}},
    {"number": 46, "title": "the last plan in reveals all and runs them: coal, VP", "rule": "R26",
     "position": OPERATE, "seat": 0, "move": operate(["S-red"]),
     "expect": {"events": [["SubmissionsRevealed", {}], ["TrainFormed", {"seat": 0, "locomotive": "S-red"}],
                           ["CardRan", {"card": "S-red", "coal": 1}], ["ResourcePaid", {"resource": "coal", "amount": 1}],
                           ["VPScored", {"amount": 1, "source": "trains"}], ["PhaseStarted", {"phase": "goals"}]]}},
    {"number": 47, "title": "the coal for the whole train is checked when it is formed", "rule": "R27",
     "position": with_seat0(OPERATE, trains=["C01"], resources={"coal": 1}), "seat": 0, "move": operate(["S-red", "C01"]),
     "expect": {"error": "not_enough_coal"}},
    {"number": 48, "title": "a free car run waives one car's coal", "rule": "R22 free_car_run",
     "position": with_seat0(OPERATE, trains=["C01"], developments=["D14"], resources={"coal": 1}), "seat": 0,
     "move": operate(["S-red", "C01"], free=["C01"]),
     "expect": {"events": [["TrainFormed", {"free": "C01"}], ["CardUsed", {"card": "D14"}], ["CardRan", {"card": "C01", "coal": 0}]]}},
    {"number": 49, "title": "a tile on a train gives its kind each time the card runs", "rule": "R28",
     "position": with_seat0(OPERATE, tiles={"money": 1}), "seat": 0, "move": operate(["S-red"], tiles={"S-red": ["money"]}),
     "expect": {"events": [["TilePlaced", {"card": "S-red", "tile": "money"}], ["CardRan", {"card": "S-red"}],
                           ["ResourceGained", {"resource": "money", "amount": 1, "source": "tile:S-red"}]]}},
    {"number": 50, "title": "no more tiles than slots", "rule": "R28",
     "position": with_seat0(OPERATE, tiles={"money": 2}), "seat": 0, "move": operate(["S-red"], tiles={"S-red": ["money", "money"]}),
     "expect": {"error": "no_free_slot"}},
    {"number": 51, "title": "VP per tile on the whole train (automatic)", "rule": "R22 train_tile_bonus",
     "position": with_seat0(OPERATE, developments=["D12"], loaded={"S-red": ["vp"]}), "seat": 0, "move": operate(["S-red"]),
     "expect": {"events": [["VPScored", {"amount": 1, "source": "tile:S-red"}], ["VPScored", {"amount": 1, "source": "D12"}]]}},
    {"number": 52, "title": "a car's effect runs after its coal and VP", "rule": "phase 5",
     "position": with_seat0(OPERATE, trains=["C02"]), "seat": 0, "move": operate(["S-red", "C02"]),
     "expect": {"events": [["CardRan", {"card": "C02"}], ["VPScored", {"amount": 2}],
                           ["ResourceGained", {"resource": "materials", "amount": 1, "source": "C02"}]]}},
    {"number": 53, "title": "locomotives are never coupled", "rule": "phase 5",
     "position": with_seat0(OPERATE, trains=["L01"]), "seat": 0, "move": operate(["S-red", "L01"]),
     "expect": {"error": "locomotives_never_coupled"}},
    # --- the end (R31-R33) --------------------------------------------------------------------
    {"number": 54, "title": "after round 4's goals: goals, leftovers, route, the winner", "rule": "R31, R32, R33",
     "position": goals_bid(round=4, bids={0: 3}, locked=[0, 1]), "seat": 2, "move": {"type": "lock_in"},
     "expect": {"events": [["GoalReserved", {"seat": 0}], ["GoalScored", {}], ["LeftoversScored", {"seat": 1, "total": 32, "vp": 16}],
                           ["RouteScored", {}], ["GameEnded", {}]]}},
]
