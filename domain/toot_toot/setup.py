"""The setup ("Setup"; R3), read top to bottom: the events, the setup they record (the map
picked, player cards dealt, the order deck shuffled, one secret order each and players + 1
public orders, `orders`), the choice of start positions from the last player back (its
checks, the starts a seat may choose, what a choice records) and how each event changes the
state. The first player's first turn follows the last choice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.core.errors import IllegalMove
from domain.core.events import Event, Secret
from domain.core.randomness import Randomness, rolled, shuffled
from domain.core.state import replace, replace_seat
from domain.toot_toot.content import Content
from domain.toot_toot.context import Ctx
from domain.toot_toot.ledger import Handlers
from domain.toot_toot.orders import Deck, OrdersShuffled
from domain.toot_toot.state import MAIN, PLAY, State

if TYPE_CHECKING:
    from domain.toot_toot.steps import Steps

RANDOM_MAP = "random"
"""The option `map` that has the map rolled at setup."""
MAP_PICK = "the map, picked at random"
"""What the map's roll is called at a table (`rng.pick`'s `what`)."""

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class MapChosen(Event):
    """The map (rolled among the pack's maps unless the options named one; the roll under
    `random`)."""
    map: str
    random: dict | None = None  # type: ignore[type-arg]


@dataclass(frozen=True, kw_only=True)
class PlayerCardsDealt(Event):
    cards: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class StartChosen(Event):
    seat: int
    hex: str
    facing: int


# --- the setup ----------------------------------------------------------------------------


def opening(steps: Steps, rng: Randomness) -> None:
    """The map, player cards, the order deck shuffled, one secret order each and players + 1
    public orders."""
    content, state = steps.ctx.content, steps.state
    maps = [m.id for m in content.maps]
    if state.requested_map == RANDOM_MAP:
        index = rng.pick(maps, MAP_PICK)
        steps.emit(MapChosen(map=maps[index], random=rolled(len(maps), index)["random"], automatic=True))
    else:
        steps.emit(MapChosen(map=state.requested_map, automatic=True))
    seats = len(state.seats)
    steps.emit(PlayerCardsDealt(cards=tuple(c.id for c in content.cards[:seats]), automatic=True))
    order = rng.shuffle([o.id for o in content.orders])
    steps.emit(OrdersShuffled(cards=len(order), secrets=(Secret((), shuffled(order)),), automatic=True))
    deck = Deck(steps, State(seats=state.seats, deck=tuple(order)), rng)
    for seat in range(seats):
        deck.deal_secret(seat, "setup")
    deck.refill(0, seats + 1)


# --- start positions (R3) -----------------------------------------------------------------


def check_start(ctx: Ctx, hex_: str) -> int:
    """The facing of the free start position on `hex_`."""
    taken = {s.hex for s in ctx.state.seats}
    for start in ctx.map.starts:
        if start.hex == hex_:
            if hex_ in taken:
                raise IllegalMove("start_taken", f"Start position {hex_} is taken (R3).")
            return start.facing
    raise IllegalMove("not_a_start", f"{hex_} is not one of map {ctx.map.id}'s start positions (R3).")


def legal_moves(ctx: Ctx) -> list[dict[str, Any]]:
    """Every free start position."""
    taken = {s.hex for s in ctx.state.seats}
    return [{"type": "choose_start", "hex": s.hex} for s in ctx.map.starts if s.hex not in taken]


def choose_start(steps: Steps, hex_: str) -> None:
    ctx = steps.ctx
    steps.emit(StartChosen(seat=ctx.seat, hex=hex_, facing=check_start(ctx, hex_)))


# --- the events applied -------------------------------------------------------------------


def _map(content: Content, s: State, e: MapChosen) -> State:
    return replace(s, map=e.map, track=dict(content.map[e.map].track))


def _cards(content: Content, s: State, e: PlayerCardsDealt) -> State:
    seats = tuple(replace(seat, card=c) for seat, c in zip(s.seats, e.cards, strict=True))
    return replace(s, seats=seats)


def _start(content: Content, s: State, e: StartChosen) -> State:
    s = replace_seat(s, e.seat, hex=e.hex, facing=e.facing)
    choosing = s.choosing[1:]
    if choosing:
        return replace(s, choosing=choosing)
    s = replace(s, choosing=(), phase=PLAY, current=0, step=MAIN)
    return replace_seat(s, 0, turns=1)


APPLY: Handlers = {MapChosen: _map, PlayerCardsDealt: _cards, StartChosen: _start}
KINDS = tuple(APPLY)
