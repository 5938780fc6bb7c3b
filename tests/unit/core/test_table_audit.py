"""Audit of games played at a table: every command decided again from the move it waited
on and the outcomes entered, each checked again for being possible. A forger who rewrites
an entered outcome and recomputes every hash is caught by the rules, naming the version;
what no record can show (that a possible outcome was the one really rolled) is said."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from domain.core.audit import audit
from service.application import Caboose
from service.commands import EnterOutcomes
from service.settings import Settings
from tests.forgery import reseal

SHEET = Path(__file__).parents[2] / "sheets" / "lucky.txt"
Record = dict[str, Any]


@pytest.fixture(scope="module")
def honest() -> list[Record]:
    """The lucky score sheet entered through the service: the referee enters the dice,
    each seat its own draws, as a table would."""
    app = Caboose(Settings(db="memory"))
    game_id = app.create_game("lucky", ["Ann", "Ben"], {"goal": 20}, observed={"outcomes": [1]})
    referee = "referee:Rita"
    app.play(game_id, 1, {"type": "roll"}, outcomes=[[3, 4]], actor=referee)
    app.play(game_id, 0, {"type": "draw"})
    app.execute(EnterOutcomes(game_id, [["red"]], "seat:0", 0))
    app.play(game_id, 1, {"type": "draw"}, outcomes=[["blue"]])
    app.play(game_id, 0, {"type": "roll"})
    app.execute(EnterOutcomes(game_id, [[2, 2]], referee, None))
    for seat, chip in ((1, "red"), (0, "red"), (1, "black"), (0, "blue")):
        app.play(game_id, seat, {"type": "draw"}, outcomes=[[chip]])
    app.play(game_id, 1, {"type": "roll"})
    app.execute(EnterOutcomes(game_id, [[6, 1]], referee, None))
    app.play(game_id, 0, {"type": "roll"}, outcomes=[[1, 1]], actor=referee)
    assert app.game(game_id).is_over
    return app.records(game_id)


def version_of(records: list[Record], kind: str, nth: int = 0, **data: Any) -> int:
    found = [r for r in records if r["kind"] == kind and all(r["data"].get(k) == v for k, v in data.items())]
    return int(found[nth]["version"])


def test_an_honest_table_game_audits_ok_and_says_what_it_cannot_prove(honest: list[Record]) -> None:
    report = audit(honest)
    assert report.ok, report.text()
    assert report.rules.ok and "commands re-adjudicated" in report.rules.detail
    assert report.seed.ok is None and "possible, not that they were fair" in report.seed.detail
    assert [r["actor"] for r in honest if r["kind"] == "OutcomeEntered"][:3] == ["referee:referee", "referee:Rita", "seat:0"]


def test_an_impossible_outcome_written_in_with_every_hash_recomputed_fails_naming_its_version(honest: list[Record]) -> None:
    forged = copy.deepcopy(honest)
    # A seventh chip: Ann's last draw turned from blue into a fourth red, in the outcome and in her hand.
    version = version_of(forged, "OutcomeEntered", 8)
    entered = forged[version - 1]
    assert entered["secrets"][0]["value"] == {"outcome": ["blue"]}
    entered["secrets"][0]["value"] = {"outcome": ["red"]}
    forged[version]["secrets"][0]["value"] = {"chip": "red"}
    report = audit(reseal(forged))
    assert not report.ok and report.first_problem is not None
    assert report.first_problem["version"] == version
    assert "red cannot be drawn; there are 1 blue" in report.first_problem["what"]


def test_a_changed_outcome_that_its_move_does_not_follow_fails_naming_its_version(honest: list[Record]) -> None:
    forged = copy.deepcopy(honest)
    version = version_of(forged, "OutcomeEntered", 0, outcome=[2, 2])
    forged[version - 1]["data"]["outcome"] = [6, 6]  # the dice rewritten, the counter left as it was
    report = audit(reseal(forged))
    assert not report.ok and report.first_problem["version"] == version + 1  # type: ignore[index]
    assert "DiceRolled" in report.first_problem["what"]  # type: ignore[index]


def test_dice_off_the_die_fail_even_when_the_move_follows_them(honest: list[Record]) -> None:
    forged = copy.deepcopy(honest)
    version = version_of(forged, "OutcomeEntered", 0, outcome=[6, 1])
    forged[version - 1]["data"]["outcome"] = [6, 7]
    forged[version]["data"]["faces"] = [6, 7]
    forged[version]["data"]["counter"] = 20
    report = audit(reseal(forged))
    assert not report.ok and report.first_problem["version"] == version  # type: ignore[index]
    assert "faces 1 to 6" in report.first_problem["what"]  # type: ignore[index]


def test_an_outcome_claimed_by_the_wrong_party_fails(honest: list[Record]) -> None:
    forged = copy.deepcopy(honest)
    version = version_of(forged, "OutcomeEntered", 0, outcome=[2, 2])
    forged[version - 1]["actor"] = "seat:0"  # Ann entering her own dice
    forged[version - 1]["data"]["by"] = "seat:0"
    report = audit(reseal(forged))
    assert not report.ok and report.first_problem["version"] == version  # type: ignore[index]
    assert "Only the referee enters the race dice" in report.first_problem["what"]  # type: ignore[index]


def test_a_move_recorded_under_another_seat_fails(honest: list[Record]) -> None:
    forged = copy.deepcopy(honest)
    version = version_of(forged, "DiceRolled", 0)
    forged[version - 1]["actor"] = "seat:0"
    assert not audit(reseal(forged)).ok


def test_a_changed_opening_layout_fails_at_the_opening(honest: list[Record]) -> None:
    forged = copy.deepcopy(honest)
    forged[1]["secrets"][0]["value"] = {"outcome": {"outcomes": [0]}}  # Ann starts, say
    report = audit(reseal(forged))
    assert not report.ok and report.first_problem["version"] in (1, 3)  # type: ignore[index]
    dropped = reseal([forged[0], *copy.deepcopy(honest)[2:]])
    assert not audit(dropped).ok


def test_a_removed_outcome_fails(honest: list[Record]) -> None:
    version = version_of(honest, "OutcomeEntered", 0, outcome=[6, 1])
    forged = reseal([r for r in copy.deepcopy(honest) if r["version"] != version])
    report = audit(forged)
    assert not report.ok and report.first_problem["version"] == version  # type: ignore[index]


@pytest.mark.parametrize("key", ["seat", "move"])
def test_a_wait_whose_data_does_not_fit_its_kind_fails_naming_its_version(honest: list[Record], key: str) -> None:
    forged = copy.deepcopy(honest)
    version = version_of(forged, "OutcomeAwaited")
    del forged[version - 1]["data"][key]
    report = audit(reseal(forged))
    assert not report.ok and report.first_problem is not None
    assert report.first_problem["version"] == version and f"lacks {key}" in report.first_problem["what"]
