"""Who bids next is decided with the move and recorded in its event; records of ruleset 1,
which did not record it, still replay and re-adjudicate to what they hold."""

from __future__ import annotations

from domain import games
from domain.age_of_steam.auction import AuctionDropped, BidPlaced, TurnOrderPassUsed
from domain.age_of_steam.ruleset1 import AgeOfSteamRuleset1
from domain.age_of_steam.state import AUCTION, State
from domain.core.randomness import SeededRandom
from tests.rust_belt import DECIDER

from .helpers import SEED, fold, play, table

RULESET_1 = games.ruleset("age_of_steam", "1", None, {"map": "rust_belt"})
BIDDING = [(0, {"type": "bid", "amount": 1}), (1, {"type": "turn_order_pass"}), (2, {"type": "drop"}),
           (3, {"type": "bid", "amount": 2}), (0, {"type": "drop"}), (1, {"type": "drop"})]
"""Four seats: 0 bids, 1 passes with the Turn Order pass, 2 drops, 3 outbids 0, 0 and 1 drop."""


def _auction() -> State:
    return table(4, phase=AUCTION, order=[0, 1, 2, 3], cash=[20] * 4, turn_order_pass=1, pass_holder=1)


def test_each_bidders_move_names_who_bids_next() -> None:
    state = _auction()
    named = []
    for seat, move in BIDDING:
        state, events = play(state, seat, move)
        made = events[0]
        assert isinstance(made, (BidPlaced, AuctionDropped, TurnOrderPassUsed)) and made.seat == seat
        named.append(made.data.get("next_bidder"))
        assert state.auction is None or made.next_bidder == state.auction.current
    # The high bidder is skipped; the last drop leaves one bidder and names nobody.
    assert named == [1, 2, 3, 0, 1, None]
    assert state.auction is None and state.order[0] == 3


def test_evolve_takes_the_next_bidder_from_the_record() -> None:
    state = _auction()
    recorded = BidPlaced(seat=0, amount=1, next_bidder=3)  # not the seat the rule would pick (1)
    after = DECIDER.evolve(state, recorded)
    assert after.auction is not None and after.auction.current == 3


def test_ruleset_1_records_no_next_bidder_and_folds_to_the_same_state() -> None:
    assert isinstance(RULESET_1, AgeOfSteamRuleset1) and RULESET_1.ruleset_version == "1"
    assert DECIDER.ruleset_version == "2"
    new = old = _auction()
    for seat, move in BIDDING:
        new_events = DECIDER.decide(new, seat, move, SeededRandom(SEED))
        old_events = RULESET_1.decide(old, seat, move, SeededRandom(SEED))
        assert "next_bidder" not in old_events[0].data
        assert [e.data for e in old_events] == [{k: v for k, v in e.data.items() if k != "next_bidder"} for e in new_events]
        new = fold(new, new_events)
        for event in old_events:
            old = RULESET_1.evolve(old, event)
        assert old == new
