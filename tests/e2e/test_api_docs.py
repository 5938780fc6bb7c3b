"""The API documentation a person reads: `/api/docs` renders the OpenAPI document with a
renderer served from the package (nothing from another site), and the document carries an
example of every move type of every game, each one the game's own parser accepts and the
published schema validates."""

from __future__ import annotations

import re

import jsonschema
import pytest

from domain import games
from domain.core.errors import MalformedMove
from service.pages.examples import example
from tests.e2e.conftest import Client
from tests.e2e.test_move_schemas import published, validator

MOVES = "/api/v1/games/{game_id}/moves"


def test_every_move_type_of_every_game_has_an_example_the_rules_parse(client: Client) -> None:
    document = published(client)
    examples = document["paths"][MOVES]["post"]["requestBody"]["content"]["application/json"]["examples"]
    expected = {f"{name}.{move_type}" for name in games.names() for move_type in games.current(name).move_schemas}
    assert expected and set(examples) == expected
    for name in games.names():
        decider, body = games.current(name), validator(document, "Move")
        for move_type in decider.move_schemas:
            shown = examples[f"{name}.{move_type}"]["value"]
            assert shown["type"] == move_type
            decider.moves.parse(shown)  # raises MalformedMove if the example is not a move of the game
            validator(document, f"{name}.{move_type}").validate(shown)
            body.validate(shown)
            assert document["components"]["schemas"][f"{name}.{move_type}"]["example"] == shown


def test_examples_follow_the_schema_not_a_list_per_game() -> None:
    """A move declared tomorrow gets its example from its schema: present-when fields, maps
    from names, bounds and lists are all read from the schema."""
    schema = {
        "type": "object", "required": ["type", "source", "cards", "keep"], "additionalProperties": False,
        "properties": {
            "type": {"type": "string", "enum": ["take"]},
            "source": {"type": "string", "enum": ["market", "deck"]},
            "slot": {"type": "integer", "minimum": 2, "maximum": 4},
            "cards": {"type": "object", "properties": {"red": {"type": "integer", "minimum": 1}}, "additionalProperties": False},
            "keep": {"type": "array", "items": {"type": "string", "enum": ["A|B"]}},
            "note": {"type": "string"},
        },
        "allOf": [{"anyOf": [{"properties": {"source": {"enum": ["market"]}}, "required": ["source", "slot"]},
                             {"properties": {"source": {"not": {"enum": ["market"]}}}, "not": {"required": ["slot"]}}]}],
    }
    shown = example(schema)
    assert shown == {"type": "take", "source": "market", "slot": 2, "cards": {"red": 1}, "keep": ["A|B"]}
    jsonschema.Draft202012Validator(schema).validate(shown)


def test_a_wrong_example_would_be_caught() -> None:
    """The parser check above can fail: a move type's example with a field taken out is refused."""
    decider = games.current("ticket_to_ride")
    shown = dict(example(decider.move_schemas["claim_route"]))
    del shown["cards"]
    with pytest.raises(MalformedMove):
        decider.moves.parse(shown)


def test_the_docs_page_loads_its_renderer_from_this_server(client: Client) -> None:
    page = client.get("/api/docs")
    assert page.status == 200 and page.headers["content-type"].startswith("text/html")
    sources = re.findall(r'(?:src|href)="([^"]+)"', page.body)
    assert any(s.endswith("swagger-ui-bundle.js") for s in sources), sources
    assert all(s.startswith("/") or s.startswith("data:") for s in sources), sources
    for source in sources:
        if not source.startswith("data:"):
            assert client.get(source).status == 200, source
    assert "default-src 'self'" in page.headers["content-security-policy"]
