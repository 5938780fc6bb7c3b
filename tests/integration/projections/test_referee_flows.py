"""Referee tools on real stores: a dispute taken from raised to ruled with a rewind or an
adjustment while the projections follow; forks; takebacks; the audit verifies the whole
history; rules versions; bad input changes nothing."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from domain import games
from domain.core import fold, log, registry
from domain.core.envelope import group_by_command
from domain.core.errors import IllegalMove, MalformedMove, RuleError
from projections.runner import caught_up
from projections.store import ReadStore
from service import referee as desk
from service.application import Caboose
from service.errors import GameNotFound, VersionConflict
from tests.fakes.race import CounterAdvanced, Race, RaceState, RaceWon
from tests.integration.projections.conftest import play_random, unfinished_game


def quiet_versions(app: Caboose, game_id: str) -> list[int]:
    return [group[-1]["version"] for group in group_by_command(app.records(game_id))]


def test_a_dispute_settled_by_a_rewind_then_played_to_the_end_audits_clean(app: Caboose, store: ReadStore) -> None:
    game_id = unfinished_game(app, 50, seed=8)
    target = quiet_versions(app, game_id)[-6]
    before = {what: getattr(caught_up(app, game_id), what)(game_id, target)["board" if what == "board" else "seats"]
              for what in ("board", "scores", "income")}
    rng_position = app.game(game_id).rng_position
    disputed = desk.raise_dispute(app, game_id, "Rita", app.game(game_id).version, "seat:2", "seat 1 claimed out of turn")[0]
    assert [d["status"] for d in desk.disputes(app, game_id)] == ["raised"]
    rewound = desk.rewind(app, game_id, "Rita", target, "claim upheld", dispute=disputed["version"])[0]
    assert rewound["actor"] == "referee:Rita" and rewound["data"]["to_version"] == target
    assert app.game(game_id).rng_position == rng_position  # the random stream is not rewound
    desk.rule(app, game_id, "Rita", disputed["version"], "Upheld: rewound to before the claim.", "upheld")
    entry = desk.disputes(app, game_id)[0]
    assert entry["status"] == "ruled" and entry["actions"] == [{"version": rewound["version"], "kind": "GameRewound"}]
    store = caught_up(app, game_id)
    for what, shown in before.items():
        assert getattr(store, what)(game_id)["board" if what == "board" else "seats"] == shown
    assert [g["rewinds"] for g in store.games() if g["game_id"] == game_id] == [1]
    # Play goes on from the restored state, to the end; the audit re-derives every draw,
    # before and after the rewind, from the one continuing stream.
    chooser = random.Random(4)
    while not app.game(game_id).is_over:
        play_random(app, game_id, chooser)
    report = desk.full_audit(app, game_id)
    assert report.ok and report.seed.ok and report.extra["projections"].ok, report.text()
    assert app.records(game_id)[target - 1] == app.records(game_id, upto=target)[-1]  # nothing erased


def test_a_dispute_settled_by_an_adjustment(app: Caboose, store: ReadStore) -> None:
    game_id = unfinished_game(app, 80, seed=9)
    state = app.game(game_id).state
    route, owner = sorted(state.claims.items())[0]
    disputed = desk.raise_dispute(app, game_id, "Rita", 20, "seat:0", "that route was paid with the wrong colour")[0]
    desk.adjust(app, game_id, "Rita", owner, "piece", 0, "paid wrongly", {"route": route}, dispute=disputed["version"])
    desk.adjust(app, game_id, "Rita", 1 - owner if owner < 2 else 0, "vp", 3, "compensation", dispute=disputed["version"])
    desk.rule(app, game_id, "Rita", disputed["version"], "Upheld: the route is put back.", "upheld")
    assert route not in app.game(game_id).state.claims
    store = caught_up(app, game_id)
    assert route not in store.board(game_id)["board"]
    scores = store.scores(game_id)["seats"]
    assert [s["total"] for s in scores] == [app.game(game_id).decider.scores(app.game(game_id).state)[s["seat"]] for s in scores]
    assert any(s["by_source"].get("adjustment") == 3 for s in scores)
    report = desk.full_audit(app, game_id)
    assert report.ok, report.text()
    assert [r["kind"] for r in app.records(game_id)][-4:] == ["DisputeRaised", "AdjustmentMade", "AdjustmentMade", "RulingMade"]


def test_a_fork_copies_the_history_and_goes_its_own_way(app: Caboose, store: ReadStore) -> None:
    game_id = unfinished_game(app, 40, seed=10)
    at = quiet_versions(app, game_id)[-3]
    origin_before = app.records(game_id)
    fork_id = desk.fork(app, game_id, "Rita", at, "what if seat 1 had drawn tickets")
    assert app.records(game_id) == origin_before  # the origin is untouched
    forked = app.records(fork_id)
    assert len(forked) == at + 1 and forked[-1]["kind"] == log.FORKED_FROM
    assert forked[-1]["data"]["origin"] == game_id and forked[-1]["data"]["origin_hash"] == origin_before[at - 1]["hash"]
    assert app.game(fork_id).state == app.game(game_id, at=at).state
    chooser = random.Random(6)
    while not app.game(fork_id).is_over:
        play_random(app, fork_id, chooser)
    report = desk.full_audit(app, fork_id)
    assert report.ok and report.seed.ok and report.extra["fork"].ok and report.extra["projections"].ok, report.text()
    entry = next(g for g in caught_up(app, fork_id).games() if g["game_id"] == fork_id)
    assert entry["forked_from"] == {"game_id": game_id, "version": at}


def test_a_takeback_asked_and_accepted(app: Caboose, store: ReadStore) -> None:
    game_id = app.create_game("race", ["ann", "bob"], {"goal": 30}, seed=bytes(range(32)))
    mover = app.summary(game_id)["active_seats"][0]
    before = app.game(game_id).state
    app.play(game_id, mover, {"type": "advance", "by": 3})
    desk.request_takeback(app, game_id, mover)
    records = desk.answer_takeback(app, game_id, True, seat=1 - mover)
    assert [r["kind"] for r in records] == ["TakebackAccepted", "MoveTakenBack"]
    assert app.game(game_id).state == before
    assert caught_up(app, game_id).games()[0]["active_seats"] == [mover]
    assert desk.full_audit(app, game_id).ok


def test_in_ticket_to_ride_only_a_move_that_drew_and_revealed_nothing_can_be_taken_back(app: Caboose) -> None:
    game_id = unfinished_game(app, 8, seed=12)
    chooser = random.Random(12)
    seen = {"refused": 0, "allowed": 0}
    for _ in range(200):
        play_random(app, game_id, chooser)
        group = group_by_command(app.records(game_id))[-1]
        mover = int(group[0]["actor"][5:])
        drew = any(r["secrets"] or r["kind"] in ("MarketRefilled", "MarketCardTurnedUp") or "random" in r["data"] for r in group)
        before = app.records(game_id)
        if drew:
            with pytest.raises(IllegalMove) as caught:
                desk.request_takeback(app, game_id, mover)
            assert caught.value.code == "takeback_after_draw" and app.records(game_id) == before
            seen["refused"] += 1
        elif group[0]["kind"] == "RouteClaimed":
            desk.request_takeback(app, game_id, mover)
            desk.answer_takeback(app, game_id, True, referee_name="Rita")
            assert app.game(game_id).state == app.game(game_id, at=group[0]["version"] - 1).state
            seen["allowed"] += 1
        if min(seen.values()) >= 2:
            break
    assert min(seen.values()) >= 2, seen
    assert desk.full_audit(app, game_id).ok


def bad_actions(game_id: str) -> list[tuple[Callable[[Caboose], Any], type]]:
    return [
        (lambda app: desk.rewind(app, game_id, "Rita", 1, "before the opening"), IllegalMove),
        (lambda app: desk.rewind(app, game_id, "Rita", 10**6, "the future"), IllegalMove),
        (lambda app: desk.rewind(app, game_id, "", 20, "no name"), MalformedMove),
        (lambda app: desk.rewind(app, game_id, "Rita", 20, ""), MalformedMove),
        (lambda app: desk.rewind(app, game_id, "Rita", 20, "stale", expected_version=3), VersionConflict),
        (lambda app: desk.rewind(app, "00000000-0000-0000-0000-000000000000", "Rita", 20, "x"), GameNotFound),
        (lambda app: desk.fork(app, game_id, "Rita", 0, "x"), IllegalMove),
        (lambda app: desk.fork(app, game_id, "Rita", 10**6, "x"), IllegalMove),
        (lambda app: desk.fork(app, game_id, "Rita", 20, "x", seed=b"short"), MalformedMove),
        (lambda app: desk.fork(app, "nope", "Rita", 20, "x"), GameNotFound),
        (lambda app: desk.adjust(app, game_id, "Rita", 0, "cash", 5, "no cash in this game"), IllegalMove),
        (lambda app: desk.adjust(app, game_id, "Rita", 9, "vp", 5, "no such seat"), MalformedMove),
        (lambda app: desk.adjust(app, game_id, "Rita", 0, "piece", 0, "unclaimed", {"route": "Denver|Omaha#9"}), MalformedMove),
        (lambda app: desk.rule(app, game_id, "Rita", 5, "no dispute there", "upheld"), IllegalMove),
        (lambda app: desk.raise_dispute(app, game_id, "Rita", 10**6, "seat:0", "the future"), IllegalMove),
        (lambda app: desk.request_takeback(app, game_id, -1), MalformedMove),
        (lambda app: desk.answer_takeback(app, game_id, True, seat=0), IllegalMove),
        (lambda app: desk.answer_takeback(app, game_id, True), MalformedMove),
    ]


def test_bad_referee_actions_are_refused_and_change_nothing(app: Caboose) -> None:
    game_id = unfinished_game(app, 30, seed=13)
    before = app.records(game_id)
    count = len(app.game_ids()) if hasattr(app, "game_ids") else None
    for action, error in bad_actions(game_id):
        with pytest.raises(error):
            action(app)
    assert app.records(game_id) == before
    if count is not None:
        assert len(app.game_ids()) == count


def test_two_referees_at_once_one_wins(app: Caboose) -> None:
    game_id = unfinished_game(app, 30, seed=14)
    version = app.game(game_id).version
    desk.adjust(app, game_id, "Rita", 0, "vp", 1, "first", expected_version=version)
    with pytest.raises(VersionConflict):
        desk.adjust(app, game_id, "Sam", 0, "vp", 1, "second", expected_version=version)
    assert app.game(game_id).version == version + 1


# -- rules versions -----------------------------------------------------------------------

class RaceV2(Race):
    """A later version of `race` with a changed rule: steps of 1 to 4."""

    ruleset_version = "2"

    def decide(self, state: RaceState, seat: int, move: Any, rng: Any) -> list[Any]:
        if move.get("type") == "advance" and move.get("by") == 4 and seat in self.active_seats(state):
            return self._advance(state, seat, 4)
        return super().decide(state, seat, move, rng)

    def _advance(self, state: RaceState, seat: int, by: int) -> list[Any]:

        counter = min(state.goal, state.counter + by)
        events: list[Any] = [CounterAdvanced(seat=seat, by=by, counter=counter)]
        if counter == state.goal:
            events.append(RaceWon(seat=seat, automatic=True))
        return events

    def legal_moves(self, state: RaceState, seat: int) -> list[dict[str, Any]]:
        return [*super().legal_moves(state, seat), *([{"type": "advance", "by": 4}] if seat in self.active_seats(state) else [])]


def test_old_games_replay_and_audit_under_their_own_ruleset_version(app: Caboose, monkeypatch: pytest.MonkeyPatch) -> None:
    old = app.create_game("race", ["ann", "bob"], {"goal": 9}, seed=bytes(32))
    while app.summary(old)["status"] == "active":
        app.play(old, app.summary(old)["active_seats"][0], {"type": "advance", "by": 3})
    old_records = app.records(old)
    v2 = RaceV2()
    monkeypatch.setitem(registry._RULESETS, ("race", "2"), v2)
    monkeypatch.setitem(registry._CURRENT, "race", v2)
    new = app.create_game("race", ["ann", "bob"], {"goal": 9}, seed=bytes(32))
    assert app.records(new, upto=1)[0]["data"]["ruleset_version"] == "2"
    app.play(new, app.summary(new)["active_seats"][0], {"type": "advance", "by": 4})
    assert app.game(new).state.counter == 4
    # The old game still replays, audits and projects under version 1, where 4 was illegal.
    assert app.records(old) == old_records and app.game(old).ruleset_version == "1"
    assert app.game(old).state == fold.replay(old_records).state
    report = desk.full_audit(app, old)
    assert report.ok and "race ruleset 1" in report.rules.detail, report.text()
    assert desk.full_audit(app, new).ok
    # Under version 1 the new game's move is illegal: the version recorded is what counts.
    forged = [dict(r) for r in app.records(new)]
    forged[0] = {**forged[0], "data": {**forged[0]["data"], "ruleset_version": "1"}}
    with pytest.raises(RuleError):
        log.play(games.ruleset("race", "1"), fold.replay(forged[:4]).state, forged[4]["data"]["seat"],
                 {"type": "advance", "by": 4}, None, None)  # type: ignore[arg-type]


def test_the_audit_names_read_models_that_differ_from_a_fresh_rebuild(app: Caboose, store: ReadStore) -> None:
    from sqlalchemy import select, update

    from projections.models import SeatFiguresChange

    game_id = unfinished_game(app, 60, seed=15)
    assert desk.full_audit(app, game_id).extra["projections"].ok
    with store.writing() as session:
        version = session.scalar(select(SeatFiguresChange.version).where(SeatFiguresChange.game_id == game_id,
                                                                         SeatFiguresChange.version > 1).limit(1))
        session.execute(update(SeatFiguresChange).where(SeatFiguresChange.game_id == game_id, SeatFiguresChange.version == version)
                        .values(vp=SeatFiguresChange.vp + 1))
    report = desk.full_audit(app, game_id)
    assert not report.ok and report.chain.ok and report.rules.ok and report.extra["projections"].ok is False
    assert report.first_problem == {"version": version, "what": "the read models' VP tallies and tracks differ from a fresh rebuild"}
    assert report.to_json()["projections"]["ok"] is False
