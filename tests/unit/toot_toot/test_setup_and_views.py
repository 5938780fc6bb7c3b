"""Setup, options, hex geometry, the map-splitting search and what each audience sees."""

from __future__ import annotations

import pytest

from domain.core.decider import Setup
from domain.core.errors import IllegalMove, MalformedMove
from domain.core.events import Audience
from domain.core.leaks import leaks
from domain.core.randomness import RecordedRandom, SeededRandom
from domain.core.state import replace
from domain.toot_toot.board import Board
from domain.toot_toot.hexes import is_segment, neighbour, neighbours, opp
from domain.toot_toot.split import cut_off, groups
from domain.toot_toot.state import STARTS
from tests import playouts

from .helpers import CONTENT, RULES, table


def opened(seats: int, options: dict[str, object] | None = None, seed: bytes = bytes(32)):  # type: ignore[no-untyped-def]
    full = RULES.options(options or {}, seats)
    state = RULES.initial_state(Setup(tuple(f"p{i}" for i in range(seats)), full))
    events = RULES.setup(state, SeededRandom(seed))
    return playouts.fold(RULES, state, events), events


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_setup_deals_a_secret_order_each_and_seats_plus_one_public(seats: int) -> None:
    state, events = opened(seats)
    assert state.phase == STARTS
    assert all(len(s.hand) == 1 for s in state.seats) and len(state.public) == seats + 1
    assert len(state.deck) == 36 - 2 * seats - 1
    dealt = [e for e in events if e.kind == "SecretOrderDealt"]
    assert [e.secrets[0].to for e in dealt] == [(s,) for s in range(seats)]
    assert all("order" not in e.data for e in dealt)
    assert RULES.invariants(state) == []


def test_the_map_is_rolled_and_recorded_or_named() -> None:
    state, events = opened(2)
    assert events[0].kind == "MapChosen" and events[0].data["random"]["below"] == 3
    assert state.map == [m.id for m in CONTENT.maps][events[0].data["random"]["value"]]
    state, events = opened(2, {"map": "ridge"})
    assert state.map == "ridge" and "random" not in events[0].data
    again = RULES.setup(RULES.initial_state(Setup(("a", "b"), RULES.options({}, 2))),
                        playouts.outcomes(opened(2)[1]))
    assert again == opened(2)[1]


def test_options_are_checked() -> None:
    for bad in ({"map": "atlantis"}, {"penalty_supply": 3}, {"round_limit": 1}, {"colour": "red"}):
        with pytest.raises(MalformedMove) as caught:
            RULES.options(bad, 2)
        assert caught.value.code == "bad_options"
    with pytest.raises(MalformedMove):
        RULES.options({}, 5)
    assert RULES.options(RULES.options({"map": "forest"}, 3), 3) == RULES.options({"map": "forest"}, 3)


def test_start_positions_are_chosen_in_reverse_seat_order() -> None:
    state, _ = opened(3)
    assert RULES.active_seats(state) == frozenset({2})
    with pytest.raises(IllegalMove):
        RULES.decide(state, 0, {"type": "choose_start", "hex": "0,1"}, SeededRandom(bytes(32)))
    chosen = []
    for seat in (2, 1, 0):
        assert RULES.active_seats(state) == frozenset({seat})
        move = RULES.legal_moves(state, seat)[0]
        chosen.append(move["hex"])
        state = playouts.fold(RULES, state, RULES.decide(state, seat, move, SeededRandom(bytes(32))))
    assert len(set(chosen)) == 3 and RULES.active_seats(state) == frozenset({0})
    taken = state.seats[0].hex
    with pytest.raises(IllegalMove):
        RULES.decide(state, 0, {"type": "choose_start", "hex": taken}, RecordedRandom([]))


def test_hex_geometry() -> None:
    for col in range(10):
        for row in range(8):
            hex_ = f"{col},{row}"
            for edge, other in neighbours(hex_):
                assert neighbour(other, opp(edge)) == hex_
    assert [b for b in range(6) if is_segment(0, b)] == [2, 3, 4]


def test_the_split_search_names_the_cut_off_region_and_allows_a_map_already_in_parts() -> None:
    plain = {f"{c},{r}" for c in range(6) for r in range(3)}
    wall = {"2,0", "2,1"}
    # The smaller side is named: 6 hexes west of the wall, against 9 east of it.
    assert cut_off(lambda h: h in plain - wall, "2,2") == {"0,0", "1,0", "0,1", "1,1", "0,2", "1,2"}
    assert cut_off(lambda h: h in plain - wall, "4,1") is None
    parts = plain - {"2,0", "2,1", "2,2"}
    assert len(groups(parts)) == 2
    assert cut_off(lambda h: h in parts, "4,2") is None


def test_a_hand_order_is_seen_only_by_its_seat_until_the_end() -> None:
    state = table(3, trains=[("1,3", 0), ("8,2", 0), ("0,7", 0)], hands=[["G6"], ["R1"], []], public=["G4", "G5"])
    public = RULES.view(state, Audience())
    views = {s: RULES.view(state, Audience(seat=s)) for s in range(3)}
    assert "hand" not in public["seats"][0] and public["seats"][0]["hand_count"] == 1
    assert views[0]["seats"][0]["hand"][0]["order"] == "G6" and "hand" not in views[0]["seats"][1]
    assert "deck_order" not in public and RULES.view(state, Audience(referee=True))["deck_order"] == list(state.deck)
    assert leaks(public, views) == []
    # A finished game's view still follows its audience: the service decides who may see it whole.
    over = replace(table(3, hands=[["G6"], ["R1"], []]), phase="over")
    assert "hand" not in RULES.view(over, Audience())["seats"][1]
    assert RULES.view(over, Audience(referee=True))["seats"][1]["hand"][0]["order"] == "R1"


def test_a_factory_is_a_building_with_one_exit() -> None:
    state = table(2, trains=[("1,1", 0), ("0,2", 0)], factories={"1,0": ("toolworks", 3)})
    board = Board(CONTENT.map["harbour"], state)
    factory = board.building("factory@1,0")
    assert factory is not None and factory.side("1,0", 3) == "open" and factory.side("1,0", 0) == "closed"
    assert not board.trackable("1,0")


def test_option_refusals_say_what_the_option_is_without_a_ruling_id() -> None:
    for bad, words in (({"penalty_supply": "5"}, "null for no limit, or 5"), ({"goods_supply": "yes"}, "no limit"),
                       ({"round_limit": 2}, "the most rounds a game lasts")):
        with pytest.raises(MalformedMove) as caught:
            RULES.options(bad, 2)
        assert words in caught.value.message and "(R" not in caught.value.message, caught.value.message
