"""Canonical JSON and SHA-256, exactly as FORMAT.md defines them."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from json import encoder as _json
from typing import Any


class CompactJSON(json.JSONEncoder):
    """The encoder of `json.dumps(value, separators=(",", ":"), ensure_ascii=False,
    sort_keys=sort_keys, default=default)`, made once. `json.dumps` builds an encoder, and
    the encoder its C scanner, on every call: for a record (a few microseconds of encoding,
    and each is encoded two or three times as it is sealed and stored) that set-up was a
    fifth of the cost. The scanner made here is the one `json` makes, with the same
    arguments, so the text is the same; it skips the check for a value that contains itself,
    which no JSON value does (one that did would overflow the stack instead of raising
    `ValueError`)."""

    def __init__(self, *, sort_keys: bool, default: Callable[[Any], Any] | None = None) -> None:
        super().__init__(sort_keys=sort_keys, separators=(",", ":"), ensure_ascii=False, default=default)
        make = getattr(_json, "c_make_encoder", None)
        # Without json's C speedups (another interpreter), `json`'s own encoding, per call.
        self._scan = None if make is None else make(
            None, self.default, _json.encode_basestring, None, ":", ",", sort_keys, False, True)

    def encode(self, o: Any) -> str:
        if self._scan is None:
            return super().encode(o)
        return "".join(self._scan(o, 0))


_CANONICAL = CompactJSON(sort_keys=True)


def canonical(value: Any) -> bytes:
    """The canonical form of a JSON value: sorted keys, no spaces, UTF-8."""
    return _CANONICAL.encode(value).encode()


def canonical_text(value: Any) -> str:
    """`canonical(value)` before its UTF-8 encoding. The canonical text of an object is its
    members in key order, each `canonical_text(key):canonical_text(value)`, joined by commas
    within braces: an object whose members are known apart (a record's, `envelope.Sealer`)
    is written from its members' texts, those shared by many objects made once."""
    # What the encoder does with a string or an integer, without its set-up.
    if type(value) is str:
        return _json.encode_basestring(value)
    if type(value) is int:
        return int.__repr__(value)
    return _CANONICAL.encode(value)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
