"""The `caboose` command end to end on a real SQLite file: new, state, events,
legal-moves, move, audit, export, import, simulate; and clear errors that change nothing."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli import main
from cli.main import cli
from projections.batch import BULK_COLLECTION_THRESHOLD
from service.simulation import play_one

SEED = "cd" * 32


def run(*args: str, ok: bool = True) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert (result.exit_code == 0) == ok, result.output
    return result.output


def finished_game(db: str) -> str:
    game_id = run("new", "ticket_to_ride", "--player", "ann", "--player", "bob", "--seed", SEED, "--db", db).splitlines()[0]
    for _ in range(3000):
        summary = json.loads(run("state", game_id, "--db", db, "--json"))
        if summary["state"]["phase"] == "over":
            return game_id
        seat = summary["state"]["active_seats"][0]
        move = run("legal-moves", game_id, "--seat", str(seat), "--db", db, "--json").splitlines()[-1]
        run("move", game_id, move, "--seat", str(seat), "--db", db)
    raise AssertionError("the game did not end")


def test_a_game_from_the_shell_audits_exports_and_verifies(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/cli.sqlite"
    game_id = finished_game(db)
    report = json.loads(run("audit", game_id, "--db", db, "--json"))
    assert report["ok"] and report["rules"]["ok"] and report["seed"]["ok"]
    exported = tmp_path / "game.jsonl"
    run("export", game_id, "--as", "public", "--db", db, "-o", str(exported))
    # The referee's short script, standard library only, written from FORMAT.md.
    script = Path(__file__).parents[2] / "docs" / "verify_record.py"
    verified = subprocess.run([sys.executable, str(script), str(exported)], capture_output=True, text=True)
    assert verified.returncode == 0 and verified.stdout.startswith("OK"), verified.stderr
    other = f"sqlite:///{tmp_path}/other.sqlite"
    assert run("import", str(exported), "--db", other).splitlines()[0] == game_id
    assert run("events", game_id, "--db", other, "--json") == run("events", game_id, "--db", db, "--json")


def test_a_tampered_import_is_refused_naming_the_version(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/cli.sqlite"
    game_id = finished_game(db)
    lines = run("export", game_id, "--db", db).splitlines()
    record = json.loads(lines[9])
    record["data"]["tampered"] = True
    lines[9] = json.dumps(record)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    other = f"sqlite:///{tmp_path}/other.sqlite"
    output = run("import", str(bad), "--db", other, ok=False)
    assert ("version: 10" in output and "hash_mismatch" in output) or "altered" in output
    assert run("state", game_id, "--db", other, ok=False).count("game_not_found") == 1


def test_bad_input_from_the_shell(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/cli.sqlite"
    game_id = run("new", "ticket_to_ride", "--player", "a", "--player", "b", "--seed", SEED, "--db", db).splitlines()[0]
    events_before = run("events", game_id, "--db", db, "--json")
    assert "not JSON" in run("move", game_id, "{draw", "--seat", "0", "--db", db, ok=False)
    assert "unknown_move_type" in run("move", game_id, '{"type": "fly"}', "--seat", "0", "--db", db, ok=False)
    assert "game_not_found" in run("state", "nope", "--db", db, ok=False)
    assert "unknown_game" in run("new", "chess", "--player", "a", "--db", db, ok=False)
    assert run("events", game_id, "--db", db, "--json") == events_before


def test_simulate_checks_invariants_and_reports_each_game() -> None:
    lines = run("simulate", "ticket_to_ride", "--games", "3", "--players", "4", "--seed", "5").splitlines()
    games = [json.loads(line) for line in lines]
    assert len(games) == 3 and all(len(g["scores"]) == 4 and g["events"] > 50 for g in games)
    again = [json.loads(line) for line in run("simulate", "ticket_to_ride", "--games", "3", "--players", "4", "--seed", "5").splitlines()]
    assert [(g["events"], g["scores"]) for g in again] == [(g["events"], g["scores"]) for g in games]


def test_simulate_plays_its_games_as_batch_work_and_gives_the_collector_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """The simulator's own loop (without --jobs) runs the cyclic collector less often, as
    its workers do, and the process's setting is given back after."""
    seen: list[int] = []

    def watched(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.get_threshold()[0])
        return play_one(*args, **kwargs)

    monkeypatch.setattr(main, "play_one", watched)
    before = gc.get_threshold()
    run("simulate", "race", "--games", "2", "--players", "2", "--option", "goal=3")
    assert seen == [BULK_COLLECTION_THRESHOLD] * 2
    assert gc.get_threshold() == before != (BULK_COLLECTION_THRESHOLD, *before[1:])


def test_simulate_passes_the_game_options_to_every_game(tmp_path: Path) -> None:
    """`--option` reaches each simulated game as `new` passes it: values read as JSON when
    they parse (round_limit=5 is a number), so a reference map can be played by name."""
    db = f"sqlite:///{tmp_path}/cli.sqlite"
    played = [json.loads(line) for line in run("simulate", "toot_toot", "--games", "2", "--players", "2", "--seed", "3",
                                               "--option", "map=ridge", "--option", "round_limit=5", "--db", db).splitlines()]
    assert len(played) == 2
    for game in played:
        records = [json.loads(line) for line in run("events", game["game_id"], "--db", db, "--json").splitlines()]
        assert records[0]["data"]["options"]["map"] == "ridge" and records[0]["data"]["options"]["round_limit"] == 5
        assert [r["data"]["map"] for r in records if r["kind"] == "MapChosen"] == ["ridge"]
        assert [r["kind"] for r in records][-2:] == ["GameEnded", "SeedRevealed"]
        turns = [r["kind"] for r in records if r["kind"] in ("TurnEnded", "ExtraTurnBegan")]
        assert turns.count("TurnEnded") - turns.count("ExtraTurnBegan") <= 5 * 2


def test_simulate_refuses_bad_options_and_stores_nothing(tmp_path: Path) -> None:
    from service.application import Caboose
    from service.settings import Settings

    db = f"sqlite:///{tmp_path}/cli.sqlite"
    base = ("simulate", "toot_toot", "--games", "2", "--players", "2", "--db", db)
    unknown_map = run(*base, "--option", "map=atlantis", ok=False)
    assert "bad_options" in unknown_map and "'atlantis' is not a map" in unknown_map and "harbour" in unknown_map
    assert "Unknown option 'colour'" in run(*base, "--option", "colour=red", ok=False)
    # A JSON string is a string: "5" is not a number of rounds.
    assert "round_limit, the most rounds a game lasts, must be a whole number" in run(*base, "--option", 'round_limit="5"', ok=False)
    assert "is not KEY=VALUE" in run(*base, "--option", "map", ok=False)
    assert Caboose(Settings(db=db)).game_ids() == []


def test_every_game_made_from_the_shell_is_listed_and_has_tokens(tmp_path: Path) -> None:
    """`new`, `import`, `referee fork` and `simulate --db` create games as the REST API does:
    with tokens, so `GET /api/v1/games` lists them and their tokens work there."""
    from service.api import create_app
    from service.application import Caboose
    from service.settings import Settings
    from tests.e2e.conftest import serving

    db = f"sqlite:///{tmp_path}/cli.sqlite"
    made = run("new", "race", "--player", "ann", "--player", "bob", "--option", "goal=6", "--db", db).splitlines()
    game_id = made[0]
    assert made[1].startswith("seat 0 (ann) token: ") and made[2].startswith("seat 1 (bob) token: ")
    assert made[3].startswith("referee token: ")
    simulated = json.loads(run("simulate", "race", "--games", "1", "--players", "2", "--no-check", "--db", db))["game_id"]
    exported = tmp_path / "simulated.jsonl"
    run("export", simulated, "--db", db, "-o", str(exported))
    other = f"sqlite:///{tmp_path}/other.sqlite"
    imported = json.loads(run("import", str(exported), "--db", other, "--json"))
    assert imported["game_id"] == simulated and set(imported["seat_tokens"]) == {"0", "1"} and imported["referee_token"]
    version = json.loads(run("state", game_id, "--db", db, "--json"))["version"]
    fork = json.loads(run("referee", "fork", game_id, "--at-version", str(version), "--reason", "what if",
                          "--referee", "Rita", "--db", db, "--json"))
    assert set(fork["seat_tokens"]) == {"0", "1"} and fork["referee_token"] and fork["game_id"] not in (game_id, simulated)
    with serving(Caboose(Settings(db=db))) as client:
        listed = {g["game_id"] for g in client.get("/api/v1/games").body["games"]}
        assert listed == {game_id, simulated, fork["game_id"]}
        moves = client.get(f"/api/v1/games/{fork['game_id']}/legal-moves", token=fork["seat_tokens"]["0"])
        referee = client.get(f"/api/v1/games/{fork['game_id']}/legal-moves?seat=1", token=fork["referee_token"])
        assert moves.status == referee.status == 200
    store = Caboose(Settings(db=other))
    with serving(store, create_app(store)) as client:
        assert [g["game_id"] for g in client.get("/api/v1/games").body["games"]] == [simulated]
        assert client.get(f"/api/v1/games/{simulated}/events", token=imported["referee_token"]).status == 200


def test_a_seat_the_game_does_not_have_is_refused_from_the_shell(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/cli.sqlite"
    game_id = run("new", "ticket_to_ride", "--player", "a", "--player", "b", "--player", "c", "--seed", SEED, "--db", db).splitlines()[0]
    for command in ("state", "events"):
        refused = run(command, game_id, "--as", "seat:7", "--db", db, ok=False)
        assert "bad_seat" in refused and "0 to 2" in refused
    assert "bad_seat" in run("legal-moves", game_id, "--seat", "7", "--db", db, ok=False)
    assert "bad_version" in run("state", game_id, "--at", "99999", "--db", db, ok=False)
    assert json.loads(run("state", game_id, "--as", "seat:2", "--db", db, "--json"))["state"]["seats"][2]["name"] == "c"
