"""Ticket to Ride's notation: the lines a referee writes (long and short forms, and the
generic form) read back as the moves they name, every legal move of hundreds of positions
of games played at a table round-trips, and a line the notation cannot read is refused in
the game's words."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from domain.core.errors import IllegalMove, MalformedMove, RuleError
from domain.core.notation import generic_format
from domain.ticket_to_ride import DECIDER
from domain.ticket_to_ride.names import names_of
from domain.ticket_to_ride.notation import TicketToRideNotation
from domain.ticket_to_ride.state import OPENING, State
from tests.unit.ticket_to_ride.conftest import table
from tests.unit.ticket_to_ride.table_playout import NAMES, play_at_table

SEATS = list(NAMES)
LONG = TicketToRideNotation(DECIDER.board)
SHORT = TicketToRideNotation(DECIDER.board, short=True)
DOCS = Path(__file__).resolve().parents[3] / "docs" / "notation-ticket-to-ride.md"


def _position() -> State:
    return table(3, hands=[{"pink": 4, "red": 3, "locomotive": 2}, {}, {}],
                 market=("red", "green", "locomotive", "green", "white"), current=0)


def _read(text: str, state: State | None = None) -> tuple[int, dict[str, Any]]:
    line = DECIDER.notation.parse(state or _position(), SEATS, text, frozenset({0}))
    return line.seat, line.move


@pytest.mark.parametrize(("text", "move"), [
    ("Ann claims Denver–Omaha with 4 pink", {"type": "claim_route", "route": "Denver|Omaha", "cards": {"pink": 4}}),
    ("Ann claims Denver–Omaha with 4 red", {"type": "claim_route", "route": "Denver|Omaha", "cards": {"red": 4}}),
    ("Ann DEN-OMA 4p", {"type": "claim_route", "route": "Denver|Omaha", "cards": {"pink": 4}}),
    ("Ann OMA-DEN 2p2L", {"type": "claim_route", "route": "Denver|Omaha", "cards": {"pink": 2, "locomotive": 2}}),
    ("ann claims omaha - denver with 3 pink and 1 locomotive",
     {"type": "claim_route", "route": "Denver|Omaha", "cards": {"pink": 3, "locomotive": 1}}),
    ("Ann claims Salt Lake City—Denver with 3 red", {"type": "claim_route", "route": "Denver|Salt Lake City#0",
                                                    "cards": {"red": 3}}),
    ("Ann claims Atlanta–Raleigh (lane 2) with 2 red", {"type": "claim_route", "route": "Atlanta|Raleigh#1",
                                                        "cards": {"red": 2}}),
    ("Ann ATL-RAL/2 2r", {"type": "claim_route", "route": "Atlanta|Raleigh#1", "cards": {"red": 2}}),
    ("Ann claims Boston–New York with 2 locos", {"type": "claim_route", "route": "Boston|New York#0",
                                                 "cards": {"locomotive": 2}}),
    ("Ann claims Boston–New York with 2 red", {"type": "claim_route", "route": "Boston|New York#1", "cards": {"red": 2}}),
    ("Ann draws blind", {"type": "draw_card", "source": "deck"}),
    ("Ann blind", {"type": "draw_card", "source": "deck"}),
    ("Ann takes green", {"type": "draw_card", "source": "market", "slot": 1}),
    ("Ann takes green from slot 4", {"type": "draw_card", "source": "market", "slot": 3}),
    ("Ann g", {"type": "draw_card", "source": "market", "slot": 1}),
    ("Ann g@4", {"type": "draw_card", "source": "market", "slot": 3}),
    ("Ann L", {"type": "draw_card", "source": "market", "slot": 2}),
    ("Ann draws tickets", {"type": "draw_tickets"}),
    ("Ann tickets", {"type": "draw_tickets"}),
    ("Ann passes", {"type": "pass"}),
    ("Ann: claim_route route='Denver|Omaha' cards='{\"pink\":4}'",
     {"type": "claim_route", "route": "Denver|Omaha", "cards": {"pink": 4}}),
    ("Ann: draw_card source=market slot=3", {"type": "draw_card", "source": "market", "slot": 3}),
    ("draws blind", {"type": "draw_card", "source": "deck"}),  # the one seat to move may go unnamed
])
def test_a_line_reads_as_the_move_it_names(text: str, move: dict[str, Any]) -> None:
    assert _read(text) == (0, move)


def test_kept_tickets_are_named_by_their_cities_in_either_order_in_full_or_by_code() -> None:
    offered = ("Denver|El Paso", "Boston|Miami", "Houston|Kansas City")
    state = table(3, offered=[offered, (), ()], phase=OPENING)
    for text in ("Cat keeps Denver–El Paso, Boston–Miami", "Cat keeps DEN-EPA, MIA-BOS", "Cat keeps Denver-El Paso and boston-miami"):
        line = LONG.parse(table(3, offered=[(), (), offered], phase=OPENING), SEATS, text)
        assert (line.seat, line.move) == (2, {"type": "keep_tickets", "keep": ["Denver|El Paso", "Boston|Miami"]})
    assert LONG.parse(state, SEATS, "Ann keeps Kansas City–Houston").move == {"type": "keep_tickets",
                                                                             "keep": ["Houston|Kansas City"]}
    assert LONG.format(state, SEATS, 0, {"type": "keep_tickets", "keep": list(offered)}) == \
        "Ann keeps Denver–El Paso, Boston–Miami, Kansas City–Houston"
    assert SHORT.format(state, SEATS, 0, {"type": "keep_tickets", "keep": list(offered)}) == \
        "Ann keeps DEN-EPA, BOS-MIA, KCI-HOU"


def test_a_lane_is_written_only_when_the_cards_and_the_claimed_lanes_do_not_tell_it() -> None:
    state = _position()
    lane_one = {"type": "claim_route", "route": "Atlanta|Raleigh#0", "cards": {"red": 2}}
    lane_two = {"type": "claim_route", "route": "Atlanta|Raleigh#1", "cards": {"red": 2}}
    assert LONG.format(state, SEATS, 0, lane_one) == "Ann claims Atlanta–Raleigh with 2 red"
    assert LONG.format(state, SEATS, 0, lane_two) == "Ann claims Atlanta–Raleigh (lane 2) with 2 red"
    assert SHORT.format(state, SEATS, 0, lane_two) == "Ann ATL-RAL/2 2r"
    # The colour tells a coloured double's lanes apart.
    red_lane = {"type": "claim_route", "route": "Boston|New York#1", "cards": {"red": 1, "locomotive": 1}}
    assert LONG.format(state, SEATS, 0, red_lane) == "Ann claims Boston–New York with 1 red and 1 locomotive"
    # With lane 1 taken (by a seat of a four-player game), the open lane is meant.
    taken = table(4, claims={"Atlanta|Raleigh#0": 1}, hands=[{"red": 2}, {}, {}, {}])
    assert LONG.format(taken, SEATS, 0, lane_two) == "Ann claims Atlanta–Raleigh with 2 red"


def _every_form(state: State, seat: int, move: dict[str, Any]) -> list[str]:
    return [LONG.format(state, SEATS, seat, move), SHORT.format(state, SEATS, seat, move),
            generic_format(SEATS, seat, move)]


@cache
def _positions() -> list[tuple[State, int, list[dict[str, Any]]]]:
    out = []
    for seats, seed, level in ((2, 1, "greedy"), (3, 2, "greedy"), (3, 5, "random"), (4, 7, "planner")):
        play = play_at_table(DECIDER, seats, seed, level=level, short=seed % 2 == 1, max_lines=700)
        out += play.positions
    return out



def test_the_random_games_give_hundreds_of_positions_of_every_kind_of_move() -> None:
    assert len(_positions()) >= 400
    kinds = {move["type"] for _, _, moves in _positions() for move in moves}
    assert kinds >= {"keep_tickets", "draw_card", "claim_route", "draw_tickets"}


@pytest.mark.parametrize("chunk", range(4))
def test_every_legal_move_of_every_position_reads_back_from_each_form(chunk: int) -> None:
    checked = 0
    for state, seat, moves in _positions()[chunk::4]:
        written = set()
        for move in moves:
            for text in _every_form(state, seat, move):
                line = LONG.parse(state, SEATS, text, frozenset({seat}))
                assert (line.seat, line.move) == (seat, move), text
                checked += 1
            written.add(LONG.format(state, SEATS, seat, move))
        assert len(written) == len(moves), "two legal moves were written alike"
    assert checked > 1000


@pytest.mark.parametrize(("text", "error", "words"), [
    ("Ann claims Denver–Gotham with 4 pink", MalformedMove, "no city is called 'Gotham' on this map"),
    ("Ann claims Denver–Miami with 4 pink", IllegalMove, "no route joins Denver and Miami on this map"),
    ("Ann claims Denver with 4 pink", MalformedMove, "name two cities joined by a dash, such as Denver–Omaha"),
    ("Ann claims Denver–Omaha with four pink", MalformedMove, "cannot read the cards paid in 'four pink'"),
    ("Ann claims Denver–Omaha with 4 purple", MalformedMove, "no train card is called 'purple'"),
    ("Ann claims Denver–Omaha (lane 2) with 4 pink", MalformedMove, "Denver–Omaha has no lane 2 (lanes: 1)"),
    ("Ann takes pink", IllegalMove, "no pink card lies face up (the market shows red, green, locomotive, green, white)"),
    ("Ann takes red from slot 2", IllegalMove, "slot 2 holds green, not red"),
    ("Ann takes red from slot 9", MalformedMove, "the market has slots 1 to 5, not 9"),
    ("Ann dances", MalformedMove, "cannot read 'Ann dances': write a move such as 'Ann claims Denver–Omaha with 4 red'"),
    ("Zed draws blind", MalformedMove, "start the line with the seat that moves (Ann, Bob, Cat, Dan, Eve)"),
])
def test_a_line_that_names_no_move_is_refused_in_the_games_words(text: str, error: type[RuleError], words: str) -> None:
    with pytest.raises(error) as refused:
        LONG.parse(_position(), SEATS, text, frozenset({0, 1}))
    assert words in refused.value.message


def test_the_docs_list_every_city_code_and_card_letter_of_the_usa_map() -> None:
    text = DOCS.read_text()
    names = names_of(DECIDER.board)
    documented = dict(re.findall(r"^\| ([A-Z][^|]*?) \| `([A-Z]{3,})` \|$", text, re.MULTILINE))
    assert documented == dict(names.code)
    letters = dict(re.findall(r"^\| ([a-z]+) \| `(\w+)` \|$", text, re.MULTILINE))
    assert letters == dict(names.letter)


def test_a_move_that_names_nothing_on_the_map_is_written_in_the_generic_form() -> None:
    state = _position()
    for move in ({"type": "claim_route", "route": "Denver|Gotham", "cards": {"red": 4}},
                 {"type": "draw_card", "source": "market", "slot": 9},
                 {"type": "keep_tickets", "keep": ["Nowhere|Else"]}):
        assert LONG.format(state, SEATS, 0, move) == generic_format(SEATS, 0, move)
    paid_backwards = {"type": "claim_route", "route": "Denver|Omaha", "cards": {"locomotive": 1, "pink": 3}}
    assert LONG.format(state, SEATS, 0, paid_backwards) == "Ann claims Denver–Omaha with 3 pink and 1 locomotive"
