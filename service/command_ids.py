"""Command ids, and the Idempotency-Keys clients give them.

A stored command's id is what a retry finds it by: a client's `Idempotency-Key` becomes the
id of its move (or outcome, or referee action) as it was given. The server's own commands
have ids in namespaces of their own, which no client may use: a game's creation (`create:`),
a referee's or the service's action (`referee:`), a fork (`fork:`), a bot's move (`bot:`) and
`system:`. A bot's id is predictable on purpose (`bot:GAME:VERSION`, the same for every bot
runner, so two runners racing store one move); a client that could take such an id ahead of
the runner would leave the bot's move answered by its own, and the bot stuck.
"""

from __future__ import annotations

import uuid

from service.errors import BadRequest, ServiceError

RESERVED = ("bot:", "create:", "fork:", "referee:", "system:")
"""The prefixes of the server's own command ids; a client's key may begin with none of them
(in any case of letters)."""
MAX_KEY = 200


class ReservedKey(ServiceError):
    """A client's Idempotency-Key in a namespace the server keeps for its own commands."""

    code = "idempotency_key_reserved"

    def __init__(self, prefix: str) -> None:
        super().__init__(f"An Idempotency-Key may not begin with {prefix!r}: the prefixes {', '.join(RESERVED)} are "
                         "reserved for the server's own commands. Use any other key, such as a random UUID.")
        self.prefix = prefix


def from_client(key: str | None) -> str | None:
    """A client's Idempotency-Key as its command's id: refused when empty, longer than
    `MAX_KEY` or in a reserved namespace. None stays None (the server picks an id)."""
    if key is None:
        return None
    if not 1 <= len(key) <= MAX_KEY:
        raise BadRequest(f"Idempotency-Key must be 1–{MAX_KEY} characters.")
    for prefix in RESERVED:
        if key[:len(prefix)].lower() == prefix:
            raise ReservedKey(prefix)
    return key


def fresh(prefix: str) -> str:
    """A new id in one of the server's namespaces (`create:`, `referee:`, `fork:`…)."""
    if prefix not in RESERVED:
        raise ValueError(f"{prefix!r} is not one of the server's namespaces {RESERVED}")
    return f"{prefix}{uuid.uuid4()}"


def bot_move(game_id: str, version: int) -> str:
    """The id of a bot's move at `version`: the same for every runner, and for no client."""
    return f"bot:{game_id}:{version}"
