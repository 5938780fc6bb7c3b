"""The state of a game: frozen dataclasses of plain values only (ints, strings, tuples,
dicts, None), so the snapshot codec can store it and `evolve` can share what it does not
change."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import InitVar, dataclass, field
from typing import cast

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
    returning: InitVar[object] = None
    """Retired: the opening's returned tickets now wait in `State.sealed`. States stored before
    (snapshots, the states rewinds restore) still carry the field; `State` turns an opening
    stored that way into its sealed phase (`_sealed_from_stored`)."""

    def __post_init__(self, returning: object) -> None:
        super().__post_init__()
        if returning:  # kept aside, not a field, for the `State` being decoded around it
            object.__setattr__(self, "_stored_returning", tuple(cast(Iterable[str], returning)))


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

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.phase == OPENING and self.sealed is None and any(
                seat.offered or hasattr(seat, "_stored_returning") for seat in self.seats):
            # (Between the reveal and the first turn the opening has no sealed phase any
            # more, and no seat holds offered or returning tickets.)
            _sealed_from_stored(self)


def _sealed_from_stored(state: State) -> None:
    """An opening stored before it was a sealed phase: each seat that had chosen held its kept
    tickets among its tickets and its returned ones in `returning`, and no `sealed`. Its
    choices move into the sealed phase, so the game goes on (and reveals) exactly as if it had
    been stored today. In the opening a seat's only tickets are the ones it chose to keep."""
    dealt = tuple(i for i, seat in enumerate(state.seats) if seat.offered or seat.tickets)
    chosen = {i: {"kept": list(state.seats[i].tickets), "returned": list(getattr(state.seats[i], "_stored_returning", ()))}
              for i in dealt if not state.seats[i].offered}
    seats = tuple(dataclasses.replace(seat, tickets=()) if i in chosen else seat for i, seat in enumerate(state.seats))
    object.__setattr__(state, "seats", seats)
    object.__setattr__(state, "sealed", Sealed(OPENING, dealt, chosen))
