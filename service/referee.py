"""The referee's and the takeback's use cases over the `Caboose` application.

Each lets the pure rules of `domain/core/referee.py` judge the action against the game and
its full record, and stores what they decide in one transaction, as a command like a move
(`Caboose.execute`): a stale `expected_version` is refused before anything is judged; an
action sent without one that loses the race to another writer (a seat moving meanwhile) is
judged again against the game as it now is; and with an idempotency key, a retry answers
with exactly the records the first attempt stored and stores nothing.
"""

from __future__ import annotations

import hashlib
import os
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from domain.core import fold, referee
from domain.core.audit import AuditReport, Check, audit, awaits_reveal
from domain.core.canonical import canonical
from domain.core.envelope import seat_actor, to_event
from domain.core.errors import MalformedMove
from domain.core.kinds import CORE, ForkedFrom
from domain.core.randomness import commitment
from projections.audit import projection_check
from service import command_ids
from service.aggregate import Game, Stamp, seed_not_held
from service.application import Caboose
from service.commands import Act, Held
from service.errors import GameNotFound
from service.tlog import TransparencyLog


def act(app: Caboose, game_id: str, actor: str, action: Any, expected_version: int | Iterable[int] | None = None,
        idempotency_key: str | None = None, loaded: Game | None = None) -> list[dict[str, Any]]:
    """Judge and store one referee, takeback, seat or service action (`commands.Act`) through
    the pipeline; returns the stored records. With `expected_version` (one version or
    several), a game that moved on refuses it; without, a lost race is judged again.
    `loaded`: the game as the caller already loaded it (its own copy)."""
    return app.execute(Act(game_id, actor, action), expected_version=expected_version, idempotency_key=idempotency_key,
                       loaded=loaded).records


def rewind(app: Caboose, game_id: str, referee_name: str, to_version: int, reason: str,
           dispute: int | None = None, expected_version: int | Iterable[int] | None = None, *,
           idempotency_key: str | None = None, loaded: Game | None = None) -> list[dict[str, Any]]:
    return act(app, game_id, referee.referee_actor(referee_name), referee.Rewind(to_version, reason, dispute), expected_version,
               idempotency_key, loaded)


def request_takeback(app: Caboose, game_id: str, seat: int, *, idempotency_key: str | None = None,
                     loaded: Game | None = None) -> list[dict[str, Any]]:
    return act(app, game_id, seat_actor(_seat(seat)), referee.RequestTakeback(seat), None, idempotency_key, loaded)


def answer_takeback(app: Caboose, game_id: str, accept: bool, *, seat: int | None = None,
                    referee_name: str | None = None, reason: str = "", idempotency_key: str | None = None,
                    loaded: Game | None = None) -> list[dict[str, Any]]:
    """A seat's or a referee's answer (exactly one of `seat` and `referee_name`)."""
    if (seat is None) == (referee_name is None):
        raise MalformedMove("bad_field", "Answer a takeback as one seat or as a referee.")
    actor = seat_actor(_seat(seat)) if seat is not None else referee.referee_actor(str(referee_name))
    return act(app, game_id, actor, referee.AnswerTakeback(accept, reason), None, idempotency_key, loaded)


def raise_dispute(app: Caboose, game_id: str, referee_name: str, version: int, raised_by: str, claim: str, *,
                  idempotency_key: str | None = None, loaded: Game | None = None) -> list[dict[str, Any]]:
    return act(app, game_id, referee.referee_actor(referee_name), referee.RaiseDispute(version, raised_by, claim), None,
               idempotency_key, loaded)


def rule(app: Caboose, game_id: str, referee_name: str, dispute: int, text: str, outcome: str, *,
         idempotency_key: str | None = None, loaded: Game | None = None) -> list[dict[str, Any]]:
    return act(app, game_id, referee.referee_actor(referee_name), referee.MakeRuling(dispute, text, outcome), None,
               idempotency_key, loaded)


def adjust(app: Caboose, game_id: str, referee_name: str, seat: int, kind: str, amount: int, reason: str,
           detail: Mapping[str, Any] | None = None, dispute: int | None = None,
           expected_version: int | Iterable[int] | None = None, *, idempotency_key: str | None = None,
           loaded: Game | None = None) -> list[dict[str, Any]]:
    action = referee.Adjust(seat, kind, amount, reason, dict(detail or {}), dispute)
    return act(app, game_id, referee.referee_actor(referee_name), action, expected_version, idempotency_key, loaded)


def fork(app: Caboose, game_id: str, referee_name: str, at_version: int, reason: str, seed: bytes | None = None) -> str:
    """A new game whose history is a copy of the first `at_version` events of `game_id`,
    then `ForkedFrom`; its new draws come from a new seed. Returns the new game's id."""
    return app.execute(forked(app, game_id, referee_name, at_version, reason, seed)).game_id


FORKS = uuid.UUID("9a3e5b2c-6f0d-4c1e-8b7a-2d4f6e8a0c13")
"""The namespace of the ids of forks made under an Idempotency-Key (`fork_id_for`)."""


def fork_id_for(game_id: str, idempotency_key: str) -> str:
    """The id of the fork of `game_id` made under the client's `idempotency_key`: the same
    for every retry, so a retry finds the fork its first attempt stored."""
    return str(uuid.uuid5(FORKS, f"{game_id}\n{idempotency_key}"))


def fork_command(fork_id: str) -> str:
    """The command id of a keyed fork's `ForkedFrom` (in the server's namespace: the copied
    history may hold the client's key already, as any command id of its origin)."""
    return f"fork:{fork_id}"


def fork_digest(game_id: str, referee_name: str, at_version: int, reason: str, seed: bytes | None) -> str:
    """What identifies a fork's request, for its retries."""
    return hashlib.sha256(canonical({"origin": game_id, "referee": referee_name, "at_version": at_version, "reason": reason,
                                     "seed": seed.hex() if seed is not None else None})).hexdigest()


def forked(app: Caboose, game_id: str, referee_name: str, at_version: int, reason: str, seed: bytes | None = None,
           idempotency_key: str | None = None) -> Held:
    """The fork `fork` stores, not yet stored. Under an `idempotency_key` its id is
    `fork_id_for` and its `ForkedFrom` carries the request's digest, for its retries (`Held`)."""
    actor = referee.referee_actor(referee_name)
    if seed is not None and len(seed) != 32:
        raise MalformedMove("bad_seed", "A seed is 32 bytes (64 hex digits).")
    origin = app.records(game_id)
    if not origin:
        raise GameNotFound(game_id)
    if not app.game(game_id).playable and awaits_reveal(origin):
        # Imported unfinished: its piles are only as the record says until its seed is revealed.
        raise seed_not_held()
    fork_id = str(uuid.uuid4()) if idempotency_key is None else fork_id_for(game_id, idempotency_key)
    copies = referee.fork_records(origin, at_version, fork_id)
    history = fold.History(copies[0])
    seed_source = "client" if seed is not None else "server"
    seed = seed if seed is not None else os.urandom(32)
    aggregate = Game(record=copies[0], seed=seed.hex())
    aggregate.restore_all(copies[1:], history)
    mark = referee.MarkFork(game_id, at_version, origin[at_version - 1]["hash"], commitment(seed), seed_source, reason)
    events = referee.judge(referee.Situation(copies, history.decider, history.state), actor, mark)
    if idempotency_key is None:
        aggregate.act(events, actor, Stamp.now(command_ids.fresh("fork:")), rewound=history.at)
        return Held(aggregate)
    command = fork_command(fork_id)
    digest = fork_digest(game_id, referee_name, at_version, reason, seed if seed_source == "client" else None)
    aggregate.act(events, actor, Stamp.now(command, digest), rewound=history.at)
    return Held(aggregate, idempotency_key, command, digest)


def join_seat(app: Caboose, game_id: str, seat: int, name: str, idempotency_key: str | None = None) -> list[dict[str, Any]]:
    """Record that `seat` joined the game under `name` (judged again, like any action,
    when it loses a race with a move; a retry under `idempotency_key` answers as the first)."""
    return act(app, game_id, seat_actor(_seat(seat)), referee.JoinSeat(seat, name), idempotency_key=idempotency_key)


def disputes(app: Caboose, game_id: str) -> list[dict[str, Any]]:
    return referee.disputes(app.records(game_id))


def full_audit(app: Caboose, game_id: str, projections: bool = True, log: TransparencyLog | None = None) -> AuditReport:
    """The audit of the record (chain, rules, seed), plus: for a fork, that its copied
    history is its origin's; that the read models equal a fresh rebuild; and with `log`,
    that every event is the one the transparency log holds. The seed this service holds
    re-derives every random outcome, before the reveal too."""
    held = app.game(game_id).seed
    records = app.records(game_id)
    report = audit(records, bytes.fromhex(held) if held else None)
    mark = referee.last_fork(records)
    if mark is not None:
        report.extra["fork"] = _fork_check(app, records, mark, report)
    if projections:
        report.extra["projections"] = projection_check(app, game_id, records, report)
    if log is not None:
        report.extra["log"] = _log_check(log, game_id, records, report)
    return report


def _log_check(log: TransparencyLog, game_id: str, records: list[dict[str, Any]], report: AuditReport) -> Check:
    """Whether each event is the one the log made a leaf of: an event rewritten in the store
    after it was logged differs from its leaf, however well its chain was recomputed."""
    leaves = log.leaf_hashes(game_id)
    for record in records:
        held = leaves.get(record["version"])
        if held is not None and held.hex() != record["hash"]:
            check = Check(False, "")
            report.fail(check, record["version"], "the event differs from the one the transparency log holds "
                        "(rewritten after it was logged)")
            return check
    logged = sum(1 for r in records if r["version"] in leaves)
    later = f"; {len(records) - logged} not logged yet" if logged < len(records) else ""
    return Check(True, f"{logged} events are the log's leaves{later}")


def _fork_check(app: Caboose, records: list[dict[str, Any]], record: dict[str, Any], report: AuditReport) -> Check:
    mark = to_event(record, CORE)
    assert isinstance(mark, ForkedFrom)
    origin_id = mark.origin
    try:
        origin = app.records(origin_id, upto=mark.at_version)
    except GameNotFound:
        origin = []
    if not origin:
        return Check(None, f"forked from {origin_id}, which is not in this store")
    differs = referee.same_history(records, origin)
    if differs is None:
        return Check(True, f"the first {mark.at_version} events are {origin_id}'s")
    check = Check(False, "")
    report.fail(check, differs, f"the copied history differs from its origin {origin_id} at version {differs}")
    return check


def _seat(seat: Any) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise MalformedMove("bad_seat", "`seat` must be a seat number (0 or more).")
    return seat
