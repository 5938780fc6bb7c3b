"""The audit of a tournament's own record (its tables' games are audited each by
`domain/core/audit.py`, and checked against the tournament by the service's verifier).

In order: the chain; the fold (every event follows from those before it: players entered
once, tables seated from their round's players, places that follow from the game's order of
finish); then, with the secret (revealed at the end, or held by the service that runs the
tournament): the secret against the commitment, every player's draw, every table's seed
commitment and seat order, each heat's order and tables, each semifinal's and final's
players, and the final standing recomputed. A Swiss round's tables come from an assignment
solver and are not re-solved: the audit checks the round's order and byes, and says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.core.audit import AuditReport, Check
from domain.core.errors import RecordError, RuleError
from domain.core.randomness import commitment
from domain.tournament import events as ev
from domain.tournament import fairness
from domain.tournament import pairing as p
from domain.tournament.record import ID, to_event, verify
from domain.tournament.standings import standing
from domain.tournament.state import Tournament, evolve, start


def audit(records: Sequence[dict[str, Any]], secret: bytes | None = None) -> AuditReport:
    report = AuditReport(len(records), Check(True, "intact"), Check(None, "not checked"), Check(None, "not revealed"))
    report.extra["pairing"] = Check(None, "not checked")
    report.extra["standing"] = Check(None, "the tournament has not finished")
    try:
        verify(records)
    except RuleError as error:
        report.fail(report.chain, getattr(error, "version", None) or 1, error.message)
        return report
    try:
        states = _states(records)
    except RuleError as error:
        report.fail(report.rules, getattr(error, "version", None) or 1, error.message)
        return report
    report.rules = Check(True, "every event follows from those before it")
    final = states[-1]
    held = bytes.fromhex(final.secret) if final.secret else secret
    if held is None:
        report.seed = Check(None, "the secret is revealed when the tournament ends")
        return report
    if commitment(held) != final.created.commitment:
        report.fail(report.seed, 1, "the secret does not match the creation's commitment")
        return report
    _derivations(report, records, final.created.seed_source == "table", held)
    if not report.ok:
        return report
    physical = final.created.seed_source == "table"
    report.seed = Check(True, ("every player's draw and table's seat order re-derived; the tables' outcomes were "
                               "entered at physical tables: the commitment covers the seating only") if physical else
                        "every player's draw, table seed and seat order re-derived from the secret")
    _pairing(report, records, states, held)
    if final.finished and report.ok:
        before = states[[r["kind"] for r in records].index("TournamentFinished") - 1]
        if tuple(r.player for r in standing(before)) != final.standing:
            version = next(r["version"] for r in records if r["kind"] == "TournamentFinished")
            report.fail(report.extra["standing"], version, "the final standing does not follow from the results")
        else:
            report.extra["standing"] = Check(True, "recomputed from the results and rulings")
    return report


def _states(records: Sequence[dict[str, Any]]) -> list[Tournament]:
    """The tournament after each event (`RecordError` naming the first that does not fit)."""
    created = to_event(records[0])
    if not isinstance(created, ev.TournamentCreated):
        raise RecordError("record_malformed", "a tournament's record starts with TournamentCreated", 1)
    states = [start(records[0][ID], created)]
    for record in records[1:]:
        states.append(evolve(states[-1], to_event(record), record["version"]))
    return states


def _derivations(report: AuditReport, records: Sequence[dict[str, Any]], physical: bool, secret: bytes) -> None:
    for record in records:
        data, version = record["data"], record["version"]
        if record["kind"] == "PlayerRegistered" and data["draw"] != fairness.draw(secret, data["player"]):
            report.fail(report.seed, version, f"{data['player']}'s draw is not the one the secret gives")
        elif record["kind"] == "TableSeated":
            seats = tuple(data["seats"])
            if fairness.seating(secret, data["round"], data["table"], seats) != seats:
                report.fail(report.seed, version, f"round {data['round']} table {data['table']}'s seat order is not "
                            "the one the secret gives")
            wanted = None if physical else commitment(fairness.table_seed(secret, data["round"], data["table"]))
            if data.get("seed_commitment") != wanted:
                report.fail(report.seed, version, f"round {data['round']} table {data['table']}'s seed is not the "
                            "one the secret gives")


def _pairing(report: AuditReport, records: Sequence[dict[str, Any]], states: list[Tournament], secret: bytes) -> None:
    check, swiss = report.extra["pairing"], False
    for index, record in enumerate(records):
        if record["kind"] != "RoundPaired":
            continue
        before, data, version = states[index - 1], record["data"], record["version"]
        stage, order, byes = data["stage"], tuple(data["order"]), tuple(data["byes"])
        tables = [tuple(r["data"]["seats"]) for r in records[index + 1:] if r["kind"] == "TableSeated"
                  and r["data"]["round"] == data["round"]]
        problem = _why_not(before, secret, data["round"], stage, order, byes, tables)
        swiss = swiss or (stage == ev.ROUND)
        if problem:
            report.fail(check, version, f"round {data['round']}: {problem}")
            return
    report.extra["pairing"] = Check(True, "every heat's draw and tables and every semifinal's and final's players "
                                          "re-derived" + ("; Swiss and schedule tables come from the assignment solver: "
                                                          "their order and byes checked, the tables not re-solved"
                                                          if swiss else ""))


def _why_not(before: Tournament, secret: bytes, number: int, stage: str, order: tuple[str, ...], byes: tuple[str, ...],
             tables: list[tuple[str, ...]]) -> str | None:
    """What is wrong with a round as paired, or None."""
    allowed = before.created.table_sizes
    if stage == ev.HEAT:
        entered = order + byes
        if p.round_draw(secret, number, entered) != entered:
            return "the heat's players are not in the order of its draw"
        seated, sizes, _ = p.fitted(entered, before.format.table_size, allowed)
        wanted = p.consecutive(p.Problem(seated, sizes))
        return None if [set(t) for t in wanted] == [set(t) for t in tables] else "the heat's tables are not its draw's"
    if stage in (ev.SEMIFINAL, ev.FINAL):
        if p.advancing(before, stage) != order:
            return f"the {stage}'s players are not those the results advance"
        sizes = (len(order),) if stage == ev.FINAL else p.fitted(order, before.format.table_size, allowed)[1]
        wanted = p.snake(order, sizes)
        return None if [set(t) for t in wanted] == [set(t) for t in tables] else f"the {stage}'s tables are not its snake"
    if before.format.kind == ev.SWISS:
        ranked = p.swiss_order(before, number)
        if tuple(q for q in ranked if q not in byes) != order or not set(byes) <= set(ranked):
            return "the round's order is not the standing"
    return None
