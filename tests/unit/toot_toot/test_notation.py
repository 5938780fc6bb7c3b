"""Toot-Toot Train's notation: legal moves of random playouts are written and read back to
the same move; the short form and the generic form both read; errors in the game's words."""

from __future__ import annotations

import random

import pytest

from domain.core.decider import Setup
from domain.core.errors import MalformedMove
from domain.core.notation import generic_format
from domain.core.randomness import SeededRandom
from tests.conformance.toot_toot.cases import ISSUE
from tests.unit.toot_toot.helpers import RULES, table

SEATS = ("Ann", "Ben", "Cho", "Dee")
NOTATION = RULES.notation
SAMPLE = 80
"""Moves checked per position: all of them, or this many at random where a position has more
(a free drawing turn offers thousands of segments)."""


@pytest.mark.parametrize("game", range(2))
def test_legal_moves_of_random_playouts_read_back_the_same(game: int) -> None:
    players = 2 + game
    seats = SEATS[:players]
    setup = Setup(seats, RULES.options({}, players))
    state = RULES.initial_state(setup)
    rng, chooser = SeededRandom(bytes([60 + game]) * 32), random.Random(game)
    for event in RULES.setup(state, rng):
        state = RULES.evolve(state, event)
    positions = 0
    seen: set[str] = set()
    while not RULES.is_over(state):
        seat = chooser.choice(sorted(RULES.active_seats(state)))
        moves = RULES.legal_moves(state, seat)
        positions += 1
        for move in moves if len(moves) <= SAMPLE else chooser.sample(moves, SAMPLE):
            line = NOTATION.format(state, seats, seat, move)
            parsed = NOTATION.parse(state, seats, line, RULES.active_seats(state))
            assert (parsed.seat, parsed.move) == (seat, move), line
            generic = NOTATION.parse(state, seats, generic_format(seats, seat, move), RULES.active_seats(state))
            assert (generic.seat, generic.move) == (seat, move)
            seen.add(move["type"])
        move = RULES.playout_choice(state, seat, moves, chooser) or chooser.choice(moves)
        for event in RULES.decide(state, seat, move, rng):
            state = RULES.evolve(state, event)
    assert positions >= 100 and len(seen) >= 10


@pytest.mark.parametrize(("line", "seat", "move"), [
    ("Ann starts at 0,3", 0, {"type": "choose_start", "hex": "0,3"}),
    ("Ben draws 4,5 0-3", 1, {"type": "draw_track", "hex": "4,5", "from": 0, "to": 3}),
    ("Ann stops drawing", 0, {"type": "stop_drawing"}),
    ("Ann drives to 5,3 facing 2", 0, {"type": "drive", "hex": "5,3", "facing": 2}),
    ("Ann turns to face 4", 0, {"type": "turn", "facing": 4}),
    ("Ann takes from wood_site", 0, {"type": "take", "site": "wood_site"}),
    ("Ann processes paper_from_wood at factory@4,4", 0,
     {"type": "process", "recipe": "paper_from_wood", "factory": "factory@4,4"}),
    ("Ann sells at yellow_city: Y3 steel; Y8 wood, 2 coal", 0,
     {"type": "sell", "city": "yellow_city", "fills": {"Y3": {"steel": 1}, "Y8": {"wood": 1, "coal": 2}}}),
    ("Ann sells at yellow_city: y3 Steel", 0, {"type": "sell", "city": "yellow_city", "fills": {"Y3": {"steel": 1}}}),
    ("Ann passes", 0, {"type": "pass_location"}),
    ("Ann spends coal, drives to 5,3 facing 2", 0, {"type": "fuel_move", "fuel": "coal", "hex": "5,3", "facing": 2}),
    ("Ann spends iron, draws 4,5 0-3", 0, {"type": "iron_track", "hex": "4,5", "from": 0, "to": 3}),
    ("Ann builds a paper_mill at 4,4 exit 2 for 2 stone", 0,
     {"type": "build_factory", "kind": "paper_mill", "hex": "4,4", "exit": 2, "payment": "stone"}),
    ("Ann builds a brickworks at 4,4 exit 0 with the shovel", 0,
     {"type": "build_factory", "kind": "brickworks", "hex": "4,4", "exit": 0, "payment": "shovel"}),
    ("Ann builds an iron_works at 4,4 exit 5 for a penalty token", 0,
     {"type": "build_factory", "kind": "iron_works", "hex": "4,4", "exit": 5, "payment": "penalty"}),
    ("Ann upgrades max_wood", 0, {"type": "upgrade", "ability": "max_wood"}),
    ("Ann ends the turn", 0, {"type": "end_turn"}),
    ("Ann supplies hand orders: B1 coal; Y8 wood, 2 coal", 0,
     {"type": "supply_hand_orders", "fills": {"B1": {"coal": 1}, "Y8": {"wood": 1, "coal": 2}}}),
    ("Ben supplies hand orders: b1 Coal", 1, {"type": "supply_hand_orders", "fills": {"B1": {"coal": 1}}}),
    ("Ann supplies no hand orders", 0, {"type": "supply_hand_orders", "fills": {}}),
    ("Ann: drive hex=5,3 facing=2", 0, {"type": "drive", "hex": "5,3", "facing": 2}),
    ("seat 1: end_turn", 1, {"type": "end_turn"}),
])
def test_a_short_line_or_the_generic_form_names_the_move(line: str, seat: int, move: dict) -> None:  # type: ignore[type-arg]
    parsed = NOTATION.parse(None, SEATS[:2], line)  # type: ignore[arg-type]
    assert (parsed.seat, parsed.move) == (seat, move)


def test_a_line_without_a_name_is_the_one_seat_to_act() -> None:
    assert NOTATION.parse(None, SEATS[:2], "ends the turn", frozenset({1})).seat == 1  # type: ignore[arg-type]


@pytest.mark.parametrize(("line", "words"), [
    ("Ann flies to 5,3", "cannot read 'flies to 5,3' as a Toot-Toot Train move"),
    ("Ann drives to 5,3 facing 7", "cannot read"),
    ("Ann sells at yellow_city Y3 steel", "a sale reads 'sells at yellow_city: Y3 steel; Y8 wood, 2 coal'"),
    ("Ann sells at yellow_city: Y3", "each order of a sale reads 'Y8 wood, 2 coal'"),
    ("Ann sells at yellow_city: Y3 two+coal", "goods sold read 'wood' or '2 coal'"),
    ("Ann supplies hand orders: B1", "each order of a supply reads 'Y8 wood, 2 coal'"),
    ("Ann supplies hand orders: B1 some+coal", "goods supplied read 'wood' or '2 coal'"),
    ("Ann supplies hand orders", "cannot read 'supplies hand orders'"),
    ("Zed passes", "start the line with the seat that moves"),
])
def test_an_unreadable_line_is_refused_in_the_games_words(line: str, words: str) -> None:
    with pytest.raises(MalformedMove) as refused:
        NOTATION.parse(None, SEATS[:2], line)  # type: ignore[arg-type]
    assert words in refused.value.message


def test_every_choice_of_hand_orders_in_final_scoring_reads_back_the_same() -> None:
    position = {**ISSUE, "goods": [{"coal": 1, "tools": 1}, {}]}
    state = table(2, **position)
    moves = RULES.legal_moves(state, 0)
    lines = [NOTATION.format(state, SEATS[:2], 0, move) for move in moves]
    assert "Ann supplies no hand orders" in lines and "Ann supplies hand orders: B6 coal, tools" in lines
    for line, move in zip(lines, moves, strict=True):
        assert NOTATION.parse(state, SEATS[:2], line, RULES.active_seats(state)).move == move, line
        generic = NOTATION.parse(state, SEATS[:2], generic_format(SEATS[:2], 0, move), RULES.active_seats(state))
        assert generic.move == move
