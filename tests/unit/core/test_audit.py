"""Re-adjudication: a forged but well-chained record is caught at its first bad version."""

from __future__ import annotations

import copy

from domain.core.audit import audit
from service.application import Caboose
from service.settings import Settings
from tests.forgery import reseal


def finished_race() -> list[dict]:
    app = Caboose(Settings(db="memory"))
    game_id = app.create_game("race", ["ann", "bob"], {"goal": 7}, seed=bytes(32))
    while app.summary(game_id)["status"] == "active":
        app.play(game_id, app.summary(game_id)["active_seats"][0], {"type": "advance", "by": 2})
    return app.records(game_id)


def test_an_honest_game_audits_clean() -> None:
    report = audit(finished_race())
    assert report.ok and report.rules.ok and report.seed.ok, report.text()


def test_an_illegal_move_in_a_rechained_record_is_found() -> None:
    records = copy.deepcopy(finished_race())
    move = next(r for r in records if r["kind"] == "CounterAdvanced")
    move["data"]["by"] = 5
    report = audit(reseal(records))
    assert not report.ok and report.chain.ok
    assert report.first_problem["version"] == move["version"]
    assert "not legal" in report.first_problem["what"]


def test_a_forged_random_outcome_is_found_after_the_reveal() -> None:
    records = copy.deepcopy(finished_race())
    roll = next(r for r in records if r["kind"] == "FirstSeatRolled")
    seats = 2
    roll["data"]["random"]["value"] = roll["data"]["seat"] = (roll["data"]["seat"] + 1) % seats
    report = audit(reseal(records))
    assert not report.ok
    assert report.first_problem["version"] == roll["version"]


def test_a_wrong_seed_reveal_is_found() -> None:
    records = copy.deepcopy(finished_race())
    records[-1]["data"]["seed"] = "11" * 32
    report = audit(reseal(records))
    assert report.seed.ok is False
    assert report.first_problem["version"] == records[-1]["version"]


def test_a_broken_chain_is_found_first() -> None:
    records = copy.deepcopy(finished_race())
    records[2]["data"]["seat"] = 1 - records[2]["data"]["seat"]
    report = audit(records)
    assert report.chain.ok is False and report.first_problem["version"] == 3


def test_a_creation_whose_data_does_not_fit_its_kind_fails_at_version_1() -> None:
    for key in ("game", "options", "seats"):
        records = copy.deepcopy(finished_race())
        del records[0]["data"][key]
        report = audit(reseal(records))
        assert not report.ok and report.chain.ok and report.first_problem is not None
        assert report.first_problem["version"] == 1 and f"lacks {key}" in report.first_problem["what"]
