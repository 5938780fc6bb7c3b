"""The state of a game: frozen dataclasses of plain values only (ints, strings, tuples,
dicts, None), so the snapshot codec can store it and `evolve` can share what it does not
change."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from domain.core.sealed import Sealed
from domain.core.state import Frozen

SETUP = "setup"
"""Before the setup events: nobody may move."""
OPENING = "opening"
"""Every seat chooses its first tickets at once: a sealed simultaneous phase (`State.sealed`)."""
PLAY = "play"
OVER = "over"


@dataclass(frozen=True)
class Seat(Frozen):
    name: str
    trains: int = 0
    """Trains left; a new game starts each seat with its map's number."""
    hand: dict[str, int] = field(default_factory=dict)
    """Train-car cards by kind; every kind of the map's deck is present, zero included."""
    tickets: tuple[str, ...] = ()
    """Kept tickets, in the order they were kept."""
    offered: tuple[str, ...] = ()
    """Tickets drawn or dealt and not yet kept or returned."""
    score: int = 0
    scored: tuple[int, ...] = ()
    """The points of each scoring event for this seat, kept apart from `score` so the two
    can be checked against each other."""


@dataclass(frozen=True)
class State(Frozen):
    seats: tuple[Seat, ...]
    doubles_both_usable: bool
    phase: str = SETUP
    deck: tuple[str, ...] = ()
    """Face-down train-car cards, top first."""
    market: tuple[str | None, ...] = ()
    """The face-up cards by slot, as many slots as the map has; None is an empty slot
    (ruling 2)."""
    discard: tuple[str, ...] = ()
    ticket_deck: tuple[str, ...] = ()
    """Top first; returned tickets go to the end."""
    claims: dict[str, int] = field(default_factory=dict)
    """Claimed route id -> seat."""
    first_player: int | None = None
    current: int | None = None
    """The seat whose turn it is once play has begun."""
    cards_drawn: int = 0
    """Train-car cards drawn so far in the current turn."""
    passes_in_a_row: int = 0
    final_round_trigger: int | None = None
    """The seat that ended a turn with 2 or fewer trains; its next turn is the game's last."""
    longest_paths: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    sealed: Sealed | None = None
    """During the opening, the seats still choosing and each choice made ({"kept": [...],
    "returned": [...]}, a secret to its seat): kept tickets join the seat and returned ones
    the ticket deck only at the reveal, so neither gives a choice away before it."""
    tickets_returned: int = 0
    """How many tickets at the bottom of the ticket deck were returned there since it was
    shuffled: their order is known, so a draw reaches them only once the tickets above are
    gone (what a table may enter, `draws.tickets`). States stored before it count none, which
    changes no seeded draw (the top of the deck)."""

    class_version: ClassVar[int] = 2
    """The layout of a stored state (snapshots, the states rewinds restore), read by the
    library's upcasting (`domain/core/upcasting.py`). 1: each seat held the opening's
    returned tickets in `returning` and the opening had no sealed phase; 2: today's."""

    @staticmethod
    def layout_version(data: Mapping[str, Any]) -> int:
        """A state stored in layout 1 has `returning` in every seat (a field then)."""
        return 1 if any("returning" in seat for seat in data.get("seats", ())) else 2

    @staticmethod
    def upcast_v1_v2(data: dict[str, Any]) -> None:
        """An opening stored before it was a sealed phase: each seat that had chosen held its
        kept tickets among its tickets and its returned ones in `returning`, and no `sealed`.
        Its choices move into the sealed phase, so the game goes on (and reveals) exactly as
        if it had been stored today. In the opening a seat's only tickets are the ones it
        chose to keep. Outside it every `returning` was empty, and only goes."""
        seats = data["seats"]
        returning = [seat.pop("returning", None) or [] for seat in seats]
        if data.get("phase") != OPENING or data.get("sealed") is not None \
                or not any(seat.get("offered") or returned for seat, returned in zip(seats, returning, strict=True)):
            # (Between the reveal and the first turn the opening has no sealed phase any
            # more, and no seat holds offered or returning tickets.)
            return
        dealt = [i for i, seat in enumerate(seats) if seat.get("offered") or seat.get("tickets")]
        chosen = {str(i): {"kept": list(seats[i].get("tickets", [])), "returned": list(returning[i])}
                  for i in dealt if not seats[i].get("offered")}
        for i in chosen:
            seats[int(i)]["tickets"] = []
        data["sealed"] = {"phase": OPENING, "seats": dealt, "choices": chosen}
