"""Order cards (R13, R15, R22, R29), read top to bottom: the events of the order deck (its
shuffles, a secret order dealt, a public order turned up) and of an order supplied (a hand
order shown as it is played, its icons filled, the order completed or discarded); the deck as
a move draws from it, refilling the public row to players + 1 and reshuffling the discards
when it runs out (R15); what supplying an order scores and the ways goods can supply orders,
in a sale (`locations`) or in final scoring (`final_scoring`); and how each event changes the
state."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from domain.core.events import Event, Secret
from domain.core.randomness import Randomness, shuffled
from domain.core.state import replace, replace_seat
from domain.toot_toot.content import Content, Order
from domain.toot_toot.ledger import Handlers, unchanged
from domain.toot_toot.state import STARTS, State

if TYPE_CHECKING:
    from domain.toot_toot.steps import Steps

# What a draw from the order deck is called at a table (`rng.draw`'s `what`).
SECRET_DRAW = "an order card drawn as a secret order"
PUBLIC_DRAW = "an order card turned up as a public order"

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class OrdersShuffled(Event):
    """The order deck shuffled; its order is a referee's secret (R29). Also the reshuffle
    of the discards when the deck runs out (R15)."""
    cards: int
    reshuffle: bool = False


@dataclass(frozen=True, kw_only=True)
class SecretOrderDealt(Event):
    """One order card to a seat's hand; which card is that seat's secret."""
    seat: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class PublicOrderRevealed(Event):
    order: str


@dataclass(frozen=True, kw_only=True)
class SecretOrderPlayed(Event):
    """A hand order supplied in a sale or in final scoring, shown as it leaves the hand."""
    seat: int
    order: str


@dataclass(frozen=True, kw_only=True)
class IconsFilled(Event):
    order: str
    icons: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class OrderCompleted(Event):
    seat: int
    order: str


@dataclass(frozen=True, kw_only=True)
class OrderDiscarded(Event):
    seat: int
    order: str


# --- the deck (R15) -----------------------------------------------------------------------


class Deck:
    """The deck as a move draws from it, from the deck and discards of `state` (the state the
    move was made in), each draw emitted through `steps`."""

    def __init__(self, steps: Steps, state: State, rng: Randomness) -> None:
        self.steps, self.rng = steps, rng
        self.deck, self.discard = list(state.deck), list(state.discard)

    def draw(self, what: str, by: int | None = None) -> str | None:
        """The next card (`rng.draw`: the top of a seeded deck; at a table, the card entered,
        by `by` when only that seat sees it), taken out of the deck by name. The discards
        are shuffled into a new deck first when it is empty, and nothing is drawn when both
        are empty (R15)."""
        if not self.deck and self.discard:
            order = self.rng.shuffle(self.discard)
            self.steps.emit(OrdersShuffled(cards=len(order), reshuffle=True,
                                           secrets=(Secret((), shuffled(order)),), automatic=True))
            self.deck, self.discard = order, []
        if not self.deck:
            return None
        card: str = self.rng.draw(self.deck, 1, what, by=by)[0]
        self.deck.remove(card)
        return card

    def deal_secret(self, seat: int, reason: str, automatic: bool = True) -> None:
        card = self.draw(SECRET_DRAW, by=seat)
        if card is not None:
            self.steps.emit(SecretOrderDealt(seat=seat, reason=reason, secrets=(Secret((seat,), {"order": card}),),
                                             automatic=automatic))

    def refill(self, public: int, wanted: int) -> None:
        for _ in range(wanted - public):
            card = self.draw(PUBLIC_DRAW)
            if card is None:
                return
            self.steps.emit(PublicOrderRevealed(order=card, automatic=True))


# --- supplying orders (R13, R14, R22) -----------------------------------------------------


def unfilled(order: Order, filled: tuple[int, ...], good: str) -> list[int]:
    """The indexes of the order's icons of `good` not yet filled."""
    return [i for i, icon in enumerate(order.icons) if icon == good and i not in filled]


def points(content: Content, bonus: Mapping[str, int], order: Order, units: Mapping[str, int]) -> int:
    """What supplying `units` to `order` scores: each good's value, plus the seller's Sell+1
    for the order's colour (R13, R14)."""
    return sum((content.good[good].value + bonus.get(order.colour, 0)) * count for good, count in units.items())


def wants(content: Content, state: State, orders: Sequence[str], goods: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """For each of `orders` and each good it still wants that is among `goods`: (order, good,
    the most units of it the order may take)."""
    out = []
    for order_id in orders:
        order = content.order[order_id]
        for good in sorted(set(order.icons)):
            most = min(len(unfilled(order, state.filled.get(order_id, ()), good)), goods.get(good, 0))
            if most:
                out.append((order_id, good, most))
    return out


def spread(choices: list[tuple[str, str, int]], left: Mapping[str, int], index: int = 0,
           fills: Mapping[str, Mapping[str, int]] | None = None) -> Iterator[dict[str, dict[str, int]]]:
    """Every way to supply goods from `left` to orders: `choices` lists (order, good, most
    units it may take); each way maps order -> good -> units, the empty way first."""
    fills = fills or {}
    if index == len(choices):
        yield {o: dict(units) for o, units in fills.items()}
        return
    order_id, good, most = choices[index]
    yield from spread(choices, left, index + 1, fills)
    for n in range(1, min(most, left.get(good, 0)) + 1):
        units = {**fills.get(order_id, {}), good: n}
        yield from spread(choices, {**left, good: left[good] - n}, index + 1, {**fills, order_id: units})


# --- the events applied -------------------------------------------------------------------


def _shuffled(content: Content, s: State, e: OrdersShuffled) -> State:
    order = tuple(e.secret()["random"]["shuffle"])
    return replace(s, deck=order, discard=() if e.reshuffle else s.discard)


def _secret(content: Content, s: State, e: SecretOrderDealt) -> State:
    card = e.secret()["order"]
    s = replace(s, deck=tuple(c for c in s.deck if c != card))
    return replace_seat(s, e.seat, hand=(*s.seats[e.seat].hand, card))


def _revealed(content: Content, s: State, e: PublicOrderRevealed) -> State:
    s = replace(s, deck=tuple(c for c in s.deck if c != e.order), public=(*s.public, e.order))
    # The last of the setup's players + 1 public orders: the seats choose their starts (R3).
    if s.phase == "setup" and len(s.public) == len(s.seats) + 1:
        n = len(s.seats)
        s = replace(s, phase=STARTS, choosing=tuple(range(n - 1, -1, -1)))
    return s


def _filled(content: Content, s: State, e: IconsFilled) -> State:
    return replace(s, filled={**s.filled, e.order: tuple(sorted((*s.filled.get(e.order, ()), *e.icons)))})


def _leaves(s: State, order: str, seat: int) -> State:
    """An order leaves the row or the hand (and its filled icons are forgotten)."""
    filled = {o: icons for o, icons in s.filled.items() if o != order}
    s = replace(s, public=tuple(o for o in s.public if o != order), filled=filled)
    return replace_seat(s, seat, hand=tuple(o for o in s.seats[seat].hand if o != order))


def _completed(content: Content, s: State, e: OrderCompleted) -> State:
    s = _leaves(s, e.order, e.seat)
    return replace_seat(s, e.seat, kept=(*s.seats[e.seat].kept, e.order))


def _discarded(content: Content, s: State, e: OrderDiscarded) -> State:
    return replace(_leaves(s, e.order, e.seat), discard=(*s.discard, e.order))


APPLY: Handlers = {
    OrdersShuffled: _shuffled, SecretOrderDealt: _secret, PublicOrderRevealed: _revealed,
    SecretOrderPlayed: unchanged, IconsFilled: _filled, OrderCompleted: _completed, OrderDiscarded: _discarded,
}
KINDS = tuple(APPLY)
