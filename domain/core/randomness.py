"""Fair randomness (FORMAT.md, "Fair randomness").

The rules ask for randomness through the small `Randomness` interface and never draw it
themselves. They ask in the game's own terms where a table would: `roll` dice, `pick` one
item from a bag, `draw` from the top of a pile shuffled earlier. A seeded game answers them
from the generator (`roll` and `pick` are `randbelow` underneath, so their outcomes are
stored and re-derived like any other; `draw` takes the pile's top and consumes nothing, as
the pile's order is already recorded). A game played at a table (`TableRandom`) answers them
from outcomes entered by the referee or a seat, checking each one was possible.

`SeededRandom` is the documented generator (HMAC-SHA256 in counter mode keyed by
a 32-byte seed, unbiased `randbelow`, Fisher-Yates from the end, always starting from
the items sorted by their canonical JSON). `RecordedRandom` answers
from outcomes already stored in events, so a game can be re-adjudicated before its seed is
revealed, recorded from a physical table, or imported from another site.

Every event that used randomness stores its outcome under the reserved key `random` (in its
public data or in a secret's value), built with `shuffled()` or `rolled()`; auditors find
the outcomes there in order.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

from domain.core.canonical import canonical
from domain.core.errors import RecordError

T = TypeVar("T")
RANDOM_KEY = "random"
_TWO_64 = 2**64


Label = Callable[[Any], str]
"""How an item is named at the table (a card, a cube colour, a tile)."""


class Randomness(Protocol):
    def randbelow(self, n: int) -> int: ...

    def shuffle(self, items: Sequence[T]) -> list[T]: ...

    def roll(self, dice: int, what: str, sides: int = 6) -> list[int]:
        """`dice` dice of `sides` faces; the faces, 1-based, in the order rolled."""
        ...

    def pick(self, items: Sequence[T], what: str, label: Label = str) -> int:
        """The index in `items` (a bag, repeats allowed) of the one item taken at random."""
        ...

    def draw(self, pile: Sequence[T], count: int, what: str, label: Label = str,
             by: int | None = None) -> list[T]:
        """The top `count` items of `pile`, a pile shuffled earlier. `by` is the seat whose
        own secret draw it is (None when the whole table or the referee sees it)."""
        ...


class _Derived:
    """`roll`, `pick` and `draw` in terms of `randbelow`, for the generator and for outcomes
    read back from a record: a die is `randbelow(sides)`, a pick `randbelow(len(items))`,
    a draw the pile's top."""

    def randbelow(self, n: int) -> int:
        raise NotImplementedError

    def roll(self, dice: int, what: str, sides: int = 6) -> list[int]:
        return [self.randbelow(sides) + 1 for _ in range(dice)]

    def pick(self, items: Sequence[T], what: str, label: Label = str) -> int:
        return self.randbelow(len(items))

    def draw(self, pile: Sequence[T], count: int, what: str, label: Label = str,
             by: int | None = None) -> list[T]:
        return list(pile[:count])


def commitment(seed: bytes) -> str:
    """SHA-256 hex of the seed bytes: published at creation, checked at the reveal."""
    return hashlib.sha256(seed).hexdigest()


class SeededRandom(_Derived):
    """The FORMAT.md generator. `position` counts bytes consumed, so a stored game can
    resume the stream exactly where it stopped."""

    def __init__(self, seed: bytes, position: int = 0) -> None:
        if len(seed) != 32:
            raise ValueError("a seed is 32 bytes")
        if position < 0:
            raise ValueError("a position is a count of bytes consumed")
        self._seed = seed
        self._buffer = b""
        # Resuming mid-block: the block's first `_spent` bytes were consumed before. The block
        # is made when something is read, not here: most moves draw nothing (a game resumes
        # the stream for every move), and its HMAC was a move's largest cost beside the rules.
        self._counter, self._spent = divmod(position, 32)
        self.position = position

    def _block(self) -> bytes:
        block = hmac.new(self._seed, self._counter.to_bytes(8, "big"), hashlib.sha256).digest()
        self._counter += 1
        return block

    def _read(self, n: int) -> bytes:
        if self._spent:
            self._buffer, self._spent = self._block()[self._spent:], 0
        while len(self._buffer) < n:
            self._buffer += self._block()
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        self.position += n
        return out

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs n >= 1")
        limit = _TWO_64 - (_TWO_64 % n)
        while True:
            x = int.from_bytes(self._read(8), "big")
            if x < limit:
                return x % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        # Starting from a canonical order lets anyone re-derive a shuffle from its stored
        # outcome alone, without knowing the order the rules held the items in.
        out = sorted(items, key=canonical)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def shuffled(order: Sequence[Any]) -> dict[str, Any]:
    """The stored form of a shuffle's outcome."""
    return {RANDOM_KEY: {"shuffle": list(order)}}


def rolled(n: int, value: int) -> dict[str, Any]:
    """The stored form of one `randbelow(n)` outcome (a die is `rolled(6, face - 1)`)."""
    return {RANDOM_KEY: {"below": n, "value": value}}


def outcomes_in(values: Iterable[Any]) -> Iterator[dict[str, Any]]:
    """The random outcomes stored in event payloads, in order."""
    for value in values:
        if isinstance(value, dict) and isinstance(value.get(RANDOM_KEY), dict):
            yield value[RANDOM_KEY]


class RecordedRandom(_Derived):
    """Answers from stored outcomes, checking each one could have come from the request."""

    def __init__(self, outcomes: Iterable[dict[str, Any]]) -> None:
        self._outcomes = iter(outcomes)

    def _next(self, what: str) -> dict[str, Any]:
        try:
            return next(self._outcomes)
        except StopIteration:
            raise RecordError("random_missing", f"the rules asked for a {what} the record does not hold") from None

    def randbelow(self, n: int) -> int:
        outcome = self._next("number")
        value = outcome.get("value")
        if outcome.get("below") != n or not isinstance(value, int) or not 0 <= value < n:
            raise RecordError("random_mismatch", f"recorded outcome {outcome} is not a number below {n}")
        return value

    def shuffle(self, items: Sequence[T]) -> list[T]:
        outcome = self._next("shuffle")
        order = outcome.get("shuffle")
        if not isinstance(order, list) or sorted(map(repr, order)) != sorted(map(repr, items)):
            raise RecordError("random_mismatch", "a recorded shuffle is not a permutation of the items shuffled")
        return list(order)

    def exhausted(self) -> bool:
        return next(self._outcomes, None) is None
