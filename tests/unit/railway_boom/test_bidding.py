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


def test_a_question_mark_bid_may_be_paid_in_every_mix_the_seat_can_afford() -> None:
    seat = replace(opening().seats[0], resources={"money": 2, "materials": 0, "technology": 1, "coal": 3})
    found = list(bidding.mixes(seat, 3))
    # Every (money, technology, coal) split of 3 with money <= 2 and technology <= 1, no materials.
    expected = [{"money": m, "technology": t, "coal": 3 - m - t} for m in range(3) for t in range(2) if m + t <= 3]
    assert sorted(map(sorted_items, found)) == sorted(map(sorted_items, [{k: v for k, v in e.items() if v} for e in expected]))
    assert len(found) == len({tuple(sorted(m.items())) for m in found})
    assert all(sum(m.values()) == 3 and all(v <= seat.resources[k] for k, v in m.items()) for m in found)


def test_a_question_mark_payment_is_forced_only_when_one_mix_is_left() -> None:
    one_kind = replace(opening().seats[0], resources={"money": 9, "materials": 0, "technology": 0, "coal": 0})
    assert bidding.forced_mix(one_kind, 4) == {"money": 4}
    everything = replace(opening().seats[0], resources={"money": 2, "materials": 1, "technology": 0, "coal": 1})
    assert bidding.forced_mix(everything, 4) == {"money": 2, "materials": 1, "coal": 1}
    assert bidding.forced_mix(everything, 0) == {}
    assert bidding.forced_mix(everything, 3) is None


def sorted_items(mix: dict[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(mix.items()))
