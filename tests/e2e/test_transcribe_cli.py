"""`caboose transcribe` and the table commands end to end on a real SQLite file: a score
sheet stored line by line and audited, the first impossible line stopping it with its
number and nothing of it stored, the text export read back, and the interactive prompt
driven through a real terminal (pexpect): completion, refusals in the game's words, undo."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pexpect
from click.testing import CliRunner

from cli.main import cli
from domain.core.transcription import without_comment

ROOT = Path(__file__).parents[2]
SHEET = ROOT / "tests" / "sheets" / "lucky.txt"
# The `lucky` game is a test fake: a child process registers it as tests/conftest.py does.
CABOOSE = ("from domain import games; from tests.fakes.lucky import LUCKY; games.register(LUCKY); "
           "from cli.main import cli; cli()")


def run(*args: str, ok: bool = True) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert (result.exit_code == 0) == ok, result.output
    return result.output


def table_game(tmp_path: Path, db: str) -> str:
    observed = tmp_path / "observed.json"
    observed.write_text(json.dumps({"outcomes": [1]}))
    return run("new", "lucky", "--player", "Ann", "--player", "Ben", "--option", "goal=20", "--table",
               "--observed", str(observed), "--db", db).splitlines()[0]


def version(game_id: str, db: str) -> int:
    return int(json.loads(run("state", game_id, "--db", db, "--json"))["version"])


def test_a_whole_score_sheet_is_stored_audits_and_exports_as_text(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/t.sqlite"
    game_id = table_game(tmp_path, db)
    out = run("transcribe", game_id, "--from", str(SHEET), "--db", db)
    assert "line 19: forced: Ben: roll" in out and "the game is over" in out
    report = json.loads(run("audit", game_id, "--db", db, "--json"))
    assert report["ok"] and report["rules"]["ok"] and report["seed"]["ok"] is None
    text = run("export", game_id, "--text", "--db", db).splitlines()
    typed = [without_comment(line) for line in SHEET.read_text().splitlines() if without_comment(line)]
    assert [line for line in text if not line.startswith("#")] == typed
    # Read back into a new game, the text form makes the same game.
    again = table_game(tmp_path, db)
    sheet = tmp_path / "again.txt"
    sheet.write_text("\n".join(text) + "\n")
    run("transcribe", again, "--from", str(sheet), "--db", db)
    kinds = lambda g: [(r["kind"], r["actor"], r["data"]) for r in map(json.loads, run(  # noqa: E731
        "events", g, "--json", "--db", db).splitlines()) if r["kind"] != "GameCreated"]
    assert kinds(again) == kinds(game_id)


def test_a_tampered_sheet_stops_at_its_line_and_stores_nothing_of_it(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/t.sqlite"
    game_id = table_game(tmp_path, db)
    lines = SHEET.read_text().splitlines()
    number = next(i for i, line in enumerate(lines, start=1) if line.startswith("blue           # the bag is empty"))
    lines[number - 1] = "red            # a fourth red chip"
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(cli, ["transcribe", game_id, "--from", str(bad), "--db", db])
    assert result.exit_code != 0
    assert f"line {number}: 'red            # a fourth red chip': impossible_outcome" in result.output
    assert "'red' is not possible now; possible: blue" in result.output
    # Every line before it is stored; the game still waits for Ann's draw.
    waiting = json.loads(run("events", game_id, "--json", "--db", db).splitlines()[-1])
    assert waiting["kind"] == "OutcomeAwaited" and waiting["data"]["seat"] == 0


def test_move_takes_a_notation_line_and_outcome_the_typed_outcome(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/t.sqlite"
    game_id = table_game(tmp_path, db)
    out = run("move", game_id, "--line", "Ben: roll", "--db", db)
    assert "waiting for an outcome: the race dice: 2 dice" in out
    before = version(game_id, db)
    assert "faces 1 to 6" in run("outcome", game_id, "0 4", "--db", db, ok=False)
    assert "bad_outcome" in run("outcome", game_id, "four", "--db", db, ok=False)
    assert "not both" in run("outcome", game_id, "1 4", "--json-value", "[1, 4]", "--db", db, ok=False)
    assert "no_outcome_awaited" not in run("outcome", game_id, "--json-value", "[1, 4]", "--db", db)
    assert version(game_id, db) == before + 3  # the dice entered, then the move's two events
    before = version(game_id, db)
    assert "bad_notation" in run("move", game_id, "--line", "Zed: roll", "--db", db, ok=False)
    assert "unknown move type 'fly'" in run("move", game_id, "--line", "Ann: fly", "--db", db, ok=False)
    assert "not both" in run("move", game_id, '{"type": "roll"}', "--line", "Ann: roll", "--db", db, ok=False)
    assert "impossible_outcome" in run("move", game_id, "--line", "Ann: roll", "--outcome", "[1, 9]", "--db", db, ok=False)
    assert version(game_id, db) == before
    assert "DiceRolled" in run("move", game_id, "--line", "Ann: roll", "--outcome", "[1, 2]", "--db", db)


def test_bad_table_settings_are_refused_and_store_nothing(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/t.sqlite"
    observed = tmp_path / "observed.json"
    for content, extra, words in [
        ('{"outcomes": [1]}', ["--seed", "ab" * 32], "has no seed"),
        ("not json", [], "not JSON"),
        ("[1]", [], "a JSON object"),
        ('{"outcomes": [7]}', [], "seat 7 is not there to take"),
        ('{"outcomes": []}', [], "outcome 1 is missing"),
    ]:
        observed.write_text(content)
        out = run("new", "lucky", "--player", "Ann", "--player", "Ben", "--table", "--observed", str(observed),
                  *extra, "--db", db, ok=False)
        assert words in out, out
    observed.write_text('{"outcomes": [1]}')
    assert "add --table" in run("new", "lucky", "--player", "Ann", "--player", "Ben", "--observed", str(observed),
                                "--db", db, ok=False)
    seeded = run("new", "lucky", "--player", "Ann", "--player", "Ben", "--db", db).splitlines()[0]
    assert "only a game created with `caboose new GAME --table`" in run("transcribe", seeded, "--from", str(SHEET),
                                                                           "--db", db, ok=False)
    assert "not_a_table_game" in run("outcome", seeded, "1 2", "--db", db, ok=False)
    assert len(run("events", seeded, "--json", "--db", db).splitlines()) == 2


def test_the_prompt_through_a_real_terminal(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/t.sqlite"
    game_id = table_game(tmp_path, db)
    child = pexpect.spawn(sys.executable, ["-c", CABOOSE, "transcribe", game_id, "--db", db, "--referee", "Rita"],
                          cwd=str(ROOT), encoding="utf-8", timeout=30, dimensions=(40, 250))
    try:
        child.expect_exact("Ben to move> ")
        child.send("Ben: ro\t")  # completion of the legal lines
        child.expect_exact("Ben: roll")
        child.send("\r")
        child.expect_exact("ok: Ben: roll")
        child.expect_exact("outcome from the referee: the race dice: 2 dice (holding: Ben: roll)> ")
        child.sendline("3 9")
        child.expect_exact("refused: the race dice: 2 dice of faces 1 to 6 were rolled, not [3, 9]")
        child.sendline("3 4")
        child.expect_exact("ok: 3 4 (stored 1 event(s) of the line before)")
        child.expect_exact("Ann to move (holding: 3 4)> ")
        child.sendline("undo")
        child.expect_exact("undone: 3 4")
        child.expect_exact("outcome from the referee: the race dice: 2 dice> ")
        child.sendline("5 5")
        child.expect_exact("ok: 5 5")
        child.expect_exact("Ann to move (holding: 5 5)> ")
        child.sendline("Ann: fly")
        child.expect_exact("refused: unknown move type 'fly'")
        child.expect_exact("Ann to move (holding: 5 5)> ")
        child.sendline("Ann: draw")
        child.expect_exact("outcome from Ann: a chip from the bag: 1 of black, blue, red (holding: Ann: draw)> ")
        child.send("bl\t")
        child.expect_exact("bl")  # black and blue: no single completion
        child.send("u\t\r")
        child.expect_exact("ok: blue")
        child.expect_exact("Ben to move (holding: blue)> ")
        child.sendeof()
        child.expect_exact("stored 2 event(s); Ben to move")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    records = [json.loads(line) for line in run("events", game_id, "--json", "--db", db).splitlines()]
    entered = [r for r in records if r["kind"] == "OutcomeEntered"][1:]
    assert [r["data"].get("outcome") for r in entered] == [[5, 5], None]
    assert [r["actor"] for r in entered] == ["referee:Rita", "referee:Rita"]
    assert entered[1]["secrets"][0]["value"] == {"outcome": ["blue"]} and entered[1]["secrets"][0]["to"] == [0]
    assert json.loads(run("audit", game_id, "--db", db, "--json"))["ok"]
