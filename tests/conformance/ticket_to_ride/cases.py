"""Ticket to Ride (USA) conformance cases: each a short position, one move, and the ruling
expected, with the rule it tests: a section of the rules page (`docs/rules/ticket_to_ride.md`)
or one of the project's numbered rulings at its end.

A case is plain data:
- `position`: keyword arguments of `tests.unit.ticket_to_ride.conftest.table` (hands, market,
  deck, discard, claims, tickets, offered, ticket_deck, current, phase, and any `State` field
  such as `cards_drawn` or `final_round_trigger`), plus `seats` (2 unless given). `cards()`
  and `tickets()` give the train cards and tickets a position does not place to one seat, so
  a short deck can be set up with every card and ticket still accounted for.
- `before` (optional): moves `[seat, move]` played first, so a position can also be reached
  through the game's own events.
- `seat`, `move`: the move played.
- `expect`: either {"error": code} or {"events": [[kind, data subset(, secret subset)], ...]},
  events that must appear in this order (others may come between); "absent" lists kinds that
  must not appear; "public" lists [kind, data] whose data must be exactly that (what a sealed
  choice shows); "view" is a subset of the referee's view after the move.

Every expected value is read off the rules page and the printed map (route lengths, ticket
points), never computed by the code under test.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

Case = dict[str, Any]

ALL_CARDS = Counter({"pink": 12, "white": 12, "blue": 12, "yellow": 12, "orange": 12, "black": 12, "red": 12,
                     "green": 12, "locomotive": 14})
"""The printed deck (rules page, components): 12 of each of 8 colours and 14 locomotives."""

L = "locomotive"
MARKET = ["red", "blue", "green", "yellow", "black"]

# Tickets by their printed cities and points.
DENVER_EL_PASO = "Denver|El Paso"  # 4
HOUSTON_KANSAS_CITY = "Houston|Kansas City"  # 5
ATLANTA_NEW_YORK = "Atlanta|New York"  # 6
CALGARY_SALT_LAKE = "Calgary|Salt Lake City"  # 7
CHICAGO_NEW_ORLEANS = "Chicago|New Orleans"  # 7
DULUTH_HOUSTON = "Duluth|Houston"  # 8
HELENA_LOS_ANGELES = "Helena|Los Angeles"  # 8
OPENING_OFFERS = [[DENVER_EL_PASO, HOUSTON_KANSAS_CITY, ATLANTA_NEW_YORK],
                  [CALGARY_SALT_LAKE, CHICAGO_NEW_ORLEANS, DULUTH_HOUSTON]]

ALL_TICKETS = [
    "Denver|El Paso", "Houston|Kansas City", "Atlanta|New York", "Calgary|Salt Lake City", "Chicago|New Orleans",
    "Duluth|Houston", "Helena|Los Angeles", "Nashville|Sault St. Marie", "Chicago|Santa Fe", "Atlanta|Montreal",
    "Oklahoma City|Sault St. Marie", "Los Angeles|Seattle", "Duluth|El Paso", "Miami|Toronto", "Dallas|New York",
    "Denver|Pittsburgh", "Phoenix|Portland", "Little Rock|Winnipeg", "Boston|Miami", "Houston|Winnipeg",
    "Calgary|Phoenix", "Montreal|New Orleans", "Santa Fe|Vancouver", "Chicago|Los Angeles", "Nashville|Portland",
    "Atlanta|San Francisco", "Los Angeles|Miami", "Montreal|Vancouver", "Los Angeles|New York", "New York|Seattle",
]
"""The 30 printed destination tickets."""

FORTY_CARS = {"El Paso|Los Angeles": 0, "Portland|Salt Lake City": 0, "Sault St. Marie|Winnipeg": 0,
              "El Paso|Houston": 0, "Duluth|Helena": 0, "Duluth|Toronto": 0, "Calgary|Helena": 0}
"""Seat 0's routes of 6+6+6+6+6+6+4 = 40 cars: 5 trains left."""
ALL_FORTY_FIVE = {**{route: 1 for route in FORTY_CARS}, "Duluth|Sault St. Marie": 1, "Atlanta|Charleston": 1}
"""Seat 1's routes of 40 + 3 + 2 = 45 cars: no train left."""

SANTA_FE_Y = {"Denver|Santa Fe": 0, "El Paso|Santa Fe": 0, "Phoenix|Santa Fe": 0}
"""Three routes of 2, 2 and 3 cars meeting at Santa Fe."""


def cards(holder: int = 1, **position: Any) -> dict[str, Any]:
    """`position` with every train card it does not place (market, deck, discard, hands)
    in seat `holder`'s hand."""
    seats = position.get("seats", 2)
    hands = [dict(h) for h in position.get("hands", [{}] * seats)]
    rest = Counter(ALL_CARDS)
    rest.subtract(card for card in position.get("market", MARKET) if card is not None)
    rest.subtract(position.get("deck", ()))
    rest.subtract(position.get("discard", ()))
    for hand in hands:
        rest.subtract(hand)
    assert all(n >= 0 for n in rest.values()), "the position uses more cards than the game has"
    for kind, count in rest.items():
        hands[holder][kind] = hands[holder].get(kind, 0) + count
    return {**position, "hands": hands}


def tickets(holder: int = 1, **position: Any) -> dict[str, Any]:
    """`position` with every ticket it does not place kept by seat `holder`."""
    seats = position.get("seats", 2)
    kept = [list(t) for t in position.get("tickets", [[]] * seats)]
    placed = {*position.get("ticket_deck", ()), *(t for seat in kept for t in seat),
              *(t for seat in position.get("offered", ()) for t in seat)}
    kept[holder] += [t for t in ALL_TICKETS if t not in placed]
    return {**position, "tickets": kept}


def claim(route: str, **cards_paid: int) -> dict[str, Any]:
    return {"type": "claim_route", "route": route, "cards": cards_paid}


def keep(*kept: str) -> dict[str, Any]:
    return {"type": "keep_tickets", "keep": list(kept)}


DECK = {"type": "draw_card", "source": "deck"}
TICKETS = {"type": "draw_tickets"}
PASS = {"type": "pass"}


def market(slot: int) -> dict[str, Any]:
    return {"type": "draw_card", "source": "market", "slot": slot}


ROUTE_POINTS = "Claim a route: score at once by length 1->1, 2->2, 3->4, 4->7, 5->10, 6->15"


def points_case(number: int, route: str, length: int, points: int, **paid: int) -> Case:
    return {
        "number": number,
        "title": f"a route of {length} scores {points}",
        "rule": ROUTE_POINTS,
        "position": {"hands": [paid, {}]},
        "seat": 0,
        "move": claim(route, **paid),
        "expect": {"events": [["RouteClaimed", {"seat": 0, "route": route, "trains_left": 45 - length,
                                                "points": points}]]},
    }


LAST_TURN = {"final_round_trigger": 0, "cards_drawn": 1}
"""Seat 0 triggered the final round and is drawing the second card of its last turn."""


def final(claims: dict[str, int], **position: Any) -> dict[str, Any]:
    """Seat 0's last turn, ending with a blind card, with these routes on the board."""
    return {"claims": claims, **LAST_TURN, **position}


CASES: list[Case] = [
    # --- setup: the opening ticket choice -------------------------------------------------------
    {
        "number": 1,
        "title": "the opening keeps two tickets, sealed",
        "rule": "Setup 4: keep at least 2 of 3 tickets; kept tickets are secret (the opening is sealed)",
        "position": {"phase": "opening", "offered": OPENING_OFFERS},
        "seat": 0,
        "move": keep(DENVER_EL_PASO, ATLANTA_NEW_YORK),
        "expect": {"events": [["TicketsKept", {"seat": 0},
                               {"kept": [DENVER_EL_PASO, ATLANTA_NEW_YORK], "returned": [HOUSTON_KANSAS_CITY]}]],
                   "public": [["TicketsKept", {"seat": 0}]],
                   "absent": ["TicketChoicesRevealed", "TurnStarted"]},
    },
    {
        "number": 2,
        "title": "the opening keeps one ticket",
        "rule": "Setup 4: each player keeps at least 2 of the 3 tickets dealt",
        "position": {"phase": "opening", "offered": OPENING_OFFERS},
        "seat": 0,
        "move": keep(DENVER_EL_PASO),
        "expect": {"error": "tickets_keep_too_few"},
    },
    {
        "number": 3,
        "title": "the opening keeps all three tickets",
        "rule": "Setup 4: a player may keep all 3",
        "position": {"phase": "opening", "offered": OPENING_OFFERS},
        "seat": 1,
        "move": keep(*OPENING_OFFERS[1]),
        "expect": {"events": [["TicketsKept", {"seat": 1}, {"kept": OPENING_OFFERS[1], "returned": []}]]},
    },
    {
        "number": 4,
        "title": "the last opening choice reveals the counts and starts play",
        "rule": "Setup 4-5: once every seat has chosen, play begins with the first player",
        "position": {"phase": "opening", "offered": OPENING_OFFERS},
        "before": [[0, keep(DENVER_EL_PASO, HOUSTON_KANSAS_CITY)]],
        "seat": 1,
        "move": keep(*OPENING_OFFERS[1]),
        "expect": {"events": [["TicketsKept", {"seat": 1}],
                              ["TicketChoicesRevealed", {"kept": {"0": 2, "1": 3}, "returned": {"0": 1, "1": 0}}],
                              ["TurnStarted", {"seat": 0}]]},
    },
    {
        "number": 5,
        "title": "returned opening tickets go to the bottom",
        "rule": "Setup 4: returned tickets go to the bottom of the ticket deck",
        "position": tickets(phase="opening", offered=OPENING_OFFERS, ticket_deck=[HELENA_LOS_ANGELES]),
        "before": [[0, keep(DENVER_EL_PASO, HOUSTON_KANSAS_CITY)]],
        "seat": 1,
        "move": keep(CALGARY_SALT_LAKE, DULUTH_HOUSTON),
        "expect": {"events": [["TicketChoicesRevealed", {}]],
                   "view": {"ticket_deck_order": [HELENA_LOS_ANGELES, ATLANTA_NEW_YORK, CHICAGO_NEW_ORLEANS]}},
    },
    {
        "number": 6,
        "title": "drawing a card before choosing the first tickets",
        "rule": "Setup 4 comes before the first turn: the tickets are chosen first",
        "position": {"phase": "opening", "offered": OPENING_OFFERS},
        "seat": 0,
        "move": DECK,
        "expect": {"error": "must_keep_tickets"},
    },
    {
        "number": 7,
        "title": "keeping a ticket that was not offered",
        "rule": "Setup 4: the tickets kept are among the 3 dealt",
        "position": {"phase": "opening", "offered": OPENING_OFFERS},
        "seat": 0,
        "move": keep(DENVER_EL_PASO, CALGARY_SALT_LAKE),
        "expect": {"error": "ticket_not_offered"},
    },
    {
        "number": 8,
        "title": "moving out of turn",
        "rule": "Setup 5: play goes in seat order, one player's turn at a time",
        "position": {},
        "seat": 1,
        "move": DECK,
        "expect": {"error": "not_your_turn"},
    },
    # --- 1. drawing train-car cards --------------------------------------------------------------
    {
        "number": 9,
        "title": "a blind card is the first of two",
        "rule": "Draw train-car cards: 2 cards, e.g. 2 from the deck (blind)",
        "position": cards(deck=["pink", "white", "orange"]),
        "seat": 0,
        "move": DECK,
        "expect": {"events": [["CardDrawn", {"seat": 0, "source": "deck"}, {"card": "pink"}]],
                   "absent": ["TurnStarted"]},
    },
    {
        "number": 10,
        "title": "the second blind card ends the turn",
        "rule": "Draw train-car cards: 2 cards, then the turn is over",
        "position": cards(deck=["pink", "white", "orange"], cards_drawn=1),
        "seat": 0,
        "move": DECK,
        "expect": {"events": [["CardDrawn", {"seat": 0, "source": "deck"}, {"card": "pink"}],
                              ["TurnStarted", {"seat": 1}]]},
    },
    {
        "number": 11,
        "title": "a face-up card is replaced at once",
        "rule": "Draw train-car cards: after each face-up card is taken, refill the market to 5 at once",
        "position": cards(deck=["orange", "white", "pink"]),
        "seat": 0,
        "move": market(2),
        "expect": {"events": [["CardDrawn", {"seat": 0, "source": "market", "slot": 2, "card": "green"}],
                              ["MarketRefilled", {"slot": 2, "card": "orange"}]],
                   "absent": ["TurnStarted"],
                   "view": {"market": ["red", "blue", "orange", "yellow", "black"]}},
    },
    {
        "number": 12,
        "title": "one blind card and one face-up card",
        "rule": "Draw train-car cards: any mix, e.g. 1 face-up + 1 blind",
        "position": cards(deck=["orange", "white", "pink"], cards_drawn=1),
        "seat": 0,
        "move": market(4),
        "expect": {"events": [["CardDrawn", {"source": "market", "slot": 4, "card": "black"}],
                              ["MarketRefilled", {"slot": 4, "card": "orange"}], ["TurnStarted", {"seat": 1}]]},
    },
    {
        "number": 13,
        "title": "a face-up locomotive is the whole draw",
        "rule": "Draw train-car cards: a face-up locomotive taken as the first card counts as 2",
        "position": cards(market=[L, "blue", "green", "yellow", "black"], deck=["orange", "white", "pink"]),
        "seat": 0,
        "move": market(0),
        "expect": {"events": [["CardDrawn", {"slot": 0, "card": L}], ["MarketRefilled", {"slot": 0, "card": "orange"}],
                              ["TurnStarted", {"seat": 1}]]},
    },
    {
        "number": 14,
        "title": "a face-up locomotive as the second card",
        "rule": "Draw train-car cards: a face-up locomotive may only be taken as the first card",
        "position": cards(market=[L, "blue", "green", "yellow", "black"], cards_drawn=1),
        "seat": 0,
        "move": market(0),
        "expect": {"error": "locomotive_second_card"},
    },
    {
        "number": 15,
        "title": "a locomotive turned up by the refill after the first card",
        "rule": "Ruling 5: a face-up locomotive turned up as a replacement after the first card may not be taken",
        "position": cards(deck=[L, "white", "pink"]),
        "before": [[0, market(1)]],
        "seat": 0,
        "move": market(1),
        "expect": {"error": "locomotive_second_card"},
    },
    {
        "number": 16,
        "title": "a blind locomotive counts as one card",
        "rule": "Draw train-car cards: a locomotive drawn blind from the deck counts as 1 card",
        "position": cards(deck=[L, "white", "pink"]),
        "seat": 0,
        "move": DECK,
        "expect": {"events": [["CardDrawn", {"source": "deck"}, {"card": L}]], "absent": ["TurnStarted"]},
    },
    {
        "number": 17,
        "title": "a refill that leaves three locomotives wipes the market",
        "rule": "Draw train-car cards: if a refill leaves 3+ locomotives face up, discard all 5 and deal 5 new ones",
        "position": cards(market=[L, L, "red", "blue", "green"], deck=[L, "white", "white", "pink", "pink", "orange", "black"]),
        "seat": 0,
        "move": market(2),
        "expect": {"events": [["MarketRefilled", {"slot": 2, "card": L}],
                              ["MarketWiped", {"wipe": 1, "discarded": [L, L, L, "blue", "green"]}],
                              ["MarketRefilled", {"slot": 0, "card": "white"}],
                              ["MarketRefilled", {"slot": 4, "card": "orange"}]],
                   "view": {"market": ["white", "white", "pink", "pink", "orange"], "discard_pile": [L, L, L, "blue", "green"]}},
    },
    {
        "number": 18,
        "title": "three wipes in a row, then the market stays",
        "rule": "Ruling 1: a wipe that leaves 3+ locomotives is wiped again; after 3 wipes in a row the market stays",
        "position": cards(market=[L, L, "red", "blue", "green"],
                          deck=[L, L, L, L, "white", "white", L, L, L, "white", "white", L, L, L, "pink", "pink",
                                "orange", "orange", "orange", "orange", "orange"]),
        "seat": 0,
        "move": market(2),
        "expect": {"events": [["MarketWiped", {"wipe": 1}], ["MarketWiped", {"wipe": 2}], ["MarketWiped", {"wipe": 3}]],
                   "view": {"market": [L, L, L, "pink", "pink"]}},
    },
    {
        "number": 19,
        "title": "no wipe when deck and discard cannot deal a new market",
        "rule": "Ruling 1: wipes happen only while deck + discard can refill",
        "position": cards(market=[L, L, "red", "blue", "green"], deck=[L, "pink", "pink"]),
        "seat": 0,
        "move": market(2),
        "expect": {"events": [["MarketRefilled", {"slot": 2, "card": L}]], "absent": ["MarketWiped"],
                   "view": {"market": [L, L, L, "blue", "green"]}},
    },
    {
        "number": 20,
        "title": "a market space stays empty when no card is left",
        "rule": "Ruling 2: a market space may stay empty when no card is left to fill it",
        "position": cards(deck=[]),
        "seat": 0,
        "move": market(2),
        "expect": {"events": [["CardDrawn", {"slot": 2, "card": "green"}]], "absent": ["MarketRefilled", "TurnStarted"],
                   "view": {"market": ["red", "blue", None, "yellow", "black"]}},
    },
    {
        "number": 21,
        "title": "taking from an empty market space",
        "rule": "Ruling 2: an empty market space holds no card to take",
        "position": cards(market=[None, "blue", "green", "yellow", "black"], deck=[]),
        "seat": 0,
        "move": market(0),
        "expect": {"error": "market_slot_empty"},
    },
    {
        "number": 22,
        "title": "an empty market space is refilled when spent cards return",
        "rule": "Ruling 2: the empty space is refilled when cards return; spent cards go to the discard pile",
        "position": cards(market=[None, "blue", "green", "yellow", "black"], deck=[], hands=[{"red": 2}, {}]),
        "seat": 0,
        "move": claim("Boston|New York#1", red=2),
        "expect": {"events": [["RouteClaimed", {"route": "Boston|New York#1"}], ["DiscardsShuffled", {"count": 2}],
                              ["MarketRefilled", {"slot": 0, "card": "red"}], ["TurnStarted", {"seat": 1}]]},
    },
    {
        "number": 23,
        "title": "the deck runs out and the discard pile is shuffled",
        "rule": "Draw train-car cards: when the deck runs out, shuffle the discard pile into a new deck",
        "position": cards(deck=["pink"], discard=["white", "white", "orange"]),
        "seat": 0,
        "move": DECK,
        "expect": {"events": [["CardDrawn", {"source": "deck"}, {"card": "pink"}], ["DiscardsShuffled", {"count": 3}]],
                   "absent": ["TurnStarted"], "view": {"deck": 3, "discard": 0}},
    },
    {
        "number": 24,
        "title": "a blind draw with deck and discard empty",
        "rule": "Draw train-car cards: with deck and discard empty, a player may not choose an impossible draw",
        "position": cards(deck=[]),
        "seat": 0,
        "move": DECK,
        "expect": {"error": "deck_empty"},
    },
    {
        "number": 25,
        "title": "one card is the whole draw when no other card may be taken",
        "rule": "Draw train-car cards: a draw of fewer than 2 cards is legal only when no more cards exist",
        "position": cards(market=[L, L, None, None, None], deck=["pink"]),
        "seat": 0,
        "move": DECK,
        "expect": {"events": [["CardDrawn", {"source": "deck"}, {"card": "pink"}], ["TurnStarted", {"seat": 1}]]},
    },
    {
        "number": 26,
        "title": "claiming in the middle of a draw",
        "rule": "A turn: exactly one of three actions (a card draw is finished first)",
        "position": {"cards_drawn": 1, "hands": [{"red": 3}, {}]},
        "seat": 0,
        "move": claim("Chicago|Duluth", red=3),
        "expect": {"error": "must_finish_draw"},
    },
    # --- 2. claiming a route ------------------------------------------------------------------------
    {
        "number": 27,
        "title": "a red route paid in red",
        "rule": "Claim a route: pay cards equal to its length, all of its colour; place that many trains",
        "position": {"hands": [{"red": 3}, {}]},
        "seat": 0,
        "move": claim("Chicago|Duluth", red=3),
        "expect": {"events": [["RouteClaimed", {"seat": 0, "route": "Chicago|Duluth", "cards": {"red": 3},
                                                "trains_left": 42, "points": 4}],
                              ["TurnStarted", {"seat": 1}]],
                   "view": {"routes": {"Chicago|Duluth": 0}, "discard_pile": ["red", "red", "red"]}},
    },
    {
        "number": 28,
        "title": "a red route paid in blue",
        "rule": "Claim a route: the cards are all of the route's colour",
        "position": {"hands": [{"blue": 3}, {}]},
        "seat": 0,
        "move": claim("Chicago|Duluth", blue=3),
        "expect": {"error": "wrong_colour"},
    },
    {
        "number": 29,
        "title": "locomotives stand in for the colour",
        "rule": "Claim a route: locomotives are wild",
        "position": {"hands": [{"red": 1, L: 2}, {}]},
        "seat": 0,
        "move": claim("Chicago|Duluth", red=1, locomotive=2),
        "expect": {"events": [["RouteClaimed", {"cards": {"red": 1, L: 2}, "points": 4}]]},
    },
    {
        "number": 30,
        "title": "a route paid with locomotives only",
        "rule": "Claim a route: an all-locomotive payment is legal",
        "position": {"hands": [{L: 3}, {}]},
        "seat": 0,
        "move": claim("Chicago|Duluth", locomotive=3),
        "expect": {"events": [["RouteClaimed", {"cards": {L: 3}, "trains_left": 42}]]},
    },
    {
        "number": 31,
        "title": "a gray route paid in pink",
        "rule": "Claim a route: a gray route may be paid with any one colour",
        "position": {"hands": [{"pink": 3}, {}]},
        "seat": 0,
        "move": claim("Calgary|Vancouver", pink=3),
        "expect": {"events": [["RouteClaimed", {"route": "Calgary|Vancouver", "cards": {"pink": 3}, "points": 4}]]},
    },
    {
        "number": 32,
        "title": "a gray route paid in two colours",
        "rule": "Claim a route: a gray route takes cards all of the same colour, plus locomotives",
        "position": {"hands": [{"pink": 2, "white": 1}, {}]},
        "seat": 0,
        "move": claim("Calgary|Vancouver", pink=2, white=1),
        "expect": {"error": "mixed_colours"},
    },
    {
        "number": 33,
        "title": "too few cards for the route's length",
        "rule": "Claim a route: pay cards equal to the route's length; a route is claimed whole",
        "position": {"hands": [{"red": 3}, {}]},
        "seat": 0,
        "move": claim("Chicago|Duluth", red=2),
        "expect": {"error": "wrong_card_count"},
    },
    {
        "number": 34,
        "title": "paying with cards not in hand",
        "rule": "Claim a route: the player pays from their own train-car cards",
        "position": {"hands": [{"red": 2}, {}]},
        "seat": 0,
        "move": claim("Chicago|Duluth", red=3),
        "expect": {"error": "not_enough_cards"},
    },
    {
        "number": 35,
        "title": "too few trains left",
        "rule": "Claim a route: the player must have enough trains left",
        "position": {"claims": FORTY_CARS, "hands": [{"yellow": 6}, {}]},
        "seat": 0,
        "move": claim("Helena|Seattle", yellow=6),
        "expect": {"error": "not_enough_trains"},
    },
    {
        "number": 36,
        "title": "a route already claimed",
        "rule": "Claim a route: a route is claimed whole, once",
        "position": {"claims": {"Chicago|Duluth": 1}, "hands": [{"red": 3}, {}]},
        "seat": 0,
        "move": claim("Chicago|Duluth", red=3),
        "expect": {"error": "route_taken"},
    },
    {
        "number": 37,
        "title": "the other lane of a double with 3 players",
        "rule": "Claim a route, double routes: in 2-3 player games only one of the pair may be claimed; the other is closed",
        "position": {"seats": 3, "claims": {"Denver|Salt Lake City#0": 1}, "hands": [{"yellow": 3}, {}, {}]},
        "seat": 0,
        "move": claim("Denver|Salt Lake City#1", yellow=3),
        "expect": {"error": "double_route_closed"},
    },
    {
        "number": 38,
        "title": "the other lane of a double with 4 players",
        "rule": "Claim a route, double routes: in 4-5 player games both may be claimed",
        "position": {"seats": 4, "claims": {"Denver|Salt Lake City#0": 1}, "hands": [{"yellow": 3}, {}, {}, {}]},
        "seat": 0,
        "move": claim("Denver|Salt Lake City#1", yellow=3),
        "expect": {"events": [["RouteClaimed", {"seat": 0, "route": "Denver|Salt Lake City#1"}]]},
    },
    {
        "number": 39,
        "title": "both lanes of a double for one player",
        "rule": "Claim a route, double routes: in 4-5 player games never both by the same player",
        "position": {"seats": 5, "claims": {"Denver|Salt Lake City#0": 0}, "hands": [{"yellow": 3}, {}, {}, {}, {}]},
        "seat": 0,
        "move": claim("Denver|Salt Lake City#1", yellow=3),
        "expect": {"error": "double_route_same_seat"},
    },
    points_case(40, "Atlanta|Nashville", 1, 1, red=1),
    points_case(41, "Atlanta|Charleston", 2, 2, red=2),
    points_case(42, "Montreal|Toronto", 3, 4, red=3),
    points_case(43, "Calgary|Helena", 4, 7, red=4),
    points_case(44, "Montreal|Sault St. Marie", 5, 10, black=5),
    points_case(45, "Sault St. Marie|Winnipeg", 6, 15, red=6),
    # --- 3. destination tickets ---------------------------------------------------------------------
    {
        "number": 46,
        "title": "drawing three tickets",
        "rule": "Draw destination tickets: draw 3 from the ticket deck",
        "position": tickets(ticket_deck=[DENVER_EL_PASO, HOUSTON_KANSAS_CITY, ATLANTA_NEW_YORK, HELENA_LOS_ANGELES]),
        "seat": 0,
        "move": TICKETS,
        "expect": {"events": [["TicketsDrawn", {"seat": 0, "count": 3},
                               {"tickets": [DENVER_EL_PASO, HOUSTON_KANSAS_CITY, ATLANTA_NEW_YORK]}]],
                   "absent": ["TurnStarted"]},
    },
    {
        "number": 47,
        "title": "keeping one drawn ticket",
        "rule": "Draw destination tickets: keep at least 1; return the rest to the bottom of the deck",
        "position": tickets(offered=[[DENVER_EL_PASO, HOUSTON_KANSAS_CITY, ATLANTA_NEW_YORK], []],
                            ticket_deck=[HELENA_LOS_ANGELES]),
        "seat": 0,
        "move": keep(HOUSTON_KANSAS_CITY),
        "expect": {"events": [["TicketsKept", {"seat": 0, "kept": 1, "returned": 2},
                               {"kept": [HOUSTON_KANSAS_CITY], "returned": [DENVER_EL_PASO, ATLANTA_NEW_YORK]}],
                              ["TurnStarted", {"seat": 1}]],
                   "view": {"ticket_deck_order": [HELENA_LOS_ANGELES, DENVER_EL_PASO, ATLANTA_NEW_YORK]}},
    },
    {
        "number": 48,
        "title": "keeping no drawn ticket",
        "rule": "Draw destination tickets: keep at least 1",
        "position": {"offered": [[DENVER_EL_PASO, HOUSTON_KANSAS_CITY, ATLANTA_NEW_YORK], []]},
        "seat": 0,
        "move": keep(),
        "expect": {"error": "tickets_keep_too_few"},
    },
    {
        "number": 49,
        "title": "two tickets left to draw",
        "rule": "Draw destination tickets: if fewer than 3 remain, draw those that remain (ruling 3)",
        "position": tickets(ticket_deck=[DENVER_EL_PASO, HELENA_LOS_ANGELES]),
        "seat": 0,
        "move": TICKETS,
        "expect": {"events": [["TicketsDrawn", {"seat": 0, "count": 2}, {"tickets": [DENVER_EL_PASO, HELENA_LOS_ANGELES]}]]},
    },
    {
        "number": 50,
        "title": "drawing from an empty ticket deck",
        "rule": "Draw destination tickets: not allowed when the ticket deck is empty",
        "position": tickets(ticket_deck=[]),
        "seat": 0,
        "move": TICKETS,
        "expect": {"error": "ticket_deck_empty"},
    },
    {
        "number": 51,
        "title": "claiming before choosing drawn tickets",
        "rule": "Draw destination tickets: the choice of what to keep is part of the same turn",
        "position": {"offered": [[DENVER_EL_PASO, HOUSTON_KANSAS_CITY, ATLANTA_NEW_YORK], []], "hands": [{"red": 3}, {}]},
        "seat": 0,
        "move": claim("Chicago|Duluth", red=3),
        "expect": {"error": "must_keep_tickets"},
    },
    {
        "number": 52,
        "title": "one ticket kept twice",
        "rule": "Draw destination tickets: each drawn ticket is kept or returned",
        "position": {"offered": [[DENVER_EL_PASO, HOUSTON_KANSAS_CITY, ATLANTA_NEW_YORK], []]},
        "seat": 0,
        "move": keep(DENVER_EL_PASO, DENVER_EL_PASO),
        "expect": {"error": "ticket_listed_twice"},
    },
    # --- end of game ----------------------------------------------------------------------------------
    {
        "number": 53,
        "title": "ending a turn with 2 trains starts the last round",
        "rule": "End of the game: a player who ends their turn with 2 or fewer trains triggers one more turn for everyone",
        "position": {"claims": FORTY_CARS, "hands": [{"red": 3}, {}]},
        "seat": 0,
        "move": claim("Chicago|Duluth", red=3),
        "expect": {"events": [["RouteClaimed", {"trains_left": 2}], ["FinalRoundBegan", {"seat": 0, "trains_left": 2}],
                              ["TurnStarted", {"seat": 1}]]},
    },
    {
        "number": 54,
        "title": "ending a turn with 3 trains",
        "rule": "End of the game: only 2 or fewer trains trigger the last round",
        "position": {"claims": FORTY_CARS, "hands": [{"red": 2}, {}]},
        "seat": 0,
        "move": claim("Atlanta|Charleston", red=2),
        "expect": {"events": [["RouteClaimed", {"trains_left": 3}], ["TurnStarted", {"seat": 1}]],
                   "absent": ["FinalRoundBegan"]},
    },
    {
        "number": 55,
        "title": "the other players get one more turn",
        "rule": "End of the game: every player, the triggering player included, gets exactly one more turn",
        "position": {"seats": 3, "final_round_trigger": 0, "current": 1, "hands": [{}, {"red": 3}, {}]},
        "seat": 1,
        "move": claim("Chicago|Duluth", red=3),
        "expect": {"events": [["RouteClaimed", {"seat": 1}], ["TurnStarted", {"seat": 2}]],
                   "absent": ["FinalRoundBegan", "GameEnded"]},
    },
    {
        "number": 56,
        "title": "the triggering player's last turn ends the game",
        "rule": "End of the game: the triggering player's one more turn is the last; then the game ends",
        "position": final({}, hands=[{}, {}]),
        "seat": 0,
        "move": DECK,
        "expect": {"events": [["CardDrawn", {"seat": 0}], ["LongestPathScored", {}], ["GameEnded", {}]],
                   "absent": ["TurnStarted"], "view": {"phase": "over"}},
    },
    # --- final scoring -----------------------------------------------------------------------------------
    {
        "number": 57,
        "title": "a completed ticket scores, a failed one costs",
        "rule": "Final scoring: a ticket joined by the player's own routes +points; not completed -points",
        "position": final({"Denver|Santa Fe": 0, "El Paso|Santa Fe": 0}, tickets=[[DENVER_EL_PASO, HOUSTON_KANSAS_CITY], []]),
        "seat": 0,
        "move": DECK,
        "expect": {"events": [["TicketScored", {"seat": 0, "ticket": DENVER_EL_PASO, "completed": True, "points": 4}],
                              ["TicketScored", {"seat": 0, "ticket": HOUSTON_KANSAS_CITY, "completed": False, "points": -5}]]},
    },
    {
        "number": 58,
        "title": "another player's route does not complete a ticket",
        "rule": "Final scoring: only a continuous path of the player's own routes completes a ticket",
        "position": final({"Denver|Santa Fe": 0, "El Paso|Santa Fe": 1}, tickets=[[DENVER_EL_PASO], []]),
        "seat": 0,
        "move": DECK,
        "expect": {"events": [["TicketScored", {"seat": 0, "ticket": DENVER_EL_PASO, "completed": False, "points": -4}]]},
    },
    {
        "number": 59,
        "title": "the longest path bonus",
        "rule": "Final scoring, longest continuous path: +10 to the player with the longest path of their own routes, in cars",
        "position": final({"Denver|Santa Fe": 0, "El Paso|Santa Fe": 0, "Atlanta|Charleston": 1}),
        "seat": 0,
        "move": DECK,
        "expect": {"events": [["LongestPathScored", {"lengths": {"0": 4, "1": 2}, "longest": 4, "winners": [0], "points": 10}]],
                   "view": {"scores": {"0": 10, "1": 0}}},
    },
    {
        "number": 60,
        "title": "a tie for the longest path",
        "rule": "Final scoring, longest continuous path: ties: all tied players get the bonus",
        "position": final({"Denver|Santa Fe": 0, "El Paso|Santa Fe": 0, "Calgary|Helena": 1}),
        "seat": 0,
        "move": DECK,
        "expect": {"events": [["LongestPathScored", {"lengths": {"0": 4, "1": 4}, "winners": [0, 1]}]],
                   "view": {"scores": {"0": 10, "1": 10}}},
    },
    {
        "number": 61,
        "title": "branches do not add to the longest path",
        "rule": "Final scoring, longest continuous path: branches do not count (routes of 2, 2, 3 meeting at Santa Fe: 3 + 2)",
        "position": final(SANTA_FE_Y),
        "seat": 0,
        "move": DECK,
        "expect": {"events": [["LongestPathScored", {"lengths": {"0": 5, "1": 0}, "winners": [0]}]]},
    },
    {
        "number": 62,
        "title": "a path may pass through a city twice",
        "rule": "Final scoring, longest continuous path: a path may pass through a city more than once, never the same route twice "
                "(El Paso-Santa Fe-Denver-Phoenix-Santa Fe: 2 + 2 + 5 + 3)",
        "position": final({**SANTA_FE_Y, "Denver|Phoenix": 0}),
        "seat": 0,
        "move": DECK,
        "expect": {"events": [["LongestPathScored", {"lengths": {"0": 12, "1": 0}}]]},
    },
    {
        "number": 63,
        "title": "a tie on points goes to more completed tickets",
        "rule": "Final scoring: the highest total wins; tie-breaker: most completed tickets",
        "position": final({"Denver|Santa Fe": 0, "El Paso|Santa Fe": 0, "Calgary|Helena": 1},
                          tickets=[[DENVER_EL_PASO], []], scores=[10, 14]),
        "seat": 0,
        "move": DECK,
        "expect": {"events": [["GameEnded", {"scores": {"0": 24, "1": 24}, "completed_tickets": {"0": 1, "1": 0},
                                             "winners": [0]}]]},
    },
    {
        "number": 64,
        "title": "a tie on points and tickets goes to the longest path",
        "rule": "Final scoring: the highest total wins; tie-breakers: most completed tickets, then the longest-path holder",
        "position": final({**SANTA_FE_Y, "Calgary|Helena": 1}, scores=[10, 20]),
        "seat": 0,
        "move": DECK,
        "expect": {"events": [["GameEnded", {"scores": {"0": 20, "1": 20}, "winners": [0]}]]},
    },
    # --- passes and no-move situations -------------------------------------------------------------------
    {
        "number": 65,
        "title": "passing with a move available",
        "rule": "Ruling 4: passing is not allowed when any action is possible",
        "position": {},
        "seat": 0,
        "move": PASS,
        "expect": {"error": "pass_not_allowed"},
    },
    {
        "number": 66,
        "title": "passing with no legal action",
        "rule": "Ruling 4: a player with no route affordable, no card drawable and no ticket left passes; the pass is an event",
        "position": tickets(**cards(market=[None] * 5, deck=[], ticket_deck=[], claims=ALL_FORTY_FIVE,
                                    final_round_trigger=1)),
        "seat": 0,
        "move": PASS,
        "expect": {"events": [["TurnPassed", {"seat": 0}], ["TurnStarted", {"seat": 1}]], "absent": ["GameEnded"]},
    },
    {
        "number": 67,
        "title": "every seat passing in a row ends the game",
        "rule": "Ruling 4 with the recorded option end_when_every_seat_passes: once every seat has passed in a row "
                "nothing can change, so the game goes to final scoring",
        "position": tickets(**cards(market=[None] * 5, deck=[], ticket_deck=[], claims=ALL_FORTY_FIVE,
                                    final_round_trigger=1, passes_in_a_row=1)),
        "seat": 0,
        "move": PASS,
        "expect": {"events": [["TurnPassed", {"seat": 0}], ["PlayStalled", {"passes": 2}], ["GameEnded", {}]],
                   "absent": ["TurnStarted"]},
    },
]
