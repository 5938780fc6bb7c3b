"""The sealed simultaneous phase helper: who is still to submit, each choice a secret to its
seat, the reveal when the last one is in."""

from __future__ import annotations

import pytest

from domain.core.catalogue import Catalogue
from domain.core.envelope import seal as seal_record
from domain.core.envelope import to_event
from domain.core.events import Secret
from domain.core.sealed import SEALED_EVENTS, SubmissionSealed, SubmissionsRevealed, apply, open_phase, seal


def test_every_seat_waits_until_it_submits() -> None:
    sealed = open_phase("operation", (0, 1, 2))
    assert sealed.waiting == {0, 1, 2} and not sealed.complete
    events = seal(sealed, 1, {"runs": []})
    assert events == [SubmissionSealed(seat=1, phase="operation", secrets=(Secret((1,), {"runs": []}),))]
    assert events[0].data == {"seat": 1, "phase": "operation"}  # the public learn only who submitted
    after = apply(sealed, events[0])
    assert after.waiting == {0, 2} and after.choices == {1: {"runs": []}}


def test_the_last_submission_reveals_every_choice() -> None:
    sealed = open_phase("operation", (0, 1))
    sealed = apply(sealed, seal(sealed, 0, {"a": 1})[0])
    events = seal(sealed, 1, {"b": 2})
    assert [e.kind for e in events] == ["SubmissionSealed", "SubmissionsRevealed"]
    reveal = events[1]
    assert isinstance(reveal, SubmissionsRevealed) and reveal.automatic
    assert reveal.data == {"phase": "operation", "choices": {"0": {"a": 1}, "1": {"b": 2}}}
    assert apply(apply(sealed, events[0]), reveal).complete


def test_a_seat_cannot_submit_twice() -> None:
    sealed = open_phase("goals", (0, 1))
    sealed = apply(sealed, seal(sealed, 0, 1)[0])
    with pytest.raises(ValueError, match="seat 0 is not waiting"):
        seal(sealed, 0, 2)


def test_the_events_read_back_from_a_record() -> None:
    event = seal(open_phase("operation", (0, 1)), 0, {"runs": [["S-red"]]})[0]
    record = seal_record(game_id="g", version=5, time="t", actor="seat:0", command_id=None, event=event,
                         prev_hash="0" * 64, new_salt=lambda: "00" * 16)
    assert to_event(record, SEALED_EVENTS + Catalogue()) == event
