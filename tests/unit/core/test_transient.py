"""The transient fold (`domain.core.state.transient`): a replay changes the states it made
itself in place instead of copying them per event, and yet every state it hands out is
immutable, and every game replays to the very same bytes as the copying fold."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from domain.core import fold
from domain.core.codec import encode
from domain.core.envelope import to_event
from domain.core.state import FrozenDict, replace, replace_seat, transient
from service.aggregate import project_game
from service.application import Caboose
from service.settings import Settings
from service.simulation import game_seed, play_one
from tests import playouts
from tests.conformance import contract

GAMES = sorted(name for name in contract.deciders() if name != "race")


def text(state: Any) -> str:
    return json.dumps(encode(state), sort_keys=True)


def persistent(records: list[dict[str, Any]]) -> list[str]:
    """The state after every version, by the copying fold (`History` keeps them all)."""
    history = fold.History(records[0])
    out = [text(history.state)]
    for record in records[1:]:
        out.append(text(history.add(record)))
    return out


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("index", [0, 1])
def test_every_game_replays_byte_identically_through_the_transient(name: str, index: int) -> None:
    decider = contract.deciders()[name]
    walk = contract.walk(name, decider.max_seats if index else decider.min_seats, index)
    records = playouts.record_of(walk.decider, walk.game)
    expected = persistent(records)
    assert expected[-1] == text(walk.game.state)
    last = len(records)
    for upto in sorted({2, last // 3, last // 2, last - 1, last}):
        replayed = fold.replay(records, upto=upto)
        assert replayed.version == upto
        assert text(replayed.state) == expected[upto - 1], f"{name}: differs at version {upto}"


def test_a_state_handed_out_cannot_be_changed_and_a_later_fold_leaves_it_as_it_was() -> None:
    walk = contract.walk("ticket_to_ride", 3, 0)
    records = playouts.record_of(walk.decider, walk.game)
    half = fold.replay(records, upto=len(records) // 2)
    before = text(half.state)
    with pytest.raises(dataclasses.FrozenInstanceError):
        half.state.deck = ()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        half.state.seats[0].score = 99  # type: ignore[misc]
    with pytest.raises(TypeError, match="cannot be changed in place"):
        half.state.claims["x"] = 1
    with pytest.raises(TypeError, match="cannot be changed in place"):
        half.state.seats[0].hand["red"] = 99
    # Folding on from the handed-out state, in a transient of its own: the fold did not make
    # that state, so it copies it (and its seats) rather than change them.
    state, seats = half.state, half.state.seats
    with transient():
        for record in records[len(records) // 2:]:
            state = fold.step(half.decider, state, to_event(record, half.decider.catalogue))
    assert state is not half.state and text(half.state) == before and half.state.seats is seats
    assert text(state) == text(fold.replay(records).state)


def test_states_kept_by_a_history_are_untouched_by_a_transient_fold_from_them() -> None:
    walk = contract.walk("age_of_steam", 3, 1)
    records = playouts.record_of(walk.decider, walk.game)
    history = fold.History(records[0])
    for record in records[1:len(records) // 2]:
        history.add(record)
    kept = [text(history.at(version)) for version in range(1, history.version + 1)]
    state = history.state
    with transient():
        for record in records[len(records) // 2:]:
            state = fold.step(history.decider, state, to_event(record, history.decider.catalogue))
    assert [text(history.at(version)) for version in range(1, history.version + 1)] == kept


def test_inside_a_transient_a_state_it_made_is_changed_in_place_and_nothing_else_is() -> None:
    walk = contract.walk("ticket_to_ride", 2, 0)
    start = walk.game.state
    drawn = start.cards_drawn
    with transient() as session:
        made = replace(start, cards_drawn=7)
        again = replace(made, cards_drawn=8, claims={"a": 0})
        assert made is not start and again is made and start.cards_drawn == drawn
        assert type(again.claims) is FrozenDict and id(made) in session.owned
    assert not session.owned  # ended with the block: what it made is only read from now on
    assert replace(again, cards_drawn=9) is not again and again.cards_drawn == 8
    with pytest.raises(TypeError, match="has no field 'colour'"):
        replace(start, colour="red")


def test_a_seat_the_transient_made_is_changed_in_place_and_its_state_keeps_its_seats() -> None:
    walk = contract.walk("ticket_to_ride", 2, 0)
    start = walk.game.state
    seats, hand = start.seats, start.seats[1].hand
    with transient():
        made = replace_seat(start, 1, hand={**hand, "red": 40})
        assert made is not start and made.seats is not seats and made.seats[1] is not seats[1]
        again = replace_seat(made, 1, hand={**hand, "red": 41})
        # The seat and the state are the fold's own: changed in place, the seats not rebuilt.
        assert again is made and again.seats is made.seats and again.seats[1].hand["red"] == 41
        assert type(again.seats[1].hand) is FrozenDict
    assert start.seats is seats and start.seats[1].hand is hand  # what it did not make is untouched
    with pytest.raises(dataclasses.FrozenInstanceError):
        again.seats[1].hand = {}  # type: ignore[misc]
    copied = replace_seat(again, 1, hand=hand)  # outside the fold: a new state and seats
    assert copied is not again and again.seats[1].hand["red"] == 41 and copied.seats[1].hand == hand


@pytest.mark.parametrize("name", ["ticket_to_ride", "toot_toot"])
def test_a_game_loaded_from_the_store_holds_an_immutable_state_equal_to_the_copying_fold(name: str) -> None:
    app = Caboose(Settings(db="memory"))
    game_id = play_one(app, name, 3, game_seed(5, 0), random.Random(5), check=False, stop_after=60).game_id
    assert project_game is Caboose.game.__globals__["project_game"]  # the loader this test relies on
    loaded = app.game(game_id)  # not in the cache yet: folded from the stored events
    assert text(loaded.state) == persistent(app.records(game_id))[-1]
    first = dataclasses.fields(loaded.state)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(loaded.state, first, None)
    app.close()
