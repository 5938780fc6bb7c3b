"""Every order card is always in exactly one place: the deck, the discards, the public row, a
hand, or kept as influence once supplied. A sale that discards a hand order and then has to
reshuffle the discards for its refill shuffles that order in too (R15, R35); ruleset 2 lost
it, and its games replay as recorded."""

from __future__ import annotations

from collections import Counter

from domain.core.randomness import SeededRandom
from domain.core.state import replace, replace_seat
from domain.toot_toot.state import State
from tests.playouts import fold
from tests.unit.toot_toot.helpers import CONTENT, RULES, RULES_2, SEED, kinds, play, table

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


def test_a_sale_that_discards_a_hand_order_and_reshuffles_keeps_the_discarded_order() -> None:
    assert RULES.invariants(EMPTY_DECK) == []
    after, events = play(EMPTY_DECK, 0, SALE)
    assert kinds(events)[-4:] == ["OrderDiscarded", "TokensGained", "OrdersShuffled", "PublicOrderRevealed"]
    [shuffled] = [e for e in events if e.kind == "OrdersShuffled"]
    # R7, discarded by this sale, is shuffled in with G1 and G2 (R35).
    assert shuffled.data["cards"] == 3 and sorted(shuffled.secret()["random"]["shuffle"]) == ["G1", "G2", "R7"]
    assert places(after) == Counter(o.id for o in CONTENT.orders)
    assert after.discard == () and len(after.deck) == 2 and len(after.public) == 3
    assert RULES.invariants(after) == []


def test_ruleset_2_lost_the_discarded_order_and_the_invariant_says_so() -> None:
    decided = RULES_2.decide(EMPTY_DECK, 0, SALE, SeededRandom(SEED))
    [shuffled] = [e for e in decided if e.kind == "OrdersShuffled"]
    assert shuffled.data["cards"] == 2 and "R7" not in shuffled.secret()["random"]["shuffle"]
    after = fold(RULES_2, EMPTY_DECK, decided)
    assert "R7" not in places(after)
    assert RULES_2.invariants(after) == ["order cards not conserved: twice [], missing ['R7']"]


def test_the_invariant_catches_a_lost_or_doubled_card_even_with_the_deck_and_row_empty() -> None:
    # Every card kept or discarded, none in the deck or the row: still every card counted.
    bare = replace(EMPTY_DECK, public=(), discard=("G1", "G2", "Y1", "Y2", "R1"))
    assert RULES.invariants(bare) == []
    lost = replace(bare, discard=("G1", "G2", "Y1", "Y2"))
    assert RULES.invariants(lost) == ["order cards not conserved: twice [], missing ['R1']"]
    doubled = replace_seat(bare, 0, hand=("R7", "G1"))
    assert RULES.invariants(doubled) == ["order cards not conserved: twice ['G1'], missing []"]
