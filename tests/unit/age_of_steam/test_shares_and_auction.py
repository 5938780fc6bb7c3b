"""Issuing shares, the auction for player order (bids, drops, payments by drop order, the
Turn Order pass) and action selection."""

from __future__ import annotations

import pytest

from domain.age_of_steam.events import TurnBegan
from domain.age_of_steam.state import ACTIONS, AUCTION, BUILD, SHARES
from domain.core.errors import IllegalMove, MalformedMove, NotYourTurn
from tests.rust_belt import DECIDER

from .helpers import kinds, of_kind, play, refused, table


def test_shares_bring_five_dollars_each_and_are_counted() -> None:
    state = table(phase=SHARES, order=[1, 0, 2])
    state, events = play(state, 1, {"type": "issue_shares", "count": 3})
    assert events[0].kind == "SharesIssued" and events[0].data == {"seat": 1, "count": 3, "total": 5}
    assert state.seats[1].cash == 25 and state.seats[1].shares == 5 and state.queue == (0, 2)
    state, _ = play(state, 0, {"type": "issue_shares", "count": 0})
    assert state.seats[0].cash == 10 and state.seats[0].shares == 2


def test_the_last_share_issue_starts_the_auction_in_player_order() -> None:
    state = table(phase=SHARES, order=[2, 0, 1], queue=[1])
    state, events = play(state, 1, {"type": "issue_shares", "count": 0})
    assert kinds(events) == ["SharesIssued", "PhaseBegan"]
    assert state.phase == AUCTION and DECIDER.active_seats(state) == {2}


def test_no_more_than_fifteen_shares_in_a_game() -> None:
    state = table(phase=SHARES, shares=[13, 2, 2])
    assert refused(state, 0, {"type": "issue_shares", "count": 3}).code == "share_limit"
    assert [m["count"] for m in DECIDER.legal_moves(state, 0)] == [0, 1, 2]
    assert refused(state, 0, {"type": "issue_shares", "count": -1}).code == "shares_never_bought_back"


def test_moves_out_of_turn_or_of_the_wrong_phase_are_refused() -> None:
    state = table(phase=SHARES)
    with pytest.raises(NotYourTurn):
        DECIDER.decide(state, 1, {"type": "issue_shares", "count": 0}, None)  # type: ignore[arg-type]
    assert refused(state, 0, {"type": "bid", "amount": 1}).code == "wrong_phase"
    error = refused(state, 0, {"type": "issue_shares"}, MalformedMove)
    assert error.code == "missing_field"
    assert refused(state, 0, {"type": "issue_shares", "count": "2"}, MalformedMove).code == "bad_field"
    assert refused(state, 0, {"type": "teleport"}, MalformedMove).code == "unknown_move_type"


def auction(**kwargs: object) -> object:
    return table(phase=AUCTION, **kwargs)  # type: ignore[arg-type]


def test_a_bid_must_beat_the_high_bid_and_not_exceed_cash() -> None:
    state = table(phase=AUCTION, cash=[10, 4, 10])
    assert refused(state, 0, {"type": "bid", "amount": 0}).code == "bid_too_low"
    assert refused(state, 0, {"type": "bid", "amount": 11}).code == "bid_over_cash"
    state, _ = play(state, 0, {"type": "bid", "amount": 3})
    assert DECIDER.active_seats(state) == {1}
    assert refused(state, 1, {"type": "bid", "amount": 3}).code == "bid_too_low"
    moves = DECIDER.legal_moves(state, 1)
    assert [m for m in moves if m["type"] == "bid"] == [{"type": "bid", "amount": 4}]
    assert moves[-1] == {"type": "drop"}


def test_the_high_bidder_is_skipped() -> None:
    state = table(phase=AUCTION)
    state, _ = play(state, 0, {"type": "bid", "amount": 1})
    state, _ = play(state, 1, {"type": "drop"})
    # Seat 2 is next; seat 0 holds the high bid and is skipped when it comes round.
    state, _ = play(state, 2, {"type": "bid", "amount": 2})
    assert DECIDER.active_seats(state) == {0}


def test_three_players_the_first_to_drop_pays_nothing_the_last_two_pay_in_full() -> None:
    state = table(phase=AUCTION, order=[0, 1, 2], cash=[20, 20, 20])
    state, _ = play(state, 0, {"type": "bid", "amount": 3})
    state, _ = play(state, 1, {"type": "bid", "amount": 4})
    state, _ = play(state, 2, {"type": "drop"})
    state, _ = play(state, 0, {"type": "bid", "amount": 5})
    state, events = play(state, 1, {"type": "drop"})
    settled = of_kind(events, "AuctionSettled")[0].data
    assert settled == {
        "order": [0, 1, 2],
        "bids": {"0": 5, "1": 4, "2": 0},
        "drop_order": [2, 1],
        "payments": {"0": 5, "1": 4, "2": 0},
    }
    assert [s.cash for s in state.seats] == [15, 16, 20]
    assert state.phase == ACTIONS and state.order == (0, 1, 2) and state.queue == (0, 1, 2)


def test_five_players_middle_droppers_pay_half_rounded_up() -> None:
    state = table(5, phase=AUCTION, cash=[30] * 5)
    for seat, amount in [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]:
        state, _ = play(state, seat, {"type": "bid", "amount": amount})
    # Drop order 0, 1, 2, 3: seat 0 first (pays 0), 1 and 2 half, 3 in full, 4 wins in full.
    for seat in (0, 1, 2):
        state, events = play(state, seat, {"type": "drop"})
    state, events = play(state, 3, {"type": "drop"})
    settled = of_kind(events, "AuctionSettled")[0].data
    assert settled["order"] == [4, 3, 2, 1, 0]
    assert settled["payments"] == {"0": 0, "1": 1, "2": 2, "3": 4, "4": 5}


def test_the_turn_order_pass_keeps_its_holder_in_once() -> None:
    state = table(phase=AUCTION, pass_holder=1)
    state, _ = play(state, 0, {"type": "bid", "amount": 2})
    assert {"type": "turn_order_pass"} in DECIDER.legal_moves(state, 1)
    state, events = play(state, 1, {"type": "turn_order_pass"})
    assert kinds(events) == ["TurnOrderPassUsed"]
    assert state.auction is not None and 1 in state.auction.bidders and state.auction.pass_holder is None
    assert DECIDER.active_seats(state) == {2}
    state, _ = play(state, 2, {"type": "drop"})
    assert refused(state, 1, {"type": "turn_order_pass"}).code == "no_turn_order_pass"


def test_the_turn_order_pass_is_refused_with_two_bidders_left() -> None:
    state = table(phase=AUCTION, pass_holder=1, dropped=[2], bids={0: 2}, high_bidder=0, current=1)
    error = refused(state, 1, {"type": "turn_order_pass"})
    assert error.code == "pass_with_two_bidders"
    assert {"type": "turn_order_pass"} not in DECIDER.legal_moves(state, 1)


def test_the_turn_order_holder_of_last_turn_gets_the_pass() -> None:
    state = table(phase=ACTIONS, queue=[2], actions={"first_build": 0, "turn_order": 1})
    assert state.turn_order_pass is None
    # At the next turn the holder's pass is ready for the auction.
    from domain.age_of_steam.evolve import evolve

    after = evolve(DECIDER.map, state, TurnBegan(turn=2, last_turn=10))
    assert after.turn_order_pass == 1 and after.actions == {}


def test_actions_are_taken_once_each_and_locomotive_acts_at_once() -> None:
    state = table(phase=ACTIONS, order=[1, 0, 2])
    state, events = play(state, 1, {"type": "select_action", "action": "locomotive"})
    assert kinds(events) == ["ActionSelected", "LocomotiveIncreased"]
    assert state.seats[1].locomotive == 2
    assert refused(state, 0, {"type": "select_action", "action": "locomotive"}).code == "action_taken"
    assert {"type": "select_action", "action": "locomotive"} not in DECIDER.legal_moves(state, 0)
    assert len(DECIDER.legal_moves(state, 0)) == 6
    state, _ = play(state, 0, {"type": "select_action", "action": "first_build"})
    state, events = play(state, 2, {"type": "select_action", "action": "engineer"})
    # First Build builds first; the Engineer builds four tiles.
    assert state.phase == BUILD and state.queue == (0, 1, 2)
    assert kinds(events)[-1] == "BuildTurnBegan" and events[-1].data["limit"] == 3
    assert refused(table(phase=ACTIONS), 0, {"type": "select_action", "action": "nap"}, MalformedMove).code == "unknown_action"


def test_the_locomotive_action_at_six_changes_nothing() -> None:
    state = table(phase=ACTIONS, locomotive=[6, 1, 1])
    state, events = play(state, 0, {"type": "select_action", "action": "locomotive"})
    assert kinds(events) == ["ActionSelected"] and state.seats[0].locomotive == 6


def test_a_player_without_cash_can_only_drop() -> None:
    state = table(phase=AUCTION, cash=[0, 5, 5])
    assert DECIDER.legal_moves(state, 0) == [{"type": "drop"}]
    with pytest.raises(IllegalMove):
        DECIDER.decide(state, 0, {"type": "bid", "amount": 1}, None)  # type: ignore[arg-type]
