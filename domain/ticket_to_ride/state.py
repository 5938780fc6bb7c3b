"""The state of a game: frozen dataclasses of plain values only (ints, strings, tuples,
dicts, None), so the snapshot codec can store it and `evolve` can share what it does not
change."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.core.state import Frozen

SETUP = "setup"
"""Before the setup events: nobody may move."""
OPENING = "opening"
"""Every seat chooses its first tickets at once (a sealed simultaneous phase)."""
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
    returning: tuple[str, ...] = ()
    """Tickets returned in the opening, held back until every seat has chosen so that the
    ticket deck's size does not give a choice away."""
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
