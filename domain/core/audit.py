"""The referee's audit of a full game record: is the chain intact, was every command
legal under the ruleset the game was created with, and — once the seed is revealed —
does every shuffle and die re-derive from it?

Re-adjudication replays each command through `log.play` and compares what the rules
produce now with what was stored. Before the reveal, random outcomes are taken from the
record itself (`RecordedRandom`), so every other part of each move is still checked;
the service that holds a running game's seed passes it in, so its outcomes are
re-derived before the reveal too.

Anyone who rewrites a record can recompute every hash, so the chain alone proves little
about randomness: a finished game of a seeded record must carry its `SeedRevealed`, or
its outcomes could have been chosen at will. Such a record fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.core import fold, log, referee, transcription
from domain.core.canonical import canonical
from domain.core.codec import encode
from domain.core.envelope import actor_seat, group_by_command, to_event, verify_chain
from domain.core.errors import RuleError
from domain.core.events import Event
from domain.core.kinds import OutcomeAwaited
from domain.core.randomness import Randomness, RecordedRandom, SeededRandom, commitment, outcomes_in


@dataclass
class Check:
    ok: bool | None
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "detail": self.detail}


@dataclass
class AuditReport:
    events: int
    chain: Check
    rules: Check
    seed: Check
    first_problem: dict[str, Any] | None = None
    extra: dict[str, Check] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.first_problem is None

    def fail(self, check: Check, version: int, what: str) -> None:
        check.ok, check.detail = False, f"version {version}: {what}"
        if self.first_problem is None or version < self.first_problem["version"]:
            self.first_problem = {"version": version, "what": what}

    def to_json(self) -> dict[str, Any]:
        out = {"ok": self.ok, "events": self.events, "chain": self.chain.to_json(),
               "rules": self.rules.to_json(), "seed": self.seed.to_json()}
        out.update({name: check.to_json() for name, check in self.extra.items()})
        out["unchecked"] = self.unchecked
        out["first_problem"] = self.first_problem
        return out

    @property
    def unchecked(self) -> list[str]:
        """The checks that could not be made, so an OK is never read as more than it is."""
        return [name for name, check in self.checks() if check.ok is None]

    def checks(self) -> list[tuple[str, Check]]:
        return [("chain", self.chain), ("rules", self.rules), ("seed", self.seed), *self.extra.items()]

    def text(self) -> str:
        head = f"{'OK' if self.ok else 'FAILED'}: {self.events} events"
        if self.ok and self.unchecked:
            head += f"; NOT checked: {', '.join(self.unchecked)} (see below)"
        lines = [head]
        for name, check in self.checks():
            mark = {True: "ok", False: "FAIL", None: "n/a"}[check.ok]
            lines.append(f"  {name:<12} {mark:<5} {check.detail}")
        if self.first_problem:
            lines.append(f"first problem at version {self.first_problem['version']}: {self.first_problem['what']}")
        return "\n".join(lines)


def audit(records: Sequence[dict[str, Any]], seed: bytes | None = None) -> AuditReport:
    """Audit a full record. `seed` is the secret seed a service keeps beside a game it
    runs (None for a record from elsewhere): with it, every random outcome is re-derived
    even before the reveal, so a referee can check a running game."""
    report = AuditReport(len(records), Check(True, "intact"), Check(None, "not checked"), Check(None, "not revealed"))
    try:
        verify_chain(records)
    except RuleError as error:
        report.fail(report.chain, getattr(error, "version", None) or 1, error.message)
        return report
    if not records or records[0]["kind"] != log.GAME_CREATED:
        report.fail(report.chain, 1, "the record does not start with GameCreated")
        return report
    drawn_from, revealed = _check_seed(records, seed, report)
    if any("value" not in s for r in records for s in r["secrets"]):
        report.rules = Check(None, "secrets are withheld in this record; re-adjudication needs the referee's full record")
        finished: bool | None = any(r["kind"] == log.GAME_ENDED for r in records)
    else:
        finished = _readjudicate(records, drawn_from, revealed, report)
    if revealed is None:
        _unrevealed(records, finished, drawn_from is not None, report)
    return report


def awaits_reveal(records: Sequence[dict[str, Any]]) -> bool:
    """Whether a record drew from a committed seed it has not revealed yet (an unfinished
    game: a finished one without its reveal fails the audit)."""
    return bool(records) and _seed_terms(records).get("seed_source") != "table" and _own_reveal(records) is None


AWAITS_REVEAL = "no seed reveal: the game is unfinished, so its random outcomes cannot be checked until the seed is revealed"


def _own_reveal(records: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The record's `SeedRevealed`. A fork's copied history may hold its origin's reveal;
    only a reveal of its own counts."""
    fork = referee.last_fork(records)
    own = records[fork["version"] - 1:] if fork is not None else records
    return next((r for r in own if r["kind"] == log.SEED_REVEALED), None)


def _seed_terms(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The data that committed to the seed in use: a fork draws from its own seed,
    committed to in its ForkedFrom; any other game in its GameCreated."""
    fork = referee.last_fork(records)
    # Raw, and read with `.get`: `awaits_reveal` asks before any chain or rule is checked (an import).
    return (fork or records[0])["data"]


def _check_seed(records: Sequence[dict[str, Any]], held: bytes | None,
                report: AuditReport) -> tuple[bytes | None, bytes | None]:
    """The seed to re-derive outcomes from, and the seed the record reveals (if any)."""
    reveal = _own_reveal(records)
    if reveal is None:
        if held is None:
            return None, None
        if commitment(held) != _seed_terms(records).get("seed_commitment"):
            report.fail(report.seed, 1, "the seed this service holds does not match the commitment in the record")
            return None, None
        report.seed = Check(True, "not revealed yet; every random outcome re-derived from the seed this service holds")
        return held, None
    try:
        # Raw: a reveal without a hex seed fails the seed check in its own words, before any rule is known.
        seed = bytes.fromhex(reveal["data"]["seed"])
    except (KeyError, TypeError, ValueError):
        report.fail(report.seed, reveal["version"], "the revealed seed is not hex")
        return None, None
    if commitment(seed) != _seed_terms(records).get("seed_commitment"):
        report.fail(report.seed, reveal["version"], "the revealed seed does not match the commitment made at creation")
        return None, None
    report.seed = Check(True, "revealed, matches the commitment; every random outcome re-derived from it")
    return seed, seed


def _unrevealed(records: Sequence[dict[str, Any]], finished: bool | None, rederived: bool, report: AuditReport) -> None:
    """Say what a record without its reveal proves. A finished game that drew from a
    committed seed must reveal it: without the reveal nothing shows its outcomes were not
    chosen at will, and anyone can recompute the chain after choosing them."""
    if finished is None or report.seed.ok is False:
        return  # already failed
    if _seed_terms(records).get("seed_source") == "table":
        report.seed = Check(None, "outcomes entered at the table: the record shows they were possible, not that they were fair")
    elif finished:
        report.fail(report.seed, len(records), "the game is finished but its seed is never revealed (no SeedRevealed), "
                    "so its random outcomes cannot be checked: a finished record must carry its reveal")
    elif not rederived:
        drawn = sum(1 for _ in outcomes_in(_payloads(records)))
        report.seed = Check(None, f"{AWAITS_REVEAL} ({drawn} so far)")


def _readjudicate(records: Sequence[dict[str, Any]], seed: bytes | None, revealed: bytes | None,
                  report: AuditReport) -> bool | None:
    """Re-run every command; returns whether the game is over at the end of the record
    (None when a command did not re-adjudicate)."""
    try:
        # A creation whose data does not fit its kind fails here, before its data picks the rules.
        created = log.created_of(records[0])
        history = fold.History(records[0])
    except RuleError as error:
        report.fail(report.rules, 1, error.message)
        return None
    decider = history.decider
    seeded = SeededRandom(seed) if seed is not None else None
    # A table game keeps its observed opening right after GameCreated and is re-decided from
    # its entered outcomes. A record that says `table` without that opening is refused: its
    # outcomes are in a generator's form, and a finished seeded record relabelled `table`
    # (its reveal dropped, its chain sealed again) would look exactly like it.
    table = created.seed_source == transcription.TABLE
    # A fork's copied events drew from its origin's seed; only what follows is its own.
    fork = referee.last_fork(records)
    own_from = fork["version"] if fork is not None else 1
    commands = actions = 0
    for group in group_by_command(records):
        first = group[0]
        rng: Randomness = seeded if seeded is not None and first["version"] >= own_from else RecordedRandom(_outcomes(group))
        state = history.state
        actors: list[str] | None = None
        try:
            if first["kind"] == log.GAME_CREATED and table:
                expected = [to_event(first, decider.catalogue), *_table_opening(decider, state, group)]
                actors = ["system", *(transcription.actor_of(e, -1) for e in expected[1:])]
            elif first["kind"] == log.GAME_CREATED:
                expected = [to_event(first, decider.catalogue), *decider.setup(state, rng)]
            elif (action := referee.action_of(first)) is not None:
                situation = referee.Situation(records[: first["version"] - 1], decider, state)
                expected = referee.judge(situation, first["actor"], action)
                actions += 1
            elif table:
                expected, actors = _at_table(decider, state, records[: first["version"] - 1], group)
                commands += 1
            elif (seat := actor_seat(first["actor"])) is not None:
                move = decider.move_of(to_event(first, decider.catalogue))
                if move is None:
                    raise RuleError("not_a_move", f"a seat's command cannot start with {first['kind']}")
                # Only a revealed seed is expected in the record: a held one is still secret.
                expected = log.play(decider, state, seat, move, rng, revealed)
                commands += 1
            elif referee.referee_of(first["actor"]) is not None \
                    and (move := decider.move_of(to_event(first, decider.catalogue))) is not None:
                own = seeded is not None and first["version"] >= own_from
                expected, entered = _entered_for_a_seat(decider, state, move, group, seed, seeded.position if own else None)  # type: ignore[union-attr]
                seeded = entered if isinstance(entered, SeededRandom) else seeded
                commands += 1
            else:
                raise RuleError("unexpected_event", f"{first['kind']} by {first['actor']} is not caused by any command")
        except RuleError as error:
            report.fail(report.rules, first["version"], f"{first['kind']} by {first['actor']} was not legal: {error.message}")
            return None
        problem = _compare(expected, group) or (_compare_actors(actors, group) if actors is not None else None)
        if problem:
            report.fail(report.rules if seeded is None or "random" not in problem[1] else report.seed, *problem)
            return None
        try:
            for record in group[1:] if first["kind"] == log.GAME_CREATED else group:
                history.add(record)
        except RuleError as error:
            report.fail(report.rules, first["version"], f"{first['kind']} cannot be applied: {error.message}")
            return None
    judged = f" and {actions} referee or takeback actions re-judged" if actions else ""
    report.rules = Check(True, f"{commands} commands re-adjudicated{judged} under {decider.name} ruleset {decider.ruleset_version}")
    return bool(decider.is_over(history.state))


def _table_opening(decider: Any, state: Any, group: list[dict[str, Any]]) -> list[Event]:
    """A table game's opening, set up again from the layout its record keeps as observed."""
    observed = transcription.opening_of(group[1]) if len(group) > 1 else None
    if observed is None:
        raise RuleError("no_observed_opening", "a game played at a table keeps its opening as observed right after "
                        "GameCreated and enters every outcome; this record does not (its outcomes are in a "
                        "generator's form: a seeded record cannot become a table game)")
    return transcription.table_opening(decider, state, observed, group[1]["actor"])


def _at_table(decider: Any, state: Any, before: Sequence[dict[str, Any]],
              group: list[dict[str, Any]]) -> tuple[list[Event], list[str]]:
    """A command of a game played at a table, decided again: the move it waits on (rebuilt
    from the records before it) or the move it starts, over the outcomes it entered, each
    checked again for being possible. Returns the events and who each is recorded as by."""
    entered = [r for r in group if r["kind"] == transcription.ENTERED]
    values = [transcription.outcome_of(r) for r in entered]
    by = entered[0]["actor"] if entered else None
    pending = transcription.pending_of(before)
    if pending is not None:
        if by is None:
            raise RuleError("outcome_awaited", f"the game waits for {pending.request.describe()}; "
                            f"the record has {group[0]['kind']} instead")
        decision = transcription.enter_outcome(decider, state, pending, values, by, transcription.enterer_seat(by))
        seat = pending.seat
    else:
        opening = next((r for r in group if r["kind"] != transcription.ENTERED), None)
        if opening is None:
            raise RuleError("no_outcome_awaited", "an outcome was entered while the game waited for no outcome")
        event = to_event(opening, decider.catalogue)
        if isinstance(event, OutcomeAwaited):
            # `encode`: the move as the plain JSON it was recorded as, as `transcription.pending_after` keeps it.
            seat, move = event.seat, encode(event.move)
        else:
            seat = actor_seat(opening["actor"])  # type: ignore[assignment]
            move = decider.move_of(event)
            if seat is None or move is None:
                raise RuleError("not_a_move", f"a seat's command cannot start with {opening['kind']} by {opening['actor']}")
        decision = transcription.table_play(decider, state, seat, move, (), values, by or f"seat:{seat}")
        transcription.check_enterer(decision.events, transcription.enterer_seat(by or "referee:"))
    events = list(decision.events)
    return events, [transcription.actor_of(e, seat) for e in events]


def _compare_actors(actors: list[str], group: list[dict[str, Any]]) -> tuple[int, str] | None:
    for actor, record in zip(actors, group, strict=False):
        if actor != record["actor"]:
            return record["version"], f"{record['kind']}: recorded as by {record['actor']}, the rules say {actor}"
    return None


def _payloads(records: Sequence[dict[str, Any]]) -> list[Any]:
    values: list[Any] = []
    for record in records:
        # Raw: outcomes are found as stored in any kind, the rules' or not, with the rules unknown or before they are.
        values.append(record["data"])
        values.extend(s.get("value") for s in record["secrets"])
    return values


def _entered_for_a_seat(decider: Any, state: Any, move: Any, group: list[dict[str, Any]], seed: bytes | None,
                        position: int | None) -> tuple[list[Event], Randomness]:
    """A move a referee entered for a seat (actor `referee:NAME`): the record does not name the
    seat, so it is the seat among those to act for whom the rules produce exactly this group.
    Each try draws afresh: from the seed at `position`, or from the group's recorded outcomes."""
    for seat in sorted(decider.active_seats(state)):
        rng: Randomness = SeededRandom(seed, position) if seed is not None and position is not None else RecordedRandom(_outcomes(group))
        try:
            expected = log.play(decider, state, seat, move, rng, seed)
        except RuleError:
            continue
        if _compare(expected, group) is None:
            return expected, rng
    raise RuleError("no_seat_for_move", "no seat to act could have made this move")


def _outcomes(group: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return list(outcomes_in(_payloads(group)))


def _compare(expected: list[Event], group: list[dict[str, Any]]) -> tuple[int, str] | None:
    for event, record in zip(expected, group, strict=False):
        stored = to_event(record)  # compared as stored: kind, data and secrets as written
        if event.kind != stored.kind:
            return record["version"], f"the rules produce {event.kind} here, the record has {stored.kind}"
        if canonical(event.data) != canonical(stored.data):
            what = "a random outcome differs" if "random" in event.data else "its data differ from what the rules produce"
            return record["version"], f"{stored.kind}: {what}"
        if _secrets(event) != _secrets(stored):
            return record["version"], f"{stored.kind}: its secret content (a random outcome or a hidden choice) differs from the rules'"
        if event.automatic != stored.automatic:
            return record["version"], f"{stored.kind}: recorded with the wrong actor {record['actor']}"
    if len(expected) != len(group):
        version = group[min(len(expected), len(group) - 1)]["version"]
        return version, f"the rules produce {len(expected)} events for this command, the record has {len(group)}"
    return None


def _secrets(event: Event) -> bytes:
    return canonical([[list(s.to), s.value] for s in event.secrets])
