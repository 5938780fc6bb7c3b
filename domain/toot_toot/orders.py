"""Order cards: the deck, dealing and refilling (R15), and supplying orders in a sale or in
final scoring (R13, R22)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from domain.core.events import Event, Secret
from domain.core.randomness import Randomness, shuffled
from domain.toot_toot.content import Content, Order
from domain.toot_toot.events import OrdersShuffled, PublicOrderRevealed, SecretOrderDealt
from domain.toot_toot.state import State

# What a draw from the order deck is called at a table (`rng.draw`'s `what`).
SECRET_DRAW = "an order card drawn as a secret order"
PUBLIC_DRAW = "an order card turned up as a public order"


def unfilled(order: Order, filled: tuple[int, ...], good: str) -> list[int]:
    """The indexes of the order's icons of `good` not yet filled."""
    return [i for i, icon in enumerate(order.icons) if icon == good and i not in filled]


class Deck:
    """The deck as a command draws from it: the events it causes, in order."""

    def __init__(self, state: State, rng: Randomness) -> None:
        self.deck, self.discard, self.rng = list(state.deck), list(state.discard), rng
        self.events: list[Event] = []

    def draw(self, what: str, by: int | None = None) -> str | None:
        """The next card (`rng.draw`: the top of a seeded deck; at a table, the card entered,
        by `by` when only that seat sees it), taken out of the deck by name. The discards
        are shuffled into a new deck first when it is empty, and nothing is drawn when both
        are empty (R15)."""
        if not self.deck and self.discard:
            order = self.rng.shuffle(self.discard)
            self.events.append(OrdersShuffled(cards=len(order), reshuffle=True,
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
            self.events.append(SecretOrderDealt(seat=seat, reason=reason, secrets=(Secret((seat,), {"order": card}),),
                                                automatic=automatic))

    def refill(self, public: int, wanted: int) -> None:
        for _ in range(wanted - public):
            card = self.draw(PUBLIC_DRAW)
            if card is None:
                return
            self.events.append(PublicOrderRevealed(order=card, automatic=True))


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
