"""Game states are immutable in fact: their mappings refuse changes however they were built."""

from __future__ import annotations

import copy
import pickle

import pytest

from domain.core.codec import decode, encode
from domain.core.state import FrozenDict, changed, frozen, replace
from domain.ticket_to_ride.state import Seat, State


def changes(mapping: dict) -> list:
    return [lambda: mapping.__setitem__("red", 1), lambda: mapping.__delitem__("red"), mapping.clear,
            lambda: mapping.pop("red"), mapping.popitem, lambda: mapping.setdefault("x", 1),
            lambda: mapping.update(red=1)]


@pytest.mark.parametrize("built", ["constructor", "replace", "codec"])
def test_a_states_mappings_refuse_every_change(built: str) -> None:
    seat = Seat("ann", hand={"red": 0, "blue": 0})
    if built == "replace":
        seat = replace(seat, hand={"red": 2, "blue": 0})
    elif built == "codec":
        seat = decode(Seat, encode(seat))
    for change in changes(seat.hand):
        with pytest.raises(TypeError):
            change()
    with pytest.raises(TypeError):
        seat.hand["red"] += 1


def test_a_frozen_mapping_still_reads_compares_and_copies_like_a_dict() -> None:
    hand = frozen({"red": 2, "inner": {"a": 1}})
    assert isinstance(hand, FrozenDict) and isinstance(hand["inner"], FrozenDict)
    assert hand == {"red": 2, "inner": {"a": 1}}
    assert {**hand, "red": 3}["red"] == 3 and type({**hand}) is dict
    assert copy.deepcopy(hand) is hand and pickle.loads(pickle.dumps(hand)) == hand
    assert type(pickle.loads(pickle.dumps(hand))) is FrozenDict


def test_the_state_a_snapshot_restores_is_frozen_too() -> None:
    state = State(seats=(Seat("ann"), Seat("bob")), doubles_both_usable=False, claims={"r1": 0})
    back = decode(State, encode(state))
    assert back == state
    with pytest.raises(TypeError):
        back.claims["r2"] = 1
    with pytest.raises(TypeError):
        back.seats[1].hand["red"] = 5


def test_changed_gives_a_new_mapping_with_the_changes_and_leaves_the_old_one_as_it_was() -> None:
    hand = FrozenDict({"red": 1, "blue": 2})
    new = changed(hand, {"red": 3, "green": 1})
    assert new == {"red": 3, "blue": 2, "green": 1} and type(new) is FrozenDict
    assert hand == {"red": 1, "blue": 2} and new is not hand
    assert changed(hand, {}) == hand and changed(hand, {}) is not hand
    for change in changes(new):  # handed to `replace` as it is, not frozen again
        with pytest.raises(TypeError):
            change()
