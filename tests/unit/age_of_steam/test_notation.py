"""Age of Steam's notation (`domain/age_of_steam/notation.py`): every legal move of random
playouts written and read back to the same move, the short forms and the generic form read
to the moves they name, and lines that name nothing refused in the game's words."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from domain.age_of_steam.state import ACTIONS, AUCTION, BUILD, MOVE, PRODUCTION, SHARES, State
from domain.core.decider import Setup
from domain.core.errors import MalformedMove
from domain.core.notation import generic_format
from domain.core.randomness import SeededRandom
from domain.core.transcription import Transcript
from tests import playouts
from tests.rust_belt import DECIDER

from .helpers import hex_of, table

SEATS = ("Ann", "Bob", "Cat", "Dee")
NOTATION = DECIDER.notation
Position = tuple[State, int, tuple[str, ...], list[dict[str, Any]]]


def _positions(games: int, per_move: int) -> list[Position]:
    """Positions of seeded playouts (the playout bot steering), each with a sample of its legal moves."""
    out = []
    for game in range(games):
        seats = SEATS[:3 + game % 2]
        rng, chooser = SeededRandom(playouts.seed_of("notation", game)), random.Random(game)
        state = DECIDER.initial_state(Setup(seats, DECIDER.options({}, len(seats))))
        for event in DECIDER.setup(state, rng):
            state = DECIDER.evolve(state, event)
        bot = DECIDER.bots["playout"]
        while not DECIDER.is_over(state):
            seat = min(DECIDER.active_seats(state))
            moves = DECIDER.legal_moves(state, seat)
            out.append((state, seat, seats, moves if len(moves) <= per_move else chooser.sample(moves, per_move)))
            for event in DECIDER.decide(state, seat, bot.choose(state, seat, moves, chooser), rng):
                state = DECIDER.evolve(state, event)
    return out


def _sheet_positions(per_move: int) -> list[Position]:
    """Positions of the whole game on the score sheet (greedy players: Production taken, goods
    delivered over parallel links), each with a sample of its legal moves."""
    sheets = Path(__file__).resolve().parents[2] / "sheets"
    observed = json.loads((sheets / "age_of_steam.observed.json").read_text(encoding="utf-8"))
    seats = ("Ann", "Bob", "Cat")
    transcript, chooser, out = Transcript(DECIDER, seats, {}, observed), random.Random(0), []
    for line in (sheets / "age_of_steam.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()  # as a sheet is read: comments aside
        if not line:
            continue
        if transcript.pending is None:
            state = transcript.state
            seat = min(DECIDER.active_seats(state))
            moves = DECIDER.legal_moves(state, seat)
            out.append((state, seat, seats, moves if len(moves) <= per_move else chooser.sample(moves, per_move)))
        transcript.enter(line)
    return out


def _turn_order_pass() -> Position:
    # Rare in playouts: last turn's Turn Order holder bidding with three still in.
    state = table(phase=AUCTION, turn_order_pass=0, pass_holder=0)
    return state, 0, SEATS[:3], DECIDER.legal_moves(state, 0)


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    # Played when a test asks, not when the module is imported: every parallel worker imports
    # every module to collect it, and only the one that runs these tests needs the games.
    return [*_positions(2, 25), *_sheet_positions(25), _turn_order_pass()]


def test_every_legal_move_of_random_playouts_reads_back_from_its_line(positions: list[Position]) -> None:
    seen: set[str] = set()
    checked = 0
    for state, seat, seats, moves in positions:
        for move in moves:
            line = NOTATION.format(state, seats, seat, move)
            assert "{" not in line and "=" not in line, line
            back = NOTATION.parse(state, seats, line, DECIDER.active_seats(state))
            assert (back.seat, back.move) == (seat, move), line
            seen.add(move["type"])
            checked += 1
    assert len(positions) > 400 and checked > 5000
    # A whole build step on one line is no legal move of its own (test_build_step.py reads it).
    assert seen == {t.name for t in DECIDER.moves.types} - {"build_step"}


def test_the_generic_form_of_every_move_reads_back_too(positions: list[Position]) -> None:
    for state, seat, seats, moves in positions[::7]:
        for move in moves:
            line = generic_format(seats, seat, move)
            assert NOTATION.parse(state, seats, line).move == move, line


def test_a_line_without_the_seats_name_is_the_active_seats() -> None:
    state = table(phase=SHARES, order=[1, 0, 2])
    line = NOTATION.parse(state, SEATS[:3], "issues 2 shares", DECIDER.active_seats(state))
    assert (line.seat, line.move) == (1, {"type": "issue_shares", "count": 2})


def _production() -> dict[str, Any]:
    """A red cube drawn for Production, to go on an empty space."""
    return {"production": ["red"], "display": {"L3": [None, None, None]}, "actions": {"production": 0}}


@pytest.mark.parametrize(("phase", "text", "move"), [
    (SHARES, "Ann issues no shares", {"type": "issue_shares", "count": 0}),
    (SHARES, "Ann 2 shares", {"type": "issue_shares", "count": 2}),
    (SHARES, "Ann +3", {"type": "issue_shares", "count": 3}),
    (SHARES, "Ann: issue_shares count=1", {"type": "issue_shares", "count": 1}),
    (AUCTION, "Ann bids $7", {"type": "bid", "amount": 7}),
    (AUCTION, "Ann 7", {"type": "bid", "amount": 7}),
    (AUCTION, "Ann drop", {"type": "drop"}),
    (AUCTION, "Ann passes", {"type": "turn_order_pass"}),
    (AUCTION, "Ann TO pass", {"type": "turn_order_pass"}),
    (ACTIONS, "Ann takes First Move", {"type": "select_action", "action": "first_move"}),
    (ACTIONS, "Ann fm", {"type": "select_action", "action": "first_move"}),
    (ACTIONS, "Ann eng", {"type": "select_action", "action": "engineer"}),
    (ACTIONS, "Ann turn order", {"type": "select_action", "action": "turn_order"}),
    (BUILD, "Ann b gentle curve 12,4 r2", {"type": "build", "hex": "12,4", "tile": "gentle_curve", "rotation": 2}),
    (BUILD, "Ann builds town_1 in Toledo r3 for $2",
     {"type": "build", "hex": hex_of("Toledo"), "tile": "town_1", "rotation": 3, "cost": 2}),
    (BUILD, "Ann u toledo as c", {"type": "urbanize", "hex": hex_of("Toledo"), "city": "C"}),
    (BUILD, "Ann done", {"type": "end_build"}),
    (MOVE, "Ann loco", {"type": "upgrade_locomotive"}),
    (MOVE, "Ann passes", {"type": "pass_move"}),
    (PRODUCTION, "Ann L3.1", {"type": "place_production", "column": "L3", "space": 0}),
    (PRODUCTION, "Ann places red in d 2", {"type": "place_production", "column": "D", "space": 1}),
])
def test_short_forms_name_the_same_moves(phase: str, text: str, move: dict[str, Any]) -> None:
    extra: dict[str, Any] = _production() if phase == PRODUCTION else {}
    state = table(phase=phase, **extra)
    assert NOTATION.parse(state, SEATS[:3], text).move == move


def test_a_delivery_is_written_by_its_stops_and_read_back_to_its_links(positions: list[Position]) -> None:
    for state, seat, seats, moves in positions:
        delivery = next((m for m in moves if m["type"] == "deliver" and len(m["path"]) > 1), None)
        if delivery is None:
            continue
        line = NOTATION.format(state, seats, seat, delivery)
        stops = line.split(f" {delivery['cube']} ", 1)[1].split(" via ", 1)[0].split("–")
        assert len(stops) == len(delivery["path"]) + 1
        hyphens = line.replace("–", "-")
        assert NOTATION.parse(state, seats, hyphens).move == delivery
        return
    raise AssertionError("no delivery over two links in the playouts")


def test_parallel_links_are_told_apart_after_via(positions: list[Position]) -> None:
    for state, seat, seats, moves in positions:
        for move in moves:
            if move["type"] != "deliver":
                continue
            line = NOTATION.format(state, seats, seat, move)
            if " via " not in line:
                continue
            bare = line.split(" via ", 1)[0]
            with pytest.raises(MalformedMove, match=r"completed links join .* say which after `via`"):
                NOTATION.parse(state, seats, bare)
            return
    raise AssertionError("no two links joined the same stops in the playouts")


@pytest.mark.parametrize(("phase", "text", "message"), [
    (SHARES, "Ann juggles", "not a line of Age of Steam's notation"),
    (BUILD, "Ann builds zigzag at 12,4 r1", "'zigzag' is not a tile"),
    (BUILD, "Ann builds town_1 in Atlantis r1", "'Atlantis' is neither a hex"),
    (MOVE, "Ann moves red Pittsburgh–Atlantis", "'Atlantis' is not a city or town"),
    (MOVE, "Ann moves red Pittsburgh–Wheeling", "no completed link joins Pittsburgh and Wheeling"),
    (MOVE, "Ann moves red Pittsburgh", "a delivery names the stops it passes"),
    (PRODUCTION, "Ann places blue on L3 space 1", "the cube to place next is red, not blue"),
    (PRODUCTION, "Ann places red on L3 space 0", "display spaces count from 1"),
])
def test_lines_that_name_no_move_are_refused_in_the_games_words(phase: str, text: str, message: str) -> None:
    extra: dict[str, Any] = _production() if phase == PRODUCTION else {}
    state = table(phase=phase, **extra)
    with pytest.raises(MalformedMove, match=message) as caught:
        NOTATION.parse(state, SEATS[:3], text)
    assert caught.value.code == "bad_notation"
