"""The bid track module on its own: reach with conversions, ranks, shares and "?" payments."""

from __future__ import annotations

from domain.core.state import replace
from domain.railway_boom import bidding
from tests.unit.railway_boom.helpers import CONTENT, opening, table


def test_reach_counts_what_converting_2_to_1_could_add() -> None:
    seat = opening().seats[0]
    assert bidding.reachable(seat, "materials") == 8 + 4 + 4 + 4
    assert bidding.reachable(seat, "any") == 32
    assert bidding.conversion_for(seat, "materials", 8) == {}
    assert bidding.conversion_for(seat, "materials", 11) == {"coal": 3}
    assert bidding.conversion_for(seat, "materials", 21) is None


def test_spaces_skip_taken_ones_and_stop_at_the_track_end() -> None:
    state = table(bids={0: 3, 1: 5})
    assert bidding.to_bid(state) == 2
    spaces = bidding.spaces(CONTENT, state, 2)
    assert 3 not in spaces and 5 not in spaces and spaces[0] == 1 and spaces[-1] == 20
    rich = replace(state, seats=tuple(replace(s, resources={"money": 40, "materials": 40, "technology": 0, "coal": 0})
                                      for s in state.seats))
    assert bidding.spaces(CONTENT, rich, 2)[-1] == CONTENT.bid_track_max


def test_ranks_run_from_the_right_most_disc_and_whites_keep_their_order() -> None:
    state = table(order=[2, 0, 1], bids={1: 4})
    assert bidding.ranks(state) == (1, 0, 2)
    assert [bidding.share(CONTENT, 4, r) for r in (1, 2, 3, 4)] == ["full", "full", "half", "none"]
    assert [bidding.amount(p, 7) for p in ("full", "half", "none")] == [7, 4, 0]


def test_a_question_mark_bid_is_paid_from_the_largest_stocks_first() -> None:
    seat = replace(opening().seats[0], resources={"money": 5, "materials": 1, "technology": 3, "coal": 3})
    assert bidding.any_mix(seat, 5) == {"money": 3, "technology": 1, "coal": 1}
