"""Old layouts read as today's, by the event library's own upcasting design.

The library (`eventsourcing`) versions a class's stored state with `class_version = N` and
reads an older state through the class's static methods `upcast_v1_v2(data)`,
`upcast_v2_v3(data)`… applied in order, each changing the stored dict in place, before the
object is built (`service/aggregate.py`: the game's snapshots). Event kinds and game states
declare their old layouts the same way, so no evolve, view or `__post_init__` has to know one:

    class_version = 2

    @staticmethod
    def layout_version(data: Mapping[str, Any]) -> int:
        return 1 if "old_field" in data else 2

    @staticmethod
    def upcast_v1_v2(data: dict[str, Any]) -> None:
        ...

The one difference from the library is how a layout's version is known. The library writes
it beside the state; a FORMAT.md record cannot carry it (its `data` is hashed, fixed by the
format, and written by other implementations too), nor can a state encoded by `codec.encode`.
So a class whose layout changed says which layout stored data is in by the fields it holds,
`layout_version(data)`: only a class whose `class_version` is above 1 is asked.

Upcasting happens where stored data becomes its type, after everything about the stored
bytes has been checked: `Catalogue.event` for a record (the chain and every hash are
verified on the record as stored, `envelope.py`), `codec.decode` for a state. The stored
data itself is never changed: an upcast works on a copy, so the record stays byte-identical
in the store, in exports and in the audit.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any


def current_version(cls: type) -> int:
    """The layout `cls` is written in today: its `class_version`, 1 when it declares none."""
    return int(getattr(cls, "class_version", 1))


def upcast(cls: type, data: Mapping[str, Any]) -> Mapping[str, Any]:
    """`data`, stored by `cls` in any of its layouts, in its current one: `data` itself when
    it already is, else a copy upcast in order from the layout `cls.layout_version` finds."""
    version = current_version(cls)
    if version == 1:
        return data
    found = int(cls.layout_version(data))  # type: ignore[attr-defined]
    if found >= version:
        return data
    upcast_data = copy.deepcopy(dict(data))
    while found < version:
        getattr(cls, f"upcast_v{found}_v{found + 1}")(upcast_data)
        found += 1
    return upcast_data


def check(cls: type) -> None:
    """Refuse a class whose upcasting is incomplete: a `class_version` above 1 needs
    `layout_version` and every `upcast_vK_vK+1` below it."""
    version = current_version(cls)
    if version == 1:
        return
    missing = [name for name in ("layout_version", *(f"upcast_v{k}_v{k + 1}" for k in range(1, version)))
               if not callable(getattr(cls, name, None))]
    if missing:
        raise TypeError(f"{cls.__name__} has class_version {version} but no {', '.join(missing)}")
