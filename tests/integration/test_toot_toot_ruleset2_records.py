"""A Toot-Toot record made under ruleset 2 (tests/fixtures/toot_toot) whose game went through
the faulty reshuffle imports, audits and replays unchanged after ruleset 3 fixed it (R35): in
its sale to R3 and R4 at the red city the deck was empty, so the refill reshuffled the
discards, without R4, which that sale had discarded; R4 left the game. The reshuffle records
the new deck's order, so a replay follows the record; ruleset 3 re-deciding the same sale
would shuffle R4 in, which the record's outcome is not."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from domain import games
from domain.core.audit import audit
from domain.core.envelope import to_event
from domain.core.errors import RecordError
from domain.core.fold import replay
from domain.core.randomness import RecordedRandom, outcomes_in
from service import content as installed
from service.application import Caboose

installed.install()
RECORD = Path(__file__).resolve().parents[1] / "fixtures" / "toot_toot" / "ruleset2_lost_order.jsonl"
SALE = "c517"
"""The command of the faulty sale: seat 1 sells 1 wood to R3 (public, completed) and 1 coal
to R4 (its hand order, filled in part, discarded) with the deck empty."""


def _records() -> list[dict[str, Any]]:
    return [json.loads(line) for line in RECORD.read_text(encoding="utf-8").splitlines() if line.strip()]


def _sale(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r["command_id"] == SALE]


def test_the_record_audits_under_ruleset_2() -> None:
    records = _records()
    assert records[0]["data"]["ruleset_version"] == "2" and games.current("toot_toot").ruleset_version == "3"
    report = audit(records)
    assert report.ok, report.first_problem
    assert report.events == len(records) and "ruleset 2" in report.rules.detail


def test_the_record_imports_unchanged(app: Caboose) -> None:
    records = _records()
    game_id = app.import_record(records)
    assert app.records(game_id) == records
    assert app.audit(game_id).ok and app.game(game_id).ruleset_version == "2"


def test_the_faulty_reshuffle_replays_as_recorded_and_ruleset_3_would_shuffle_the_order_in() -> None:
    records = _records()
    sale = _sale(records)
    assert [r["kind"] for r in sale][-4:] == ["OrderDiscarded", "TokensGained", "OrdersShuffled", "PublicOrderRevealed"]
    before = replay(records, upto=sale[0]["version"] - 1)
    rules, state = before.decider, before.state
    assert rules.ruleset_version == "2" and state.deck == () and "R4" in state.seats[1].hand
    # The replay follows the recorded shuffle: R4 is in no place after the sale.
    after = replay(records, upto=sale[-1]["version"]).state
    shuffle = sale[-2]["secrets"][0]["value"]["random"]["shuffle"]
    assert "R4" not in shuffle and after.discard == ()
    held = Counter([*after.deck, *after.discard, *after.public, *(o for s in after.seats for o in (*s.hand, *s.kept))])
    assert "R4" not in held and rules.invariants(after) == ["order cards not conserved: twice [], missing ['R4']"]

    # Ruleset 2 decides the sale again from the record's outcomes alone, event for event.
    events = [to_event(r, rules.catalogue) for r in sale]
    move = rules.move_of(events[0])
    values: list[object] = []
    for event in events:
        values += [event.data, *(secret.value for secret in event.secrets)]
    assert rules.decide(state, 1, move, RecordedRandom(outcomes_in(values))) == events
    # Ruleset 3 shuffles R4 in with the other discards, so the recorded shuffle does not fit.
    current = games.bind(games.current_rules("toot_toot"), rules.pack)
    with pytest.raises(RecordError) as refused:
        current.decide(state, 1, move, RecordedRandom(outcomes_in(values)))
    assert refused.value.code == "random_mismatch"
