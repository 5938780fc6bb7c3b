"""Fair before play: everything chance decides in a tournament comes from one secret.

At creation the tournament publishes `commitment(secret)`. From then on every table's seed
and seat order, and every player's draw (the last tie-break), are derived from the secret
and the thing's identity alone (HMAC-SHA256 keyed by the secret over the canonical JSON of
`{"use": ..., ...}`), so no one, the operator included, can arrange them after the
commitment. The secret is revealed when the tournament ends; `docs/verify_tournament.py`
re-derives each of them with the standard library.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import Any

from domain.core.canonical import canonical
from domain.core.randomness import SeededRandom, commitment

__all__ = ["commitment", "derived", "draw", "seating", "table_seed"]


def derived(secret: bytes, **identity: Any) -> bytes:
    """32 bytes that only the secret's holder could compute for `identity`."""
    return hmac.new(secret, canonical(identity), hashlib.sha256).digest()


def table_seed(secret: bytes, round_: int, table: int) -> bytes:
    """The seed of table `table` of round `round_`: its game's seed, committed to in its GameCreated."""
    return derived(secret, use="seed", round=round_, table=table)


def seating(secret: bytes, round_: int, table: int, players: Sequence[str]) -> tuple[str, ...]:
    """The seat order of a table's players: FORMAT.md's shuffle (from the names sorted by
    their canonical JSON) drawn from the table's own stream."""
    return tuple(SeededRandom(derived(secret, use="seats", round=round_, table=table)).shuffle(list(players)))


def draw(secret: bytes, player: str) -> str:
    """A player's draw: 16 hex digits, lower drawn first (the ladder's last tie-break and the
    first round's order)."""
    return derived(secret, use="draw", player=player).hex()[:16]
