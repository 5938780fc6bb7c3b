"""The state of a game: frozen dataclasses of plain values only (ints, strings, tuples,
dicts, None), so the snapshot codec can store it and `evolve` can share what it does not
change."""

from __future__ import annotations

from dataclasses import InitVar, dataclass, field

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
    (snapshots, the states rewinds restore) still carry the field, always empty outside the
    opening, so it is accepted and dropped to keep them decoding."""

    def __post_init__(self, *_retired: object) -> None:
        super().__post_init__()


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
