"""A seat left open at creation goes by the name it was joined with, once joined: in the
notation lines the event list shows, in the text export and its header, as the state and the
summary already call it (over a real HTTP server)."""

from __future__ import annotations

from tests.e2e.conftest import Client


def test_a_joined_seat_is_called_by_its_name_in_notation_and_text_export(client: Client) -> None:
    created = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["Ann", None]}).body
    game_id, referee = created["game_id"], created["referee_token"]
    joined = client.post(f"/api/v1/games/{game_id}/join", {"invite": created["invites"]["1"], "name": "Ben"})
    assert joined.status == 201, joined.body
    for token in (created["seat_tokens"]["0"], joined.body["token"]):
        [move, *_] = client.get(f"/api/v1/games/{game_id}/legal-moves", token=token).body["moves"]
        assert client.post(f"/api/v1/games/{game_id}/moves", move, token=token).status == 201

    lines = client.get(f"/games/{game_id}/replay/notation", token=referee).body["lines"]
    assert any(line.startswith("Ben keeps ") for line in lines.values()), lines
    text = client.get(f"/api/v1/games/{game_id}/export?format=text", token=referee).body
    assert "open seat" not in text, text
    assert text.splitlines()[0].startswith("# ticket_to_ride (ruleset 1): Ann, Ben;"), text
    assert any(line.startswith("Ben keeps ") for line in text.splitlines()), text
