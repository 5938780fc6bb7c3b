"""Tamper evidence against a forger who recomputes every hash: the chain verifies, so the
seed's commitment, its reveal and the rules must catch each forgery."""

from __future__ import annotations

import pytest

from domain.core.audit import audit
from domain.core.envelope import verify_chain
from tests.forgery import FORGERIES, Honest, drop_reveal, finished_ticket_to_ride, reseal, swap_undrawn_tickets, truncate

REVEAL_MISSING = "finished but its seed is never revealed"


@pytest.fixture(scope="module")
def honest() -> Honest:
    return finished_ticket_to_ride()


def test_the_honest_game_audits_clean(honest: Honest) -> None:
    report = audit(honest.records)
    assert report.ok and report.seed.ok and report.unchecked == [], report.text()


@pytest.mark.parametrize("name", FORGERIES)
def test_each_forgery_keeps_an_intact_chain_and_fails_the_audit(honest: Honest, name: str) -> None:
    forged = FORGERIES[name](honest.records)
    assert verify_chain(forged) == len(forged)
    for seed in (None, honest.seed):
        report = audit(forged, seed)
        assert report.chain.ok and not report.ok, report.text()


def test_a_swapped_shuffle_is_caught_by_re_deriving_it_from_the_revealed_seed(honest: Honest) -> None:
    report = audit(swap_undrawn_tickets(honest.records))
    assert report.seed.ok is False and "TicketsShuffled" in report.first_problem["what"], report.text()


def test_a_swapped_shuffle_without_its_reveal_is_caught_only_by_the_missing_reveal(honest: Honest) -> None:
    report = audit(drop_reveal(swap_undrawn_tickets(honest.records)))
    # The forgery is consistent: every move re-adjudicates from the recorded outcomes.
    assert report.rules.ok, report.text()
    assert report.seed.ok is False and REVEAL_MISSING in report.first_problem["what"]


def test_the_seed_the_service_holds_re_derives_the_shuffle_before_any_reveal(honest: Honest) -> None:
    report = audit(drop_reveal(swap_undrawn_tickets(honest.records)), honest.seed)
    assert report.seed.ok is False and "TicketsShuffled" in report.first_problem["what"], report.text()


def test_an_honest_finished_game_without_its_reveal_fails(honest: Honest) -> None:
    report = audit(drop_reveal(honest.records))
    assert not report.ok and REVEAL_MISSING in report.text()


def test_a_changed_reveal_fails_the_commitment(honest: Honest) -> None:
    report = audit(FORGERIES["changed seed in the reveal"](honest.records))
    assert report.seed.ok is False and "commitment" in report.first_problem["what"]


def test_a_dropped_middle_event_fails_re_adjudication(honest: Honest) -> None:
    report = audit(FORGERIES["a middle event dropped"](honest.records))
    # Found in the command the event belonged to (the dropped one was version middle + 1).
    middle = len(honest.records) // 2
    assert report.rules.ok is False and middle - 10 < report.first_problem["version"] <= middle + 1, report.text()


def test_an_unfinished_record_says_its_outcomes_are_not_checked(honest: Honest) -> None:
    report = audit(truncate(honest.records))
    assert report.ok and report.unchecked == ["seed"]
    assert "cannot be checked until the seed is revealed" in report.seed.detail
    assert "NOT checked: seed" in report.text().splitlines()[0]


def test_a_running_game_is_checked_with_the_seed_the_service_holds(honest: Honest) -> None:
    report = audit(truncate(honest.records), honest.seed)
    assert report.ok and report.seed.ok and "holds" in report.seed.detail


def test_a_held_seed_that_does_not_match_the_commitment_fails(honest: Honest) -> None:
    report = audit(truncate(honest.records), bytes(32))
    assert report.seed.ok is False and "commitment" in report.first_problem["what"]


def test_a_record_cut_inside_a_command_fails_re_adjudication(honest: Honest) -> None:
    # The game's last command ends it and reveals the seed; cut just before the reveal
    # and the game is finished without it, cut earlier and the command is incomplete.
    last = honest.records[-1]["version"]
    assert REVEAL_MISSING in audit(honest.records[:-1]).text()
    report = audit(honest.records[:-3])
    assert report.rules.ok is False and "the rules produce" in report.first_problem["what"] and report.first_problem["version"] < last


def test_a_commitment_removed_with_the_reveal_still_fails(honest: Honest) -> None:
    forged = [dict(r) for r in drop_reveal(honest.records)]
    forged[0] = {**forged[0], "data": {**forged[0]["data"], "seed_commitment": None}}
    report = audit(reseal(forged))
    assert report.chain.ok and not report.ok and REVEAL_MISSING in report.first_problem["what"]


def test_a_seeded_record_relabelled_as_a_table_game_fails(honest: Honest) -> None:
    # FORMAT.md: a table game keeps its opening as observed and enters each outcome; a
    # finished seeded record with its reveal dropped and `table` written in has neither.
    forged = [dict(r) for r in drop_reveal(honest.records)]
    forged[0] = {**forged[0], "data": {**forged[0]["data"], "seed_commitment": None, "seed_source": "table"}}
    report = audit(reseal(forged))
    assert not report.ok and report.rules.ok is False and report.first_problem["version"] == 1, report.text()
    assert "a seeded record cannot become a table game" in report.first_problem["what"]
