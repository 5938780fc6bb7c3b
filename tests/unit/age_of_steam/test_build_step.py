"""A build step written in another order than it was laid (issue 13's "order within a step
should not matter"): each placement is judged when it is laid, so a town tile written on its
own line before the track that reaches it is refused, quoting the ruling; the whole step on
one line (`build_step`) is laid in the first order, from the one written, that is legal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain.age_of_steam.build_track import ORDER_RULING
from domain.core.errors import IllegalMove, MalformedMove
from domain.core.randomness import SeededRandom
from domain.core.transcription import Transcript
from tests.rust_belt import DECIDER

from .helpers import fold

SHEETS = Path(__file__).resolve().parents[2] / "sheets"
SEATS = ("Ann", "Bob", "Cat")
# On the sheet, Bob's build step of turn 1, laid track first, written town first on one line.
TRACK = {"hex": "12,4", "tile": "gentle_curve", "rotation": 1}
TOWN = {"hex": "12,5", "tile": "town_1", "rotation": 0}


def _before_bobs_step() -> Transcript:
    observed = json.loads((SHEETS / "age_of_steam.observed.json").read_text(encoding="utf-8"))
    transcript = Transcript(DECIDER, SEATS, {}, observed)
    for line in (SHEETS / "age_of_steam.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("Bob builds town_1 at 12,5 r0"):
            return transcript
        text = line.split("#", 1)[0].strip()  # as a sheet is read: comments aside
        if text:
            transcript.enter(text)
    raise AssertionError("the sheet's first build step of Bob's has changed")


def test_a_town_written_before_the_track_that_reaches_it_is_refused_quoting_the_ruling() -> None:
    transcript = _before_bobs_step()
    before = len(transcript.events)
    with pytest.raises(IllegalMove) as caught:
        transcript.enter("Bob builds town_1 at 12,5 r0")
    assert caught.value.code == "not_connected"
    assert ORDER_RULING in caught.value.message and "on one line" in caught.value.message
    assert len(transcript.events) == before


def test_the_refusal_quotes_the_ruling_once() -> None:
    """The ruling is said once in the message, not its first words a second time around it."""
    transcript = _before_bobs_step()
    with pytest.raises(IllegalMove) as caught:
        transcript.enter("Bob builds town_1 at 12,5 r0")
    assert caught.value.message.lower().count("judged one at a time") == 1, caught.value.message


def test_the_step_on_one_line_in_another_order_is_laid_in_a_legal_order() -> None:
    laid = _before_bobs_step()
    laid.enter("Bob builds gentle_curve at 12,4 r1")
    laid.enter("Bob builds town_1 at 12,5 r0")
    written = _before_bobs_step()
    events = written.enter("Bob builds town_1 at 12,5 r0; gentle_curve at 12,4 r1")
    assert [e.kind for e in events] == ["BuildStepWritten", "TrackBuilt", "TrackBuilt"]
    assert events[0].data == {"seat": 1, "placements": [["12,5", "town_1", 0], ["12,4", "gentle_curve", 1]],
                              "order": [1, 0]}
    assert not events[0].automatic and all(e.automatic for e in events[1:])
    assert [e.data["hex"] for e in events[1:]] == ["12,4", "12,5"]
    assert written.state == laid.state


def test_the_order_written_is_kept_when_it_is_legal() -> None:
    transcript = _before_bobs_step()
    events = transcript.enter("Bob b gentle_curve 12,4 r1; town_1 12,5 r0")
    assert events[0].data["order"] == [0, 1]


def test_a_step_with_no_legal_order_is_refused_and_nothing_changes() -> None:
    transcript = _before_bobs_step()
    before, state = len(transcript.events), transcript.state
    with pytest.raises(IllegalMove) as caught:
        transcript.enter("Bob builds town_1 at 12,5 r0; gentle_curve at 12,4 r4")
    assert caught.value.message.startswith(f"No order of these placements is legal ({ORDER_RULING}); in the order written: ")
    assert len(transcript.events) == before and transcript.state is state


def test_more_placements_than_the_step_allows_are_refused() -> None:
    laid = _before_bobs_step()
    laid.enter("Bob builds gentle_curve at 12,4 r1; town_1 at 12,5 r0")
    third = next(m for m in DECIDER.legal_moves(laid.state, 1) if m["type"] == "build")
    transcript = _before_bobs_step()
    placements = [TRACK, TOWN, {k: third[k] for k in TRACK}, {k: third[k] for k in TRACK}]
    with pytest.raises(IllegalMove) as caught:
        DECIDER.decide(transcript.state, 1, {"type": "build_step", "placements": placements}, SeededRandom(bytes(32)))
    assert caught.value.code == "build_limit" and "You have placed your 3 tiles this turn" in caught.value.message


def _move() -> dict[str, Any]:
    return {"type": "build_step", "placements": [TOWN, TRACK]}


def test_the_recorded_step_gives_back_its_move_and_the_same_events() -> None:
    state = _before_bobs_step().state
    events = DECIDER.decide(state, 1, _move(), SeededRandom(bytes(32)))
    recovered = DECIDER.move_of(events[0])
    assert recovered == _move()
    again = DECIDER.decide(state, 1, recovered, SeededRandom(bytes(32)))
    assert [e.data for e in again] == [e.data for e in events]
    assert DECIDER.invariants(fold(state, events)) == []


def test_the_step_reads_back_from_its_line() -> None:
    state = _before_bobs_step().state
    move = {"type": "build_step", "placements": [{**TOWN, "cost": 2}, TRACK]}
    line = DECIDER.notation.format(state, SEATS, 1, move)
    assert line == "Bob builds town_1 at 12,5 r0 for $2; gentle_curve at 12,4 r1"
    assert DECIDER.notation.parse(state, SEATS, line).move == move


@pytest.mark.parametrize(("move", "code"), [
    ({"type": "build_step", "placements": []}, "bad_field"),
    ({"type": "build_step", "placements": [{"hex": "12,4", "tile": "gentle_curve"}]}, "missing_field"),
    ({"type": "build_step", "placements": [{**TRACK, "colour": "red"}]}, "bad_field"),
    ({"type": "build_step", "placements": [{**TRACK, "tile": "zigzag"}]}, "unknown_tile"),
])
def test_a_malformed_step_is_refused(move: dict[str, Any], code: str) -> None:
    state = _before_bobs_step().state
    with pytest.raises(MalformedMove) as caught:
        DECIDER.decide(state, 1, move, SeededRandom(bytes(32)))
    assert caught.value.code == code
