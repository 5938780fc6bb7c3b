"""Railway Boom's notation: every legal move of random playouts is written and read back
to the same move; the short form and the generic form both read; errors in the game's words."""

from __future__ import annotations

import random

import pytest

from domain.core.decider import Setup
from domain.core.errors import MalformedMove
from domain.core.notation import generic_format
from domain.core.randomness import SeededRandom
from tests.unit.railway_boom.helpers import RULES

SEATS = ("Ann", "Ben", "Cho", "Dee")
NOTATION = RULES.notation


@pytest.mark.parametrize("game", range(3))
def test_every_legal_move_of_a_random_playout_reads_back_the_same(game: int) -> None:
    players = 2 + game
    seats = SEATS[:players]
    setup = Setup(seats, RULES.options({"first_game": game == 1}, players))
    state = RULES.initial_state(setup)
    rng, chooser = SeededRandom(bytes([40 + game]) * 32), random.Random(game)
    for event in RULES.setup(state, rng):
        state = RULES.evolve(state, event)
    positions = kinds = 0
    seen: set[str] = set()
    while not RULES.is_over(state):
        seat = chooser.choice(sorted(RULES.active_seats(state)))
        moves = RULES.legal_moves(state, seat)
        positions += 1
        for move in moves:
            line = NOTATION.format(state, seats, seat, move)
            parsed = NOTATION.parse(state, seats, line, RULES.active_seats(state))
            assert (parsed.seat, parsed.move) == (seat, move), line
            generic = NOTATION.parse(state, seats, generic_format(seats, seat, move), RULES.active_seats(state))
            assert (generic.seat, generic.move) == (seat, move)
            seen.add(move["type"])
        move = RULES.playout_choice(state, seat, moves, chooser) or chooser.choice(moves)
        for event in RULES.decide(state, seat, move, rng):
            state = RULES.evolve(state, event)
    kinds = len(seen)
    assert positions >= 100 and kinds >= 10


def _state():  # type: ignore[no-untyped-def]
    setup = Setup(SEATS[:3], RULES.options({}, 3))
    state = RULES.initial_state(setup)
    for event in RULES.setup(state, SeededRandom(bytes(32))):
        state = RULES.evolve(state, event)
    return state


@pytest.mark.parametrize(("line", "seat", "move"), [
    ("Ann bids 7", 0, {"type": "bid", "space": 7}),
    ("Ben: bids 7 converting 2 pairs of money, 1 pair of coal", 1,
     {"type": "bid", "space": 7, "convert": {"money": 2, "coal": 1}}),
    ("Cho locks in", 2, {"type": "lock_in"}),
    ("Ann takes L05", 0, {"type": "take_locomotive", "card": "L05"}),
    ("Ann buys C12", 0, {"type": "buy_car", "card": "C12"}),
    ("Ann buys D33 converting 1 pair of coal", 0, {"type": "buy_development", "card": "D33", "convert": {"coal": 1}}),
    ("Ann builds a station at B11, raising coal", 0, {"type": "place_station", "city": "B11", "income": "coal"}),
    ("Ann lays a rail at C12", 0, {"type": "lay_rail", "hex": "C12"}),
    ("Ann chooses row 2", 0, {"type": "choose_row", "row": 1}),
    ("Ann raises vp", 0, {"type": "resolve", "choice": "vp"}),
    ("Ann lays no free rail", 0, {"type": "resolve", "choice": "none"}),
    ("Ann buys D12 of the two drawn converting 1 pair of money", 0,
     {"type": "resolve", "choice": "D12", "convert": {"money": 1}}),
    ("Ann pays 3 money, 2 coal", 0, {"type": "pay", "paid": {"money": 3, "coal": 2}}),
    ("Ann ends the turn", 0, {"type": "done"}),
    ("Ann runs L05+C12+C03, S-red; tiles L05 coal coal; free C12; converting 1 pair of materials", 0,
     {"type": "operate", "runs": [["L05", "C12", "C03"], ["S-red"]], "tiles": {"L05": ["coal", "coal"]},
      "free": ["C12"], "convert": {"materials": 1}}),
    ("Ann runs nothing", 0, {"type": "operate", "runs": [], "tiles": {}, "free": [], "convert": {}}),
    ("ann buys c12", 0, {"type": "buy_car", "card": "C12"}),
    ("Ann runs l05+c12; tiles l05 COAL", 0,
     {"type": "operate", "runs": [["L05", "C12"]], "tiles": {"L05": ["coal"]}, "free": [], "convert": {}}),
    ("Ann: bid space=7", 0, {"type": "bid", "space": 7}),
    ("seat 2: lay_rail hex=C12", 2, {"type": "lay_rail", "hex": "C12"}),
])
def test_a_short_line_or_the_generic_form_names_the_move(line: str, seat: int, move: dict) -> None:  # type: ignore[type-arg]
    parsed = NOTATION.parse(_state(), SEATS[:3], line)
    assert (parsed.seat, parsed.move) == (seat, move)


def test_a_line_without_a_name_is_the_one_seat_to_act() -> None:
    state = _state()
    active = RULES.active_seats(state)
    assert NOTATION.parse(state, SEATS[:3], "locks in", active).seat == next(iter(active))


@pytest.mark.parametrize(("line", "words"), [
    ("Ann flies to Osaka", "cannot read 'flies to Osaka' as a Railway Boom move"),
    ("Ann bids 7 converting 2 pairs of vp", "a conversion reads '2 pairs of money'"),
    ("Ann pays 3 gold", "a payment reads '3 money, 2 coal'"),
    ("Ann builds a station at B11, raising happiness", "the income tracks are"),
    ("Ann runs L05; painted red", "a train plan's parts after the runs"),
    ("Zed bids 3", "start the line with the seat that moves"),
])
def test_an_unreadable_line_is_refused_in_the_games_words(line: str, words: str) -> None:
    with pytest.raises(MalformedMove) as refused:
        NOTATION.parse(_state(), SEATS[:3], line)
    assert words in refused.value.message
