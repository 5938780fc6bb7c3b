"""Outcomes entered at a table: answered in order, refused when impossible, asked for when missing."""

from __future__ import annotations

import pytest

from domain.core.errors import MalformedMove
from domain.core.randomness import SeededRandom
from domain.core.table import ImpossibleOutcome, OutcomeNeeded, TableRandom, format_outcome, parse_outcome

BAG = ["red"] * 5 + ["blue"] * 2 + ["black"]


def test_entered_outcomes_answer_the_rules_in_order() -> None:
    table = TableRandom([[3, 6], "blue", ["black", "red"]])
    assert table.roll(2, "growth") == [3, 6]
    assert BAG[table.pick(BAG, "a cube from the bag")] == "blue"
    assert table.draw(BAG, 2, "two cubes") == ["black", "red"]
    assert [r.kind for r in table.requests] == ["roll", "pick", "draw"]


def test_a_missing_outcome_is_asked_for_in_the_games_terms() -> None:
    table = TableRandom([[1]])
    table.roll(1, "first die")
    with pytest.raises(OutcomeNeeded) as needed:
        table.pick(BAG, "a goods cube from the bag")
    assert needed.value.used == 1
    assert needed.value.request.describe() == "a goods cube from the bag: 1 of black, blue, red"
    assert needed.value.request.available == {"red": 5, "blue": 2, "black": 1}


@pytest.mark.parametrize(("entered", "ask"), [
    ([["red"] * 6], lambda t: t.draw(BAG + ["red"] * 0, 6, "six cubes")),
    (["green"], lambda t: t.pick(BAG, "a cube")),
    ([[7]], lambda t: t.roll(1, "a die")),
    ([[1, 2]], lambda t: t.roll(1, "a die")),
])
def test_an_impossible_outcome_is_refused_saying_what_there_is(entered: list, ask) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ImpossibleOutcome) as refused:
        ask(TableRandom(entered))
    assert refused.value.code == "impossible_outcome"


def test_a_sixth_red_cube_is_refused_naming_what_the_bag_holds() -> None:
    with pytest.raises(ImpossibleOutcome, match="there are 1 black, 2 blue, 5 red"):
        TableRandom([["red"] * 6]).draw(BAG, 6, "six cubes")


def test_typed_outcomes_read_back_what_was_written() -> None:
    table = TableRandom()
    for ask in (lambda: table.roll(3, "dice"), lambda: table.pick(BAG, "cube"), lambda: table.draw(BAG, 2, "cubes")):
        with pytest.raises(OutcomeNeeded) as needed:
            ask()
        request = needed.value.request
        value = {"roll": [2, 5, 1], "pick": "blue", "draw": ["black", "red"]}[request.kind]
        assert parse_outcome(request, format_outcome(request, value)) == value


def test_a_prefix_names_an_item_only_when_it_is_unambiguous() -> None:
    with pytest.raises(OutcomeNeeded) as needed:
        TableRandom().pick(BAG, "cube")
    assert parse_outcome(needed.value.request, "re") == "red"
    with pytest.raises(MalformedMove, match="could be any of black, blue"):
        parse_outcome(needed.value.request, "bl")
    with pytest.raises(ImpossibleOutcome):
        parse_outcome(needed.value.request, "green")


def test_the_generator_answers_the_same_questions_through_randbelow() -> None:
    seed = bytes(range(32))
    a, b = SeededRandom(seed), SeededRandom(seed)
    assert a.roll(3, "dice") == [b.randbelow(6) + 1 for _ in range(3)]
    assert a.pick(BAG, "cube") == b.randbelow(len(BAG))
    assert a.draw(BAG, 2, "top two") == BAG[:2] and a.position == b.position
