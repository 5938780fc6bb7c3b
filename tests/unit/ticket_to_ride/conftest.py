"""Helpers for the Ticket to Ride rules tests: games started with a fixed seed, positions
built directly as `State`, and moves played through `decide` + `evolve`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from domain.core.errors import RuleError
from domain.core.events import Event
from domain.core.randomness import Randomness, SeededRandom
from domain.core.sealed import open_phase
from domain.ticket_to_ride import DECIDER
from domain.ticket_to_ride.state import OPENING, PLAY, Seat, State
from tests import playouts
from tests.usa import CARD_KINDS, ROUTES, TICKETS, TRAIN_CARDS, TRAINS_PER_SEAT

SEED = bytes(32)
MARKET = ("red", "blue", "green", "yellow", "black")


def fold(state: State, events: Iterable[Event]) -> State:
    return playouts.fold(DECIDER, state, events)


def new_game(seats: int = 2, seed: bytes = SEED) -> tuple[State, list[Event], SeededRandom]:
    """A game right after its setup events: every seat is choosing its first tickets."""
    return playouts.set_up(DECIDER, seats, seed)


def play(state: State, seat: int, move: Mapping[str, Any], rng: Randomness | None = None) -> tuple[State, list[Event]]:
    events = DECIDER.decide(state, seat, move, rng or SeededRandom(SEED))
    return fold(state, events), events


def opened(seats: int = 2, seed: bytes = SEED) -> tuple[State, SeededRandom]:
    """A game past the opening: every seat kept all three of its tickets."""
    state, _, rng = new_game(seats, seed)
    for seat in range(seats):
        state, _ = play(state, seat, {"type": "keep_tickets", "keep": list(state.seats[seat].offered)}, rng)
    return state, rng


def kinds(events: Iterable[Event]) -> list[str]:
    return [event.kind for event in events]


def of_kind(events: Iterable[Event], kind: str) -> list[Event]:
    return [event for event in events if event.kind == kind]


def hand(**counts: int) -> dict[str, int]:
    """A full hand (every card kind present) from a few counts."""
    out = dict.fromkeys(CARD_KINDS, 0)
    out.update(counts)
    return out


def table(
    seats: int = 2,
    *,
    hands: Sequence[dict[str, int]] | None = None,
    market: Sequence[str | None] = MARKET,
    deck: Sequence[str] | None = None,
    discard: Sequence[str] = (),
    claims: dict[str, int] | None = None,
    trains: Sequence[int] | None = None,
    scores: Sequence[int] | None = None,
    tickets: Sequence[Sequence[str]] | None = None,
    offered: Sequence[Sequence[str]] | None = None,
    ticket_deck: Sequence[str] | None = None,
    current: int = 0,
    phase: str = PLAY,
    **state_fields: Any,
) -> State:
    """A position built directly. Unless `deck` is given, the train cards placed nowhere else
    make up the deck (in printed order), and unless `ticket_deck` is given the tickets held by
    nobody make up the ticket deck, so every card and ticket is accounted for. In the opening
    the seats with tickets offered are the ones still to choose. Trains follow
    from the claimed routes unless given; a given score counts as one scoring event."""
    claims = dict(claims or {})
    hands = [hand(**h) if set(h) != set(CARD_KINDS) else dict(h) for h in (hands or [{}] * seats)]
    tickets = [tuple(t) for t in (tickets or [()] * seats)]
    offered = [tuple(t) for t in (offered or [()] * seats)]
    if deck is None:
        left = Counter(TRAIN_CARDS)
        left.subtract(card for card in market if card is not None)
        left.subtract(discard)
        for h in hands:
            left.subtract(h)
        assert all(n >= 0 for n in left.values()), "the position uses more cards than the game has"
        deck = [kind for kind in CARD_KINDS for _ in range(left[kind])]
    if ticket_deck is None:
        held = {t for seat in range(seats) for t in (*tickets[seat], *offered[seat])}
        ticket_deck = [t for t in TICKETS if t not in held]
    if trains is None:
        laid = Counter[int]()
        for route, owner in claims.items():
            laid[owner] += ROUTES[route].length
        trains = [TRAINS_PER_SEAT - laid[seat] for seat in range(seats)]
    scores = scores or [0] * seats
    return State(
        seats=tuple(
            Seat(
                f"player {i + 1}",
                trains=trains[i],
                hand=hands[i],
                tickets=tickets[i],
                offered=offered[i],
                score=scores[i],
                scored=(scores[i],) if scores[i] else (),
            )
            for i in range(seats)
        ),
        doubles_both_usable=seats >= 4,
        phase=phase,
        deck=tuple(deck),
        market=tuple(market),
        discard=tuple(discard),
        ticket_deck=tuple(ticket_deck),
        claims=claims,
        current=current if phase == PLAY else None,
        first_player=0,
        # In the opening, the seats offered tickets are the ones still choosing.
        sealed=open_phase(OPENING, tuple(i for i in range(seats) if offered[i])) if phase == OPENING else None,
        **state_fields,
    )


def refused(state: State, seat: int, move: Mapping[str, Any], error: type[RuleError] = RuleError) -> RuleError:
    """The error `move` is refused with (failing the test if it is accepted)."""
    with pytest.raises(error) as caught:
        DECIDER.decide(state, seat, move, SeededRandom(SEED))
    return caught.value
