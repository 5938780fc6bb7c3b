"""A Toot-Toot player at the end of the game over the REST API: the legal moves list every
choice of hand orders to supply (R22, R33), a bad choice is refused with a problem saying
what is wrong and nothing stored, the choices are recorded seat by seat in turn order, and
the finished game's state, summary and text form show the totals, the winners and the
choices in the game's notation."""

from __future__ import annotations

import random

from domain.toot_toot.state import SCORING
from service.application import Caboose
from tests.e2e.conftest import Client

SEED = "0b" * 32
"""A seed whose 3-round game on the harbour map, played by the greedy bot, ends with both
seats holding goods a hand order of theirs wants (found by trying seeds)."""


def _play_to_final_scoring(store: Caboose, game_id: str) -> None:
    """The moves before final scoring, made in process: only the end is under test."""
    chooser = random.Random(0)
    for _ in range(500):
        game = store.game(game_id)
        rules, state = game.decider, game.state
        if state.phase == SCORING:
            return
        [seat] = rules.active_seats(state)
        store.play(game_id, seat, rules.bots["greedy"].choose(state, seat, rules.legal_moves(state, seat), chooser))
    raise AssertionError("the game never reached final scoring")


def test_the_players_choose_their_hand_orders_over_http(client: Client, store: Caboose) -> None:
    created = client.post("/api/v1/games", {"game": "toot_toot", "players": ["Ann", "Ben"], "seed": SEED,
                                            "options": {"map": "harbour", "round_limit": 3}})
    assert created.status == 201, created.body
    game_id, tokens = created.body["game_id"], created.body["seat_tokens"]
    base = f"/api/v1/games/{game_id}"
    _play_to_final_scoring(store, game_id)

    summary = client.get(base).body
    assert summary["active_seats"] == [0]
    listed = client.get(f"{base}/legal-moves", token=tokens["0"]).body
    assert [(m["type"], m["fills"]) for m in listed["moves"]] == [
        ("supply_hand_orders", {}), ("supply_hand_orders", {"G7": {"coal": 1}})]
    assert client.get(f"{base}/legal-moves", token=tokens["1"]).body["moves"] == []

    # Refused, nothing stored: out of turn, more than the order wants, an order not in the hand,
    # another move, a malformed choice.
    version = summary["version"]
    for token, move, status, code in [
        (tokens["1"], {"type": "supply_hand_orders", "fills": {"Y1": {"stone": 1}}}, 422, "not_your_turn"),
        (tokens["0"], {"type": "supply_hand_orders", "fills": {"G7": {"coal": 2}}}, 422, "not_wanted"),
        (tokens["0"], {"type": "supply_hand_orders", "fills": {"Y1": {"stone": 1}}}, 422, "not_in_hand"),
        (tokens["0"], {"type": "end_turn"}, 422, "not_now"),
        (tokens["0"], {"type": "supply_hand_orders", "fills": {"G7": {"gold": 1}}}, 400, "unknown_good"),
    ]:
        reply = client.post(f"{base}/moves", move, token=token)
        assert (reply.status, reply.body["code"]) == (status, code), reply.body
        assert reply.body["detail"]
    assert client.get(base).body["version"] == version

    reply = client.post(f"{base}/moves", {"type": "supply_hand_orders", "fills": {"G7": {"coal": 1}}}, token=tokens["0"])
    assert reply.status == 201, reply.body
    kinds = [e["kind"] for e in reply.body["events"]]
    assert kinds[:2] == ["HandOrdersSupplied", "SecretOrderPlayed"] and "OrderDiscarded" in kinds
    assert "GameEnded" not in kinds and client.get(base).body["active_seats"] == [1]

    reply = client.post(f"{base}/moves", {"type": "supply_hand_orders", "fills": {"Y1": {"stone": 1}}}, token=tokens["1"])
    assert reply.status == 201, reply.body
    kinds = [e["kind"] for e in reply.body["events"]]
    assert kinds[-2:] == ["GameEnded", "SeedRevealed"] and "OrderCompleted" in kinds
    ended = reply.body["events"][-2]

    state = client.get(f"{base}/state").body["state"]
    assert state["phase"] == "over" and state["round"] == 3
    assert state["totals"] == ended["data"]["scores"] and state["winners"] == ended["data"]["winners"]
    assert client.get(base).body["scores"] == {seat: total for seat, total in ended["data"]["scores"].items()}
    text = client.get(f"{base}/export?format=text").body
    assert "Ann supplies hand orders: G7 coal\n" in text and "Ben supplies hand orders: Y1 stone\n" in text
    assert client.get(f"{base}/audit").body["ok"]
