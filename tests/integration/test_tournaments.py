"""A tournament in the event store on SQLite and PostgreSQL: its tables' games stored with
its rounds, results recorded when games end, a ruling that moves the standings as an event,
the audit of the tournament and every game, export and import, and a tampered export refused
with nothing stored."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from domain.core.envelope import record_hash
from domain.core.errors import IllegalMove, RecordError
from domain.core.events import PUBLIC, REFEREE
from service.application import Caboose
from service.demo import play_tournaments, tournament_lines
from service.errors import GameNotFound
from service.lobby import Lobby
from service.referee import full_audit
from service.settings import Settings
from service.simulation import played_held
from service.tournament import transfer, views
from service.tournament.organiser import Opened, Organiser
from service.tournament.results import TableResults

PLAYERS = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus"]


def play(organiser: Organiser, opened: list[Opened], level: str = "random", seed: int = 1) -> None:
    """Each table's game to its end, every seat a bot, through the application."""
    for table in opened:
        aggregate = organiser.caboose.game(table.game_id)
        played_held(organiser.caboose, aggregate, [level] * len(table.seats), random.Random(f"{seed}:{table.game_id}"),
                    20_000)


def heats(organiser: Organiser) -> str:
    created = organiser.create("Heats", "ticket_to_ride", kind="heats", rounds=2, table_size=3, semifinal=0, final=3)
    for name in PLAYERS:
        organiser.register(created.tournament_id, name)
    return created.tournament_id


def test_a_heats_event_from_registration_to_its_revealed_secret(app: Caboose) -> None:
    organiser = Organiser(Lobby(app))
    tournament_id = heats(organiser)
    for _ in range(3):  # two heats, then the final
        opened = organiser.pair(tournament_id)
        play(organiser, opened)
    organiser.settle(tournament_id)
    state = organiser.shelf.get(tournament_id).state
    assert state.finished and state.secret is not None
    assert [r.stage for r in state.rounds] == ["heat", "heat", "final"]
    # Each table's game names its table, and its summary says so.
    table = state.tables[0]
    assert app.summary(table.game_id)["tournament"] == {"tournament": tournament_id, "round": 1, "table": 1}
    report = transfer.verify_stored(organiser, tournament_id)
    assert report.ok, report.text()
    assert all(full_audit(app, t.game_id, projections=False).ok for t in state.tables)


def test_a_round_and_its_table_games_are_stored_together(app: Caboose) -> None:
    organiser = Organiser(Lobby(app))
    tournament_id = heats(organiser)
    opened = organiser.pair(tournament_id)
    # Seven players at tables of three: a full table, then two short ones (a game of two).
    assert [len(t.seats) for t in opened] == [3, 2, 2] and sorted(p for t in opened for p in t.seats) == sorted(PLAYERS)
    kinds = [r["kind"] for r in organiser.shelf.records(tournament_id)]
    assert kinds[-4:] == ["RoundPaired", "TableSeated", "TableSeated", "TableSeated"]
    for table in opened:
        assert app.game(table.game_id).seats == list(table.seats)
    with pytest.raises(IllegalMove) as playing:
        organiser.pair(tournament_id)
    assert playing.value.code == "tables_playing" and opened[0].game_id in playing.value.message
    assert len(organiser.shelf.records(tournament_id)) == len(kinds)  # nothing stored


def test_results_are_recorded_by_the_follower_when_a_game_ends(app: Caboose) -> None:
    organiser = Organiser(Lobby(app))
    tournament_id = heats(organiser)
    opened = organiser.pair(tournament_id)
    play(organiser, opened[:1])
    follower = TableResults(organiser)
    stored = follower.run_once()
    tables = views.tables(organiser.shelf.get(tournament_id))
    assert stored == 1 and [t["status"] for t in tables] == ["finished", "playing", "playing"]
    assert follower.run_once() == 0  # settling again records nothing


def test_a_ruling_moves_the_standings_as_an_event_and_says_when_later_rounds_stand(app: Caboose) -> None:
    organiser = Organiser(Lobby(app))
    tournament_id = heats(organiser)
    play(organiser, organiser.pair(tournament_id))
    organiser.settle(tournament_id)
    table = organiser.shelf.get(tournament_id).state.tables[0]
    assert table.result is not None
    loser = table.seats[table.result.places.index(max(table.result.places))]
    before = {r["player"]: r for r in views.Standings(organiser.caboose).of(organiser.shelf, tournament_id)["standings"]}
    dispute = organiser.raise_dispute(tournament_id, table.game_id, 5, loser, "the last claim was miscounted")[0]["version"]
    play(organiser, organiser.pair(tournament_id))  # the next heat is paired before the ruling
    ruled = [1 if p == loser else 2 for p in table.seats]
    answer = organiser.rule(tournament_id, table.game_id, "referee", "recounted: the claim scored", dispute=dispute,
                            places=ruled)
    assert [r["kind"] for r in answer["game"]] == ["RulingMade"]
    assert [r["kind"] for r in answer["tournament"]] == ["ResultRuled"] and answer["paired_since"] == [2]
    assert "already paired" in answer["note"]
    after = {r["player"]: r for r in views.Standings(organiser.caboose).of(organiser.shelf, tournament_id)["standings"]}
    assert after[loser]["wins"] == before[loser]["wins"] + 1
    assert views.open_disputes(app, organiser.shelf.get(tournament_id).state) == []
    with pytest.raises(IllegalMove) as outside:
        organiser.rule(tournament_id, app.create_game("ticket_to_ride", ["x", "y"]), "referee", "no", places=[1, 2])
    assert outside.value.code == "not_in_tournament"


def finished_export(organiser: Organiser) -> list[dict[str, Any]]:
    tournament_id = heats(organiser)
    for _ in range(3):
        play(organiser, organiser.pair(tournament_id))
    organiser.settle(tournament_id)
    return list(transfer.exported(organiser, tournament_id, PUBLIC))


def test_an_export_imports_elsewhere_and_a_tampered_one_is_refused_storing_nothing(app: Caboose, tmp_path: Any) -> None:
    lines = finished_export(Organiser(Lobby(app)))
    tournament_id = lines[0]["tournament_id"]
    other = Caboose(Settings(db=f"sqlite:///{tmp_path}/other.sqlite"))
    elsewhere = Organiser(Lobby(other))
    # A result changed and every hash recomputed: refused where the places stop following the game.
    forged = [json.loads(json.dumps(r)) for r in lines]
    chain = [r for r in forged if "tournament_id" in r]
    finished = next(r for r in chain if r["kind"] == "TableFinished")
    finished["data"]["finish"] = list(reversed(finished["data"]["finish"]))
    finished["data"]["places"] = list(reversed(finished["data"]["places"]))
    prev = "0" * 64
    for record in chain:
        record["prev_hash"], record["hash"] = prev, None
        record["hash"] = prev = record_hash({k: v for k, v in record.items() if k != "hash"})
    with pytest.raises(RecordError) as refused:
        transfer.imported(elsewhere, forged)
    assert refused.value.code == "record_rejected"
    assert elsewhere.shelf.ids() == [] and other.game_ids() == []
    created, tokens = transfer.imported(elsewhere, lines)
    assert created.tournament_id == tournament_id and len(tokens) == len(other.game_ids())
    assert list(transfer.exported(elsewhere, tournament_id, REFEREE)) == lines
    with pytest.raises(GameNotFound):
        other.game(tournament_id)  # a tournament's id is no game's


def test_tables_played_with_physical_components_are_covered_for_their_seating_only(app: Caboose, tmp_path: Any) -> None:
    organiser = Organiser(Lobby(app))
    created = organiser.create("Boxes on tables", "lucky", kind="swiss", rounds=1, table_size=2, seed_source="table")
    for name in PLAYERS[:4]:
        organiser.register(created.tournament_id, name)
    waiting = organiser.pair(created.tournament_id)
    assert [t.game_id for t in waiting] == [None, None]  # each game waits for its opening as laid out
    with pytest.raises(IllegalMove) as early:
        organiser.pair(created.tournament_id)
    assert early.value.code == "tables_playing" and "not opened yet" in early.value.message
    opened = [organiser.open_table(created.tournament_id, 1, t.table, {"outcomes": [0]}) for t in waiting]
    for table, seated in zip(opened, waiting, strict=True):
        assert app.summary(str(table.game_id))["transcribed"] and app.game(str(table.game_id)).seats == list(seated.seats)
    with pytest.raises(IllegalMove) as twice:
        organiser.open_table(created.tournament_id, 1, 1, {"outcomes": [0]})
    assert twice.value.code == "no_table_waiting"
    for table in opened:  # the results as the referee entered them from the tables
        organiser.rule(created.tournament_id, str(table.game_id), "referee", "as played at the table", places=[2, 1])
    organiser.settle(created.tournament_id)
    report = transfer.verify_stored(organiser, created.tournament_id)
    assert report.ok and "seating only" in report.seed.detail, report.text()
    exported = tmp_path / "boxes.jsonl"
    exported.write_text("".join(json.dumps(r) + "\n" for r in transfer.exported(organiser, created.tournament_id, PUBLIC)))
    script = Path(__file__).parents[2] / "docs" / "verify_tournament.py"
    checked = subprocess.run([sys.executable, str(script), str(exported)], capture_output=True, text=True)
    assert checked.returncode == 0 and "covers the seating only" in checked.stdout, checked.stderr


def test_the_demo_stores_a_finished_and_a_running_tournament() -> None:
    organiser = Organiser(Lobby(Caboose(Settings(db="memory"))))
    made = play_tournaments(organiser)
    statuses = {label: views.status(organiser.shelf.get(tournament_id).state) for label, (tournament_id, _) in made.items()}
    assert statuses == {"finished": "finished", "running": "running"}
    lines = tournament_lines(made, "http://127.0.0.1:8000")
    assert f"http://127.0.0.1:8000/tournaments/{made['running'][0]}" in "\n".join(lines)
