"""The choices an effect waits for (`docs/rules/railway_boom.md`, R22, R24, R25, R11): a chosen
income track, free rails, or which of two drawn cards to buy. Read top to bottom: the event,
the answers the first pending effect accepts, what an answer records and sets going (a free
rail laid, a card's own effect, the income raised), and how the event changes the state. An
effect starts waiting in `effects` (`ChoiceAwaited`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.moves import Command
from domain.core.state import replace, replace_seat
from domain.railway_boom import building, development, effects, expansion
from domain.railway_boom.bidding import conversion_for, reachable
from domain.railway_boom.content import DRAW_TWO_BUY_ONE, FREE_RAILS, RAISE_INCOME, TRACKS, Content
from domain.railway_boom.ledger import Handlers, add_resource, convert
from domain.railway_boom.resources import converting, with_conversion
from domain.railway_boom.state import State

if TYPE_CHECKING:
    from domain.railway_boom.steps import Steps

# --- the event ----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ChoiceMade(Event):
    """The answer to a pending effect; for draw-two-buy-one, the card bought and its `price`
    (the other drawn card goes under the deck) and the conversion into technology made just
    before paying it (R11)."""

    seat: int
    card: str
    choice: str
    price: int | None = None
    convert: dict[str, int] | None = None


# --- the answers --------------------------------------------------------------------------


def choices(content: Content, state: State) -> list[str]:
    """The answers the first pending effect accepts."""
    pending = state.pending[0]
    if pending.effect == RAISE_INCOME:
        return list(TRACKS)
    if pending.effect == FREE_RAILS:
        return [*building.rail_spots(content, state, pending.seat, free=True), "none"]
    if pending.effect == DRAW_TWO_BUY_ONE:
        # R11: the price may be met by converting into technology.
        technology = reachable(state.seats[pending.seat], "technology")
        return [c for c in pending.drawn if _drawn_price(content, pending.amount, c) <= technology] + ["none"]
    return []


def _drawn_price(content: Content, discount: int, card: str) -> int:
    return max(0, content.developments[card].price - discount)


def answers(content: Content, state: State) -> list[dict[str, Any]]:
    """The moves answering the first pending effect: each answer, a drawn card with the fewest
    conversions that pay for it (R11)."""
    pending = state.pending[0]
    me = state.seats[pending.seat]
    moves: list[dict[str, Any]] = []
    for choice in choices(content, state):
        convert = None
        if pending.effect == DRAW_TWO_BUY_ONE and choice != "none":
            convert = conversion_for(me, "technology", _drawn_price(content, pending.amount, choice))
        moves.append(with_conversion({"type": "resolve", "choice": choice}, convert))
    return moves


# --- the answer ---------------------------------------------------------------------------


def resolve(steps: Steps, seat: int, c: Command) -> None:
    pending, choice = steps.state.pending[0], c["choice"]
    allowed = choices(steps.content, steps.state)
    if choice not in allowed:
        raise IllegalMove("bad_choice", f"{choice!r} is not an answer here; choose one of: {', '.join(allowed)}.")
    price, convert = None, None
    if pending.effect == DRAW_TWO_BUY_ONE and choice != "none":
        price = _drawn_price(steps.content, pending.amount, choice)
        convert = converting(steps.state, seat, "technology", c["convert"], price)
    elif c["convert"]:
        raise IllegalMove("cannot_convert", "Only buying a drawn card pays anything here; there is nothing to convert for (R11).")
    steps.emit(ChoiceMade(seat=seat, card=pending.card, choice=choice, price=price, convert=convert))
    if pending.effect == FREE_RAILS:
        if choice != "none":
            expansion.lay(steps, seat, choice, True, first=False)
            still = steps.state.pending[0] if steps.state.pending else None
            if still is not None and (still.card, still.effect) == (pending.card, FREE_RAILS) and not building.rail_spots(
                    steps.content, steps.state, seat, free=True):
                steps.emit(ChoiceMade(seat=seat, card=pending.card, choice="none", automatic=True))
    elif pending.effect == DRAW_TWO_BUY_ONE:
        if choice != "none":
            development.run_effects(steps, seat, choice)
    else:
        effects.raise_levels(steps, seat, choice, pending.amount, pending.card)


# --- the event applied --------------------------------------------------------------------


def _made(c: Content, s: State, e: ChoiceMade) -> State:
    head, rest = s.pending[0], s.pending[1:]
    if head.drawn:
        back = tuple(card for card in head.drawn if card != e.choice)
        if e.price is not None:
            s = add_resource(convert(s, e.seat, "technology", e.convert), e.seat, "technology", -e.price)
            s = replace_seat(s, e.seat, developments=(*s.seats[e.seat].developments, e.choice))
        return replace(s, pending=rest, decks={**s.decks, "development": (*s.decks["development"], *back)})
    if head.effect == "free_rails" and e.choice != "none" and head.amount > 1:
        return replace(s, pending=(replace(head, amount=head.amount - 1), *rest))
    return replace(s, pending=rest)


APPLY: Handlers = {ChoiceMade: _made}
KINDS = tuple(APPLY)
