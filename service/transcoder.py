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
from datetime import datetime
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
    Transcoding,
    find_id_convertor,
    pass_through_convertor,
)
from eventsourcing.utils import resolve_topic

from domain.core.canonical import CompactJSON

_TYPE = b'"_type_"'
_STAMP = DatetimeAsISO.name
_STAMPED = b'{"timestamp":{"_type_":"' + _STAMP.encode() + b'","_data_":"'
"""How the library's encoder starts an event: its time stamp, transcoded."""
_STAMPED_TYPE = _STAMPED.find(_TYPE)


class OrjsonTranscoder(JSONTranscoder):
    """`JSONTranscoder` whose `decode` is orjson's, giving what the standard one gives; it
    encodes with the library's encoder, its scanner made once (`CompactJSON`)."""

    def __init__(self) -> None:
        super().__init__()
        self.encoder = CompactJSON(sort_keys=False, default=self._encode_obj)
        self._revive_stamp: Callable[[Any], Any] | None = None

    def register(self, transcoding: Transcoding) -> None:
        super().register(transcoding)
        if transcoding.name == _STAMP:
            # The library's own time stamp transcoding is `datetime.fromisoformat` behind an
            # assertion that the value is a string, which `decode` checks itself: called
            # directly, for every event read. Another registered under the name is asked.
            self._revive_stamp = datetime.fromisoformat if type(transcoding) is DatetimeAsISO else transcoding.decode

    def decode(self, data: bytes) -> Any:
        try:
            decoded = orjson.loads(data)
        except orjson.JSONDecodeError:
            return super().decode(data)
        # Each `"_type_"` in the bytes must be a transcoding revived here; one left over (a
        # transcoding deeper down, or the word inside a string) sends the whole to the
        # standard decoder, which revives at every depth exactly as it always did. An
        # event's one transcoding is its time stamp, the first thing the library writes:
        # when the bytes start with it and the last `"_type_"` in them is the time stamp's
        # (searched for from the end, half the time of searching on past the first), it is
        # the only one. A key written twice leaves orjson the last: its value is checked.
        if data.startswith(_STAMPED) and data.rfind(_TYPE) == _STAMPED_TYPE and self._revive_stamp is not None:
            stamp = decoded["timestamp"]
            if type(stamp) is dict and len(stamp) == 2 and type(stamp.get("_data_")) is str:
                decoded["timestamp"] = self._revive_stamp(stamp["_data_"])
                return decoded
        if data.find(_TYPE) < 0:
            return decoded
        if type(decoded) is not dict:
            return super().decode(data)
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
        self._known: dict[str, tuple[Any, type, Callable[[Any], Any] | None]] = {}
        """topic -> (its class, the type of id it was worked out for, the id's convertor or
        None where the id is passed through); a class with another version than 1 is None."""

    def _learn(self, topic: str, id_type: type) -> tuple[Any, type, Callable[[Any], Any] | None]:
        cls = resolve_topic(topic)
        convert = find_id_convertor(cls, id_type)
        known = (cls if getattr(cls, "class_version", 1) == 1 else None, id_type,
                 None if convert is pass_through_convertor else convert)
        self._known[topic] = known
        return known

    def to_domain_event(self, stored_event: StoredEvent) -> DomainEventProtocol[UUID]:
        if self.cipher is not None or self.compressor is not None:
            return super().to_domain_event(stored_event)
        originator_id = stored_event.originator_id
        known = self._known.get(stored_event.topic)
        if known is None or known[1] is not type(originator_id):
            known = self._learn(stored_event.topic, type(originator_id))
        cls, _, convert = known
        if cls is None:
            return super().to_domain_event(stored_event)
        try:
            state: dict[str, Any] = self.transcoder.decode(stored_event.state)
        except Exception:  # the library's own error, raised by its own code
            return super().to_domain_event(stored_event)
        if "class_version" in state:
            return super().to_domain_event(stored_event)
        state["originator_id"] = originator_id if convert is None else convert(originator_id)
        state["originator_version"] = stored_event.originator_version
        event: Any = _new(cls)
        _set(event, "__dict__", state)
        return event  # type: ignore[no-any-return]


_new, _set = object.__new__, object.__setattr__
