"""A game added the way `docs/adding-a-game.md` says, and nowhere else, works end to end.

`pebbles` (`tests/fakes/pebbles/`) is one package: its rules with everything the contract
asks of a game (title, refusal sentences, static board and its JSON Schema, read-model
figures, demo plan), its events, and a content pack beside it; and one registration line
(`tests/conftest.py`, as `domain/games.py` does for a shipped game). Over a real HTTP
server it is listed, created, played to the end by following its legal moves, audited,
drawn by the read models, the map endpoint and the replay page, named by its title,
refused in its own words and played in the demo; bad options are refused, and the optional
hooks it does not write answer with their declared defaults. Each place is checked for
what the toy declares, so a place that fell back to a default (a name for a title, no
board, the scores alone) fails here."""

from __future__ import annotations

import random
import urllib.request
from pathlib import Path

import jsonschema

from domain import games
from domain.core.decider import Bound, Unbound
from projections.handlers import projector_for
from service.application import Caboose
from service.demo import play_demo
from service.i18n import ENGLISH, js_catalogue, title_of
from service.i18n.rules import RULE_SENTENCES, sentence
from service.lobby import Lobby
from tests.e2e.conftest import Client
from tests.fakes.pebbles import figures
from tests.fakes.pebbles.rules import RULES, Pebbles
from tests.i18n.rule_codes import rule_codes

SEED = "cd" * 32


def create(client: Client, **options: object) -> dict:
    reply = client.post("/api/v1/games", {"game": "pebbles", "players": ["ann", "bo", "cy"], "seed": SEED,
                                          **({"options": options} if options else {})})
    assert reply.status == 201, reply.body
    return reply.body


def test_the_toy_game_is_registered_through_the_contract_alone() -> None:
    assert "pebbles" in games.names()
    assert isinstance(RULES, Unbound) and RULES.missing() == [] and issubclass(Pebbles, Bound)
    # Only the required members are written: the optional hooks are the contract's own.
    for hook in ("invariants", "playout_choice", "adjust", "reveals", "move_schemas"):
        assert hook not in vars(Pebbles), hook
    bound = games.current("pebbles")
    assert bound.pack is not None and bound.pack.id == "small" and bound.pack.game == "pebbles"


def test_the_toy_game_is_created_played_to_the_end_audited_and_drawn(client: Client, store: Caboose) -> None:
    created = create(client)
    game_id, tokens, referee = created["game_id"], created["seat_tokens"], created["referee_token"]
    base = f"/api/v1/games/{game_id}"
    listed = client.get("/api/v1/games?game=pebbles").body["games"]
    assert [g["game_id"] for g in listed] == [game_id]

    chooser, moves_seen = random.Random(7), []
    summary = client.get(base).body
    while summary["status"] == "active":
        [seat] = summary["active_seats"]
        moves = client.get(f"{base}/legal-moves", token=tokens[str(seat)]).body["moves"]
        assert moves and all(m["type"] == "take" for m in moves)
        moves_seen.append(moves)
        reply = client.post(f"{base}/moves", chooser.choice(moves), token=tokens[str(seat)])
        assert reply.status == 201, reply.body
        summary = client.get(base).body
    assert summary["status"] == "finished" and len(moves_seen) >= 3  # 9 pebbles, at most 3 a turn
    assert [m["count"] for m in moves_seen[0]] == [1, 2, 3]  # the pack's `most_taken`

    events = client.get(f"{base}/events?limit=100").body["events"]
    kinds = [e["kind"] for e in events]
    assert kinds[0] == "GameCreated" and kinds[-2:] == ["GameEnded", "SeedRevealed"]
    pinned = events[0]["data"]["content"]
    assert (pinned["id"], pinned["sha256"]) == ("small", games.find("pebbles", "small").sha256)
    assert events[0]["data"]["options"] == {"heap": "small"}
    winner = events[-2]["data"]["winners"][0]
    assert summary["scores"] == {str(s): int(s == winner) for s in range(3)}

    audit = client.get(f"{base}/audit").body
    assert audit["ok"] is True, audit
    assert audit["rules"]["ok"] is True and audit["seed"]["ok"] is True

    board = client.get(f"{base}/board").body
    assert board["board"] == {}  # the heap is empty
    scores = client.get(f"{base}/scores").body["seats"]
    assert [s["total"] for s in scores] == [int(s == winner) for s in range(3)]
    assert client.get(f"{base}/board?at=2").body["board"] == {"heap": 9}

    # No renderer of its own: the replay page draws it with the generic one.
    with urllib.request.urlopen(f"{client.base}/games/{game_id}/replay", timeout=30) as page:
        html = page.read().decode()
    assert page.status == 200 and "pebbles" in html and "/replay/renderers/pebbles.js" not in html and 'data-renderer="generic"' in html

    # The application layer sees the same game.
    assert store.audit(game_id).ok and store.summary(game_id)["status"] == "finished"
    assert referee  # the referee token was issued like any game's


def test_bad_moves_and_options_are_refused_and_nothing_is_stored(client: Client) -> None:
    unknown = client.post("/api/v1/games", {"game": "pebbles", "players": ["a", "b"], "options": {"heap": "huge"}})
    assert unknown.status == 400 and "huge" in str(unknown.body) and "small" in str(unknown.body)
    wrong = client.post("/api/v1/games", {"game": "pebbles", "players": ["a", "b"], "options": {"colour": "red"}})
    assert wrong.status == 400 and "colour" in str(wrong.body)
    assert client.get("/api/v1/games?game=pebbles").body["games"] == []

    created = create(client)
    base, tokens = f"/api/v1/games/{created['game_id']}", created["seat_tokens"]
    before = client.get(base).body
    [seat] = before["active_seats"]
    too_many = client.post(f"{base}/moves", {"type": "take", "count": 4}, token=tokens[str(seat)])
    assert too_many.status in (409, 422) and "1 to 3" in str(too_many.body), too_many.body
    # A game without `adjust` refuses every adjustment (the contract's default).
    adjusted = client.post(f"{base}/adjustments", {"referee": "rita", "seat": 0, "kind": "vp", "amount": 1,
                                                   "reason": "a toy"}, token=created["referee_token"])
    assert adjusted.status in (409, 422) and "adjustment_unsupported" in str(adjusted.body), adjusted.body
    assert client.get(base).body["version"] == before["version"]


def test_every_place_that_shows_a_game_reads_what_the_toy_declares(client: Client, store: Caboose) -> None:
    created = create(client)
    game_id = created["game_id"]

    # Its title, and the name on its box beside a translation the catalogues do not have.
    assert (title_of("pebbles", "en"), title_of("pebbles", "th")) == ("Pebbles", "Pebbles (a heap)")
    assert js_catalogue(ENGLISH)["games"]["pebbles"] == "Pebbles"  # the pages' scripts name it so too
    with urllib.request.urlopen(f"{client.base}/games/{game_id}/replay", timeout=30) as page:
        html = page.read().decode()
    assert 'data-title="Pebbles"' in html and 'data-own-title="Pebbles (a heap)"' in html

    # Its static board, in the JSON Schema it declares, published in the OpenAPI document.
    board = client.get(f"/api/v1/games/{game_id}/map")
    assert board.status == 200, board.body
    assert board.body["heap"] == {"pebbles": 9, "most_taken": 3} and board.body["game"] == "pebbles"
    document = client.get("/api/v1/openapi.json").body
    mapping = document["paths"]["/api/v1/games/{game_id}/map"]["get"]["responses"]["200"]["content"][
        "application/json"]["schema"]["discriminator"]["mapping"]
    jsonschema.validate(board.body, {"$ref": mapping["pebbles"], "components": document["components"]})
    drawn = client.get("/replay/maps/pebbles.json").body
    assert {k: v for k, v in board.body.items() if k not in ("game_id", "pack")} == drawn

    # Its read-model figures: its own projector, not the scores alone.
    assert type(projector_for(games.current("pebbles"))) is figures.PebblesProjector
    assert client.get(f"/api/v1/games/{game_id}/scores").body["seats"][0]["by_source"] == {"win": 0}

    # Its refusals in its own words: every code its rules raise has a sentence, the core's or
    # its own, and a reader's language gets that sentence (here a stand-in catalogue).
    raised = rule_codes(Path(figures.__file__).parent)
    assert "too_many_pebbles" in raised and raised <= set(RULE_SENTENCES) | set(Pebbles.refusals)
    said = sentence("too_many_pebbles", "You may take 1 to 3 pebbles, not 4.", {"most": 3}, lambda text: f"«{text}»")
    assert said == "«You may take 1 to 3 pebbles.»"


def test_the_demo_plays_the_toy_game_as_its_plan_says(store: Caboose) -> None:
    [demo] = play_demo(Lobby(store), [RULES])
    assert (demo.game, demo.title) == ("pebbles", "Pebbles")
    assert len(demo.finished.levels) == Pebbles.demo.seats == 3
    assert store.summary(demo.finished.game_id)["status"] == "finished"
    assert store.summary(demo.running.game_id)["status"] == "active"
