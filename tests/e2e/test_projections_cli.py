"""`caboose projections`, `caboose referee`, `caboose takeback`, `caboose bulk` and the
audit's projections check, end to end on real SQLite files; bad input changes nothing."""

from __future__ import annotations

import json
import random
from pathlib import Path

from click.testing import CliRunner

from cli.main import cli
from service.application import Caboose
from service.settings import Settings
from service.simulation import game_seed, play_one


def run(*args: str, ok: bool = True) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert (result.exit_code == 0) == ok, result.output
    return result.output


def stored_games(db: str, finished: int, moves: int = 30) -> tuple[list[str], str]:
    app = Caboose(Settings(db=db))
    ids = [play_one(app, "ticket_to_ride", 2, game_seed(40, i), random.Random(i), check=False).game_id for i in range(finished)]
    live = app.create_game("ticket_to_ride", ["ann", "bob"], seed=game_seed(41, 0))
    chooser = random.Random(41)
    for _ in range(moves):
        game = app.game(live)
        seat = chooser.choice(sorted(game.decider.active_seats(game.state)))
        app.play(live, seat, chooser.choice(game.decider.legal_moves(game.state, seat)))
    return ids, live


def test_rebuild_show_status_and_the_audit(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/events.sqlite"
    ids, live = stored_games(db, 2)
    result = CliRunner().invoke(cli, ["projections", "rebuild", "--db", db], catch_exceptions=False)
    assert result.exit_code == 0 and "rebuilt from" in result.output
    assert (tmp_path / "events.projections.sqlite").exists()
    status = json.loads(run("projections", "status", "--db", db, "--json"))
    assert status["behind"] == 0 and status["tracked"] == status["log_end"] > 0
    scores = json.loads(run("projections", "show", "scores", ids[0], "--at", "40", "--db", db))
    past = Caboose(Settings(db=db)).game(ids[0], at=40)
    assert [s["total"] for s in scores["seats"]] == [past.decider.scores(past.state)[i] for i in range(2)]
    index = json.loads(run("projections", "show", "index", "--db", db))
    assert [g["game_id"] for g in index] == [*ids, live]
    report = json.loads(run("audit", live, "--db", db, "--json"))
    assert report["ok"] and report["projections"]["ok"], report
    text = run("audit", ids[0], "--db", db)
    assert text.startswith("OK") and "projections" in text
    assert "no version 99999" in run("projections", "show", "board", live, "--at", "99999", "--db", db, ok=False)
    assert "game_not_found" in run("projections", "show", "board", "nope", "--db", db, ok=False)
    assert "needs a GAME_ID" in run("projections", "show", "scores", "--db", db, ok=False)
    assert "unsupported read database" in run("projections", "status", "--db", db, "--read-db", "mysql://x", ok=False)
    assert run("projections", "follow", "--once", "--db", db).strip() == "projected 0 events"


def test_a_referee_from_the_shell(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/events.sqlite"
    _, live = stored_games(db, 0, moves=40)
    app = Caboose(Settings(db=db))
    version = app.game(live).version
    raised = json.loads(run("referee", "dispute", live, "--version", str(version), "--raised-by", "seat:1",
                            "--claim", "wrong colour", "--referee", "Rita", "--db", db, "--json"))
    target = next(g for g in range(version - 5, 0, -1)
                  if app.records(live, upto=g + 1)[-1]["command_id"] != app.records(live, upto=g)[-1]["command_id"])
    rewound = json.loads(run("referee", "rewind", live, "--to-version", str(target), "--reason", "upheld",
                             "--dispute", str(raised["version"]), "--referee", "Rita", "--db", db, "--json"))
    assert rewound["kind"] == "GameRewound" and rewound["actor"] == "referee:Rita"
    run("referee", "adjust", live, "--seat", "0", "--kind", "vp", "--amount", "2", "--reason", "bonus", "--referee", "Rita", "--db", db)
    run("referee", "rule", live, "--dispute", str(raised["version"]), "--text", "Upheld", "--outcome", "upheld",
        "--referee", "Rita", "--db", db)
    assert json.loads(run("referee", "disputes", live, "--db", db))["status"] == "ruled"
    fork = run("referee", "fork", live, "--at-version", str(target), "--reason", "what if", "--referee", "Rita", "--db", db).splitlines()[0]
    assert json.loads(run("audit", fork, "--db", db, "--json"))["fork"]["ok"]
    before = run("events", live, "--db", db, "--json")
    for args in (["referee", "rewind", live, "--to-version", "1", "--reason", "x", "--referee", "Rita"],
                 ["referee", "rewind", live, "--to-version", str(target), "--reason", "", "--referee", "Rita"],
                 ["referee", "adjust", live, "--seat", "0", "--kind", "vp", "--amount", "1", "--reason", "x", "--referee", "Rita",
                  "--detail", "{nope"],
                 ["referee", "adjust", live, "--seat", "0", "--kind", "cash", "--amount", "1", "--reason", "x", "--referee", "Rita"],
                 ["referee", "rule", live, "--dispute", "3", "--text", "x", "--outcome", "upheld", "--referee", "Rita"],
                 ["takeback", "answer", live, "--accept", "--seat", "0"],
                 ["takeback", "answer", live, "--accept"],
                 ["referee", "fork", live, "--at-version", "2", "--reason", "x", "--referee", "Rita", "--seed", "xyz"]):
        run(*args, "--db", db, ok=False)
    assert run("events", live, "--db", db, "--json") == before
    race = app.create_game("race", ["a", "b"], {"goal": 10}, seed=bytes(32))
    mover = app.summary(race)["active_seats"][0]
    app.play(race, mover, {"type": "advance", "by": 1})
    run("takeback", "request", race, "--seat", str(mover), "--db", db)
    out = run("takeback", "answer", race, "--accept", "--seat", str(1 - mover), "--db", db)
    assert "MoveTakenBack" in out


def test_bulk_export_and_import(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/events.sqlite"
    ids, live = stored_games(db, 3)
    archive = tmp_path / "season.jsonl"
    run("bulk", "export", "--status", "finished", "--db", db, "-o", str(archive))
    other = f"sqlite:///{tmp_path}/archive.sqlite"
    results = [json.loads(line) for line in run("bulk", "import", str(archive), "--db", other, "--json").splitlines()]
    assert [(r["game_id"], r["ok"]) for r in results] == [(game_id, True) for game_id in ids]
    # Importing again refuses every game (already stored); a tampered game is refused, the rest stored.
    again = run("bulk", "import", str(archive), "--db", other, ok=False)
    assert again.count("game_exists") == 3
    lines = archive.read_text().splitlines()
    record = json.loads(lines[5])
    record["data"]["tampered"] = True
    lines[5] = json.dumps(record)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([*lines, "{not json"]) + "\n")
    third = f"sqlite:///{tmp_path}/third.sqlite"
    output = run("bulk", "import", str(bad), "--db", third, ok=False)
    assert "not_json" in output and "first bad version: 6" in output and output.count(": ok") == 2
    active = tmp_path / "active.jsonl"
    run("bulk", "export", "--id", live, "--db", db, "-o", str(active))
    assert "secrets_withheld" in run("bulk", "import", str(active), "--db", third, ok=False)
    assert "game_not_found" in run("bulk", "export", "--id", "00000000-0000-0000-0000-000000000000", "--db", db, ok=False)
