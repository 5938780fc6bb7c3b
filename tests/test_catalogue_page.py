"""`caboose catalogue`: the published event and move catalogue, and docs/catalogue.md, the
page generated from it, which must be what the code generates today."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
from click.testing import CliRunner

from cli.main import cli
from domain import games
from domain.core.kinds import CORE

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "catalogue.md"
CABOOSE = Path(sys.executable).parent / "caboose"


def test_the_checked_in_page_is_what_the_code_generates() -> None:
    # A process of its own, so only the shipped games are registered (not the test fakes).
    generated = subprocess.run([str(CABOOSE), "catalogue", "--markdown"], capture_output=True, text=True, check=True,
                               cwd=ROOT, timeout=300).stdout
    assert generated == PAGE.read_text(encoding="utf-8"), \
        "docs/catalogue.md is out of date: run `caboose catalogue --markdown > docs/catalogue.md`"


def test_the_page_names_every_kind_and_move_of_the_shipped_games() -> None:
    page = PAGE.read_text(encoding="utf-8")
    for kind in CORE.kinds:
        assert f"### `{kind}`" in page
    for rules in games.GAMES:
        decider = games.current(rules.name)
        assert f"## `{decider.name}` (ruleset {decider.ruleset_version})" in page
        for name in [*decider.events.kinds, *decider.move_schemas]:
            assert f"#### `{name}`" in page, name


def test_json_is_one_valid_json_schema_document() -> None:
    result = CliRunner().invoke(cli, ["catalogue", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    jsonschema.Draft202012Validator.check_schema(document)
    defs, listing = document["$defs"], document["games"]
    assert {"ticket_to_ride", "age_of_steam"} <= set(listing)
    ttr = listing["ticket_to_ride"]
    assert ttr["events"]["GameCreated"] == "#/$defs/core.GameCreated"
    assert ttr["events"]["RouteClaimed"] == "#/$defs/ticket_to_ride.RouteClaimed"
    assert ttr["moves"]["claim_route"] == "#/$defs/ticket_to_ride.move.claim_route"
    assert defs["core.AdjustmentMade"]["properties"]["kind"]["enum"] == ["vp", "cash", "income", "piece"]
    # A record's kind and data validate as one of the game's kinds, and only as its own.
    record = jsonschema.Draft202012Validator({"$defs": defs, "$ref": "#/$defs/ticket_to_ride.record"})
    assert record.is_valid({"kind": "TurnStarted", "data": {"seat": 1}})
    assert not record.is_valid({"kind": "TurnStarted", "data": {"seat": "1"}})
    assert not record.is_valid({"kind": "TurnBegan", "data": {"turn": 1, "last_turn": 8}})
    move = jsonschema.Draft202012Validator({"$defs": defs, "$ref": "#/$defs/ticket_to_ride.move"})
    assert move.is_valid({"type": "draw_card", "source": "deck"})
    assert not move.is_valid({"type": "draw_card", "source": "deck", "slot": 1})


def test_text_lists_each_game_with_its_kinds_and_moves() -> None:
    result = CliRunner().invoke(cli, ["catalogue"])
    assert result.exit_code == 0, result.output
    assert "ticket_to_ride (ruleset 1)" in result.output
    assert "RouteClaimed(seat: integer, route: string, cards: object of integer, trains_left: integer, points: integer)" \
        in result.output
    assert "claim_route(type: \"claim_route\", route: string: one of 100 names" in result.output
    refused = CliRunner().invoke(cli, ["catalogue", "--json", "--markdown"])
    assert refused.exit_code != 0 and "choose one of --json and --markdown" in refused.output
