"""Seats nobody named get people's names: games played by `caboose simulate` and the demo's
bots, and the players of `caboose tournament simulate`, read "Dara claimed ..." on every page
and in every export, never "player 3" (a seat number where a name belongs). The names are
drawn from one list by the run's seed: the same seed names the seats alike on every run."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from domain import games
from service.application import Caboose
from service.lobby import Lobby
from service.people import FIRST_NAMES, seat_names
from service.settings import Settings
from service.simulation import game_seed, play_in_memory, play_one

NUMBERED = re.compile(r"\bplayer\s*\d", re.IGNORECASE)


def test_names_differ_seat_to_seat_and_repeat_with_their_seed() -> None:
    four = seat_names(4, game_seed(3, 0))
    assert len(set(four)) == 4 and set(four) <= set(FIRST_NAMES)
    assert seat_names(4, game_seed(3, 0)) == four  # the same run names its seats alike
    others = {tuple(seat_names(4, game_seed(3, index))) for index in range(1, 6)}
    assert others - {tuple(four)}, "another seed draws other names"
    many = seat_names(3 * len(FIRST_NAMES) + 5, 7)
    assert len(set(many)) == len(many) and not any(NUMBERED.search(name) for name in many)
    assert {name.split()[0] for name in many} == set(FIRST_NAMES)


@pytest.mark.parametrize("per_move", [False, True], ids=["held", "per-move"])
@pytest.mark.parametrize("through_lobby", [False, True], ids=["events-only", "lobby"])
def test_a_simulated_game_seats_named_people(tmp_path: Path, per_move: bool, through_lobby: bool) -> None:
    app = Caboose(Settings(db=f"sqlite:///{tmp_path}/names.sqlite"))
    seed = game_seed(5, 1)
    played = play_one(app, "ticket_to_ride", 3, seed, random.Random(5), check=False,
                      lobby=Lobby(app) if through_lobby else None, per_move=per_move, stop_after=12)
    assert app.game(played.game_id).seats == seat_names(3, seed)
    said = json.dumps([r["data"] for r in app.records(played.game_id)])
    assert not NUMBERED.search(said), NUMBERED.search(said)


def test_a_game_played_in_memory_seats_named_people() -> None:
    table = play_in_memory(games.current("railway_boom"), ["random", "random"], game_seed(2, 0), random.Random(2))
    assert not NUMBERED.search(repr(table.state)), NUMBERED.search(repr(table.state))


def test_caboose_simulate_names_its_seats(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/sim.sqlite"
    done = CliRunner().invoke(cli, ["simulate", "toot_toot", "--games", "2", "--players", "3", "--seed", "9",
                                    "--no-check", "--db", db], catch_exceptions=False)
    assert done.exit_code == 0, done.output
    app = Caboose(Settings(db=db))
    named = [app.game(json.loads(line)["game_id"]).seats for line in done.stdout.splitlines()]
    assert named == [seat_names(3, game_seed(9, 0)), seat_names(3, game_seed(9, 1))]
    text = CliRunner().invoke(cli, ["export", json.loads(done.stdout.splitlines()[0])["game_id"], "--text", "--db", db])
    assert text.exit_code == 0 and named[0][0] in text.output and not NUMBERED.search(text.output), text.output


def test_caboose_tournament_simulate_registers_named_players() -> None:
    done = CliRunner().invoke(cli, ["tournament", "simulate", "railway_boom", "--players", "6", "--format", "swiss",
                                    "--rounds", "1", "--table-size", "3", "--seed", "4", "--json"],
                              catch_exceptions=False)
    assert done.exit_code == 0, done.output
    answer = json.loads(done.output.splitlines()[-1])
    assert answer["finished"] and answer["top"]
    assert {row["player"] for row in answer["top"]} <= set(seat_names(6, 4))
