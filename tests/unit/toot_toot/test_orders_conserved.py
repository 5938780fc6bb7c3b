"""Every order card is always in exactly one place: the deck, the discards, the public row, a
hand, or kept as influence once supplied."""

from __future__ import annotations

from collections import Counter

from domain.core.state import replace, replace_seat
from domain.toot_toot.state import State
from tests.unit.toot_toot.helpers import CONTENT, RULES, table

# Seat 0 stands at the red city's north-west opening (7,3 across edge 4 of 8,4) with 2 iron:
# R1 (iron) is public, R7 (iron, paper) in its hand. The deck is empty and G1, G2 are the
# discards; every other card is kept by seat 1, so each card is somewhere.
SOLD = ("R1", "R7", "Y1", "Y2", "G1", "G2")
EMPTY_DECK = table(trains=[("7,3", 0), ("1,1", 0)], goods=[{"iron": 2}, {}], public=["R1", "Y1", "Y2"],
                   hands=[["R7"], []], kept=[[], [o.id for o in CONTENT.orders if o.id not in SOLD]],
                   discard=["G1", "G2"], deck=[], step="location")
SALE = {"type": "sell", "city": "red_city", "fills": {"R1": {"iron": 1}, "R7": {"iron": 1}}}


def places(state: State) -> Counter[str]:
    return Counter([*state.deck, *state.discard, *state.public,
                    *(o for seat in state.seats for o in (*seat.hand, *seat.kept))])


def test_the_invariant_catches_a_lost_or_doubled_card_even_with_the_deck_and_row_empty() -> None:
    # Every card kept or discarded, none in the deck or the row: still every card counted.
    bare = replace(EMPTY_DECK, public=(), discard=("G1", "G2", "Y1", "Y2", "R1"))
    assert RULES.invariants(bare) == []
    lost = replace(bare, discard=("G1", "G2", "Y1", "Y2"))
    assert RULES.invariants(lost) == ["order cards not conserved: twice [], missing ['R1']"]
    doubled = replace_seat(bare, 0, hand=("R7", "G1"))
    assert RULES.invariants(doubled) == ["order cards not conserved: twice ['G1'], missing []"]
