"""Old layouts by the library's upcasting (`domain/core/upcasting.py`): a record whose data is
in an older layout of its kind reads as today's event, upcast in order on a copy, after its
hash was checked on the record as stored; a record in today's layout is not touched."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from domain.core.catalogue import Catalogue
from domain.core.codec import decode, encode
from domain.core.envelope import record_hash, seal, to_event, verify_chain
from domain.core.events import Event, Untyped
from domain.core.state import Frozen
from domain.core.upcasting import upcast

UPCASTS: list[str] = []


@dataclass(frozen=True, kw_only=True)
class FaresCollected(Event):
    """A seat collected its fares.

    Layout 1 recorded one `fare`; 2 a list of `fares`; 3 names their `currency`."""

    seat: int
    fares: tuple[int, ...]
    currency: str

    class_version: ClassVar[int] = 3

    @staticmethod
    def layout_version(data: Mapping[str, Any]) -> int:
        return 1 if "fare" in data else 2 if "currency" not in data else 3

    @staticmethod
    def upcast_v1_v2(data: dict[str, Any]) -> None:
        UPCASTS.append("v1_v2")
        data["fares"] = [data.pop("fare")]

    @staticmethod
    def upcast_v2_v3(data: dict[str, Any]) -> None:
        UPCASTS.append("v2_v3")
        data["currency"] = "coins" if sum(data["fares"]) < 100 else "notes"  # reads what v1_v2 wrote


CATALOGUE = Catalogue(FaresCollected)


def _record(data: dict[str, Any]) -> dict[str, Any]:
    return seal(game_id="g", version=1, time="t", actor="seat:0", command_id=None,
                event=Untyped("FaresCollected", data), prev_hash="0" * 64, new_salt=lambda: "00" * 16)


def test_an_old_layout_record_is_upcast_in_order_and_stays_as_stored() -> None:
    record = _record({"seat": 1, "fare": 7})
    stored = copy.deepcopy(record)
    assert verify_chain([record]) == 1  # the hash is checked on the record as stored
    UPCASTS.clear()
    event = to_event(record, CATALOGUE)
    assert UPCASTS == ["v1_v2", "v2_v3"]
    assert event == FaresCollected(seat=1, fares=(7,), currency="coins")
    assert record == stored and record_hash(record) == record["hash"]  # the record is unchanged


def test_a_layout_between_is_upcast_from_where_it_stands() -> None:
    UPCASTS.clear()
    event = to_event(_record({"seat": 0, "fares": [60, 50]}), CATALOGUE)
    assert UPCASTS == ["v2_v3"] and event.currency == "notes"  # type: ignore[attr-defined]


def test_a_current_record_is_not_touched() -> None:
    data = {"seat": 2, "fares": [3], "currency": "coins"}
    UPCASTS.clear()
    assert upcast(FaresCollected, data) is data
    assert to_event(_record(data), CATALOGUE) == FaresCollected(seat=2, fares=(3,), currency="coins")
    assert UPCASTS == []


def test_a_kind_with_a_class_version_and_no_upcast_is_refused() -> None:
    @dataclass(frozen=True, kw_only=True)
    class Half(Event):
        seat: int
        class_version: ClassVar[int] = 2

        @staticmethod
        def layout_version(data: Mapping[str, Any]) -> int:
            return 1

    with pytest.raises(TypeError, match="upcast_v1_v2"):
        Catalogue(Half)


@dataclass(frozen=True)
class Ledger(Frozen):
    """A state whose layout 1 kept `cash` as a string."""

    cash: int
    class_version: ClassVar[int] = 2

    @staticmethod
    def layout_version(data: Mapping[str, Any]) -> int:
        return 1 if isinstance(data.get("cash"), str) else 2

    @staticmethod
    def upcast_v1_v2(data: dict[str, Any]) -> None:
        data["cash"] = int(data["cash"])


@dataclass(frozen=True)
class Books(Frozen):
    ledgers: tuple[Ledger, ...]


def test_a_state_stored_in_an_old_layout_decodes_as_today_s_at_any_depth() -> None:
    stored = {"ledgers": [{"cash": "12"}, {"cash": 3}]}
    kept = copy.deepcopy(stored)
    assert decode(Books, stored) == Books((Ledger(12), Ledger(3)))
    assert stored == kept
    assert encode(decode(Books, stored)) == {"ledgers": [{"cash": 12}, {"cash": 3}]}
