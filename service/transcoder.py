"""The application's transcoder: the library's JSON, read back by orjson.

Every reader of a game (a replay, a read model's rebuild, an export, a page of events)
decodes stored events through the library's mapper (`Caboose.construct_transcoder`), and
decoding the stored JSON was the largest part of that: the standard decoder with the
library's `object_hook` asks a Python function about every object in every record. orjson
reads the same bytes in about a third of the time; the library's transcodings (a datetime,
a UUID, a decimal) are then revived where they are, which for an event is its time stamp
at the top and for a snapshot two dates one level down.

Writing is the library's own `JSONTranscoder`'s encoder (its C scanner made once rather
than per event), so the bytes stored are exactly what they were and every older database
reads the same. Whatever orjson refuses (integers beyond 64 bits, lone surrogates, NaN) or
a transcoding found deeper than those two levels is read by the standard decoder, as
before: the result is always the library's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import (
    Cipher,
    Compressor,
    DatetimeAsISO,
    JSONTranscoder,
    Mapper,
    StoredEvent,
    Transcoder,
    find_id_convertor,
)
from eventsourcing.utils import resolve_topic

from domain.core.canonical import CompactJSON

_TYPE = b'"_type_"'
_STAMP = DatetimeAsISO.name


class OrjsonTranscoder(JSONTranscoder):
    """`JSONTranscoder` whose `decode` is orjson's, giving what the standard one gives; it
    encodes with the library's encoder, its scanner made once (`CompactJSON`)."""

    def __init__(self) -> None:
        super().__init__()
        self.encoder = CompactJSON(sort_keys=False, default=self._encode_obj)

    def decode(self, data: bytes) -> Any:
        try:
            decoded = orjson.loads(data)
        except orjson.JSONDecodeError:
            return super().decode(data)
        first = data.find(_TYPE)
        if first < 0:
            return decoded
        if type(decoded) is not dict:
            return super().decode(data)
        # Each `"_type_"` in the bytes must be a transcoding revived here; one left over (a
        # transcoding deeper down, or the word inside a string) sends the whole to the
        # standard decoder, which revives at every depth exactly as it always did. An
        # event's one transcoding is its time stamp, looked at first (and a second word
        # looked for past the first: half the cost of counting them all).
        stamp = decoded.get("timestamp")
        if type(stamp) is dict and len(stamp) == 2 and stamp.get("_type_") == _STAMP and "_data_" in stamp \
                and _STAMP in self.names and data.find(_TYPE, first + len(_TYPE)) < 0:
            decoded["timestamp"] = self.names[_STAMP].decode(stamp["_data_"])
            return decoded
        marked = data.count(_TYPE)
        top = self._revive(decoded, 1)
        if top == marked or (top >= 0 and top + self._revive(decoded, 2) == marked):
            return decoded
        return super().decode(data)

    def _revive(self, mapping: dict[str, Any], depth: int) -> int:
        """Revive the transcodings among `mapping`'s values (and theirs, `depth` levels
        down, dicts only); returns how many there were."""
        revived = 0
        for key, value in mapping.items():
            if type(value) is not dict:
                continue
            if len(value) == 2 and "_type_" in value and "_data_" in value:
                transcoding = self.names.get(value["_type_"])
                if transcoding is None:
                    return -1  # the standard decoder raises what the library raises
                mapping[key] = transcoding.decode(value["_data_"])
                revived += 1
            elif depth > 1:
                inner = self._revive(value, depth - 1)
                if inner < 0:
                    return -1
                revived += inner
        return revived


class EventMapper(Mapper[UUID]):
    """The library's `Mapper`, with what it works out per event (the class a topic names,
    the id's convertor, the class's version) worked out once per topic: every replay and
    rebuild maps every event it reads, and those look-ups were a third of the mapping.
    An event that needs more than the plain case (a cipher, a compressor, an upcast, a
    state that does not decode) is mapped by the library's own code."""

    def __init__(self, transcoder: Transcoder, compressor: Compressor | None = None, cipher: Cipher | None = None) -> None:
        super().__init__(transcoder, compressor, cipher)
        self._known: dict[tuple[str, type], tuple[type, Callable[[Any], Any], int]] = {}

    def to_domain_event(self, stored_event: StoredEvent) -> DomainEventProtocol[UUID]:
        if self.cipher is not None or self.compressor is not None:
            return super().to_domain_event(stored_event)
        key: tuple[str, Any] = (stored_event.topic, type(stored_event.originator_id))
        known = self._known.get(key)
        if known is None:
            cls = resolve_topic(stored_event.topic)
            known = self._known[key] = (cls, find_id_convertor(cls, key[1]), getattr(cls, "class_version", 1))
        cls, convert, class_version = known
        try:
            state: dict[str, Any] = self.transcoder.decode(stored_event.state)
        except Exception:  # the library's own error, raised by its own code
            return super().to_domain_event(stored_event)
        if class_version != 1 or "class_version" in state:
            return super().to_domain_event(stored_event)
        state["originator_id"] = convert(stored_event.originator_id)
        state["originator_version"] = stored_event.originator_version
        event: Any = object.__new__(cls)
        object.__setattr__(event, "__dict__", state)
        return event  # type: ignore[no-any-return]
