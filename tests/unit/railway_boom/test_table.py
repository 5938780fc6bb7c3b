"""Railway Boom at a table: every card and tile turned up is asked for in the game's words
(`rng.draw`) and leaves its deck by name; the opening as laid out; seeded games unchanged."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from domain.core.decider import Setup
from domain.core.errors import MalformedMove, RuleError
from domain.core.randomness import SeededRandom
from domain.core.table import DRAW, ImpossibleOutcome, OutcomeNeeded, TableRandom
from domain.railway_boom import development, expansion, trains
from domain.railway_boom.evolve import evolve
from domain.railway_boom.state import State
from domain.railway_boom.steps import Steps
from domain.railway_boom.table import observed_of
from tests.playouts import play_out
from tests.unit.railway_boom.helpers import CONTENT, RULES

SEEDED = "3c56113d9527326cd84a6d22989e4ed6d14b3d3cf1ae3f7f6e66fd8331477d0d"
"""The digest of three seeded playouts' events as the rules gave them before table play came
in (ruleset 1): a seeded game must record exactly the same events."""


def test_seeded_games_record_the_same_events_as_before() -> None:
    digest = hashlib.sha256()
    for seats in (2, 3, 4):
        game = play_out(RULES, "seeded records", 0, seats, check=False, steer=True)
        for event in [*game.opening, *(e for _, _, events in game.commands for e in events)]:
            digest.update(repr((event.kind, event.data, [(s.to, s.value) for s in event.secrets])).encode())
    assert digest.hexdigest() == SEEDED


def _seeded(players: int = 3, first_game: bool = False, seed: int = 5) -> tuple[State, list[Any]]:
    setup = Setup(tuple(f"p{i}" for i in range(players)), RULES.options({"first_game": first_game}, players))
    state = RULES.initial_state(setup)
    return state, RULES.setup(state, SeededRandom(bytes([seed]) * 32))


def _fold(state: State, events: list[Any]) -> State:
    for event in events:
        state = RULES.evolve(state, event)
    return state


@pytest.mark.parametrize(("players", "first_game"), [(2, False), (3, True), (4, False)])
def test_the_opening_as_laid_out_gives_the_same_table_as_the_seeded_one(players: int, first_game: bool) -> None:
    state, events = _seeded(players, first_game)
    observed = observed_of(events)
    at_table = _fold(state, RULES.table_setup(state, observed))
    seeded = _fold(state, events)
    for part in ("goals", "routes", "city_tiles", "order", "offer", "spaces", "phase", "step"):
        assert getattr(at_table, part) == getattr(seeded, part), part
    # The decks hold the same cards; only their order is unknown at a table.
    assert {k: sorted(v) for k, v in at_table.decks.items()} == {k: sorted(v) for k, v in seeded.decks.items()}
    assert sorted(at_table.boxed) == sorted(seeded.boxed)
    assert RULES.invariants(at_table) == []


def _observed(**changes: Any) -> tuple[State, dict[str, Any]]:
    state, events = _seeded()
    observed = observed_of(events)
    observed.update(changes)
    return state, {k: v for k, v in observed.items() if v is not None}


def _refused(state: State, observed: dict[str, Any]) -> RuleError:
    with pytest.raises(RuleError) as refused:
        RULES.table_setup(state, observed)
    return refused.value


def test_an_opening_naming_a_goal_twice_is_refused_naming_the_goal_cards() -> None:
    state, observed = _observed()
    goals = observed["goals"]
    error = _refused(state, {**observed, "goals": [goals[0], *goals[:3]]})
    assert isinstance(error, ImpossibleOutcome)
    assert error.message.startswith("observed setup: goal cards revealed beside the board:")
    assert f"{goals[0]}" in error.message


@pytest.mark.parametrize(("change", "words"), [
    ({"routes": ["R1", "R2", "R3"]}, "4 items were drawn"),
    ({"goals": ["G01", "G02", "G03", "R1"]}, "R1 cannot be drawn"),
    ({"starting_stations": ["ST69", "ST97"]}, "one per seat"),
    ({"locomotives": ["C01", "L02", "L03"]}, "C01 cannot be drawn"),
    ({"cars": None}, "`cars` is a list of card names"),
    ({"colour": "red"}, "unknown part(s) colour"),
    ({"city_tiles": {"A10": "N04"}}, "no tile given for the normal city space"),
    ({"city_tiles": {"A1": "N04"}}, "A1 is not a city space"),
])
def test_an_impossible_or_incomplete_opening_is_refused_in_the_games_words(change: dict[str, Any], words: str) -> None:
    state, observed = _observed(**change)
    error = _refused(state, observed)
    assert words in error.message, error.message


def test_a_tourist_tile_on_a_normal_space_is_refused() -> None:
    state, observed = _observed()
    tourist = next(t.id for t in CONTENT.city_tiles.values() if t.kind == "tourist")
    normal_space = next(h.id for h in CONTENT.hexes.values() if h.city == "normal")
    tiles = dict(observed["city_tiles"])
    # Swap a tourist tile onto a normal space: neither kind's pile then matches its spaces.
    tourist_space = next(s for s, t in tiles.items() if t == tourist) if tourist in tiles.values() else None
    tiles[normal_space], displaced = tourist, tiles[normal_space]
    if tourist_space is not None:
        tiles[tourist_space] = displaced
    error = _refused(state, {**observed, "city_tiles": tiles})
    assert f"{tourist} cannot be drawn" in error.message and "normal city tiles" in error.message


def test_a_first_game_takes_no_tiles_from_the_table() -> None:
    state, events = _seeded(first_game=True)
    observed = observed_of(events)
    assert "city_tiles" not in observed
    error = _refused(state, {**observed, "city_tiles": {"A10": "N01"}})
    assert isinstance(error, MalformedMove) and "first game" in error.message


def test_a_card_turned_up_at_a_table_leaves_its_deck_by_name_wherever_it_lay() -> None:
    state, events = _seeded()
    state = _fold(state, events)
    deck = state.decks["station"]
    wanted = [deck[-1], deck[5], deck[0]]  # the bottom card, one in the middle, the top
    steps = Steps(CONTENT, state, evolve, TableRandom([wanted]))
    assert steps.draw("station", 3, expansion.STATIONS) == tuple(wanted)
    steps.emit(expansion.StationCardsRevealed(cards=tuple(wanted)))
    left = steps.state.decks["station"]
    assert len(left) == len(deck) - 3 and not set(wanted) & set(left)


def test_a_table_asks_for_each_draw_in_the_games_words() -> None:
    state, events = _seeded()
    state = _fold(state, events)
    with pytest.raises(OutcomeNeeded) as needed:
        Steps(CONTENT, state, evolve, TableRandom()).draw("development", 9, development.ROWS)
    request = needed.value.request
    assert request.kind == DRAW and request.count == 9 and request.by is None
    assert request.what == "development: cards dealt into rows of 3, in the order turned up"
    assert set(request.labels) == set(state.decks["development"])


def test_a_card_already_drawn_is_refused_saying_what_the_deck_holds() -> None:
    state, events = _seeded()
    state = _fold(state, events)
    offered = state.offer[0]  # a locomotive turned up for round 1
    with pytest.raises(ImpossibleOutcome, match=f"{offered} cannot be drawn; there are "):
        Steps(CONTENT, state, evolve, TableRandom([[offered]])).draw("locomotive", 1, trains.LOCOMOTIVES)
