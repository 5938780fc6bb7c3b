"""gunicorn's access log, without credentials (`logger_class` in infra/gunicorn.conf.py).

The links this service prints carry a seat's token in the fragment (`#token=…`), which a
browser never sends, and its clients send tokens in headers. A request may still name one in
its address — an old `…/replay?token=…` link, a hand-typed one — and an access log keeps
every address it is given: this logger writes such values as `[redacted]`, in the request
line, the query, the referrer and any header a log format names, and never writes the
`Authorization` or `Seat-Tokens` headers.
"""

from __future__ import annotations

import re
from typing import Any

from gunicorn.glogging import Logger

REDACTED = "[redacted]"
CREDENTIAL_IN_ADDRESS = re.compile(r"(?i)(?<![\w-])(token|invite|seat_tokens)=[^&;#\s\"]*")
"""A credential named in a query or fragment: `token=…`, `invite=…`."""
CREDENTIAL_HEADERS = ("{authorization}i", "{seat-tokens}i", "{cookie}i")


def redacted(text: str) -> str:
    return CREDENTIAL_IN_ADDRESS.sub(lambda found: f"{found[1]}={REDACTED}", text)


class RedactingLogger(Logger):  # type: ignore[misc]  # gunicorn ships no type information: Logger is Any
    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        for name, value in atoms.items():
            if name in CREDENTIAL_HEADERS:
                atoms[name] = REDACTED
            elif isinstance(value, str):
                atoms[name] = redacted(value)
        return atoms
