"""Turn order, passing (ruling 4), the end of the game and who may move when."""

from __future__ import annotations

from typing import Any

import pytest

from domain.core.errors import GameOver, IllegalMove, NotYourTurn
from domain.core.events import PUBLIC
from domain.core.randomness import SeededRandom
from domain.ticket_to_ride import DECIDER
from domain.ticket_to_ride.state import OVER, State
from tests.usa import TICKETS

from .conftest import SEED, kinds, of_kind, opened, play, refused, table

DECK = {"type": "draw_card", "source": "deck"}
PASS = {"type": "pass"}
ALL = list(TICKETS)


def blocked(seats: int = 2, **fields: Any) -> State:
    """A position where nobody can do anything: no card to draw, no ticket, empty hands."""
    fields = {"market": [None] * 5, **fields}
    return table(seats, deck=[], ticket_deck=[], tickets=[[ALL[s]] for s in range(seats)], **fields)


def test_play_starts_with_the_first_player_and_goes_clockwise() -> None:
    state, rng = opened(3)
    first = state.first_player
    assert first is not None
    seen = []
    for _ in range(4):
        seen.append(state.current)
        seat = state.current
        assert seat is not None
        state, _ = play(state, seat, DECK, rng)
        state, events = play(state, seat, DECK, rng)
        assert events[-1].kind == "TurnStarted" and events[-1].automatic
    assert seen == [first, (first + 1) % 3, (first + 2) % 3, first]


def test_only_the_seat_in_turn_may_move() -> None:
    state = table(3, current=1)
    assert DECIDER.active_seats(state) == frozenset({1})
    with pytest.raises(NotYourTurn):
        DECIDER.decide(state, 0, DECK, SeededRandom(SEED))
    assert DECIDER.legal_moves(state, 0) == []


def test_pass_is_allowed_only_without_any_other_move() -> None:
    error = refused(table(), 0, PASS, IllegalMove)
    assert error.code == "pass_not_allowed"
    assert PASS not in DECIDER.legal_moves(table(), 0)
    state = blocked()
    assert DECIDER.legal_moves(state, 0) == [PASS]
    state, events = play(state, 0, PASS)
    assert kinds(events) == ["TurnPassed", "TurnStarted"]
    assert not events[0].automatic and events[0].data == {"seat": 0}


def test_a_seat_with_cards_but_no_affordable_route_must_still_draw() -> None:
    state = blocked(market=["red", None, None, None, None])
    assert DECIDER.legal_moves(state, 0) == [{"type": "draw_card", "source": "market", "slot": 0}]


def test_a_seat_that_can_claim_may_not_pass() -> None:
    state = blocked(hands=[{"red": 1}, {}])
    assert {m["type"] for m in DECIDER.legal_moves(state, 0)} == {"claim_route"}


def test_when_every_seat_passes_in_a_row_the_game_is_scored() -> None:
    state = blocked(3)
    state, _ = play(state, 0, PASS)
    state, _ = play(state, 1, PASS)
    state, events = play(state, 2, PASS)
    assert kinds(events)[:2] == ["TurnPassed", "PlayStalled"]
    assert kinds(events)[-1] == "GameEnded" and state.phase == OVER


def test_the_final_round_gives_every_seat_exactly_one_more_turn() -> None:
    state = table(3, hands=[{}, {"red": 2}, {}], trains=[20, 4, 20], current=1)
    state, events = play(state, 1, {"type": "claim_route", "route": "Atlanta|Charleston", "cards": {"red": 2}})
    assert kinds(events) == ["RouteClaimed", "FinalRoundBegan", "TurnStarted"]
    assert events[1].data == {"seat": 1, "trains_left": 2} and events[1].automatic
    assert state.final_round_trigger == 1
    turns = []
    while state.phase != OVER:
        seat = state.current
        assert seat is not None
        turns.append(seat)
        state, events = play(state, seat, DECK)
        state, events = play(state, seat, DECK)
    assert turns == [2, 0, 1]
    assert kinds(events)[0] == "CardDrawn" and "TurnStarted" not in kinds(events)
    assert kinds(events)[-1] == "GameEnded"
    assert DECIDER.is_over(state) and DECIDER.active_seats(state) == frozenset()
    with pytest.raises(GameOver):
        DECIDER.decide(state, 0, DECK, SeededRandom(SEED))
    assert DECIDER.legal_moves(state, 0) == []


def test_the_final_round_is_triggered_once() -> None:
    state = table(2, hands=[{}, {"red": 1}], trains=[20, 2], current=1)
    state, events = play(state, 1, {"type": "claim_route", "route": "Atlanta|Nashville", "cards": {"red": 1}})
    assert len(of_kind(events, "FinalRoundBegan")) == 1
    state, _ = play(state, 0, DECK)
    state, events = play(state, 0, DECK)
    assert "FinalRoundBegan" not in kinds(events) and state.current == 1


def test_the_view_tells_who_still_plays_in_the_final_round() -> None:
    state = table(3, hands=[{}, {"red": 2}, {}], trains=[20, 4, 20], current=1)
    state, _ = play(state, 1, {"type": "claim_route", "route": "Atlanta|Charleston", "cards": {"red": 2}})
    assert DECIDER.view(state, PUBLIC)["final_round"] == {"triggered_by": 1, "trains_left": 2, "turns_left": [2, 0, 1]}
