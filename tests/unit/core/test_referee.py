"""The referee's rules and events, pure: rewinds, takebacks, disputes, rulings,
adjustments, forks; how `History` folds them; and how the audit re-judges them."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from domain.core import fold, log, referee
from domain.core.audit import audit
from domain.core.decider import Setup
from domain.core.envelope import seal, seat_actor, verify_chain
from domain.core.errors import IllegalMove, MalformedMove, RecordError
from domain.core.events import Event
from domain.core.kinds import GameRewound, SeatJoined
from domain.core.randomness import SeededRandom, commitment
from domain.core.state import replace
from domain.ticket_to_ride import DECIDER as TTR
from domain.ticket_to_ride.claim_route import RouteClaimed
from tests.fakes.race import RACE
from tests.forgery import reseal
from tests.usa import ROUTE_POINTS, ROUTES

SEED = bytes(range(32))
REF = "referee:Ann Arbiter"


class Table:
    """A game recorded without the service: what the aggregate does, in a few lines."""

    def __init__(self, goal: int = 12, seats: int = 2) -> None:
        setup = Setup(tuple(f"p{i}" for i in range(seats)), RACE.options({"goal": goal}, seats))
        self.records: list[dict[str, Any]] = []
        self.rng = SeededRandom(SEED)
        self._append([log.game_created(RACE, setup, commitment(SEED), "client")], "system", "c0")
        self.history = fold.History(self.records[0])
        self._append(RACE.setup(self.history.state, self.rng), "system", "c0")

    def _append(self, events: list[Event], actor: str, command_id: str) -> list[dict[str, Any]]:
        out = []
        for event in events:
            record = seal(game_id="g", version=len(self.records) + 1, time="2025-01-01T00:00:00Z", actor=actor,
                          command_id=command_id, event=event,
                          prev_hash=self.records[-1]["hash"] if self.records else "0" * 64, new_salt=lambda: "00" * 16)
            self.records.append(record)
            if len(self.records) > 1:
                self.history.add(record)
            out.append(record)
        return out

    @property
    def seat(self) -> int:
        return min(RACE.active_seats(self.history.state))

    def move(self, by: int = 1) -> list[dict[str, Any]]:
        seat = self.seat
        events = log.play(RACE, self.history.state, seat, {"type": "advance", "by": by}, self.rng, SEED)
        return self._append(events, seat_actor(seat), f"m{len(self.records)}")

    def act(self, actor: str, action: referee.Action) -> list[dict[str, Any]]:
        situation = referee.Situation(list(self.records), RACE, self.history.state)
        return self._append(referee.judge(situation, actor, action), actor, f"r{len(self.records)}")

    def check_refused(self, actor: str, action: referee.Action, error: type = IllegalMove, code: str | None = None) -> None:
        before = copy.deepcopy(self.records)
        with pytest.raises(error) as caught:
            self.act(actor, action)
        assert self.records == before
        if code:
            assert caught.value.code == code, caught.value


def test_a_rewind_restores_the_state_and_play_goes_on() -> None:
    table = Table()
    table.move(2)
    quiet = table.records[-1]["version"]
    counter = table.history.state.counter
    table.move(3)
    table.move(1)
    rewound = table.act(REF, referee.Rewind(quiet, "a misread die"))
    assert rewound[0]["kind"] == log.GAME_REWOUND and rewound[0]["actor"] == REF
    assert rewound[0]["data"] == {"to_version": quiet, "reason": "a misread die", "referee": "Ann Arbiter", "dispute": None}
    assert table.history.state == table.history.at(quiet) and table.history.state.counter == counter
    table.move(3)
    assert table.history.state.counter == counter + 3
    assert verify_chain(table.records) == len(table.records)
    report = audit(table.records)
    assert report.ok, report.text()
    assert "1 referee or takeback actions re-judged" in report.rules.detail


def test_a_replay_meeting_a_rewind_folds_as_the_history_does_at_every_version() -> None:
    """`fold.replay` folds through a transient until it meets a rewind, then again by
    `History`: before, at and after the rewind it gives the history's state."""
    table = Table()
    table.move(2)
    quiet = table.records[-1]["version"]
    table.move(3)
    table.act(REF, referee.Rewind(quiet, "a misread die"))
    rewind = table.records[-1]["version"]
    table.move(1)
    for upto in range(2, len(table.records) + 1):
        replayed = fold.replay(table.records, upto=upto)
        assert replayed.version == upto and replayed.state == table.history.at(upto), upto
    assert fold.replay(table.records, upto=rewind).state == table.history.at(quiet)


@pytest.mark.parametrize("actor, action, error, code", [
    ("seat:0", referee.Rewind(3, "not a referee"), IllegalMove, "referee_only"),
    (REF, referee.Rewind(1, "before the opening"), IllegalMove, "bad_rewind"),
    (REF, referee.Rewind(99, "the future"), IllegalMove, "bad_rewind"),
    (REF, referee.Rewind(0, "zero"), MalformedMove, "bad_field"),
    (REF, referee.Rewind("3", "a string"), MalformedMove, "bad_field"),  # type: ignore[arg-type]
    (REF, referee.Rewind(3, "   "), MalformedMove, "bad_field"),
    (REF, referee.Rewind(3, "x" * 501), MalformedMove, "bad_field"),
    (REF, referee.Rewind(5, "ok", dispute=2), IllegalMove, "no_such_dispute"),
    ("referee:", referee.Rewind(3, "no name"), MalformedMove, "bad_referee"),
    ("referee:x\n", referee.Rewind(3, "bad name"), MalformedMove, "bad_referee"),
])
def test_bad_rewinds_are_refused_and_record_nothing(actor: str, action: referee.Action, error: type, code: str) -> None:
    table = Table()
    table.move(1)
    table.move(1)
    table.check_refused(actor, action, error, code)


def test_a_rewind_goes_only_to_a_version_that_ends_a_command() -> None:
    table = Table()
    opening = table.records[-1]["version"]
    records = table.move(3)
    assert len(records) == 1
    table.check_refused(REF, referee.Rewind(opening - 1, "inside the opening"), IllegalMove, "bad_rewind")
    table.act(REF, referee.Rewind(opening, "to the end of the opening"))
    assert table.history.state.counter == 0


def test_no_rewind_and_no_takeback_once_the_seed_is_revealed() -> None:
    table = Table(goal=3)
    table.move(3)
    assert table.records[-1]["kind"] == log.SEED_REVEALED
    table.check_refused(REF, referee.Rewind(table.records[0]["version"] + 3, "after the end"), IllegalMove, "seed_revealed")


def test_a_takeback_asked_and_accepted_undoes_the_last_move() -> None:
    table = Table()
    before = table.history.state
    mover = table.seat
    move = table.move(2)
    request = table.act(seat_actor(mover), referee.RequestTakeback(mover))
    assert request[0]["data"] == {"seat": mover, "to_version": move[0]["version"] - 1, "move": [move[0]["version"], move[-1]["version"]]}
    table.check_refused(seat_actor(mover), referee.AnswerTakeback(True), IllegalMove, "own_takeback")
    answer = table.act(seat_actor(1 - mover), referee.AnswerTakeback(True))
    assert [r["kind"] for r in answer] == [log.TAKEBACK_ACCEPTED, log.MOVE_TAKEN_BACK]
    assert answer[1]["actor"] == "system" and answer[0]["command_id"] == answer[1]["command_id"]
    assert table.history.state == before and table.seat == mover
    assert audit(table.records).ok


def test_a_refused_or_lapsed_takeback_changes_nothing() -> None:
    table = Table()
    mover = table.seat
    table.move(1)
    table.act(seat_actor(mover), referee.RequestTakeback(mover))
    table.check_refused(seat_actor(mover), referee.RequestTakeback(mover), IllegalMove, "takeback_pending")
    state = table.history.state
    refused = table.act(seat_actor(1 - mover), referee.AnswerTakeback(False, "no"))
    assert refused[0]["kind"] == log.TAKEBACK_REFUSED and table.history.state == state
    table.check_refused(seat_actor(1 - mover), referee.AnswerTakeback(True), IllegalMove, "no_pending_takeback")
    # Asking again is allowed; a move by the other seat lets the request lapse.
    table.act(seat_actor(mover), referee.RequestTakeback(mover))
    table.move(1)
    table.check_refused(REF, referee.AnswerTakeback(True), IllegalMove, "no_pending_takeback")
    assert audit(table.records).ok


def test_only_your_own_last_move_can_be_taken_back() -> None:
    table = Table()
    first = table.seat
    table.move(1)
    table.move(1)
    table.check_refused(seat_actor(first), referee.RequestTakeback(first), IllegalMove, "takeback_not_last_move")
    table.check_refused(seat_actor(1 - first), referee.RequestTakeback(first), IllegalMove, "not_your_takeback")
    table.check_refused(seat_actor(first), referee.RequestTakeback(7), MalformedMove, "bad_seat")


def test_with_three_seats_every_other_seat_must_accept_or_a_referee() -> None:
    table = Table(seats=3)
    mover = table.seat
    table.move(1)
    table.act(seat_actor(mover), referee.RequestTakeback(mover))
    others = [s for s in range(3) if s != mover]
    first = table.act(seat_actor(others[0]), referee.AnswerTakeback(True))
    assert [r["kind"] for r in first] == [log.TAKEBACK_ACCEPTED]
    table.check_refused(seat_actor(others[0]), referee.AnswerTakeback(True), IllegalMove, "already_answered")
    last = table.act(seat_actor(others[1]), referee.AnswerTakeback(True))
    assert [r["kind"] for r in last] == [log.TAKEBACK_ACCEPTED, log.MOVE_TAKEN_BACK]
    table.move(2)
    table.act(seat_actor(mover), referee.RequestTakeback(mover))
    assert [r["kind"] for r in table.act(REF, referee.AnswerTakeback(True))] == [log.TAKEBACK_ACCEPTED, log.MOVE_TAKEN_BACK]
    assert audit(table.records).ok


def test_a_move_that_drew_or_revealed_cannot_be_taken_back() -> None:
    draw = {"game_id": "g", "version": 9, "kind": "CardDrawn", "data": {"seat": 0, "source": "deck"},
            "secrets": [{"to": [0], "salt": "00", "value": {"card": "red"}}], "actor": "seat:0"}
    turned_up = {**draw, "kind": "MarketRefilled", "data": {"slot": 1, "card": "red"}, "secrets": [], "actor": "system"}
    rolled = {**draw, "kind": "Rolled", "data": {"random": {"below": 6, "value": 2}}, "secrets": []}
    claim = {**draw, "kind": "RouteClaimed", "data": {"seat": 0, "route": "Denver|Omaha", "cards": {"red": 4}, "trains_left": 41,
                                                      "points": 7}, "secrets": []}
    assert referee._draws_or_reveals(TTR, draw) and referee._draws_or_reveals(TTR, turned_up)
    assert referee._draws_or_reveals(RACE, rolled) and not referee._draws_or_reveals(TTR, claim)


def test_disputes_rulings_and_adjustments() -> None:
    table = Table()
    table.move(2)
    raised = table.act(REF, referee.RaiseDispute(4, "seat:1", "seat 0 moved twice"))[0]
    assert raised["data"] == {"version": 4, "raised_by": "seat:1", "claim": "seat 0 moved twice", "referee": "Ann Arbiter"}
    assert referee.disputes(table.records)[0]["status"] == "raised"
    table.check_refused(REF, referee.RaiseDispute(99, "seat:1", "future"), IllegalMove, "bad_version")
    table.check_refused(REF, referee.MakeRuling(raised["version"], "text", "maybe"), MalformedMove, "bad_field")
    table.check_refused(REF, referee.MakeRuling(2, "text", "upheld"), IllegalMove, "no_such_dispute")
    # race has no `adjust`: every adjustment is refused, with the reason.
    table.check_refused(REF, referee.Adjust(0, "vp", 2, "bonus"), IllegalMove, "adjustment_unsupported")
    table.check_refused(REF, referee.Adjust(0, "vp", 0, "nothing"), MalformedMove, "bad_field")
    table.check_refused(REF, referee.Adjust(0, "gold", 1, "?"), MalformedMove, "bad_field")
    table.check_refused(REF, referee.Adjust(5, "vp", 1, "?"), MalformedMove, "bad_seat")
    ruling = table.act(REF, referee.MakeRuling(raised["version"], "Dismissed: the log shows one move.", "dismissed"))[0]
    assert ruling["kind"] == log.RULING_MADE
    entry = referee.disputes(table.records)[0]
    assert entry["status"] == "ruled" and entry["ruling"]["outcome"] == "dismissed"
    table.check_refused(REF, referee.MakeRuling(raised["version"], "again", "upheld"), IllegalMove, "dispute_ruled")
    assert audit(table.records).ok


def test_ticket_to_ride_adjustments() -> None:
    state = TTR.initial_state(Setup(("a", "b"), TTR.options({}, 2)))
    length = ROUTES["Denver|Omaha"].length
    claimed = TTR.evolve(state, RouteClaimed(seat=1, route="Denver|Omaha", cards={}, trains_left=45 - length,
                                             points=ROUTE_POINTS[length]))
    after = log.adjusted(TTR, claimed, {"seat": 1, "kind": "vp", "amount": -3})
    assert after.seats[1].score == ROUTE_POINTS[length] - 3 and TTR.invariants(after) == []
    back = log.adjusted(TTR, claimed, {"seat": 1, "kind": "piece", "amount": 0, "detail": {"route": "Denver|Omaha"}})
    assert "Denver|Omaha" not in back.claims and back.seats[1].trains == 45 and back.seats[1].score == 0
    assert TTR.invariants(back) == []
    for bad, code in [({"kind": "cash", "amount": 3}, "adjustment_unsupported"),
                      ({"kind": "piece", "amount": 0, "detail": {"route": "Denver|Omaha"}, "seat": 0}, "not_claimed"),
                      ({"kind": "piece", "amount": 0, "detail": {"route": "Nowhere"}}, "unknown_route")]:
        with pytest.raises((IllegalMove, MalformedMove)) as caught:
            log.adjusted(TTR, claimed, {"seat": 1, **bad})
        assert caught.value.code == code


def test_a_forged_rewind_is_caught_by_the_audit() -> None:
    table = Table()
    table.move(1)
    table.move(1)
    table.act(REF, referee.Rewind(table.records[-1]["version"] - 1, "x"))
    # Move the rewind into the middle of the opening and re-chain: the chain holds, the rules do not.
    forged = copy.deepcopy(table.records)
    rewind = next(r for r in forged if r["kind"] == log.GAME_REWOUND)
    rewind["data"]["to_version"] = 2
    report = audit(reseal(forged))
    assert not report.ok and report.chain.ok and report.first_problem["version"] == rewind["version"]


def test_history_refuses_gaps_and_bad_rewinds() -> None:
    table = Table()
    table.move(1)
    history = fold.History(table.records[0])
    with pytest.raises(RecordError):
        history.add(table.records[2])
    with pytest.raises(RecordError):
        history.at(5)
    with pytest.raises(RecordError):
        fold.step(RACE, history.state, GameRewound(to_version=1, reason="r", referee="ref", dispute=None))


def test_a_fork_copies_the_history_under_a_new_id() -> None:
    table = Table()
    table.move(2)
    table.move(1)
    at = table.records[-2]["version"]
    copies = referee.fork_records(table.records, at, "fork")
    assert verify_chain(copies, game_id="fork") == at
    assert referee.same_history(copies, table.records) is None
    assert all(c["secrets"] == o["secrets"] and c["hash"] != o["hash"] for c, o in zip(copies, table.records, strict=False))
    with pytest.raises(IllegalMove):
        referee.fork_records(table.records, 0, "fork")


def test_a_seat_joins_once_under_its_own_name() -> None:
    table = Table(seats=3)
    joined = table.act("seat:1", referee.JoinSeat(1, "Bo"))[0]
    assert (joined["kind"], joined["actor"], joined["data"]) == (log.SEAT_JOINED, "seat:1", {"seat": 1, "name": "Bo"})
    assert referee.action_of(joined) == referee.JoinSeat(1, "Bo")
    table.check_refused("seat:1", referee.JoinSeat(1, "Bo again"), IllegalMove, "seat_taken")
    table.check_refused("seat:0", referee.JoinSeat(2, "Cy"), IllegalMove, "not_your_seat")
    table.check_refused(REF, referee.JoinSeat(2, "Cy"), IllegalMove, "not_your_seat")
    table.check_refused("seat:5", referee.JoinSeat(5, "Cy"), MalformedMove, "bad_seat")
    table.check_refused("seat:2", referee.JoinSeat(2, " "), MalformedMove, "bad_field")
    # A join is a note: the seat that moved last may still ask to take its move back.
    table.move(1)
    table.act("seat:2", referee.JoinSeat(2, "Cy"))
    assert table.act(f"seat:{table.records[-2]['data']['seat']}",
                     referee.RequestTakeback(table.records[-2]["data"]["seat"]))[0]["kind"] == log.TAKEBACK_REQUESTED
    assert audit(table.records).ok
    # A second join of the same seat, forged into the record and re-hashed, does not verify.
    forged = copy.deepcopy(table.records[: joined["version"]])
    forged = reseal([*forged, {**forged[-1], "command_id": "forged", "data": {"seat": 1, "name": "Mallory"}}])
    report = audit(forged)
    assert not report.ok and report.first_problem["version"] == forged[-1]["version"]


def test_a_joined_name_is_the_seat_name_in_the_state() -> None:
    state = TTR.initial_state(Setup(("Ann", "open seat 1"), TTR.options({}, 2)))
    after = fold.step(TTR, state, SeatJoined(seat=1, name="Bo"))
    assert [s.name for s in after.seats] == ["Ann", "Bo"] and after.seats[1] == replace(state.seats[1], name="Bo")
    race = RACE.initial_state(Setup(("a", "b"), RACE.options({"goal": 5}, 2)))
    assert fold.step(RACE, race, SeatJoined(seat=1, name="Bo")) == race


@pytest.mark.parametrize("kind, key", [
    (log.DISPUTE_RAISED, "claim"), (log.RULING_MADE, "outcome"), (log.GAME_REWOUND, "to_version"),
    (log.TAKEBACK_REQUESTED, "seat"), (log.TAKEBACK_REFUSED, "reason"), (log.SEAT_JOINED, "name"),
])
def test_a_referee_event_whose_data_does_not_fit_its_kind_fails_the_audit(kind: str, key: str) -> None:
    table = Table(seats=3)
    table.act("seat:2", referee.JoinSeat(2, "Cy"))
    table.move(2)
    raised = table.act(REF, referee.RaiseDispute(4, "seat:1", "seat 0 moved twice"))[0]
    table.act(REF, referee.MakeRuling(raised["version"], "It did.", "upheld"))
    table.move(1)
    table.act(REF, referee.Rewind(table.records[-2]["version"], "the ruling", dispute=raised["version"]))
    mover = table.seat
    table.move(1)
    table.act(seat_actor(mover), referee.RequestTakeback(mover))
    table.act(seat_actor((mover + 1) % 3), referee.AnswerTakeback(False, "no"))
    assert audit(table.records).ok
    # One field dropped and every hash recomputed: the record is read as its kind, and refused.
    forged = copy.deepcopy(table.records)
    record = next(r for r in forged if r["kind"] == kind)
    del record["data"][key]
    report = audit(reseal(forged))
    assert not report.ok and report.chain.ok and report.first_problem is not None
    assert report.first_problem["version"] == record["version"] and f"lacks {key}" in report.first_problem["what"]
