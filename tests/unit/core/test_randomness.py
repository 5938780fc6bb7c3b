"""The fair generator against an independent reading of FORMAT.md."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from domain.core.errors import RecordError
from domain.core.randomness import RecordedRandom, SeededRandom, commitment, rolled, shuffled


def reference_stream(seed: bytes):
    """FORMAT.md, read literally: HMAC-SHA256(seed, 8-byte big-endian counter from 0)."""
    counter = 0
    while True:
        yield from hmac.new(seed, counter.to_bytes(8, "big"), hashlib.sha256).digest()
        counter += 1


def reference_randbelow(stream, n: int) -> int:
    while True:
        x = int.from_bytes(bytes(next(stream) for _ in range(8)), "big")
        if x < 2**64 - (2**64 % n):
            return x % n


def reference_shuffle(stream, items: list) -> list:
    items = sorted(items, key=lambda x: json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode())
    for i in range(len(items) - 1, 0, -1):
        j = reference_randbelow(stream, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


@pytest.mark.parametrize("seed", [bytes(32), bytes(range(32)), hashlib.sha256(b"caboose").digest()])
def test_generator_matches_format(seed: bytes) -> None:
    ours, theirs = SeededRandom(seed), reference_stream(seed)
    assert [ours.randbelow(n) for n in (6, 6, 110, 3, 2**63)] == [reference_randbelow(theirs, n) for n in (6, 6, 110, 3, 2**63)]
    assert ours.shuffle(range(110)) == reference_shuffle(theirs, list(range(110)))
    assert ours.shuffle(["red", "blue", "locomotive"] * 3) == reference_shuffle(theirs, ["blue", "locomotive", "red"] * 3)


def test_position_resumes_the_stream_exactly() -> None:
    seed = bytes(range(32))
    first = SeededRandom(seed)
    first.randbelow(7)
    first.shuffle(range(13))
    resumed = SeededRandom(seed, first.position)
    assert [resumed.randbelow(1000) for _ in range(20)] == [first.randbelow(1000) for _ in range(20)]


@pytest.mark.parametrize("position", [0, 1, 8, 31, 32, 33, 63, 64, 95, 200])
def test_resuming_at_any_position_reads_on_from_that_byte(position: int) -> None:
    # The block a position falls in is made only when something is read: resumed and left
    # alone, a generator stays where it was; read from, it gives the stream's next bytes.
    seed = hashlib.sha256(b"resume").digest()
    untouched = SeededRandom(seed, position)
    assert untouched.position == position
    stream = reference_stream(seed)
    for _ in range(position):
        next(stream)
    resumed = SeededRandom(seed, position)
    assert [resumed.randbelow(n) for n in (6, 1000, 2**63, 3)] == [reference_randbelow(stream, n) for n in (6, 1000, 2**63, 3)]
    assert resumed.position == position + 32


def test_a_position_before_the_stream_is_refused() -> None:
    with pytest.raises(ValueError):
        SeededRandom(bytes(32), -1)


def test_rejection_sampling_skips_biased_values() -> None:
    # n = 2**64 - 1 rejects only x = 2**64 - 1; any draw stays below n.
    rng = SeededRandom(bytes(32))
    assert all(0 <= rng.randbelow(2**64 - 1) < 2**64 - 1 for _ in range(100))


def test_commitment_is_sha256_of_seed() -> None:
    assert commitment(bytes(32)) == hashlib.sha256(bytes(32)).hexdigest()


def test_recorded_random_replays_and_checks() -> None:
    recorded = RecordedRandom([shuffled([3, 1, 2])["random"], rolled(6, 4)["random"]])
    assert recorded.shuffle([1, 2, 3]) == [3, 1, 2]
    assert recorded.randbelow(6) == 4
    with pytest.raises(RecordError, match="asked for"):
        recorded.randbelow(6)


def test_recorded_random_refuses_impossible_outcomes() -> None:
    with pytest.raises(RecordError):
        RecordedRandom([shuffled([1, 1, 2])["random"]]).shuffle([1, 2, 3])
    with pytest.raises(RecordError):
        RecordedRandom([rolled(6, 6)["random"]]).randbelow(6)
    with pytest.raises(RecordError):
        RecordedRandom([rolled(4, 1)["random"]]).randbelow(6)
