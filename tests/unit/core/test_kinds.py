"""The core's kinds and a game's kinds as typed events: the records they read back from
are the records they write (key order included), `fold.step` handles every core kind
before a game's `evolve`, and a game's `evolve` refuses a kind it does not declare."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from domain.core import fold, log
from domain.core.audit import audit
from domain.core.catalogue import UnknownKind
from domain.core.decider import Setup
from domain.core.errors import IllegalMove, RecordError
from domain.core.events import Event, Untyped
from domain.core.kinds import (
    CORE,
    AdjustmentMade,
    DeadlinePassed,
    DisputeRaised,
    ForkedFrom,
    GameCreated,
    GameRewound,
    MoveDeadlineSet,
    MoveTakenBack,
    OutcomeAwaited,
    OutcomeEntered,
    RulingMade,
    SeatHandedBack,
    SeatJoined,
    SeatTakenOver,
    SeedRevealed,
    TakebackAccepted,
    TakebackRefused,
    TakebackRequested,
)
from domain.ticket_to_ride import DECIDER as TTR
from domain.ticket_to_ride import evolve as ttr_evolve
from domain.ticket_to_ride.catalogue import EVENTS
from domain.ticket_to_ride.events import TurnStarted
from tests.fakes.race import RACE, CounterAdvanced
from tests.forgery import reseal

RECORDS = Path(__file__).resolve().parents[2] / "fixtures" / "records"

ONE_OF_EACH: list[Event] = [
    GameCreated(game="race", ruleset_version="1", seats=(), options={"goal": 5}, seed_commitment="c", seed_source="server"),
    SeedRevealed(seed="00"),
    SeatJoined(seat=1, name="Bo"),
    GameRewound(to_version=3, reason="r", referee="Ann", dispute=None),
    TakebackRequested(seat=0, to_version=3, move=(4, 5)),
    TakebackAccepted(seat=0, by="seat:1"),
    TakebackRefused(seat=0, by="seat:1", reason=""),
    MoveTakenBack(seat=0, to_version=3),
    DisputeRaised(version=2, raised_by="seat:1", claim="c", referee="Ann"),
    RulingMade(dispute=9, text="t", outcome="upheld", referee="Ann"),
    AdjustmentMade(seat=0, adjusted="vp", amount=2, detail={}, reason="r", referee="Ann", dispute=9),
    ForkedFrom(origin="g", at_version=4, origin_hash="h", seed_commitment="c", seed_source="server", reason="r", referee="Ann"),
    SeatTakenOver(seat=1, bot="race playout bot", level="playout", by="referee:Ann", reason="r"),
    SeatHandedBack(seat=1, level="playout", by="referee:Ann", reason="r"),
    MoveDeadlineSet(seconds=3600, by="referee:Ann"),
    DeadlinePassed(seat=0, seconds=3600, since="2026-01-01T00:00:00Z", level="playout", automatic=True),
    OutcomeAwaited(seat=0, move={"type": "draw_card", "from": "deck"},
                   needed={"kind": "draw", "what": "a card from the deck", "count": 1, "options": ["red"],
                           "labels": ["red"], "by": 0, "describe": "a card from the deck: 1 of red"}),
    OutcomeEntered(what="a card from the deck", outcome=["red"], by="referee:Ann"),
]


def _records(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (RECORDS / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def test_one_of_each_core_kind_is_here() -> None:
    assert [type(event) for event in ONE_OF_EACH] == list(CORE)


@pytest.mark.parametrize("name", sorted(path.name for path in RECORDS.glob("*.jsonl")))
def test_a_stored_record_reads_back_as_the_same_json(name: str) -> None:
    records = _records(name)
    decider = log.decider_of(records[0]["data"])
    typed = 0
    for record in records:
        event = decider.catalogue.event(record["kind"], record["data"])
        assert json.dumps(event.data) == json.dumps(record["data"]), record["version"]
        typed += not isinstance(event, Untyped)
    # Every record of a game that declares its kinds is typed; of one that does not yet, the core's.
    assert typed == len(records) if len(decider.events) else typed >= 1


def test_a_dispute_not_cited_is_recorded_as_null_and_an_adjustment_names_its_kind() -> None:
    assert GameRewound(to_version=3, reason="r", referee="Ann", dispute=None).data["dispute"] is None
    adjusted = AdjustmentMade(seat=0, adjusted="piece", amount=0, detail={"route": "x"}, reason="r", referee="Ann", dispute=None)
    assert adjusted.kind == "AdjustmentMade" and adjusted.data["kind"] == "piece"
    assert CORE.event("AdjustmentMade", adjusted.data) == adjusted
    assert CORE.schema("AdjustmentMade")["required"] == ["seat", "kind", "amount", "detail", "reason", "referee", "dispute"]


def test_every_core_kind_is_handled_before_the_game_sees_it() -> None:
    state = RACE.initial_state(Setup(("a", "b"), {"goal": 5}))
    for event in ONE_OF_EACH:
        if isinstance(event, (GameRewound, MoveTakenBack)):
            with pytest.raises(RecordError, match="restores an earlier state"):
                fold.step(RACE, state, event)
        elif isinstance(event, AdjustmentMade):
            with pytest.raises(IllegalMove, match="adjustments"):  # race keeps the default: refused
                fold.step(RACE, state, event)
        else:
            assert fold.step(RACE, state, event) == state, event.kind
    for event in ONE_OF_EACH:  # and the game's own evolve refuses every one of them
        with pytest.raises(UnknownKind):
            RACE.evolve(state, event)


def test_ticket_to_ride_evolve_has_one_handler_per_declared_kind_and_refuses_any_other() -> None:
    assert set(ttr_evolve._APPLY) == set(EVENTS)
    state = TTR.initial_state(Setup(("a", "b"), TTR.options({}, 2)))
    assert TTR.evolve(state, TurnStarted(seat=1)).current == 1
    for stranger in (Untyped("TurnStarted", {"seat": 1}), SeatJoined(seat=1, name="Bo"), CounterAdvanced(seat=0, by=1, counter=1)):
        with pytest.raises(UnknownKind, match=f"no event kind '{stranger.kind}'"):
            TTR.evolve(state, stranger)


def test_every_kind_is_frozen_keyword_only_and_means_something() -> None:
    for catalogue in (CORE, EVENTS):
        for kind in catalogue:
            params = kind.__dataclass_params__  # type: ignore[attr-defined]
            assert params.frozen, kind.kind
            assert all(f.kw_only for f in dataclasses.fields(kind)), kind.kind
            assert catalogue.schema(kind.kind)["description"], f"{kind.kind} has no meaning"


def test_a_record_whose_data_does_not_fit_its_kind_is_refused_naming_the_event(sqlite_app: Any) -> None:
    bad = _records("ticket_to_ride_finished.jsonl")
    claim = next(r for r in bad if r["kind"] == "RouteClaimed")
    claim["data"]["colour"] = "red"
    with pytest.raises(RecordError, match=f"event {claim['version']}: RouteClaimed has no field colour") as refused:
        fold.replay(bad)
    assert refused.value.version == claim["version"]
    report = audit(reseal(bad))
    assert not report.ok and report.first_problem["version"] == claim["version"]
    with pytest.raises(RecordError, match="RouteClaimed has no field colour"):
        sqlite_app.import_record(reseal(bad))
