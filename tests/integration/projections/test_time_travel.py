"""Time travel: the read models at any version equal a fresh fold of the log to that
version — for random Ticket to Ride games at random versions (hypothesis), on each real
store, and for games a referee rewinds and adjusts at random."""

from __future__ import annotations

import contextlib
import random
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.core import fold, log
from domain.core.errors import RuleError
from projections.runner import PollingRunner, projection_for
from projections.store import ReadStore, VersionNotYet, read_db_url, read_store_for
from service import referee as desk
from service.application import Caboose
from service.databases import upgrade_databases
from service.settings import Settings
from service.simulation import game_seed, play_one
from tests.conftest import POSTGRES_URL
from tests.integration.projections.conftest import finished_games, play_random, unfinished_game
from tests.usa import ROUTE_POINTS, ROUTES

SOURCES = ("routes", "tickets", "longest_path")


@dataclass
class Fold:
    """The oracle: what a fresh fold of the first N events says, version by version."""

    states: list[Any]
    by_source: list[list[dict[str, int]]]
    decider: Any

    @classmethod
    def of(cls, records: list[dict[str, Any]]) -> Fold:
        history = fold.History(records[0])
        seats = len(records[0]["data"]["seats"])
        states = [None, history.state]
        tallies: list[list[dict[str, int]]] = [[], [dict.fromkeys(SOURCES, 0) for _ in range(seats)]]
        for record in records[1:]:
            state = history.add(record)
            data, kind = record["data"], record["kind"]
            tally = [dict(t) for t in tallies[-1]]
            if kind in log.REWIND_KINDS:
                tally = [dict(t) for t in tallies[data["to_version"]]]
            elif kind == "RouteClaimed":
                tally[data["seat"]]["routes"] += data["points"]
            elif kind == "TicketScored":
                tally[data["seat"]]["tickets"] += data["points"]
            elif kind == "LongestPathScored":
                for seat in data["winners"]:
                    tally[seat]["longest_path"] += data["points"]
            elif kind == log.ADJUSTMENT_MADE and data["kind"] == "vp":
                tally[data["seat"]]["adjustment"] = tally[data["seat"]].get("adjustment", 0) + data["amount"]
            elif kind == log.ADJUSTMENT_MADE and data["kind"] == "piece":
                tally[data["seat"]]["routes"] -= ROUTE_POINTS[ROUTES[data["detail"]["route"]].length]
            states.append(state)
            tallies.append(tally)
        return cls(states, tallies, history.decider)

    def totals(self, version: int) -> list[int]:
        return [sum(t.values()) for t in self.by_source[version]]


def check_version(store: ReadStore, game_id: str, fold: Fold, at: int) -> None:
    state = fold.states[at]
    scores = store.scores(game_id, at)
    assert scores["version"] == at
    assert [s["by_source"] for s in scores["seats"]] == fold.by_source[at]
    # The oracle's tallies and the rules' own scores agree, and so do the read models.
    assert [s["total"] for s in scores["seats"]] == fold.totals(at) == [fold.decider.scores(state)[i] for i in range(len(state.seats))]
    assert store.board(game_id, at)["board"] == dict(sorted(state.claims.items()))
    income = store.income(game_id, at)["seats"]
    assert [s["tracks"] for s in income] == [{"trains": seat.trains} for seat in state.seats]
    assert all(s["income"] is None for s in income)


def check_timeline(store: ReadStore, game_id: str, fold: Fold, at: int) -> None:
    expected, previous = [], None
    for version in range(1, at + 1):
        totals = fold.totals(version)
        if totals != previous:
            expected.append({"version": version, "seats": {str(i): {"vp": v, "income": None} for i, v in enumerate(totals)}})
            previous = totals
    assert store.timeline(game_id, at)["points"] == expected


@dataclass
class Played:
    app: Caboose
    store: ReadStore
    folds: dict[str, Fold]
    ids: list[str]


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    schema = None
    if request.param == "sqlite":
        app = Caboose(Settings(db=f"sqlite:///{tmp_path_factory.mktemp('travel')}/events.sqlite", snapshot_interval=25))
    else:
        schema = f"caboose_test_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        upgrade_databases(Settings(db=POSTGRES_URL, schema=schema), read_db_url(POSTGRES_URL, schema))
        app = Caboose(Settings(db=POSTGRES_URL, snapshot_interval=25), env={"POSTGRES_SCHEMA": schema})
    try:
        ids = [app.import_record(records) for records in finished_games(3, seed=21)]
        ids.append(play_one(app, "ticket_to_ride", 4, game_seed(22, 0), random.Random(22), check=False).game_id)
        ids.append(unfinished_game(app, 60, seed=23))
        store = read_store_for(app)
        PollingRunner(app, projection_for(app, store)).catch_up()
        yield Played(app, store, {game_id: Fold.of(app.records(game_id)) for game_id in ids}, ids)
        store.close()
    finally:
        app.close()
        if schema:
            with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_projections_equal_a_fresh_fold_at_random_versions(played: Played, data: st.DataObject) -> None:
    game_id = data.draw(st.sampled_from(played.ids))
    fold = played.folds[game_id]
    at = data.draw(st.integers(min_value=1, max_value=len(fold.states) - 1))
    check_version(played.store, game_id, fold, at)


def test_timelines_and_the_index_equal_the_fold(played: Played) -> None:
    for game_id in played.ids:
        fold = played.folds[game_id]
        now = len(fold.states) - 1
        check_timeline(played.store, game_id, fold, now)
        state = fold.states[now]
        entry = next(g for g in played.store.games() if g["game_id"] == game_id)
        assert entry["version"] == now
        assert entry["active_seats"] == sorted(fold.decider.active_seats(state))
        assert entry["status"] == ("finished" if fold.decider.is_over(state) else "active")
        assert played.store.scores(game_id)["version"] == now
        with pytest.raises(VersionNotYet):
            played.store.scores(game_id, now + 1)


# -- with a referee at work ---------------------------------------------------------------

OPERATIONS = st.lists(st.one_of(
    st.tuples(st.just("moves"), st.integers(1, 40)),
    st.tuples(st.just("rewind"), st.floats(0, 1)),
    st.tuples(st.just("vp"), st.integers(0, 4), st.integers(-20, 20)),
    st.tuples(st.just("piece"), st.floats(0, 1)),
    st.tuples(st.just("dispute"), st.booleans()),
    st.tuples(st.just("takeback"), st.booleans()),
), min_size=1, max_size=12)


def referee_game(operations: list[tuple[Any, ...]], seed: int) -> tuple[Caboose, str]:
    app = Caboose(Settings(db="memory"))
    chooser = random.Random(seed)
    players = chooser.randint(2, 4)
    game_id = app.create_game("ticket_to_ride", [f"p{i}" for i in range(players)], seed=game_seed(seed, 1))
    for operation in operations:
        with contextlib.suppress(RuleError):  # a refused action changes nothing; the game goes on
            _operate(app, game_id, operation, chooser)
    return app, game_id


def _operate(app: Caboose, game_id: str, operation: tuple[Any, ...], chooser: random.Random) -> None:
    name = operation[0]
    game = app.game(game_id)
    if name == "moves":
        for _ in range(operation[1]):
            if app.game(game_id).is_over:
                return
            play_random(app, game_id, chooser)
    elif name == "rewind":
        quiet = [g[-1]["version"] for g in _groups(app.records(game_id))]
        desk.rewind(app, game_id, "rita", quiet[int(operation[1] * (len(quiet) - 1))], "property test")
    elif name == "vp":
        desk.adjust(app, game_id, "rita", operation[1] % len(game.seats), "vp", operation[2] or 1, "property test")
    elif name == "piece":
        claims = sorted(game.state.claims.items())
        if claims:
            route, seat = claims[int(operation[1] * (len(claims) - 1))]
            desk.adjust(app, game_id, "rita", seat, "piece", 0, "property test", {"route": route})
    elif name == "dispute":
        raised = desk.raise_dispute(app, game_id, "rita", game.version, "seat:0", "claim")[0]
        if operation[1]:
            desk.rule(app, game_id, "rita", raised["version"], "ruled", "dismissed")
    elif name == "takeback":
        records = app.records(game_id)
        mover = next((r for r in reversed(records) if r["actor"].startswith("seat:")), None)
        if mover is not None:
            seat = int(mover["actor"][5:])
            desk.request_takeback(app, game_id, seat)
            desk.answer_takeback(app, game_id, operation[1], referee_name="rita")


def _groups(records: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    from domain.core.envelope import group_by_command

    return group_by_command(records)[1:] or group_by_command(records)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operations=OPERATIONS, seed=st.integers(0, 10**6), data=st.data())
def test_rewinds_and_adjustments_show_as_a_fold_says(operations: list[tuple[Any, ...]], seed: int, data: st.DataObject) -> None:
    app, game_id = referee_game(operations, seed)
    store = ReadStore("sqlite://")
    try:
        PollingRunner(app, projection_for(app, store), batch_size=50).catch_up()
        records = app.records(game_id)
        fold = Fold.of(records)
        versions = data.draw(st.lists(st.integers(1, len(records)), min_size=1, max_size=15))
        for at in [*versions, len(records)]:
            check_version(store, game_id, fold, at)
        check_timeline(store, game_id, fold, len(records))
        report = desk.full_audit(app, game_id, projections=False)
        assert report.ok, report.text()
    finally:
        store.close()
