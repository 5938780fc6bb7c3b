"""What clients were told, checked against what the store holds.

Every answer a client got is written down as a `Sent`; `reconcile` then reads the games back
from the store and finds every broken promise: a 2xx whose events are not stored as that
request's own, a move stored that no client was told about, duplicate versions, a chain that
does not audit, and every 5xx.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from service.application import Caboose

CREATION = "create:"
"""Command ids of a game's creation and opening: stored by the server, not by a move."""


@dataclass
class Sent:
    """One move request and the answer it got (status 0: no answer, e.g. the server died)."""

    game_id: str
    seat: int
    key: str | None
    status: int
    events: list[dict[str, Any]] = field(default_factory=list)
    request: int = 0
    """Unique per request within one run: tells apart requests sent without a key."""

    def to_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "seat": self.seat, "key": self.key, "status": self.status,
                "events": [{k: e.get(k) for k in ("version", "hash", "command_id", "actor")} for e in self.events],
                "request": self.request}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Sent:
        return cls(**data)


@dataclass
class Findings:
    requests: int = 0
    acknowledged: int = 0
    """2xx answers."""
    moves_stored: int = 0
    """Commands stored by moves (not creation)."""
    acknowledged_missing: list[str] = field(default_factory=list)
    """2xx answers whose events are not in the store as that request's own."""
    acknowledged_to_several: list[str] = field(default_factory=list)
    """Stored commands that more than one request (different keys) was told were its own."""
    stored_without_2xx: list[str] = field(default_factory=list)
    duplicate_versions: list[str] = field(default_factory=list)
    audit_failed: list[str] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)

    @property
    def problems(self) -> list[str]:
        return [*self.acknowledged_missing, *self.acknowledged_to_several, *self.stored_without_2xx, *self.duplicate_versions,
                *self.audit_failed,
                *([f"{self.server_errors} answers were 5xx: {dict(self.statuses)}"] if self.server_errors else [])]

    def summary(self) -> dict[str, Any]:
        return {"requests": self.requests, "2xx": self.acknowledged, "moves_stored": self.moves_stored,
                "acknowledged_but_missing": len(self.acknowledged_missing), "acknowledged_to_several": len(self.acknowledged_to_several),
                "stored_without_2xx": len(self.stored_without_2xx),
                "duplicate_versions": len(self.duplicate_versions), "audit_failed": len(self.audit_failed),
                "5xx": self.server_errors, "statuses": {str(k): v for k, v in sorted(self.statuses.items())}}


def _identity(sent: Sent) -> str:
    return f"key {sent.key}" if sent.key is not None else f"request {sent.request}"


def reconcile(app: Caboose, sent: Iterable[Sent], game_ids: Iterable[str]) -> Findings:
    sent = list(sent)
    findings = Findings(requests=len(sent), statuses=Counter(s.status for s in sent))
    stored = {g: app.records(g) for g in {*game_ids, *(s.game_id for s in sent)}}
    by_version = {g: {r["version"]: r for r in records} for g, records in stored.items()}
    by_command: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for g, records in stored.items():
        for r in records:
            if r["command_id"] is not None:
                by_command[g, r["command_id"]].append(r)
    claimed: dict[tuple[str, str], set[str]] = defaultdict(set)
    for s in sent:
        if not 200 <= s.status < 300:
            continue
        findings.acknowledged += 1
        if problem := _not_own(s, by_version[s.game_id], by_command):
            findings.acknowledged_missing.append(f"game {s.game_id} seat {s.seat} {_identity(s)}: {problem}")
        for command in {e.get("command_id") for e in s.events}:
            claimed[s.game_id, command].add(_identity(s))
    for (g, command), who in claimed.items():
        if len(who) > 1:
            findings.acknowledged_to_several.append(f"game {g}: command {command} was acknowledged to {len(who)} requests: {sorted(who)}")
    for (g, command) in by_command:
        if command.startswith(CREATION):
            continue
        findings.moves_stored += 1
        if (g, command) not in claimed:
            versions = [r["version"] for r in by_command[g, command]]
            findings.stored_without_2xx.append(f"game {g}: command {command} (versions {versions}) stored, no client told")
    for g, records in stored.items():
        versions = [r["version"] for r in records]
        if versions != list(range(1, len(versions) + 1)):
            repeated = sorted(v for v, n in Counter(versions).items() if n > 1)
            findings.duplicate_versions.append(f"game {g}: versions are not 1..{len(versions)}; repeated {repeated}")
        report = app.audit(g)
        if not report.ok:
            findings.audit_failed.append(f"game {g}: audit failed: {report.first_problem}")
    return findings


def _not_own(s: Sent, stored: dict[int, dict[str, Any]], by_command: dict[tuple[str, str], list[dict[str, Any]]]) -> str | None:
    """Why a 2xx answer is not this request's own stored move, or None if it is."""
    if not s.events:
        return "a 2xx with no events"
    for e in s.events:
        record = stored.get(e["version"])
        if record is None:
            return f"version {e['version']} answered but not stored"
        if record["hash"] != e["hash"]:
            return f"version {e['version']} answered with hash {e['hash'][:12]}…, stored {record['hash'][:12]}…"
    commands = {e["command_id"] for e in s.events}
    if len(commands) != 1:
        return f"the answer mixes commands {sorted(commands)}"
    command = commands.pop()
    if s.key is not None and command != s.key:
        return f"answered with command {command}, not this request's key"
    own = sorted(r["version"] for r in by_command[s.game_id, command])
    if own != sorted(e["version"] for e in s.events):
        return f"answered versions {[e['version'] for e in s.events]}, but command {command} stored {own}"
    actors = {e["actor"] for e in s.events} - {"system"}
    if actors != {f"seat:{s.seat}"}:
        return f"seat {s.seat} was answered with the events of {sorted(actors)}"
    return None
