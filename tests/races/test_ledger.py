"""The ledger's own checks, on a real SQLite store: it must see each broken promise the
concurrency tests and the fault suite rely on it to see."""

from __future__ import annotations

from service.application import Caboose
from tests.support.ledger import Sent, reconcile


def opened(app: Caboose) -> tuple[str, int]:
    """A new two-seat `race` game and the seat whose turn it is."""
    game_id = app.create_game("race", ["a", "b"])
    return game_id, int(app.summary(game_id)["active_seats"][0])


def test_a_move_told_to_its_own_request_is_kept(sqlite_app: Caboose) -> None:
    game_id, seat = opened(sqlite_app)
    records = sqlite_app.play(game_id, seat, {"type": "advance", "by": 1}, idempotency_key="k1")
    findings = reconcile(sqlite_app, [Sent(game_id, seat, "k1", 201, records)], [game_id])
    assert findings.problems == []
    assert (findings.acknowledged, findings.moves_stored) == (1, 1)


def test_a_201_showing_another_requests_move_is_caught(sqlite_app: Caboose) -> None:
    game_id, seat = opened(sqlite_app)
    records = sqlite_app.play(game_id, seat, {"type": "advance", "by": 1}, idempotency_key="winner")
    told = [Sent(game_id, seat, "winner", 201, records, 1), Sent(game_id, seat, "loser", 201, records, 2)]
    findings = reconcile(sqlite_app, told, [game_id])
    assert len(findings.acknowledged_missing) == 1
    assert "not this request's key" in findings.acknowledged_missing[0]
    assert len(findings.acknowledged_to_several) == 1


def test_a_201_whose_events_are_not_stored_is_caught(sqlite_app: Caboose) -> None:
    game_id, seat = opened(sqlite_app)
    records = sqlite_app.play(game_id, seat, {"type": "advance", "by": 1}, idempotency_key="k1")
    forged = [{**records[0], "hash": "0" * 64}]
    findings = reconcile(sqlite_app, [Sent(game_id, seat, "k1", 201, forged)], [game_id])
    assert findings.acknowledged_missing and "answered with hash" in findings.acknowledged_missing[0]


def test_a_move_stored_without_a_2xx_and_5xx_answers_are_caught(sqlite_app: Caboose) -> None:
    game_id, seat = opened(sqlite_app)
    sqlite_app.play(game_id, seat, {"type": "advance", "by": 1}, idempotency_key="k1")
    findings = reconcile(sqlite_app, [Sent(game_id, seat, "k1", 500)], [game_id])
    assert len(findings.stored_without_2xx) == 1
    assert findings.server_errors == 1
    assert len(findings.problems) == 2


def test_another_seats_events_are_caught(sqlite_app: Caboose) -> None:
    game_id, seat = opened(sqlite_app)
    records = sqlite_app.play(game_id, seat, {"type": "advance", "by": 1})
    other = 1 - seat
    findings = reconcile(sqlite_app, [Sent(game_id, other, None, 201, records)], [game_id])
    assert findings.acknowledged_missing and f"seat {other} was answered with the events of" in findings.acknowledged_missing[0]
