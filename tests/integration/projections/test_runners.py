"""Runners on real stores: they follow the log, survive failures and kill -9 without
skipping or double-counting an event, and agree with a rebuild from zero."""

from __future__ import annotations

import gc
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from projections import handlers
from projections.batch import BULK_COLLECTION_THRESHOLD
from projections.projector import APPLICATION, OutOfStep, step_of
from projections.runner import PollingRunner, library_runner, log_end, projection_for, rebuild
from projections.store import ReadStore, read_db_url
from service.application import Caboose
from service.bootstrap import FollowedCaboose
from service.settings import Settings
from tests.conftest import POSTGRES_URL
from tests.integration.projections.conftest import everything, finished_games, fresh, play_random, unfinished_game

CABOOSE = str(Path(sys.executable).with_name("caboose"))


def test_a_runner_catches_up_and_equals_a_rebuild(app: Caboose, store: ReadStore) -> None:
    for records in finished_games(2):
        app.import_record(records)
    live = unfinished_game(app, 40)
    race = app.create_game("race", ["a", "b"], {"goal": 5}, seed=bytes(32))
    runner = PollingRunner(app, projection_for(app, store), batch_size=97)
    assert runner.catch_up() == log_end(app)
    assert runner.catch_up() == 0
    chooser = random.Random(1)
    for _ in range(15):
        play_random(app, live, chooser)
    while app.summary(race)["status"] == "active":
        app.play(race, app.summary(race)["active_seats"][0], {"type": "advance", "by": 2})
    runner.catch_up()
    assert everything(store) == fresh(app)
    assert store.max_tracking_id(APPLICATION) == log_end(app)
    assert {g["status"] for g in store.games()} == {"finished", "active"}
    race_scores = store.scores(race)["seats"]
    assert [s["by_source"] for s in race_scores] == [{"score": v} for v in app.summary(race)["scores"].values()]
    assert sorted(s["total"] for s in race_scores) == [0, 1]


def test_a_rebuild_runs_the_cyclic_collector_less_often_and_gives_its_thresholds_back(
        app: Caboose, store: ReadStore) -> None:
    unfinished_game(app, 30)
    before = gc.get_threshold()
    seen: list[tuple[int, ...]] = []
    rebuild(app, store, batch_size=10, progress=lambda _: seen.append(gc.get_threshold()))
    assert seen and set(seen) == {(BULK_COLLECTION_THRESHOLD, *before[1:])}
    assert gc.get_threshold() == before
    with pytest.raises(ZeroDivisionError):  # given back when a rebuild fails, too
        rebuild(app, store, progress=lambda _: 1 // 0)
    assert gc.get_threshold() == before


def test_a_failing_batch_commits_nothing_and_the_retry_counts_each_event_once(
        app: Caboose, store: ReadStore, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = unfinished_game(app, 60)
    projector = handlers.projector_for(app.game(game_id).decider)
    calls = {"n": 0}
    original = type(projector).apply

    def flaky(self, figures, event, state):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 12:
            raise RuntimeError("the disk is full")
        return original(self, figures, event, state)

    monkeypatch.setattr(type(projector), "apply", flaky)
    runner = PollingRunner(app, projection_for(app, store), batch_size=40)
    with pytest.raises(RuntimeError):
        runner.catch_up()
    tracked = store.max_tracking_id(APPLICATION) or 0
    assert 0 < tracked < log_end(app)
    runner.catch_up()
    assert everything(store) == fresh(app)


def test_a_notification_delivered_twice_is_projected_once(app: Caboose, store: ReadStore) -> None:
    game_id = unfinished_game(app, 30)
    projection = projection_for(app, store)
    notifications = app.recorder.select_notifications(start=0, limit=10000, inclusive_of_start=False)
    steps = [s for n in notifications if (s := step_of(app.mapper.to_domain_event(n), n.id))]
    half = len(steps) // 2
    projection.process(steps[:half], steps[half - 1].notification_id)
    # A second projection (another process) gets the whole log, then the first again.
    projection_for(app, store).process(steps, steps[-1].notification_id)
    projection.process(steps[half:], steps[-1].notification_id)
    assert everything(store) == fresh(app)
    assert store.scores(game_id)["version"] == app.game(game_id).version


def test_two_runners_at_once_while_games_are_played(app: Caboose, store: ReadStore) -> None:
    games = [unfinished_game(app, 5, seed=s) for s in range(3)]
    stop = threading.Event()
    errors: list[BaseException] = []

    def follow() -> None:
        runner = PollingRunner(app, projection_for(app, store), batch_size=7)
        try:
            runner.run_forever(stop, interval=0.01)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=follow) for _ in range(2)]
    for thread in threads:
        thread.start()
    chooser = random.Random(5)
    for _ in range(40):
        play_random(app, chooser.choice(games), chooser)
    deadline = time.monotonic() + 30
    while (store.max_tracking_id(APPLICATION) or 0) < log_end(app) and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    for thread in threads:
        thread.join()
    assert not errors
    assert everything(store) == fresh(app)


def test_the_read_models_may_live_in_another_database(app: Caboose, tmp_path: Path) -> None:
    game_id = unfinished_game(app, 20)
    elsewhere = ReadStore(f"sqlite:///{tmp_path}/elsewhere.sqlite")
    try:
        PollingRunner(app, projection_for(app, elsewhere)).catch_up()
        assert elsewhere.scores(game_id)["version"] == app.game(game_id).version
        assert everything(elsewhere) == fresh(app)
    finally:
        elsewhere.close()


def test_read_db_defaults() -> None:
    assert read_db_url("sqlite:///data/caboose.sqlite", env={}) == "sqlite:///data/caboose.projections.sqlite"
    assert read_db_url("memory", env={}) == "sqlite://"
    assert read_db_url("postgresql://u@h:5432/db", "s1", env={}) == "postgresql://u@h:5432/db?schema=s1"
    assert read_db_url("sqlite:///x.sqlite", env={"CABOOSE_READ_DB": "sqlite:///y.sqlite"}) == "sqlite:///y.sqlite"
    with pytest.raises(Exception, match="unsupported read database"):
        ReadStore("mysql://nope")


def test_a_runner_refuses_read_models_out_of_step(app: Caboose, store: ReadStore) -> None:
    game_id = unfinished_game(app, 10)
    runner = PollingRunner(app, projection_for(app, store))
    runner.catch_up()
    with store.writing() as session:
        store.clear(session)
        store.set_tracked(session, APPLICATION, log_end(app) - 1)
    play_random(app, game_id, random.Random(2))
    with pytest.raises(OutOfStep, match="rebuild"):
        PollingRunner(app, projection_for(app, store)).catch_up()


@pytest.mark.postgres
def test_the_library_runner_follows_postgres(postgres_app: Caboose, postgres_schema: str) -> None:
    from projections.store import read_store_for

    store = read_store_for(postgres_app)
    game_id = unfinished_game(postgres_app, 10)
    env = {"CABOOSE_DB": POSTGRES_URL, "POSTGRES_SCHEMA": postgres_schema}
    with library_runner(postgres_app, store, env, FollowedCaboose) as runner:
        chooser = random.Random(9)
        for _ in range(20):
            play_random(postgres_app, game_id, chooser)
        deadline = time.monotonic() + 30
        while (store.max_tracking_id(APPLICATION) or 0) < log_end(postgres_app) and time.monotonic() < deadline:
            runner.run_forever(timeout=0.05)
    assert store.max_tracking_id(APPLICATION) == log_end(postgres_app)
    assert everything(store) == fresh(postgres_app)
    store.close()


# -- kill -9 ------------------------------------------------------------------------------

def _follow(db: str, read_db: str, env: dict[str, str], *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([CABOOSE, "projections", "follow", "--db", db, "--read-db", read_db, "--batch", "3",
                             "--interval", "0.05", *extra], env={**os.environ, **env},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _wait_for(store: ReadStore, at_least: int, process: subprocess.Popen[bytes], stalled: float = 60) -> int:
    """The runner's position once it reached `at_least`; fails when it exits, or when it stands
    still for `stalled` seconds (a loaded machine slows it, a stuck runner stops it)."""
    last, deadline = -1, time.monotonic() + stalled
    while time.monotonic() < deadline:
        tracked = store.max_tracking_id(APPLICATION) or 0
        if tracked >= at_least:
            return tracked
        assert process.poll() is None, process.communicate()[1].decode()[-2000:]
        if tracked > last:
            last, deadline = tracked, time.monotonic() + stalled
        time.sleep(0.01)
    raise AssertionError(f"the runner stood still at {last} for {stalled} s, short of {at_least}")


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_a_runner_killed_mid_stream_resumes_exactly(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """Kill -9 twice while the log grows, restart each time, and compare with a rebuild:
    no event skipped, none counted twice (a repeated row would violate a primary key)."""
    if kind == "sqlite":
        db, env = f"sqlite:///{tmp_path}/events.sqlite", {}
        app = Caboose(Settings(db=db, snapshot_interval=10))
    else:
        schema = request.getfixturevalue("postgres_schema")
        db, env = POSTGRES_URL, {"POSTGRES_SCHEMA": schema}
        app = Caboose(Settings(db=db, snapshot_interval=10), env=env)
    read_db = f"sqlite:///{tmp_path}/read.sqlite" if kind == "sqlite" else read_db_url(db, env.get("POSTGRES_SCHEMA"))
    store = ReadStore(read_db)
    # The library's runner on PostgreSQL commits once per event: fewer events keep it quick.
    for records in finished_games(3 if kind == "sqlite" else 1, seed=11):
        app.import_record(records)
    live = unfinished_game(app, 10, seed=4)
    chooser = random.Random(3)
    try:
        for fraction in (0.3, 0.6):
            runner = _follow(db, read_db, env)
            tracked = _wait_for(store, int(log_end(app) * fraction), runner)
            runner.send_signal(signal.SIGKILL)
            runner.wait()
            assert tracked < log_end(app), "the runner finished before it could be killed mid-stream"
            for _ in range(10):
                play_random(app, live, chooser)
        runner = _follow(db, read_db, env)
        _wait_for(store, log_end(app), runner)
        runner.send_signal(signal.SIGTERM)
        assert runner.wait(timeout=30) == 0, runner.communicate()[1].decode()[-2000:]
        assert everything(store) == fresh(app)
    finally:
        store.close()
        app.close()
