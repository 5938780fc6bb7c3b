"""`caboose simulate --bots` on a real SQLite file, through the installed `caboose` command in
its own process (and, for the variations, the same command in this one): each seat played at
its level, the bots' moves re-adjudicated by the audit like any other, and an unknown level
refused (exit code 2) with nothing stored."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from cli.main import cli
from service.application import Caboose
from service.settings import Settings

CABOOSE = str(Path(sys.executable).parent / "caboose")


def caboose(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CABOOSE, *args], capture_output=True, text=True, timeout=300)


def invoke(*args: str) -> subprocess.CompletedProcess[str]:
    """The same command in this process (cheaper than starting one), answering alike."""
    result = CliRunner().invoke(cli, list(args))
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def test_levels_per_seat_in_seat_order_cycling(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/sim.sqlite"
    done = caboose("simulate", "ticket_to_ride", "--games", "1", "--players", "3", "--seed", "4",
                   "--bots", "greedy,random", "--db", db)
    assert done.returncode == 0, done.stderr
    played = [json.loads(line) for line in done.stdout.splitlines()]
    assert [game["levels"] for game in played] == [["greedy", "random", "greedy"]]
    for game in played:
        records = [json.loads(line) for line in invoke("events", game["game_id"], "--db", db, "--json").stdout.splitlines()]
        ended = next(r for r in records if r["kind"] == "GameEnded")["data"]
        assert ended["scores"] == game["scores"]
        # The greedy seats outscore the random one between them.
        assert game["scores"]["0"] > game["scores"]["1"] and game["scores"]["2"] > game["scores"]["1"]
        audit = invoke("audit", game["game_id"], "--db", db, "--json")
        assert audit.returncode == 0 and json.loads(audit.stdout)["rules"]["ok"], audit.stdout


def test_one_level_for_every_seat_and_the_default(tmp_path: Path) -> None:
    greedy = invoke("simulate", "ticket_to_ride", "--games", "1", "--players", "2", "--bots", "greedy", "--no-check")
    assert greedy.returncode == 0, greedy.stderr
    game = json.loads(greedy.stdout)
    assert game["levels"] == ["greedy", "greedy"] and all(score > 0 for score in game["scores"].values())
    default = invoke("simulate", "railway_boom", "--games", "1", "--players", "2", "--no-check")
    assert default.returncode == 0 and json.loads(default.stdout)["levels"] == ["playout", "playout"], default.stderr


def test_an_unknown_level_is_refused_naming_the_game_s_levels_and_stores_nothing(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/sim.sqlite"
    refused = caboose("simulate", "ticket_to_ride", "--games", "2", "--players", "2", "--bots", "expert", "--db", db)
    assert refused.returncode == 2 and refused.stdout == "", refused.stdout
    assert "Invalid value for --bots: ticket_to_ride has no 'expert' bot; its levels are random, playout, greedy, planner." \
        in refused.stderr, refused.stderr
    for asked in ("greedy,expert", "greedy,,random", ""):
        refused = invoke("simulate", "ticket_to_ride", "--games", "2", "--players", "2", "--bots", asked, "--db", db)
        assert refused.returncode == 2, (asked, refused.stdout, refused.stderr)
        assert "--bots" in refused.stderr and "random, playout, greedy, planner" in refused.stderr, refused.stderr
        assert refused.stdout == ""
    # A game without a greedy level names its own levels.
    other = invoke("simulate", "toot_toot", "--bots", "planner", "--db", db)
    assert other.returncode == 2 and "toot_toot has no 'planner' bot" in other.stderr
    assert Caboose(Settings(db=db)).game_ids() == []
