"""One set of limits on the JSON a client hands us — request bodies, query strings, record
files — checked before anything reads it, so hostile input is refused with a clear error
and never reaches the rules or the store.

- nesting deeper than `MAX_DEPTH`: deep enough for every move and record, far short of
  what would exhaust the recursion of the encoders and decoders downstream;
- a lone surrogate (`"\\ud800"`): not a character, so it cannot be encoded as UTF-8, hashed
  or stored;
- NUL (`"\\u0000"`): PostgreSQL's text cannot hold it;
- `NaN` and `Infinity`: not JSON (RFC 8259), and a record holding them would not verify
  elsewhere.

Each refusal names the offending value by its JSON Pointer (RFC 6901), e.g. `/players/1`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

MAX_DEPTH = 32
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_UNSHOWABLE = re.compile("[\x00\ud800-\udfff]")


class InputRefused(ValueError):
    """Input outside the limits: `code` says which, `path` points at the value."""

    def __init__(self, code: str, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.path = code, message, path


def _pointer(path: tuple[str | int, ...]) -> str:
    """The JSON Pointer of a value; a NUL or lone surrogate in a key is shown escaped, so
    the pointer itself can be sent back and logged."""
    pointer = "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)
    return _UNSHOWABLE.sub(lambda found: f"\\u{ord(found.group()):04x}", pointer)


def _check_text(text: str, path: tuple[str | int, ...], what: str) -> None:
    if "\x00" in text:
        raise InputRefused("nul_character", f"{what} at {_pointer(path) or 'the top'} contains NUL (\\u0000), "
                                            "which cannot be stored.", _pointer(path))
    if _LONE_SURROGATE.search(text):
        raise InputRefused("lone_surrogate", f"{what} at {_pointer(path) or 'the top'} contains a lone surrogate "
                                             "(\\ud800–\\udfff), which is not a character.", _pointer(path))


def check(value: Any) -> Any:
    """Return `value` if it is within the limits; raise `InputRefused` naming the first
    value that is not. Walks without recursion, so any depth is safe to look at."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        if len(path) > MAX_DEPTH:
            raise InputRefused("too_deep", f"The JSON is nested more than {MAX_DEPTH} levels deep (at {_pointer(path[:MAX_DEPTH + 1])}).",
                               _pointer(path[: MAX_DEPTH + 1]))
        if isinstance(item, str):
            _check_text(item, path, "The string")
        elif isinstance(item, Mapping):
            for key, inner in item.items():
                _check_text(str(key), (*path, key), "The key")
                stack.append((inner, (*path, key)))
        elif isinstance(item, list | tuple):
            stack.extend((inner, (*path, index)) for index, inner in enumerate(item))
        elif isinstance(item, float) and not math.isfinite(item):
            raise InputRefused("not_a_number", f"The number at {_pointer(path) or 'the top'} is not finite.", _pointer(path))
    return value


def _refuse_constant(name: str) -> Any:
    raise InputRefused("not_a_number", f"{name} is not a JSON number.")


def loads(text: str | bytes) -> Any:
    """Parse JSON within the limits. A text that is not JSON raises `json.JSONDecodeError`
    (or `UnicodeDecodeError` for bytes that are not UTF-8), as `json.loads` does."""
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise InputRefused("too_deep", f"The JSON is nested more than {MAX_DEPTH} levels deep.") from None
    except (InputRefused, json.JSONDecodeError, UnicodeDecodeError):
        raise
    except ValueError as error:  # an integer too long to convert
        raise InputRefused("bad_number", f"A number is out of range: {error}.") from None
    return check(value)
