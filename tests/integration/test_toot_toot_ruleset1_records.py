"""Toot-Toot records made under ruleset 1 (tests/fixtures/toot_toot) import, audit and replay
unchanged on both stores after ruleset 2 changed final scoring; a game pinned to ruleset 1
still ends with its hand orders filled by themselves, while new games ask (R22, R33)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain import games
from domain.core.audit import audit
from domain.core.events import Audience
from domain.core.fold import replay
from domain.core.randomness import SeededRandom
from service import content as installed
from service.application import Caboose

installed.install()
RECORDS = Path(__file__).resolve().parents[1] / "fixtures" / "toot_toot"
NAMES = ["ruleset1_finished.jsonl", "ruleset1_unfinished.jsonl"]


def _records(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (RECORDS / name).read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("name", NAMES)
def test_a_ruleset_1_record_audits_under_ruleset_1(name: str) -> None:
    records = _records(name)
    assert records[0]["data"]["ruleset_version"] == "1" and games.current("toot_toot").ruleset_version == "3"
    report = audit(records)
    assert report.ok, report.first_problem
    assert report.events == len(records) and "ruleset 1" in report.rules.detail


@pytest.mark.parametrize("name", NAMES)
def test_a_ruleset_1_record_imports_unchanged(app: Caboose, name: str) -> None:
    records = _records(name)
    game_id = app.import_record(records)
    assert app.records(game_id) == records
    assert app.audit(game_id).ok and app.game(game_id).ruleset_version == "1"


def test_the_finished_record_shows_its_totals_winners_and_last_round(app: Caboose) -> None:
    records = _records("ruleset1_finished.jsonl")
    ended = records[-2]
    assert ended["kind"] == "GameEnded"
    game_id = app.import_record(records)
    view = app.state(game_id, Audience())["state"]
    scores, winners = ended["data"]["scores"], ended["data"]["winners"]
    assert view["totals"] == scores and view["winners"] == winners
    # The counters stop at the last round, also for a game recorded before they did.
    assert view["round"] == view["last_round"]
    assert len({seat["turns"] for seat in view["seats"]}) == 1


def test_the_unfinished_record_ends_as_ruleset_1_did_and_the_same_position_asks_under_ruleset_2() -> None:
    game = replay(_records("ruleset1_unfinished.jsonl"))
    rules, state = game.decider, game.state
    assert rules.ruleset_version == "1"
    [seat] = rules.active_seats(state)
    assert {"type": "end_turn"} in rules.legal_moves(state, seat)
    assert all(m["type"] != "supply_hand_orders" for m in rules.legal_moves(state, seat))
    old = rules.decide(state, seat, {"type": "end_turn"}, SeededRandom(bytes(32)))
    kinds = [e.kind for e in old]
    assert "FinalScoringBegan" not in kinds and kinds.count("SecretOrderPlayed") == 3 and kinds[-1] == "GameEnded"

    current = games.bind(games.current_rules("toot_toot"), rules.pack)
    new = current.decide(state, seat, {"type": "end_turn"}, SeededRandom(bytes(32)))
    assert [e.kind for e in new] == ["TurnEnded", "FinalScoringBegan"]
    asked = new[-1].data["choosing"]
    after = current.evolve(current.evolve(state, new[0]), new[1])
    assert current.active_seats(after) == {asked[0]}
    assert all(m["type"] == "supply_hand_orders" for m in current.legal_moves(after, asked[0]))
