"""The event envelope and hash chain of FORMAT.md.

A record is the plain dict a `.jsonl` line holds. A full record carries each secret as
`{to, salt, value}`; a redacted one replaces what its reader may not see by `{to, digest}`.
Both hash alike, because the hash is taken over the digest form.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from domain.core.canonical import canonical, canonical_text, sha256_hex
from domain.core.codec import encode
from domain.core.errors import RecordError
from domain.core.events import Audience, Event, Secret, Untyped

if TYPE_CHECKING:
    from domain.core.catalogue import Catalogue

GENESIS_HASH = "0" * 64
FIELDS = ("game_id", "version", "time", "actor", "command_id", "kind", "data", "secrets", "prev_hash", "hash")
SYSTEM = "system"


def seat_actor(seat: int) -> str:
    return f"seat:{seat}"


def actor_seat(actor: str) -> int | None:
    """The seat of `seat:N`, or None for `system` and referees."""
    return int(actor[5:]) if actor.startswith("seat:") else None


def digest(salt: str, value: Any) -> str:
    return sha256_hex(bytes.fromhex(salt) + canonical(value))


def digest_form(secret: dict[str, Any]) -> dict[str, Any]:
    if "digest" in secret:
        return {"to": secret["to"], "digest": secret["digest"]}
    return {"to": secret["to"], "digest": digest(secret["salt"], secret["value"])}


def record_hash(record: dict[str, Any]) -> str:
    body = dict(record)
    body.pop("hash", None)
    body["secrets"] = [digest_form(s) for s in record.get("secrets", [])]
    return sha256_hex(canonical(body))


def seal(
    *,
    game_id: str,
    version: int,
    time: str,
    actor: str,
    command_id: str | None,
    event: Event,
    prev_hash: str,
    new_salt: Callable[[], str],
) -> dict[str, Any]:
    """The full record of `event` as event `version` of the game, chained to `prev_hash`."""
    sealer = Sealer(game_id=game_id, time=time, command_id=command_id, new_salt=new_salt)
    return sealer.seal(version=version, actor=actor, event=event, prev_hash=prev_hash)


class Sealer:
    """Seals the records of one command (`seal`): the game, the time and the command id
    are the same in each, so their part of the canonical text the hash is taken over is
    written once. A record's hash is SHA-256 of its body's canonical text written member by
    member in key order (`canonical_text`): the text `record_hash` hashes, without copying
    the record, sorting its keys or writing those members again for every record. The body's
    members in key order: actor, command_id, data, game_id, kind, prev_hash, secrets, time,
    version (FIELDS less the hash)."""

    __slots__ = ("_after_actor", "_after_data", "_after_secrets", "_command_id", "_game_id", "_new_salt", "_time")

    def __init__(self, *, game_id: str, time: str, command_id: str | None, new_salt: Callable[[], str]) -> None:
        self._game_id, self._time, self._command_id, self._new_salt = game_id, time, command_id, new_salt
        self._after_actor = f',"command_id":{canonical_text(command_id)},"data":'
        self._after_data = f',"game_id":{canonical_text(game_id)},"kind":'
        self._after_secrets = f',"time":{canonical_text(time)},"version":'

    def seal(self, *, version: int, actor: str, event: Event, prev_hash: str) -> dict[str, Any]:
        """The full record of `event` as event `version` of the game, chained to `prev_hash`."""
        data = event.data
        # `Event.data` builds a fresh plain copy already; a kind with its own `data` (`Untyped`
        # hands back what it holds) is copied here, for a record is plain JSON, free to change.
        plain = data if type(event).data is Event.data else encode(data)  # type: ignore[comparison-overlap]
        by = SYSTEM if event.automatic else actor
        secrets = [{"to": list(s.to), "salt": self._new_salt(), "value": s.value} for s in event.secrets]
        record: dict[str, Any] = {
            "game_id": self._game_id,
            "version": version,
            "time": self._time,
            "actor": by,
            "command_id": self._command_id,
            "kind": event.kind,
            "data": plain,
            "secrets": secrets,
            "prev_hash": prev_hash,
        }
        hashed = "".join((
            '{"actor":', canonical_text(by), self._after_actor, canonical_text(plain), self._after_data,
            canonical_text(event.kind), ',"prev_hash":', canonical_text(prev_hash), ',"secrets":',
            canonical_text([digest_form(s) for s in secrets]) if secrets else "[]",
            self._after_secrets, canonical_text(version), "}"))
        record["hash"] = sha256_hex(hashed.encode())
        return record


def to_event(record: Mapping[str, Any], catalogue: Catalogue | None = None) -> Event:
    """The typed event a full record holds (a redacted secret's value is None): of its kind
    in `catalogue`, `Untyped` when the catalogue does not declare it. Data that does not fit
    its kind is a `RecordError` naming the event."""
    listed = record["secrets"]
    secrets = tuple([_secret(tuple(s["to"]), s.get("value")) for s in listed]) if listed else ()
    automatic = record["actor"] == SYSTEM
    if catalogue is None:
        return Untyped(record["kind"], record["data"], secrets=secrets, automatic=automatic)
    try:
        return catalogue.event(record["kind"], record["data"], secrets, automatic)
    except RecordError as error:  # name the event whose data does not fit its kind
        version = record.get("version")
        raise RecordError(error.code, f"event {version}: {error.message}", version) from None


def _secret(to: tuple[int, ...], value: Any) -> Secret:
    """`Secret(to, value)` without the frozen dataclass's per-field checks: every record
    read back builds its secrets (a `Secret` has no `__post_init__` to skip)."""
    secret = object.__new__(Secret)
    secret.__dict__.update(to=to, value=value)
    return secret


def redact(record: dict[str, Any], audience: Audience) -> dict[str, Any]:
    """The record as `audience` may see it."""
    secrets = record.get("secrets", [])
    if all("value" not in s or audience.sees(s["to"]) for s in secrets):
        return record
    out = dict(record)
    out["secrets"] = [s if "value" not in s or audience.sees(s["to"]) else digest_form(s) for s in secrets]
    return out


def verify_chain(records: Iterable[dict[str, Any]], game_id: str | None = None, id_field: str = "game_id") -> int:
    """Check versions, links, hashes and secrets of a record; return how many events it has.
    Raises `RecordError` naming the first bad version. A tournament's record is chained
    alike, under `id_field="tournament_id"`."""
    prev = GENESIS_HASH
    count = 0
    fields = (id_field, *FIELDS[1:])
    for expected_version, record in enumerate(records, start=1):
        version = record.get("version") if isinstance(record, dict) else None
        missing = [f for f in fields if not isinstance(record, dict) or f not in record]
        if missing:
            raise RecordError("record_malformed", f"event {expected_version} lacks {', '.join(missing)}", expected_version)
        if version != expected_version:
            raise RecordError("version_gap", f"expected version {expected_version}, found {version}", expected_version)
        if game_id is not None and record[id_field] != game_id:
            raise RecordError("game_mismatch", f"event {version} belongs to {record[id_field]}", version)
        if record["prev_hash"] != prev:
            raise RecordError("chain_broken", f"event {version} does not link to the event before it", version)
        for secret in record["secrets"]:
            if "value" in secret and "digest" in secret and secret["digest"] != digest(secret["salt"], secret["value"]):
                raise RecordError("secret_mismatch", f"a secret of event {version} does not match its digest", version)
        if record_hash(record) != record["hash"]:
            raise RecordError("hash_mismatch", f"event {version} was altered: its hash does not match", version)
        prev = record["hash"]
        count += 1
    return count


def group_by_command(records: Sequence[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Split a record into the groups one command (or one automatic step) caused."""
    groups: list[list[dict[str, Any]]] = []
    for record in records:
        if groups and record["command_id"] is not None and groups[-1][0]["command_id"] == record["command_id"]:
            groups[-1].append(record)
        else:
            groups.append([record])
    return groups
