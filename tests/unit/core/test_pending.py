"""What a table game waits on, read from its record: one reading (`pending_after`) for the
aggregate, the audit, the text form and `pending_of`."""

from __future__ import annotations

from typing import Any

from domain.core.transcription import OPENING, Pending, pending_after, pending_of

NEEDED = {"kind": "roll", "what": "the race dice", "count": 2, "options": [1, 2, 3, 4, 5, 6],
          "labels": ["1", "2", "3", "4", "5", "6"], "by": None, "describe": "the race dice: 2 dice"}


def record(kind: str, data: dict[str, Any] | None = None, secrets: list[Any] | None = None) -> dict[str, Any]:
    return {"kind": kind, "actor": "system", "data": data or {}, "secrets": secrets or [], "version": 0}


AWAITED = record("OutcomeAwaited", {"seat": 1, "move": {"type": "roll"}, "needed": NEEDED})
ENTERED = record("OutcomeEntered", {"what": "the race dice", "outcome": [3, 4], "by": "referee:Rita"})
OPENING_KEPT = record("OutcomeEntered", {"what": OPENING, "by": "referee:Rita"}, [{"to": [], "value": {"outcome": {}}}])
NOTE = record("DisputeRaised", {"version": 3, "raised_by": "seat:0", "claim": "x"})
MOVED = record("DiceRolled", {"seat": 1, "faces": [3, 4], "counter": 7})


def test_a_wait_starts_gathers_outcomes_survives_notes_and_ends_with_the_move() -> None:
    waiting = pending_after(None, AWAITED)
    assert waiting is not None and waiting.seat == 1 and waiting.entered == ()
    waiting = pending_after(pending_after(waiting, ENTERED), NOTE)
    assert waiting is not None and waiting.entered == ([3, 4],)
    assert pending_after(waiting, MOVED) is None
    assert pending_after(None, ENTERED) is None and pending_after(None, OPENING_KEPT) is None


def test_pending_of_reads_the_same_from_the_end_of_a_record() -> None:
    records = [record("GameCreated"), OPENING_KEPT, MOVED, AWAITED, ENTERED, NOTE]
    folded = None
    for each in records:
        folded = pending_after(folded, each)
    assert pending_of(records) == folded and folded is not None
    assert pending_of([*records, MOVED]) is None and pending_of(records[:3]) is None


def test_a_wait_round_trips_through_json() -> None:
    waiting = pending_after(pending_after(None, AWAITED), ENTERED)
    assert waiting is not None and Pending.from_json(waiting.to_json()) == waiting
