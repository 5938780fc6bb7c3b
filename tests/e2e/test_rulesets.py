"""`GET /api/v1/rulesets`: the games a client may create, with what the rules say of them."""

from __future__ import annotations

from domain import games
from service.content import SHELF
from tests.e2e.conftest import Client


def test_rulesets_say_what_the_rules_and_the_installed_packs_say(client: Client) -> None:
    reply = client.get("/api/v1/rulesets")
    assert reply.status == 200
    listed = {r["game"]: r for r in reply.body["rulesets"]}
    assert set(listed) == set(games.names())
    for name, ruleset in listed.items():
        decider = games.current(name)
        assert (ruleset["min_seats"], ruleset["max_seats"]) == (decider.min_seats, decider.max_seats)
        assert ruleset["options"] == decider.options({}, decider.min_seats)
        assert ruleset["move_types"] == list(decider.move_schemas)
        assert {p["id"] for p in ruleset["packs"]} == {p.id for p in SHELF.packs(name)}
        if decider.content_schema is not None:
            assert ruleset["default_pack"] == decider.default_pack in {p["id"] for p in ruleset["packs"]}
        else:
            assert ruleset["packs"] == [] and ruleset["pack_option"] is None


def test_a_game_made_with_the_listed_defaults_and_pack_is_created(client: Client) -> None:
    for ruleset in client.get("/api/v1/rulesets").body["rulesets"]:
        options = {ruleset["pack_option"]: ruleset["packs"][0]["id"]} if ruleset["packs"] else {}
        players = [f"p{i}" for i in range(ruleset["min_seats"])]
        created = client.post("/api/v1/games", {"game": ruleset["game"], "players": players, "options": options})
        assert created.status == 201, created.body
