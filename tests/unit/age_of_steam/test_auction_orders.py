"""Auction payments for every drop order with 3 to 6 players: the first to drop pays
nothing, the last to drop pays in full, everyone between pays half rounded up, the winner pays
in full; the new order is the winner, then the droppers from last to first."""

from __future__ import annotations

from itertools import permutations

import pytest

from domain.age_of_steam.state import AUCTION

from .helpers import of_kind, play, table


def run(seats: int, drops: tuple[int, ...]) -> dict[str, object]:
    """Everyone bids once (seat s bids 2s+3, so halves round up for odd bids), then the seats
    drop in `drops`'s order; each drop happens on the dropper's turn, bidding up otherwise."""
    state = table(seats, phase=AUCTION, cash=[60] * seats)
    for seat in range(seats):
        state, _ = play(state, seat, {"type": "bid", "amount": 2 * seat + 3})
    pending = list(drops)
    for _ in range(400):
        auction = state.auction
        if auction is None:
            break
        seat = auction.current
        assert seat is not None
        if seat == pending[0]:
            pending.pop(0)
            state, events = play(state, seat, {"type": "drop"})
            if of_kind(events, "AuctionSettled"):
                return of_kind(events, "AuctionSettled")[0].data
        else:
            state, _ = play(state, seat, {"type": "bid", "amount": auction.high + 1})
    raise AssertionError("the auction did not settle")


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_every_drop_order(seats: int) -> None:
    for order in permutations(range(seats)):
        drops = order[:-1]
        settled = run(seats, drops)
        winner = order[-1]
        bids = {int(k): v for k, v in settled["bids"].items()}  # type: ignore[attr-defined]
        expected = {str(s): (bids[s] + 1) // 2 for s in drops}
        expected[str(drops[0])] = 0
        expected[str(drops[-1])] = bids[drops[-1]]
        expected[str(winner)] = bids[winner]
        assert settled["payments"] == expected, order
        assert settled["order"] == [winner, *reversed(drops)]
        assert settled["drop_order"] == list(drops)
