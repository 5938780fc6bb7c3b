"""The envelope, hash chain and redaction of FORMAT.md."""

from __future__ import annotations

import copy
import hashlib
import json

import pytest

from domain.core.envelope import GENESIS_HASH, Sealer, digest, group_by_command, record_hash, redact, seal, verify_chain
from domain.core.errors import RecordError
from domain.core.events import PUBLIC, REFEREE, Audience, Secret, Untyped
from domain.ticket_to_ride.train_cards import CardDrawn


def chain(n: int = 4) -> list[dict]:
    records, prev, salts = [], GENESIS_HASH, iter(f"{i:032x}" for i in range(100))
    for version in range(1, n + 1):
        event = CardDrawn(seat=version % 2, source="deck", secrets=(Secret((version % 2,), {"card": "red"}),))
        record = seal(game_id="g", version=version, time="2026-01-01T00:00:00Z", actor=f"seat:{version % 2}",
                      command_id=f"c{version}", event=event, prev_hash=prev, new_salt=lambda: next(salts))
        records.append(record)
        prev = record["hash"]
    return records


def independent_hash(record: dict) -> str:
    """FORMAT.md, read literally."""
    body = {k: v for k, v in record.items() if k != "hash"}
    body["secrets"] = [
        {"to": s["to"], "digest": s.get("digest") or hashlib.sha256(bytes.fromhex(s["salt"]) + json.dumps(
            s["value"], sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()}
        for s in record["secrets"]
    ]
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()


def test_hash_matches_an_independent_reading_of_format() -> None:
    for record in chain():
        assert record["hash"] == independent_hash(record)
    assert chain()[0]["prev_hash"] == "0" * 64


def test_a_command_s_records_sealed_together_hash_as_each_record_alone() -> None:
    # The sealer writes the text it hashes member by member, the members every record of
    # the command shares written once: its hashes must be those of the whole record, read
    # literally, whatever the members hold (text to escape, no command id, numbers, nested
    # data, keys out of order, secrets or none).
    odd = 'quote " backslash \\ newline \n tab \t nul \x00 é 漢 \u2028 😀'
    events = [
        Untyped("Odd" + odd, {"z": [1, 2.5, -0.0, 10**20, True, None], "a": {odd: odd, "b": {}}, "1": []},
                secrets=(Secret((1, 0), {"card": odd, "n": 3}), Secret((2,), [odd]))),
        CardDrawn(seat=1, source="deck", secrets=(Secret((1,), {"card": "red"}),)),
        Untyped("Empty", {}),
        Untyped("Automatic", {"seat": 0}, automatic=True),
    ]
    for game_id, time, command_id, actor in [("g", "2026-01-01T00:00:00Z", None, "system"),
                                             (odd, odd, odd, odd), ("g", "t", "c", "seat:12")]:
        salts = (f"{i:032x}" for i in range(100))
        sealer = Sealer(game_id=game_id, time=time, command_id=command_id, new_salt=salts.__next__)
        prev, records = GENESIS_HASH, []
        for version, event in enumerate(events, start=1):
            record = sealer.seal(version=version, actor=actor, event=event, prev_hash=prev)
            assert record["hash"] == independent_hash(record) == record_hash(record)
            assert list(record) == ["game_id", "version", "time", "actor", "command_id", "kind", "data", "secrets",
                                    "prev_hash", "hash"]
            prev = record["hash"]
            records.append(record)
        assert verify_chain(records, game_id) == len(events)
        assert records[-1]["actor"] == "system"


def test_intact_chain_verifies_full_and_redacted() -> None:
    records = chain()
    assert verify_chain(records) == 4
    assert verify_chain([redact(r, PUBLIC) for r in records]) == 4


@pytest.mark.parametrize("tamper, code, version", [
    (lambda rs: rs[2]["data"].update(source="market"), "hash_mismatch", 3),
    (lambda rs: rs[1]["secrets"][0].update(value={"card": "locomotive"}), "hash_mismatch", 2),
    (lambda rs: rs.pop(1), "version_gap", 2),
    (lambda rs: rs[3].update(prev_hash="f" * 64), "chain_broken", 4),
    (lambda rs: rs[0].pop("kind"), "record_malformed", 1),
])
def test_tampering_names_the_first_bad_version(tamper, code: str, version: int) -> None:
    records = copy.deepcopy(chain())
    tamper(records)
    with pytest.raises(RecordError) as caught:
        verify_chain(records)
    assert (caught.value.code, caught.value.version) == (code, version)


def test_redaction_by_audience() -> None:
    record = chain(1)[0]
    owner, other = Audience(seat=1), Audience(seat=0)
    assert redact(record, owner)["secrets"][0]["value"] == {"card": "red"}
    assert redact(record, REFEREE)["secrets"][0]["value"] == {"card": "red"}
    hidden = redact(record, other)["secrets"][0]
    assert set(hidden) == {"to", "digest"}
    assert hidden["digest"] == digest(record["secrets"][0]["salt"], {"card": "red"})
    assert "red" not in json.dumps(redact(record, PUBLIC))


def test_groups_follow_command_ids() -> None:
    records = chain(3)
    records[1]["command_id"] = records[0]["command_id"]
    assert [len(g) for g in group_by_command(records)] == [2, 1]
