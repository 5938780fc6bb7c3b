"""Domain events as the rules produce them, and the audiences that may read them."""

from __future__ import annotations

from dataclasses import Field, dataclass, field, fields
from typing import Any, ClassVar

from domain.core.codec import encode
from domain.core.state import Frozen


@dataclass(frozen=True)
class Secret:
    """Content only the seats in `to` (and referees) may see; `to=()` is referees only."""

    to: tuple[int, ...]
    value: Any


@dataclass(frozen=True, kw_only=True)
class Event(Frozen):
    """One thing that happened: the base of every event kind.

    A kind is a frozen dataclass subclass whose class name is its `kind` and whose own
    fields are the record's public `data`; what only some seats may read goes in `secrets`.
    `automatic` events are the game's own steps (refills, scoring) and are stored with actor
    `system` even inside a seat's move. Kinds are declared in a `Catalogue`
    (`domain/core/catalogue.py`), which turns a stored record back into its kind.

    A field whose default is None is left out of `data` while it is None, so an optional
    field reads in the record as an absent key (`FORMAT.md`), not as `null`; a field typed
    `X | None` without a default is always recorded, as `null` when None. A field's meaning
    and, where the record's word cannot be a Python name (`from`, or `kind`, which names the
    event itself), its key in the record are its metadata: `field(metadata=means(...))`.
    Like a game state, an event is immutable in fact: its mappings are `FrozenDict`s.
    """

    secrets: tuple[Secret, ...] = ()
    automatic: bool = False

    kind: ClassVar[str] = "Event"
    class_version: ClassVar[int] = 1
    """The layout of the kind's `data`; a kind whose layout changed says how older records
    read as today's (`domain/core/upcasting.py`)."""
    BASE_FIELDS: ClassVar[frozenset[str]] = frozenset({"secrets", "automatic"})

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "kind" not in cls.__dict__:
            cls.kind = cls.__name__

    @property
    def data(self) -> dict[str, Any]:
        """The public fields as the record's `data` (plain JSON)."""
        out: dict[str, Any] = {}
        for name, key, optional in _public_fields(type(self)):
            value = getattr(self, name)
            if value is None and optional:
                continue
            out[key] = encode(value)
        return out

    def secret(self, index: int = 0) -> Any:
        return self.secrets[index].value


_PUBLIC_FIELDS: dict[type[Event], tuple[tuple[str, str, bool], ...]] = {}


def _public_fields(kind: type[Event]) -> tuple[tuple[str, str, bool], ...]:
    """A kind's public fields as `data` reads them: (name, key in the record, left out while
    None). Worked out once per kind: every event sealed asked the dataclass for them again."""
    found = _PUBLIC_FIELDS.get(kind)
    if found is None:
        found = _PUBLIC_FIELDS[kind] = tuple((f.name, record_key(f), f.default is None) for f in fields(kind)
                                             if f.name not in Event.BASE_FIELDS)
    return found


def means(meaning: str, *, key: str | None = None) -> dict[str, str]:
    """A kind's field metadata: what the field means (published in the catalogue) and,
    when it is not the field's name, the key the record holds it under."""
    return {"meaning": meaning} if key is None else {"meaning": meaning, "key": key}


def record_key(f: Field[Any]) -> str:
    """The key of field `f` in a record's `data`."""
    return str(f.metadata.get("key", f.name))


@dataclass(frozen=True)
class Untyped(Event):
    """An event of a kind no catalogue declares: what a record of an unknown kind reads as,
    so an auditor can name it. A game's `evolve` refuses it (`UnknownKind`)."""

    name: str
    fields: dict[str, Any] = field(default_factory=dict)

    @property  # type: ignore[override]
    def kind(self) -> str:  # type: ignore[override]
        return self.name

    @property
    def data(self) -> dict[str, Any]:
        return self.fields


@dataclass(frozen=True)
class Audience:
    """Who is looking: one seat, a referee (sees everything) or the public (no token)."""

    seat: int | None = None
    referee: bool = False

    def sees(self, to: tuple[int, ...] | list[int]) -> bool:
        return self.referee or (self.seat is not None and self.seat in to)

    @property
    def label(self) -> str:
        if self.referee:
            return "referee"
        return "public" if self.seat is None else f"seat:{self.seat}"

    @classmethod
    def parse(cls, text: str) -> Audience:
        """`public`, `referee`, or `seat:N`."""
        if text == "public":
            return PUBLIC
        if text == "referee":
            return REFEREE
        if text.startswith("seat:") and text[5:].isdigit():
            return cls(seat=int(text[5:]))
        raise ValueError(f"unknown audience {text!r}: use public, referee or seat:N")


PUBLIC = Audience()
REFEREE = Audience(referee=True)
