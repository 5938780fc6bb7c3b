"""Toot-Toot Train at a table: the map picked and every order card drawn are asked for in the
game's words (a seat's own secret order sealed to it), cards leave the deck by name, a
reshuffle of the discards still works; the opening as laid out; seeded games unchanged."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from domain.core.decider import Setup
from domain.core.errors import RuleError
from domain.core.randomness import SeededRandom
from domain.core.table import DRAW, PICK, ImpossibleOutcome, OutcomeNeeded, TableRandom
from domain.toot_toot.decide import setup_events
from domain.toot_toot.orders import PUBLIC_DRAW, SECRET_DRAW
from domain.toot_toot.setup import MAP_PICK
from domain.toot_toot.state import State
from domain.toot_toot.table import observed_of
from tests.playouts import fold, play_out
from tests.unit.toot_toot.helpers import CONTENT, RULES, RULES_1, RULES_2, kinds, play, table

SEEDED = "d7e1be8290a5f0150d8bd9a4eb5e8062c0b5d417699259763c6243473c60bfb2"
"""The digest of three seeded playouts' events as the rules gave them before table play came
in (ruleset 1): a seeded game under ruleset 1 must record exactly the same events."""
SEEDED_2 = "39ddb034b1be0e22fb5f525c06045e888818ce6cdb363b8e1bd79a2c06a803d8"
"""The same three playouts under ruleset 2, where each ends with seats choosing which hand
orders to supply (R33); everything before the last turn's end is ruleset 1's. Ruleset 3
records the same: none of the three has a sale whose refill reshuffles the discards (R35)."""


def _seeded_games(rules: Any) -> tuple[str, list[list[Any]]]:
    digest, games = hashlib.sha256(), []
    for seats in (2, 3, 4):
        game = play_out(rules, "seeded records", 0, seats, check=False, steer=True)
        events = [*game.opening, *(e for _, _, events in game.commands for e in events)]
        for event in events:
            digest.update(repr((event.kind, event.data, [(s.to, s.value) for s in event.secrets])).encode())
        games.append(events)
    return digest.hexdigest(), games


def test_seeded_games_record_the_same_events_as_before() -> None:
    assert _seeded_games(RULES_1)[0] == SEEDED


def test_seeded_games_under_ruleset_2_differ_from_ruleset_1_only_in_final_scoring() -> None:
    digest, games = _seeded_games(RULES_2)
    _, before = _seeded_games(RULES_1)
    assert digest == SEEDED_2
    for now, then in zip(games, before, strict=True):
        last = max(i for i, e in enumerate(then) if e.kind == "TurnEnded")
        assert now[:last + 1] == then[:last + 1]
        assert now[last + 1].kind == "FinalScoringBegan" and any(e.kind == "HandOrdersSupplied" for e in now)


def test_seeded_games_under_ruleset_3_record_what_ruleset_2_did() -> None:
    digest, games = _seeded_games(RULES)
    assert RULES.ruleset_version == "3" and digest == SEEDED_2
    assert not any(e.kind == "OrdersShuffled" and e.data["reshuffle"] for events in games for e in events)


def _seeded(players: int = 3, options: dict[str, Any] | None = None, seed: int = 5) -> tuple[State, list[Any]]:
    setup = Setup(tuple(f"p{i}" for i in range(players)), RULES.options(options or {}, players))
    state = RULES.initial_state(setup)
    return state, RULES.setup(state, SeededRandom(bytes([seed]) * 32))


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {"map": "harbour"}), (4, {})])
def test_the_opening_as_laid_out_gives_the_same_table_as_the_seeded_one(players: int, options: dict[str, Any]) -> None:
    state, events = _seeded(players, options)
    at_table = fold(RULES, state, RULES.table_setup(state, observed_of(events)))
    seeded = fold(RULES, state, events)
    assert at_table.map == seeded.map and at_table.public == seeded.public and at_table.phase == seeded.phase
    assert [s.hand for s in at_table.seats] == [s.hand for s in seeded.seats]
    assert sorted(at_table.deck) == sorted(seeded.deck)
    assert RULES.invariants(at_table) == []


def test_the_map_is_picked_at_the_table_from_the_packs_maps() -> None:
    state, _ = _seeded()
    with pytest.raises(OutcomeNeeded) as needed:
        setup_events(CONTENT, state, TableRandom())
    request = needed.value.request
    assert request.kind == PICK and request.what == MAP_PICK
    assert set(request.labels) == {m.id for m in CONTENT.maps}


def test_each_seats_secret_order_is_its_own_draw() -> None:
    state, _ = _seeded()
    with pytest.raises(OutcomeNeeded) as needed:
        setup_events(CONTENT, state, TableRandom(["forest", ["Y1"]]))
    request = needed.value.request
    assert request.kind == DRAW and request.what == SECRET_DRAW and request.by == 1
    assert "Y1" not in request.labels  # already dealt to seat 0


def _observed(**changes: Any) -> tuple[State, dict[str, Any]]:
    state, events = _seeded()
    observed = {**observed_of(events), **changes}
    return state, {k: v for k, v in observed.items() if v is not None}


@pytest.mark.parametrize(("change", "words"), [
    ({"map": "moon"}, "the map, picked at random: moon is not there to take; there are 1 forest, 1 harbour, 1 ridge"),
    ({"map": None}, "`map` names the map picked"),
    ({"secret_orders": ["Y1", "Y1", "G2"]}, "Y1 cannot be drawn"),
    ({"secret_orders": ["Y1", "G2"]}, "names 2 order card(s); setup draws 3"),
    ({"public_orders": ["Y1", "G2", "Q9", "B1"]}, "Q9 cannot be drawn"),
    ({"hands": []}, "unknown part(s) hands"),
])
def test_an_impossible_or_incomplete_opening_is_refused_in_the_games_words(change: dict[str, Any], words: str) -> None:
    state, observed = _observed(**change)
    with pytest.raises(RuleError) as refused:
        RULES.table_setup(state, observed)
    assert words in refused.value.message, refused.value.message


def test_a_public_order_already_in_a_hand_is_refused_saying_what_the_deck_holds() -> None:
    state, observed = _observed()
    held = observed["secret_orders"][0]
    with pytest.raises(ImpossibleOutcome, match=f"observed setup: {PUBLIC_DRAW}: {held} cannot be drawn; there are "):
        RULES.table_setup(state, {**observed, "public_orders": [held, *observed["public_orders"][1:]]})


def test_a_map_the_option_rules_out_is_refused() -> None:
    state, observed = _seeded(options={"map": "harbour"})
    with pytest.raises(RuleError, match="the game's `map` option is harbour"):
        RULES.table_setup(state, {**observed_of(observed), "map": "forest"})


def test_a_drawn_card_leaves_the_deck_by_name_and_the_discards_are_reshuffled_when_it_is_empty() -> None:
    position = table(2, tokens=[1, 0], deck=(), discard=("Y1", "G2", "R3"),
                     public=("Y2", "G1", "B1"), hands=[("Y3",), ("G3",)])
    after, events = play(position, 0, {"type": "upgrade", "ability": "order"}, TableRandom([["G2"]]))
    assert kinds(events) == ["Upgraded", "OrdersShuffled", "SecretOrderDealt"]
    assert events[1].data["reshuffle"] is True
    assert after.seats[0].hand == ("Y3", "G2") and sorted(after.deck) == ["R3", "Y1"] and after.discard == ()


def test_the_order_ability_asks_its_own_seat_for_the_card() -> None:
    position = table(2, tokens=[0, 1], current=1, public=("Y2", "G1", "B1"), hands=[("Y3",), ("G3",)])
    with pytest.raises(OutcomeNeeded) as needed:
        play(position, 1, {"type": "upgrade", "ability": "order"}, TableRandom())
    assert needed.value.request.by == 1 and needed.value.request.what == SECRET_DRAW
    with pytest.raises(ImpossibleOutcome, match="Y3 cannot be drawn"):
        play(position, 1, {"type": "upgrade", "ability": "order"}, TableRandom([["Y3"]]))
