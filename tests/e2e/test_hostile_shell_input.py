"""Hostile JSON from the shell: record files read by `caboose import` and `bulk import`,
and the arguments of `caboose new` are held to the same input limits as HTTP requests —
a clear error, a non-zero exit, nothing stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.test_tamper import caboose, stored_games
from tests.forgery import Honest, finished_ticket_to_ride, reseal, truncate


@pytest.fixture(scope="module")
def honest() -> Honest:
    return finished_ticket_to_ride()


@pytest.mark.parametrize("name", ["ann\x00", "ann \ud800", float("inf"), "deep"])
def test_import_refuses_hostile_json_in_a_record_file_and_stores_nothing(tmp_path: Path, honest: Honest, name: object) -> None:
    # Sealed again after the edit, so only the input limits stand in the way; what cannot
    # be hashed at all (a lone surrogate, JSON nested 1,000 deep) is written in as text.
    as_text = {"ann \ud800": '"ann \\ud800"', "deep": "[" * 1000 + "]" * 1000}
    seats = [{"seat": 0, "name": "@" if name in as_text else name}, {"seat": 1, "name": "bob"}]
    records = reseal([{**honest.records[0], "data": {**honest.records[0]["data"], "seats": seats}}, *honest.records[1:]])
    lines = [json.dumps(r) for r in records]
    lines[0] = lines[0].replace('"name": "@"', '"name": ' + as_text.get(str(name), '"@"'))
    path = tmp_path / "hostile.jsonl"
    path.write_text("\n".join(lines) + "\n")
    db = f"sqlite:///{tmp_path}/import.sqlite"
    for command in (["import"], ["bulk", "import"]):
        result = caboose(*command, str(path), "--db", db)
        assert result.exit_code == 1 and "line 1" in result.output, result.output
        assert any(code in result.output for code in ("nul_character", "lone_surrogate", "too_deep", "not_a_number")), result.output
        assert "Traceback" not in result.output
    assert stored_games(db) == []


@pytest.mark.parametrize("args", [("new", "race", "--player", "ann", "--player", "b\x00b"),
                                  ("new", "race", "--player", "ann", "--player", "bob", "--option", "goal=" + "[" * 100 + "]" * 100)])
def test_the_shell_holds_arguments_to_the_same_limits(tmp_path: Path, args: tuple[str, ...]) -> None:
    db = f"sqlite:///{tmp_path}/cli.sqlite"
    result = caboose(*args, "--db", db)
    assert result.exit_code == 1 and ("nul_character" in result.output or "too_deep" in result.output), result.output
    assert stored_games(db) == []


def test_bulk_import_refuses_the_game_of_a_hostile_line_and_stores_the_others(tmp_path: Path, honest: Honest) -> None:
    # The hostile line is the last of its game: dropping it alone would store a cut game.
    cut = truncate(honest.records)
    hostile = reseal([*cut[:-1], {**cut[-1], "data": {**cut[-1]["data"], "note": "x\x00"}}])
    other = finished_ticket_to_ride().records
    path = tmp_path / "season.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [*hostile, *other]))
    db = f"sqlite:///{tmp_path}/bulk.sqlite"
    result = caboose("bulk", "import", str(path), "--db", db, "--json")
    assert result.exit_code == 1
    outcomes = {line["game_id"]: line for line in map(json.loads, result.output.splitlines())}
    assert outcomes[cut[0]["game_id"]]["code"] == "nul_character" and outcomes[other[0]["game_id"]]["ok"]
    assert stored_games(db) == [other[0]["game_id"]]
