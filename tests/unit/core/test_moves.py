"""One declaration per move type: the parser and the JSON Schema derived from it agree. Any
body the parser accepts fits the schema, and any body that does not fit is refused with
`MalformedMove` naming a field (never another exception)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import games
from domain.core.errors import MalformedMove
from domain.core.moves import Field, Moves, MoveType

GAMES = ("ticket_to_ride", "age_of_steam")


def values(moves: Moves) -> st.SearchStrategy[Any]:
    """Values a client might send: the names the game has, near-miss numbers, and junk."""
    names = sorted({str(v) for t in moves.types for f in t.fields for sub in (f, f.items, f.keys) if sub and sub.enum
                    for v in sub.enum[:20]})
    leaf = st.sampled_from(names) | st.integers(-2, 12) | st.booleans() | st.none() | st.text(max_size=4)
    return st.recursive(leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(names[:30]) | st.text(max_size=3),
                                                                                           inner, max_size=3), max_leaves=6)


def bodies(moves: Moves) -> st.SearchStrategy[dict[str, Any]]:
    names = sorted({f.name for t in moves.types for f in t.fields} | {"extra"})
    return st.fixed_dictionaries({"type": st.sampled_from([*moves.by_name, "fly"])},
                                 optional=dict.fromkeys(names, values(moves)))


@pytest.mark.parametrize("name", GAMES)
def test_the_parser_and_the_schema_agree(name: str) -> None:
    decider = games.current(name)
    moves: Moves = decider.moves
    schema = {"oneOf": list(decider.move_schemas.values())}
    jsonschema.Draft202012Validator.check_schema(schema)
    fits = jsonschema.Draft202012Validator(schema).is_valid
    seen = {"accepted": 0, "refused": 0}

    @settings(max_examples=400, deadline=None, derandomize=True)
    @given(body=bodies(moves))
    def check(body: dict[str, Any]) -> None:
        try:
            moves.parse(body)
        except MalformedMove as refusal:
            seen["refused"] += 1
            assert refusal.field and refusal.message.endswith("."), refusal
            return
        seen["accepted"] += 1
        assert fits(body), f"{body} is accepted but does not fit the published schema"

    check()
    assert seen["accepted"] and seen["refused"], seen


def test_a_field_present_only_with_another_fields_value() -> None:
    moves = Moves((MoveType("draw", "Draw a card.", (
        Field("source", "string", "Where from.", enum=("market", "deck")),
        Field("slot", "integer", "A market slot.", minimum=0, maximum=4, when=("source", "market")),
    ), dict, event="Drawn"),))
    fits = jsonschema.Draft202012Validator({"oneOf": list(moves.schemas().values())}).is_valid
    assert moves.parse({"type": "draw", "source": "market", "slot": 2}) == {"source": "market", "slot": 2}
    for body, code in (({"type": "draw", "source": "market"}, "missing_field"),
                       ({"type": "draw", "source": "deck", "slot": 1}, "bad_field")):
        with pytest.raises(MalformedMove) as caught:
            moves.parse(body)
        assert (caught.value.code, caught.value.field) == (code, "slot") and not fits(body)
    assert fits({"type": "draw", "source": "deck"}) and fits({"type": "draw", "source": "market", "slot": 0})
