"""Age of Steam on the read models: for random games at random versions, the board, the
income tracks, the VP by source and the timeline equal a fresh fold of the log to that
version (the rules' own scoring, the state's income and track), in the read store and over
HTTP."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.age_of_steam.figures import AgeOfSteamProjector
from domain.age_of_steam.scoring import sources
from domain.age_of_steam.state import State
from domain.core import fold
from projections.handlers import projector_for
from projections.runner import PollingRunner, projection_for
from projections.store import ReadStore, read_store_for
from service.api import create_app
from service.application import Caboose
from service.settings import Settings
from service.simulation import game_seed, play_one
from tests.rust_belt import MAP


@dataclass
class Fold:
    """The oracle: the state after each version, from the records alone."""

    states: list[Any]
    decider: Any

    @classmethod
    def of(cls, records: list[dict[str, Any]]) -> Fold:
        history = fold.History(records[0])
        states = [None, history.state]
        states.extend(history.add(record) for record in records[1:])
        return cls(states, history.decider)

    def totals(self, version: int) -> list[int]:
        state = self.states[version]
        scores = self.decider.scores(state)
        return [scores[seat] for seat in range(len(state.seats))]


def expected_board(state: State) -> dict[str, Any]:
    cells: dict[str, dict[str, Any]] = {}
    for hex_, placed in state.board.items():
        cells[hex_] = {"tile": placed.tile, "rotation": placed.rotation, "owners": list(placed.owners), "town_disc": placed.disc}
    for hex_, letter in state.new_cities.items():
        cells.setdefault(hex_, {})["new_city"] = letter
    return dict(sorted(cells.items()))


def check_version(store: ReadStore, game_id: str, fold: Fold, at: int) -> None:
    state = fold.states[at]
    scores = store.scores(game_id, at)
    assert scores["version"] == at
    assert [s["by_source"] for s in scores["seats"]] == [sources(MAP, state, seat) for seat in range(len(state.seats))]
    assert [s["total"] for s in scores["seats"]] == fold.totals(at)
    assert store.board(game_id, at)["board"] == expected_board(state)
    income = store.income(game_id, at)["seats"]
    assert [s["income"] for s in income] == [seat.income for seat in state.seats]
    assert [s["tracks"] for s in income] == [
        {"shares": seat.shares, "locomotive": seat.locomotive, "cash": seat.cash} for seat in state.seats
    ]


def check_timeline(store: ReadStore, game_id: str, fold: Fold, at: int) -> None:
    expected, previous = [], None
    for version in range(1, at + 1):
        state = fold.states[version]
        point = {str(i): {"vp": vp, "income": state.seats[i].income} for i, vp in enumerate(fold.totals(version))}
        if point != previous:
            expected.append({"version": version, "seats": point})
            previous = point
    assert store.timeline(game_id, at)["points"] == expected


@dataclass
class Played:
    app: Caboose
    store: ReadStore
    folds: dict[str, Fold]
    ids: list[str]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    app = Caboose(Settings(db=f"sqlite:///{tmp_path_factory.mktemp('steam')}/events.sqlite", snapshot_interval=50))
    try:
        ids = [play_one(app, "age_of_steam", players, game_seed(31, players), random.Random(players), check=False).game_id
               for players in (3, 4)]
        # One left half-way: the newest version is not the end.
        unfinished = app.create_game("age_of_steam", ["a", "b", "c"], seed=game_seed(32, 0))
        chooser = random.Random(32)
        for _ in range(60):
            game = app.game(unfinished)
            if game.decider.is_over(game.state):
                break
            seat = chooser.choice(sorted(game.decider.active_seats(game.state)))
            moves = game.decider.legal_moves(game.state, seat)
            app.play(unfinished, seat, game.decider.playout_choice(game.state, seat, moves, chooser))
        assert not app.game(unfinished).is_over
        ids.append(unfinished)
        store = read_store_for(app)
        PollingRunner(app, projection_for(app, store)).catch_up()
        yield Played(app, store, {game_id: Fold.of(app.records(game_id)) for game_id in ids}, ids)
        store.close()
    finally:
        app.close()


def test_age_of_steam_has_its_own_projector(played: Played) -> None:
    decider = played.folds[played.ids[0]].decider
    assert isinstance(projector_for(decider), AgeOfSteamProjector)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_projections_equal_a_fresh_fold_at_random_versions(played: Played, data: st.DataObject) -> None:
    game_id = data.draw(st.sampled_from(played.ids))
    fold = played.folds[game_id]
    at = data.draw(st.integers(min_value=1, max_value=len(fold.states) - 1))
    check_version(played.store, game_id, fold, at)


def test_every_version_of_one_game_and_the_timelines_equal_the_fold(played: Played) -> None:
    fold = played.folds[played.ids[0]]
    for at in range(1, len(fold.states)):
        check_version(played.store, played.ids[0], fold, at)
    for game_id in played.ids:
        fold = played.folds[game_id]
        check_timeline(played.store, game_id, fold, len(fold.states) - 1)
    # The games exercised what is worth checking: track VP, new cities, abandoned track, bankruptcy.
    kinds = {r["kind"] for game_id in played.ids for r in played.app.records(game_id)}
    assert {"TrackBuilt", "CityUrbanized", "TrackAbandoned", "PlayerBankrupt", "GameEnded"} <= kinds
    assert max(s["by_source"]["track"] for s in played.store.scores(played.ids[1])["seats"]) > 0


def test_the_http_endpoints_answer_at_any_version(played: Played) -> None:
    client = create_app(played.app).test_client()
    game_id = played.ids[1]
    fold = played.folds[game_id]
    base = f"/api/v1/games/{game_id}"
    now = len(fold.states) - 1
    for at in sorted({1, now // 4, now // 2, (3 * now) // 4, now}):
        state = fold.states[at]
        scores = client.get(f"{base}/scores?at={at}")
        assert scores.status_code == 200, scores.get_json()
        assert [s["total"] for s in scores.get_json()["seats"]] == fold.totals(at)
        assert client.get(f"{base}/board?at={at}").get_json()["board"] == expected_board(state)
        income = client.get(f"{base}/income?at={at}").get_json()["seats"]
        assert [s["income"] for s in income] == [seat.income for seat in state.seats]
        assert client.get(f"{base}/timeline?at={at}").status_code == 200
