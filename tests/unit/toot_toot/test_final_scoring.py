"""Final scoring's choice of hand orders (R22, R33): every subset is offered, a seat is asked
exactly when it has more than one, every bot level plays the choice and the strongest finds
the best one; the counters stop at the last round and the state and its public view carry
the totals and the winners."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.core.bots import bot_of
from domain.core.events import Audience
from domain.core.leaks import leaks
from domain.core.randomness import SeededRandom
from domain.toot_toot import final_scoring
from domain.toot_toot.state import SCORING
from tests.conformance.toot_toot.cases import ISSUE, LAST_TURN
from tests.playouts import fold
from tests.unit.toot_toot.helpers import CONTENT, RULES, RULES_1, SEED, play, table


def supply(fills: dict[str, dict[str, int]]) -> dict[str, Any]:
    return {"type": "supply_hand_orders", "fills": fills}


def test_every_subset_of_the_hand_order_icons_the_goods_allow_is_offered_once() -> None:
    # B6 wants coal and tools, B1 coal; 1 coal and 1 tools held.
    state = table(2, **{**ISSUE, "goods": [{"coal": 1, "tools": 1}, {}]})
    offered = [m["fills"] for m in RULES.legal_moves(state, 0)]
    assert offered[0] == {}
    expected = [{}, {"B1": {"coal": 1}}, {"B6": {"coal": 1}}, {"B6": {"tools": 1}}, {"B6": {"coal": 1, "tools": 1}},
                {"B6": {"tools": 1}, "B1": {"coal": 1}}]
    assert sorted(map(repr, offered)) == sorted(map(repr, expected))
    assert RULES.legal_moves(state, 1) == []


def test_a_seat_is_asked_exactly_when_it_has_more_than_one_choice() -> None:
    """The automatic path (nothing recorded for a seat's hand) is taken only where the empty
    supply is the seat's one choice; a seat able to supply anything is asked, even when its
    goods would complete every hand order, since R22 lets it supply less."""
    chooser = random.Random(36)
    orders = [o.id for o in CONTENT.orders]
    goods = [g.id for g in CONTENT.goods]
    asked_with_one_choice_only = 0
    for _ in range(300):
        hands = [chooser.sample(orders[i * 9:i * 9 + 9], chooser.randint(0, 3)) for i in range(3)]
        held = [{g: chooser.randint(0, 2) for g in chooser.sample(goods, 2)} for _ in range(3)]
        state = table(3, hands=hands, goods=held)
        asked = final_scoring.choosing(CONTENT, state)
        counts = [len(final_scoring.choices(CONTENT, state, seat)) for seat in range(3)]
        assert asked == tuple(seat for seat in range(3) if counts[seat] > 1), (hands, held)
        assert all(final_scoring.choices(CONTENT, state, seat) == [{}] for seat in range(3) if seat not in asked)
        # A seat whose goods fill every icon of its hand: still asked.
        asked_with_one_choice_only += any(
            seat in asked and final_scoring.choices(CONTENT, state, seat)[-1] == {o: _icons(o) for o in state.seats[seat].hand}
            for seat in range(3))
    assert asked_with_one_choice_only > 0


def _icons(order_id: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for good in CONTENT.order[order_id].icons:
        out[good] = out.get(good, 0) + 1
    return out


def test_the_choice_decides_the_winner_of_the_issues_example() -> None:
    state = table(2, **ISSUE)
    for fills, totals, winners in [({"B1": {"coal": 1}}, {0: 23, 1: 22}, (0,)), ({"B6": {"coal": 1}}, {0: 21, 1: 22}, (1,)),
                                   ({}, {0: 20, 1: 22}, (1,))]:
        after, _ = play(state, 0, supply(fills))
        assert (after.totals, after.winners) == (totals, winners)
        assert RULES.scores(after) == totals


@pytest.mark.parametrize("level", ["random", "playout", "greedy"])
def test_every_bot_level_plays_the_choice(level: str) -> None:
    state = table(2, **ISSUE)
    moves = RULES.legal_moves(state, 0)
    move = bot_of(RULES, level).choose(state, 0, moves, random.Random(1))
    assert move in moves
    if level != "random":
        assert move == supply({"B1": {"coal": 1}})  # completes B1 and wins (23 to 22)


def test_the_strongest_bot_finds_the_choice_that_hurts_the_leading_rival_most() -> None:
    """Seat 0 holds 1 coal, B1 (blue, dealt first) and G3 (green), both wanting coal, and has G2;
    seat 1 has B2 and G4. Either order completed gives seat 0 15 points (10 + 1 + 2 + 2 or
    10 + 1 + 4), but G3 puts seat 0 ahead in green, so seat 1 scores 1 there, not 2 (13, not
    14): the greedy bot supplies G3."""
    state = table(2, **{**ISSUE, "hands": [["B1", "G3"], []], "kept": [["G2"], ["B2", "G4"]], "score": [10, 10]})
    move = RULES.bots["greedy"].choose(state, 0, RULES.legal_moves(state, 0), random.Random(0))
    assert move == supply({"G3": {"coal": 1}})
    assert play(state, 0, move)[0].totals == {0: 15, 1: 13}
    assert play(state, 0, supply({"B1": {"coal": 1}}))[0].totals == {0: 15, 1: 14}


def test_the_bot_judges_by_what_its_seat_can_see() -> None:
    """Another seat's hand orders are secret (R29): the choice is the same whatever they are."""
    def position(hand: str) -> Any:
        return table(3, **{**ISSUE, "trains": [("1,3", 0), ("8,2", 0), ("0,0", 0)], "choosing": (0, 2),
                           "hands": [["B6", "B1"], [], [hand]], "goods": [{"coal": 1}, {}, {"iron": 1, "wood": 1}],
                           "kept": [[], ["B2"], []], "score": [20, 20, 20]})
    greedy = RULES.bots["greedy"]
    chosen = [greedy.choose(state, 0, RULES.legal_moves(state, 0), random.Random(0))
              for state in (position("B4"), position("Y1"))]
    assert chosen == [supply({"B1": {"coal": 1}})] * 2


def test_after_the_last_turn_the_round_and_turn_counters_stay_where_they_were() -> None:
    state = table(2, **{**LAST_TURN, "hands": [[], []]})
    assert state.round == 7 and [s.turns for s in state.seats] == [7, 7]
    for rules in (RULES, RULES_1):
        after = fold(rules, state, rules.decide(state, 1, {"type": "end_turn"}, SeededRandom(SEED)))
        assert rules.is_over(after)
        assert after.round == 7 and [s.turns for s in after.seats] == [7, 7] and after.current == 1


def test_the_state_and_every_view_carry_the_totals_and_winners_once_over() -> None:
    state = table(2, **ISSUE)
    before = RULES.view(state, Audience())
    assert "totals" not in before and "winners" not in before and state.phase == SCORING
    after, _ = play(state, 0, supply({"B1": {"coal": 1}}))
    public = RULES.view(after, Audience())
    assert public["totals"] == {"0": 23, "1": 22} and public["winners"] == [0]
    views = {seat: RULES.view(after, Audience(seat=seat)) for seat in range(2)}
    assert all(v["totals"] == public["totals"] and v["winners"] == public["winners"] for v in views.values())
    assert leaks(public, views) == []
