"""Seats taken over by bots and move deadlines, pure: what each action records, what it
refuses (with nothing recorded), who holds which seat, and how the audit re-judges them."""

from __future__ import annotations

import copy

import pytest

from domain.core import referee, takeover
from domain.core.audit import audit
from domain.core.errors import IllegalMove, MalformedMove
from domain.core.kinds import DeadlinePassed, MoveDeadlineSet, SeatHandedBack, SeatTakenOver
from tests.forgery import reseal
from tests.unit.core.test_referee import REF, Table


def judge(table: Table, actor: str, action: referee.Action) -> list:
    return referee.judge(referee.Situation(table.records, table.history.decider, table.history.state), actor, action)


def record(table: Table, actor: str, action: referee.Action) -> list[dict]:
    return table._append(judge(table, actor, action), actor, f"a{len(table.records)}")


def test_a_referee_hands_a_seat_to_a_bot_and_back() -> None:
    table = Table()
    table.move()
    [taken] = record(table, REF, takeover.TakeOver(1, "playout", "Bob dropped out"))
    assert taken["kind"] == "SeatTakenOver" and taken["actor"] == REF
    assert taken["data"] == {"seat": 1, "bot": "race playout bot", "level": "playout", "by": REF, "reason": "Bob dropped out"}
    assert takeover.held(table.records) == {1: "playout"}
    [back] = record(table, REF, takeover.HandBack(1, "Bob is back"))
    assert back["data"] == {"seat": 1, "level": "playout", "by": REF, "reason": "Bob is back"}
    assert takeover.held(table.records) == {}
    assert audit(table.records).ok, audit(table.records).text()


@pytest.mark.parametrize(("actor", "action", "error", "code"), [
    (REF, takeover.TakeOver(0, "grandmaster", "x"), MalformedMove, "unknown_bot"),
    (REF, takeover.TakeOver(5, "random", "x"), MalformedMove, "bad_seat"),
    (REF, takeover.TakeOver(0, "random", ""), MalformedMove, "bad_field"),
    ("seat:0", takeover.TakeOver(1, "random", "x"), IllegalMove, "referee_only"),
    (REF, takeover.HandBack(0, "x"), IllegalMove, "seat_not_held_by_bot"),
    (REF, takeover.SetDeadline(0), MalformedMove, "bad_deadline"),
    (REF, takeover.SetDeadline(None), IllegalMove, "deadline_unchanged"),
    (REF, takeover.PassDeadline(0, "2025-01-01T00:00:00Z"), IllegalMove, "deadline_is_automatic"),
    ("system", takeover.PassDeadline(0, "2025-01-01T00:00:00Z"), IllegalMove, "no_deadline"),
])
def test_refusals_say_what_is_wrong(actor: str, action: referee.Action, error: type, code: str) -> None:
    table = Table()
    before = copy.deepcopy(table.records)
    with pytest.raises(error) as refused:
        judge(table, actor, action)
    assert refused.value.code == code and refused.value.message
    assert table.records == before


def test_an_unknown_level_names_the_levels_the_game_offers() -> None:
    with pytest.raises(MalformedMove) as refused:
        judge(Table(), REF, takeover.TakeOver(0, "grandmaster", "x"))
    assert "random" in refused.value.message and "playout" in refused.value.message


def test_a_seat_a_bot_holds_is_not_taken_over_again() -> None:
    table = Table()
    record(table, REF, takeover.TakeOver(0, "random", "gone"))
    with pytest.raises(IllegalMove) as refused:
        judge(table, REF, takeover.TakeOver(0, "playout", "stronger"))
    assert refused.value.code == "seat_held_by_bot" and "random" in refused.value.message


def test_nothing_is_taken_over_or_handed_back_in_a_finished_game() -> None:
    table = Table(goal=3)
    record(table, REF, takeover.TakeOver(1, "random", "gone"))
    table.move(3)
    assert table.history.decider.is_over(table.history.state)
    for action in (takeover.TakeOver(0, "random", "x"), takeover.HandBack(1, "x"), takeover.SetDeadline(60)):
        with pytest.raises(IllegalMove) as refused:
            judge(table, REF, action)
        assert refused.value.code == "game_over"


def test_a_deadline_passes_once_for_a_seat_to_act_and_the_audit_re_judges_it() -> None:
    table = Table()
    [set_] = record(table, REF, takeover.SetDeadline(3600))
    assert set_["data"] == {"seconds": 3600, "by": REF} and takeover.deadline(table.records) == 3600
    late = table.seat
    with pytest.raises(IllegalMove) as refused:
        judge(table, "system", takeover.PassDeadline(1 - late, set_["time"]))
    assert refused.value.code == "not_to_act"
    with pytest.raises(MalformedMove):
        judge(table, "system", takeover.PassDeadline(late, "2020-01-01T00:00:00Z"))
    [passed] = record(table, "system", takeover.PassDeadline(late, set_["time"]))
    assert passed["actor"] == "system"
    assert passed["data"] == {"seat": late, "seconds": 3600, "since": set_["time"], "level": "playout"}
    with pytest.raises(IllegalMove) as twice:
        judge(table, "system", takeover.PassDeadline(late, passed["time"]))
    assert twice.value.code == "deadline_passed"
    table.move()
    assert audit(table.records).ok, audit(table.records).text()


def test_a_forged_takeover_fails_the_audit() -> None:
    table = Table()
    record(table, REF, takeover.TakeOver(1, "playout", "gone"))
    forged = copy.deepcopy(table.records)
    forged[-1]["data"]["level"] = "grandmaster"
    report = audit(reseal(forged))
    assert not report.ok and report.first_problem["version"] == len(forged)


def test_the_kinds_are_core_notes_that_leave_the_game_state_alone() -> None:
    from domain.core.kinds import CORE, NOTES

    for kind in (SeatTakenOver, SeatHandedBack, MoveDeadlineSet, DeadlinePassed):
        assert kind in NOTES and kind in list(CORE)


def test_the_strongest_level_is_the_deadline_s() -> None:
    from domain.ticket_to_ride import DECIDER as TTR

    assert takeover.strongest(Table().history.decider) == "playout"
    assert takeover.strongest(TTR) in TTR.bots


def test_a_seat_a_bot_holds_neither_asks_nor_answers_a_takeback() -> None:
    table = Table()
    first = table.seat
    table.move()
    record(table, REF, takeover.TakeOver(first, "random", "gone"))
    with pytest.raises(IllegalMove) as asked:
        judge(table, f"seat:{first}", referee.RequestTakeback(first))
    assert asked.value.code == "seat_held_by_bot"
    table.move()  # the other seat moves, then asks to take it back
    other = 1 - first
    record(table, f"seat:{other}", referee.RequestTakeback(other))
    with pytest.raises(IllegalMove) as answered:
        judge(table, f"seat:{first}", referee.AnswerTakeback(True))
    assert answered.value.code == "seat_held_by_bot"
    [accepted, taken_back] = record(table, REF, referee.AnswerTakeback(True))
    assert (accepted["kind"], taken_back["kind"]) == ("TakebackAccepted", "MoveTakenBack")
    assert audit(table.records).ok, audit(table.records).text()
