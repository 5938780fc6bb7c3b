"""The tournaments' read models (`projections/tournaments.py`) against what the records alone
give, on SQLite and PostgreSQL: after each kind of tournament event (a registration, a round
paired, a table's game ended, a ruling that changes a result, the end), the standings, the
tournament index and the ratings the read models hold are the ones computed from the events
(`service/tournament/views.computed`, `service/tournament/ratings.computed`), whether the
projection followed the log with its tournaments in memory, folded them again from the event
store (a fresh projection), or rebuilt everything from zero."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from projections.projector import APPLICATION
from projections.runner import (
    PollingRunner,
    library_runner,
    log_caught_up,
    log_end,
    merge_parts,
    projection_for,
    rebuild,
    rebuild_part,
    shares,
)
from projections.store import ReadStore, read_store_for
from projections.tournaments import stored_listing, stored_ratings, stored_standings
from service import referee as desk
from service.application import Caboose
from service.bootstrap import FollowedCaboose
from service.lobby import Lobby
from service.simulation import played_held
from service.tournament import ratings, views
from service.tournament.organiser import Organiser
from tests.conftest import POSTGRES_URL

PLAYERS = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def agree(organiser: Organiser, tournament_id: str, store: ReadStore) -> dict[str, Any]:
    """The read models hold what the records give; returns the standings."""
    standings = stored_standings(store, tournament_id)
    assert standings == views.computed(organiser.shelf.get(tournament_id))
    assert stored_ratings(store) == ratings.computed(organiser.caboose, organiser.shelf)
    listed = {t["tournament_id"]: t for t in stored_listing(store)}[tournament_id]
    state = organiser.shelf.get(tournament_id).state
    assert (listed["status"], listed["players"], listed["rounds"]) == (views.status(state), len(state.players), len(state.rounds))
    assert standings is not None
    return standings


def followed(app: Caboose, organiser: Organiser, tournament_id: str, fresh: bool) -> dict[str, Any]:
    """The read models caught up by the application's own projection (its tournaments kept
    in memory), or by a fresh one (each tournament folded again from the event store)."""
    if fresh:
        store = log_caught_up(app)  # reconciled and known, then followed by a projection with nothing in memory
        PollingRunner(app, projection_for(app, store)).catch_up()
    store = log_caught_up(app)
    return agree(organiser, tournament_id, store)


def test_standings_index_and_ratings_are_the_records_own_after_each_event(app: Caboose) -> None:
    tournament_id = play_a_tournament(app)  # checks the read models after each of its events
    standings = stored_standings(log_caught_up(app), tournament_id)
    assert standings is not None and standings["status"] == "finished"


def play_a_tournament(app: Caboose) -> str:
    """One Swiss tournament of nine, the read models checked after each of its events; returns its id."""
    organiser = Organiser(Lobby(app))
    created = organiser.create("Swiss", "ticket_to_ride", kind="swiss", rounds=2, table_size=4)
    tournament_id = created.tournament_id
    fresh = iter([False, True] * 50)
    first = followed(app, organiser, tournament_id, next(fresh))
    assert first["status"] == "registering" and first["standings"] == []
    for name in PLAYERS:
        organiser.register(tournament_id, name)
        followed(app, organiser, tournament_id, next(fresh))
    opened = organiser.pair(tournament_id)  # nine players at tables of four: 5 + 4, or 3 + 3 + 3
    paired = followed(app, organiser, tournament_id, next(fresh))
    assert paired["status"] == "running" and len(paired["standings"]) == len(PLAYERS)
    # One table's game played to its end by bots: its result recorded from the game.
    game = app.game(opened[0].game_id)
    played_held(app, game, ["random"] * len(opened[0].seats), random.Random(3), 20_000)
    assert organiser.settle(tournament_id)
    ended = followed(app, organiser, tournament_id, next(fresh))
    assert sum(row["games"] for row in ended["standings"]) == len(opened[0].seats)
    # The other tables by a referee's ruling; then a ruling that changes the first result.
    for table in opened[1:]:
        organiser.rule(tournament_id, table.game_id, "Rita", "Played out at the table.",
                       places=list(range(1, len(table.seats) + 1)))
        followed(app, organiser, tournament_id, next(fresh))
    before = {r["player"]: r for r in followed(app, organiser, tournament_id, next(fresh))["standings"]}
    result = organiser.shelf.get(tournament_id).state.table_of(opened[0].game_id).result
    assert result is not None
    game_places = list(result.places)
    # Other places than the game's: rotated (all level: a winner and the rest behind).
    places = game_places[1:] + game_places[:1] if len(set(game_places)) > 1 else [1] + [2] * (len(game_places) - 1)
    organiser.rule(tournament_id, opened[0].game_id, "Rita", "Scores misread at the table.", places=places)
    after = {r["player"]: r for r in followed(app, organiser, tournament_id, next(fresh))["standings"]}
    assert after != before
    assert [after[p]["wins"] - before[p]["wins"] for p in opened[0].seats] == [
        (new == 1) - (old == 1) for new, old in zip(places, game_places, strict=True)]
    rated_titles = stored_ratings(log_caught_up(app))
    assert {r.player for r in rated_titles["ticket_to_ride"]} == set(PLAYERS)
    # The second round, ruled, ends the tournament.
    for table in organiser.pair(tournament_id):
        organiser.rule(tournament_id, table.game_id, "Rita", "Played out at the table.",
                       places=list(range(1, len(table.seats) + 1)))
    organiser.settle(tournament_id)
    done = followed(app, organiser, tournament_id, next(fresh))
    assert done["status"] == "finished"
    # A rebuild from zero makes the same read models.
    store = log_caught_up(app)
    rebuild(app, store)
    projection_for(app, store)
    assert agree(organiser, tournament_id, store) == done
    return tournament_id


def rebuilt_in_parts(app: Caboose, folder: Path, parts: int) -> ReadStore:
    """The read models made as `caboose projections rebuild --jobs N` makes them: each part
    projects the games and tournaments it owns into a private store, then they are merged."""
    store = log_caught_up(app)
    sources = [ReadStore(f"sqlite:///{folder}/part-{parts}-{k}.sqlite") for k in range(parts)]
    try:
        position, shared = shares(app, parts)
        assert sorted(key for share in shared for key in share) == sorted(app.originators())  # each once
        done = [rebuild_part(app, source, shared[k], position) for k, source in enumerate(sources)]
        assert all(not part.failures for part in done), [part.failures for part in done]
        merge_parts(app, store, sources, log_end(app))
    finally:
        for source in sources:
            source.close()
    projection_for(app, store).forget()
    return store


def test_a_rebuild_in_parts_makes_the_same_standings_index_and_ratings(app: Caboose, tmp_path: Path) -> None:
    organiser = Organiser(Lobby(app))
    tournament_id = play_a_tournament(app)
    rated_id, _ = Lobby(app).open_game("ticket_to_ride", ["Ann", "Zoe", "Cleo"], rated=True)
    played_held(app, app.game(rated_id), ["random"] * 3, random.Random(8), 20_000)
    whole = log_caught_up(app)
    rebuild(app, whole)
    expected = (stored_standings(whole, tournament_id), stored_listing(whole), stored_ratings(whole))
    assert {r.player for r in expected[2]["ticket_to_ride"]} >= {"Zoe"}
    for parts in (2, 3):
        store = rebuilt_in_parts(app, tmp_path, parts)
        assert (stored_standings(store, tournament_id), stored_listing(store), stored_ratings(store)) == expected
        agree(organiser, tournament_id, store)


def test_games_created_rated_count_in_the_ratings_and_their_forks_do_not(app: Caboose) -> None:
    lobby = Lobby(app)
    shelf = Organiser(lobby).shelf
    rated_id, _ = lobby.open_game("ticket_to_ride", ["Ann", "Ben", "Cleo"], rated=True)
    plain_id, _ = lobby.open_game("ticket_to_ride", ["Dan", "Eve"])
    assert app.records(rated_id, upto=1)[0]["data"]["rated"] is True
    assert "rated" not in app.records(plain_id, upto=1)[0]["data"]
    assert stored_ratings(log_caught_up(app)) == ratings.computed(app, shelf) == {}  # not ended yet
    for game_id, seats in ((rated_id, 3), (plain_id, 2)):
        played_held(app, app.game(game_id), ["random"] * seats, random.Random(5), 20_000)
    read = stored_ratings(log_caught_up(app))
    assert read == ratings.computed(app, shelf)
    assert {(r.player, r.games) for r in read["ticket_to_ride"]} == {("Ann", 1), ("Ben", 1), ("Cleo", 1)}  # not Dan, Eve
    game = app.game(rated_id)
    finish = game.decider.finish(game.state)
    best = max(range(3), key=lambda seat: tuple(finish[seat]))
    if sum(tuple(finish[s]) == tuple(finish[best]) for s in range(3)) == 1:
        assert read["ticket_to_ride"][0].player == game.seats[best]
    # A fork (a what-if from an earlier version) copies the GameCreated but is not rated.
    commands = list(dict.fromkeys(r["command_id"] for r in app.records(rated_id)))
    at = max(r["version"] for r in app.records(rated_id) if r["command_id"] == commands[5])  # after a few moves
    fork_id = desk.fork(app, rated_id, "Rita", at, "What if the sixth command had gone otherwise?")
    played_held(app, app.game(fork_id), ["random"] * 3, random.Random(6), 20_000)
    assert app.game(fork_id).is_over
    assert stored_ratings(log_caught_up(app)) == ratings.computed(app, shelf) == read
    store = log_caught_up(app)
    rebuild(app, store)
    assert stored_ratings(store) == read


@pytest.mark.postgres
def test_the_library_runner_follows_a_tournament_on_postgres(postgres_app: Caboose, postgres_schema: str) -> None:
    """The eventsourcing library's runner (LISTEN/NOTIFY, one event a transaction) projects a
    tournament's records as the poller does: its standings are the records' own."""
    store = read_store_for(postgres_app)
    organiser = Organiser(Lobby(postgres_app))
    env = {"CABOOSE_DB": POSTGRES_URL, "POSTGRES_SCHEMA": postgres_schema}
    with library_runner(postgres_app, store, env, FollowedCaboose) as runner:
        tournament_id = organiser.create("Followed", "ticket_to_ride", kind="swiss", rounds=1, table_size=3).tournament_id
        for name in PLAYERS[:6]:
            organiser.register(tournament_id, name)
        for table in organiser.pair(tournament_id):
            organiser.rule(tournament_id, table.game_id, "Rita", "Entered by hand.", places=[1, 2, 3])
        organiser.settle(tournament_id)
        deadline = time.monotonic() + 60
        while (store.max_tracking_id(APPLICATION) or 0) < log_end(postgres_app) and time.monotonic() < deadline:
            runner.run_forever(timeout=0.05)
    assert store.max_tracking_id(APPLICATION) == log_end(postgres_app)
    followed = stored_standings(store, tournament_id)
    assert followed is not None and followed["status"] == "finished"
    assert followed == views.computed(organiser.shelf.get(tournament_id))
    assert stored_ratings(store) == ratings.computed(postgres_app, organiser.shelf)
    store.close()
